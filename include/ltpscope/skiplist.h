/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The skip list: tests not to run, each with the reason, because they
 * hang or panic the kernel under test.  The file format (data/skiplist
 * documents it too):
 *
 *	# comment, and blank lines, are ignored
 *	PATTERN	[os=NAME[,NAME]...]	[arch=ARCH[,ARCH]...]	REASON...
 *
 * PATTERN is a runtest tag or an fnmatch(3) glob ("copy_file_range*");
 * REASON, required, is the rest of the line.  An entry with os= holds
 * only on those systems (uname -s names, any case): a test that panics
 * NetBSD's compat_linux runs fine on Linux.  One with arch= holds only
 * on those architectures (uname -m names; amd64 and x86_64 are one,
 * linuxref_same_arch()): a test that crashed an aarch64 kernel may run
 * on an amd64 one.  os= and arch= come in either order.  A later file
 * adds to an earlier one (--skip FILE); the first matching entry that
 * holds on the list's system and arch gives the reason.
 */
#ifndef LTPSCOPE_SKIPLIST_H
#define LTPSCOPE_SKIPLIST_H

#include <stddef.h>

#include "ltpscope/diag.h"

struct skip_entry {
	char		*pattern;
	char		*reason;
	char		*os;		/* "NetBSD,Linux"; NULL: every system */
	char		*arch;		/* "aarch64"; NULL: every arch */
	char		*file;		/* where it was read; may be NULL */
	unsigned long	 line;
};

/* Owns every entry and string in it. */
struct skiplist {
	struct skip_entry *v;
	size_t		   n;
	size_t		   cap;
	char		  *os;		/* the system it is for; NULL: every
					   entry holds */
	char		  *arch;	/* the arch it is for; NULL: every
					   entry holds */
	char		 **files;	/* the files read, in order */
	size_t		   nfiles;
};

void	skiplist_init(struct skiplist *);
void	skiplist_free(struct skiplist *);
/*
 * The system the tests run on (uname -s: "NetBSD", "Linux"); entries
 * with an os= field naming other systems then never match.  The
 * caller passes it (see compat_os_name()), so that tests can pretend.
 */
void	skiplist_set_os(struct skiplist *, const char *os);
/*
 * The arch the tests run on, as a run is filed (uname -m, or the
 * processor of NetBSD's evb* boards); entries with an arch= field
 * naming other arches then never match.  NULL or "": every entry holds.
 */
void	skiplist_set_arch(struct skiplist *, const char *arch);
struct remote_box;
/* Both, as a box told them (uname -s, remote_box_arch()). */
void	skiplist_set_box(struct skiplist *, const struct remote_box *);
/* Whether an entry holds on the list's system and arch. */
int	skiplist_entry_applies(const struct skiplist *,
	    const struct skip_entry *);
/*
 * Which lists are in force, for --dry-run: "data/skiplist (0 of 4
 * entries hold on Linux x86_64); ..." or "none".
 */
void	skiplist_describe(const struct skiplist *, char *buf, size_t len);
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
/* The first entry that holds on the list's system and matches tag. */
const struct skip_entry *skiplist_match(const struct skiplist *,
	    const char *tag);
/* Its reason, or NULL when the tag may run. */
const char *skiplist_lookup(const struct skiplist *, const char *tag);

#endif
