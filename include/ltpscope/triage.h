/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Triage helpers shared by the subcommands and the explorer: the first
 * failing line of a test's output, the syscall a result belongs to,
 * and suggestions for the failures of a run (rules over names and
 * output, next to the tags already confirmed).
 *
 * Ownership: returned strings and arrays are malloc'd and the caller's;
 * triage_suggestions_free() releases a suggestion array.
 */
#ifndef LTPSCOPE_TRIAGE_H
#define LTPSCOPE_TRIAGE_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/rules.h"
#include "ltpscope/store.h"
#include "ltpscope/store_triage.h"

/*
 * The first line saying TFAIL, else TBROK, else one ltpscope or LTP
 * added about stopping the test (timeouts, kills), else NULL.  Escapes
 * are removed; other bytes are kept.  *linenop (may be NULL) gets its
 * 1-based line number.
 */
char	*triage_first_failure(const char *output, size_t len,
	    unsigned long *linenop);
/*
 * The syscall of a result: its own syscall field, else the tag without
 * its trailing digits ("epoll_pwait03" -> "epoll_pwait").
 */
char	*triage_result_syscall(const struct store_result *);

/* A failure of a run with its rule suggestion and confirmed tag. */
struct triage_suggestion {
	char		*tag;
	char		*syscall;
	enum test_status status;
	int64_t		 result_id;
	char		*category;	/* suggested, or NULL */
	char		*rule_file;	/* the rule that suggested it */
	unsigned long	 rule_line;
	char		*line;		/* output line matched, "" for names */
	/* category of an existing tag, or NULL */
	char		*confirmed;
};

/*
 * Suggestions for every bad result of run_id, in execution order.
 * Rules that stop on the match limit are warned about in dl.
 */
int	triage_suggest_run(struct store *, struct rules *, int64_t run_id,
	    struct triage_suggestion **vp, size_t *np, struct diaglist *);
void	triage_suggestions_free(struct triage_suggestion *, size_t);

#endif
