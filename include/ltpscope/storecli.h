/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers shared by the subcommands that read the results store
 * (ltpscope runs, ltpscope show): opening the database named by -d or
 * the default one, reporting interrupted runs, times, and the --format
 * text|json that they and `ltpscope tests` take.
 * These print to stdout/stderr, so they belong to the program, not to
 * the core.
 */
#ifndef LTPSCOPE_STORECLI_H
#define LTPSCOPE_STORECLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ltpscope/rules.h"
#include "ltpscope/store.h"

/*
 * Opens path, or the default database when path is NULL, for reading.
 * Returns 0 and sets *stp; 1 after printing why it failed.  When the
 * database does not exist yet, *stp is NULL, *pathp names where it
 * would be, and 0 is returned.  *pathp is malloc'd; the caller frees.
 */
int	storecli_open(const char *path, struct store **stp, char **pathp);
/* Prints "run N was interrupted while TEST was running" warnings. */
void	storecli_warn_interrupted(struct store *);
/* "2026-12-03 06:51:00" in UTC, or "-" for 0. */
void	storecli_time(int64_t, char *, size_t);
/*
 * A short field (label, host) fit for a table: control bytes become
 * '?'.  Returns one of two static buffers, so two may share a printf.
 */
const char	*storecli_field(const char *);
/* --format text or json: 0 or 1; -1 for anything else. */
int	storecli_json_format(const char *);
/*
 * Parses a run id or "last" (the id is not looked up); 0 and a message
 * naming the subcommand cmd on failure.
 */
int64_t	storecli_run_arg(struct store *, const char *, const char *cmd);
/*
 * What "show RUN" and "export-logs RUN" share: runarg must be a number
 * or "last" (else 2, after a message naming cmd), the database (db, or
 * the default) must exist and the run number parse (else 1, after a
 * message).  0 sets *stp, which the caller closes, and *run_idp.
 */
int	storecli_open_run(const char *db, const char *runarg,
	    const char *cmd, struct store **stp, int64_t *run_idp);
/*
 * The rules that judge verdicts (the user's, then data/rules), after
 * printing any error in them; NULL (after printing why) when data/rules
 * cannot be read.  The caller frees with rules_free().
 */
struct rules	*storecli_verdict_rules(void);
/*
 * Judges again the results that rules (may be NULL: loaded here) did
 * not judge (verdict_rejudge()); a store that cannot be written keeps
 * its verdicts, with a warning.  storecli_open() and triagecli_open()
 * call it.
 */
void	storecli_rejudge(struct store *, struct rules *);

#endif
