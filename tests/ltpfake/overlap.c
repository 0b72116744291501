/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like pair of tests that disturb each other, as shmget03 and
 * shmctl05 do: "overlap DIR NAME MS" marks DIR/NAME.busy (O_EXCL),
 * then for MS milliseconds looks for another test's mark in DIR: one
 * there fails it (TFAIL), else it passes.  It logs "NAME start T" and
 * "NAME end T" (milliseconds of CLOCK_REALTIME) to DIR/log, so a
 * check can tell from the times alone which tests ran side by side.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpfake.h"

static void
logline(const char *dir, const char *name, const char *what)
{
	struct timespec ts;
	char path[2048], line[512];
	int fd, len;

	(void)clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(path, sizeof(path), "%s/log", dir);
	len = snprintf(line, sizeof(line), "%s %s %lld\n", name, what,
	    (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
	if ((fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644)) == -1)
		return;
	/* One write: lines of tests side by side do not mix. */
	(void)write(fd, line, (size_t)len);
	(void)close(fd);
}

/* Another test's mark in dir, or NULL; the name is static. */
static const char *
other_mark(const char *dir, const char *mine)
{
	static char found[256];
	struct dirent *de;
	const char *dot;
	DIR *d;

	if ((d = opendir(dir)) == NULL)
		return NULL;
	found[0] = '\0';
	while ((de = readdir(d)) != NULL) {
		dot = strrchr(de->d_name, '.');
		if (dot != NULL && strcmp(dot, ".busy") == 0 &&
		    strcmp(de->d_name, mine) != 0) {
			snprintf(found, sizeof(found), "%s", de->d_name);
			break;
		}
	}
	closedir(d);
	return found[0] != '\0' ? found : NULL;
}

int
main(int argc, char **argv)
{
	const char *dir, *name, *other = NULL;
	char mine[300], path[2400];
	struct timespec nap = { 0, 5 * 1000 * 1000 };
	long ms, waited;
	int fd;

	fake_header();
	if (argc < 4) {
		fake_res("overlap01.c", 40, "TBROK", "usage: overlap DIR NAME "
		    "MS");
		return fake_summary();
	}
	dir = argv[1];
	name = argv[2];
	ms = atol(argv[3]);
	logline(dir, name, "start");
	snprintf(mine, sizeof(mine), "%s.busy", name);
	snprintf(path, sizeof(path), "%s/%s", dir, mine);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644)) == -1) {
		fake_res("overlap01.c", 50, "TBROK", "cannot mark %s", path);
		return fake_summary();
	}
	(void)close(fd);
	for (waited = 0; waited <= ms && other == NULL; waited += 5) {
		other = other_mark(dir, mine);
		(void)nanosleep(&nap, NULL);
	}
	(void)unlink(path);
	if (other != NULL)
		fake_res("overlap01.c", 60, "TFAIL", "ran beside %s", other);
	else
		fake_res("overlap01.c", 62, "TPASS", "ran alone for %ld ms",
		    ms);
	logline(dir, name, "end");
	return fake_summary();
}
