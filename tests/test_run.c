/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope run end to end, on LTP-like programs of our own: every kind
 * of outcome is classified and stored, the skip list holds (and yields
 * to a test named explicitly, and holds on NetBSD only), no process
 * outlives its test, a run killed with SIGKILL at random moments keeps
 * everything it reported and resumes without running any test twice,
 * and a test LTP's metadata rules out here is stored as LTP's own TCONF
 * would be.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define KILLS	50
/* Our own Linux table: the run needs names, not the host's headers. */
#define LINUX_TBL	"tests/fixtures/linux/syscall_64.tbl"

static char root[1024];
static char bin[2048];
static char cwd[1024];

static const struct {
	const char	*tag;
	const char	*cmd;
	const char	*status;	/* as run prints it */
} cases[] = {
	{ "open01", "pass", "PASS" },
	{ "open02", "fail", "FAIL" },
	{ "close01", "broken", "BROKEN" },
	{ "read01", "conf", "CONF" },
	/* tst_kconfig's TWARN alone is the box's (data/rules envwarn:). */
	{ "write01", "warn", "PASS" },
	{ "write02", "warn own", "WARN" },
	{ "readv01", "oldlib", "PASS" },
	{ "readv02", "oldlib fail", "FAIL" },
	{ "getpid01", "selfkill", "SIGNALLED" },
	{ "pause01", "hang", "TIMEOUT" },
	{ "fork01", "escape pgrp hang 61", "TIMEOUT" },
	{ "vfork01", "escape pgrp exit 61", "PASS" },
	{ "writev01", "flood 3", "PASS" },
	{ "mmap01", "escapes", "PASS" },
	{ "rt_sigqueueinfo01", "pass", "NOT-RUN" },
};
#define NCASES	(sizeof(cases) / sizeof(cases[0]))

static void
mkroot(const char *dir, int sleepy)
{
	static const char *const fakes[] = { "pass", "fail", "broken",
	    "conf", "warn", "oldlib", "selfkill", "hang", "escape", "flood",
	    "escapes", "sleepy", NULL };
	char path[2048];
	FILE *fp;
	size_t i;

	tap_fake_ltproot(dir, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", dir);
	fp = fopen(path, "w");
	if (sleepy)
		for (i = 0; i < 12; i++)
			fprintf(fp, "getpid%02zu sleepy 15\n", i + 1);
	else
		for (i = 0; i < NCASES; i++)
			fprintf(fp, "%s %s\n", cases[i].tag, cases[i].cmd);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/Version", dir);
	fp = fopen(path, "w");
	fprintf(fp, "20260529-fake\n");
	fclose(fp);
}

/* The line of out that starts with a status word and names tag. */
static char *
result_line(const char *out, const char *tag, char *buf, size_t len)
{
	const char *p = out, *nl;
	char want[128];

	snprintf(want, sizeof(want), " %s ", tag);
	buf[0] = '\0';
	for (; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		snprintf(buf, len, "%.*s", (int)(nl - p), p);
		if (strstr(buf, want) != NULL && buf[0] >= 'A' &&
		    buf[0] <= 'Z')
			return buf;
		buf[0] = '\0';
		if (*nl == '\0')
			break;
	}
	return buf;
}

/* The first line of out naming tag as a word. */
static char *
line_of(const char *out, const char *tag, char *buf, size_t len)
{
	const char *p = out, *nl;
	char want[128];

	snprintf(want, sizeof(want), " %s ", tag);
	buf[0] = '\0';
	for (; *p != '\0'; p = *nl != '\0' ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		snprintf(buf, len, "%.*s", (int)(nl - p), p);
		if (strstr(buf, want) != NULL)
			return buf;
	}
	buf[0] = '\0';
	return buf;
}

/* /proc/PID/NAME with its NULs as blanks, in buf; its length or -1. */
static ssize_t
proc_read(const char *pid, const char *name, char *buf, size_t size)
{
	char path[300];
	ssize_t len, i;
	int fd;

	snprintf(path, sizeof(path), "/proc/%s/%s", pid, name);
	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	len = read(fd, buf, size - 1);
	close(fd);
	if (len < 0)
		return -1;
	for (i = 0; i < len; i++)
		if (buf[i] == '\0')
			buf[i] = ' ';
	buf[len] = '\0';
	return len;
}

/*
 * Processes still running one of our fakes with this argument, started
 * by this test program (their TMPDIR is below ours): other test runs on
 * the machine, a make check beside this one, do not count.
 */
static int
count_procs(const char *needle)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	static char env[65536];
	char buf[4096], mine[1100];
	int n = 0;

	if (d == NULL)
		return 0;
	snprintf(mine, sizeof(mine), "TMPDIR=%s/", tap_tmpdir());
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (proc_read(de->d_name, "cmdline", buf, sizeof(buf)) <= 0 ||
		    strstr(buf, needle) == NULL)
			continue;
		if (proc_read(de->d_name, "environ", env, sizeof(env)) < 0 ||
		    strstr(env, mine) != NULL)
			n++;
	}
	closedir(d);
	return n;
}

