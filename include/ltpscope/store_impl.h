/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/store*.c: the open-store structure and helpers the
 * store's files share.  Nothing outside the store includes this.
 */
#ifndef LTPSCOPE_STORE_IMPL_H
#define LTPSCOPE_STORE_IMPL_H

#include <sqlite3.h>

#include "ltpscope/store.h"

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
};

/* store.c */
int	store_sqlerr(struct store *, struct diaglist *, int, const char *,
	    ...) __attribute__((__format__(__printf__, 4, 5)));
int	store_exec(struct store *, const char *, struct diaglist *);
int	store_prepare(struct store *, sqlite3_stmt **, const char *,
	    struct diaglist *);
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

#endif
