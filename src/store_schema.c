/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The store's schema and its migrations.  PRAGMA user_version holds the
 * number of steps applied; opening an older file applies the missing
 * steps in one transaction, and a newer file is refused rather than
 * misread.  Steps are append only: never edit one that has shipped.
 *
 * Later tables (triage tags, baselines) are steps of their own.
 */
#include <stdio.h>

#include "store_impl.h"

/*
 * What a step creates and the fresh schema (below) creates too, spelled
 * once: the columns of step 1's tables, which later steps add to, and
 * whole tables, indexes and triggers.
 */
#define SQL_RUNS_COLUMNS \
	"  id INTEGER PRIMARY KEY," \
	"  host TEXT NOT NULL DEFAULT ''," \
	"  uname TEXT NOT NULL DEFAULT ''," \
	"  os_name TEXT NOT NULL DEFAULT ''," \
	"  os_version TEXT NOT NULL DEFAULT ''," \
	"  arch TEXT NOT NULL DEFAULT ''," \
	"  ltp_version TEXT NOT NULL DEFAULT ''," \
	"  label TEXT NOT NULL DEFAULT ''," \
	"  timeout_s INTEGER NOT NULL DEFAULT 0," \
	"  started INTEGER NOT NULL," \
	"  ended INTEGER," \
	"  state TEXT NOT NULL CHECK (state IN" \
	"    ('running', 'finished', 'interrupted', 'resumed'))"

#define SQL_QUEUE_COLUMNS \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  pos INTEGER NOT NULL," \
	"  tag TEXT NOT NULL," \
	"  syscall TEXT NOT NULL DEFAULT ''," \
	"  cmdline TEXT NOT NULL DEFAULT '',"

#define SQL_RESULTS_COLUMNS \
	"  id INTEGER PRIMARY KEY," \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  seq INTEGER NOT NULL," \
	"  tag TEXT NOT NULL," \
	"  syscall TEXT NOT NULL DEFAULT ''," \
	"  status INTEGER NOT NULL," \
	"  exit_code INTEGER NOT NULL DEFAULT 0," \
	"  signal INTEGER NOT NULL DEFAULT 0," \
	"  duration_ms INTEGER NOT NULL DEFAULT 0," \
	"  n_pass INTEGER NOT NULL DEFAULT 0," \
	"  n_fail INTEGER NOT NULL DEFAULT 0," \
	"  n_broken INTEGER NOT NULL DEFAULT 0," \
	"  n_conf INTEGER NOT NULL DEFAULT 0," \
	"  n_warn INTEGER NOT NULL DEFAULT 0," \
	"  started INTEGER NOT NULL," \
	"  ended INTEGER"

#define SQL_META \
	"CREATE TABLE meta (" \
	"  key TEXT PRIMARY KEY," \
	"  value TEXT NOT NULL);"

#define SQL_RUN_COUNTS \
	"CREATE TABLE run_counts (" \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  status INTEGER NOT NULL," \
	"  n INTEGER NOT NULL," \
	"  PRIMARY KEY (run_id, status)) WITHOUT ROWID;"

#define SQL_LATEST \
	"CREATE TABLE latest (" \
	"  tag TEXT PRIMARY KEY," \
	"  result_id INTEGER NOT NULL) WITHOUT ROWID;"

/* What both results triggers do for the row as it now is. */
#define SQL_COUNT_NEW \
	"  INSERT INTO run_counts VALUES (NEW.run_id, NEW.status, 1)" \
	"    ON CONFLICT (run_id, status) DO UPDATE SET n = n + 1;"
#define SQL_LATEST_NEW \
	"  INSERT INTO latest SELECT NEW.tag, NEW.id WHERE NEW.status <> " \
	    SQL_TS_RUNNING \
	"    ON CONFLICT (tag) DO UPDATE SET result_id = excluded.result_id" \
	"    WHERE excluded.result_id > result_id;"