static void
test_outcomes(void)
{
	char cmd[8192], buf[512], db[1200];
	char *out;
	size_t i;
	int st;

	snprintf(db, sizeof(db), "%s/r.db", tap_tmpdir());
	/* The bundled skip list is NetBSD's. */
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_OS=NetBSD %s run -d %s -L %s -m "
	    "%s --timeout 2 --grace 300 </dev/null", bin, db, root,
	    LINUX_TBL);
	out = tap_run(cmd, &st, 0);
	is_int(st, 1, "run exits 1 when something failed");
	for (i = 0; i < NCASES; i++)
		is_str(strtok(result_line(out, cases[i].tag, buf,
		    sizeof(buf)), " "), cases[i].status, "%s (%s) is %s",
		    cases[i].tag, cases[i].cmd, cases[i].status);
	has_str(out, "run 1: 15 of 15 tests done: 6 pass, 2 fail, 1 broken, "
	    "1 conf, 1 warn, 2 timeout, 1 signalled, 1 not-run (1 of them "
	    "with an env warning)", "summary line counts every status");
	has_str(result_line(out, "write01", buf, sizeof(buf)),
	    "env warning", "a pass with the box's warning is marked");
	ok(strstr(result_line(out, "write02", buf, sizeof(buf)),
	    "env warning") == NULL, "a warning of its own is not excused");
	has_str(result_line(out, "rt_sigqueueinfo01", buf, sizeof(buf)),
	    "skip list: panics NetBSD", "skip reason shown");
	has_str(result_line(out, "open02", buf, sizeof(buf)),
	    "1 fail", "counts shown");
	has_str(out, "\nleft behind: vfork01: killed ",
	    "the summary lists the processes a test left behind");
	is_int(count_procs("escape pgrp hang 61") +
	    count_procs("escape pgrp exit 61"), 0,
	    "no escaped grandchild survives the run");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s show 1 -d %s --format json", bin, db);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "show works on the run");
	has_str(out, "\"tag\": \"pause01\"", "show lists pause01");
	has_str(out, "\"status\": \"timeout\"", "timeout stored");
	has_str(out, "\"status\": \"not-run\", \"exit_code\": null",
	    "not-run stored, with no exit status");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s show 1 -d %s | grep rt_sigqueueinfo01",
	    bin, db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "not-run        -     -", "no exit status shows as -");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s show 1 -d %s --output writev01 | wc -c",
	    bin, db);
	out = tap_run(cmd, &st, 0);
	ok(atol(out) >= 3 * 1024 * 1024, "the 3 MiB flood is stored whole "
	    "(%ld bytes shown)", atol(out));
	free(out);

	snprintf(cmd, sizeof(cmd), "%s show 1 -d %s --output mmap01", bin,
	    db);
	out = tap_run(cmd, &st, 0);
	ok(strchr(out, '\033') == NULL, "stored escapes never reach the "
	    "terminal raw");
	free(out);

	/* Named explicitly, a test on the skip list runs after a warning. */
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_OS=NetBSD %s run -d %s -L %s "
	    "-m %s rt_sigqueueinfo01 open01 2>&1 </dev/null", bin, db, root,
	    LINUX_TBL);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "explicit run of passing tests exits 0");
	has_str(out, "warning: rt_sigqueueinfo01 is on the skip list",
	    "warns about the skip list");
	has_str(result_line(out, "rt_sigqueueinfo01", buf, sizeof(buf)),
	    "PASS", "and runs it");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s -m %s -s open,pause "
	    "--dry-run </dev/null", bin, db, root,
	    LINUX_TBL);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "dry run");
	has_str(out, "open01", "dry run lists open01");
	has_str(out, "pause01", "and pause01");
	ok(strstr(out, "close01") == NULL, "but not close01");
	free(out);
}

/* Reads the tags run reported as finished so far. */
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

static int
db_count(sqlite3 *db, const char *sql, long long run, const char *tag)
{
	sqlite3_stmt *s;
	int n = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK)
		return -2;
	sqlite3_bind_int64(s, 1, run);
	if (tag != NULL)
		sqlite3_bind_text(s, 2, tag, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return n;
}

