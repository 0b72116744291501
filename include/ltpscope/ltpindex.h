/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The LTP test index: which tests an LTP install offers (its runtest
 * files), how to start each one, and which Linux syscalls each one
 * exercises.
 *
 * Ownership: struct ltpindex owns every test, string and vector in it
 * (ltpindex_free() releases them); struct testmap owns its rules
 * (testmap_free()).  The syscall name lists passed in are only read
 * during the call and never kept.  Nothing here prints or exits;
 * problems go to the caller's struct diaglist as "file:line: message".
 */
#ifndef LTPSCOPE_LTPINDEX_H
#define LTPSCOPE_LTPINDEX_H

#include <stddef.h>

#include "ltpscope/diag.h"

struct ltptest {
	char		 *tag;		/* first word of the runtest line */
	char		 *cmdline;	/* the rest of the line, raw */
	char		**argv;		/* NULL-terminated split of cmdline;
					   NULL when needs_shell */
	int		  needs_shell;	/* run as /bin/sh -c cmdline */
	const char	 *file;		/* runtest file; owned by the index */
	unsigned long	  line;
	/* Filled by ltpindex_map(); nsyscalls == 0 means unmapped. */
	char		**syscalls;	/* NULL-terminated */
	size_t		  nsyscalls;
	unsigned long	  mapline;	/* testmap line that decided; 0: the
					   name-prefix rule (or unmapped) */
};

struct ltpindex {
	struct ltptest	 *tests;	/* in runtest-file order */
	size_t		  ntests;
	size_t		  cap;
	char		**files;	/* names of the files loaded */
	size_t		  nfiles;
	size_t		 *hash;		/* tag -> index + 1; 0 is empty */
	size_t		  hashcap;
};

void	ltpindex_init(struct ltpindex *);
void	ltpindex_free(struct ltpindex *);

/*
 * Path of a runtest file given as on the command line: an absolute path
 * as is; a plain name as ROOT/runtest/NAME; a relative path with a '/'
 * as ROOT/runtest/PATH when that exists, else relative to the current
 * directory.  Caller frees.
 */
char	*ltpindex_runtest_path(const char *root, const char *name);

/*
 * Loads one runtest file and appends its tests.  Returns -1 (with an
 * error in dl) when the file cannot be read, otherwise 0; bad lines are
 * reported in dl and skipped, so check dl->nerrors.
 *
 * Errors: unterminated quote, backslash at the end of the line, a tag
 * with no command, a tag with '/' or other characters unsafe in a file
 * name, NUL or control bytes ("binary junk").
 * A tag seen before (in this file or an earlier one) is ignored: the
 * first entry wins, because tags name results and logs and must be
 * unique.  Silently when it runs the same command (runtest/syscalls-ipc
 * repeats runtest/syscalls); otherwise one warning per file, at the
 * first such line, with how many there are.
 */
int	ltpindex_load_file(struct ltpindex *, const char *path,
	    struct diaglist *);
/* The same from memory; name is used in diagnostics and as test file. */
int	ltpindex_load_buf(struct ltpindex *, const char *name,
	    const char *buf, size_t len, struct diaglist *);
/*
 * The default set for ROOT: runtest/syscalls and runtest/syscalls-ipc.
 * A missing syscalls-ipc is not an error (old installs lack it).
 */
int	ltpindex_load_default(struct ltpindex *, const char *root,
	    struct diaglist *);

/* The test with this tag, or NULL. */
const struct ltptest	*ltpindex_find(const struct ltpindex *, const char *);

/*
 * Splits a runtest command line the way /bin/sh would when the line is
 * a simple command: words separated by blanks, '...' and "..." quoting,
 * backslash escapes.  Returns 1 and a NULL-terminated vector in *argvp
 * (free with xfreev(), xmalloc.h) for a simple command; 0 when the line
 * needs a shell (unquoted ; | & < > ( ) ` $ * ? [ ~ #, an assignment
 * before the command, or $ ` inside double quotes); -1 on a syntax
 * error, with *why set to a static message and *col to the 1-based
 * column of the offending character.
 */
int	runtest_split(const char *, char ***argvp, const char **why,
	    unsigned int *col);

/*
 * The override file (data/testmap).  Each line:
 *	TAG-OR-GLOB  NAME[|ALT...][,NAME[|ALT...]]...  [# comment]
 * The first line whose pattern matches a tag (fnmatch(3)) decides.
 * Of "a|b" the first name present in the syscall list is taken, so one
 * file serves tables of several architectures; an item none of whose
 * names is in the list is dropped, and a rule left with no item leaves
 * the test unmapped.
 */
struct testmap_rule {
	char		 *pattern;
	char		**items;	/* each "name|alt|..." */
	size_t		  nitems;
	unsigned long	  line;
};

struct testmap {
	char			*file;
	struct testmap_rule	*rules;
	size_t			 nrules;
};

void	testmap_init(struct testmap *);
void	testmap_free(struct testmap *);
/* Returns -1 when unreadable; bad lines are reported in dl and skipped. */
int	testmap_load_file(struct testmap *, const char *path,
	    struct diaglist *);
int	testmap_load_buf(struct testmap *, const char *name, const char *buf,
	    size_t len, struct diaglist *);

/*
 * Maps every test to its syscalls: the testmap (may be NULL) first,
 * else the longest name in names that the tag starts with, followed by
 * nothing but digits and underscores (clone301 -> clone3, fcntl34_64 ->
 * fcntl).  Returns how many tests stay unmapped.
 */
size_t	ltpindex_map(struct ltpindex *, const struct testmap *,
	    const char *const *names, size_t n);
/* The same rule for one tag; NULL when nothing maps.  Caller frees. */
char	**ltpindex_map_tag(const char *tag, const struct testmap *,
	    const char *const *names, size_t n, unsigned long *mapline);

/*
 * Which tests to show or run.  A test is selected when it matches any
 * of the criteria given (all tests when none is); unmapped_only then
 * keeps only the unmapped ones.
 */
struct ltpselect {
	const char *const	*syscalls;	/* -s: exact syscall names */
	size_t			 nsyscalls;
	const char		*pattern;	/* -p: pcre2, tag and names */
	const char *const	*tags;		/* explicit test tags */
	size_t			 ntags;
	int			 unmapped_only;
};

/* Bounds the work one -p pattern may do on one subject. */
#define LTPSELECT_MATCH_LIMIT	100000

/*
 * Fills *outp (caller frees) with indexes into idx->tests, each test
 * once: first the tests of each -s name in the order the names were
 * given (within a name in runtest order, as the earlier shell tool ran
 * them), then the explicit tags in their order, then the -p matches in
 * runtest order.  A -s name that no test maps to selects the tests
 * named after it (NAME followed by digits and underscores: "-s pread"
 * gives pread01 and pread01_64, as the shell tool's LTP directories
 * did); when there are none either, it is a warning.  Returns -1 for a
 * bad pattern (error with its column) or an unknown tag (error).
 */
int	ltpindex_select(const struct ltpindex *, const struct ltpselect *,
	    size_t **outp, size_t *np, struct diaglist *);

#endif
