/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the importers (import.c, import_kirk.c) share inside the core:
 * storing a list of finished results as one run through the store's
 * crash protocol, and a growing text buffer for the run's config.
 */
#ifndef LTPSCOPE_IMPORT_IMPL_H
#define LTPSCOPE_IMPORT_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/import.h"
#include "ltpscope/store.h"

struct json;

/* One test to store; the importer owns the strings and the output. */
struct import_item {
	struct store_result	 r;		/* tag, syscall, status,
						   counts, exit_code... */
	const char		*cmdline;	/* NULL: the tag */
	const char		*out;
	size_t			 outlen;
};

/*
 * Begins run (its fields as store_run_begin() wants them), stores every
 * item in order, ends the run finished.  On a store error the run is
 * marked interrupted and -1 returned.  Fills st's run_id, ntests and
 * counts; calls opts->progress (opts may be NULL).
 */
int	import_store_items(struct store *, struct store_run *,
	    const struct import_item *, size_t, const struct import_opts *,
	    struct import_stats *, struct diaglist *);

/*
 * kirk's results.json read into items (import_kirk.c), apart from the
 * store so that the reading can be tested and fuzzed alone.  The items
 * point into the parsed tree: import_kirk_free() releases both.
 */
struct kirk_file {
	struct json		*root;
	struct import_item	*items;
	size_t			 nitems;
	char			**syscalls;	/* per item */
	char			**cmdlines;
	struct store_run	 run;		/* all but started */
	char			*label;
	char			*config;
	int64_t			 runtime_ms;	/* stats.runtime */
};

/* Returns 0, or -1 (kf empty) with an error in dl. */
int	import_kirk_parse(struct kirk_file *, const char *name,
	    const char *buf, size_t len, const struct import_opts *,
	    struct import_stats *, struct diaglist *);
void	import_kirk_free(struct kirk_file *);

struct json;

/*
 * The run "ltpscope show RUN --format json" wrote, parsed as root (its
 * "run" a number): import_kirk() hands it over.
 */
int	import_own_json(struct store *, const char *path,
	    const struct json *root, const struct import_opts *,
	    struct import_stats *, struct diaglist *);

struct textbuf {
	char	*s;
	size_t	 len;
	size_t	 cap;
};

void	textbuf_add(struct textbuf *, const char *, size_t);
void	textbuf_printf(struct textbuf *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));

#endif
