/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The results store: schema and migrations, exact output bytes, the
 * cap, the running-marker protocol, interrupted runs and resume, two
 * writers at once, and the error messages for read-only, unwritable,
 * full, corrupt and foreign files.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/store.h"
#include "ltpscope/xmalloc.h"
#include "fixture_store.h"
#include "tap.h"

static char	dbpath[1024];

static const char *
tmp_path(const char *name)
{
	(void)snprintf(dbpath, sizeof(dbpath), "%s/%s", tap_tmpdir(), name);
	return dbpath;
}

static long long
pragma_int(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	long long v = -1;

	if (sqlite3_prepare_v2(store_sqlite_handle(st), sql, -1, &s, NULL) !=
	    SQLITE_OK)
		return -2;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

static char *
pragma_str(struct store *st, const char *sql)
{
	sqlite3_stmt *s;
	char *v = NULL;

	if (sqlite3_prepare_v2(store_sqlite_handle(st), sql, -1, &s, NULL) !=
	    SQLITE_OK)
		return NULL;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = strdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return v;
}

static int64_t
begin_run(struct store *st, const char *label, const char *const *tags,
    size_t ntags)
{
	struct store_queue_item q[16];
	struct store_run run;
	struct diaglist dl;
	int err;

	fixture_run_init(&run);
	run.host = (char *)"testhost";
	run.label = (char *)label;
	run.timeout_s = 300;
	fixture_queue(q, tags, ntags);
	diag_init(&dl);
	err = store_run_begin(st, &run, q, ntags, &dl);
	if (err != STORE_OK)
		tap_diag("run_begin: %s", tap_first_diag(&dl));
	diag_free(&dl);
	return err == STORE_OK ? run.id : 0;
}

/* Runs one test through start and finish with the given output. */
static int64_t
record(struct store *st, int64_t run_id, const char *tag, int64_t seq,
    enum test_status status, const void *out, size_t len)
{
	struct store_result r;
	struct diaglist dl;
	int64_t id;

	diag_init(&dl);
	if (store_test_start(st, run_id, tag, "sys", seq, &id, &dl) !=
	    STORE_OK) {
		tap_diag("test_start: %s", tap_first_diag(&dl));
		diag_free(&dl);
		return 0;
	}
	memset(&r, 0, sizeof(r));
	r.tag = (char *)tag;
	r.status = status;
	r.exit_code = status == TS_FAIL ? 1 : 0;
	r.duration_ms = 42;
	r.npass = 3;
	r.nfail = status == TS_FAIL;
	if (store_test_finish(st, id, &r, out, len, &dl) != STORE_OK) {
		tap_diag("test_finish: %s", tap_first_diag(&dl));
		id = 0;
	}
	diag_free(&dl);
	return id;
}

/*
 * A run's log is copied into the database while its tests run
 * (store_checkpoint_idle) and then written over from its start: it
 * stays near STORE_WAL_CYCLE pages however many tests commit, where
 * SQLite alone lets it grow to 1,000 pages.
 */
static void
test_wal_cycle(void)
{
	static const char *const tags[] = { "w" };
	const long bound = (STORE_WAL_CYCLE + 64) * (4096 + 24) + 32;
	struct store_result *res = NULL;
	struct store *st;
	struct diaglist dl;
	struct stat sb;
	char tag[32], wal[1100];
	long most = 0;
	size_t n = 0;
	int64_t run;
	int i, lost = 0;

	diag_init(&dl);
	if (store_open(&st, tmp_path("cycle.db"), STORE_CREATE, &dl) !=
	    STORE_OK) {
		ok(0, "open cycle.db: %s", tap_first_diag(&dl));
		diag_free(&dl);
		return;
	}
	snprintf(wal, sizeof(wal), "%s-wal", tmp_path("cycle.db"));
	run = begin_run(st, "cycle", tags, 1);
	store_batch_begin(st);
	for (i = 0; i < 300; i++) {
		snprintf(tag, sizeof(tag), "w%03d", i);
		lost += record(st, run, tag, i, TS_PASS, "out\n", 4) == 0;
		lost += store_batch_commit(st, &dl) != STORE_OK;
		store_checkpoint_idle(st);
		if (stat(wal, &sb) == 0 && sb.st_size > most)
			most = (long)sb.st_size;
	}
	(void)store_batch_end(st, &dl);
	is_int(lost, 0, "300 tests committed one by one");
	ok(most > 0 && most <= bound, "the log stays at most %ld bytes "
	    "(largest %ld)", bound, most);
	is_int(store_run_results(st, run, &res, &n, &dl), STORE_OK,
	    "results read back");
	is_int(n, 300, "every result is there");
	store_results_free(res, n);
	store_close(st);
	ok(tap_db_integrity_ok(tmp_path("cycle.db")), "integrity_check ok");
	diag_free(&dl);
}

/* The bytes of from in to; 0, or -1. */
static int
copy_bytes(const char *from, const char *to)
{
	char buf[8192];
	ssize_t n;
	int in, out, rv = 0;

	if ((in = open(from, O_RDONLY)) == -1)
		return -1;
	if ((out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1) {
		(void)close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			rv = -1;
	if (n == -1 || close(out) == -1)
		rv = -1;
	(void)close(in);
	return rv;
}

/*
 * A store keeps its write-ahead log when it closes, so that the next
 * run's commits write over blocks the file already has instead of
 * growing it again (store.h), and never past the bound the cycle sets;
 * and it checkpoints it as it closes, so that the database file alone
 * (copied to another machine without its -wal) has every result.
 */
static void
test_wal_kept(void)
{
	static const char *const tags[] = { "k" };
	const long bound = (STORE_WAL_CYCLE + 64) * (4096 + 24) + 32;
	struct store_result *res = NULL;
	struct store *st;
	struct diaglist dl;
	struct stat sb;
	char db[1100], wal[1200], alone[1100], tag[32];
	sqlite3 *h;
	sqlite3_stmt *s;
	int64_t run;
	long first;
	size_t n = 0;
	int i, lost = 0, count = -1, pass;

	diag_init(&dl);
	snprintf(db, sizeof(db), "%s", tmp_path("kept.db"));
	snprintf(wal, sizeof(wal), "%s-wal", db);
	snprintf(alone, sizeof(alone), "%s", tmp_path("alone.db"));
	for (pass = 0; pass < 2; pass++) {
		if (store_open(&st, db, STORE_CREATE, &dl) != STORE_OK) {
			ok(0, "open kept.db: %s", tap_first_diag(&dl));
			diag_free(&dl);
			return;
		}
		run = begin_run(st, pass == 0 ? "first" : "second", tags, 1);
		store_batch_begin(st);
		for (i = 0; i < 100; i++) {
			snprintf(tag, sizeof(tag), "k%d-%03d", pass, i);
			lost += record(st, run, tag, i, TS_PASS, "out\n", 4) ==
			    0;
			lost += store_batch_commit(st, &dl) != STORE_OK;
			store_checkpoint_idle(st);
		}
		(void)store_batch_end(st, &dl);
		store_close(st);
		if (pass == 0) {
			ok(stat(wal, &sb) == 0 && sb.st_size > 32, "a closed "
			    "store keeps its log (%lld bytes)", stat(wal, &sb)
			    == 0 ? (long long)sb.st_size : -1LL);
			first = stat(wal, &sb) == 0 ? (long)sb.st_size : 0;
		}
	}
	is_int(lost, 0, "200 tests in two runs, committed one by one");
	ok(stat(wal, &sb) == 0 && (long)sb.st_size >= first &&
	    (long)sb.st_size <= bound, "the second run wrote over it, within "
	    "the bound (%ld bytes, at most %ld)", stat(wal, &sb) == 0 ?
	    (long)sb.st_size : -1L, bound);
	ok(copy_bytes(db, alone) == 0, "the database file copied alone");
	if (sqlite3_open_v2(alone, &h, SQLITE_OPEN_READONLY, NULL) ==
	    SQLITE_OK && sqlite3_prepare_v2(h, "SELECT count(*) FROM results",
	    -1, &s, NULL) == SQLITE_OK) {
		if (sqlite3_step(s) == SQLITE_ROW)
			count = sqlite3_column_int(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(h);
	is_int(count, 200, "has every result without the log");
	if (store_open(&st, db, 0, &dl) == STORE_OK) {
		is_int(store_run_results(st, run, &res, &n, &dl), STORE_OK,
		    "reopened with its log, the last run reads back");
		is_int(n, 100, "with all its results");
		store_results_free(res, n);
		store_close(st);
	} else
		ok(0, "reopen kept.db: %s", tap_first_diag(&dl));
	ok(tap_db_integrity_ok(db), "integrity_check ok");
	diag_free(&dl);
}

/*
 * The store writes its log through a VFS of its own (store_vfs.c) that
 * joins each frame's header to its page: the log it leaves, copied
 * with the database while the store still has it open (no checkpoint
 * yet), is one that SQLite's own VFS recovers whole, every frame's
 * checksum good -- a header lost, or written at another place, would
 * end the recovery there, and the results after it with it.
 */
static void
test_wal_frames_whole(void)
{
	static const char *const tags[] = { "w" };
	struct store *st;
	struct diaglist dl;
	struct stat sb;
	char db[1100], wal[1200], cp[1100], cpwal[1200], tag[32];
	sqlite3 *h = NULL;
	sqlite3_stmt *s;
	int64_t run;
	int i, lost = 0, count = -1;
	long frames = -1;

	diag_init(&dl);
	snprintf(db, sizeof(db), "%s", tmp_path("frames.db"));
	snprintf(wal, sizeof(wal), "%s-wal", db);
	snprintf(cp, sizeof(cp), "%s", tmp_path("frames-copy.db"));
	snprintf(cpwal, sizeof(cpwal), "%s-wal", cp);
	if (store_open(&st, db, STORE_CREATE, &dl) != STORE_OK) {
		ok(0, "open frames.db: %s", tap_first_diag(&dl));
		diag_free(&dl);
		return;
	}
	ok(sqlite3_vfs_find("ltpscope") != NULL, "the store's VFS is "
	    "registered");
	run = begin_run(st, "frames", tags, 1);
	store_batch_begin(st);
	for (i = 0; i < 40; i++) {
		snprintf(tag, sizeof(tag), "w%03d", i);
		lost += record(st, run, tag, i, i % 3 == 0 ? TS_FAIL : TS_PASS,
		    "out\n", 4) == 0;
		lost += store_batch_commit(st, &dl) != STORE_OK;
	}
	is_int(lost, 0, "40 results committed one by one");
	if (stat(wal, &sb) == 0 && sb.st_size > 32 &&
	    (sb.st_size - 32) % (4096 + 24) == 0)
		frames = (long)((sb.st_size - 32) / (4096 + 24));
	ok(frames > 40, "the log is whole frames of header and page "
	    "(%ld)", frames);
	ok(copy_bytes(db, cp) == 0 && copy_bytes(wal, cpwal) == 0,
	    "database and log copied while the store has them open");
	if (sqlite3_open_v2(cp, &h, SQLITE_OPEN_READWRITE, NULL) ==
	    SQLITE_OK && sqlite3_prepare_v2(h, "SELECT count(*) FROM results "
	    "WHERE run_id = ? AND status <> 9", -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(s, 1, run);
		if (sqlite3_step(s) == SQLITE_ROW)
			count = sqlite3_column_int(s, 0);
		sqlite3_finalize(s);
	}
	sqlite3_close(h);
	is_int(count, 40, "SQLite's own VFS recovers every result from "
	    "the copied log");
	ok(tap_db_integrity_ok(cp), "and the copy passes integrity_check");
	(void)store_batch_end(st, &dl);
	store_close(st);
	diag_free(&dl);
}

/*
 * A run ended in a batch (as the engine ends it, with its last result)
 * stays live to others until the batch's commit makes the end durable:
 * in between, a reader still sees it "running", and must not take it
 * for one that died.
 */
static void
test_end_in_batch(void)
{
	static const char *const tags[] = { "e1" };
	struct store *st, *other;
	struct store_run r;
	struct diaglist dl;
	int64_t run;

	diag_init(&dl);
	if (store_open(&st, tmp_path("endbatch.db"), STORE_CREATE, &dl) !=
	    STORE_OK || store_open(&other, tmp_path("endbatch.db"), 0, &dl) !=
	    STORE_OK) {
		ok(0, "open endbatch.db: %s", tap_first_diag(&dl));
		diag_free(&dl);
		return;
	}
	run = begin_run(st, "end", tags, 1);
	store_batch_begin(st);
	ok(record(st, run, "e1", 0, TS_PASS, "x\n", 2) != 0, "the last "
	    "result, in a batch");
	is_int(store_run_end(st, run, RUN_FINISHED, &dl), STORE_OK,
	    "the run's end, in the same batch");
	memset(&r, 0, sizeof(r));
	is_int(store_get_run(other, run, &r, &dl), STORE_OK, "another "
	    "connection reads it before the commit");
	/* Unlocked too soon, it would read as a dead run: interrupted. */
	is_int(r.state, RUN_RUNNING, "and sees it running, still live");
	store_run_clear(&r);
	is_int(store_batch_end(st, &dl), STORE_OK, "one commit for both");
	memset(&r, 0, sizeof(r));
	(void)store_get_run(other, run, &r, &dl);
	is_int(r.state, RUN_FINISHED, "and finished");
	is_int(r.counts[TS_PASS], 1, "with its result");
	store_run_clear(&r);
	store_close(other);
	store_close(st);
	diag_free(&dl);
}

static void
test_default_path(void)
{
	struct diaglist dl;
	char *p;

	diag_init(&dl);
	setenv("XDG_DATA_HOME", "/data/x", 1);
	setenv("HOME", "/home/u", 1);
	is_int(store_default_path(&p, &dl), STORE_OK, "default path");
	is_str(p, "/data/x/ltpscope/ltpscope.db", "XDG_DATA_HOME is used");
	free(p);
	setenv("XDG_DATA_HOME", "relative", 1);
	store_default_path(&p, &dl);
	is_str(p, "/home/u/.local/share/ltpscope/ltpscope.db",
	    "relative XDG_DATA_HOME falls back to HOME");
	free(p);
	unsetenv("XDG_DATA_HOME");
	unsetenv("HOME");
	is_int(store_default_path(&p, &dl), STORE_EINVAL, "no HOME: error");
	has_str(tap_first_diag(&dl), "-d FILE", "and it says to use -d");
	diag_free(&dl);
}

static void
test_create(void)
{
	struct diaglist dl;
	struct store *st;
	char *mode;

	diag_init(&dl);
	is_int(store_open(&st, tmp_path("a/b/new.db"), STORE_CREATE |
	    STORE_MKDIRS, &dl), STORE_OK, "create with parent directories");
	if (st == NULL) {
		diag_free(&dl);
		return;
	}
	is_int(store_schema_version(st), STORE_SCHEMA_VERSION,
	    "fresh database is at the current schema");
	mode = pragma_str(st, "PRAGMA journal_mode");
	is_str(mode, "wal", "journal_mode is WAL");
	free(mode);
	is_int(pragma_int(st, "PRAGMA synchronous"), 2, "synchronous=FULL");
	is_int(pragma_int(st, "PRAGMA foreign_keys"), 1, "foreign_keys on");
	is_int(pragma_int(st, "PRAGMA busy_timeout"), STORE_BUSY_TIMEOUT_MS,
	    "busy_timeout set");
	is_int(pragma_int(st, "SELECT count(*) FROM sqlite_master WHERE "
	    "name IN ('runs','results','outputs','queue','meta')"), 5,
	    "all tables exist");
	store_close(st);

	/* An existing empty file is a database at version 0. */
	close(open(tmp_path("empty.db"), O_WRONLY | O_CREAT | O_TRUNC, 0644));
	is_int(store_open(&st, tmp_path("empty.db"), 0, &dl), STORE_OK,
	    "empty file opens without STORE_CREATE");
	if (st != NULL) {
		is_int(store_schema_version(st), STORE_SCHEMA_VERSION,
		    "empty file migrated to the current schema");
		store_close(st);
	}
	is_int(store_open(&st, tmp_path("absent.db"), 0, &dl),
	    STORE_ECANTOPEN, "missing file without STORE_CREATE");
	diag_free(&dl);
}

/*
 * The schema as text to compare: each object's SQL with quotes and
 * spacing made uniform, one per line, by name (SQLite keeps the words
 * of each CREATE as given, and an ALTER TABLE appends to them).
 */
static char *
schema_text(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	char *out = NULL, *line;
	const char *sql, *p;
	size_t len = 0, n;
	int space;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK || sqlite3_prepare_v2(db, "SELECT type, name, "
	    "tbl_name, coalesce(sql, '') FROM sqlite_master WHERE name <> "
	    "'zz_user' ORDER BY name", -1, &s, NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return xstrdup("(unreadable)");
	}
	while (sqlite3_step(s) == SQLITE_ROW) {
		sql = (const char *)sqlite3_column_text(s, 3);
		line = xmalloc(strlen(sql) + 256);
		n = (size_t)snprintf(line, 256, "%s %s %s: ",
		    sqlite3_column_text(s, 0), sqlite3_column_text(s, 1),
		    sqlite3_column_text(s, 2));
		for (p = sql, space = 0; *p != '\0'; p++) {
			if (*p == '"')
				continue;
			if (isspace((unsigned char)*p)) {
				space = 1;
				continue;
			}
			/* "a ( b" and "a(b" read the same. */
			if (space && n > 0 && strchr("(,", line[n - 1]) == NULL &&
			    strchr("),;", *p) == NULL)
				line[n++] = ' ';
			space = 0;
			line[n++] = *p;
		}
		line[n++] = '\n';
		out = xrealloc(out, len + n + 1);
		memcpy(out + len, line, n);
		len += n;
		out[len] = '\0';
		free(line);
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
	return out != NULL ? out : xstrdup("");
}

/*
 * A blank file gets the schema in one go; a file that already holds
 * something gets it step by step.  Both must come out the same.
 */
static void
test_fresh_schema(void)
{
	struct diaglist dl;
	struct store *st;
	sqlite3 *db;
	char *fresh, *stepped;

	diag_init(&dl);
	is_int(store_open(&st, tmp_path("fresh.db"), STORE_CREATE, &dl),
	    STORE_OK, "blank database created");
	store_close(st);
	sqlite3_open(tmp_path("stepped.db"), &db);
	is_int(sqlite3_exec(db, "CREATE TABLE zz_user (x)", NULL, NULL, NULL),
	    SQLITE_OK, "a database with a table of its own, at version 0");
	sqlite3_close(db);
	is_int(store_open(&st, tmp_path("stepped.db"), 0, &dl), STORE_OK,
	    "it is migrated step by step");
	if (st != NULL) {
		is_int(store_schema_version(st), STORE_SCHEMA_VERSION,
		    "to the current version");
		store_close(st);
	}
	fresh = schema_text(tmp_path("fresh.db"));
	stepped = schema_text(tmp_path("stepped.db"));
	ok(strstr(fresh, "trigger results_au results: CREATE TRIGGER") !=
	    NULL && strstr(fresh, "table outputs outputs: CREATE TABLE "
	    "outputs (result_id") != NULL, "the fresh schema has its tables and "
	    "triggers");
	is_str(fresh, stepped, "the fresh schema is what the steps build");
	free(fresh);
	free(stepped);
	diag_free(&dl);
}

static void
test_migrate_v1(void)
{
	struct store_result *res;
	struct store_run *runs;
	struct store_output o;
	struct diaglist dl;
	struct store *st;
	sqlite3 *db;
	char *sql;
	size_t n, nres;

	sql = tap_slurp("tests/fixtures/store-v1.sql", NULL);
	ok(sql != NULL, "v1 fixture readable");
	if (sql == NULL)
		return;
	sqlite3_open(tmp_path("v1.db"), &db);
	is_int(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK,
	    "v1 database built");
	sqlite3_close(db);
	free(sql);

	diag_init(&dl);
	is_int(store_open(&st, tmp_path("v1.db"), 0, &dl), STORE_OK,
	    "v1 database opens");
	if (st == NULL) {
		tap_diag("%s", tap_first_diag(&dl));
		return;
	}
	is_int(store_schema_version(st), STORE_SCHEMA_VERSION,
	    "v1 migrated to current version");
	is_int(pragma_int(st, "SELECT count(*) FROM sqlite_master WHERE "
	    "name = 'results_tag'"), 1, "v2 index added");
	is_int(store_list_runs(st, &runs, &n, &dl), STORE_OK, "list runs");
	is_int(n, 1, "the v1 run survived");
	if (n == 1) {
		is_str(runs[0].label, "old-v1-run", "its label");
		is_int(runs[0].counts[TS_PASS], 1, "its pass count");
		is_int(runs[0].counts[TS_FAIL], 1, "its fail count");
		is_int(runs[0].nqueued, 2, "its queue");
		is_int(runs[0].state, RUN_FINISHED, "its state");
		is_int(runs[0].pid, 0, "new pid column defaults to 0");
	}
	store_runs_free(runs, n);
	is_int(store_run_results(st, 1, &res, &nres, &dl), STORE_OK,
	    "v1 results");
	is_int(nres, 2, "two results");
	if (nres == 2) {
		is_str(res[1].tag, "access01", "second result in order");
		is_int(res[0].output_size, 10, "output size of first");
	}
	is_int(store_get_output(st, res[0].id, &o, &dl), STORE_OK,
	    "v1 output");
	is_str(o.data, "abort01 ok", "v1 output bytes");
	store_output_clear(&o);
	store_results_free(res, nres);
	is_int(store_latest_results(st, &res, &nres, &dl), STORE_OK,
	    "latest results of migrated data");
	is_int(nres, 2, "latest table filled by the migration");
	store_results_free(res, nres);
	store_close(st);

	/* A database from a future ltpscope is refused, not misread. */
	sqlite3_open(tmp_path("v1.db"), &db);
	sqlite3_exec(db, "PRAGMA user_version=99", NULL, NULL, NULL);
	sqlite3_close(db);
	is_int(store_open(&st, tmp_path("v1.db"), 0, &dl), STORE_ENEWER,
	    "newer schema refused");
	ok(st == NULL, "no store handed out");
	has_str(tap_first_diag(&dl), "schema version 99, newer than this "
	    "ltpscope", "message says newer");
	has_str(tap_first_diag(&dl), tmp_path("v1.db"),
	    "message names the file");
	diag_free(&dl);
}

static void
test_bytes_and_cap(void)
{
	static const char tricky[] = "TPASS\0after NUL \xff\xfe\xc3 bad "
	    "utf-8 \x1b[31mred\x1b[0m\r\n";
	const char *tags[] = { "t1", "t2", "t3", "t4" };
	struct store_output o;
	struct store_result r, *res;
	struct diaglist dl;
	struct store *st;
	unsigned char *big, *huge;
	int64_t run, id1, id2, id3, id4;
	size_t i, n, cap = 1000;
	char *note;

	diag_init(&dl);
	if (store_open(&st, tmp_path("bytes.db"), STORE_CREATE, &dl) !=
	    STORE_OK) {
		ok(0, "open bytes.db: %s", tap_first_diag(&dl));
		return;
	}
	run = begin_run(st, "bytes", tags, 4);
	ok(run > 0, "run begun");
	id1 = record(st, run, "t1", 0, TS_PASS, tricky, sizeof(tricky) - 1);
	ok(id1 > 0, "output with NUL and invalid UTF-8 stored");
	is_int(store_get_output(st, id1, &o, &dl), STORE_OK, "read it back");
	is_int(o.stored_size, sizeof(tricky) - 1, "same length");
	ok(memcmp(o.data, tricky, sizeof(tricky) - 1) == 0, "same bytes");
	is_int(o.capped, 0, "not capped");
	store_output_clear(&o);

	big = malloc(1024 * 1024);
	for (i = 0; i < 1024 * 1024; i++)
		big[i] = (unsigned char)(i * 7 + (i >> 9));
	id2 = record(st, run, "t2", 1, TS_FAIL, big, 1024 * 1024);
	is_int(store_get_output(st, id2, &o, &dl), STORE_OK, "1 MB output");
	ok(o.stored_size == 1024 * 1024 && memcmp(o.data, big, o.stored_size)
	    == 0, "1 MB comes back byte for byte");
	store_output_clear(&o);

	id3 = record(st, run, "t3", 2, TS_CONF, NULL, 0);
	is_int(store_get_output(st, id3, &o, &dl), STORE_OK, "empty output");
	is_int(o.stored_size, 0, "empty stays empty");
	store_output_clear(&o);

	store_set_output_cap(st, cap);
	id4 = record(st, run, "t4", 3, TS_PASS, big, 5000);
	is_int(store_get_output(st, id4, &o, &dl), STORE_OK, "capped output");
	is_int(o.capped, 1, "capped flag set");
	is_int(o.original_size, 5000, "original size kept");
	ok(o.stored_size <= cap, "stored size within the cap (%zu)",
	    o.stored_size);
	note = strstr(o.data + 900, "[ltpscope: output capped: kept ");
	ok(note != NULL, "note at the end says it was capped");
	has_str(o.data + 900, "of 5000 bytes]\n", "note gives the original");
	ok(o.stored_size > 60 && memcmp(o.data, big, 100) == 0,
	    "head of the output kept");
	ok(o.data[o.stored_size - 1] == '\n', "stored text ends with the note");
	store_output_clear(&o);
	store_set_output_cap(st, 0);

	/* The documented default: one byte over 16 MiB is capped. */
	huge = calloc(1, STORE_OUTPUT_CAP + 1);
	id4 = record(st, run, "t4", 4, TS_PASS, huge, STORE_OUTPUT_CAP + 1);
	free(huge);
	is_int(store_get_output(st, id4, &o, &dl), STORE_OK, "16 MiB + 1");
	is_int(o.capped, 1, "capped at STORE_OUTPUT_CAP");
	is_int(o.original_size, STORE_OUTPUT_CAP + 1, "original size kept");
	ok(o.stored_size <= STORE_OUTPUT_CAP && o.stored_size >
	    STORE_OUTPUT_CAP - 100, "nearly 16 MiB stored");
	/* Written in place (store_put_output): head and note both there. */
	ok(o.stored_size > 100 && o.data[0] == '\0' &&
	    o.data[o.stored_size - 100] == '\0', "its head kept");
	for (i = o.stored_size > 100 ? o.stored_size - 100 : 0;
	    i < o.stored_size && o.data[i] == '\0'; i++)
		continue;
	has_str(o.data + i, "of 16777217 bytes]\n", "and the note after it");
	store_output_clear(&o);

	is_int(store_run_results(st, run, &res, &n, &dl), STORE_OK,
	    "results of the run");
	is_int(n, 5, "five results");
	if (n == 5) {
		is_int(res[1].status, TS_FAIL, "status stored");
		is_int(res[1].exit_code, 1, "exit code stored");
		is_int(res[1].duration_ms, 42, "duration stored");
		is_int(res[1].npass, 3, "pass count stored");
		is_int(res[3].capped, 1, "capped shows in the listing");
		is_int(res[3].output_size, 5000, "original size in listing");
	}
	/*
	 * Each result's output read with the sizes the listing has, in
	 * its read and outside one: what store_get_output() gives.
	 */
	for (int inread = 0; inread < 2; inread++) {
		struct store_output a, b;
		size_t same = 0, nf = 0;

		if (inread)
			(void)store_read_begin(st, &dl);
		for (i = 0; i < n; i++) {
			int ea = store_get_output_of(st, &res[i], &a, &dl);
			int eb = store_get_output(st, res[i].id, &b, &dl);

			same += ea == eb && a.stored_size == b.stored_size &&
			    a.original_size == b.original_size &&
			    a.capped == b.capped && (a.data == NULL ?
			    b.data == NULL : b.data != NULL && memcmp(a.data,
			    b.data, a.stored_size + 1) == 0);
			nf += ea == STORE_OK;
			store_output_clear(&a);
			store_output_clear(&b);
		}
		if (inread)
			store_read_end(st);
		is_int(same, n, "%s: each output as store_get_output() reads "
		    "it, capped and empty ones too", inread ? "in a read" :
		    "outside a read");
		is_int(nf, n, "every one found");
	}
	/* A result the listing saw without its output row: none found. */
	memset(&r, 0, sizeof(r));
	r.id = id4 + 1000;
	r.stored_size = 10;
	(void)store_read_begin(st, &dl);
	is_int(store_get_output_of(st, &r, &o, &dl), STORE_ENOTFOUND,
	    "a result with no output stored: not found");
	store_read_end(st);
	store_results_free(res, n);
	is_int(store_find_result(st, run, "t2", &r, &dl), STORE_OK,
	    "find by tag");
	is_int(r.id, id2, "right result");
	store_result_clear(&r);
	is_int(store_find_result(st, run, "nope", &r, &dl), STORE_ENOTFOUND,
	    "unknown tag");
	free(big);
	store_close(st);
	diag_free(&dl);
}

/* An output source over a buffer that counts its reads and can fail. */
struct pieces {
	const unsigned char	*buf;
	size_t			 len;
	size_t			 reads;
	size_t			 biggest;
	size_t			 fail_at;	/* 0: never */
};

static int
pieces_read(void *arg, void *buf, size_t len, uint64_t off)
{
	struct pieces *p = arg;

	if (++p->reads == p->fail_at) {
		errno = EIO;
		return -1;
	}
	if (len > p->biggest)
		p->biggest = len;
	if (off > p->len || len > p->len - off)
		abort();
	memcpy(buf, p->buf + off, len);
	return 0;
}

/* What store_read_output() handed out, gathered. */
struct gather {
	char	*buf;
	size_t	 len;
	size_t	 calls;
	size_t	 biggest;
};

static void
gather_fn(void *arg, const char *buf, size_t len)
{
	struct gather *g = arg;

	g->buf = realloc(g->buf, g->len + len + 1);
	memcpy(g->buf + g->len, buf, len);
	g->len += len;
	g->calls++;
	if (len > g->biggest)
		g->biggest = len;
}

/*
 * An output read from a source in pieces (the engine's spool): the
 * same bytes, cap and note as from memory, read a chunk at a time; a
 * source that fails leaves the test running, nothing half stored.
 */
static void
test_output_source(void)
{
	const char *tags[] = { "s1", "s2", "s3", "s4" };
	struct store_outsrc src;
	struct store_output o;
	struct store_result r;
	struct gather g;
	struct pieces p;
	struct diaglist dl;
	struct store *st;
	unsigned char *big;
	int64_t run, id;
	size_t i, n = 3u * 1024 * 1024 + 17;

	diag_init(&dl);
	if (store_open(&st, tmp_path("source.db"), STORE_CREATE, &dl) !=
	    STORE_OK) {
		ok(0, "open source.db: %s", tap_first_diag(&dl));
		return;
	}
	run = begin_run(st, "source", tags, 4);
	big = malloc(n);
	for (i = 0; i < n; i++)
		big[i] = (unsigned char)(i * 13 + (i >> 11));
	memset(&r, 0, sizeof(r));
	r.tag = (char *)"s1";
	r.status = TS_PASS;
	memset(&p, 0, sizeof(p));
	p.buf = big;
	p.len = n;
	memset(&src, 0, sizeof(src));
	src.read = pieces_read;
	src.arg = &p;
	src.len = n;
	src.total = n;
	store_test_start(st, run, "s1", "sys", 0, &id, &dl);
	is_int(store_test_finish_src(st, id, &r, &src, &dl), STORE_OK,
	    "3 MiB from a source");
	ok(p.reads > 40 && p.biggest <= 64 * 1024, "  read in pieces (%zu, "
	    "at most %zu bytes)", p.reads, p.biggest);
	is_int(store_get_output(st, id, &o, &dl), STORE_OK, "  read back");
	ok(o.stored_size == n && memcmp(o.data, big, n) == 0 && !o.capped,
	    "  byte for byte");
	store_output_clear(&o);
	memset(&g, 0, sizeof(g));
	is_int(store_read_output(st, id, gather_fn, &g, &o, &dl), STORE_OK,
	    "  read back in pieces");
	ok(g.len == n && memcmp(g.buf, big, n) == 0 && o.data == NULL &&
	    o.stored_size == n && o.original_size == (int64_t)n, "  the "
	    "same bytes and sizes");
	ok(g.calls > 40 && g.biggest <= 64 * 1024, "  at most 64 KiB at a "
	    "time (%zu calls)", g.calls);
	free(g.buf);

	/* Small: bound whole, from the source all the same. */
	memset(&p, 0, sizeof(p));
	p.buf = big;
	p.len = src.len = 1000;
	src.total = 5000;
	store_set_output_cap(st, 600);
	store_test_start(st, run, "s2", "sys", 1, &id, &dl);
	r.tag = (char *)"s2";
	is_int(store_test_finish_src(st, id, &r, &src, &dl), STORE_OK,
	    "a small output from a source, over the cap");
	is_int(store_get_output(st, id, &o, &dl), STORE_OK, "  read back");
	ok(o.capped && o.original_size == 5000 && o.stored_size <= 600 &&
	    memcmp(o.data, big, 500) == 0, "  its head, capped");
	ok(o.stored_size > 15 && memcmp(o.data + o.stored_size - 15,
	    "of 5000 bytes]\n", 15) == 0, "  the note counts what the test "
	    "wrote");
	store_output_clear(&o);
	store_set_output_cap(st, 0);

	memset(&p, 0, sizeof(p));
	p.buf = big;
	p.len = src.len = src.total = n;
	p.fail_at = 7;
	store_test_start(st, run, "s3", "sys", 2, &id, &dl);
	r.tag = (char *)"s3";
	is_int(store_test_finish_src(st, id, &r, &src, &dl), STORE_EIO,
	    "a source that fails");
	has_str(tap_first_diag(&dl), "cannot read the output back to store "
	    "it", "  says so");
	memset(&g, 0, sizeof(g));
	is_int(store_read_output(st, id, gather_fn, &g, &o, &dl),
	    STORE_ENOTFOUND, "  nothing to read in pieces either");
	is_int(g.calls, 0, "  nor handed out");
	diag_free(&dl);
	diag_init(&dl);
	is_int(store_get_output(st, id, &o, &dl), STORE_ENOTFOUND,
	    "  no half output stored");
	store_output_clear(&o);
	is_int(store_find_result(st, run, "s3", &r, &dl), STORE_OK,
	    "  the result is there");
	is_int(r.status, TS_RUNNING, "  still running, as the crash "
	    "protocol wants");
	store_result_clear(&r);
	free(big);
	store_close(st);
	diag_free(&dl);
}

/*
 * A child begins a run of tags, finishes the first `done` tests, starts
 * the next and dies by SIGKILL, as a kernel panic would leave it.
 */
static void
die_mid_run(const char *path, const char *const *tags, size_t ntags,
    size_t done)
{
	struct diaglist dl;
	struct store *st;
	int64_t run, id;
	pid_t pid;
	size_t i;
	int status;

	if ((pid = fork()) == 0) {
		diag_init(&dl);
		if (store_open(&st, path, STORE_CREATE, &dl) != STORE_OK)
			_exit(3);
		run = begin_run(st, "crashy", tags, ntags);
		for (i = 0; i < done; i++)
			record(st, run, tags[i], (int64_t)i, TS_PASS, "ok\n",
			    3);
		store_test_start(st, run, tags[done], "sys", (int64_t)done,
		    &id, &dl);
		kill(getpid(), SIGKILL);
		_exit(4);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	    "child died by SIGKILL mid-test");
}

/* What store_latest_statuses() told, for comparing (8 at most). */
struct latest_seen {
	char		 tag[8][32];
	char		 syscall[8][32];
	enum test_status status[8];
	size_t		 n;
};

static void
latest_seen_cb(void *arg, const char *tag, const char *syscall,
    enum test_status status)
{
	struct latest_seen *s = arg;

	if (s->n < 8) {
		snprintf(s->tag[s->n], sizeof(s->tag[0]), "%s", tag);
		snprintf(s->syscall[s->n], sizeof(s->syscall[0]), "%s",
		    syscall);
		s->status[s->n] = status;
	}
	s->n++;
}

static void
test_protocol_and_resume(void)
{
	const char *tags[] = { "a01", "b01", "c01", "d01", "e01" };
	struct store_interrupted *iv;
	struct store_queue_item *q;
	struct store_result *res, one;
	struct store_run *runs;
	struct store_output o;
	struct diaglist dl;
	struct store *st, *st2;
	int64_t run, id;
	size_t n, nq;

	diag_init(&dl);
	/* Our own live run is not "interrupted". */
	store_open(&st, tmp_path("proto.db"), STORE_CREATE, &dl);
	run = begin_run(st, "live", tags, 2);
	is_int(store_test_start(st, run, "a01", "sys", 0, &id, &dl), STORE_OK,
	    "running marker committed");
	is_int(store_run_results(st, run, &res, &n, &dl), STORE_OK, "read");
	ok(n == 1 && res[0].status == TS_RUNNING, "marker says running");
	store_results_free(res, n);
	store_open(&st2, tmp_path("proto.db"), 0, &dl);
	is_int(store_interrupted_runs(st2, &iv, &n, &dl), STORE_OK,
	    "look for interrupted runs");
	is_int(n, 0, "a live run (second connection) is not interrupted");
	store_interrupted_free(iv, n);
	store_close(st2);
	store_run_end(st, run, RUN_FINISHED, &dl);
	store_close(st);

	die_mid_run(tmp_path("proto.db"), tags, 5, 2);
	store_open(&st, tmp_path("proto.db"), 0, &dl);
	is_int(store_interrupted_runs(st, &iv, &n, &dl), STORE_OK,
	    "interrupted runs after the crash");
	is_int(n, 1, "exactly one interrupted run");
	if (n == 1) {
		run = iv[0].run_id;
		is_int(iv[0].nrunning, 1, "one test left running");
		if (iv[0].nrunning == 1)
			is_str(iv[0].running[0], "c01",
			    "it names the test that was running");
		is_str(iv[0].label, "crashy", "and the run's label");
	}
	store_interrupted_free(iv, n);
	store_list_runs(st, &runs, &n, &dl);
	ok(n == 2 && runs[0].state == RUN_INTERRUPTED,
	    "the dead run lists as interrupted");
	ok(n == 2 && runs[0].counts[TS_PASS] == 2 &&
	    runs[0].counts[TS_RUNNING] == 1, "with its counts");
	ok(n == 2 && runs[1].state == RUN_FINISHED, "the first as finished");
	store_runs_free(runs, n);

	is_int(store_run_resume(st, run, &q, &nq, &dl), STORE_OK, "resume");
	is_int(nq, 2, "two tests left to run");
	if (nq == 2) {
		is_str(q[0].tag, "d01", "first unrun test");
		is_str(q[1].tag, "e01", "second unrun test");
		is_int(q[0].pos, 3, "with its queue position");
		is_str(q[1].cmdline, "e01", "and its command line");
	}
	store_queue_free(q, nq);
	is_int(store_find_result(st, run, "c01", &one, &dl), STORE_OK,
	    "the crashed test has a result");
	is_int(one.status, TS_INTERRUPTED, "marked interrupted");
	is_int(store_get_output(st, one.id, &o, &dl), STORE_OK,
	    "with an output");
	has_str(o.data, "likely crashed the system", "saying why");
	store_output_clear(&o);
	store_result_clear(&one);
	is_int(store_interrupted_runs(st, &iv, &n, &dl), STORE_OK,
	    "look again");
	is_int(n, 0, "a resumed (live) run is no longer interrupted");
	store_interrupted_free(iv, n);

	/* Finish it; then nothing is left, and nothing runs twice. */
	record(st, run, "d01", 3, TS_PASS, "x", 1);
	record(st, run, "e01", 4, TS_PASS, "x", 1);
	store_run_end(st, run, RUN_FINISHED, &dl);
	is_int(store_run_resume(st, run, &q, &nq, &dl), STORE_OK,
	    "resume a finished run");
	is_int(nq, 0, "nothing left to run");
	store_queue_free(q, nq);
	store_run_end(st, run, RUN_FINISHED, &dl);
	is_int(store_run_results(st, run, &res, &n, &dl), STORE_OK, "results");
	is_int(n, 5, "each test has exactly one result");
	store_results_free(res, n);

	/* History and latest across the two runs. */
	is_int(store_test_history(st, "a01", 10, &res, &n, &dl), STORE_OK,
	    "history of a01");
	is_int(n, 2, "a01 ran in both runs");
	ok(n == 2 && res[0].run_id > res[1].run_id, "newest first");
	store_results_free(res, n);
	is_int(store_test_history(st, "a01", 1, &res, &n, &dl), STORE_OK,
	    "history limited");
	is_int(n, 1, "limit respected");
	store_results_free(res, n);
	is_int(store_latest_results(st, &res, &n, &dl), STORE_OK, "latest");
	is_int(n, 5, "one latest result per test");
	ok(n == 5 && strcmp(res[0].tag, "a01") == 0 && res[0].run_id == run,
	    "latest a01 is from the newest run");
	if (n == 5) {
		struct latest_seen seen;
		size_t i;

		memset(&seen, 0, sizeof(seen));
		is_int(store_latest_statuses(st, latest_seen_cb, &seen, &dl),
		    STORE_OK, "latest statuses");
		is_int(seen.n, 5, "one status per test");
		for (i = 0; i < 5 && i < seen.n; i++)
			if (strcmp(seen.tag[i], res[i].tag) != 0 ||
			    strcmp(seen.syscall[i], res[i].syscall) != 0 ||
			    seen.status[i] != res[i].status)
				break;
		is_int(i, 5, "the latest results' tags, calls and statuses, "
		    "in their order");
	}
	store_results_free(res, n);
	store_close(st);
	diag_free(&dl);
}

static double
now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1000.0 + tv.tv_usec / 1000.0;
}

/* A child takes the write lock, tells us, holds it for hold_ms. */
static pid_t
hold_write_lock(const char *path, int hold_ms)
{
	struct timespec ts;
	sqlite3 *db;
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds) != 0)
		return -1;
	if ((pid = fork()) == 0) {
		close(fds[0]);
		sqlite3_open(path, &db);
		if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
		    SQLITE_OK)
			_exit(1);
		(void)write(fds[1], "L", 1);
		ts.tv_sec = hold_ms / 1000;
		ts.tv_nsec = (long)(hold_ms % 1000) * 1000000L;
		nanosleep(&ts, NULL);
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
		sqlite3_close(db);
		_exit(0);
	}
	close(fds[1]);
	(void)read(fds[0], &c, 1);
	close(fds[0]);
	return pid;
}

static void
test_two_writers(void)
{
	const char *tags[] = { "w01" };
	struct diaglist dl;
	struct store *st;
	int64_t run, id;
	double t0, waited;
	pid_t pid;
	int err;

	diag_init(&dl);
	store_open(&st, tmp_path("two.db"), STORE_CREATE, &dl);
	run = begin_run(st, "two", tags, 1);
	pid = hold_write_lock(tmp_path("two.db"), 400);
	t0 = now_ms();
	err = store_test_start(st, run, "w01", "sys", 0, &id, &dl);
	waited = now_ms() - t0;
	is_int(err, STORE_OK, "second writer waits, then succeeds");
	ok(waited >= 250, "it waited for the lock (%.0f ms)", waited);
	waitpid(pid, NULL, 0);

	store_set_busy_timeout(st, 100);
	pid = hold_write_lock(tmp_path("two.db"), 700);
	err = store_run_end(st, run, RUN_FINISHED, &dl);
	is_int(err, STORE_ELOCKED, "held too long: locked error");
	has_str(tap_first_diag(&dl), "locked by another ltpscope",
	    "message says who holds it");
	has_str(tap_first_diag(&dl), tmp_path("two.db"), "and names the file");
	waitpid(pid, NULL, 0);
	store_close(st);
	diag_free(&dl);
}

static void
test_readonly_and_unwritable(void)
{
	const char *tags[] = { "r01" };
	struct store_run *runs;
	struct store_queue_item q = { 0, (char *)"r01", (char *)"",
	    (char *)"", NULL, 0, 0, NULL };
	struct store_run run;
	struct diaglist dl;
	struct store *st;
	size_t n;

	diag_init(&dl);
	store_open(&st, tmp_path("ro.db"), STORE_CREATE, &dl);
	begin_run(st, "ro", tags, 1);
	store_close(st);
	is_int(store_open(&st, tmp_path("ro.db"), STORE_READONLY, &dl),
	    STORE_OK, "read-only open");
	is_int(store_list_runs(st, &runs, &n, &dl), STORE_OK,
	    "read-only database lists runs");
	is_int(n, 1, "one run");
	store_runs_free(runs, n);
	memset(&run, 0, sizeof(run));
	is_int(store_run_begin(st, &run, &q, 1, &dl), STORE_EREADONLY,
	    "writing to it fails as read-only");
	has_str(tap_first_diag(&dl), "read-only", "message says read-only");
	has_str(tap_first_diag(&dl), tmp_path("ro.db"), "and names the file");
	store_close(st);
	diag_free(&dl);

	diag_init(&dl);
	is_int(store_open(&st, "/etc/passwd/x.db", STORE_CREATE |
	    STORE_MKDIRS, &dl), STORE_ECANTOPEN, "path under a file");
	has_str(tap_first_diag(&dl), "/etc/passwd/x.db",
	    "message names the db");
	has_str(tap_first_diag(&dl), "cannot create the directory /etc/passwd",
	    "and says what it could not create");
	diag_free(&dl);
	diag_init(&dl);
	is_int(store_open(&st, "/etc/passwd/x.db", STORE_CREATE, &dl),
	    STORE_ECANTOPEN, "same without mkdirs");
	has_str(tap_first_diag(&dl), "cannot open or create", "clear message");
	diag_free(&dl);
}

static void
test_full_disk(void)
{
	const char *tags[] = { "f01", "f02" };
	struct store_result r, *res;
	struct diaglist dl;
	struct store *st;
	char sql[64], *big;
	int64_t run, id;
	long long pages;
	size_t n;
	int err;

	diag_init(&dl);
	store_open(&st, tmp_path("full.db"), STORE_CREATE, &dl);
	run = begin_run(st, "full", tags, 2);
	record(st, run, "f01", 0, TS_PASS, "kept\n", 5);
	pages = pragma_int(st, "PRAGMA page_count");
	snprintf(sql, sizeof(sql), "PRAGMA max_page_count=%lld", pages + 4);
	sqlite3_exec(store_sqlite_handle(st), sql, NULL, NULL, NULL);
	store_test_start(st, run, "f02", "sys", 1, &id, &dl);
	big = calloc(1, 512 * 1024);
	memset(&r, 0, sizeof(r));
	r.tag = (char *)"f02";
	r.status = TS_PASS;
	err = store_test_finish(st, id, &r, big, 512 * 1024, &dl);
	is_int(err, STORE_EFULL, "full disk reported as such");
	has_str(tap_first_diag(&dl), "the disk is full; nothing committed "
	    "earlier is lost", "message says full and nothing lost");
	has_str(tap_first_diag(&dl), tmp_path("full.db"), "and names the file");
	free(big);
	is_int(store_run_results(st, run, &res, &n, &dl), STORE_OK,
	    "still readable");
	ok(n == 2 && res[0].status == TS_PASS && res[1].status == TS_RUNNING,
	    "earlier result kept; failed one still marked running");
	store_results_free(res, n);
	store_close(st);
	diag_free(&dl);
}

static void
test_foreign_files(void)
{
	const char *tags[] = { "c01" };
	struct store_run *runs;
	struct diaglist dl;
	struct store *st;
	char junk[65536];
	size_t n, i;
	int fd, err;

	diag_init(&dl);
	fd = open(tmp_path("text.db"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	for (i = 0; i < 50; i++)
		(void)write(fd, "this is not a database at all\n", 30);
	close(fd);
	is_int(store_open(&st, tmp_path("text.db"), 0, &dl), STORE_ENOTADB,
	    "text file is not a database");
	has_str(tap_first_diag(&dl), "not a database", "message says so");
	has_str(tap_first_diag(&dl), "text.db", "and names the file");
	diag_free(&dl);

	/* Valid header, garbage pages: corrupt. */
	diag_init(&dl);
	store_open(&st, tmp_path("corrupt.db"), STORE_CREATE, &dl);
	begin_run(st, "c", tags, 1);
	store_close(st);	/* checkpoints the WAL into the file */
	/* Alone: the log kept beside it would hold good copies. */
	(void)snprintf(junk, sizeof(junk), "%s-wal", tmp_path("corrupt.db"));
	(void)unlink(junk);
	(void)snprintf(junk, sizeof(junk), "%s-shm", tmp_path("corrupt.db"));
	(void)unlink(junk);
	memset(junk, 0xa5, sizeof(junk));
	fd = open(tmp_path("corrupt.db"), O_WRONLY);
	/* Page 1 (the schema) stays; the tables' pages become junk. */
	(void)pwrite(fd, junk, sizeof(junk), 8192);
	close(fd);
	err = store_open(&st, tmp_path("corrupt.db"), 0, &dl);
	if (err == STORE_OK) {
		err = store_list_runs(st, &runs, &n, &dl);
		if (err == STORE_OK)
			store_runs_free(runs, n);
		store_close(st);
	}
	is_int(err, STORE_ECORRUPT, "damaged file reported corrupt");
	has_str(tap_first_diag(&dl), "corrupt", "message says corrupt");
	has_str(tap_first_diag(&dl), "corrupt.db", "and names the file");
	diag_free(&dl);
}

/* The queries the UI runs every screen are served by indexes. */
static void
test_indexes(void)
{
	static const char *const plans[][2] = {
	    { "EXPLAIN QUERY PLAN SELECT * FROM results WHERE tag = 'x' "
	      "ORDER BY run_id DESC LIMIT 5", "results_tag" },
	    { "EXPLAIN QUERY PLAN SELECT run_id, status, n FROM "
	      "run_counts WHERE run_id = 3", "PRIMARY KEY" },
	    { "EXPLAIN QUERY PLAN SELECT * FROM results WHERE run_id = 3 "
	      "ORDER BY seq", "results_run" },
	};
	struct diaglist dl;
	struct store *st;
	sqlite3_stmt *s;
	char plan[1024];
	size_t i;

	diag_init(&dl);
	store_open(&st, tmp_path("proto.db"), 0, &dl);
	for (i = 0; i < sizeof(plans) / sizeof(plans[0]); i++) {
		plan[0] = '\0';
		sqlite3_prepare_v2(store_sqlite_handle(st), plans[i][0], -1,
		    &s, NULL);
		while (sqlite3_step(s) == SQLITE_ROW) {
			strncat(plan, (const char *)sqlite3_column_text(s, 3),
			    sizeof(plan) - strlen(plan) - 2);
			strcat(plan, ";");
		}
		sqlite3_finalize(s);
		has_str(plan, plans[i][1], "query %zu uses %s", i,
		    plans[i][1]);
	}
	store_close(st);
	diag_free(&dl);
}

/*
 * Several ltpscopes creating one database at the same moment (several
 * --host, each a process): SQLite refuses the switch to WAL to all but
 * one without waiting, and each must wait and open all the same.
 */
/*
 * The runs' list counts the results the kernel marked in one pass over
 * kmsgs: the same counts as each run read alone, which counts them its
 * own way (a warning, a new taint; not lines alone, not an unknown
 * taint).
 */
static void
test_list_kmarked(void)
{
	static const char fill[] =
	    "INSERT INTO runs (id, label, arch, os_name, os_version, started,"
	    " ended, state) VALUES (1, 'a', 'amd64', 'NetBSD', '11.0', 1, 2,"
	    " 'finished'), (2, 'b', 'amd64', 'NetBSD', '11.0', 3, 4,"
	    " 'finished'), (3, 'c', 'amd64', 'NetBSD', '11.0', 5, 6,"
	    " 'finished');"
	    "INSERT INTO results (id, run_id, seq, tag, syscall, status,"
	    " started) VALUES (10, 1, 1, 'x01', 'x', 0, 0),"
	    " (11, 1, 2, 'x02', 'x', 0, 0), (12, 1, 3, 'x03', 'x', 0, 0),"
	    " (20, 2, 1, 'x01', 'x', 0, 0), (21, 2, 2, 'x02', 'x', 0, 0),"
	    " (30, 3, 1, 'x01', 'x', 0, 0);"
	    "INSERT INTO kmsgs (result_id, n_lines, n_warn, taint_before,"
	    " taint_after) VALUES (10, 1, 1, 0, 0), (11, 0, 0, 0, 512),"
	    " (12, 3, 0, 0, 0), (20, 0, 0, -1, 512), (21, 2, 2, 4, 4),"
	    " (30, 1, 0, 0, 0);";
	static const unsigned want[] = { 0, 1, 2 };	/* runs 3, 2, 1 */
	struct store_run *runs = NULL, one;
	struct diaglist dl;
	struct store *st;
	size_t n = 0, i;
	char *err = NULL;

	diag_init(&dl);
	if (store_open(&st, tmp_path("kmarked.db"), STORE_CREATE, &dl) !=
	    STORE_OK) {
		ok(0, "kmarked.db: %s", tap_first_diag(&dl));
		diag_free(&dl);
		return;
	}
	is_int(sqlite3_exec(store_sqlite_handle(st), fill, NULL, NULL, &err),
	    SQLITE_OK, "three runs, their results and the kernel's lines%s%s",
	    err != NULL ? ": " : "", err != NULL ? err : "");
	sqlite3_free(err);
	is_int(store_list_runs(st, &runs, &n, &dl), STORE_OK, "list runs");
	is_int(n, 3, "... all three");
	for (i = 0; i < n && i < 3; i++) {
		is_int(runs[i].nkmarked, want[i], "run %lld: %u marked by "
		    "the kernel", (long long)runs[i].id, want[i]);
		if (store_get_run(st, runs[i].id, &one, &dl) == STORE_OK) {
			is_int(one.nkmarked, runs[i].nkmarked,
			    "... as the run read alone says");
			store_run_clear(&one);
		}
	}
	store_runs_free(runs, n);
	store_close(st);
	diag_free(&dl);
}

static void
test_open_together(void)
{
	char path[1024];
	pid_t pids[6];
	int round, i, st, failed = 0, opened = 0;

	for (round = 0; round < 25; round++) {
		(void)snprintf(path, sizeof(path), "%s/together%d.db",
		    tap_tmpdir(), round);
		for (i = 0; i < 6; i++) {
			if ((pids[i] = fork()) == 0) {
				struct diaglist dl;
				struct store *s;

				diag_init(&dl);
				if (store_open(&s, path, STORE_CREATE, &dl) !=
				    STORE_OK) {
					fprintf(stderr, "# round %d: %s\n",
					    round, tap_first_diag(&dl));
					_exit(1);
				}
				store_close(s);
				_exit(0);
			}
		}
		for (i = 0; i < 6; i++) {
			if (pids[i] > 0 && waitpid(pids[i], &st, 0) ==
			    pids[i] && WIFEXITED(st) && WEXITSTATUS(st) == 0)
				opened++;
			else
				failed++;
		}
	}
	is_int(failed, 0, "six processes creating one database at once: "
	    "all %d opens succeed", opened + failed);
}

/* Rules that judge every result as it was. */
static void
judge_same(void *arg, struct store_judge *j)
{
	(void)arg;
	(void)j;
}

/* A result's judged digest, or "?" where there is none. */
static void
judged_of(struct store *st, int64_t id, char *buf, size_t len)
{
	sqlite3_stmt *s;

	snprintf(buf, len, "?");
	if (sqlite3_prepare_v2(store_sqlite_handle(st), "SELECT judged, "
	    "status FROM results WHERE id = ?", -1, &s, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW)
		snprintf(buf, len, "%s/%d", sqlite3_column_text(s, 0),
		    sqlite3_column_int(s, 1));
	sqlite3_finalize(s);
}

/*
 * A running row is written judged as the last result finished was,
 * so that its own finish, judged alike, does not move it in the
 * results_judged index; judging again never takes it for a result.
 */
static void
test_running_judged(void)
{
	static const char *const tags[] = { "j01", "j02", "j03" };
	struct store_result r;
	struct diaglist dl;
	struct store *st;
	int64_t run, id1, id2;
	unsigned nch = 99;
	char got[128], want[64];

	diag_init(&dl);
	if (store_open(&st, tmp_path("judged.db"), STORE_CREATE, &dl) !=
	    STORE_OK) {
		ok(0, "open judged.db: %s", tap_first_diag(&dl));
		return;
	}
	run = begin_run(st, "judged", tags, 3);
	store_test_start(st, run, "j01", "sys", 0, &id1, &dl);
	judged_of(st, id1, got, sizeof(got));
	snprintf(want, sizeof(want), "/%d", TS_RUNNING);
	is_str(got, want, "the first running row: judged by nothing yet");
	memset(&r, 0, sizeof(r));
	r.tag = (char *)"j01";
	r.status = TS_PASS;
	snprintf(r.judged, sizeof(r.judged), "digest-one");
	is_int(store_test_finish(st, id1, &r, "", 0, &dl), STORE_OK,
	    "j01 finishes, judged by digest-one");
	store_test_start(st, run, "j02", "sys", 1, &id2, &dl);
	judged_of(st, id2, got, sizeof(got));
	snprintf(want, sizeof(want), "digest-one/%d", TS_RUNNING);
	is_str(got, want, "the next running row is written judged alike");
	is_int(store_rejudge(st, "digest-two", judge_same, NULL, &nch, &dl),
	    STORE_OK, "judged again by other rules");
	judged_of(st, id2, got, sizeof(got));
	is_str(got, want, "the running row is left alone");
	judged_of(st, id1, got, sizeof(got));
	snprintf(want, sizeof(want), "digest-two/%d", TS_PASS);
	is_str(got, want, "the finished one is marked judged by them");
	store_close(st);
	diag_free(&dl);
}

int
main(void)
{
	test_create();
	test_fresh_schema();
	test_migrate_v1();
	test_bytes_and_cap();
	test_output_source();
	test_protocol_and_resume();
	test_two_writers();
	test_open_together();
	test_readonly_and_unwritable();
	test_full_disk();
	test_foreign_files();
	test_indexes();
	test_list_kmarked();
	test_wal_cycle();
	test_running_judged();
	test_wal_kept();
	test_wal_frames_whole();
	test_end_in_batch();
	test_default_path();	/* last: it changes HOME */
	return tap_done();
}