#define SQL_RESULTS_TRIGGERS \
	"CREATE TRIGGER results_ai AFTER INSERT ON results BEGIN" \
	SQL_COUNT_NEW \
	SQL_LATEST_NEW \
	"END;" \
	"CREATE TRIGGER results_au AFTER UPDATE OF status ON results" \
	"  WHEN OLD.status <> NEW.status BEGIN" \
	"  UPDATE run_counts SET n = n - 1" \
	"    WHERE run_id = OLD.run_id AND status = OLD.status;" \
	SQL_COUNT_NEW \
	SQL_LATEST_NEW \
	"END;" \
	"CREATE TRIGGER results_ad AFTER DELETE ON results BEGIN" \
	"  UPDATE run_counts SET n = n - 1" \
	"    WHERE run_id = OLD.run_id AND status = OLD.status;" \
	"  DELETE FROM latest WHERE tag = OLD.tag AND result_id = OLD.id;" \
	"  INSERT INTO latest SELECT tag, max(id) FROM results" \
	"    WHERE tag = OLD.tag AND status <> " SQL_TS_RUNNING " GROUP BY tag" \
	"    ON CONFLICT (tag) DO NOTHING;" \
	"END;"

#define SQL_TAGS_BASELINES \
	"CREATE TABLE tags (" \
	"  id INTEGER PRIMARY KEY," \
	"  tag TEXT NOT NULL," \
	"  line BLOB NOT NULL DEFAULT x''," \
	"  category TEXT NOT NULL," \
	"  note BLOB NOT NULL DEFAULT x''," \
	"  author TEXT NOT NULL DEFAULT ''," \
	"  created INTEGER NOT NULL," \
	"  run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL," \
	"  status_at INTEGER NOT NULL DEFAULT -1," \
	"  resolved INTEGER NOT NULL DEFAULT 0," \
	"  UNIQUE (tag, line));" \
	"CREATE TABLE baselines (" \
	"  arch TEXT PRIMARY KEY," \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  set_at INTEGER NOT NULL);"

#define SQL_PROFILES \
	"CREATE TABLE profiles (" \
	"  id INTEGER PRIMARY KEY," \
	"  name TEXT NOT NULL UNIQUE," \
	"  source TEXT NOT NULL DEFAULT ''," \
	"  format TEXT NOT NULL DEFAULT ''," \
	"  emul TEXT NOT NULL DEFAULT ''," \
	"  imported INTEGER NOT NULL);" \
	"CREATE TABLE profile_calls (" \
	"  profile_id INTEGER NOT NULL" \
	"    REFERENCES profiles(id) ON DELETE CASCADE," \
	"  name TEXT NOT NULL," \
	"  count INTEGER NOT NULL," \
	"  nerrors INTEGER NOT NULL DEFAULT 0," \
	"  flags TEXT NOT NULL DEFAULT ''," \
	"  PRIMARY KEY (profile_id, name)) WITHOUT ROWID;" \
	"CREATE TABLE profile_errors (" \
	"  profile_id INTEGER NOT NULL" \
	"    REFERENCES profiles(id) ON DELETE CASCADE," \
	"  name TEXT NOT NULL," \
	"  errno TEXT NOT NULL," \
	"  count INTEGER NOT NULL," \
	"  PRIMARY KEY (profile_id, name, errno)) WITHOUT ROWID;"

#define SQL_LINUX_REFS \
	"CREATE TABLE linux_refs (" \
	"  arch TEXT PRIMARY KEY," \
	"  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE," \
	"  set_at INTEGER NOT NULL);"

#define SQL_OUTPUTS_COLUMNS \
	"  result_id INTEGER PRIMARY KEY" \
	"    REFERENCES results(id) ON DELETE CASCADE," \
	"  stored_size INTEGER NOT NULL," \
	"  original_size INTEGER NOT NULL," \
	"  capped INTEGER NOT NULL DEFAULT 0," \
	"  data BLOB NOT NULL);"

#define SQL_RESULTS_REJUDGE_INDEXES \
	"CREATE INDEX results_envmark ON results(run_id)" \
	"  WHERE n_envwarn > 0 AND status IN (" SQL_TS_PASS ", " SQL_TS_CONF \
	    ");" \
	"CREATE INDEX results_judged ON results(judged);"

