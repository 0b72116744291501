/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The store's statements and transactions: SQLite's error codes turned
 * into messages a user can act on, statements prepared (and kept),
 * writes begun, committed and batched, and a database moved away under
 * a writer rescued.  Below the store's other files, store.c (which
 * opens the database) and store_schema.c (which migrates it) alike.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/xmalloc.h"
#include "store_impl.h"

int64_t
store_now(void)
{
	return (int64_t)time(NULL);
}

/*
 * Why path cannot be written, in words, into buf: SQLite says only
 * "read-only" or "cannot open", yet a database in write-ahead-log mode
 * needs its directory writable even to be read (for DB-shm), and a
 * read-only mount is no permission problem.  0 when nothing is found.
 */
static int
store_why_unwritable(const char *path, char *buf, size_t len)
{
	char *dir, *slash;
	int e = 0, what = 0;

	dir = xstrdup(path);
	if ((slash = strrchr(dir, '/')) == NULL)
		(void)strcpy(dir, ".");
	else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	if (access(path, W_OK) == -1 && errno != ENOENT) {
		e = errno;
		what = 1;
	} else if ((e = store_log_unwritable(path)) != 0)
		what = 3;
	else if (access(dir, W_OK) == -1) {
		e = errno;
		what = 2;
	}
	if (e != EROFS && e != EACCES && e != EPERM)
		what = 0;
	else if (e == EROFS)
		(void)snprintf(buf, len, "it is on a read-only file system "
		    "(%s): use a copy on a writable one", dir);
	else if (what == 1)
		(void)snprintf(buf, len, "the file is not writable for this "
		    "user (%s): check its owner and mode", strerror(e));
	else if (what == 3)
		(void)snprintf(buf, len, "its log (%s-wal, %s-shm, which "
		    "stay beside it) is not writable for this user (%s): "
		    "check their owner and mode", path, path, strerror(e));
	else if (what == 2)
		(void)snprintf(buf, len, "its directory %s is not writable "
		    "for this user (%s), and SQLite needs to make files "
		    "beside the database (DB-wal, DB-shm) even to read it: "
		    "check the directory's owner and mode", dir, strerror(e));
	free(dir);
	return what != 0;
}

/*
 * The errno that keeps this user from writing path's log (DB-wal,
 * DB-shm), if it is there: a store keeps it when it closes (store.c),
 * with the owner of whoever made it.  0 when there is none, or it is
 * writable.
 */
int
store_log_unwritable(const char *path)
{
	static const char *const ext[] = { "-wal", "-shm" };
	char *p;
	size_t i;
	int e = 0;

	for (i = 0; i < sizeof(ext) / sizeof(ext[0]) && e == 0; i++) {
		xasprintf(&p, "%s%s", path, ext[i]);
		if (access(p, W_OK) == -1 && (errno == EACCES ||
		    errno == EPERM || errno == EROFS))
			e = errno;
		free(p);
	}
	return e;
}

/*
 * Records what went wrong while doing something, in words that say what
 * to do about it, and maps the SQLite code to a store_err.
 */
int
store_sqlerr(struct store *st, struct diaglist *dl, int rc,
    const char *fmt, ...)
{
	char doing[512], why[768], reason[512];
	const char *emsg;
	va_list ap;
	int err, syserr;

	va_start(ap, fmt);
	(void)vsnprintf(doing, sizeof(doing), fmt, ap);
	va_end(ap);
	emsg = st->db != NULL ? sqlite3_errmsg(st->db) : sqlite3_errstr(rc);
	syserr = st->db != NULL ? sqlite3_system_errno(st->db) : 0;
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		err = STORE_ELOCKED;
		(void)snprintf(why, sizeof(why), "the database is locked by "
		    "another ltpscope (waited %d ms); try again when it is "
		    "done", st->busy_ms);
		break;
	case SQLITE_READONLY:
		err = STORE_EREADONLY;
		if (store_why_unwritable(st->path, reason, sizeof(reason)))
			(void)snprintf(why, sizeof(why), "the database is "
			    "read-only: %s", reason);
		else
			(void)snprintf(why, sizeof(why), "the database is "
			    "read-only (check the permissions of the file and "
			    "its directory)");
		break;
	case SQLITE_CANTOPEN:
		err = STORE_ECANTOPEN;
		if (store_why_unwritable(st->path, reason, sizeof(reason))) {
			err = STORE_EREADONLY;
			(void)snprintf(why, sizeof(why), "cannot open the "
			    "database: %s", reason);
		} else
			(void)snprintf(why, sizeof(why), "cannot open or "
			    "create the database file: %s", syserr != 0 ?
			    strerror(syserr) : emsg);
		break;
	case SQLITE_FULL:
		err = STORE_EFULL;
		(void)snprintf(why, sizeof(why), "the disk is full; nothing "
		    "committed earlier is lost");
		break;
	case SQLITE_CORRUPT:
		err = STORE_ECORRUPT;
		(void)snprintf(why, sizeof(why), "the database file is "
		    "corrupt (sqlite3's .recover command may save what is "
		    "left)");
		break;
	case SQLITE_NOTADB:
		err = STORE_ENOTADB;
		(void)snprintf(why, sizeof(why), "the file is not a "
		    "database (not an SQLite file)");
		break;
	case SQLITE_IOERR:
		err = STORE_EIO;
		(void)snprintf(why, sizeof(why), "I/O error: %s",
		    syserr != 0 ? strerror(syserr) : emsg);
		break;
	default:
		err = STORE_EIO;
		(void)snprintf(why, sizeof(why), "%s", emsg);
		break;
	}
	diag_error(dl, st->path, 0, "%s: %s", doing, why);
	return err;
}

