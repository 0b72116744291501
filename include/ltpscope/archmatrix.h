/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The multi-arch matrix: the newest finished run of each architecture
 * (or runs and arches named), a column each, and a row per test with
 * its status in every column.  It says which failures are one arch's
 * (they pass elsewhere) and which are compat_linux's on every arch;
 * compare --arch prints it, the shopping list takes its per-arch
 * columns from it.
 *
 * Arches are told apart by their canonical name (linuxref_arch():
 * x86_64 is amd64), so two runs of one arch never make two columns.
 * Linux reference runs make no column: they are the reference, not an
 * arch under test.  A test counts by its last result in a run.
 *
 * Ownership: archmatrix_free() releases what archmatrix_build() filled.
 * Errors go to the diaglist naming the database file.
 */
#ifndef LTPSCOPE_ARCHMATRIX_H
#define LTPSCOPE_ARCHMATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/store.h"

/* Where a test fails, across the columns. */
enum amx_scope {
	AMX_GOOD,	/* bad on no arch */
	AMX_SPECIFIC,	/* bad on some arches, passes on another */
	AMX_EVERY,	/* bad on every arch */
	AMX_UNSURE,	/* bad wherever it was judged; elsewhere skipped
			   (conf), not run, unknown or missing */
	AMX__COUNT
};

/* A column: one run, and how its tests fared beside the others. */
struct amx_column {
	struct store_run run;
	unsigned	 nbad;		/* tests bad here */
	unsigned	 nonly;		/* bad here only, passing on some
					   other arch (AMX_SPECIFIC) */
};

struct amx_row {
	char		*tag;
	char		*syscall;
	int		*status;	/* [ncols] enum test_status; -1:
					   the run has no result */
	enum amx_scope	 scope;
	unsigned	 nbad;		/* columns where it is bad */
};

struct archmatrix {
	struct amx_column *cols;
	size_t		 ncols;
	struct amx_row	*rows;		/* every test of any column, by tag */
	size_t		 nrows;
	int		*cells;		/* the rows' statuses, one block */
	unsigned	 counts[AMX__COUNT];	/* rows per scope */
};

/* A column asked for: a run (run_id != 0), else an arch's newest run. */
struct amx_pick {
	int64_t		 run_id;
	const char	*arch;
};

/*
 * Builds the matrix of the picks, in their order.  No picks: first
 * (when not 0; any run, finished or not) and then the newest finished
 * run of every other arch, by arch name.  STORE_ENOTFOUND (said) when
 * an arch picked has no finished run; STORE_EINVAL (said) when two
 * picks are of one arch.
 */
int	archmatrix_build(struct store *, int64_t first,
	    const struct amx_pick *, size_t npicks, struct archmatrix *,
	    struct diaglist *);
/*
 * archmatrix_build() of first and every other arch, with first's
 * results (res[0..n), as store_run_results() gives them) and the run
 * list (runs[0..nruns), as store_list_runs() gives it) read by the
 * caller, who keeps them: neither is read again.
 */
int	archmatrix_build_first(struct store *, int64_t first,
	    const struct store_result *res, size_t n,
	    const struct store_run *runs, size_t nruns, struct archmatrix *,
	    struct diaglist *);
void	archmatrix_free(struct archmatrix *);
/* The row of tag, or NULL. */
const struct amx_row *archmatrix_find(const struct archmatrix *,
	    const char *tag);
/* "ok", "arch-specific", "every-arch", "unsure". */
const char	*amx_scope_name(enum amx_scope);
/* Whether a status says the test works there: pass or warn. */
int		 amx_status_good(int status);

#endif