/* The run's TMPDIR parent its config names, into buf ("" if none). */
static void
db_rundir(sqlite3 *db, long long run, char *buf, size_t len)
{
	sqlite3_stmt *s;
	const char *c, *p;

	buf[0] = '\0';
	if (sqlite3_prepare_v2(db, "SELECT config FROM runs WHERE id = ?",
	    -1, &s, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(s, 1, run);
	if (sqlite3_step(s) == SQLITE_ROW &&
	    (c = (const char *)sqlite3_column_text(s, 0)) != NULL &&
	    (p = strstr(c, "\ntmpdirs=")) != NULL)
		snprintf(buf, len, "%.*s", (int)strcspn(p + 9, "\n"), p + 9);
	sqlite3_finalize(s);
}

/* Entries in dir, or -1 when it is not there. */
static int
dir_entries(const char *dir)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void
test_kill9(void)
{
	char sroot[1200], db[1200], outf[1300], cmd[8192];
	char tags[64][32];
	int i, j, bad_integrity = 0, lost = 0, twice = 0, unfinished = 0;
	int resumed_fail = 0, nrep, killed_mid = 0;
	int left_found = 0, left_kept = 0, unnamed = 0;
	long long run, prev_run = 0;
	char rundir[1200];

	snprintf(sroot, sizeof(sroot), "%s/sleepy-ltp", tap_tmpdir());
	mkroot(sroot, 1);
	snprintf(db, sizeof(db), "%s/kill.db", tap_tmpdir());
	snprintf(outf, sizeof(outf), "%s/kill.out", tap_tmpdir());
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	for (i = 0; i < KILLS; i++) {
		pid_t pid;
		struct timespec ts;
		char *out;
		sqlite3 *h;
		int fd, st;

		if ((pid = fork()) == 0) {
			fd = open(outf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
			dup2(fd, 1);
			fd = open("/dev/null", O_RDWR);
			dup2(fd, 0);
			dup2(fd, 2);
			execl(bin, bin, "run", "-d", db, "-L", sroot, "-m",
			    LINUX_TBL, (char *)0);
			_exit(127);
		}
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(rand() % 300) * 1000000L;
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		killed_mid += WIFSIGNALED(st);
		out = tap_slurp(outf, NULL);
		nrep = reported(out ? out : "", tags, 64);
		free(out);

		if (sqlite3_open(db, &h) != SQLITE_OK) {
			bad_integrity++;
			continue;
		}
		{
			sqlite3_stmt *s;

			if (sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1,
			    &s, NULL) != SQLITE_OK ||
			    sqlite3_step(s) != SQLITE_ROW ||
			    strcmp((const char *)sqlite3_column_text(s, 0),
			    "ok") != 0)
				bad_integrity++;
			sqlite3_finalize(s);
		}
		run = db_count(h, "SELECT max(id) FROM runs WHERE ?1 = ?1", 0,
		    NULL);
		/* Killed before its run existed: nothing to check or resume. */
		if (run <= prev_run) {
			sqlite3_close(h);
			continue;
		}
		prev_run = run;
		for (j = 0; j < nrep; j++)
			if (db_count(h, "SELECT count(*) FROM results WHERE "
			    "run_id = ?1 AND tag = ?2 AND status = 0", run,
			    tags[j]) != 1)
				lost++;
		/* A dead run's TMPDIRs (and its spare) are below this. */
		db_rundir(h, run, rundir, sizeof(rundir));
		unnamed += rundir[0] == '\0';
		left_found += dir_entries(rundir) > 0;
		sqlite3_close(h);

		snprintf(cmd, sizeof(cmd), "%s run --resume %lld -d %s "
		    "--no-skip-culprit </dev/null >/dev/null 2>&1", bin, run,
		    db);
		out = tap_run(cmd, &st, 0);
		free(out);
		left_kept += rundir[0] != '\0' && dir_entries(rundir) != -1;
		/* A run killed before its first commit has nothing to resume. */
		if (st != 0) {
			sqlite3_open(db, &h);
			if (db_count(h, "SELECT count(*) FROM results WHERE "
			    "run_id = ?1", run, NULL) != 0)
				resumed_fail++;
			sqlite3_close(h);
			continue;
		}
		sqlite3_open(db, &h);
		twice += db_count(h, "SELECT count(*) FROM (SELECT tag FROM "
		    "results WHERE run_id = ?1 GROUP BY tag HAVING "
		    "count(*) > 1)", run, NULL);
		if (db_count(h, "SELECT count(DISTINCT tag) FROM results "
		    "WHERE run_id = ?1", run, NULL) != 12)
			unfinished++;
		sqlite3_close(h);
	}
	ok(killed_mid > KILLS / 2, "most kills landed mid-run (%d of %d)",
	    killed_mid, KILLS);
	is_int(bad_integrity, 0, "integrity_check ok after every kill");
	is_int(lost, 0, "every test reported finished is stored");
	is_int(resumed_fail, 0, "every interrupted run resumes");
	is_int(twice, 0, "no test ran twice");
	is_int(unfinished, 0, "every resumed run has all 12 tests");
	is_int(unnamed, 0, "every run names its TMPDIRs' directory");
	ok(left_found > 0, "killed runs left TMPDIRs behind (%d times)",
	    left_found);
	is_int(left_kept, 0, "--resume removed every one of them");
}

/* 1 once runs lists a run of db as running, within 30 s; else 0. */
static int
wait_running(const char *db)
{
	char cmd[2600], *out;
	int st, i, found = 0;

	snprintf(cmd, sizeof(cmd), "%s runs -d %s 2>/dev/null", bin, db);
	for (i = 0; i < 600 && !found; i++) {
		struct timespec ts = { 0, 50000000L };

		out = tap_run(cmd, &st, 0);
		found = out != NULL && strstr(out, "running") != NULL;
		free(out);
		if (!found)
			nanosleep(&ts, NULL);
	}
	return found;
}

/* Runs cmd with sh -c in the background: its pid. */
static pid_t
sh_background(const char *cmd)
{
	pid_t pid;

	if ((pid = fork()) == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)0);
		_exit(127);
	}
	return pid;
}

