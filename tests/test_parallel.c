/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Parallel runs (-j) and the metadata in `ltpscope run`: 200 LTP-like
 * programs of our own give the same stored results serially and with
 * -j 2; tests the metadata marks unsafe run alone; tests that cannot
 * run here are reported before the run and stored as skipped (conf)
 * with the reason; --dry-run shows the order and why; the engine's workers are
 * visible to its caller; and a run killed while two tests ran resumes
 * with both marked interrupted.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/engine.h"
#include "ltpscope/store.h"
#include "tap.h"

#define NTESTS	200

static char root[1024], cwd[1024], table[2048];

static const char *const kinds[] = {
	"pass", "fail", "broken", "conf", "warn", "oldlib", "oldlib fail",
	"sleepy 60", "pass", "tiny"
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

static void
tagname(size_t i, char *buf, size_t len)
{
	/* Some tags are a _64 build of the metadata entry, as in LTP. */
	snprintf(buf, len, "par%03zu%s", i, i % 50 == 5 ? "_64" : "");
}

/* What the metadata says of test i (NULL: no entry). */
static const char *
meta_of(size_t i)
{
	if (i % 10 == 0)
		return NULL;
	if (i % 10 == 1)
		return "\"needs_root\": true";
	if (i % 10 == 2)
		return "\"save_restore\": [[\"/proc/sys/x\", \"1\", \"SKIP\"]]";
	if (i % 25 == 3)
		return "\"needs_kconfigs\": [\"CONFIG_NOPE=y\"]";
	if (i == 4)
		return "\"supported_archs\": [\"s390x\"]";
	return "\"needs_tmpdir\": true";
}

static void
mkroot(void)
{
	static const char *const fakes[] = { "pass", "fail", "broken",
	    "conf", "warn", "oldlib", "sleepy", "tiny", NULL };
	char path[2048], tag[32];
	const char *m;
	FILE *fp;
	size_t i, first = 1;

	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	tap_fake_ltproot(root, fakes);
	snprintf(path, sizeof(path), "%s/metadata", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", root);
	fp = fopen(path, "w");
	for (i = 1; i <= NTESTS; i++) {
		tagname(i, tag, sizeof(tag));
		fprintf(fp, "%s %s\n", tag, kinds[i % NKINDS]);
	}
	fclose(fp);
	snprintf(path, sizeof(path), "%s/metadata/ltp.json", root);
	fp = fopen(path, "w");
	fprintf(fp, "{\n \"testsuite\": {\"version\": \"fake\"},\n"
	    " \"defaults\": {\"timeout\": 30},\n \"tests\": {\n");
	for (i = 1; i <= NTESTS; i++) {
		if ((m = meta_of(i)) == NULL)
			continue;
		fprintf(fp, "%s  \"par%03zu\": {\"groups\": [\"getpid\", "
		    "\"syscalls\"], \"doc\": [\"Test %zu.\"], %s}",
		    first ? "" : ",\n", i, i, m);
		first = 0;
	}
	fprintf(fp, "\n }\n}\n");
	fclose(fp);
}

/* Every stored result of run 1, one line per test, ordered by tag. */
static char *
results(const char *dbpath, size_t *np)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	char *buf = NULL, line[256];
	size_t len = 0;

	*np = 0;
	if (sqlite3_open(dbpath, &db) != SQLITE_OK)
		return strdup("(cannot open)");
	if (sqlite3_prepare_v2(db, "SELECT tag, status, exit_code, n_pass, "
	    "n_fail, n_broken, n_conf, n_warn, syscall FROM results WHERE "
	    "run_id = 1 ORDER BY tag", -1, &s, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return strdup("(cannot query)");
	}
	while (sqlite3_step(s) == SQLITE_ROW) {
		snprintf(line, sizeof(line), "%s %d %d %d %d %d %d %d %s\n",
		    sqlite3_column_text(s, 0), sqlite3_column_int(s, 1),
		    sqlite3_column_int(s, 2), sqlite3_column_int(s, 3),
		    sqlite3_column_int(s, 4), sqlite3_column_int(s, 5),
		    sqlite3_column_int(s, 6), sqlite3_column_int(s, 7),
		    sqlite3_column_text(s, 8));
		buf = realloc(buf, len + strlen(line) + 1);
		memcpy(buf + len, line, strlen(line) + 1);
		len += strlen(line);
		(*np)++;
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
	return buf != NULL ? buf : strdup("");
}

static char *
summary(const char *out)
{
	const char *p = strstr(out, "run 1: ");
	const char *nl = p != NULL ? strchr(p, '\n') : NULL;

	return p != NULL ? strndup(p, nl ? (size_t)(nl - p) : strlen(p)) :
	    strdup("(no summary)");
}

static void
test_serial_vs_parallel(void)
{
	char cmd[8192], db1[1200], db2[1200];
	char *out1, *out2, *r1, *r2, *s1, *s2;
	const char *nr, *first;
	size_t n1, n2;
	int st1, st2;

	snprintf(db1, sizeof(db1), "%s/serial.db", tap_tmpdir());
	snprintf(db2, sizeof(db2), "%s/par.db", tap_tmpdir());
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s -m %s --timeout 30 "
	    "--kconfig tests/fixtures/kconfig-meta </dev/null 2>&1", tap_bin(),
	    db1, root, table);
	out1 = tap_run(cmd, &st1, 0);
	snprintf(cmd, sizeof(cmd), "%s run -j 2 -d %s -L %s -m %s --timeout "
	    "30 --kconfig tests/fixtures/kconfig-meta </dev/null 2>&1",
	    tap_bin(), db2, root, table);
	out2 = tap_run(cmd, &st2, 0);
	is_int(st1, 1, "serial run: exit 1 (some tests fail)");
	is_int(st2, 1, "parallel run: the same exit");
	r1 = results(db1, &n1);
	r2 = results(db2, &n2);
	is_int((long long)n1, NTESTS, "serial: %d results stored", NTESTS);
	is_int((long long)n2, NTESTS, "-j 2: %d results stored", NTESTS);
	if (strcmp(r1, r2) != 0) {
		/*
		 * A test's output cut short by an early EIO on its pty was
		 * seen here once in a few thousand tests before the runner
		 * learned to wait it out (RUNNER_EIO_GRACE_MS).  Should it
		 * come back, a second pair of runs must still agree: a real
		 * divergence between serial and parallel runs stays.
		 */
		tap_diag("serial and -j 2 differ once; running both again");
		free(r1);
		free(r2);
		free(out1);
		free(out2);
		snprintf(db1, sizeof(db1), "%s/serial2.db", tap_tmpdir());
		snprintf(db2, sizeof(db2), "%s/par2.db", tap_tmpdir());
		snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s -m %s "
		    "--timeout 30 --kconfig tests/fixtures/kconfig-meta "
		    "</dev/null 2>&1", tap_bin(), db1, root, table);
		out1 = tap_run(cmd, &st1, 0);
		snprintf(cmd, sizeof(cmd), "%s run -j 2 -d %s -L %s -m %s "
		    "--timeout 30 --kconfig tests/fixtures/kconfig-meta "
		    "</dev/null 2>&1", tap_bin(), db2, root, table);
		out2 = tap_run(cmd, &st2, 0);
		r1 = results(db1, &n1);
		r2 = results(db2, &n2);
	}
	ok(strcmp(r1, r2) == 0, "the same statuses, counts and exit codes");
	if (strcmp(r1, r2) != 0) {
		/* Show the first line that differs, not a wall of text. */
		const char *a = r1, *b = r2;

		while (*a != '\0' && *a == *b) {
			a++;
			b++;
		}
		while (a > r1 && a[-1] != '\n') {
			a--;
			b--;
		}
		tap_diag("first difference:\nserial: %.200s\n-j 2:   %.200s",
		    a, b);
	}
	s1 = summary(out1);
	s2 = summary(out2);
	is_str(s2, s1, "the same summary");
	has_str(s1, "200 of 200 tests done", "every test accounted for");
	has_str(r1, "par003 3 -1 0 0 0 1 0 ", "a kconfig-less test is stored "
	    "conf, one skip, no exit status, as LTP's own TCONF");
	has_str(out1, "par003: not runnable here: the kernel config lacks "
	    "CONFIG_NOPE=y (tests/fixtures/kconfig-meta)",
	    "and reported with the reason");
	has_str(out2, "par004: not runnable here: runs only on s390x",
	    "arch reported too");
	nr = strstr(out1, "par003: not runnable here");
	first = strstr(out1, "PASS ");
	ok(nr != NULL && first != NULL && nr < first, "reported before the "
	    "run, not after");
	has_str(out2, "(not runnable here: the kernel config lacks "
	    "CONFIG_NOPE=y", "the result line says why too");
	has_str(r1, "par005_64 0 0 2 0 0 0 0 getpid", "par005_64 takes "
	    "par005's metadata group as its syscall");
	free(out1);
	free(out2);
	free(r1);
	free(r2);
	free(s1);
	free(s2);
}

static void
test_dry(void)
{
	char cmd[8192], line[256];
	char *out, *p, *last = NULL;
	int st;

	snprintf(cmd, sizeof(cmd), "%s run -j 2 --dry-run -d %s/par.db -L %s "
	    "-m %s --kconfig tests/fixtures/kconfig-meta </dev/null 2>&1",
	    tap_bin(), tap_tmpdir(), root, table);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "dry run");
	has_str(out, "2 jobs: tests marked parallel run side by side",
	    "says how it will run");
	has_str(out, "parallel  ", "parallel tests are marked");
	has_str(out, "serial (no metadata)", "a test without metadata runs "
	    "alone");
	has_str(out, "serial (needs_root)", "needs_root runs alone");
	has_str(out, "serial (save_restore)", "save_restore runs alone");
	has_str(out, "not runnable here: runs only on s390x", "and says why "
	    "a test will not run");
	has_str(out, "kernel config: tests/fixtures/kconfig-meta (--kconfig)\n",
	    "names the kernel config");
	p = strstr(out, "\n   1  ");
	snprintf(line, sizeof(line), "%.*s", p ? (int)(strchr(p + 1, '\n') -
	    p - 1) : 0, p ? p + 1 : "");
	has_str(line, "conf, not started: not runnable here", "tests that "
	    "never start come first: %s", line);
	for (p = out; (p = strstr(p, "\n ")) != NULL; p++)
		last = p + 1;
	ok(last != NULL && strstr(last, "serial (") != NULL, "serial tests "
	    "come last");
	/*
	 * par007 (sleepy 60) took longest: first of the parallel ones (the
	 * others take a few ms: room for a loaded machine).
	 */
	p = strstr(out, "parallel  ");
	while (p != NULL && p > out && p[-1] != '\n')
		p--;
	ok(p != NULL && strncmp(p + 6, "par", 3) == 0 &&
	    strstr(p, "sleepy") != NULL && strstr(p, "sleepy") <
	    strchr(p, '\n'), "the longest earlier duration first");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s run --dry-run -d %s/par.db -L %s "
	    "-m %s --kconfig tests/fixtures/kconfig-meta </dev/null 2>&1",
	    tap_bin(), tap_tmpdir(), root, table);
	out = tap_run(cmd, &st, 0);
	ok(strstr(out, "parallel") == NULL && strstr(out, "   1  par001 ")
	    != NULL, "without -j: runtest order, no modes");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s run -j 0 -L %s -m %s 2>&1", tap_bin(),
	    root, table);
	out = tap_run(cmd, &st, 0);
	is_int(st, 2, "-j 0 is a usage error");
	free(out);
}