int
store_exec(struct store *st, const char *sql, struct diaglist *dl)
{
	int rc;

	if ((rc = sqlite3_exec(st->db, sql, NULL, NULL, NULL)) != SQLITE_OK)
		return store_sqlerr(st, dl, rc, "cannot run '%.40s'", sql);
	return STORE_OK;
}

int
store_prepare(struct store *st, sqlite3_stmt **sp, const char *sql,
    struct diaglist *dl)
{
	int rc;

	rc = sqlite3_prepare_v2(st->db, sql, -1, sp, NULL);
	if (rc != SQLITE_OK) {
		*sp = NULL;
		return store_sqlerr(st, dl, rc, "cannot read the database");
	}
	return STORE_OK;
}

/*
 * The statement kept for id, ready to bind: prepared (persistent) on
 * first use, reset and unbound by store_stmt_done() after each use.
 */
int
store_prepare_kept(struct store *st, enum store_stmt id, sqlite3_stmt **sp,
    const char *sql, struct diaglist *dl)
{
	int rc;

	if (st->stmt[id] == NULL) {
		rc = sqlite3_prepare_v3(st->db, sql, -1,
		    SQLITE_PREPARE_PERSISTENT, &st->stmt[id], NULL);
		if (rc != SQLITE_OK) {
			st->stmt[id] = NULL;
			*sp = NULL;
			return store_sqlerr(st, dl, rc,
			    "cannot read the database");
		}
	}
	*sp = st->stmt[id];
	return STORE_OK;
}

/* Finalizes s, or resets it for its next use if the store keeps it. */
void
store_stmt_done(struct store *st, sqlite3_stmt *s)
{
	size_t i;

	for (i = 0; s != NULL && i < SS__COUNT; i++)
		if (st->stmt[i] == s) {
			/* reset() keeps the error of the last step(). */
			(void)sqlite3_reset(s);
			(void)sqlite3_clear_bindings(s);
			return;
		}
	(void)sqlite3_finalize(s);
}

/* One of the kept statements that return no rows: an SQLite code. */
static int
store_exec_kept(struct store *st, enum store_stmt id, const char *sql)
{
	sqlite3_stmt *s;
	int rc;

	if (st->stmt[id] == NULL && (rc = sqlite3_prepare_v3(st->db, sql, -1,
	    SQLITE_PREPARE_PERSISTENT, &st->stmt[id], NULL)) != SQLITE_OK) {
		st->stmt[id] = NULL;
		return rc;
	}
	s = st->stmt[id];
	rc = sqlite3_step(s);
	(void)sqlite3_reset(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/*
 * BEGIN IMMEDIATE takes the write lock up front, so a second writer
 * waits in busy_timeout here instead of failing halfway through with
 * SQLITE_BUSY when it upgrades a read transaction.
 */
/*
 * In a batch (store_batch_begin) a step is a savepoint of one open
 * transaction: it still succeeds or fails whole, and the batch's one
 * COMMIT (one fsync) makes all its steps durable together.
 */
/*
 * In the copy store_check_moved() saved: this process's runs stopped
 * on an error, not a crash.  The tests they were running had not
 * taken the system down (their results were being stored when the
 * move was seen, or they were stopped with the run), so their
 * "running" rows go, and --resume runs them again instead of blaming
 * one as the culprit.  0, or -1.
 */
static int
store_rescued_stop(const char *path)
{
	sqlite3 *h;
	char sql[512];
	int rc;

	(void)snprintf(sql, sizeof(sql), "PRAGMA foreign_keys=ON; BEGIN; "
	    "DELETE FROM results WHERE status = " SQL_TS_RUNNING " AND "
	    "run_id IN (SELECT id FROM runs WHERE state = 'running' AND "
	    "pid = %ld); UPDATE runs SET state = 'interrupted', ended = "
	    "%lld WHERE state = 'running' AND pid = %ld; COMMIT",
	    (long)getpid(), (long long)store_now(), (long)getpid());
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READWRITE, NULL) !=
	    SQLITE_OK) {
		(void)sqlite3_close(h);
		return -1;
	}
	(void)sqlite3_busy_timeout(h, STORE_BUSY_TIMEOUT_MS);
	rc = sqlite3_exec(h, sql, NULL, NULL, NULL);
	(void)sqlite3_close(h);
	return rc == SQLITE_OK ? 0 : -1;
}

