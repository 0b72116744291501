/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/store*.c: the open-store structure and helpers the
 * store's files share.  Nothing outside the store includes this.
 */
#ifndef LTPSCOPE_STORE_IMPL_H
#define LTPSCOPE_STORE_IMPL_H

#include <sqlite3.h>

#include "ltpscope/store.h"

/*
 * Statements a run executes for every test, prepared once per open
 * store: compiling the results UPDATE with its triggers costs more
 * than the rest of a tiny test's bookkeeping together.
 */
enum store_stmt {
	SS_BEGIN,		/* BEGIN IMMEDIATE */
	SS_SAVEPOINT,
	SS_RELEASE,
	SS_COMMIT,
	SS_TEST_START,
	SS_TEST_FINISH,
	SS_PUT_OUTPUT,
	SS_PUT_KMSG,
	SS_OUTPUT_SIZE,		/* a list reads hundreds of outputs */
	/*
	 * Reads a shopping list makes once each: compiled anew, the five
	 * cost a twentieth of an export.  None is stepped inside another
	 * use of itself.
	 */
	SS_GET_RUN,
	SS_LIST_RUNS,
	SS_RUN_RESULTS,
	SS_RECENT_HISTORY,
	SS_TAGS_LIST,
	SS__COUNT
};

struct store {
	sqlite3		*db;
	char		*path;		/* as given to store_open() */
	char		*lockpath;	/* path + "-lock": live-run locks */
	size_t		 output_cap;
	int		 busy_ms;
	int		 readonly;
	int		 batch;		/* steps wait for store_batch_commit */
	int		 intx;		/* the batch's transaction is open */
	int		 instep;	/* a step's savepoint is open */
	int		 reading;	/* store_read_begin() depth */
	sqlite3_stmt	*stmt[SS__COUNT];	/* prepared on first use */
	/*
	 * An output's blob handle, kept for the next output while a read
	 * transaction lasts: moving it to a row costs a tenth of opening
	 * one, and a list reads an output per failure.  It holds the
	 * snapshot, so store_read_end() closes it.
	 */
	sqlite3_blob	*outblob;
	int		 wal_frames;	/* in the log after the last commit */
	int64_t		 unlock_run;	/* a run ended in the open batch:
					   unlocked once that commits */
	/*
	 * The digest that judged the last result finished: a running row
	 * is written with it, so that its finish, judged alike, leaves the
	 * results_judged index as it is (one page fewer in the commit
	 * before each test).  Running rows are never judged again.
	 */
	char		 judged_last[STORE_JUDGED_MAX];
};

/*
 * enum test_status in SQL text that cannot take a parameter: the
 * schema's triggers and partial indexes, and a query that must say an
 * index's WHERE word for word for SQLite to use it.  Elsewhere bind
 * the TS_* value.  The assertion keeps the two spellings one.
 */
#define SQL_TS_PASS	"0"
#define SQL_TS_BROKEN	"2"
#define SQL_TS_CONF	"3"
#define SQL_TS_WARN	"4"
#define SQL_TS_RUNNING	"9"
#define SQL_TS_UNKNOWN	"10"
_Static_assert(TS_PASS == 0 && TS_BROKEN == 2 && TS_CONF == 3 &&
    TS_WARN == 4 && TS_RUNNING == 9 && TS_UNKNOWN == 10,
    "SQL_TS_* spell enum test_status");

/* store_sql.c: below store.c and store_schema.c */
int	store_log_unwritable(const char *);
int	store_sqlerr(struct store *, struct diaglist *, int, const char *,
	    ...) __attribute__((__format__(__printf__, 4, 5)));
int	store_exec(struct store *, const char *, struct diaglist *);
int	store_prepare(struct store *, sqlite3_stmt **, const char *,
	    struct diaglist *);
int	store_prepare_kept(struct store *, enum store_stmt, sqlite3_stmt **,
	    const char *, struct diaglist *);
void	store_stmt_done(struct store *, sqlite3_stmt *);
int	store_begin_write(struct store *, struct diaglist *);
int	store_commit(struct store *, struct diaglist *);
void	store_rollback(struct store *);
char	*store_col_str(sqlite3_stmt *, int);
int64_t	store_now(void);

/* store_schema.c */
int	store_migrate(struct store *, struct diaglist *);

/* store_lock.c: advisory locks marking a run as live */
int	store_lock_run(struct store *, int64_t, struct diaglist *);
void	store_unlock_run(struct store *, int64_t);
void	store_unlock_all(struct store *);
int	store_run_is_live(struct store *, int64_t);

/* store_vfs.c: the default VFS, each log frame written in one write */
const char *store_vfs_name(void);

#endif
