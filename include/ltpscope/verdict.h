/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Verdicts under the rules: which TWARN lines are the environment's
 * (rules.h, "envwarn:" rules), the result fields that record what
 * judged a test, and judging stored results again when those rules
 * change.  The verdict itself is ltpout_status(); this module feeds it
 * the count of environmental warnings and keeps its inputs.
 *
 * A struct rules may be NULL everywhere: no envwarn rules, every
 * warning counts.  Nothing is kept from the arguments.
 */
#ifndef LTPSCOPE_VERDICT_H
#define LTPSCOPE_VERDICT_H

#include <stddef.h>

#include "ltpscope/ltpout.h"
#include "ltpscope/rules.h"
#include "ltpscope/store.h"

/* Whether one classified line is a TWARN line the rules excuse. */
int		 verdict_env_line(struct rules *, const struct ltpout_line *);

/* TWARN lines of a test's raw output (len bytes) the rules excuse. */
unsigned long	 verdict_env_count(struct rules *, const char *out,
		    size_t len);

/*
 * Judges a test: t->env_warn must hold its excused TWARN lines.  Sets
 * r's status, its five counts (store_result_counts()), nenvwarn, raw
 * and judged; why (may be NULL) as ltpout_status().  Returns the status.
 */
enum test_status verdict_judge(struct rules *, struct store_result *r,
		    const struct ltpout_tally *t, const struct test_end *end,
		    char *why, size_t whylen);

/*
 * Judges again the results of the store not judged by these rules
 * (store_rejudge()); rows older than the stored inputs are judged from
 * their output, exit status and signal.  *nchangedp (may be NULL): how
 * many verdicts changed.  Returns a store error code.
 */
int		 verdict_rejudge(struct store *, struct rules *,
		    unsigned *nchangedp, struct diaglist *);

#endif