#define SQL_KMSGS \
	"CREATE TABLE kmsgs (" \
	"  result_id INTEGER PRIMARY KEY" \
	"    REFERENCES results(id) ON DELETE CASCADE," \
	"  n_lines INTEGER NOT NULL DEFAULT 0," \
	"  n_warn INTEGER NOT NULL DEFAULT 0," \
	"  n_lost INTEGER NOT NULL DEFAULT 0," \
	"  taint_before INTEGER NOT NULL DEFAULT -1," \
	"  taint_after INTEGER NOT NULL DEFAULT -1," \
	"  capped INTEGER NOT NULL DEFAULT 0," \
	"  text BLOB NOT NULL DEFAULT x'');"

#define SQL_KINDEX \
	"CREATE TABLE kindex_files (" \
	"  sysdir TEXT NOT NULL," \
	"  path TEXT NOT NULL," \
	"  mtime_ns INTEGER NOT NULL," \
	"  size INTEGER NOT NULL," \
	"  defs TEXT NOT NULL," \
	"  PRIMARY KEY (sysdir, path)) WITHOUT ROWID;"

static const char *const store_migrations[] = {
	/* 1: runs, their queues, results and outputs. */
	SQL_META
	"CREATE TABLE runs ("
	SQL_RUNS_COLUMNS
	");"
	"CREATE TABLE queue ("
	SQL_QUEUE_COLUMNS
	"  PRIMARY KEY (run_id, pos));"
	"CREATE TABLE results ("
	SQL_RESULTS_COLUMNS
	");"
	"CREATE INDEX results_run ON results(run_id, seq);"
	"CREATE TABLE outputs ("
	"  result_id INTEGER PRIMARY KEY"
	"    REFERENCES results(id) ON DELETE CASCADE,"
	"  data BLOB NOT NULL,"
	"  stored_size INTEGER NOT NULL,"
	"  original_size INTEGER NOT NULL,"
	"  capped INTEGER NOT NULL DEFAULT 0);",

	/*
	 * 2: who runs a run (pid, config), and what keeps the UI instant
	 * on hundreds of runs: an index for history strips, and per-run
	 * counts and the latest result of each test kept up to date by
	 * triggers, in the same transaction as the change, so they can
	 * never disagree with the results.
	 */
	"ALTER TABLE runs ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE runs ADD COLUMN config TEXT NOT NULL DEFAULT '';"
	"CREATE INDEX results_tag ON results(tag, run_id);"
	"CREATE INDEX runs_state ON runs(state);"
	SQL_RUN_COUNTS
	"INSERT INTO run_counts SELECT run_id, status, count(*)"
	"  FROM results GROUP BY run_id, status;"
	SQL_LATEST
	"INSERT INTO latest SELECT tag, max(id) FROM results"
	"  WHERE status <> " SQL_TS_RUNNING " GROUP BY tag;"
	SQL_RESULTS_TRIGGERS,

	/*
	 * 3: triage.  A tag is a category and a note on a test (or on one
	 * failing line of it, line '' meaning the whole test), made by
	 * someone on some run; it carries forward to later runs by test
	 * name.  status_at is the test's status when it was tagged, so a
	 * later pass shows it "resolved?"; resolved is set when a user
	 * confirms that.  The note is a BLOB: any bytes come back exact.
	 * A baseline is one run per arch that compare measures against.
	 */
	SQL_TAGS_BASELINES,

	/*
	 * 4: verdicts judged again when the rules change.  raw holds the
	 * verdict's inputs (ltpout_raw_format(): how the test ended, the
	 * per-class counts, the Summary), n_envwarn the TWARN lines the
	 * rules called the environment's, judged a fingerprint of those
	 * rules.  Older rows have raw '' and judged '': judged again from
	 * their stored output on the next open; results_judged finds them
	 * without reading every row.  The partial index counts a run's
	 * results with the "env warning" mark (pass 0, conf 3).
	 */
	"ALTER TABLE results ADD COLUMN raw TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE results ADD COLUMN n_envwarn INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE results ADD COLUMN judged TEXT NOT NULL DEFAULT '';"
	SQL_RESULTS_REJUDGE_INDEXES,

	/*
	 * 5: program profiles (profile.h): the calls a traced program
	 * made, how often, the errors each returned and the flags that
	 * failed it.  Importing a profile again replaces it whole.
	 */
	SQL_PROFILES,

	/*
	 * 6: Linux reference runs.  One run per arch, made on Linux, that
	 * tells which failures under compat_linux fail on Linux as well.
	 * arch is the canonical name (linuxref_arch()): Linux says x86_64
	 * where NetBSD says amd64.
	 */
	SQL_LINUX_REFS,

	/*
	 * 7: an output's bytes last in its row.  SQLite builds a row whole
	 * in memory, except for a zeroblob at its very end: with data last
	 * a big output goes in as one and is written in place
	 * (store_put_output), not copied twice more beside the engine's
	 * buffer, which made a flood the explorer's peak (issue 13).
	 */
	"CREATE TABLE outputs_new ("
	SQL_OUTPUTS_COLUMNS
	"INSERT INTO outputs_new (result_id, stored_size, original_size,"
	"  capped, data) SELECT result_id, stored_size, original_size,"
	"  capped, data FROM outputs;"
	"DROP TABLE outputs;"
	"ALTER TABLE outputs_new RENAME TO outputs;",

	/*
	 * 8: what the pre-check ruled out, with the queue: --resume, which
	 * loads no metadata, stores those tests as the run began would
	 * have (conf, with the reason) instead of running them.
	 */
	"ALTER TABLE queue ADD COLUMN notrun TEXT NOT NULL DEFAULT '';",

	/*
	 * 9: tests the user named, which run though a skip list names
	 * them: --resume runs them too, as the run began to.
	 */
	"ALTER TABLE queue ADD COLUMN named INTEGER NOT NULL DEFAULT 0;",

	/*
	 * 10: how each test may run beside others (-j): marked parallel,
	 * and the conflict groups it must be kept apart by (conflicts.h),
	 * so that --resume runs the rest side by side as the run began.
	 */
	("ALTER TABLE queue ADD COLUMN parallel INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE queue ADD COLUMN conflicts TEXT NOT NULL DEFAULT '';"),

	/*
	 * 11: what the kernel said while a test ran (kmsg.h): its log's
	 * new lines and the taint flags before and after.  A row only for
	 * a test the kernel said something during, or whose taint changed.
	 */
	SQL_KMSGS,

	/*
	 * 12: the kernel function index's cache (kindex.h): per source
	 * file of a tree, its mtime, size and definitions, so that a
	 * second look reads only the files that changed.
	 */
	SQL_KINDEX,
};

