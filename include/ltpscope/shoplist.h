/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shopping list: the failures of one run grouped per syscall, each
 * with its category (a confirmed tag, else a rule's suggestion), note,
 * first failing line and the syscall's catalogue state, syscalls
 * ordered by priority.
 *
 * Priority of a syscall = failing tests x weight, where the weight of
 * the call ranked r (1-based) among the n of data/fundamental is
 * n + 2 - r, and 1 for calls not listed.  Ties go by name.  A failing
 * test that fails on the Linux reference run of the arch too
 * (linuxref.h) is marked and counts for nothing: it is listed after
 * the syscall's other tests, and a syscall with only such tests comes
 * after every other (priority 0).
 *
 * Weighed by program profiles (export --weight @ls,@python3), the list
 * ranks by how many of the profiles need a call, then by how often they
 * call it, then by priority; calls the profiles need that the catalogue
 * says are not implemented (absent ones too: Linux has them, the table
 * not) join the list even without a failing test.  With no run of the
 * arch yet, the list is those calls alone, from the catalogue.
 *
 * When the store holds finished runs of other arches, each test gets
 * its status on the newest of each (a column per arch, the run's own
 * first) and the word of archmatrix.h for where it fails: a failure
 * that passes on another arch is "arch-specific".
 *
 * Its export as CSV, Markdown, JSON or HTML is export.h's.
 *
 * Ownership: a struct shoplist owns everything in it; shoplist_free().
 */
#ifndef LTPSCOPE_SHOPLIST_H
#define LTPSCOPE_SHOPLIST_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/archmatrix.h"
#include "ltpscope/categories.h"
#include "ltpscope/fundamental.h"
#include "ltpscope/rules.h"
#include "ltpscope/store.h"

struct catalogue;
struct kindex;
struct ltpmeta;
struct profile;

enum shop_source {
	SHOP_NONE,		/* no tag, no rule matched */
	SHOP_SUGGESTED,		/* a rule's suggestion */
	SHOP_TAGGED		/* a confirmed tag */
};

/* A tag of LTP's metadata: the Linux commit or CVE a test checks. */
struct shop_ref {
	char		*name;		/* "linux-git 086e774a57fb" */
	char		*kind;
	char		*value;
	char		*url;		/* "" when none */
};

struct shop_test {
	int		 flaky;		/* see compare.h */
	char		*tag;
	enum test_status status;
	char		*category;	/* "" when SHOP_NONE */
	enum shop_source source;
	char		*note;		/* "" when none */
	char		*author;
	char		*first_line;	/* first failing line, "" if none */
	int		 linux_status;	/* enum test_status on the Linux
					   reference; -1: none */
	int		 linux_too;	/* fails on Linux too */
	/* Its row in the list's arch matrix (status per arch, scope): */
	const struct amx_row *arch;
	unsigned	 kmsg_lines;	/* the kernel's lines during it */
	int		 kmsg_marked;	/* the kernel warned or was tainted */
	struct shop_ref	*refs;		/* its metadata's tags */
	size_t		 nrefs;
};

struct shop_syscall {
	char		*name;
	char		*cat_state;	/* catalogue state, "" if unknown */
	size_t		 rank;		/* in data/fundamental, 0: not */
	unsigned long	 priority;
	/* With profiles (shop_opts.profiles): */
	unsigned	 nprofiles;	/* how many need it */
	unsigned long	 ncalls;	/* how often they call it */
	char		*profiles;	/* their names, "," separated */
	unsigned	 nresults;	/* results of its tests in the run;
					   0: no LTP results yet */
	struct shop_test *tests;	/* Linux's failures last */
	size_t		 ntests;
	size_t		 nlinux;	/* of them failing on Linux too */
	/* The kernel function behind it (shop_opts.kidx): */
	char		*function;	/* "linux_sys_fcntl"; "": unknown */
	char		*func_file;	/* relative to the tree; "": none */
	unsigned long	 func_line;
};

struct shop_opts {
	int64_t			 run_id;	/* 0: the newest run of arch */
	const char		*arch;		/* NULL or "": any */
	const struct categories	*cats;		/* NULL: every tag listed */
	struct rules		*rules;		/* NULL: no suggestions */
	struct catalogue	*cat;		/* NULL: no catalogue state */
	const struct fundamental *fund;		/* NULL: all weights 1 */
	/* Also tests tagged with categories not for the list: */
	int			 all;
	/* Profiles that weigh the list (profile.h); none: unweighed. */
	const struct profile	*profiles;
	size_t			 nprofiles;
	/* Where each call's function is (kindex.h); NULL: not said. */
	struct kindex		*kidx;
	/* A link to a function: %f its file, %l its line; NULL: none. */
	const char		*source_url;
	/* LTP's metadata, for the tags of each test; NULL: none. */
	const struct ltpmeta	*meta;
	const char		*linux_git_url;	/* ltpmeta_tag_link() */
};

/* A column of the report: one run, its results counted per syscall. */
struct shop_column {
	int64_t			 run_id;
	char			*arch;		/* as the run says it */
	char			*os_name;
	int			 linux_ref;	/* the Linux reference */
};

/* A syscall of the report's table: passed and run per column. */
struct shop_row {
	char			*name;
	unsigned		*passed;	/* [ncols] */
	unsigned		*ran;		/* [ncols]; 0: not run there */
	/* Weighed, a call of the list has a row though nothing ran it: */
	unsigned		 nprofiles;	/* profiles that call it */
	unsigned long		 ncalls;	/* how often they do */
};

/* A point of the history chart: a run of the same system and arch. */
struct shop_point {
	int64_t			 run_id;
	unsigned		 passed;
	unsigned		 ran;
};

#define SHOP_HISTORY_MAX	10	/* runs in the history chart */

struct shoplist {
	struct store_run	 run;
	struct shop_syscall	*v;		/* by priority, highest first */
	size_t			 n;
	size_t			 ntests;
	int64_t			 linux_run;	/* the arch's Linux reference
						   run; 0: none */
	size_t			 nlinux;	/* tests failing there too */
	/* For the charts: */
	char			**catnames;	/* categories seen, "" = none */
	unsigned		*catcounts;
	size_t			 ncats;
	unsigned		 statuscounts[TS__COUNT];
	/* Tests of the run, failing or not, after which the kernel warned
	   or was tainted: a pass that did so is a finding too. */
	size_t			 nkmarked;
	int			 weighted;	/* by profiles */
	/*
	 * The run (column 0) beside the newest finished run of every
	 * other arch (archmatrix.h); the formats show a column per arch
	 * when there are several.
	 */
	struct archmatrix	 arches;
	/*
	 * For the HTML report: columns (those of arches, then the Linux
	 * reference), a row per syscall any of them ran, by name, and the
	 * pass counts of the last runs of the same OS and arch, oldest
	 * first.
	 */
	struct shop_column	*cols;
	size_t			 ncols;
	struct shop_row		*rows;
	size_t			 nrows;
	struct shop_point	 history[SHOP_HISTORY_MAX];
	size_t			 nhistory;
	char			*source_url;	/* shop_opts's; NULL: none */
	/* Made with a kernel index: the CSV has the function columns. */
	int			 kindexed;
};

int	shoplist_build(struct store *, const struct shop_opts *,
	    struct shoplist *, struct diaglist *);
void	shoplist_free(struct shoplist *);
/*
 * Fills each call's function, file and line (shoplist_kfunc.c), from
 * the catalogue and o->kidx; shoplist_build() calls it.
 */
void	shoplist_kfuncs(struct shoplist *, const struct shop_opts *);
/*
 * Writes o's source_url for a call's function into buf (%f its file,
 * %l its line, %% a %); 0 when the list has no template or the call no
 * file.
 */
int	shoplist_func_url(const struct shoplist *, const struct shop_syscall *,
	    char *buf, size_t);

#endif
