/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the catalogue's source files share and nobody else needs: the
 * string arena every entry lives in, the per-file parse context and the
 * parsers for each table format.
 */
#ifndef LTPSCOPE_CATALOGUE_IMPL_H
#define LTPSCOPE_CATALOGUE_IMPL_H

#include <stddef.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/diag.h"

/*
 * Entries and their strings are bump-allocated: a catalogue of a few
 * thousand entries is built once and freed at once, and one malloc per
 * field would cost more than the parsing itself.
 */
struct cat_chunk {
	struct cat_chunk	*next;
	size_t			 used;
	size_t			 size;
	/* data follows, aligned for any object */
};

/* A loaded entry with the bookkeeping the public struct does not show. */
struct cat_item {
	struct cat_entry	 e;
	size_t			 seq;	/* load order, for stable sorting */
};

/* The catalogue itself: entries as loaded, and views built from them. */
struct catalogue {
	struct cat_chunk	 *chunks;
	struct cat_item		**items;	/* as loaded */
	size_t			  nitems, capitems;
	const char		**files;
	size_t			  nfiles, capfiles;
	/* Rebuilt by catalogue_finish() when dirty. */
	int			  dirty;
	const struct cat_entry	**all;		/* items + absent, sorted */
	size_t			  nall;
	const struct cat_entry	**view;		/* all minus alternates */
	size_t			  nview;
	const struct cat_entry	**byname;	/* view by (name, abi) */
	size_t			  nbyname;
	struct cat_item		**absent;	/* reused between builds */
	size_t			  nabsent, capabsent;
};

/* One file being parsed. */
struct cat_parse {
	struct catalogue	*cat;
	const char		*file;	/* arena copy */
	const char		*abi;	/* arena copy, or NULL: per row */
	struct diaglist		*dl;
	int			 nerrors;
	int			 gave_up;
};

/* Stop reporting after this many errors in one file. */
#define CAT_MAX_ERRORS		50
/* Longer logical lines are refused rather than parsed. */
#define CAT_MAX_LINE		65536

void		*cat_alloc(struct catalogue *, size_t);
const char	*cat_strndup(struct catalogue *, const char *, size_t);
const char	*cat_strdup(struct catalogue *, const char *);
/* A new, zeroed entry with every string field set to "". */
struct cat_entry *cat_new_entry(struct cat_parse *);
/* Forgets the entry cat_new_entry() just returned (it was malformed). */
void		cat_drop_last(struct cat_parse *);

void	cat_error(struct cat_parse *, unsigned long, const char *, ...)
	    __attribute__((__format__(__printf__, 3, 4)));

void	cat_parse_master(struct cat_parse *, const char *, size_t);
void	cat_parse_tbl(struct cat_parse *, const char *, size_t);
void	cat_parse_unistd(struct cat_parse *, const char *, size_t);
void	cat_parse_names(struct cat_parse *, const char *, size_t);

/* The first line of a names file; what follows it is the ABI. */
#define CAT_NAMES_MAGIC		"# ltpscope syscall names: Linux "

/* The ABI a names file states in its first line, or NULL. */
const char	*cat_names_abi(struct catalogue *, const char *buf,
		    size_t len);
/* Whether abi is a plain Linux ABI name ("x86_64"), fit for a path. */
int		 cat_abi_name_ok(const char *abi);
/* Linux ABI of a Linux table file, from its name. */
const char	*cat_linux_file_abi(const char *path);
/* NetBSD ABI of a syscalls.master, from its path or contents. */
const char	*cat_master_abi(struct catalogue *, const char *path,
		    const char *buf, size_t len);

#endif
