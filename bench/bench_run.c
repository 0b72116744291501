/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a whole `ltpscope run` costs per test: 200 "tiny" tests (exit 0
 * at once) in a fake LTP install, run by the ltpscope binary -- engine,
 * runner, parser, and the store committing with synchronous=FULL once
 * per test, a result with the next test's "running" row -- against the
 * same 200 runs from a plain shell loop, measured here, now.  Each run
 * gets a database of its own whose schema was made before the clock
 * started, as a user's is after a first run (copy_db).  Run from
 * the repository root (make bench); LTPSCOPE_BIN names the binary
 * (./ltpscope).
 *
 * Benchmarks: the ratio is the run's time over the shell loop's for the
 * same tests: how much longer a queue of trivial tests takes through
 * ltpscope, whose every result must survive kill -9 and a kernel
 * panic.  The same run with its database on a memory file system
 * (/dev/shm, or LTPSCOPE_BENCH_MEMDIR), where fsync(2) costs nothing,
 * shows how much of that is the commits; one commit is also timed
 * alone, to a log kept short as the store keeps it and to a growing
 * one.  The floor is what the crash protocol costs before any of
 * ltpscope's own work: the same 200 runs from a C loop that makes one
 * fdatasync(2)'d write beside the database before each test, as a
 * test's "running" row must be durable before it starts, and starts
 * each as ltpscope does (floor_spawn).  How far a run
 * is above the floor is ltpscope's; the floor itself is the disk's.
 * bench_runner breaks down the runner's own share.  What reading the
 * kernel's log after each test costs (/dev/kmsg and the taint flags,
 * kmsg.h) is the run over the same run with the log out of reach
 * ($LTPSCOPE_KMSG naming no file), both with the database on the
 * memory file system where there is one, lest fsync(2)'s jitter
 * drown it, in rounds of their own, each the two back to back, which
 * goes first taking turns: it should stay under 5%.  Where the run's
 * time above the floor goes: a run of one test (what every run costs
 * once), and the CPU the run's process spends itself against the
 * floor's loop (Linux: read while each is a zombie), the tests' own not
 * counted.  Each
 * method runs
 * in ROUNDS interleaved rounds; the figures are the median round, the
 * ratios the median of the rounds' ratios.
 */
#if defined(__linux__)
#define _GNU_SOURCE	1	/* vfork(), as src/spawn.c */
#endif
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/diag.h"
#include "ltpscope/status.h"
#include "ltpscope/store.h"
#include "bench.h"

#define NTESTS		200
#define ROUNDS		7
#define COMMITS		100	/* per round of the commit timing */
#define TINY		"tests/ltpfake/bin/tiny"

enum { M_SHELL, M_RUN, M_RUNMEM, M_COMMIT, M_COMMITGROW, M_FLOOR, M_RUN1,
    NM };

extern char **environ;

static char work[1024];		/* fake LTPROOT and databases */
static char memdir[1024];	/* "" when there is none */
static char tiny[PATH_MAX + 64];
static const char *bin;
static char **nokmsg_env;	/* environ, the kernel's log out of reach */
/*
 * CPU time of the last measured run's ltpscope process and of the
 * floor's loop, the tests' own not counted (-1: not known here).
 */
static double cpu_run = -1, cpu_floor = -1;