/*
 * A fresh LTP root named dir: each line of runtest is "TAG overlap
 * SHARED NAME MS" (tests/ltpfake/overlap.c), every tag in the metadata
 * as safe to run beside others.  Tags starting "conf" share shared,
 * the others have shared/TAG each.
 */
static void
mkroot_overlap(const char *dir, const char *const *tags, size_t n,
    const char *shared, long ms)
{
	char own[1600];
	static const char *const fakes[] = { "overlap", NULL };
	char path[2048];
	size_t i;
	FILE *fp;

	tap_fake_ltproot(dir, fakes);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	mkdir(path, 0755);
	(void)mkdir(shared, 0755);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", dir);
	if ((fp = fopen(path, "w")) == NULL)
		return;
	for (i = 0; i < n; i++) {
		snprintf(own, sizeof(own), "%s/%s", shared, tags[i]);
		if (strncmp(tags[i], "conf", 4) != 0)
			(void)mkdir(own, 0755);
		fprintf(fp, "%s overlap %s %s %ld\n", tags[i],
		    strncmp(tags[i], "conf", 4) == 0 ? shared : own, tags[i],
		    ms);
	}
	fclose(fp);
	snprintf(path, sizeof(path), "%s/metadata/ltp.json", dir);
	if ((fp = fopen(path, "w")) == NULL)
		return;
	fprintf(fp, "{\"testsuite\": {\"version\": \"fake\"}, "
	    "\"defaults\": {\"timeout\": 30}, \"tests\": {");
	for (i = 0; i < n; i++)
		fprintf(fp, "%s\"%s\": {\"groups\": [\"getpid\"], "
		    "\"needs_tmpdir\": true}", i > 0 ? ", " : "", tags[i]);
	fprintf(fp, "}}\n");
	fclose(fp);
}

