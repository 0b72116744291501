/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test that floods its output: "flood [MB [STOPFILE]]" writes
 * exactly MB MiB (50 by default) of new-library TINFO lines to stdout,
 * as fast as write(2) takes them; with STOPFILE it goes on past MB
 * until that file exists, so a test can look at a flood still running
 * however slow the machine.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK	(64 * 1024)

static char buf[CHUNK + 128];

int
main(int argc, char **argv)
{
	long long total = (argc > 1 ? atoll(argv[1]) : 50) * 1024 * 1024;
	long long left = total, line = 0;
	const char *stop = argc > 2 ? argv[2] : NULL;
	struct stat st;
	size_t fill, off;
	ssize_t n;

	while (left > 0 || (stop != NULL && stat(stop, &st) == -1)) {
		if (left <= 0)
			left = CHUNK;
		fill = 0;
		while (fill < CHUNK)
			fill += (size_t)snprintf(buf + fill, 128,
			    "flood01.c:42: TINFO: line %08lld of the flood, "
			    "as long as a chatty test's\n", line++);
		if ((long long)fill > left) {
			fill = (size_t)left;
			buf[fill - 1] = '\n';
		}
		for (off = 0; off < fill; off += (size_t)n) {
			n = write(STDOUT_FILENO, buf + off, fill - off);
			if (n == -1 && errno == EINTR) {
				n = 0;
				continue;
			}
			if (n <= 0)
				return 2;
		}
		left -= (long long)fill;
	}
	return 0;
}
