/*
 * How fast the catalogue reads every table in shared/netbsd, against
 * "wc -l" over the same files measured in the same run: the ratio says
 * whether parsing costs more than merely reading and counting lines
 * (wc's figure includes starting a process, as a user's would).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/diag.h"
#include "ltpscope/xmalloc.h"

#define PARSE_ROUNDS	200
#define WC_ROUNDS	20
#define MAX_FILES	64

extern char **environ;

static double
now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(void)
{
	const char *shared = getenv("LTPSCOPE_SHARED");
	char dir[4096], *files[MAX_FILES], *argv[MAX_FILES + 3];
	posix_spawn_file_actions_t fa;
	struct dirent *de;
	double t0, parse_ms, wc_ms;
	size_t nfiles = 0, i, entries = 0;
	DIR *d;
	int r;

	if (shared == NULL || *shared == '\0')
		shared = "../shared";
	(void)snprintf(dir, sizeof(dir), "%s/netbsd", shared);
	if ((d = opendir(dir)) == NULL) {
		fprintf(stderr, "bench_catalogue: %s: cannot open\n", dir);
		return 1;
	}
	while ((de = readdir(d)) != NULL && nfiles < MAX_FILES) {
		if (de->d_name[0] == '.')
			continue;
		(void)xasprintf(&files[nfiles], "%s/%s", dir, de->d_name);
		nfiles++;
	}
	(void)closedir(d);
	qsort(files, nfiles, sizeof(files[0]), cmp_str);

	t0 = now_ms();
	for (r = 0; r < PARSE_ROUNDS; r++) {
		struct catalogue *cat = catalogue_new();
		struct diaglist dl;

		diag_init(&dl);
		for (i = 0; i < nfiles; i++)
			(void)catalogue_load_file(cat, files[i], NULL, &dl);
		/* Sorting and naming are part of the cost. */
		entries = catalogue_count(cat);
		if (dl.nerrors > 0) {
			diag_print(&dl, stderr, "bench_catalogue");
			return 1;
		}
		diag_free(&dl);
		catalogue_free(cat);
	}
	parse_ms = (now_ms() - t0) / PARSE_ROUNDS;

	argv[0] = (char *)"wc";
	argv[1] = (char *)"-l";
	for (i = 0; i < nfiles; i++)
		argv[2 + i] = files[i];
	argv[2 + nfiles] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	t0 = now_ms();
	for (r = 0; r < WC_ROUNDS; r++) {
		pid_t pid;
		int st;

		if (posix_spawnp(&pid, "wc", &fa, NULL, argv, environ) != 0) {
			fprintf(stderr, "bench_catalogue: cannot run wc\n");
			return 1;
		}
		(void)waitpid(pid, &st, 0);
	}
	wc_ms = (now_ms() - t0) / WC_ROUNDS;
	posix_spawn_file_actions_destroy(&fa);

	printf("catalogue: parse %zu files (%zu entries) %.3f ms; "
	    "wc -l %.3f ms; ratio %.2f\n", nfiles, entries, parse_ms, wc_ms,
	    wc_ms > 0 ? parse_ms / wc_ms : 0.0);
	for (i = 0; i < nfiles; i++)
		free(files[i]);
	return 0;
}