/*
 * A database deleted (or renamed, or replaced) while open keeps taking
 * writes, to a file nobody will ever see again: checked before each
 * transaction, and what the open file holds is copied back to the path
 * (or beside whatever now stands there) so that nothing is lost.
 */
static int
store_check_moved(struct store *st, struct diaglist *dl)
{
	sqlite3_stmt *s;
	char *to;
	int moved = 0, rc;

	if (sqlite3_file_control(st->db, "main", SQLITE_FCNTL_HAS_MOVED,
	    &moved) != SQLITE_OK || !moved)
		return STORE_OK;
	if (access(st->path, F_OK) == 0)
		xasprintf(&to, "%s.rescued-%ld", st->path, (long)getpid());
	else
		to = xstrdup(st->path);
	rc = sqlite3_prepare_v2(st->db, "VACUUM INTO ?", -1, &s, NULL);
	if (rc == SQLITE_OK) {
		(void)sqlite3_bind_text(s, 1, to, -1, SQLITE_STATIC);
		rc = sqlite3_step(s);
		(void)sqlite3_finalize(s);
	}
	if (rc == SQLITE_DONE || rc == SQLITE_OK)
		diag_error(dl, st->path, 0, "the database file was deleted or "
		    "replaced while in use; stopped writing, and saved "
		    "everything it held to %s (go on with: ltpscope run "
		    "--resume -d %s%s)", to, to, store_rescued_stop(to) == 0 ?
		    "; the tests running then run again" : "");
	else
		diag_error(dl, st->path, 0, "the database file was deleted or "
		    "replaced while in use; stopped writing, and could not "
		    "save what it held to %s: %s", to, sqlite3_errmsg(st->db));
	free(to);
	return STORE_EIO;
}

int
store_begin_write(struct store *st, struct diaglist *dl)
{
	int rc, err;

	if (!st->intx && (err = store_check_moved(st, dl)) != STORE_OK)
		return err;
	if (st->batch && !st->intx) {
		rc = store_exec_kept(st, SS_BEGIN, "BEGIN IMMEDIATE");
		if (rc != SQLITE_OK)
			return store_sqlerr(st, dl, rc, "cannot start writing");
		st->intx = 1;
	}
	rc = st->batch ? store_exec_kept(st, SS_SAVEPOINT, "SAVEPOINT step") :
	    store_exec_kept(st, SS_BEGIN, "BEGIN IMMEDIATE");
	if (rc != SQLITE_OK)
		return store_sqlerr(st, dl, rc, "cannot start writing");
	st->instep = st->batch;
	return STORE_OK;
}

int
store_commit(struct store *st, struct diaglist *dl)
{
	int rc;

	rc = st->instep ? store_exec_kept(st, SS_RELEASE, "RELEASE step") :
	    store_exec_kept(st, SS_COMMIT, "COMMIT");
	if (rc != SQLITE_OK) {
		store_rollback(st);
		return store_sqlerr(st, dl, rc, "cannot commit");
	}
	st->instep = 0;
	return STORE_OK;
}

void
store_rollback(struct store *st)
{
	if (st->instep) {
		(void)sqlite3_exec(st->db, "ROLLBACK TO step; RELEASE step",
		    NULL, NULL, NULL);
		st->instep = 0;
		return;
	}
	if (!sqlite3_get_autocommit(st->db))
		(void)sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	st->intx = 0;
	st->unlock_run = 0;
}

void
store_batch_begin(struct store *st)
{
	st->batch = 1;
}

int
store_batch_commit(struct store *st, struct diaglist *dl)
{
	int rc;

	int64_t ended = st->unlock_run;

	if (!st->intx)
		return STORE_OK;
	st->intx = 0;
	st->unlock_run = 0;
	rc = store_exec_kept(st, SS_COMMIT, "COMMIT");
	if (rc != SQLITE_OK) {
		if (!sqlite3_get_autocommit(st->db))
			(void)sqlite3_exec(st->db, "ROLLBACK", NULL, NULL,
			    NULL);
		return store_sqlerr(st, dl, rc, "cannot commit");
	}
	if (ended != 0)
		store_unlock_run(st, ended);
	return STORE_OK;
}

int
store_batch_end(struct store *st, struct diaglist *dl)
{
	int err = store_batch_commit(st, dl);

	st->batch = 0;
	return err;
}

char *
store_col_str(sqlite3_stmt *s, int i)
{
	const unsigned char *t = sqlite3_column_text(s, i);

	return xstrdup(t != NULL ? (const char *)t : "");
}