/*
 * ^C stops a run; a plain --resume finishes it.  The first test waits
 * for a file this check makes after the ^C (a minute at most), so the
 * ^C lands mid-run however slow the machine: twelve short tests alone
 * could all be done by then.
 */
static void
test_sigint(void)
{
	char sroot[1200], db[1200], cmd[8192], stamp[1300], text[4096];
	char *out;
	pid_t pid;
	int st, fd, i;

	snprintf(sroot, sizeof(sroot), "%s/sigint-ltp", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/int.db", tap_tmpdir());
	snprintf(stamp, sizeof(stamp), "%s/go-on", tap_tmpdir());
	mkroot(sroot, 1);
	snprintf(text, sizeof(text), "getpid01 i=0; while [ ! -e %s ] && "
	    "[ $i -lt 60 ]; do sleep 1; i=$((i + 1)); done; sleepy 15\n",
	    stamp);
	for (i = 2; i <= 12; i++)
		snprintf(text + strlen(text), sizeof(text) - strlen(text),
		    "getpid%02d sleepy 15\n", i);
	snprintf(cmd, sizeof(cmd), "%s/runtest/syscalls", sroot);
	tap_write(cmd, text);
	if ((pid = fork()) == 0) {
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execl(bin, bin, "run", "-d", db, "-L", sroot, "-m",
		    LINUX_TBL, (char *)0);
		_exit(127);
	}
	/* ^C once the run is under way, however long its start takes. */
	ok(wait_running(db), "the run started");
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 1, "^C ends the run, exit 1");
	tap_write(stamp, "");
	snprintf(cmd, sizeof(cmd), "%s run --resume -d %s </dev/null 2>&1",
	    bin, db);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "a plain --resume takes the stopped run");
	has_str(out, "resuming run 1", "and says which");
	has_str(out, "getpid12", "it runs what was left");
	free(out);
}


/*
 * A fake LTP whose metadata (tests/fixtures/precheck-ltp.json) rules
 * out three tests here: an arch no test box is, a command none has, a
 * kernel option the given config lacks.  Its runtest/syscalls-ipc
 * repeats runtest/syscalls, as LTP's does.
 */
static void
mkroot_precheck(const char *dir)
{
	static const char *const fakes[] = { "pass", "conf", NULL };
	char path[2048], *json;

	tap_fake_ltproot(dir, fakes);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/metadata/ltp.json", dir);
	json = tap_slurp("tests/fixtures/precheck-ltp.json", NULL);
	tap_write(path, json != NULL ? json : "");
	free(json);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", dir);
	/* madvise11 TCONFs by itself, as LTP does on a kernel without. */
	tap_write(path, "modify_ldt01 pass\nstatx07 pass\nmadvise11 conf\n"
	    "open01 pass\nrt_sigqueueinfo01 pass\n");
	snprintf(path, sizeof(path), "%s/runtest/syscalls-ipc", dir);
	tap_write(path, "open01 pass\nstatx07   pass\nmadvise11 conf\n");
}

/*
 * What the pre-check ruled out stays ruled out after ^C and --resume,
 * which loads no metadata: the queue keeps the reasons.
 */
static void
test_precheck_resume(void)
{
	static const char *const fakes[] = { "pass", "hang", NULL };
	const char *table = "tests/fixtures/catalogue/fixture_64.tbl";
	char proot[1200], db[1200], path[1300], cmd[8192], buf[512], *out;
	pid_t pid;
	int st, fd;

	snprintf(proot, sizeof(proot), "%s/precheck-resume-ltp",
	    tap_tmpdir());
	mkroot_precheck(proot);
	tap_fake_ltproot(proot, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", proot);
	tap_write(path, "hang01 hang\nmodify_ldt01 pass\nopen01 pass\n");
	snprintf(path, sizeof(path), "%s/runtest/syscalls-ipc", proot);
	(void)unlink(path);
	snprintf(db, sizeof(db), "%s/precheck-resume.db", tap_tmpdir());
	if ((pid = fork()) == 0) {
		fd = open("/dev/null", O_RDWR);
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		setenv("LTPSCOPE_OS", "Linux", 1);
		execl(bin, bin, "run", "-d", db, "-L", proot, "-m", table,
		    "--kconfig", "", "--timeout", "3", (char *)0);
		_exit(127);
	}
	/* ^C while hang01, the first, runs. */
	ok(wait_running(db), "a run with a test ruled out started");
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_OS=Linux %s run --resume -d %s "
	    "</dev/null 2>&1", bin, db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "resuming run 1", "--resume goes on with it");
	has_str(result_line(out, "modify_ldt01", buf, sizeof(buf)), "CONF",
	    "modify_ldt01 is still ruled out");
	has_str(buf, "(not runnable here: runs only on s390x", "... with "
	    "the reason the run began with");
	has_str(result_line(out, "open01", buf, sizeof(buf)), "PASS",
	    "open01 runs");
	free(out);
}

