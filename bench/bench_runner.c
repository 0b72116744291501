/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the runner costs per test: the "tiny" fake (exits at once) run
 * through runner_run() -- private TMPDIR, own session, pty, exit watch,
 * straggler check, TMPDIR checked -- against the same program started
 * from a plain shell loop, both measured here, now, on this machine.
 * Run from the repository root (make bench).
 *
 * The first ratio, runner time over bare shell loop time per test, is
 * the acceptance figure (target under 1.10): how much slower a
 * queue of trivial tests goes through ltpscope than through "for t in
 * ...; do $t; done".  The bare loop makes no directories; a fresh
 * TMPDIR per test would cost what its file system makes it cost (on
 * ext4 with discards, a mkdir and an rmdir take longer than the rest
 * of the runner's work), but a test that leaves its TMPDIR as it got
 * it hands it on to the next one (runner.h), so tiny tests make none.
 * The figure is taken with the TMPDIRs on a memory file system and
 * again with them in $TMPDIR (default /tmp): the two should agree; the
 * cost of a mkdir+rmdir there is measured alone for comparison.  Also
 * printed: a fair baseline, a shell loop that makes and removes a
 * TMPDIR per test and starts each test with setsid(1), and a C floor,
 * the same work done with direct system calls and no pty.  Each method runs in ROUNDS interleaved
 * rounds of RUNS / ROUNDS tests; the figures are the median round.
 */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/diag.h"
#include "ltpscope/runner.h"
#include "bench.h"

#define RUNS	500
#define ROUNDS	20
#define PER	(RUNS / ROUNDS)
#define TINY	"tests/ltpfake/bin/tiny"

enum { M_SHELL, M_RUNNER, M_PIPE, M_MEM, M_FAIR, M_FLOOR, M_DIRS, M_PTY,
    NM };

/* Sizes that snprintf() can be shown never to cut. */
static char tmpbase[1024];
static char memdir[1024];	/* "" when there is no memory fs */
static char tiny[PATH_MAX + 64];
static int have_setsid;
/* One set of spares for every runner_run(), as the engine keeps one. */
static struct runner_spares *spares;

/* Seconds per test for n runs through runner_run(), TMPDIRs in base. */
static double
bench_runner(int pipe_mode, const char *base, int n)
{
	struct runner_opts o;
	struct runner_result res;
	struct diaglist dl;
	double t0;
	int i;

	memset(&o, 0, sizeof(o));
	o.use_pipe = pipe_mode;
	o.tmpbase = base;
	o.spares = spares;
	diag_init(&dl);
	t0 = bench_now();
	for (i = 0; i < n; i++)
		if (runner_run(&o, TINY, &res, &dl) != 0 || !res.exited ||
		    res.exit_code != 0 || res.tmpdir_left) {
			diag_print(&dl, stderr, "bench_runner");
			fprintf(stderr, "bench_runner: run %d failed\n", i);
			exit(1);
		}
	diag_free(&dl);
	return (bench_now() - t0) / n;
}

/* Seconds for a shell loop running body n times. */
static double
shell_loop(const char *body, int n)
{
	char cmd[8192];
	double t0;

	(void)snprintf(cmd, sizeof(cmd), "i=0; T=%s; B=%s/bench-sh$$; "
	    "while [ $i -lt %d ]; do %s; i=$((i + 1)); done", tiny, tmpbase,
	    n, body);
	t0 = bench_now();
	if (system(cmd) != 0) {
		fprintf(stderr, "bench_runner: shell loop failed: %s\n", cmd);
		exit(1);
	}
	return bench_now() - t0;
}

/*
 * Seconds per test for the loop; starting the shell is not counted (a
 * loop of 0 runs, timed alongside, is taken off), so that short rounds
 * do not flatter the runner.
 */
static double
bench_shell(const char *body, int n)
{
	double empty = shell_loop(body, 0), full = shell_loop(body, n);

	return (full > empty ? full - empty : full) / n;
}

/*
 * The floor: per test a fresh directory, a child in its own session
 * working there, exec, wait, rmdir.  No pty, no environment, no
 * straggler check.
 */
static double
bench_floor(int n)
{
	char dir[sizeof(tmpbase) + 32], *argv[] = { (char *)"tiny", NULL };
	double t0;
	pid_t pid;
	int i, st;

	t0 = bench_now();
	for (i = 0; i < n; i++) {
		(void)snprintf(dir, sizeof(dir), "%s/floor.%d", tmpbase, i);
		if (mkdir(dir, 0755) == -1)
			goto fail;
		if ((pid = fork()) == -1)
			goto fail;
		if (pid == 0) {
			(void)setsid();
			if (chdir(dir) == 0)
				execv(tiny, argv);
			_exit(127);
		}
		if (waitpid(pid, &st, 0) != pid || st != 0 ||
		    rmdir(dir) == -1)
			goto fail;
	}
	return (bench_now() - t0) / n;
fail:
	fprintf(stderr, "bench_runner: floor: %s\n", strerror(errno));
	exit(1);
}

/* mkdir + rmdir alone, on the TMPDIRs' file system. */
static double
bench_dirs(int n)
{
	char dir[sizeof(tmpbase) + 32];
	double t0;
	int i;

	t0 = bench_now();
	for (i = 0; i < n; i++) {
		(void)snprintf(dir, sizeof(dir), "%s/dirs.%d", tmpbase, i);
		if (mkdir(dir, 0755) == -1 || rmdir(dir) == -1) {
			fprintf(stderr, "bench_runner: %s: %s\n", dir,
			    strerror(errno));
			exit(1);
		}
	}
	return (bench_now() - t0) / n;
}

/* Opening and closing a pty pair alone. */
static double
bench_pty(int n)
{
	double t0;
	int i, m, s;

	t0 = bench_now();
	for (i = 0; i < n; i++) {
		if (openpty(&m, &s, NULL, NULL, NULL) == -1) {
			fprintf(stderr, "bench_runner: openpty: %s\n",
			    strerror(errno));
			exit(1);
		}
		close(s);
		close(m);
	}
	return (bench_now() - t0) / n;
}

/* Whether method m can run here. */
static int
runs(int m)
{
	return (m != M_FAIR || have_setsid) && (m != M_MEM ||
	    memdir[0] != '\0');
}

static double
bench_method(int m)
{
	switch (m) {
	case M_SHELL:
		return bench_shell("$T", PER);
	case M_RUNNER:
		return bench_runner(0, tmpbase, PER);
	case M_PIPE:
		return bench_runner(1, tmpbase, PER);
	case M_MEM:
		return bench_runner(0, memdir, PER);
	case M_FAIR:
		return bench_shell("mkdir $B.$i && TMPDIR=$B.$i setsid $T && "
		    "rmdir $B.$i", PER);
	case M_FLOOR:
		return bench_floor(PER);
	case M_DIRS:
		return bench_dirs(PER);
	default:
		return bench_pty(PER);
	}
}

int
main(void)
{
	static double t[NM][ROUNDS], q[NM][ROUNDS];
	double med[NM], rat[NM], best[NM];
	const char *base, *mem;
	char cwd[PATH_MAX];
	int r, m, k;

	if ((base = getenv("TMPDIR")) == NULL || base[0] != '/')
		base = "/tmp";
	(void)snprintf(tmpbase, sizeof(tmpbase), "%s/ltpscope-bench.XXXXXX",
	    base);
	if (mkdtemp(tmpbase) == NULL || getcwd(cwd, sizeof(cwd)) == NULL) {
		fprintf(stderr, "bench_runner: %s: %s\n", tmpbase,
		    strerror(errno));
		return 1;
	}
	(void)snprintf(tiny, sizeof(tiny), "%s/%s", cwd, TINY);
	spares = runner_spares_new();
	have_setsid = system("command -v setsid >/dev/null 2>&1") == 0;
	if ((mem = getenv("LTPSCOPE_BENCH_MEMDIR")) == NULL)
		mem = "/dev/shm";
	(void)snprintf(memdir, sizeof(memdir), "%s/ltpscope-bench.XXXXXX",
	    mem);
	if (access(mem, W_OK) == -1 || mkdtemp(memdir) == NULL)
		memdir[0] = '\0';

	for (m = 0; m < NM; m++)	/* warm the caches */
		if (runs(m))
			(void)bench_method(m);
	/* Each round starts with another method: no fixed neighbours. */
	for (r = 0; r < ROUNDS; r++)
		for (k = 0; k < NM; k++) {
			m = (r + k) % NM;
			t[m][r] = runs(m) ? bench_method(m) : 1;
		}
	/* Ratios per round, then their median: drift cancels out. */
	for (m = 0; m < NM; m++)
		for (r = 0; r < ROUNDS; r++) {
			q[m][r] = t[m][r] / t[M_SHELL][r];
			if (m == M_FAIR || m == M_FLOOR)
				q[m][r] = t[M_RUNNER][r] / t[m][r];
		}
	for (m = 0; m < NM; m++) {
		best[m] = bench_min(t[m], ROUNDS) * 1e6;
		med[m] = bench_median(t[m], ROUNDS) * 1e6;
		rat[m] = bench_median(q[m], ROUNDS);
	}
	runner_spares_free(spares);
	spares = NULL;
	(void)rmdir(tmpbase);
	if (memdir[0] != '\0')
		(void)rmdir(memdir);

	printf("runner: tiny test %d times each way in %d interleaved "
	    "rounds; us/test: median round (fastest round); ratios: median "
	    "of the rounds' ratios\n", RUNS, ROUNDS);
	printf("runner: shell loop, bare exec    %6.0f (%4.0f) us  "
	    "baseline\n", med[M_SHELL], best[M_SHELL]);
	if (runs(M_MEM))
		printf("runner: runner_run, pty          %6.0f (%4.0f) us  "
		    "ratio %.2f (target < 1.10), TMPDIRs on a memory fs (%s): "
		    "the runner's own cost\n", med[M_MEM], best[M_MEM],
		    rat[M_MEM], mem);
	else
		printf("runner: no memory fs to put TMPDIRs on (set "
		    "LTPSCOPE_BENCH_MEMDIR to a tmpfs): the runner's own cost "
		    "is not told apart from %s's below\n", base);
	printf("runner: runner_run, pty          %6.0f (%4.0f) us  ratio "
	    "%.2f, TMPDIRs in %s: with its file system's cost\n",
	    med[M_RUNNER], best[M_RUNNER], rat[M_RUNNER], base);
	printf("runner: runner_run, pipe         %6.0f (%4.0f) us  ratio "
	    "%.2f, TMPDIRs in %s\n", med[M_PIPE], best[M_PIPE], rat[M_PIPE],
	    base);
	if (have_setsid)
		printf("runner: fair shell loop          %6.0f (%4.0f) us  "
		    "runner pty / fair loop: ratio %.2f\n", med[M_FAIR],
		    best[M_FAIR], rat[M_FAIR]);
	else
		printf("runner: fair shell loop: no setsid(1) here, "
		    "skipped\n");
	printf("runner:   (fair loop: mkdir TMPDIR; TMPDIR=... setsid "
	    "tiny; rmdir -- a script's way, three programs more)\n");
	printf("runner: C floor                  %6.0f (%4.0f) us  "
	    "runner pty / floor: ratio %.2f\n", med[M_FLOOR], best[M_FLOOR],
	    rat[M_FLOOR]);
	printf("runner:   (floor: mkdir, fork, setsid, chdir, exec, wait, "
	    "rmdir in C -- no pty, no environment, no checks)\n");
	printf("runner: alone, now: mkdir+rmdir of a TMPDIR in %s %.0f us, "
	    "pty open+close %.0f us; the runner's cost over the bare loop "
	    "is %.0f us with TMPDIRs in %s\n", base, med[M_DIRS],
	    med[M_PTY], med[M_RUNNER] - med[M_SHELL], base);
	printf("runner:   (a fresh TMPDIR per test would cost what its file "
	    "system makes it cost: a journal, discards; a test that leaves "
	    "its TMPDIR empty hands it on to the next, so these make none)"
	    "\n");
	return 0;
}
