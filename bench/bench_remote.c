/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a test on a box over ssh costs against ssh itself: the "tiny"
 * fake (exits at once) run through runner_run() with runner_opts.remote
 * -- the line to the connection's agent, the test's session, TMPDIR,
 * output relay, straggler evidence and status line there -- against a
 * bare loop of "ssh -S master host tiny" over the same master
 * connection, to the same private sshd on 127.0.0.1 (tests/sshd.c),
 * both measured here, now.  Run from the repository
 * root (make bench); without sshd (or root) it says so and measures
 * nothing.
 *
 * The ratio, agent over bare ssh per test, is the figure
 * (target under 1.10).  Each method runs in ROUNDS interleaved rounds
 * of PER tests; the figures are the median round.
 *
 * Then a whole run on the box, engine and store with the database on
 * disk (TMPDIR, else /tmp), per test: as a local run commits, each
 * test's running row synced before the test starts (before issue 25),
 * and as a box's run now does, committed without waiting for the disk
 * until the run ends; ERUNS interleaved rounds of ETESTS tests.  A
 * test on a box costs tens of milliseconds that jump by several from
 * one round to the next, more than a sync costs, so the commit a test
 * makes is also timed alone, both ways, on the same disk: what the
 * change saves each test.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/diag.h"
#include "ltpscope/engine.h"
#include "ltpscope/remote.h"
#include "ltpscope/runner.h"
#include "ltpscope/status.h"
#include "ltpscope/store.h"
#include "ltpscope/xmalloc.h"
#include "bench.h"
#include "sshd.h"
#include "tap.h"

#define ROUNDS	10
#define PER	10
#define ERUNS	5
#define ETESTS	40

static char root[1024];
static char tiny[PATH_MAX + 64];

/* Seconds per test through the runner and the agent. */
static double
bench_agent(struct remote *rm, int n)
{
	struct runner_opts o;
	struct runner_result res;
	struct diaglist dl;
	double t0;
	int i;

	memset(&o, 0, sizeof(o));
	o.remote = rm;
	o.use_pipe = 1;
	diag_init(&dl);
	t0 = bench_now();
	for (i = 0; i < n; i++)
		if (runner_run(&o, "tiny", &res, &dl) != 0 || !res.exited ||
		    res.exit_code != 0) {
			diag_print(&dl, stderr, "bench_remote");
			fprintf(stderr, "bench_remote: run %d failed (lost %d, "
			    "exit %d)\n", i, res.lost, res.exit_code);
			exit(1);
		}
	diag_free(&dl);
	return (bench_now() - t0) / n;
}

/*
 * Seconds per test for "ssh -S master host tiny": the ssh command line
 * the agents' sessions are started with, the bare program in place of
 * the agent.
 */
static double
bench_bare(struct remote *rm, int n)
{
	char **v = remote_command_argv(rm, tiny);
	double t0;
	pid_t pid;
	int k, st, fd;

	t0 = bench_now();
	for (k = 0; k < n; k++) {
		if ((pid = fork()) == 0) {
			if ((fd = open("/dev/null", O_RDWR)) >= 0) {
				dup2(fd, 0);
				dup2(fd, 1);
			}
			execv(v[0], v);
			_exit(127);
		}
		if (pid == -1 || waitpid(pid, &st, 0) != pid ||
		    !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "bench_remote: bare ssh failed\n");
			exit(1);
		}
	}
	t0 = (bench_now() - t0) / n;
	xfreev(v);
	return t0;
}

/* Seconds per test of a run of ETESTS tiny tests on the box. */
static double
bench_engine(struct remote *rm, struct store *st, int durable_each)
{
	struct engine_test t[ETESTS];
	struct engine_opts eo;
	struct engine *e;
	struct diaglist dl;
	char tags[ETESTS][16];
	double t0;
	int i;

	memset(t, 0, sizeof(t));
	for (i = 0; i < ETESTS; i++) {
		(void)snprintf(tags[i], sizeof(tags[i]), "tiny%02d", i);
		t[i].tag = tags[i];
		t[i].syscall = "";
		t[i].cmdline = "tiny";
	}
	memset(&eo, 0, sizeof(eo));
	eo.runner.remote = rm;
	eo.runner.use_pipe = 1;
	eo.runner.kconfig = "";
	eo.durable_each = durable_each;
	diag_init(&dl);
	t0 = bench_now();
	if ((e = engine_new(st, &eo, t, ETESTS, NULL, &dl)) == NULL ||
	    engine_run(e, &dl) != 0 ||
	    engine_counts(e)[TS_PASS] != ETESTS) {
		diag_print(&dl, stderr, "bench_remote");
		fprintf(stderr, "bench_remote: the run on the box failed\n");
		exit(1);
	}
	t0 = bench_now() - t0;
	engine_free(e);
	diag_free(&dl);
	return t0 / ETESTS;
}

/*
 * Seconds per commit of a row in a WAL database below the scratch
 * directory, with synchronous=FULL (full) or NORMAL, as the engine
 * commits a test's running row.
 */
