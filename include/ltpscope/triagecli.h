/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the triage subcommands (tag, untag, tags, suggest, baseline,
 * compare, export, profile) share: opening the database named by -d for
 * writing, run arguments, the author of a tag, and loading categories
 * and rules and the syscall tables with their messages printed.
 * Program code: prints.
 */
#ifndef LTPSCOPE_TRIAGECLI_H
#define LTPSCOPE_TRIAGECLI_H

#include <stdint.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/categories.h"
#include "ltpscope/rules.h"
#include "ltpscope/store.h"

/* Opens db (NULL: the default) read-write; NULL after printing why. */
struct store	*triagecli_open(const char *db, const char *cmd);
/* A run number or "last"; 0 after printing why. */
int64_t		 triagecli_run(struct store *, const char *arg,
		    const char *cmd);
/* --author, else $LTPSCOPE_AUTHOR, $USER, $LOGNAME; never NULL. */
const char	*triagecli_author(const char *opt);
/* Default categories (+ the user's); -1 after printing why. */
int		 triagecli_categories(struct categories *);
/* Default rules (user's first); NULL after printing why. */
struct rules	*triagecli_rules(const struct categories *);
/*
 * The syscall tables given (-m), else the default one if there is
 * any, with Linux's names; NULL after printing an error in a table
 * given.
 */
struct catalogue *triagecli_catalogue(char **tables, size_t n);

#endif