/* The start and end (ms) the overlap fake logged for name; 0: none. */
static int
logged(const char *log, const char *name, long long *start,
    long long *end)
{
	char key[64];
	const char *p;

	*start = *end = 0;
	snprintf(key, sizeof(key), "%s start ", name);
	if ((p = strstr(log, key)) != NULL)
		*start = strtoll(p + strlen(key), NULL, 10);
	snprintf(key, sizeof(key), "%s end ", name);
	if ((p = strstr(log, key)) != NULL)
		*end = strtoll(p + strlen(key), NULL, 10);
	return *start > 0 && *end > 0;
}

static int
overlaps(const char *log, const char *a, const char *b)
{
	long long as, ae, bs, be;

	return logged(log, a, &as, &ae) && logged(log, b, &bs, &be) &&
	    as < be && bs < ae;
}

/*
 * Two tests that fail only when run together (each sees the other's
 * mark): side by side they fail, which proves the check can fail; in a
 * conflict group, five -j 2 runs never do, and a third test runs beside
 * whichever of the pair runs (the group does not stop the queue).
 */
static void
test_conflicts(void)
{
	static const char *const pair[] = { "confa01", "confb01" };
	static const char *const three[] = { "confa01", "confb01",
	    "solo01" };
	char lroot[1200], shared[1200], db[1300], cmd[8192], path[1400];
	char path2[1400], *out, *log, *log2;
	int st, i, bad = 0, beside = 0, apart = 0;

	snprintf(lroot, sizeof(lroot), "%s/ltp-pair", tap_tmpdir());
	snprintf(shared, sizeof(shared), "%s/pair-shared", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/pair.db", tap_tmpdir());
	snprintf(path, sizeof(path), "%s/log", shared);
	snprintf(path2, sizeof(path2), "%s/solo01/log", shared);
	mkroot_overlap(lroot, pair, 2, shared, 400);
	snprintf(cmd, sizeof(cmd), "%s run -j 2 -d %s -L %s -m %s "
	    "</dev/null 2>&1", tap_bin(), db, lroot, table);
	out = tap_run(cmd, &st, 0);
	ok(st == 1 && strstr(out, "FAIL ") != NULL, "the pair side by side "
	    "fails (exit %d)", st);
	free(out);

	snprintf(lroot, sizeof(lroot), "%s/ltp-three", tap_tmpdir());
	mkroot_overlap(lroot, three, 3, shared, 400);
	snprintf(cmd, sizeof(cmd), "%s run -j 2 --dry-run -d %s -L %s -m %s "
	    "--conflicts tests/fixtures/conflicts-pair </dev/null 2>&1",
	    tap_bin(), db, lroot, table);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "dry run with a conflict file");
	has_str(out, "conflict groups: ", "--dry-run names the group files");
	has_str(out, "tests/fixtures/conflicts-pair (1 group)",
	    "... the fixture among them");
	has_str(out, "  kept apart, pair: confa01 confb01 (both mark the "
	    "same directory", "... the group used, its tests and reason");
	has_str(out, "parallel, apart (pair)", "... and each member's mode");
	free(out);

	for (i = 0; i < 5; i++) {
		(void)unlink(path);
		(void)unlink(path2);
		snprintf(cmd, sizeof(cmd), "%s run -j 2 -d %s -L %s -m %s "
		    "--conflicts tests/fixtures/conflicts-pair </dev/null "
		    "2>&1", tap_bin(), db, lroot, table);
		out = tap_run(cmd, &st, 0);
		log = tap_slurp(path, NULL);
		if (log != NULL && (log2 = tap_slurp(path2, NULL)) != NULL) {
			log = realloc(log, strlen(log) + strlen(log2) + 1);
			strcat(log, log2);
			free(log2);
		}
		if (st != 0 || strstr(out, "FAIL ") != NULL)
			bad++;
		if (log != NULL && !overlaps(log, "confa01", "confb01"))
			apart++;
		if (log != NULL && (overlaps(log, "solo01", "confa01") ||
		    overlaps(log, "solo01", "confb01")))
			beside++;
		if (st != 0)
			tap_diag("run %d: %s", i + 1, out);
		free(out);
		free(log);
	}
	is_int(bad, 0, "five -j 2 runs of the pair in a group: no failure");
	is_int(apart, 5, "... the logged times never overlap");
	is_int(beside, 5, "... and the third test ran beside one of them");

	snprintf(cmd, sizeof(cmd), "%s run -j 2 -d %s -L %s -m %s "
	    "--conflicts tests/fixtures/conflicts-bad </dev/null 2>&1",
	    tap_bin(), db, lroot, table);
	out = tap_run(cmd, &st, 0);
	ok(st != 0, "a bad conflict file stops the run");
	has_str(out, "tests/fixtures/conflicts-bad:2: error: 'pair': want GROUP "
	    "PATTERN[,PATTERN]... REASON", "... naming file and line");
	has_str(out, "conflicts-bad:3: error: group name 'bad/name'",
	    "... a bad group name");
	has_str(out, "conflicts-bad:4: error: group ok: an empty pattern",
	    "... an empty pattern");
	free(out);
}

