/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The results store: opening the database, the pragmas that make it
 * crash-safe, the default location, and turning SQLite's error codes
 * into messages a user can act on.  Writing lives in store_write.c,
 * queries in store_query.c, the schema in store_schema.c.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/xmalloc.h"
#include "store_impl.h"

/* SQLite's default autocheckpoint, which store_wal_hook() keeps. */
#define STORE_WAL_AUTOCHECKPOINT	1000

static const char *const run_state_names[RUN__COUNT] = {
	"running", "finished", "interrupted", "resumed"
};

const char *
store_run_state_name(enum store_run_state s)
{
	return (unsigned)s < RUN__COUNT ? run_state_names[s] : "?";
}

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
	} else if (access(dir, W_OK) == -1) {
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
	else if (what == 2)
		(void)snprintf(buf, len, "its directory %s is not writable "
		    "for this user (%s), and SQLite needs to make files "
		    "beside the database (DB-wal, DB-shm) even to read it: "
		    "check the directory's owner and mode", dir, strerror(e));
	free(dir);
	return what != 0;
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

	if (!st->intx)
		return STORE_OK;
	st->intx = 0;
	rc = store_exec_kept(st, SS_COMMIT, "COMMIT");
	if (rc != SQLITE_OK) {
		if (!sqlite3_get_autocommit(st->db))
			(void)sqlite3_exec(st->db, "ROLLBACK", NULL, NULL,
			    NULL);
		return store_sqlerr(st, dl, rc, "cannot commit");
	}
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

int
store_default_path(char **pathp, struct diaglist *dl)
{
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	const char *db = getenv("LTPSCOPE_DB");

	*pathp = NULL;
	/* The explorer hands its database to the commands it runs this way. */
	if (db != NULL && db[0] != '\0') {
		*pathp = xstrdup(db);
		return STORE_OK;
	}
	if (xdg != NULL && xdg[0] == '/') {
		(void)xasprintf(pathp, "%s/ltpscope/ltpscope.db", xdg);
		return STORE_OK;
	}
	if (home != NULL && home[0] != '\0') {
		(void)xasprintf(pathp, "%s/.local/share/ltpscope/ltpscope.db",
		    home);
		return STORE_OK;
	}
	diag_error(dl, NULL, 0, "cannot find the results database: neither "
	    "XDG_DATA_HOME nor HOME is set; use -d FILE");
	return STORE_EINVAL;
}

/* mkdir -p of the directory holding path, private to its owner. */
static int
store_mkdirs(const char *path, struct diaglist *dl)
{
	struct stat sb;
	char *dir, *p;
	int err = STORE_OK, last;

	dir = xstrdup(path);
	if ((p = strrchr(dir, '/')) == NULL || p == dir) {
		free(dir);
		return STORE_OK;
	}
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		last = *p == '\0';
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			diag_error(dl, path, 0, "cannot create the directory "
			    "%s: %s", dir, strerror(errno));
			err = errno == EROFS || errno == EACCES ?
			    STORE_EREADONLY : STORE_ECANTOPEN;
			break;
		}
		if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
			diag_error(dl, path, 0, "cannot create the directory "
			    "%s: %s", dir, strerror(ENOTDIR));
			err = STORE_ECANTOPEN;
			break;
		}
		if (last)
			break;
		*p = '/';
	}
	free(dir);
	return err;
}

/*
 * Two ltpscopes opening a new database at once (several --host, a tag
 * beside a starting run) both ask for WAL.  SQLite answers the loser
 * SQLITE_BUSY at once, without calling the busy handler (it would
 * deadlock against the winner's read lock), so the busy timeout is
 * honoured here, by hand.
 */
static int
store_wal(struct store *st)
{
	struct timespec ts;
	long waited_us = 0, step_us = 1000;
	int rc;

	for (;;) {
		rc = sqlite3_exec(st->db, "PRAGMA journal_mode=WAL", NULL,
		    NULL, NULL);
		if ((rc & 0xff) != SQLITE_BUSY ||
		    waited_us >= (long)st->busy_ms * 1000)
			return rc;
		ts.tv_sec = step_us / 1000000;
		ts.tv_nsec = (step_us % 1000000) * 1000;
		(void)nanosleep(&ts, NULL);
		waited_us += step_us;
		if (step_us < 50000)
			step_us *= 2;
	}
}

static void
store_checkpoint(struct store *st, const char *name)
{
	int log = 0, done = 0;

	/* Passive: never waits for, nor stops, another process. */
	if (sqlite3_wal_checkpoint_v2(st->db, name, SQLITE_CHECKPOINT_PASSIVE,
	    &log, &done) == SQLITE_OK && done >= log)
		st->wal_frames = 0;
}

/*
 * After each commit of this connection: how long the log is, for
 * store_checkpoint_idle().  Setting the hook replaces SQLite's own
 * autocheckpoint, which this does as it did (same size, passive).
 */
static int
store_wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	struct store *st = arg;

	st->wal_frames = frames;
	if (frames >= STORE_WAL_AUTOCHECKPOINT)
		store_checkpoint(st, name);
	return SQLITE_OK;
}

void
store_checkpoint_idle(struct store *st)
{
	if (!st->readonly && !st->intx && st->wal_frames >= STORE_WAL_CYCLE)
		store_checkpoint(st, "main");
}

