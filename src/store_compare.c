/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What comparing runs reads from the store (compare.c holds no SQL)
 * besides the runs and the baselines: a test's recent history on the
 * same system, for telling flaky tests.
 */
#include "store_impl.h"

int
store_recent_history(struct store *st, int64_t run_id, unsigned m,
    int with_run, int (*fn)(void *, const char *, size_t, int64_t, int64_t,
    enum test_status), void *arg, struct diaglist *dl)
{
	sqlite3_stmt *s;
	const char *tag;
	int rc, err;

	/*
	 * The last m runs up to run_id (before it, ?4 = 1) with the same
	 * system as run_id; their results, none still running, run by
	 * run.  Ordered by run alone, the results_run index gives them
	 * without a sort: a sort of every row by test cost more than all
	 * the rest of an export, and the caller groups by test without
	 * one.
	 */
	if ((err = store_prepare_kept(st, SS_RECENT_HISTORY, &s, "WITH sys "
	    "AS (SELECT uname, os_name, os_version, arch, ltp_version FROM "
	    "runs WHERE id = ?1), recent AS (SELECT r.id FROM runs r, sys "
	    "WHERE r.id <= ?1 - ?4 AND r.uname = sys.uname AND "
	    "r.os_name = sys.os_name AND r.os_version = sys.os_version AND "
	    "r.arch = sys.arch AND "
	    "r.ltp_version = sys.ltp_version ORDER BY r.id DESC LIMIT ?2) "
	    "SELECT tag, run_id, id, status FROM results WHERE run_id IN "
	    "(SELECT id FROM recent) AND status <> ?3 ORDER BY run_id",
	    dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, run_id);
	(void)sqlite3_bind_int64(s, 2, (int64_t)m);
	(void)sqlite3_bind_int(s, 3, TS_RUNNING);
	(void)sqlite3_bind_int(s, 4, !with_run);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if ((tag = (const char *)sqlite3_column_text(s, 0)) == NULL)
			tag = "";
		if (fn(arg, tag, (size_t)sqlite3_column_bytes(s, 0),
		    sqlite3_column_int64(s, 1), sqlite3_column_int64(s, 2),
		    (enum test_status)sqlite3_column_int(s, 3)) != 0) {
			rc = SQLITE_DONE;
			break;
		}
	}
	store_stmt_done(st, s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "cannot read the history");
	return STORE_OK;
}