/*
 * A new, empty database gets the schema the steps above build, made in
 * one go: the steps' ALTER TABLEs make SQLite parse the whole schema
 * again each time, which took most of a short run's start.  Tables the
 * steps altered are spelled here as they end up; test_store checks that
 * both ways give the same schema.
 */
static const char store_schema_fresh[] =
	SQL_META
	"CREATE TABLE runs ("
	SQL_RUNS_COLUMNS
	","
	"  pid INTEGER NOT NULL DEFAULT 0,"
	"  config TEXT NOT NULL DEFAULT '');"
	"CREATE TABLE queue ("
	SQL_QUEUE_COLUMNS
	"  notrun TEXT NOT NULL DEFAULT '',"
	"  named INTEGER NOT NULL DEFAULT 0,"
	"  parallel INTEGER NOT NULL DEFAULT 0,"
	"  conflicts TEXT NOT NULL DEFAULT '',"
	"  PRIMARY KEY (run_id, pos));"
	"CREATE TABLE results ("
	SQL_RESULTS_COLUMNS
	","
	"  raw TEXT NOT NULL DEFAULT '',"
	"  n_envwarn INTEGER NOT NULL DEFAULT 0,"
	"  judged TEXT NOT NULL DEFAULT '');"
	"CREATE INDEX results_run ON results(run_id, seq);"
	"CREATE TABLE outputs ("
	SQL_OUTPUTS_COLUMNS
	"CREATE INDEX results_tag ON results(tag, run_id);"
	"CREATE INDEX runs_state ON runs(state);"
	SQL_RUN_COUNTS
	SQL_LATEST
	SQL_RESULTS_TRIGGERS
	SQL_TAGS_BASELINES
	SQL_RESULTS_REJUDGE_INDEXES
	SQL_PROFILES
	SQL_LINUX_REFS
	SQL_KMSGS
	SQL_KINDEX;