static double
bench_commit(int full)
{
	char db[1200], sqlbuf[200];
	sqlite3 *h;
	double t0, t = 0;
	int i, rc;

	(void)snprintf(db, sizeof(db), "%s/commit-%d.db", tap_tmpdir(), full);
	if (sqlite3_open(db, &h) != SQLITE_OK)
		exit(1);
	(void)snprintf(sqlbuf, sizeof(sqlbuf), "PRAGMA journal_mode=WAL; "
	    "PRAGMA synchronous=%s; CREATE TABLE IF NOT EXISTS t (a INTEGER, "
	    "b TEXT)", full ? "FULL" : "NORMAL");
	rc = sqlite3_exec(h, sqlbuf, NULL, NULL, NULL);
	for (i = 0; rc == SQLITE_OK && i < ETESTS; i++) {
		t0 = bench_now();
		rc = sqlite3_exec(h, "BEGIN IMMEDIATE; INSERT INTO t VALUES "
		    "(1, 'running'); COMMIT", NULL, NULL, NULL);
		t += bench_now() - t0;
	}
	if (rc != SQLITE_OK) {
		fprintf(stderr, "bench_remote: %s: %s\n", db,
		    sqlite3_errmsg(h));
		exit(1);
	}
	sqlite3_close(h);
	return t / ETESTS;
}

/* The run's figures: before and after, per test. */
static void
bench_runs(struct remote *rm)
{
	double er[2][ERUNS], cr[2][ERUNS], before, after, cb, ca;
	struct store *st = NULL;
	struct diaglist dl;
	char db[1200];
	const char *base;
	int i, k;

	if ((base = getenv("TMPDIR")) == NULL || base[0] != '/')
		base = "/tmp";
	(void)snprintf(db, sizeof(db), "%s/runs.db", tap_tmpdir());
	diag_init(&dl);
	if (store_open(&st, db, STORE_CREATE, &dl) != STORE_OK) {
		diag_print(&dl, stderr, "bench_remote");
		exit(1);
	}
	(void)bench_engine(rm, st, 1);
	(void)bench_engine(rm, st, 0);
	for (i = 0; i < ERUNS; i++)
		for (k = 0; k < 2; k++) {
			er[(i + k) % 2][i] = bench_engine(rm, st,
			    (i + k) % 2 == 0);
			cr[(i + k) % 2][i] = bench_commit((i + k) % 2 == 0);
		}
	store_close(st);
	diag_free(&dl);
	before = bench_median(er[0], ERUNS);
	after = bench_median(er[1], ERUNS);
	cb = bench_median(cr[0], ERUNS);
	ca = bench_median(cr[1], ERUNS);
	printf("run on the box, db below %s, %d tests, %d rounds:\n", base,
	    ETESTS, ERUNS);
	printf("  synced before each test (before): %8.2f ms/test\n",
	    before * 1e3);
	printf("  synced at the run's end (now):    %8.2f ms/test\n",
	    after * 1e3);
	printf("  ratio now/before:                 %8.2f (%.2f ms/test "
	    "saved; a box's own noise is larger)\n", after / before,
	    (before - after) * 1e3);
	printf("  the commit before each test:      %8.3f ms before, "
	    "%.3f ms now (ratio %.2f)\n", cb * 1e3, ca * 1e3, ca / cb);
}

int
main(void)
{
	static const char *const fakes[] = { "tiny", NULL };
	double wr[ROUNDS], br[ROUNDS], w, b;
	struct sshd_box box;
	struct remote_opts ro;
	struct remote *rm;
	struct diaglist dl;
	char why[256], dir[1200], cwd[PATH_MAX];
	int i;

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	/*
	 * The agent reads the box's kernel log as a box's would (dmesg,
	 * its taint flags), not the empty stand-ins tap gives the tests.
	 */
	(void)unsetenv("LTPSCOPE_KMSG");
	(void)unsetenv("LTPSCOPE_TAINTED");
	(void)snprintf(tiny, sizeof(tiny), "%s/tests/ltpfake/bin/tiny", cwd);
	(void)snprintf(dir, sizeof(dir), "%s/box", tap_tmpdir());
	if (sshd_start(&box, dir, why, sizeof(why)) != 0) {
		printf("remote: not measured: %s\n", why);
		return 0;
	}
	(void)snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	tap_fake_ltproot(root, fakes);
	memset(&ro, 0, sizeof(ro));
	ro.config = box.config;
	ro.ltproot = root;
	diag_init(&dl);
	if ((rm = remote_open(box.spec, &ro, &dl)) == NULL) {
		diag_print(&dl, stderr, "bench_remote");
		sshd_stop(&box);
		return 1;
	}
	/* One of each first: the box's caches warm for both. */
	(void)bench_agent(rm, 1);
	(void)bench_bare(rm, 1);
	for (i = 0; i < ROUNDS; i++) {
		wr[i] = bench_agent(rm, PER);
		br[i] = bench_bare(rm, PER);
	}
	w = bench_median(wr, ROUNDS);
	b = bench_median(br, ROUNDS);
	printf("remote test through the agent:     %8.2f ms/test\n",
	    w * 1e3);
	printf("bare ssh -S master host tiny:      %8.2f ms/test\n",
	    b * 1e3);
	printf("ratio agent/bare ssh:              %8.2f  (target < 1.10)\n",
	    w / b);
	bench_runs(rm);
	remote_close(rm);
	diag_free(&dl);
	sshd_stop(&box);
	return 0;
}
