/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How fast the catalogue reads every table in shared/netbsd, against
 * "wc -l" over the same files measured in the same run: the ratio says
 * whether parsing costs more than merely reading and counting lines
 * (wc's figure includes starting a process, as a user's would).
 *
 * Benchmarks: the ratio is the time to load, sort and name every
 * syscalls.master table (what `ltpscope catalogue` does before it
 * prints anything) over the time `wc -l` takes on the same files,
 * process start included.  Around 1 or below means loading the tables
 * is as cheap as a user's quickest look at them.  Parsing and wc run
 * in ROUNDS interleaved rounds; each figure is the median round, the
 * ratio the median of the rounds' ratios.
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
#include "bench.h"

#define ROUNDS		15
#define PARSE_PER	20	/* loads per round */
#define WC_PER		5	/* wc runs per round */
#define MAX_FILES	64

extern char **environ;

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *files[MAX_FILES];
static size_t nfiles;

/* Milliseconds per load of every file; *entries gets the count. */
static double
time_parse(size_t *entries)
{
	double t0 = bench_now();
	size_t i;
	int k;

	for (k = 0; k < PARSE_PER; k++) {
		struct catalogue *cat = catalogue_new();
		struct diaglist dl;

		diag_init(&dl);
		for (i = 0; i < nfiles; i++)
			(void)catalogue_load_file(cat, files[i], NULL, &dl);
		/* Sorting and naming are part of the cost. */
		*entries = catalogue_count(cat);
		if (dl.nerrors > 0) {
			diag_print(&dl, stderr, "bench_catalogue");
			exit(1);
		}
		diag_free(&dl);
		catalogue_free(cat);
	}
	return (bench_now() - t0) * 1e3 / PARSE_PER;
}

/* Milliseconds per "wc -l" over every file. */
static double
time_wc(void)
{
	posix_spawn_file_actions_t fa;
	char *argv[MAX_FILES + 3];
	double t0;
	size_t i;
	pid_t pid;
	int k, st;

	argv[0] = (char *)"wc";
	argv[1] = (char *)"-l";
	for (i = 0; i < nfiles; i++)
		argv[2 + i] = files[i];
	argv[2 + nfiles] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	t0 = bench_now();
	for (k = 0; k < WC_PER; k++) {
		if (posix_spawnp(&pid, "wc", &fa, NULL, argv, environ) != 0) {
			fprintf(stderr, "bench_catalogue: cannot run wc\n");
			exit(1);
		}
		(void)waitpid(pid, &st, 0);
	}
	t0 = (bench_now() - t0) * 1e3 / WC_PER;
	posix_spawn_file_actions_destroy(&fa);
	return t0;
}

int
main(void)
{
	const char *shared = getenv("LTPSCOPE_SHARED");
	double parse[ROUNDS], wc[ROUNDS], ratio[ROUNDS];
	struct dirent *de;
	char dir[4096];
	size_t i, entries = 0;
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

	(void)time_parse(&entries);	/* warm the caches */
	(void)time_wc();
	for (r = 0; r < ROUNDS; r++) {
		parse[r] = time_parse(&entries);
		wc[r] = time_wc();
		ratio[r] = parse[r] / wc[r];
	}

	printf("catalogue: %d interleaved rounds; median round, median "
	    "ratio\n", ROUNDS);
	printf("catalogue: parse %zu files (%zu entries) %.3f ms; "
	    "wc -l %.3f ms; ratio %.2f\n", nfiles, entries,
	    bench_median(parse, ROUNDS), bench_median(wc, ROUNDS),
	    bench_median(ratio, ROUNDS));
	for (i = 0; i < nfiles; i++)
		free(files[i]);
	return 0;
}