/* The pre-check's verdict is LTP's: conf, with ltpscope's reason. */
static void
test_precheck(void)
{
	char proot[1200], db[1200], base[1200], cmd[8192], buf[512];
	const char *table = "tests/fixtures/catalogue/fixture_64.tbl";
	char *out;
	int st;

	snprintf(proot, sizeof(proot), "%s/precheck-ltp", tap_tmpdir());
	mkroot_precheck(proot);
	snprintf(db, sizeof(db), "%s/precheck.db", tap_tmpdir());
	/* The baseline: LTP's own TCONF for the same three (another runner). */
	snprintf(base, sizeof(base), "%s/baseline.rt", tap_tmpdir());
	tap_write(base, "modify_ldt01 conf\nstatx07 conf\nmadvise11 conf\n"
	    "open01 pass\nrt_sigqueueinfo01 pass\n");
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_OS=Linux %s run -d %s -L %s "
	    "-m %s -f %s --no-metadata </dev/null 2>&1", bin, db, proot, table,
	    base);
	out = tap_run(cmd, &st, 0);
	has_str(out, "run 1: 5 of 5 tests done: 2 pass, 0 fail, 0 broken, "
	    "3 conf", "the baseline: 3 tests TCONF themselves");
	free(out);

	snprintf(cmd, sizeof(cmd), "LTPSCOPE_OS=Linux %s run -d %s -L %s "
	    "-m %s --kconfig '' </dev/null 2>&1", bin, db, proot, table);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "a run with tests ruled out exits 0");
	ok(strstr(out, "warning") == NULL, "no warning: syscalls-ipc's "
	    "repeats of syscalls merge silently");
	has_str(out, "run 2: 5 of 5 tests done: 2 pass, 0 fail, 0 broken, "
	    "3 conf\n", "ruled out is conf, never not-run");
	has_str(result_line(out, "modify_ldt01", buf, sizeof(buf)),
	    "CONF", "modify_ldt01 is CONF");
	has_str(buf, "(not runnable here: runs only on s390x (this is ",
	    "with the reason, the arch first as LTP checks it");
	has_str(result_line(out, "statx07", buf, sizeof(buf)),
	    "(not runnable here: needs the command ltpscope-no-such-command",
	    "statx07: conf, with the command missing");
	has_str(result_line(out, "madvise11", buf, sizeof(buf)), "CONF",
	    "madvise11: conf");
	ok(strstr(buf, "not runnable here") == NULL, "no kernel config "
	    "known: started, so that LTP, which checks the option before "
	    "the command, gives the reason: %s", buf);
	has_str(result_line(out, "rt_sigqueueinfo01", buf, sizeof(buf)),
	    "PASS", "on Linux the NetBSD skip list does not hold");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s show 2 -d %s | grep modify_ldt01",
	    bin, db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "conf           -     -", "show: conf, no exit status");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s show 2 -d %s --output statx07", bin,
	    db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "ltpscope: not started, skipped (conf): not runnable "
	    "here: needs the command ltpscope-no-such-command (not on PATH)",
	    "show --output: the reason is stored with it");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s compare -d %s --format json 1 2", bin,
	    db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "\"counts\": {\"regressed\": 0, \"fixed\": 0, "
	    "\"changed\": 0, \"new\": 0, \"removed\": 0}", "compare with "
	    "the TCONF baseline: no change");
	free(out);

	/* A known kernel config: the option, checked before commands. */
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_OS=Linux %s run -d %s -L %s "
	    "-m %s --kconfig tests/fixtures/kconfig-meta --dry-run "
	    "</dev/null 2>&1", bin, db, proot, table);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "dry run");
	has_str(out, "kernel config: tests/fixtures/kconfig-meta (--kconfig)",
	    "names the kernel config given");
	has_str(out, "skip list: ", "names the skip list");
	has_str(out, "data/skiplist (0 of 4 entries hold on Linux)",
	    "of which nothing holds on Linux");
	has_str(line_of(out, "madvise11", buf, sizeof(buf)), "conf, not "
	    "started: not runnable here: the kernel config lacks "
	    "CONFIG_NET_NS=y", "madvise11: the kernel option, as LTP would "
	    "say");
	free(out);

	/* The defaults follow the system. */
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_OS=Linux %s run -d %s -L %s "
	    "-m %s --dry-run </dev/null 2>&1", bin, db, proot, table);
	out = tap_run(cmd, &st, 0);
	has_str(out, "kernel config: the kernel's own, as LTP finds it (the "
	    "default on Linux)", "Linux: LTP finds the kernel's config");
	ok(strstr(out, "skip: panics") == NULL, "and runs everything");
	free(out);
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_OS=NetBSD %s run -d %s -L %s "
	    "-m %s --dry-run </dev/null 2>&1", bin, db, proot, table);
	out = tap_run(cmd, &st, 0);
	has_str(out, "data/kconfig (bundled, compat_linux's: the default on "
	    "NetBSD)", "NetBSD: the bundled kernel config");
	has_str(out, "data/skiplist (4 entries)", "and skip list");
	has_str(line_of(out, "rt_sigqueueinfo01", buf, sizeof(buf)),
	    "skip: panics NetBSD", "which skips rt_sigqueueinfo01");
	free(out);
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_OS=NetBSD %s run -d %s -L %s "
	    "-m %s --dry-run --no-skiplist </dev/null 2>&1", bin, db, proot,
	    table);
	out = tap_run(cmd, &st, 0);
	has_str(out, "skip list: none (--no-skiplist)", "--no-skiplist: none");
	ok(strstr(out, "skip: ") == NULL, "so nothing is skipped");
	free(out);
}

