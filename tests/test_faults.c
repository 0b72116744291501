/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Faults injected into `ltpscope run`: the database read-only (by mode,
 * by a read-only mount), on a full file system, locked by another
 * process longer than the busy timeout, deleted mid-run, truncated or
 * corrupted; TMPDIR not writable or full, or filling up under a flood;
 * the LTP install missing, half installed, or a test binary not
 * executable; a queue of 5,000 tests; a test that leaves 500 children,
 * one that closes its output and goes on, one that floods 64 MiB.
 * Each must end in a clear error with a hint, or in the right result,
 * never in a crash or in results lost without a word.  Mounts (tmpfs, bind) need root: without it those
 * checks SKIP, and every mount made is unmounted before the check ends.
 */
#include <sys/types.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/status.h"
#include "tap.h"

#define LINUX_TBL	"tests/fixtures/linux/syscall_64.tbl"
#define NOBODY		65534
#define QUEUE		5000
#define FLOOD_MB	64	/* 4x the store's cap: see test_flood() */

static char cwd[1024];
static char root[1200];		/* the fake LTP install */
static char tmp[1024];		/* tap_tmpdir() */
static int asan;
/* tap_bin_for_user(NOBODY): what nobody can reach wherever the tree is. */
static const char *nobody_bin;


/* root/runtest/name holding text. */
static void
runtest(const char *name, const char *text)
{
	char path[1400];

	snprintf(path, sizeof(path), "%s/runtest/%s", root, name);
	tap_write(path, text);
}