/* What the overlap fakes of tags logged below shared, in one string. */
static char *
all_logs(const char *shared, const char *const *tags, size_t n)
{
	char path[1600], *all = strdup(""), *one;
	size_t i;

	for (i = 0; i <= n; i++) {
		if (i == n)
			snprintf(path, sizeof(path), "%s/log", shared);
		else
			snprintf(path, sizeof(path), "%s/%s/log", shared,
			    tags[i]);
		if ((one = tap_slurp(path, NULL)) == NULL)
			continue;
		all = realloc(all, strlen(all) + strlen(one) + 1);
		strcat(all, one);
		free(one);
	}
	return all;
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
count_str(const char *s, const char *what)
{
	int n = 0;

	for (; s != NULL && (s = strstr(s, what)) != NULL; s++)
		n++;
	return n;
}

/*
 * A -j 2 run killed (as a panic would) goes on side by side when
 * resumed: the tests it runs overlap, as the times they logged show,
 * and the conflict group the run began with still keeps its pair apart.
 */
static void
test_resume_parallel(void)
{
	static const char *const tags[] = { "s01", "s02", "s03", "s04",
	    "confa01", "confb01", "s05", "s06", "s07", "s08" };
	const size_t n = sizeof(tags) / sizeof(tags[0]);
	char lroot[1200], shared[1200], db[1300], cmd[8192];
	char *out, *log = NULL;
	long long t0, as, ae, bs, be;
	size_t i, j, resumed = 0, pairs = 0;
	pid_t pid;
	int st, fd, k, prev;

	snprintf(lroot, sizeof(lroot), "%s/ltp-resume", tap_tmpdir());
	snprintf(shared, sizeof(shared), "%s/resume-shared", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/resume.db", tap_tmpdir());
	mkroot_overlap(lroot, tags, n, shared, 500);
	if ((pid = fork()) == 0) {
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execl(tap_bin(), tap_bin(), "run", "-j", "2", "-d", db, "-L",
		    lroot, "-m", table, "--conflicts",
		    "tests/fixtures/conflicts-pair", (char *)0);
		_exit(127);
	}
	/* Killed once two tests have ended, with more to go. */
	for (k = 0; k < 600; k++) {
		struct timespec ts = { 0, 50000000L };

		free(log);
		log = all_logs(shared, tags, n);
		if (count_str(log, " end ") >= 2)
			break;
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	ok(count_str(log, " end ") >= 2 && count_str(log, " start ") < (int)n,
	    "the -j 2 run was killed half-way");
	/* What it left running ends first: only the resumed run's count. */
	for (k = 0, prev = -1; k < 200; k++) {
		struct timespec ts = { 0, 100000000L };

		free(log);
		log = all_logs(shared, tags, n);
		if (count_str(log, " start ") == count_str(log, " end ") &&
		    count_str(log, " end ") == prev)
			break;
		prev = count_str(log, " start ") == count_str(log, " end ") ?
		    count_str(log, " end ") : -1;
		nanosleep(&ts, NULL);
	}
	free(log);
	t0 = now_ms();
	snprintf(cmd, sizeof(cmd), "%s run --resume -d %s </dev/null 2>&1",
	    tap_bin(), db);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "--resume finishes it");
	has_str(out, "left, side by side as it began", "and says it runs "
	    "side by side");
	free(out);
	log = all_logs(shared, tags, n);
	for (i = 0; i < n; i++) {
		if (!logged(log, tags[i], &as, &ae) || as < t0)
			continue;
		resumed++;
		for (j = i + 1; j < n; j++)
			if (logged(log, tags[j], &bs, &be) && bs >= t0 &&
			    as < be && bs < ae)
				pairs++;
	}
	ok(resumed >= 3, "the resumed run ran the rest (%zu tests)", resumed);
	ok(pairs >= 1, "resumed tests ran side by side (%zu overlapping "
	    "pairs by their logged times)", pairs);
	ok(!overlaps(log, "confa01", "confb01"), "the conflict group still "
	    "keeps its pair apart");
	free(log);
}

struct evlog {
	struct engine	*e;
	int		 workers_seen[4];
	int		 noworker;
	size_t		 running_at_serial;
	size_t		 max_running;
	int		 lines;
};

static void
ev_wstart(void *arg, size_t w, const char *tag, size_t idx, size_t n)
{
	struct evlog *l = arg;

	if (w == ENGINE_NO_WORKER)
		l->noworker++;
	else if (w < 4)
		l->workers_seen[w]++;
	if (strcmp(tag, "serial") == 0)
		l->running_at_serial = engine_running(l->e);
}

static void
ev_wline(void *arg, size_t w, const struct ltpout_line *line)
{
	struct evlog *l = arg;

	l->lines++;
}

static void
test_engine_api(void)
{
	char sleepy[2048], path[1200];
	struct engine_test t[4];
	struct engine_events ev;
	struct engine_opts eo;
	struct engine *e;
	struct store *st = NULL;
	struct diaglist dl;
	struct evlog log;
	struct pollfd pfd[2 * ENGINE_NPOLL];
	const unsigned *k;
	size_t n;
	int rv;

	snprintf(sleepy, sizeof(sleepy), "%s/tests/ltpfake/bin/sleepy 300",
	    cwd);
	snprintf(path, sizeof(path), "%s/api.db", tap_tmpdir());
	diag_init(&dl);
	if (!ok(store_open(&st, path, STORE_CREATE, &dl) == STORE_OK,
	    "store opens"))
		return;
	memset(t, 0, sizeof(t));
	t[0].tag = "a";
	t[0].cmdline = sleepy;
	t[0].parallel = 1;
	t[1].tag = "b";
	t[1].cmdline = sleepy;
	t[1].parallel = 1;
	t[2].tag = "serial";
	t[2].cmdline = sleepy;
	t[3].tag = "skipped";
	t[3].cmdline = sleepy;
	t[3].notrun = "not runnable here: needs root (running as uid 1)";
	memset(&ev, 0, sizeof(ev));
	memset(&log, 0, sizeof(log));
	ev.worker_start = ev_wstart;
	ev.worker_line = ev_wline;
	ev.arg = &log;
	memset(&eo, 0, sizeof(eo));
	eo.runner.ltproot = root;
	eo.runner.kconfig = "";
	eo.jobs = 2;
	e = engine_new(st, &eo, t, 4, &ev, &dl);
	log.e = e;
	if (!ok(e != NULL, "engine with 2 workers"))
		return;
	is_int((long long)engine_workers(e), 2, "engine_workers");
	is_int(engine_service(e, &dl), 0, "first step");
	is_int((long long)engine_running(e), 2, "two tests start at once");
	ok(engine_worker_tag(e, 0) != NULL && engine_worker_tag(e, 1) != NULL
	    && strcmp(engine_worker_tag(e, 0), engine_worker_tag(e, 1)) != 0,
	    "each worker names its test (%s, %s)", engine_worker_tag(e, 0),
	    engine_worker_tag(e, 1));
	ok(engine_worker_tag(e, 2) == NULL, "no third worker");
	/* Each pty's master and, where there is one, its exit watch. */
	n = engine_pollfds(e, pfd, 2 * ENGINE_NPOLL);
	ok(n == 2 || n == 4, "two workers' fds to poll (%zu)", n);
	ok(engine_poll_timeout(e) != 0, "nothing more can start: wait");
	rv = engine_run(e, &dl);
	is_int(rv, 0, "the run completes");
	ok(log.workers_seen[0] >= 1 && log.workers_seen[1] >= 1,
	    "both workers ran tests (%d, %d)", log.workers_seen[0],
	    log.workers_seen[1]);
	is_int(log.noworker, 1, "the test ruled out had no worker");
	is_int((long long)log.running_at_serial, 0, "the serial test ran "
	    "alone");
	ok(log.lines > 0, "output lines carry their worker");
	k = engine_counts(e);
	ok(k[TS_PASS] == 3 && k[TS_CONF] == 1 && k[TS_NOTRUN] == 0,
	    "3 pass, 1 conf (ruled out: skipped, as LTP would)");
	engine_free(e);

	/* Killed while two ran: both become interrupted on resume. */
	snprintf(sleepy, sizeof(sleepy), "%s/tests/ltpfake/bin/sleepy 5000",
	    cwd);
	t[2].parallel = 1;
	t[3].notrun = NULL;
	t[3].parallel = 1;
	e = engine_new(st, &eo, t, 4, &ev, &dl);
	log.e = e;
	if (e != NULL) {
		struct store_interrupted *iv = NULL;
		struct store_queue_item *q = NULL;
		size_t ni = 0, nq = 0;
		int64_t id = engine_run_id(e);

		(void)engine_service(e, &dl);
		is_int((long long)engine_running(e), 2, "two running");
		/* What a crash leaves: the rows, no end (the kill is ours). */
		store_close(st);
		st = NULL;
		engine_free(e);
		(void)store_open(&st, path, 0, &dl);
		ok(st != NULL && store_interrupted_runs(st, &iv, &ni, &dl) ==
		    STORE_OK && ni == 1 && iv[0].nrunning == 2,
		    "the crashed run shows two running tests");
		store_interrupted_free(iv, ni);
		ok(st != NULL && store_run_resume(st, id, &q, &nq, &dl) ==
		    STORE_OK && nq == 2, "resume leaves the two not started");
		store_queue_free(q, nq);
	}
	store_close(st);
	if (dl.n > 0)
		diag_print(&dl, stderr, "test_parallel");
	diag_free(&dl);
}

int
main(void)
{
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(table, sizeof(table), "%s/tests/fixtures/linux/syscall_64.tbl",
	    cwd);
	setenv("XDG_CONFIG_HOME", tap_tmpdir(), 1);
	setenv("XDG_DATA_HOME", tap_tmpdir(), 1);
	mkroot();
	test_engine_api();
	test_serial_vs_parallel();
	test_dry();
	test_conflicts();
	test_resume_parallel();
	return tap_done();
}