int
store_sync_each(struct store *st, int each, struct diaglist *dl)
{
	sqlite3_file *wal = NULL;
	int err, rc;

	if (st->readonly)
		return STORE_OK;
	if ((err = store_exec(st, each ? "PRAGMA synchronous=FULL" :
	    "PRAGMA synchronous=NORMAL", dl)) != STORE_OK || !each)
		return err;
	/*
	 * SQLite's own handle on the log: an fd of ours on it would drop
	 * the process's POSIX locks on that file when closed.
	 */
	if (sqlite3_file_control(st->db, "main", SQLITE_FCNTL_JOURNAL_POINTER,
	    &wal) != SQLITE_OK || wal == NULL || wal->pMethods == NULL)
		return STORE_OK;
	if ((rc = wal->pMethods->xSync(wal, SQLITE_SYNC_FULL)) != SQLITE_OK)
		return store_sqlerr(st, dl, rc, "cannot sync the log");
	return STORE_OK;
}

/*
 * WAL keeps readers off the writer's back and, with synchronous=FULL,
 * makes every commit durable across power loss and kernel panics, not
 * only kill -9.  foreign_keys must be set per connection.
 */
static int
store_pragmas(struct store *st, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int rc, err;

	(void)sqlite3_busy_timeout(st->db, st->busy_ms);
	if ((err = store_exec(st, "PRAGMA foreign_keys=ON", dl)) != STORE_OK)
		return err;
	/* The first real read: a non-database fails here. */
	if ((err = store_prepare(st, &s, "PRAGMA user_version", dl)) !=
	    STORE_OK)
		return err;
	rc = sqlite3_step(s);
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return store_sqlerr(st, dl, rc, "cannot read the database");
	if (!st->readonly && (rc = store_wal(st)) != SQLITE_OK)
		return store_sqlerr(st, dl, rc,
		    "cannot switch to write-ahead logging");
	if (!st->readonly)
		(void)sqlite3_wal_hook(st->db, store_wal_hook, st);
	return store_exec(st, "PRAGMA synchronous=FULL", dl);
}

int
store_open(struct store **stp, const char *path, int flags,
    struct diaglist *dl)
{
	struct store *st;
	int oflags, rc, err;

	*stp = NULL;
	if ((flags & STORE_MKDIRS) &&
	    (err = store_mkdirs(path, dl)) != STORE_OK)
		return err;
	st = xcalloc(1, sizeof(*st));
	st->path = xstrdup(path);
	(void)xasprintf(&st->lockpath, "%s-lock", path);
	st->output_cap = STORE_OUTPUT_CAP;
	st->busy_ms = STORE_BUSY_TIMEOUT_MS;
	st->readonly = (flags & STORE_READONLY) != 0;
	if (st->readonly)
		oflags = SQLITE_OPEN_READONLY;
	else
		oflags = SQLITE_OPEN_READWRITE |
		    ((flags & STORE_CREATE) ? SQLITE_OPEN_CREATE : 0);
	rc = sqlite3_open_v2(path, &st->db, oflags | SQLITE_OPEN_NOMUTEX,
	    NULL);
	if (rc != SQLITE_OK) {
		err = store_sqlerr(st, dl, rc, "cannot open the database");
		store_close(st);
		return err;
	}
	(void)sqlite3_extended_result_codes(st->db, 1);
	/* A file we may not write opens read-only without complaint. */
	if (sqlite3_db_readonly(st->db, "main") == 1)
		st->readonly = 1;
	if ((err = store_pragmas(st, dl)) != STORE_OK ||
	    (err = store_migrate(st, dl)) != STORE_OK) {
		store_close(st);
		return err;
	}
	*stp = st;
	return STORE_OK;
}

void
store_close(struct store *st)
{
	size_t i;

	if (st == NULL)
		return;
	store_unlock_all(st);
	for (i = 0; i < SS__COUNT; i++)
		(void)sqlite3_finalize(st->stmt[i]);
	if (st->db != NULL)
		(void)sqlite3_close_v2(st->db);
	free(st->path);
	free(st->lockpath);
	free(st);
}

int
store_open_db(struct store **stp, const char *db, int flags, char **pathp,
    struct diaglist *dl)
{
	struct stat sb;
	char *path = NULL;
	int err;

	*stp = NULL;
	if (pathp != NULL)
		*pathp = NULL;
	if (db != NULL)
		path = xstrdup(db);
	else if ((err = store_default_path(&path, dl)) != STORE_OK)
		return err;
	if ((flags & STORE_IF_EXISTS) && stat(path, &sb) != 0 &&
	    errno == ENOENT)
		err = STORE_OK;
	else
		err = store_open(stp, path, flags & ~STORE_IF_EXISTS, dl);
	if (pathp != NULL)
		*pathp = path;
	else
		free(path);
	return err;
}

const char *
store_path(const struct store *st)
{
	return st->path;
}

int
store_schema_version(struct store *st)
{
	sqlite3_stmt *s;
	int v = -1;

	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s,
	    NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	(void)sqlite3_finalize(s);
	return v;
}

void
store_set_output_cap(struct store *st, size_t cap)
{
	st->output_cap = cap != 0 ? cap : STORE_OUTPUT_CAP;
}

void
store_set_busy_timeout(struct store *st, int ms)
{
	st->busy_ms = ms;
	(void)sqlite3_busy_timeout(st->db, ms);
}

void *
store_sqlite_handle(struct store *st)
{
	return st->db;
}
