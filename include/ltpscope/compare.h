/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Comparing two runs, as the earlier shell tool's "-c" did: which tests
 * regressed (failed or broken went up), were fixed (went down),
 * changed (only the skipped/warning counts or the status otherwise),
 * are new (only in B) or were removed (only in A); plus flaky tests, a
 * test whose result changed in at least N of its last M runs on the
 * same system (same uname, OS version, arch and LTP version).
 * A test bad in B that is bad on the Linux reference of B's arch too
 * (linuxref.h) is marked: "fails on Linux too", listed last of its
 * kind, since it is not compat_linux's to fix.
 *
 * Ownership: compare_free() releases what compare_runs() filled;
 * flaky_free() the array of flaky_tests().
 */
#ifndef LTPSCOPE_COMPARE_H
#define LTPSCOPE_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/store.h"

enum cmp_kind {
	CMP_SAME,
	CMP_REGRESSED,
	CMP_FIXED,
	CMP_CHANGED,
	CMP_NEW,
	CMP_REMOVED,
	CMP__COUNT
};

#define FLAKY_N		2	/* default: changed in 2 ... */
#define FLAKY_M		5	/* ... of the last 5 runs */

struct cmp_item {
	char		*tag;
	char		*syscall;
	enum cmp_kind	 kind;
	int		 status_a;	/* enum test_status; -1: absent */
	int		 status_b;
	unsigned	 bad_a;		/* failed + broken (1 for a bad
					   status with no counts) */
	unsigned	 bad_b;
	unsigned	 conf_a, conf_b;	/* skipped (TCONF) counts */
	unsigned	 warn_a, warn_b;	/* TWARN counts */
	int		 flaky;
	int		 status_linux;	/* on the Linux reference; -1:
					   no reference or no result */
	int		 linux_too;	/* bad in b and on Linux too */
};

struct cmp_result {
	struct store_run a;		/* the runs compared */
	struct store_run b;
	struct cmp_item	*v;		/* every test, ordered by tag */
	size_t		 n;
	unsigned	 counts[CMP__COUNT];
	int64_t		 linux_run;	/* b's arch's Linux reference, 0 */
	unsigned	 nlinux_too;	/* tests that fail on Linux too */
	/* The runs differ in system, arch or LTP version: */
	char		**warnings;
	size_t		 nwarnings;
};

const char	*cmp_kind_name(enum cmp_kind);
/* The comparison of one test; a or b NULL when absent. */
enum cmp_kind	 compare_results(const struct store_result *a,
		    const struct store_result *b);
unsigned	 compare_bad_count(const struct store_result *);
/*
 * Keeps the last result of each tag of v (in execution order), none
 * still running, frees the others; v ends sorted by tag.  The count.
 */
size_t		 compare_last_per_tag(struct store_result *v, size_t n);
/*
 * The same on copies of results whose strings are another's: none is
 * freed, those dropped are only left out.
 */
size_t		 compare_last_per_tag_borrowed(struct store_result *v,
		    size_t n);
/*
 * The default runs: b is run_b, else the newest run; a is run_a, else
 * the baseline of b's arch, else the newest earlier run of that arch.
 * STORE_ENOTFOUND with a message when there is nothing to compare.
 */
int	compare_default_runs(struct store *, int64_t *run_a, int64_t *run_b,
	    struct diaglist *);
/*
 * Compares run a with run b; flaky_n/flaky_m (0: the defaults) mark
 * the flaky tests seen up to b.
 */
int	compare_runs(struct store *, int64_t a, int64_t b, unsigned flaky_n,
	    unsigned flaky_m, struct cmp_result *, struct diaglist *);
void	compare_free(struct cmp_result *);

/*
 * Tests that changed result in at least n of the last m runs up to and
 * including run_id on the same system, sorted; *np gets the count.
 * res[0..nres), when not NULL, are run_id's results as
 * store_run_results() gives them, which are then not read again.
 */
int	flaky_tests(struct store *, int64_t run_id,
	    const struct store_result *res, size_t nres, unsigned n,
	    unsigned m, char ***vp, size_t *np, struct diaglist *);
int	flaky_has(char *const *, size_t, const char *);
void	flaky_free(char **, size_t);

#endif