static void
die(const char *what)
{
	fprintf(stderr, "bench_run: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* $work/ltp/runtest/name: n lines, each running the tiny test. */
static void
make_runtest(const char *name, int n)
{
	char path[sizeof(work) + 64];
	FILE *fp;
	int i;

	(void)snprintf(path, sizeof(path), "%s/ltp/runtest/%s", work, name);
	if ((fp = fopen(path, "w")) == NULL)
		die(path);
	for (i = 0; i < n; i++)
		fprintf(fp, "tiny%03d tiny\n", i);
	if (fclose(fp) == EOF)
		die(path);
}

/*
 * $work/ltp: testcases/bin/tiny, a runtest file of NTESTS lines, and
 * one of a single test (what every run costs, whatever its length).
 */
static void
make_ltproot(void)
{
	char path[sizeof(work) + 64];
	FILE *fp;

	(void)snprintf(path, sizeof(path), "%s/ltp", work);
	if (mkdir(path, 0755) == -1)
		die(path);
	(void)snprintf(path, sizeof(path), "%s/ltp/testcases", work);
	if (mkdir(path, 0755) == -1)
		die(path);
	(void)snprintf(path, sizeof(path), "%s/ltp/testcases/bin", work);
	if (mkdir(path, 0755) == -1)
		die(path);
	(void)snprintf(path, sizeof(path), "%s/ltp/testcases/bin/tiny",
	    work);
	if (symlink(tiny, path) == -1)
		die(path);
	(void)snprintf(path, sizeof(path), "%s/ltp/runtest", work);
	if (mkdir(path, 0755) == -1)
		die(path);
	make_runtest("syscalls", NTESTS);
	make_runtest("one", 1);
	(void)snprintf(path, sizeof(path), "%s/ltp/Version", work);
	if ((fp = fopen(path, "w")) == NULL)
		die(path);
	fprintf(fp, "20260529-bench\n");
	(void)fclose(fp);
}

static void
remove_db(const char *db)
{
	char p[PATH_MAX];

	(void)unlink(db);
	(void)snprintf(p, sizeof(p), "%s-wal", db);
	(void)unlink(p);
	(void)snprintf(p, sizeof(p), "%s-shm", db);
	(void)unlink(p);
	(void)snprintf(p, sizeof(p), "%s-lock", db);	/* the store's */
	(void)unlink(p);
}

/*
 * How a user's database is when a run starts: its schema made and an
 * earlier run in it, its write-ahead log kept at the size the store
 * cycles it at (the store keeps the file: store.h).  A template is made
 * so once per directory, by a real first run (not timed), and copied
 * for each measured run (copy_db).  A database made afresh for each
 * run paid once-in-its-life costs with every run of 200 tests: the
 * schema (some milliseconds: thirty-odd tables, indexes and triggers,
 * the fsyncs of a new file) and a log growing from nothing (its
 * commits' fsyncs also record the file's new size and blocks), tens of
 * microseconds of every test's cost that no test of a user's pays.
 */
static void
copy_file(const char *from, const char *to)
{
	char buf[65536];
	ssize_t n;
	int in, out;

	if ((in = open(from, O_RDONLY)) == -1) {
		if (errno == ENOENT)
			return;
		die(from);
	}
	if ((out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1)
		die(to);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			die(to);
	/* On the disk before the clock starts, not written back in it. */
	if (n == -1 || fsync(out) == -1 || close(out) == -1)
		die(to);
	(void)close(in);
}

static double run_once(const char *, int, const char *, int);

static void
copy_db(const char *dir, const char *db)
{
	char tmpl[sizeof(work) + 32], from[PATH_MAX], to[PATH_MAX];
	struct diaglist dl;
	struct store *st;

	(void)snprintf(tmpl, sizeof(tmpl), "%s/template.db", dir);
	if (access(tmpl, F_OK) == -1) {
		diag_init(&dl);
		if (store_open(&st, tmpl, STORE_CREATE, &dl) != STORE_OK) {
			diag_print(&dl, stderr, "bench_run: ");
			exit(1);
		}
		store_close(st);
		diag_free(&dl);
		(void)run_once(tmpl, 0, NULL, NTESTS);
	}
	remove_db(db);
	copy_file(tmpl, db);
	(void)snprintf(from, sizeof(from), "%s-wal", tmpl);
	(void)snprintf(to, sizeof(to), "%s-wal", db);
	copy_file(from, to);
}

/* Passed results in db's newest run: -1 on error. */
static int
count_passes(const char *db)
{
	sqlite3 *h;
	sqlite3_stmt *s;
	int n = -1;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(h, "SELECT count(*) FROM results WHERE "
	    "status = ? AND run_id = (SELECT max(id) FROM runs)", -1, &s,
	    NULL) == SQLITE_OK) {
		sqlite3_bind_int(s, 1, TS_PASS);
		if (sqlite3_step(s) == SQLITE_ROW)
			n = sqlite3_column_int(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(h);
	return n;
}

/* CPU seconds of this process so far, -1 where the clock is missing. */
static double
bench_cpu(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == -1)
		return -1;
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Seconds the process pid, exited but not yet waited for, ran on a CPU
 * itself (its children not counted), or -1 where that cannot be read:
 * Linux's /proc/PID/schedstat, in nanoseconds.
 */
static double
cpu_of_zombie(pid_t pid)
{
	char path[64];
	long long ns;
	double t = -1;
	FILE *fp;

	(void)snprintf(path, sizeof(path), "/proc/%ld/schedstat", (long)pid);
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	if (fscanf(fp, "%lld", &ns) == 1 && ns > 0)
		t = (double)ns / 1e9;
	(void)fclose(fp);
	return t;
}

/*
 * `ltpscope run` of ntests tests of the runtest files (NTESTS: the
 * whole "syscalls", 1: "one") into db: seconds; nokmsg: without
 * reading the kernel's log (it then says once on its stderr that it
 * cannot).  err: a file for its stderr, or NULL.  Sets cpu_run.
 */
static double
run_once(const char *db, int nokmsg, const char *err, int ntests)
{
	posix_spawn_file_actions_t fa;
	char root[sizeof(work) + 32];
	char *argv[] = { (char *)bin, (char *)"run", (char *)"-d",
	    (char *)db, (char *)"-L", root, NULL, NULL, NULL };
	siginfo_t si;
	double t0, t;
	pid_t pid;
	int st, n;

	if (ntests == 1) {
		argv[6] = (char *)"-f";
		argv[7] = (char *)"one";
	}
	(void)snprintf(root, sizeof(root), "%s/ltp", work);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	if (nokmsg || err != NULL)
		posix_spawn_file_actions_addopen(&fa, 2, nokmsg ? "/dev/null" :
		    err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	t0 = bench_now();
	if ((errno = posix_spawn(&pid, bin, &fa, NULL, argv, nokmsg ?
	    nokmsg_env : environ)) != 0)
		die(bin);
	/* Its CPU time read while it is a zombie, then it is reaped. */
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) == 0)
		cpu_run = cpu_of_zombie(pid);
	if (waitpid(pid, &st, 0) != pid)
		die("waitpid");
	t = bench_now() - t0;
	posix_spawn_file_actions_destroy(&fa);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bench_run: %s run failed (status %d)\n", bin,
		    st);
		exit(1);
	}
	if ((n = count_passes(db)) != ntests) {
		fprintf(stderr, "bench_run: %d of %d results stored\n", n,
		    ntests);
		exit(1);
	}
	return t;
}

/* Seconds for a measured run of ntests, db in dir (copy_db). */
static double
bench_run(const char *dir, int nokmsg, const char *err, int ntests)
{
	char db[sizeof(work) + 32];
	double t;

	(void)snprintf(db, sizeof(db), "%s/bench.db", dir);
	copy_db(dir, db);
	t = run_once(db, nokmsg, err, ntests);
	remove_db(db);
	return t;
}

/* Seconds for the shell loop, less starting the shell. */
static double
bench_shell(void)
{
	char cmd[sizeof(tiny) + 128];
	double t0, t1, t2;

	(void)snprintf(cmd, sizeof(cmd), "i=0; while [ $i -lt %d ]; do %s; "
	    "i=$((i + 1)); done", NTESTS, tiny);
	t0 = bench_now();
	if (system("i=0") != 0)
		die("sh");
	t1 = bench_now();
	if (system(cmd) != 0)
		die("shell loop");
	t2 = bench_now();
	return t2 - t1 - (t1 - t0);
}

/*
 * The floor's way of starting a test: vfork(2) on Linux, fork(2)
 * elsewhere, as ltpscope's own (src/spawn.c).  posix_spawn(3), which
 * the floor used, costs glibc a sigaction(2) for each of the 64
 * signals in the child: ~1.8 ms against ~1.5 ms a tiny test on this
 * machine, so the "floor" was 0.2-0.3 ms a test above what the crash
 * protocol costs, and that much of ltpscope's own work went unseen in
 * the ratio to it.
 */
static pid_t
floor_spawn(char *const argv[])
{
	pid_t pid;

#if defined(__linux__)
	if ((pid = vfork()) == 0) {
		execve(tiny, argv, environ);
		_exit(127);
	}
#else
	if ((pid = fork()) == 0) {
		execve(tiny, argv, environ);
		_exit(127);
	}
#endif
	return pid;
}

/*
 * Seconds for the floor: NTESTS runs of the tiny test, each after a
 * write of one page to a file in dir made durable with fdatasync(2).
 */
static double
bench_floor(const char *dir)
{
	char path[sizeof(work) + 32], page[4096];
	char *argv[] = { tiny, NULL };
	double t0, t, c0;
	pid_t pid;
	int fd, i, st;

	(void)snprintf(path, sizeof(path), "%s/floor", dir);
	if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600)) == -1)
		die(path);
	memset(page, 'r', sizeof(page));
	c0 = bench_cpu();
	t0 = bench_now();
	for (i = 0; i < NTESTS; i++) {
		/* Over the same pages again, as the store's short log is. */
		if (pwrite(fd, page, sizeof(page), (off_t)(i % 64) *
		    (off_t)sizeof(page)) != (ssize_t)sizeof(page) ||
		    fdatasync(fd) == -1)
			die(path);
		if ((pid = floor_spawn(argv)) == -1)
			die(tiny);
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0)
			die("the floor's tiny test");
	}
	t = bench_now() - t0;
	if (c0 >= 0)
		cpu_floor = bench_cpu() - c0;
	(void)close(fd);
	(void)unlink(path);
	return t;
}