/*
 * What a test leaves and the runner cannot clean is said with its
 * output and listed after the summary: here a file made immutable
 * (chattr +i; root cannot remove it either).  What it can clean is
 * not listed: the mounts of a test killed before its cleanup, with a
 * bind mount of a directory whose files must survive.
 */
/*
 * A child the test signalled and did not reap is on its way out, not
 * left behind (kill06, kill08, kill10, setrlimit01); one it left
 * running is, and is killed.
 */
static void
test_signalled_children(void)
{
	static const char *const fakes[] = { "signaller", NULL };
	static const char *const quiet[] = { "kill06", "kill08", "kill10",
	    "setrlimit01" };
	char lroot[1200], db[1300], path[1400], cmd[8192], buf[512];
	char *out;
	size_t i;
	int st;
	FILE *fp;

	snprintf(lroot, sizeof(lroot), "%s/ltp-sig", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/sig.db", tap_tmpdir());
	tap_fake_ltproot(lroot, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", lroot);
	if ((fp = fopen(path, "w")) == NULL) {
		ok(0, "write %s", path);
		return;
	}
	fputs("kill06 signaller kill 3\nkill08 signaller term 2\n"
	    "kill10 signaller catch 3\nsetrlimit01 signaller kill 1\n"
	    "leave01 signaller leave 2\n", fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s -m %s --timeout 20 "
	    "</dev/null", bin, db, lroot, LINUX_TBL);
	out = tap_run(cmd, &st, 0);
	for (i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++) {
		has_str(result_line(out, quiet[i], buf, sizeof(buf)), "PASS",
		    "%s passes", quiet[i]);
		snprintf(buf, sizeof(buf), "left behind: %s", quiet[i]);
		ok(strstr(out, buf) == NULL, "%s: its signalled, unreaped "
		    "children are not reported as left behind", quiet[i]);
	}
	has_str(out, "\nleft behind: leave01: killed 2 processes left behind",
	    "children left running are reported, both");
	is_int(count_procs("signaller"), 0, "and no child survives the run");
	free(out);
}

static void
test_leftovers(void)
{
	static const char *const fakes[] = { "mounter", NULL };
	char lroot[1200], db[1300], src[1300], path[1400], cmd[8192];
	char line[1400], *out, *p;
	int st, can_chattr, can_mount = geteuid() == 0;
	FILE *fp;

	snprintf(lroot, sizeof(lroot), "%s/ltp-left", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/left.db", tap_tmpdir());
	snprintf(src, sizeof(src), "%s/bindsrc", tap_tmpdir());
	tap_fake_ltproot(lroot, fakes);
	mkdir(src, 0755);
	snprintf(path, sizeof(path), "%s/marker", src);
	if ((fp = fopen(path, "w")) != NULL) {
		fputs("keep me\n", fp);
		fclose(fp);
	}
	snprintf(cmd, sizeof(cmd), "cd %s && touch imm && chattr +i imm && "
	    "chattr -i imm && rm imm", tap_tmpdir());
	free(tap_run(cmd, &st, 1));
	can_chattr = st == 0;
	snprintf(path, sizeof(path), "%s/runtest/syscalls", lroot);
	if ((fp = fopen(path, "w")) == NULL)
		return;
	fprintf(fp, "mount01 mounter %s\n", src);
	if (can_chattr)
		fprintf(fp, "chattr01 touch stuck && chattr +i stuck\n");
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s -m %s --timeout 1 "
	    "--grace 300 </dev/null", bin, db, lroot, LINUX_TBL);
	out = tap_run(cmd, &st, 0);
	if (!can_mount)
		ok(1, "# SKIP mounts left by a killed test: not root");
	else if (strstr(out, "CONF        mount01") != NULL)
		ok(1, "# SKIP mounts left by a killed test: mount refused");
	else {
		has_str(out, "TIMEOUT     mount01", "mount01 timed out");
		ok(strstr(out, "left behind: mount01") == NULL,
		    "its mounts were cleaned, so not listed");
		has_str(out, "\ncleaned up after: mount01: unmounted ",
		    "the summary says what ltpscope unmounted");
		snprintf(cmd, sizeof(cmd), "%s show last -d %s --output "
		    "mount01", bin, db);
		p = tap_run(cmd, &st, 0);
		has_str(p, "ltpscope: cleaned up after the test: unmounted ",
		    "... and so does the test's output");
		free(p);
		snprintf(path, sizeof(path), "%s/marker", src);
		p = tap_slurp(path, NULL);
		is_str(p != NULL ? p : "(gone)", "keep me\n",
		    "the bind-mounted directory's file is intact");
		free(p);
	}
	if (!can_chattr) {
		ok(1, "# SKIP an immutable file left: chattr +i does not "
		    "work here");
		free(out);
		return;
	}
	p = strstr(out, "\nleft behind: chattr01: tmpdir_left: ");
	ok(p != NULL, "the summary lists the TMPDIR left behind");
	line[0] = '\0';
	if (p != NULL)
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p + 1, "\n"),
		    p + 1);
	has_str(line, "/stuck: Operation not permitted", "and says what "
	    "and why: %s", line);
	free(out);
	/* Let tap_done() remove it. */
	if ((p = strstr(line, "tmpdir_left: ")) != NULL) {
		p += strlen("tmpdir_left: ");
		p[strcspn(p, ":")] = '\0';
		snprintf(cmd, sizeof(cmd), "chattr -i '%s'", p);
		free(tap_run(cmd, &st, 1));
	}
	snprintf(cmd, sizeof(cmd), "%s show 1 -d %s --output chattr01", bin,
	    db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "ltpscope: tmpdir_left: ", "the test's stored output "
	    "says so too");
	free(out);
}

