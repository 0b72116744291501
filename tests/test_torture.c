/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kill -9 at random moments, beside a run and in the middle of an
 * import: "tag" and "suggest --accept" on the database a run is
 * writing, the run itself, and "import" of a large kirk file.  After
 * every kill the file passes integrity_check, holds everything that was
 * committed before the kill (a command that exited 0, a line a run
 * printed, a row a reader saw), and a killed run resumes and finishes
 * with no test run twice.  TORTURE_KILLS sets the number of kills of
 * each kind ("make torture" asks for many more).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define NFAIL		20
#define NSLEEPY		12
#define NIMPORT		500
#define LINUX_TBL	"tests/fixtures/linux/syscall_64.tbl"

static char	bin[2048];
static char	root[1200];
static char	db[1200];
static int	kills = 12;

static void
sleep_ms(long ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1)
		continue;
}

static long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Starts bin with args, its stdout into out (NULL: /dev/null). */
static pid_t
spawn(const char *out, char *const *args)
{
	char *argv[64];
	pid_t pid;
	int fd, i;

	argv[0] = bin;
	for (i = 0; args[i] != NULL && i < 62; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	if ((pid = fork()) != 0)
		return pid;
	fd = open(out != NULL ? out : "/dev/null", O_WRONLY | O_CREAT |
	    O_TRUNC, 0644);
	dup2(fd, 1);
	fd = open("/dev/null", O_RDWR);
	dup2(fd, 0);
	dup2(fd, 2);
	execv(bin, argv);
	_exit(127);
}

/* SIGKILL (if still running) and reap; 0 when it had exited 0 itself. */
static int
kill_reap(pid_t pid, int *killed)
{
	int st;

	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	if (WIFSIGNALED(st)) {
		(*killed)++;
		return -1;
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static long long
db_int(sqlite3 *h, const char *sql, long long a, const char *b)
{
	sqlite3_stmt *s;
	long long n = -1;

	if (sqlite3_prepare_v2(h, sql, -1, &s, NULL) != SQLITE_OK)
		return -2;
	sqlite3_bind_int64(s, 1, a);
	if (b != NULL)
		sqlite3_bind_text(s, 2, b, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* One query on the file as another process sees it: what is committed. */
static long long
peek(const char *sql, long long a, const char *b)
{
	sqlite3 *h;
	long long n;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(h);
		return -1;
	}
	sqlite3_busy_timeout(h, 5000);
	n = db_int(h, sql, a, b);
	sqlite3_close(h);
	return n;
}

static void
exec_sql(const char *sql)
{
	sqlite3 *h;

	sqlite3_open(db, &h);
	sqlite3_busy_timeout(h, 5000);
	if (sqlite3_exec(h, sql, NULL, NULL, NULL) != SQLITE_OK)
		tap_diag("%s: %s", sql, sqlite3_errmsg(h));
	sqlite3_close(h);
}

/* The tags a run printed as passed, as test_run's kill test reads them. */
static int
reported(const char *out, char tags[][32], int max)
{
	const char *p;
	int n = 0;

	for (p = out; p != NULL && *p != '\0' && n < max;
	    p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char status[32], tag[32];

		if (sscanf(p, "%31s %31s", status, tag) == 2 &&
		    strcmp(status, "PASS") == 0)
			snprintf(tags[n++], 32, "%s", tag);
	}
	return n;
}

static void
mkroot(void)
{
	static const char *const fakes[] = { "fail", "sleepy", NULL };
	char path[1300];
	FILE *fp;
	int i;

	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	tap_fake_ltproot(root, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", root);
	fp = fopen(path, "w");
	for (i = 1; i <= NFAIL; i++)
		fprintf(fp, "fail%02d fail\n", i);
	for (i = 1; i < NSLEEPY; i++)
		fprintf(fp, "getpid%02d sleepy 40\n", i);
	/*
	 * The last waits while the hold file is there (a minute at most),
	 * so a run cannot end before its kill however slow the machine.
	 */
	fprintf(fp, "getpid%02d echo $$ >%s/hold.pid; i=0; while [ -e %s/hold "
	    "] && [ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done; sleepy 40\n",
	    NSLEEPY, tap_tmpdir(), tap_tmpdir());
	fclose(fp);
	snprintf(path, sizeof(path), "%s/Version", root);
	fp = fopen(path, "w");
	fprintf(fp, "20260529-fake\n");
	fclose(fp);
}

/*
 * Lets the last sleepy test go on (for the resume), and kills the one
 * a killed run left waiting.
 */
static void
release_hold(const char *hold)
{
	char pidf[1400], *s;
	long pid;

	(void)unlink(hold);
	snprintf(pidf, sizeof(pidf), "%s.pid", hold);
	if ((s = tap_slurp(pidf, NULL)) != NULL && (pid = atol(s)) > 1)
		(void)kill((pid_t)pid, SIGKILL);
	free(s);
	(void)unlink(pidf);
}

/*
 * Resumes run and checks it: every test once, all of them.  Returns 0,
 * or a bit set: 1 resume failed, 2 a test ran twice, 4 tests missing.
 */
static int
resume_check(long long run)
{
	char cmd[4096], runs[32];
	char *out;
	int st, bad = 0;

	snprintf(runs, sizeof(runs), "%lld", run);
	if (peek("SELECT count(*) FROM runs WHERE id = ?1 AND state = "
	    "'finished'", run, NULL) != 1) {
		snprintf(cmd, sizeof(cmd), "%s run --resume %lld -d %s "
		    "--no-skip-culprit </dev/null 2>&1", bin, run, db);
		out = tap_run(cmd, &st, 0);
		if (st != 0) {
			tap_diag("run --resume %s: %d: %s", runs, st, out);
			bad |= 1;
		}
		free(out);
	}
	if (peek("SELECT count(*) FROM (SELECT tag FROM results WHERE "
	    "run_id = ?1 GROUP BY tag HAVING count(*) > 1)", run, NULL) != 0)
		bad |= 2;
	if (peek("SELECT count(DISTINCT tag) FROM results WHERE run_id = ?1",
	    run, NULL) != NSLEEPY)
		bad |= 4;
	return bad;
}

/*
 * A run of the sleepy tests; beside it "tag" on one failure and
 * "suggest --accept" on the first run's twenty; all three killed at
 * random moments, each independently.
 */
static void
test_beside_run(void)
{
	char outf[1300], hold[1300], note[32], ftag[16], runid[16], cat[64];
	char tags[NSLEEPY + 4][32], *out;
	char *runargs[8 + NFAIL + NSLEEPY], *tagargs[16], *sugargs[16];
	int i, k, n, killed = 0, tag_ok = 0, sug_ok = 0, runs_hit = 0;
	int bad_integrity = 0, lost_tags = 0, lost_accepts = 0, lost_run = 0;
	int bad_resume = 0, twice = 0, missing = 0, r, rtag;
	long long run, seen, prev = 1;
	long t_tag, t_sug;
	pid_t prun, ptag, psug;

	/* Run 1: twenty failures for the rules to suggest on. */
	snprintf(outf, sizeof(outf), "%s/seed.out", tap_tmpdir());
	i = 0;
	runargs[i++] = (char *)"run";
	runargs[i++] = (char *)"-d";
	runargs[i++] = db;
	runargs[i++] = (char *)"-L";
	runargs[i++] = root;
	runargs[i++] = (char *)"-m";
	runargs[i++] = (char *)LINUX_TBL;
	n = i;
	for (k = 1; k <= NFAIL; k++) {
		runargs[i] = malloc(32);
		snprintf(runargs[i++], 32, "fail%02d", k);
	}
	runargs[i] = NULL;
	waitpid(spawn(outf, runargs), &k, 0);
	if (!is_int(peek("SELECT count(*) FROM results WHERE run_id = ?1 AND "
	    "status = (SELECT status FROM results WHERE tag = 'fail01')",
	    1, NULL), NFAIL, "run 1: twenty failures")) {
		out = tap_slurp(outf, NULL);
		tap_diag("%s", out ? out : "");
		free(out);
	}
	for (i = n; runargs[i] != NULL; i++)
		free(runargs[i]);
	/* The runs killed below: the sleepy tests. */
	for (i = n, k = 1; k <= NSLEEPY; k++) {
		runargs[i] = malloc(32);
		snprintf(runargs[i++], 32, "getpid%02d", k);
	}
	runargs[i] = NULL;

	snprintf(cat, sizeof(cat), "unsupported-flag");
	tagargs[0] = (char *)"tag";
	tagargs[1] = (char *)"-d";
	tagargs[2] = db;
	tagargs[3] = (char *)"--run";
	tagargs[4] = (char *)"1";
	tagargs[5] = (char *)"--author";
	tagargs[6] = (char *)"torture";
	tagargs[7] = (char *)"-m";
	tagargs[8] = note;
	tagargs[9] = ftag;
	tagargs[10] = cat;
	tagargs[11] = NULL;
	sugargs[0] = (char *)"suggest";
	sugargs[1] = (char *)"-d";
	sugargs[2] = db;
	sugargs[3] = (char *)"--accept";
	sugargs[4] = (char *)"--author";
	sugargs[5] = (char *)"rules";
	sugargs[6] = runid;
	sugargs[7] = NULL;
	snprintf(runid, sizeof(runid), "1");

	/* How long each takes whole here: the kills land within that. */
	snprintf(ftag, sizeof(ftag), "fail01");
	snprintf(note, sizeof(note), "calibration");
	t_tag = now_ms();
	waitpid(spawn(NULL, tagargs), &r, 0);
	t_tag = now_ms() - t_tag;
	t_sug = now_ms();
	waitpid(spawn(NULL, sugargs), &r, 0);
	t_sug = now_ms() - t_sug;
	for (k = 0; k < kills; k++) {
		long t0, tkill_side, tkill_run;
		long long accepted;

			/* suggest --accept has all twenty to do again. */
		exec_sql("DELETE FROM tags");
		snprintf(ftag, sizeof(ftag), "fail%02d", k % NFAIL + 1);
		snprintf(note, sizeof(note), "note %d", k);
		snprintf(hold, sizeof(hold), "%s/hold", tap_tmpdir());
		tap_write(hold, "");
		t0 = now_ms();
		prun = spawn(outf, runargs);
		sleep_ms(rand() % 120);
		ptag = spawn(NULL, tagargs);
		psug = spawn(NULL, sugargs);
		/* Kill within the time it takes whole, or just after. */
		tkill_side = now_ms() + rand() % (2 * t_tag + 20);
		tkill_run = t0 + 30 + rand() % 500;
		if (tkill_run < tkill_side)
			tkill_run = tkill_side;
		while (now_ms() < tkill_side)
			sleep_ms(1);
		rtag = kill_reap(ptag, &killed);
		tag_ok += rtag == 0;
		/* suggest commits twenty tags: give it longer. */
		sleep_ms(rand() % (t_sug + t_sug / 2 + 10));
		accepted = peek("SELECT count(*) FROM tags WHERE author = "
		    "'rules'", 0, NULL);
		r = kill_reap(psug, &killed);
		sug_ok += r == 0;
		/* Done: every failure has a tag, its own or the rules'. */
		if (peek("SELECT count(*) FROM tags WHERE author = 'rules'",
		    0, NULL) < accepted || (r == 0 && peek("SELECT "
		    "count(DISTINCT tag) FROM tags WHERE tag LIKE 'fail%'", 0,
		    NULL) != NFAIL))
			lost_accepts++;
		/* suggest --accept, beside it, must not have replaced it. */
		if (rtag == 0 && peek("SELECT count(*) FROM tags WHERE tag = "
		    "?2 AND length(line) = 0 AND CAST(note AS TEXT) = 'note ' "
		    "|| ?1", k, ftag) != 1)
			lost_tags++;
		while (now_ms() < tkill_run)
			sleep_ms(1);
		run = peek("SELECT max(id) FROM runs WHERE ?1 = ?1", 0, NULL);
		seen = run > prev ? peek("SELECT count(*) FROM results WHERE "
		    "run_id = ?1 AND status = 0", run, NULL) : 0;
		if (kill_reap(prun, &killed) != -1)
			tap_diag("the run finished before its kill");
		release_hold(hold);
		out = tap_slurp(outf, NULL);
		n = reported(out != NULL ? out : "", tags, NSLEEPY + 4);
		free(out);

		bad_integrity += !tap_db_integrity_ok(db);
		run = peek("SELECT max(id) FROM runs WHERE ?1 = ?1", 0, NULL);
		if (run <= prev)	/* killed before its run began */
			continue;
		prev = run;
		runs_hit++;
		for (i = 0; i < n; i++)
			lost_run += peek("SELECT count(*) FROM results WHERE "
			    "run_id = ?1 AND tag = ?2 AND status = 0", run,
			    tags[i]) != 1;
		lost_run += peek("SELECT count(*) FROM results WHERE "
		    "run_id = ?1 AND status = 0", run, NULL) < seen;
		r = resume_check(run);
		bad_resume += (r & 1) != 0;
		twice += (r & 2) != 0;
		missing += (r & 4) != 0;
	}
	tap_diag("beside a run: %d kills landed; tag done %d (%ld ms whole), "
	    "suggest done %d (%ld ms), %d runs", killed, tag_ok, t_tag, sug_ok,
	    t_sug, runs_hit);
	ok(killed >= kills, "kills landed mid-work (%d)", killed);
	is_int(bad_integrity, 0, "integrity_check ok after every kill");
	is_int(lost_tags, 0, "every tag that tag reported saved is there");
	is_int(lost_accepts, 0, "no accepted suggestion lost");
	is_int(lost_run, 0, "every result the run committed is there");
	is_int(bad_resume, 0, "every killed run resumes");
	is_int(twice, 0, "no test ran twice");
	is_int(missing, 0, "every resumed run has all its tests");
	for (i = 7; runargs[i] != NULL; i++)
		free(runargs[i]);
}

/* A kirk results.json of n passing and failing tests. */
static void
mkkirk(const char *path, int n)
{
	FILE *fp = fopen(path, "w");
	int i;

	fprintf(fp, "{\"results\": [");
	for (i = 0; i < n; i++) {
		int f = i % 7 == 0;
		const char *v = f ? "fail" : "pass";

		fprintf(fp, "%s{\"test_fqn\": \"imp%04d\", \"status\": "
		    "\"%s\", \"test\": {\"command\": \"imp%04d\", "
		    "\"arguments\": [], \"log\": \"imp.c:1: %s: number "
		    "%d\\n\\nSummary:\\npassed   %d\\nfailed   %d\\n"
		    "broken   0\\nskipped  0\\nwarnings 0\\n\", "
		    "\"retval\": [\"%d\"], \"duration\": 0.01, "
		    "\"failed\": %d, \"passed\": %d, \"broken\": 0, "
		    "\"skipped\": 0, \"warnings\": 0, \"result\": "
		    "\"%s\"}}", i ? ", " : "", i, v, i, f ? "TFAIL" : "TPASS",
		    i, !f, f, f, f, !f, v);
	}
	fprintf(fp, "], \"environment\": {\"distribution\": \"torture\"}, "
	    "\"stats\": {}}\n");
	fclose(fp);
}

/* import killed at random moments: what it committed stays. */
static void
test_import(void)
{
	char kirk[1300], *args[8];
	int k, killed = 0, done = 0, bad_integrity = 0, lost = 0, partial = 0;
	int twice = 0;
	long t0, full, seen_run;
	long long seen, run;
	pid_t pid;
	int st;

	snprintf(kirk, sizeof(kirk), "%s/results.json", tap_tmpdir());
	mkkirk(kirk, NIMPORT);
	snprintf(db, sizeof(db), "%s/import.db", tap_tmpdir());
	args[0] = (char *)"import";
	args[1] = (char *)"-d";
	args[2] = db;
	args[3] = (char *)"--kirk";
	args[4] = kirk;
	args[5] = NULL;
	/* A whole import first: the kills land within its length. */
	t0 = now_ms();
	waitpid(spawn(NULL, args), &st, 0);
	full = now_ms() - t0;
	if (!is_int(peek("SELECT count(*) FROM results WHERE run_id = ?1",
	    1, NULL), NIMPORT, "an import of %d tests (%ld ms)", NIMPORT, full))
		tap_diag("import exited %d", st);
	for (k = 0; k < kills; k++) {
		pid = spawn(NULL, args);
		sleep_ms(rand() % (full + full / 4 + 1));
		/* The newest run and what of it is committed, just before. */
		seen_run = (long)peek("SELECT max(id) FROM runs WHERE ?1 = ?1",
		    0, NULL);
		seen = peek("SELECT count(*) FROM results WHERE run_id = ?1",
		    seen_run, NULL);
		done += kill_reap(pid, &killed) == 0;
		bad_integrity += !tap_db_integrity_ok(db);
		lost += peek("SELECT count(*) FROM results WHERE run_id = ?1",
		    seen_run, NULL) < seen;
		run = peek("SELECT max(id) FROM runs WHERE ?1 = ?1", 0, NULL);
		twice += peek("SELECT count(*) FROM (SELECT tag FROM results "
		    "WHERE run_id = ?1 GROUP BY tag HAVING count(*) > 1)", run,
		    NULL) != 0;
		/* A run cut short never says it finished. */
		partial += peek("SELECT count(*) FROM runs WHERE state = "
		    "'finished' AND (SELECT count(*) FROM results WHERE "
		    "run_id = runs.id) <> ?1", NIMPORT, NULL) != 0;
	}
	tap_diag("import: %d killed, %d finished first", killed, done);
	ok(killed > 0, "kills landed mid-import (%d)", killed);
	is_int(bad_integrity, 0, "integrity_check ok after every kill");
	is_int(lost, 0, "nothing an import committed was lost");
	is_int(twice, 0, "no test imported twice into one run");
	is_int(partial, 0, "no cut-short import marked finished");
	waitpid(spawn(NULL, args), &st, 0);
	is_int(st, 0, "an import after the kills succeeds");
	run = peek("SELECT max(id) FROM runs WHERE ?1 = ?1", 0, NULL);
	is_int(peek("SELECT count(DISTINCT tag) FROM results WHERE "
	    "run_id = ?1 AND (SELECT state FROM runs WHERE id = ?1) = "
	    "'finished'", run, NULL), NIMPORT, "and holds every test");
}

int
main(void)
{
	const char *b = getenv("LTPSCOPE_BIN"), *n = getenv("TORTURE_KILLS");
	char cwd[1024];

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	if (n != NULL && atoi(n) > 0)
		kills = atoi(n);
	snprintf(bin, sizeof(bin), "%s/%s", cwd, b ? b : "ltpscope");
	snprintf(db, sizeof(db), "%s/torture.db", tap_tmpdir());
	setenv("HOME", tap_tmpdir(), 1);
	setenv("XDG_CONFIG_HOME", tap_tmpdir(), 1);
	setenv("XDG_DATA_HOME", tap_tmpdir(), 1);
	setenv("XDG_STATE_HOME", tap_tmpdir(), 1);
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	mkroot();
	test_beside_run();
	test_import();
	return tap_done();
}