/* The log's length after each commit, as the store's WAL hook keeps it. */
static int
wal_frames_hook(void *arg, sqlite3 *h, const char *name, int frames)
{
	(void)h;
	(void)name;
	*(int *)arg = frames;
	return SQLITE_OK;
}

/*
 * Seconds per commit of one row, WAL and synchronous=FULL, in dir.
 * cycled: the log is checkpointed between commits (not timed) once it
 * passes STORE_WAL_CYCLE pages, as the engine does while a test runs,
 * so that commits write over its first pages; else it grows, as it did
 * (SQLite's autocheckpoint at 1,000 pages).
 */
static double
bench_commit(const char *dir, int cycled)
{
	char db[sizeof(work) + 32];
	sqlite3 *h;
	double t0, t = 0;
	int i, rc, frames = 0;

	(void)snprintf(db, sizeof(db), "%s/commit.db", dir);
	remove_db(db);
	if (sqlite3_open(db, &h) != SQLITE_OK)
		die(db);
	rc = sqlite3_exec(h, "PRAGMA journal_mode=WAL; PRAGMA synchronous="
	    "FULL; CREATE TABLE t (a INTEGER, b TEXT)", NULL, NULL, NULL);
	if (cycled)
		(void)sqlite3_wal_hook(h, wal_frames_hook, &frames);
	for (i = 0; rc == SQLITE_OK && i < COMMITS; i++) {
		t0 = bench_now();
		rc = sqlite3_exec(h, "BEGIN IMMEDIATE; INSERT INTO t VALUES "
		    "(1, 'a result row'); COMMIT", NULL, NULL, NULL);
		t += bench_now() - t0;
		if (cycled && frames >= STORE_WAL_CYCLE) {
			(void)sqlite3_wal_checkpoint_v2(h, "main",
			    SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
			frames = 0;
		}
	}
	if (rc != SQLITE_OK) {
		fprintf(stderr, "bench_run: %s: %s\n", db, sqlite3_errmsg(h));
		exit(1);
	}
	sqlite3_close(h);
	remove_db(db);
	return t / COMMITS;
}

static double
bench_method(int m)
{
	switch (m) {
	case M_SHELL:
		return bench_shell();
	case M_RUN:
		return bench_run(work, 0, NULL, NTESTS);
	case M_RUNMEM:
		return memdir[0] != '\0' ? bench_run(memdir, 0, NULL, NTESTS) : 1;
	case M_COMMIT:
		return bench_commit(work, 1);
	case M_FLOOR:
		return bench_floor(work);
	case M_RUN1:
		return bench_run(work, 0, NULL, 1);
	default:
		return bench_commit(work, 0);
	}
}

/* A scratch directory below base, or "" if none can be made. */
static void
scratch(char *buf, size_t len, const char *base)
{
	struct stat st;

	buf[0] = '\0';
	if (base == NULL || stat(base, &st) == -1 || !S_ISDIR(st.st_mode))
		return;
	(void)snprintf(buf, len, "%s/ltpscope-bench.XXXXXX", base);
	if (mkdtemp(buf) == NULL)
		buf[0] = '\0';
}

static void
cleanup(void)
{
	char p[sizeof(work) + 64];

	(void)snprintf(p, sizeof(p), "%s/ltp/runtest/syscalls", work);
	(void)unlink(p);
	(void)snprintf(p, sizeof(p), "%s/ltp/runtest/one", work);
	(void)unlink(p);
	(void)snprintf(p, sizeof(p), "%s/ltp/runtest", work);
	(void)rmdir(p);
	(void)snprintf(p, sizeof(p), "%s/ltp/testcases/bin/tiny", work);
	(void)unlink(p);
	(void)snprintf(p, sizeof(p), "%s/ltp/testcases/bin", work);
	(void)rmdir(p);
	(void)snprintf(p, sizeof(p), "%s/ltp/testcases", work);
	(void)rmdir(p);
	(void)snprintf(p, sizeof(p), "%s/ltp/Version", work);
	(void)unlink(p);
	(void)snprintf(p, sizeof(p), "%s/ltp", work);
	(void)rmdir(p);
	(void)snprintf(p, sizeof(p), "%s/template.db", work);
	remove_db(p);
	(void)rmdir(work);
	if (memdir[0] != '\0') {
		(void)snprintf(p, sizeof(p), "%s/template.db", memdir);
		remove_db(p);
		(void)rmdir(memdir);
	}
}

/*
 * The environment of the run that does not read the kernel's log:
 * $LTPSCOPE_KMSG and $LTPSCOPE_TAINTED name a file that is not there.
 */
static void
nokmsg_environ(void)
{
	static char kv[sizeof(work) + 64], tv[sizeof(work) + 64];
	size_t n = 0, i;

	while (environ[n] != NULL)
		n++;
	if ((nokmsg_env = calloc(n + 3, sizeof(*nokmsg_env))) == NULL)
		die("calloc");
	for (i = 0; i < n; i++)
		nokmsg_env[i] = environ[i];
	(void)snprintf(kv, sizeof(kv), "LTPSCOPE_KMSG=%s/no-kmsg", work);
	(void)snprintf(tv, sizeof(tv), "LTPSCOPE_TAINTED=%s/no-kmsg", work);
	nokmsg_env[n] = kv;
	nokmsg_env[n + 1] = tv;
}

/*
 * Why the measured run cannot read the kernel's log (its first line on
 * stderr: e.g. "/dev/kmsg: Permission denied" as a user), or "": then
 * the cost compared is the real one.
 */
static void
kmsg_why(const char *dir, char *buf, size_t len)
{
	char err[sizeof(work) + 32];
	FILE *fp;

	buf[0] = '\0';
	(void)snprintf(err, sizeof(err), "%s/run.err", work);
	(void)bench_run(dir, 0, err, NTESTS);
	if ((fp = fopen(err, "r")) != NULL) {
		if (fgets(buf, (int)len, fp) == NULL)
			buf[0] = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		(void)fclose(fp);
	}
	(void)unlink(err);
}

int
main(void)
{
	static double t[NM][ROUNDS], q[NM][ROUNDS], over[ROUNDS];
	static double kt[2][ROUNDS], kq[ROUNDS];
	static double crun[ROUNDS], cfloor[ROUNDS];
	double med[NM], rat[NM], above, kcost, kmed, cr, cf, fixed;
	int ncpu = 0;
	const char *kdir;
	char kwhy[512];
	const char *base, *mem;
	char cwd[PATH_MAX];
	int r, m, k;

	if ((bin = getenv("LTPSCOPE_BIN")) == NULL || *bin == '\0')
		bin = "./ltpscope";
	/*
	 * The run reads the kernel's log after each test as a real run
	 * does (/dev/kmsg, its taint flags where it may), not the empty
	 * stand-ins tap gives the tests.
	 */
	(void)unsetenv("LTPSCOPE_KMSG");
	(void)unsetenv("LTPSCOPE_TAINTED");
	if ((base = getenv("TMPDIR")) == NULL || base[0] != '/')
		base = "/tmp";
	if ((mem = getenv("LTPSCOPE_BENCH_MEMDIR")) == NULL)
		mem = "/dev/shm";
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		die("getcwd");
	(void)snprintf(tiny, sizeof(tiny), "%s/%s", cwd, TINY);
	if (access(tiny, X_OK) == -1 || access(bin, X_OK) == -1) {
		fprintf(stderr, "bench_run: needs %s and %s (make bench)\n",
		    TINY, bin);
		return 1;
	}
	scratch(work, sizeof(work), base);
	if (work[0] == '\0')
		die(base);
	scratch(memdir, sizeof(memdir), mem);
	make_ltproot();
	nokmsg_environ();

	for (m = 0; m < NM; m++)	/* warm the caches */
		(void)bench_method(m);
	kdir = memdir[0] != '\0' ? memdir : work;
	kmsg_why(kdir, kwhy, sizeof(kwhy));
	for (r = 0; r < ROUNDS; r++)
		for (k = 0; k < NM; k++) {
			m = (r + k) % NM;
			cpu_run = cpu_floor = -1;
			t[m][r] = bench_method(m);
			if (m == M_RUN)
				crun[r] = cpu_run;
			else if (m == M_FLOOR)
				cfloor[r] = cpu_floor;
		}
	for (m = 0; m < NM; m++) {
		for (r = 0; r < ROUNDS; r++)
			q[m][r] = t[m][r] / t[M_SHELL][r];
		med[m] = bench_median(t[m], ROUNDS);
		rat[m] = bench_median(q[m], ROUNDS);
	}
	for (r = 0; r < ROUNDS; r++)
		over[r] = t[M_RUN][r] / t[M_FLOOR][r];
	above = bench_median(over, ROUNDS);
	for (r = 0; r < ROUNDS; r++)
		ncpu += crun[r] >= 0 && cfloor[r] >= 0;
	cr = bench_median(crun, ROUNDS);
	cf = bench_median(cfloor, ROUNDS);
	/* A run of one test less its test, as the 200 cost each. */
	fixed = med[M_RUN1] - (med[M_RUN] - med[M_RUN1]) / (NTESTS - 1);
	for (r = 0; r < ROUNDS; r++)
		for (k = 0; k < 2; k++) {
			m = (r + k) % 2;
			kt[m][r] = bench_run(kdir, m, NULL, NTESTS);
		}
	for (r = 0; r < ROUNDS; r++)
		kq[r] = kt[0][r] / kt[1][r];
	kcost = bench_median(kq, ROUNDS);
	kmed = bench_median(kt[1], ROUNDS);
	cleanup();

	printf("run: `ltpscope run` of %d tiny tests vs a shell loop "
	    "running them; %d interleaved rounds, median round and median "
	    "ratio\n", NTESTS, ROUNDS);
	printf("run: shell loop                      %6.3f s  %5.0f us/test  "
	    "baseline\n", med[M_SHELL], med[M_SHELL] / NTESTS * 1e6);
	printf("run: floor: C loop, one fdatasync %6.3f s  %5.0f us/test  "
	    "ratio %.2f (the crash protocol's cost on this disk, before any "
	    "of ltpscope's work)\n", med[M_FLOOR],
	    med[M_FLOOR] / NTESTS * 1e6, rat[M_FLOOR]);
	printf("run: ltpscope run, db in %-11s %6.3f s  %5.0f us/test  ratio "
	    "%.2f; %.2f times the floor (target <= 1.20)\n", base, med[M_RUN],
	    med[M_RUN] / NTESTS * 1e6, rat[M_RUN], above);
	if (memdir[0] != '\0')
		/*
		 * No target: the is the floor's, above.  This one
		 * is over a loop that has no pty, no TMPDIR, no database
		 * and no kernel log to read, and shows what of the run is
		 * not the disk's.
		 */
		printf("run: ltpscope run, db in %-11s %6.3f s  %5.0f us/test  "
		    "ratio %.2f (no fsync cost: ltpscope's own work, pty, "
		    "TMPDIR, SQL and kernel log, over the bare shell loop; no "
		    "target)\n", mem, med[M_RUNMEM],
		    med[M_RUNMEM] / NTESTS * 1e6, rat[M_RUNMEM]);
	else
		printf("run: no memory file system at %s: the run without "
		    "fsync costs is skipped\n", mem);
	/*
	 * Where the run's time above the floor goes: what every run costs
	 * once, and the CPU its own process spends a test (the floor's
	 * loop does nothing else between two tests than its write, its
	 * fdatasync and the vfork).  The process is single-threaded: all
	 * of that CPU is on the path from one test to the next.
	 */
	printf("run: per run: a run of 1 test %.1f ms, less its test %.1f ms "
	    "(starting the binary, opening the database, the run's first "
	    "and last commits, closing it): %.0f us/test of the %d-test "
	    "run\n", med[M_RUN1] * 1e3, fixed * 1e3, fixed / NTESTS * 1e6,
	    NTESTS);
	if (ncpu == ROUNDS)
		printf("run: CPU of the process itself, its tests' not counted: "
		    "ltpscope %.0f us/test, the floor's loop %.0f us/test; "
		    "%.0f us/test of the run's %.0f us/test above the floor "
		    "are ltpscope's own CPU\n", cr / NTESTS * 1e6,
		    cf / NTESTS * 1e6, (cr - cf) / NTESTS * 1e6,
		    (med[M_RUN] - med[M_FLOOR]) / NTESTS * 1e6);
	printf("run: one WAL commit with synchronous=FULL in %s: %.0f us "
	    "to a log kept short (checkpointed while tests run), %.0f us to "
	    "a growing one; the engine commits once per test (a result with "
	    "the next test's \"running\" row)\n", base, med[M_COMMIT] * 1e6,
	    med[M_COMMITGROW] * 1e6);
	printf("run:   so about %.0f us/test of the run's %.0f us/test over "
	    "the shell loop are durability\n", med[M_COMMIT] * 1e6,
	    (med[M_RUN] - med[M_SHELL]) / NTESTS * 1e6);
	printf("run: the same run, db in %s, not reading the kernel's log "
	    "%6.3f s  %5.0f us/test; reading it costs the run %+.1f%% "
	    "(ratio %.3f; target under 5%%)%s%s\n", memdir[0] != '\0' ?
	    mem : base, kmed, kmed / NTESTS * 1e6, (kcost - 1) * 100, kcost,
	    kwhy[0] != '\0' ? "; but here the run could not read it: " : "",
	    kwhy);
	return 0;
}
