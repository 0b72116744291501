/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The results store: opening the database, the pragmas that make it
 * crash-safe, and the default location.  Statements, transactions and
 * SQLite's errors in words live in store_sql.c, writing in
 * store_write.c, queries in store_query.c, the schema in store_schema.c.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
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
	int rc, err, persist = 1;

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
	if (!st->readonly) {
		(void)sqlite3_wal_hook(st->db, store_wal_hook, st);
		(void)sqlite3_file_control(st->db, "main",
		    SQLITE_FCNTL_PERSIST_WAL, &persist);
	}
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
	    store_vfs_name());
	if (rc != SQLITE_OK) {
		err = store_sqlerr(st, dl, rc, "cannot open the database");
		store_close(st);
		return err;
	}
	(void)sqlite3_extended_result_codes(st->db, 1);
	/* A file we may not write opens read-only without complaint. */
	if (sqlite3_db_readonly(st->db, "main") == 1)
		st->readonly = 1;
	if ((flags & STORE_WRITE) && (st->readonly ||
	    store_log_unwritable(path))) {
		err = store_sqlerr(st, dl, SQLITE_READONLY,
		    "cannot write to the database");
		store_close(st);
		return err;
	}
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
	(void)sqlite3_blob_close(st->outblob);
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
