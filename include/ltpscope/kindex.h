/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel function index: where each function of a NetBSD source
 * tree is defined, so that a catalogue entry's function
 * (linux_sys_fcntl) leads to its file and line
 * (sys/compat/linux/common/linux_file.c:NNN).
 *
 * KNF puts a definition's name at column 0, directly before its "(",
 * with the return type on the line before: kindex_scan() finds such
 * lines and keeps those followed by a body (ANSI or K&R), not those
 * ending in ";" (prototypes), skipping comments and preprocessor lines
 * (macros, #ifdefs, even inside a parameter list).  No ctags needed.
 *
 * Only the directories the catalogue's functions live in are walked
 * (kindex_dirs), and only *.c files.  With a store, each file's
 * definitions are cached by path, mtime and size: a second build reads
 * only the files that changed.
 *
 * A second build still stat()s every file, which for a whole sys/ costs
 * more than a lookup is worth.  kindex_open() trusts the cache instead
 * and kindex_lookup() checks what it answers: the files of the
 * definitions it returns, by mtime and size.  A changed or vanished
 * file, or a name the cache does not hold (a new file may define it),
 * makes it walk the tree once, as kindex_build() does, and answer from
 * that.  So an answer is never older than its own file; only a second
 * definition of an already-known name, added in another file, waits
 * for a walk.
 *
 * Ownership: kindex_free() releases everything kindex_build() filled;
 * the definitions' strings live as long as the index.  Errors go to the
 * diaglist naming the file (and line) at fault.
 */
#ifndef LTPSCOPE_KINDEX_H
#define LTPSCOPE_KINDEX_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/diag.h"
#include "ltpscope/store.h"

/* Where a tree is looked for when none is given. */
#define KINDEX_DEFAULT_ROOT	"/usr/src"
/*
 * That place: $LTPSCOPE_KERNEL_SRC when set, else KINDEX_DEFAULT_ROOT.
 * The test suite pins the variable, so that no test reads the host's
 * /usr/src (a NetBSD developer's machine has one).
 */
const char *kindex_default_root(void);

/* The directories (under the root) the catalogue's functions live in. */
extern const char *const kindex_dirs[];

struct kindex_def {
	const char	*name;		/* "linux_sys_fcntl" */
	const char	*file;		/* relative to the root */
	unsigned long	 line;		/* of the name, 1-based */
};

struct kindex_file;			/* one file's cached definitions */

struct kindex {
	char			*root;	/* as given */
	char			*sysdir;	/* root/sys, or root itself */
	/*
	 * Grouped by the bucket of each name's hash, a bucket by name,
	 * file and line: a name's definitions are side by side.
	 */
	struct kindex_def	*v;
	size_t			 n;
	uint32_t		*bucket;	/* [nbuckets + 1]: where each
						   bucket starts in v */
	size_t			 nbuckets;	/* a power of 2; 0: none */
	size_t			 nfiles;	/* .c files in the index */
	size_t			 nread;		/* ...of which read this time */
	struct kindex_file	*files;
	/* kindex_open()'s: lookups check their files; walked: a miss no
	   longer walks the tree (it did since the index was opened). */
	int			 trusting;
	int			 walked;
	struct store		*st;		/* borrowed, for the walk */
	const char *const	*dirs;		/* borrowed; NULL: kindex_dirs */
};

/*
 * Calls found(arg, name, len, line) for each definition in text[0..len).
 * Stops and returns found()'s value when it is not 0.
 */
int	kindex_scan(const char *text, size_t len,
	    int (*found)(void *, const char *, size_t, unsigned long),
	    void *arg);

/*
 * Indexes root (a source tree holding sys/, or a sys/ directory):
 * dirs (NULL: kindex_dirs) under its sys/.  st may be NULL (no cache);
 * with one, unchanged files come from it and changed ones go back.
 * A missing tree is STORE_ENOTFOUND, saying where it looked.  When only
 * writing the cache failed, the error is returned with the index whole
 * (nbuckets > 0): usable, only not kept.
 */
int	kindex_build(struct kindex *, const char *root,
	    const char *const *dirs, struct store *st, struct diaglist *);
/*
 * The same index, from the cache alone when st holds one for root (no
 * file looked at); else kindex_build().  st and dirs must outlive ki.
 */
int	kindex_open(struct kindex *, const char *root,
	    const char *const *dirs, struct store *st, struct diaglist *);
/*
 * kindex_find_all() that checks the answer when the index was opened
 * from the cache, walking the tree when it is stale (see above): the
 * index may be rebuilt, so earlier answers' pointers are then gone.
 * dl (may be NULL) takes the walk's errors.
 */
size_t	kindex_lookup(struct kindex *, const char *name,
	    const struct kindex_def **firstp, struct diaglist *dl);
void	kindex_free(struct kindex *);
/* The first definition of name (by file), or NULL. */
const struct kindex_def *kindex_find(const struct kindex *, const char *);
/* How many definitions name has; *firstp the first. */
size_t	kindex_find_all(const struct kindex *, const char *,
	    const struct kindex_def **firstp);

/*
 * The cache (store_kindex.c).  A cached file: its path relative to the
 * root's sys/, mtime in ns, size, and "name line\n" per definition.
 */
struct kindex_cached {
	char	*path;
	int64_t	 mtime_ns;
	int64_t	 size;
	char	*defs;
};

int	store_kindex_load(struct store *, const char *sysdir,
	    struct kindex_cached **, size_t *, struct diaglist *);
void	store_kindex_cached_free(struct kindex_cached *, size_t);
/* Replaces the cache of sysdir by v[0..n) (in one transaction). */
int	store_kindex_put(struct store *, const char *sysdir,
	    const struct kindex_cached *, size_t, const char *const *gone,
	    size_t ngone, struct diaglist *);

#endif
