/*
 * What the runner costs per test: the "tiny" fake (exits at once) run
 * 500 times through runner_run() -- pty, setsid, fresh TMPDIR, session
 * scan and all -- against 500 runs from a plain shell loop, both
 * measured here, now, on this machine.  Run from the repository root
 * (make bench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpscope/diag.h"
#include "ltpscope/runner.h"

#define RUNS	500
#define ROUNDS	10	/* interleaved, so that drift hits both alike */
#define TINY	"tests/ltpfake/bin/tiny"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
bench_runner(int pipe_mode, int runs)
{
	struct runner_opts o;
	struct runner_result res;
	struct diaglist dl;
	double t0;
	int i;

	memset(&o, 0, sizeof(o));
	o.use_pipe = pipe_mode;
	diag_init(&dl);
	t0 = now();
	for (i = 0; i < runs; i++)
		if (runner_run(&o, TINY, &res, &dl) != 0 || !res.exited ||
		    res.exit_code != 0) {
			diag_print(&dl, stderr, "bench_runner");
			fprintf(stderr, "bench_runner: run %d failed\n", i);
			exit(1);
		}
	diag_free(&dl);
	return now() - t0;
}

static double
bench_shell(int runs)
{
	char *cmd, *p;
	double t0;
	size_t len = 64 + (size_t)runs * 5 + sizeof(TINY);
	int i;

	p = cmd = malloc(len);
	if (cmd == NULL)
		exit(1);
	p += sprintf(p, "for i in");
	for (i = 0; i < runs; i++)
		p += sprintf(p, " %d", i);
	sprintf(p, "; do " TINY "; done");
	t0 = now();
	if (system(cmd) != 0) {
		fprintf(stderr, "bench_runner: shell loop failed\n");
		exit(1);
	}
	free(cmd);
	return now() - t0;
}

int
main(void)
{
	double r = 0, s = 0, rp = 0;
	int i;

	(void)bench_runner(0, RUNS / ROUNDS);	/* warm the caches */
	for (i = 0; i < ROUNDS; i++) {
		s += bench_shell(RUNS / ROUNDS);
		r += bench_runner(0, RUNS / ROUNDS);
		rp += bench_runner(1, RUNS / ROUNDS);
	}
	printf("runner: %d tests %.3f s; shell loop %.3f s; ratio %.2f "
	    "(target < 1.10)\n", RUNS, r, s, r / s);
	printf("runner (pipe mode): %d tests %.3f s; ratio %.2f\n", RUNS, rp,
	    rp / s);
	return 0;
}
