/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Triage categories: what a failure is (missing-syscall, bug-compat,
 * environment, ...), what it means, the colour it shows in, and whether
 * it belongs on the shopping list of work to pick up.
 *
 * A categories file has one category a line, "#" comments:
 *
 *	name  colour  list  meaning...
 *
 * name is [a-z0-9_-]+; colour is a theme element ("fail", "conf") or a
 * colour word ("red", "bright-blue", "default"); list is yes or no; the
 * meaning is the rest of the line.  data/categories holds the defaults;
 * $XDG_CONFIG_HOME/ltpscope/categories (else ~/.config/...) adds
 * categories and overrides those of the same name.
 *
 * Ownership: a struct categories owns its entries and their strings;
 * categories_free() releases them.
 */
#ifndef LTPSCOPE_CATEGORIES_H
#define LTPSCOPE_CATEGORIES_H

#include <stddef.h>

#include "ltpscope/diag.h"

struct category {
	char		*name;
	char		*colour;
	int		 shopping;	/* goes on the shopping list */
	char		*meaning;
	char		*file;		/* where it was defined */
	unsigned long	 line;
};

struct categories {
	struct category	*v;		/* in file order, overrides in place */
	size_t		 n;
	size_t		 cap;
};

void	categories_init(struct categories *);
void	categories_free(struct categories *);
/*
 * Parses a file's text (name is used in messages) into cats, adding or
 * overriding.  Bad lines are reported as "name:line: ..." and skipped.
 * Returns the number of errors.
 */
int	categories_parse(struct categories *, const char *name,
	    const char *buf, size_t len, struct diaglist *);
/* The same for a file; -1 if it cannot be read. */
int	categories_load_file(struct categories *, const char *path,
	    struct diaglist *);
/*
 * data/categories, then the user's file if it exists.  Returns the
 * number of errors, or -1 when the data file cannot be read.
 */
int	categories_load_default(struct categories *, struct diaglist *);
const struct category *categories_find(const struct categories *,
	    const char *);

/* Reads a whole file, NUL-terminated; NULL with errno set.  Caller frees. */
char	*triage_slurp(const char *path, size_t *lenp);

#endif