/* A shell command of our own, run; its exit status, -1 if it died. */
static int
shell(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * Runs `ltpscope ARGS` (a shell word list) with stdout and stderr into
 * *outp, as uid when uid is not 0 (nobody_bin, in tmp, where nobody
 * can reach it); returns the exit status (128 + the signal if one
 * killed it) and the peak resident size in KiB (*rssp).
 */
static int
ltpscope_as(uid_t uid, char **outp, long *rssp, const char *fmt, ...)
{
	char args[4096], cmd[8192], outf[1100];
	struct rusage ru;
	va_list ap;
	pid_t pid;
	int st, fd;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(outf, sizeof(outf), "%s/out/ltpscope.out", tmp);
	snprintf(cmd, sizeof(cmd), "exec %s %s </dev/null", uid != 0 ?
	    nobody_bin : tap_bin(), args);
	if ((pid = fork()) == 0) {
		if ((fd = open(outf, O_WRONLY | O_CREAT | O_TRUNC, 0666)) ==
		    -1)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		/* The tree, our directory, may be closed to uid. */
		if (uid != 0 && (chdir(tmp) == -1 || setgid(NOBODY) == -1 ||
		    setuid(uid) == -1))
			_exit(125);
		execl("/bin/sh", "sh", "-c", cmd, (char *)0);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		;
	/* The largest child waited for so far: ltpscope, in practice. */
	memset(&ru, 0, sizeof(ru));
	(void)getrusage(RUSAGE_CHILDREN, &ru);
	if (rssp != NULL)
		*rssp = ru.ru_maxrss;
	*outp = tap_slurp(outf, NULL);
	if (*outp == NULL)
		*outp = strdup("");
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#define ltpscope(outp, ...)	ltpscope_as(0, (outp), NULL, __VA_ARGS__)

/* Starts `ltpscope ARGS` in the background, output to outf. */
static pid_t
ltpscope_bg(const char *outf, const char *args)
{
	char cmd[8192];
	pid_t pid;
	int fd;

	snprintf(cmd, sizeof(cmd), "exec %s %s </dev/null", tap_bin(), args);
	if ((pid = fork()) == 0) {
		fd = open(outf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execl("/bin/sh", "sh", "-c", cmd, (char *)0);
		_exit(127);
	}
	return pid;
}

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One integer from db (sql with no parameters); -1 on any error. */
static long long
db_int(const char *db, const char *sql)
{
	sqlite3 *h;
	sqlite3_stmt *s;
	long long v = -1;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(h);
		return -1;
	}
	sqlite3_busy_timeout(h, 2000);
	if (sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			v = sqlite3_column_int64(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(h);
	return v;
}

static int
db_integrity_ok(const char *db)
{
	sqlite3 *h;
	sqlite3_stmt *s;
	int good = 0;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(h);
		return 0;
	}
	if (sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &s, NULL) ==
	    SQLITE_OK) {
		good = sqlite3_step(s) == SQLITE_ROW &&
		    strcmp((const char *)sqlite3_column_text(s, 0), "ok") == 0;
		sqlite3_finalize(s);
	}
	sqlite3_close(h);
	return good;
}

/* Waits (with a deadline) until db holds n passed results. */
static int
wait_passes(const char *db, long long n, int ms)
{
	long long end = now_ms() + ms;
	struct timespec ts = { 0, 20 * 1000000L };

	while (now_ms() < end) {
		if (db_int(db, "SELECT count(*) FROM results WHERE status = 0")
		    >= n)
			return 1;
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* Tags printed as PASS by a run (its output) all stored as passed? */
static int
printed_passes_stored(const char *out, const char *db, int *nprinted)
{
	const char *p;
	char status[32], tag[64], sql[256];
	int lost = 0;

	*nprinted = 0;
	for (p = out; p != NULL && *p != '\0';
	    p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (sscanf(p, "%31s %63s", status, tag) != 2 ||
		    strcmp(status, "PASS") != 0)
			continue;
		(*nprinted)++;
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM results "
		    "WHERE status = 0 AND tag = '%s'", tag);
		lost += db_int(db, sql) != 1;
	}
	return lost == 0;
}

static int
resume_finishes(const char *db, const char *extra, int want)
{
	char *out;
	int st, twice, all;

	st = ltpscope(&out, "run --resume -d %s --no-skip-culprit %s", db,
	    extra);
	if (st != 0)
		tap_diag("resume: %s", out);
	free(out);
	twice = (int)db_int(db, "SELECT count(*) FROM (SELECT tag FROM "
	    "results GROUP BY run_id, tag HAVING count(*) > 1)");
	all = (int)db_int(db, "SELECT count(DISTINCT tag) FROM results");
	is_int(twice, 0, "  no test ran twice");
	is_int(all, want, "  every test has its result");
	return st == 0;
}

static int
need_root(const char *what)
{
	if (geteuid() == 0)
		return 1;
	ok(1, "# SKIP %s: needs root (mounts, another user)", what);
	return 0;
}

/* A fresh directory below tmp; its path in a static buffer. */
static const char *
subdir(const char *name, mode_t mode)
{
	static char path[4][1200];
	static int k;
	char *p = path[k++ % 4];

	snprintf(p, sizeof(path[0]), "%s/%s", tmp, name);
	(void)mkdir(p, 0700);
	(void)chmod(p, mode);
	return p;
}

/* A database holding one finished run of two passes. */
static void
make_db(const char *db)
{
	char *out;

	if (ltpscope(&out, "run -d %s -L %s -m %s -f quick", db, root,
	    LINUX_TBL) != 0)
		tap_diag("make_db %s: %s", db, out);
	free(out);
}

static void
test_readonly(void)
{
	char db[1300], why[1400], table[1100], *out;
	const char *d, *mnt;
	int st;

	/* By mode: root ignores modes, so the run is nobody's. */
	if (need_root("read-only by mode") &&
	    (nobody_bin = tap_bin_for_user(NOBODY, NOBODY, why,
	    sizeof(why))) == NULL)
		ok(1, "# SKIP read-only by mode: %s", why);
	else if (nobody_bin != NULL) {
		d = subdir("rodir", 0755);
		snprintf(db, sizeof(db), "%s/ro.db", d);
		snprintf(table, sizeof(table), "%s/syscall_64.tbl", tmp);
		out = tap_slurp(LINUX_TBL, NULL);
		tap_write(table, out != NULL ? out : "");
		free(out);
		make_db(db);
		(void)chown(db, NOBODY, NOBODY);
		(void)chmod(db, 0444);
		st = ltpscope_as(NOBODY, &out, NULL, "run -d %s -L %s -m %s "
		    "-f quick", db, root, table);
		is_int(st, 1, "a database nobody may write: run fails");
		has_str(out, "read-only", "  says read-only");
		has_str(out, "is not writable for this user", "  and why");
		free(out);
		/* The log a store keeps beside it lets others read it. */
		st = ltpscope_as(NOBODY, &out, NULL, "runs -d %s", db);
		is_int(st, 0, "  with its log beside it, runs reads it");
		has_str(out, "finished", "  and lists the run");
		free(out);
		/* Copied alone: SQLite must make the log to read it. */
		snprintf(why, sizeof(why), "%s-wal", db);
		(void)unlink(why);
		snprintf(why, sizeof(why), "%s-shm", db);
		(void)unlink(why);
		st = ltpscope_as(NOBODY, &out, NULL, "runs -d %s", db);
		is_int(st, 1, "  runs fails too");
		has_str(out, "the file is not writable", "  and says why");
		free(out);
		/* Its own file, in a directory it may not write. */
		(void)chmod(db, 0644);
		st = ltpscope_as(NOBODY, &out, NULL, "runs -d %s", db);
		is_int(st, 1, "  a directory nobody may write: runs fails");
		has_str(out, "its directory", "  and names the directory");
		free(out);
		is_int(db_int(db, "SELECT count(*) FROM runs"), 1,
		    "  the database is unchanged");
	}
	if (!need_root("read-only mount"))
		return;
	d = subdir("rosrc", 0755);
	mnt = subdir("romnt", 0755);
	snprintf(db, sizeof(db), "%s/ro.db", d);
	make_db(db);
	if (shell("mount --bind %s %s && mount -o remount,ro,bind %s", d,
	    mnt, mnt) != 0) {
		(void)shell("umount %s 2>/dev/null", mnt);
		ok(1, "# SKIP read-only mount: cannot bind-mount");
		return;
	}
	snprintf(db, sizeof(db), "%s/ro.db", mnt);
	st = ltpscope(&out, "run -d %s -L %s -m %s -f quick", db, root,
	    LINUX_TBL);
	is_int(st, 1, "a database on a read-only mount: run fails");
	has_str(out, "read-only file system", "  and says why");
	has_str(out, "use a copy on a writable one", "  with a hint");
	free(out);
	is_int(shell("umount %s", mnt), 0, "  unmounted");
	snprintf(db, sizeof(db), "%s/ro.db", d);
	ok(db_integrity_ok(db) && db_int(db, "SELECT count(*) FROM runs") ==
	    1, "  the database is unchanged");
}

/* A tmpfs with opts at mnt: 0, or -1 after a SKIP of what. */
static int
mount_tmpfs(const char *mnt, const char *opts, const char *what)
{
	if (shell("mount -t tmpfs -o %s ltpscope-test %s", opts, mnt) == 0)
		return 0;
	ok(1, "# SKIP %s: cannot mount tmpfs", what);
	return -1;
}

/* run -f rt into db with TMPDIR at dir: its status, *out what it said. */
static int
run_with_tmpdir(const char *dir, char **out, const char *db, const char *rt)
{
	int st;

	setenv("TMPDIR", dir, 1);
	st = ltpscope(out, "run -d %s -L %s -m %s -f %s", db, root, LINUX_TBL,
	    rt);
	setenv("TMPDIR", tmp, 1);
	return st;
}

static void
test_full(void)
{
	char db[1300], *out;
	const char *mnt;
	int st, nprinted, good;

	if (!need_root("full file system"))
		return;
	mnt = subdir("fullmnt", 0755);
	if (mount_tmpfs(mnt, "size=1m", "full file system") != 0)
		return;
	snprintf(db, sizeof(db), "%s/full.db", mnt);
	st = ltpscope(&out, "run -d %s -L %s -m %s -f floods", db, root,
	    LINUX_TBL);
	is_int(st, 1, "a full file system: the run fails");
	has_str(out, "the disk is full; nothing committed earlier is lost",
	    "  and says so");
	good = printed_passes_stored(out, db, &nprinted);
	ok(good && nprinted >= 2, "  every result shown (%d) is stored",
	    nprinted);
	free(out);
	ok(db_integrity_ok(db), "  integrity_check ok");
	(void)shell("mount -o remount,size=64m %s", mnt);
	ok(resume_finishes(db, "", 5), "  with room again, --resume "
	    "finishes");
	is_int(shell("umount %s", mnt), 0, "  unmounted");
}

static void
test_tmpdir(void)
{
	char db[1300], *out;
	const char *mnt;
	int st;

	if (!need_root("TMPDIR read-only or full"))
		return;
	snprintf(db, sizeof(db), "%s/tmpdir.db", tmp);
	mnt = subdir("tmpmnt", 0755);
	if (mount_tmpfs(mnt, "ro,size=1m", "TMPDIR") != 0)
		return;
	st = run_with_tmpdir(mnt, &out, db, "quick");
	is_int(st, 1, "TMPDIR not writable: the run does not start");
	has_str(out, "cannot create a directory for the tests", "  says "
	    "so");
	has_str(out, "set TMPDIR to a writable directory", "  with a hint");
	free(out);
	is_int(db_int(db, "SELECT count(*) FROM runs"), 0, "  no run is "
	    "recorded");
	is_int(shell("umount %s", mnt), 0, "  unmounted");

	/* Full: no inode left for a directory. */
	if (mount_tmpfs(mnt, "size=1m,nr_inodes=1", "full TMPDIR") != 0)
		return;
	st = run_with_tmpdir(mnt, &out, db, "quick");
	is_int(st, 1, "TMPDIR full: the run does not start");
	has_str(out, "No space left on device", "  says why");
	free(out);
	is_int(shell("umount %s", mnt), 0, "  unmounted");
}

/*
 * TMPDIR fills up while a test floods: its output is spooled there past
 * 64 KiB.  The test still passes, what fitted is stored exactly, with a
 * line saying why the rest is missing and the note counting all of it;
 * the run goes on, and leaves nothing behind.
 */
static void
test_spool_full(void)
{
	char db[1300], sql[300], *out;
	const char *mnt;
	long long size;
	int st;

	if (!need_root("TMPDIR filling up during a flood"))
		return;
	snprintf(db, sizeof(db), "%s/spool.db", tmp);
	mnt = subdir("spoolmnt", 0755);
	if (mount_tmpfs(mnt, "size=2m", "TMPDIR filling up") != 0)
		return;
	st = run_with_tmpdir(mnt, &out, db, "spoolfull");
	is_int(st, 0, "TMPDIR full during an 8 MiB flood: the run goes on");
	ok(strstr(out, "PASS        big01") != NULL &&
	    strstr(out, "PASS        p1") != NULL, "  the flood and the test "
	    "after it pass");
	free(out);
	/* ltpscope's own lines count too, as they always did. */
	size = db_int(db, "SELECT original_size FROM outputs o JOIN results r "
	    "ON r.id = o.result_id WHERE tag = 'big01'");
	ok(size >= 8 << 20 && size < (8 << 20) + 1024, "  every byte is "
	    "counted (%lld)", size);
	ok(db_int(db, "SELECT capped FROM outputs o JOIN results r ON r.id = "
	    "o.result_id WHERE tag = 'big01'") == 1 && db_int(db, "SELECT "
	    "stored_size FROM outputs o JOIN results r ON r.id = o.result_id "
	    "WHERE tag = 'big01'") <= (2 << 20) + 4096, "  what fitted is "
	    "stored, capped");
	ok(db_int(db, "SELECT substr(data, 1, 34) = CAST('flood01.c:42: "
	    "TINFO: line 00000000' AS BLOB) FROM outputs o JOIN results r ON "
	    "r.id = o.result_id WHERE tag = 'big01'") == 1, "  from its "
	    "first byte");
	ok(db_int(db, "SELECT instr(data, CAST(x'0a' || 'ltpscope: cannot "
	    "write to the output spool in ' AS BLOB)) > 0 AND instr(data, CAST('No space "
	    "left on device; output after byte ' AS BLOB)) > 0 FROM outputs o "
	    "JOIN results r ON r.id = o.result_id WHERE tag = 'big01'") == 1,
	    "  with a line saying why the rest is missing");
	snprintf(sql, sizeof(sql), "SELECT instr(data, CAST('of %lld bytes]' "
	    "AS BLOB)) > 0 FROM outputs o JOIN results r ON r.id = "
	    "o.result_id WHERE tag = 'big01'", size);
	ok(db_int(db, sql) == 1, "  and the note counting all of it");
	is_int(shell("test -z \"$(ls -A %s)\"", mnt), 0, "  nothing left "
	    "in TMPDIR");
	is_int(shell("umount %s", mnt), 0, "  unmounted");
}

static void
test_locked(void)
{
	char db[1300], outf[1300], *out;
	sqlite3 *h = NULL;
	pid_t pid;
	long long end;
	int st = -1, got = 0;

	snprintf(db, sizeof(db), "%s/locked.db", tmp);
	snprintf(outf, sizeof(outf), "%s/locked.out", tmp);
	{
		char args[8192];

		snprintf(args, sizeof(args), "run -d %s -L %s -m %s -f sleepy",
		    db, root, LINUX_TBL);
		pid = ltpscope_bg(outf, args);
	}
	ok(wait_passes(db, 1, 20000), "locked: the run got going");
	/* Another process holds the database longer than the timeout. */
	if (sqlite3_open(db, &h) == SQLITE_OK) {
		sqlite3_busy_timeout(h, 20000);
		got = sqlite3_exec(h, "BEGIN EXCLUSIVE", NULL, NULL, NULL) ==
		    SQLITE_OK;
	}
	ok(got, "  a second process holds BEGIN EXCLUSIVE");
	for (end = now_ms() + 30000; now_ms() < end; ) {
		struct timespec ts = { 0, 50 * 1000000L };

		if (waitpid(pid, &st, WNOHANG) == pid)
			break;
		nanosleep(&ts, NULL);
	}
	if (now_ms() >= end) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
	}
	if (h != NULL) {
		(void)sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
		sqlite3_close(h);
	}
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 1, "  the run stops with an "
	    "error once the busy timeout is over");
	out = tap_slurp(outf, NULL);
	has_str(out ? out : "", "locked by another ltpscope (waited 5000 ms)",
	    "  and says why");
	{
		int nprinted, good;

		good = printed_passes_stored(out ? out : "", db, &nprinted);
		ok(good, "  every result shown (%d) is stored", nprinted);
	}
	free(out);
	ok(db_integrity_ok(db), "  integrity_check ok");
	ok(resume_finishes(db, "", 6), "  --resume finishes");
}

static void
test_deleted(void)
{
	char db[1300], outf[1300], args[8192], p[1400], *out;
	pid_t pid;
	int st, nprinted, good;

	snprintf(db, sizeof(db), "%s/deleted.db", tmp);
	snprintf(outf, sizeof(outf), "%s/deleted.out", tmp);
	snprintf(args, sizeof(args), "run -d %s -L %s -m %s -f sleepy", db,
	    root, LINUX_TBL);
	pid = ltpscope_bg(outf, args);
	ok(wait_passes(db, 2, 20000), "deleted: the run got going");
	(void)unlink(db);
	snprintf(p, sizeof(p), "%s-wal", db);
	(void)unlink(p);
	snprintf(p, sizeof(p), "%s-shm", db);
	(void)unlink(p);
	waitpid(pid, &st, 0);
	out = tap_slurp(outf, NULL);
	if (out == NULL)
		out = strdup("");
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 1, "  the run stops with an "
	    "error");
	has_str(out, "deleted or replaced while in use", "  says why");
	has_str(out, "saved everything it held to", "  and where it went");
	ok(access(db, F_OK) == 0 && db_integrity_ok(db), "  the database is "
	    "back, integrity_check ok");
	good = printed_passes_stored(out, db, &nprinted);
	ok(good && nprinted >= 2, "  every result shown (%d) is in it",
	    nprinted);
	free(out);
	/* A deleted file is no crash: nobody is blamed, nothing is lost. */
	is_int((int)db_int(db, "SELECT count(*) FROM results WHERE status = "
	    "9"), 0, "  no test is left running in it");
	is_int((int)db_int(db, "SELECT count(*) FROM runs WHERE state = "
	    "'interrupted'"), 1, "  the run is marked stopped");
	st = ltpscope(&out, "run --resume -d %s", db);
	is_int(st, 0, "  --resume finishes");
	ok(strstr(out, "was running") == NULL && strstr(out, "crashed") ==
	    NULL, "  and blames no test as a culprit");
	free(out);
	is_int((int)db_int(db, "SELECT count(*) FROM results WHERE status = "
	    "8"), 0, "  no test is marked interrupted: the one being stored "
	    "ran again");
	is_int((int)db_int(db, "SELECT count(*) FROM (SELECT tag FROM "
	    "results GROUP BY run_id, tag HAVING count(*) > 1)"), 0,
	    "  no test ran twice");
	is_int((int)db_int(db, "SELECT count(DISTINCT tag) FROM results"), 6,
	    "  every test has its result");
}

static void
test_damaged(void)
{
	static const struct {
		const char	*name;
		const char	*how;	/* shell, $F the copy */
		const char	*says;
	} dmg[] = {
		{ "truncated", "truncate -s 8192 $F", "corrupt" },
		{ "corrupted", "dd if=/dev/urandom of=$F bs=1024 seek=2 "
		    "count=40 conv=notrunc 2>/dev/null", "corrupt" },
		{ "header", "printf 'garbage garbage garbage' | dd of=$F "
		    "conv=notrunc 2>/dev/null", "not a database" },
	};
	char db[1300], copy[1300], *out;
	size_t i;
	int st, j;

	snprintf(db, sizeof(db), "%s/good.db", tmp);
	for (j = 0; j < 6; j++)
		make_db(db);
	for (i = 0; i < sizeof(dmg) / sizeof(dmg[0]); i++) {
		snprintf(copy, sizeof(copy), "%s/%s.db", tmp, dmg[i].name);
		(void)shell("cp %s %s && F=%s && %s", db, copy, copy,
		    dmg[i].how);
		st = ltpscope(&out, "runs -d %s", copy);
		ok(st >= 1 && st < 128, "%s database: runs fails, no crash "
		    "(%d)", dmg[i].name, st);
		has_str(out, dmg[i].says, "  says it is %s", dmg[i].says);
		free(out);
		st = ltpscope(&out, "run -d %s -L %s -m %s -f quick", copy,
		    root, LINUX_TBL);
		ok(st >= 1 && st < 128, "  run fails, no crash (%d)", st);
		has_str(out, dmg[i].says, "  and says why");
		free(out);
	}
	/* The hint where one helps. */
	snprintf(copy, sizeof(copy), "%s/corrupted.db", tmp);
	(void)ltpscope(&out, "runs -d %s", copy);
	has_str(out, ".recover", "a corrupt database: the hint names "
	    "sqlite3's .recover");
	free(out);
}

static void
test_install(void)
{
	char db[1300], half[1300], path[1400], *out;
	int st;

	snprintf(db, sizeof(db), "%s/install.db", tmp);
	st = ltpscope(&out, "run -d %s -L %s/nowhere -m %s", db, tmp,
	    LINUX_TBL);
	is_int(st, 1, "LTP root missing: run fails");
	has_str(out, "no LTP install here", "  says so");
	has_str(out, "-L DIR or LTPROOT", "  with a hint");
	free(out);

	snprintf(half, sizeof(half), "%s/half", tmp);
	(void)mkdir(half, 0755);
	snprintf(path, sizeof(path), "%s/runtest", half);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", half);
	tap_write(path, "p1 pass\n");
	st = ltpscope(&out, "run -d %s -L %s -m %s", db, half, LINUX_TBL);
	is_int(st, 1, "LTP half installed: run fails");
	has_str(out, "looks incomplete", "  says so");
	free(out);

	st = ltpscope(&out, "run -d %s -L %s -m %s -f noexec", db, root,
	    LINUX_TBL);
	is_int(st, 1, "a test binary not executable: the run says broken");
	has_str(out, "p1 ", "  the other test ran");
	has_str(out, "is not executable (mode 0644)", "  and says why");
	free(out);
}

/* 5,000 tests, most skipped at once by a skip list. */
static void
test_queue(void)
{
	char db[1300], skip[1300], *q, *p, *out;
	const char *dbdir = tmp;
	const char *mnt = NULL;
	long long t0;
	int i, st;

	/* fsync costs nothing on tmpfs: the queue, not the disk, is timed. */
	if (geteuid() == 0) {
		mnt = subdir("qmnt", 0755);
		if (shell("mount -t tmpfs -o size=64m ltpscope-test %s",
		    mnt) == 0)
			dbdir = mnt;
		else
			mnt = NULL;
	}
	snprintf(db, sizeof(db), "%s/queue.db", dbdir);
	snprintf(skip, sizeof(skip), "%s/queue.skip", tmp);
	tap_write(skip, "q*[1-9]\tfast fake\nq*[1-9]0\tfast fake\n");
	q = p = malloc(QUEUE * 16 + 1);
	for (i = 0; i < QUEUE; i++)
		p += sprintf(p, "q%04d tiny\n", i);
	runtest("queue", q);
	free(q);
	t0 = now_ms();
	st = ltpscope(&out, "run -d %s -L %s -m %s -f queue --skip %s", db,
	    root, LINUX_TBL, skip);
	free(out);
	tap_diag("queue of %d: %.1f s", QUEUE,
	    (double)(now_ms() - t0) / 1000.0);
	is_int(st, 0, "a queue of %d runs", QUEUE);
	is_int(db_int(db, "SELECT count(DISTINCT tag) FROM results"), QUEUE,
	    "  every test has its result");
	is_int(db_int(db, "SELECT count(*) FROM results"), QUEUE,
	    "  once");
	is_int(db_int(db, "SELECT count(*) FROM results WHERE status = 0"),
	    QUEUE / 100, "  the tests not skipped passed");
	ok(db_integrity_ok(db), "  integrity_check ok");
	if (mnt != NULL)
		is_int(shell("umount %s", mnt), 0, "  unmounted");
}

static void
test_tests(void)
{
	char db[1300], stamp[1300], *out;
	long long t0;
	long rss;
	int st, left = -1;

	snprintf(db, sizeof(db), "%s/tests.db", tmp);
	st = ltpscope(&out, "run -d %s -L %s -m %s -f crowd", db, root,
	    LINUX_TBL);
	is_int(st, 0, "500 children left behind: the test passes");
	has_str(out, "killed 500 processes left behind", "  all killed");
	free(out);
	/* Killed, they may take a moment to go (zombies do not count). */
	for (t0 = now_ms() + 10000; now_ms() < t0; ) {
		struct timespec ts = { 0, 50 * 1000000L };

		if ((left = shell("ps -A -o stat= -o comm= | awk '$2 == "
		    "\"forker\" && $1 !~ /^Z/ { n++ } END { exit n > 0 }'"))
		    == 0)
			break;
		nanosleep(&ts, NULL);
	}
	is_int(left, 0, "  none of them is left");

	snprintf(stamp, sizeof(stamp), "%s/closer.done", tmp);
	snprintf(db, sizeof(db), "%s/closed.db", tmp);
	{
		char text[1500];

		snprintf(text, sizeof(text), "closed01 closer 1500 %s\n",
		    stamp);
		runtest("closed", text);
	}
	st = ltpscope(&out, "run -d %s -L %s -m %s -f closed", db, root,
	    LINUX_TBL);
	is_int(st, 0, "a test that closes its output and goes on");
	ok(access(stamp, F_OK) == 0, "  ran to its end");
	ok(db_int(db, "SELECT duration_ms FROM results") >= 1400, "  and "
	    "was waited for (%lld ms)", db_int(db, "SELECT duration_ms FROM "
	    "results"));
	free(out);
	runtest("closed", "closed02 closer 600000\n");
	st = ltpscope(&out, "run -d %s -L %s -m %s -f closed --timeout 2", db,
	    root, LINUX_TBL);
	has_str(out, "TIMEOUT", "  one that never ends times out");
	free(out);

	snprintf(db, sizeof(db), "%s/flood.db", tmp);
	st = ltpscope_as(0, &out, &rss, "run -d %s -L %s -m %s -f flood", db,
	    root, LINUX_TBL);
	is_int(st, 0, "a %d MiB flood passes", FLOOD_MB);
	free(out);
	is_int(db_int(db, "SELECT original_size FROM outputs"),
	    (long long)FLOOD_MB << 20, "  every byte is counted");
	ok(db_int(db, "SELECT stored_size FROM outputs") <= 16 << 20 &&
	    db_int(db, "SELECT capped FROM outputs") == 1, "  the store keeps "
	    "the first 16 MiB");
	ok(db_int(db, "SELECT instr(data, CAST('of 67108864 bytes]' AS "
	    "BLOB)) > 0 FROM outputs") == 1, "  and its note says how much "
	    "there was");
	if (asan)
		ok(1, "# SKIP resident size: ASan's shadow memory");
	else if (getenv("LTPSCOPE_MEMCHECK") != NULL)
		ok(1, "# SKIP resident size: the fork of a process under "
		    "valgrind counts valgrind's");
	else
		/* 11 MiB since the output is spooled (23 with it in memory). */
		ok(rss < 32 * 1024, "  ltpscope stayed small (%ld KiB peak)",
		    rss);
}

/* The fake install and the runtest files the checks share. */
static void
setup(void)
{
	static const char *const fakes[] = { "pass", "sleepy", "tiny",
	    "flood", "forker", "closer", NULL };
	char path[1400], text[256];

	snprintf(root, sizeof(root), "%s/ltp", tmp);
	tap_fake_ltproot(root, fakes);
	(void)chmod(tmp, 0755);		/* for nobody */
	(void)subdir("out", 0777);
	runtest("quick", "p1 pass\np2 pass\n");
	runtest("sleepy", "s1 sleepy 300\ns2 sleepy 300\ns3 sleepy 300\n"
	    "s4 sleepy 300\ns5 sleepy 300\ns6 sleepy 300\n");
	runtest("floods", "p1 pass\np2 pass\nf1 flood 1\nf2 flood 1\n"
	    "f3 flood 1\n");
	runtest("crowd", "crowd01 forker 500\n");
	runtest("spoolfull", "big01 flood 8\np1 pass\n");
	snprintf(text, sizeof(text), "flood01 flood %d\n", FLOOD_MB);
	runtest("flood", text);
	snprintf(path, sizeof(path), "%s/testcases/bin/noexec", root);
	tap_write(path, "#!/bin/sh\necho never\n");
	(void)chmod(path, 0644);
	runtest("noexec", "p1 pass\nx1 noexec\n");
	snprintf(path, sizeof(path), "%s/Version", root);
	tap_write(path, "20260529-fake\n");
}

/*
 * "test_faults readonly" runs the read-only checks alone (those that
 * run ltpscope as nobody): test_private_tree runs them from a copy of
 * the tree in a directory nobody may enter.
 */
int
main(int argc, char **argv)
{
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(tmp, sizeof(tmp), "%s", tap_tmpdir());
	asan = getenv("LTPSCOPE_ASAN") != NULL;
	setenv("XDG_CONFIG_HOME", tmp, 1);
	setenv("XDG_DATA_HOME", tmp, 1);
	setup();
	test_readonly();
	if (argc > 1 && strcmp(argv[1], "readonly") == 0)
		return tap_done();
	test_full();
	test_tmpdir();
	test_spool_full();
	test_locked();
	test_deleted();
	test_damaged();
	test_install();
	test_queue();
	test_tests();
	return tap_done();
}