/*
 * --resume goes on with the skip lists the run began with: not the
 * default ones after --no-skiplist, and the --skip files given then.
 */
static void
test_resume_skips(void)
{
	static const char *const fakes[] = { "pass", "sleepy", NULL };
	char sroot[1200], db[1200], cfg[1200], skip[1200], path[2048];
	char cmd[8192], *out;
	pid_t pid;
	int st;

	snprintf(sroot, sizeof(sroot), "%s/skips-ltp", tap_tmpdir());
	tap_fake_ltproot(sroot, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", sroot);
	tap_write(path, "getpid01 sleepy 60000\ngetpid02 pass\n"
	    "getpid03 pass\ngetpid04 pass\n");
	/* The user's own list, part of the default ones. */
	snprintf(cfg, sizeof(cfg), "%s/skips-cfg", tap_tmpdir());
	(void)mkdir(cfg, 0755);
	snprintf(path, sizeof(path), "%s/ltpscope", cfg);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/ltpscope/skiplist", cfg);
	tap_write(path, "getpid03\tthe user's list says no\n");
	snprintf(skip, sizeof(skip), "%s/skips-file", tap_tmpdir());
	tap_write(skip, "getpid04\tthe --skip file says no\n");
	snprintf(db, sizeof(db), "%s/skips.db", tap_tmpdir());
	snprintf(cmd, sizeof(cmd), "exec env XDG_CONFIG_HOME=%s %s run -d %s "
	    "-L %s -m %s --no-skiplist --skip %s >/dev/null 2>&1 "
	    "</dev/null", cfg, bin, db, sroot, LINUX_TBL, skip);
	pid = sh_background(cmd);
	ok(wait_running(db), "a run with --no-skiplist and --skip started");
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	/* Elsewhere, so the --skip file's name must be whole. */
	snprintf(cmd, sizeof(cmd), "cd / && env XDG_CONFIG_HOME=%s %s run "
	    "--resume -d %s </dev/null 2>&1", cfg, bin, db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "began with --no-skiplist", "--resume says it keeps "
	    "--no-skiplist");
	if (!ok(line_of(out, "getpid03", path, sizeof(path)) != NULL &&
	    strncmp(path, "PASS", 4) == 0, "... so the default lists "
	    "skip nothing"))
		tap_diag("%s", out);
	ok(line_of(out, "getpid04", path, sizeof(path)) != NULL &&
	    strstr(path, "the --skip file says no") != NULL, "the --skip "
	    "file holds on resume");
	has_str(out, "PASS        getpid02", "the rest runs");
	free(out);
}

/*
 * A test the user named runs though a skip list names it; after ^C,
 * --resume runs it too (the queue keeps the mark), and still skips the
 * listed test nobody named.
 */
static void
test_resume_named(void)
{
	static const char *const fakes[] = { "pass", "sleepy", NULL };
	char nroot[1200], db[1200], skip[1200], path[2048], cmd[8192], *out;
	pid_t pid;
	int st;

	snprintf(nroot, sizeof(nroot), "%s/named-ltp", tap_tmpdir());
	tap_fake_ltproot(nroot, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", nroot);
	tap_write(path, "getpid01 sleepy 60000\ngetpid02 pass\n"
	    "getpid03 pass\n");
	snprintf(skip, sizeof(skip), "%s/named-skip", tap_tmpdir());
	tap_write(skip, "getpid02\tlisted, and named\n"
	    "getpid03\tlisted, not named\n");
	snprintf(db, sizeof(db), "%s/named.db", tap_tmpdir());
	snprintf(cmd, sizeof(cmd), "exec %s run -d %s -L %s -m %s "
	    "--no-skiplist --skip %s getpid01 getpid02 -p getpid03 "
	    ">/dev/null 2>&1 </dev/null", bin, db, nroot, LINUX_TBL, skip);
	pid = sh_background(cmd);
	ok(wait_running(db), "a run naming a listed test started");
	kill(pid, SIGINT);
	waitpid(pid, &st, 0);
	snprintf(cmd, sizeof(cmd), "%s run --resume -d %s </dev/null 2>&1",
	    bin, db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "resuming run 1", "--resume goes on with it");
	if (!ok(strncmp(result_line(out, "getpid02", path, sizeof(path)),
	    "PASS", 4) == 0, "the named test runs after --resume too: %s",
	    path))
		tap_diag("%s", out);
	has_str(out, "warning: getpid02 is on the skip list", "... with "
	    "the warning");
	ok(strstr(result_line(out, "getpid03", path, sizeof(path)),
	    "listed, not named") != NULL, "the one only a pattern picked is "
	    "still skipped: %s", path);
	free(out);
}

/*
 * Several boxes, none answering: each box's run fails as a run of one
 * box does, with 1, not 255 (a forked box's -1 became the exit status).
 */
static void
test_boxes_unreachable(void)
{
	static const char *const fakes[] = { "pass", NULL };
	char nroot[1200], db[1200], path[2048], cmd[8192], *out;
	int st;

	snprintf(nroot, sizeof(nroot), "%s/nobox-ltp", tap_tmpdir());
	tap_fake_ltproot(nroot, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", nroot);
	tap_write(path, "getpid01 pass\n");
	snprintf(db, sizeof(db), "%s/nobox.db", tap_tmpdir());
	/* Port 1 on loopback: refused at once, nothing leaves the host. */
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s -m %s "
	    "--host root@127.0.0.1:1 --host root@127.0.0.1:2 -s getpid "
	    "2>&1 </dev/null", bin, db, nroot, LINUX_TBL);
	out = tap_run(cmd, &st, 0);
	is_int(st, 1, "two boxes that do not answer: exit 1");
	has_str(out, "root@127.0.0.1:1: cannot connect", "box one says so");
	has_str(out, "root@127.0.0.1:2: cannot connect", "box two says so");
	free(out);
}

/*
 * -L given relative: a test runs in its TMPDIR, yet finds a helper of
 * its own in testcases/bin by name (as the exec tests' children are
 * found), and the run keeps the suite's absolute path for --resume.
 */
static void
test_relative_root(void)
{
	static const char *const fakes[] = { "pass", NULL };
	char dir[1200], rroot[1300], path[2048], cmd[8192], line[1400], *out;
	char cfg[4096];
	sqlite3 *db;
	sqlite3_stmt *s;
	int st;

	snprintf(dir, sizeof(dir), "%s/relroot", tap_tmpdir());
	(void)mkdir(dir, 0755);
	snprintf(rroot, sizeof(rroot), "%s/ltp", dir);
	tap_fake_ltproot(rroot, fakes);
	tap_fake_helper_test(rroot);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", rroot);
	tap_write(path, "execve99 execve99\n");
	snprintf(cmd, sizeof(cmd), "cd %s && %s run -d rel.db -L ltp "
	    "-m %s/%s execve99 2>&1 </dev/null", dir, bin, cwd, LINUX_TBL);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "a run with -L relative exits 0");
	(void)result_line(out, "execve99", line, sizeof(line));
	ok(strncmp(line, "PASS", 4) == 0, "its test finds its helper in "
	    "testcases/bin by name: %s", line);
	free(out);
	snprintf(path, sizeof(path), "%s/rel.db", dir);
	cfg[0] = '\0';
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) ==
	    SQLITE_OK && sqlite3_prepare_v2(db, "SELECT config FROM runs",
	    -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW &&
		    sqlite3_column_text(s, 0) != NULL)
			snprintf(cfg, sizeof(cfg), "%s",
			    (const char *)sqlite3_column_text(s, 0));
		sqlite3_finalize(s);
	}
	sqlite3_close(db);
	snprintf(line, sizeof(line), "ltproot=%s\n", rroot);
	has_str(cfg, line, "the run keeps the suite's absolute path");
}

int
main(void)
{
	const char *b = getenv("LTPSCOPE_BIN");

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(bin, sizeof(bin), "%s/%s", cwd, b ? b : "ltpscope");
	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	mkroot(root, 0);
	setenv("XDG_CONFIG_HOME", tap_tmpdir(), 1);
	setenv("XDG_DATA_HOME", tap_tmpdir(), 1);
	test_outcomes();
	test_precheck();
	test_leftovers();
	test_signalled_children();
	test_kill9();
	test_sigint();
	test_precheck_resume();
	test_resume_skips();
	test_resume_named();
	test_boxes_unreachable();
	test_relative_root();
	return tap_done();
}
