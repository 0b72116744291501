/*
 * The skip list: tests not to run, each with the reason, because they
 * hang or panic the kernel under test.  The file format (data/skiplist
 * documents it too):
 *
 *	# comment, and blank lines, are ignored
 *	PATTERN		REASON...
 *
 * PATTERN is a runtest tag or an fnmatch(3) glob ("copy_file_range*");
 * REASON, required, is the rest of the line.  A later file adds to an
 * earlier one (--skip FILE); the first matching entry gives the reason.
 */
#ifndef LTPSCOPE_SKIPLIST_H
#define LTPSCOPE_SKIPLIST_H

#include <stddef.h>

#include "ltpscope/diag.h"

struct skip_entry {
	char		*pattern;
	char		*reason;
	char		*file;		/* where it was read; may be NULL */
	unsigned long	 line;
};

/* Owns every entry and string in it. */
struct skiplist {
	struct skip_entry *v;
	size_t		   n;
	size_t		   cap;
};

void	skiplist_init(struct skiplist *);
void	skiplist_free(struct skiplist *);
/*
 * Adds the entries of text (len bytes, named name in messages).  Bad
 * lines are reported as "name:line: ..." in dl and skipped; returns the
 * number of errors added.
 */
int	skiplist_parse(struct skiplist *, const char *name, const char *text,
	    size_t len, struct diaglist *);
/* Reads and parses a file; -1 (and a diagnostic) if it cannot be read. */
int	skiplist_load(struct skiplist *, const char *path, struct diaglist *);
/*
 * The skip lists every run uses: the shipped data/skiplist and, when
 * there is one, the user's own ($XDG_CONFIG_HOME/ltpscope/skiplist).
 * Returns the number of errors added to dl.
 */
int	skiplist_load_default(struct skiplist *, struct diaglist *);
/* Adds one entry by hand (pattern and reason are copied). */
void	skiplist_add(struct skiplist *, const char *pattern,
	    const char *reason);
/* The first entry matching tag, or NULL. */
const struct skip_entry *skiplist_match(const struct skiplist *,
	    const char *tag);
/* Its reason, or NULL when the tag may run. */
const char *skiplist_lookup(const struct skiplist *, const char *tag);

#endif
