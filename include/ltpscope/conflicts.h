/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Conflict groups: tests that must never run side by side, though LTP's
 * metadata lets each run beside others, because they count, exhaust
 * or churn one system-wide resource (shmget03 counts the System V
 * shared-memory segments in use and creates up to the limit while
 * shmctl05 creates and removes them).  The file format (data/conflicts
 * documents it too):
 *
 *	# comment, and blank lines, are ignored
 *	GROUP	PATTERN[,PATTERN]...	REASON...
 *
 * GROUP names the group (letters, digits, '-', '_', '.'); each PATTERN
 * is a runtest tag or an fnmatch(3) glob; REASON, required, is the rest
 * of the line.  A test belongs to every group one of whose patterns it
 * matches; with -j no two tests of a group run at once.  Lines naming
 * the same GROUP (in one file or several) make one group.
 *
 * Ownership: struct conflicts owns every string in it.
 */
#ifndef LTPSCOPE_CONFLICTS_H
#define LTPSCOPE_CONFLICTS_H

#include <stddef.h>

#include "ltpscope/diag.h"

struct conflict_line {
	char		*group;
	char		*pattern;	/* one of the line's patterns */
	char		*reason;
	char		*file;
	unsigned long	 line;
};

struct conflicts {
	struct conflict_line	*v;	/* one per pattern */
	size_t			 n;
	char			**files;	/* read, in order */
	size_t			 nfiles;
};

void	conflicts_init(struct conflicts *);
void	conflicts_free(struct conflicts *);
/*
 * Adds the groups of text (len bytes, named name in messages).  Bad
 * lines are errors "name:line: ..." in dl and are skipped; returns the
 * number of errors added.
 */
int	conflicts_parse(struct conflicts *, const char *name,
	    const char *text, size_t len, struct diaglist *);
/* Reads and parses a file; -1 (and an error) when it cannot be read. */
int	conflicts_load(struct conflicts *, const char *path,
	    struct diaglist *);
/*
 * The shipped data/conflicts and the user's own
 * ($XDG_CONFIG_HOME/ltpscope/conflicts) when there is one.  Returns the
 * number of errors added.
 */
int	conflicts_load_default(struct conflicts *, struct diaglist *);
/*
 * The groups tag belongs to, comma-separated ("sysv-shm"), into buf;
 * "" when none.  Returns the number of groups.
 */
size_t	conflicts_of(const struct conflicts *, const char *tag, char *buf,
	    size_t len);
/* The reason given for group (its first line), or NULL. */
const char *conflicts_reason(const struct conflicts *, const char *group);
/* The files read, for --dry-run: "data/conflicts (3 groups)" or "none". */
void	conflicts_describe(const struct conflicts *, char *buf, size_t len);

/*
 * Whether two comma-separated group lists (conflicts_of()) share a
 * group: such tests must not run at once.
 */
int	conflicts_share(const char *a, const char *b);

#endif