#define NMIGRATIONS	(sizeof(store_migrations) / sizeof(store_migrations[0]))

/* The triggers spell TS_RUNNING as 9; it is stored, so it never moves. */
_Static_assert(TS_RUNNING == 9, "TS_RUNNING is 9 in the schema");
_Static_assert(TS_PASS == 0 && TS_CONF == 3, "results_envmark spells them");
_Static_assert(NMIGRATIONS == STORE_SCHEMA_VERSION,
    "STORE_SCHEMA_VERSION must count the migration steps");

/* 1 if the database holds no table, index, view or trigger at all. */
static int
store_is_blank(struct store *st, int *blankp, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int rc, err;

	if ((err = store_prepare(st, &s, "SELECT count(*) FROM sqlite_master",
	    dl)) != STORE_OK)
		return err;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*blankp = sqlite3_column_int(s, 0) == 0;
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return store_sqlerr(st, dl, rc, "cannot read the schema");
	return STORE_OK;
}

static int
store_read_version(struct store *st, int *vp, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int rc, err;

	if ((err = store_prepare(st, &s, "PRAGMA user_version", dl)) !=
	    STORE_OK)
		return err;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*vp = sqlite3_column_int(s, 0);
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return store_sqlerr(st, dl, rc, "cannot read the schema "
		    "version");
	return STORE_OK;
}

int
store_migrate(struct store *st, struct diaglist *dl)
{
	char sql[64];
	int v, blank = 0, err, rc;
	size_t i;

	if ((err = store_read_version(st, &v, dl)) != STORE_OK)
		return err;
	if (v > STORE_SCHEMA_VERSION) {
		diag_error(dl, st->path, 0, "the database has schema version "
		    "%d, newer than this ltpscope understands (%d); use a "
		    "newer ltpscope", v, STORE_SCHEMA_VERSION);
		return STORE_ENEWER;
	}
	if (v == STORE_SCHEMA_VERSION)
		return STORE_OK;
	if (st->readonly) {
		diag_error(dl, st->path, 0, "the database has schema version "
		    "%d and needs upgrading to %d, but it is read-only", v,
		    STORE_SCHEMA_VERSION);
		return STORE_EREADONLY;
	}
	if ((err = store_begin_write(st, dl)) != STORE_OK)
		return err;
	/* Another ltpscope may have migrated while we waited. */
	if ((err = store_read_version(st, &v, dl)) != STORE_OK ||
	    (v == 0 && (err = store_is_blank(st, &blank, dl)) != STORE_OK)) {
		store_rollback(st);
		return err;
	}
	if (blank) {
		rc = sqlite3_exec(st->db, store_schema_fresh, NULL, NULL, NULL);
		if (rc != SQLITE_OK) {
			err = store_sqlerr(st, dl, rc, "cannot create the "
			    "schema");
			store_rollback(st);
			return err;
		}
		v = STORE_SCHEMA_VERSION;
	}
	for (i = (size_t)v; i < NMIGRATIONS; i++) {
		rc = sqlite3_exec(st->db, store_migrations[i], NULL, NULL,
		    NULL);
		if (rc != SQLITE_OK) {
			err = store_sqlerr(st, dl, rc, "cannot upgrade the "
			    "schema to version %zu", i + 1);
			store_rollback(st);
			return err;
		}
	}
	/* PRAGMA takes no bound parameters; this is our own constant. */
	(void)snprintf(sql, sizeof(sql), "PRAGMA user_version=%d",
	    STORE_SCHEMA_VERSION);
	if ((err = store_exec(st, sql, dl)) != STORE_OK) {
		store_rollback(st);
		return err;
	}
	return store_commit(st, dl);
}
