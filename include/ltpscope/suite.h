/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The suite: an LTP install's tests mapped onto a syscall catalogue.
 * This is the glue `ltpscope tests`, `ltpscope run` and the explorer
 * share: find the tables (the -m files or the default source), the LTP
 * install and its runtest files, the testmap, and map one onto the
 * other.
 *
 * When the install has LTP's metadata (metadata/ltp.json), a test's
 * syscall group there joins the testmap's calls, or takes the place of
 * the name rule's guess; the rule is written once, for users, in
 * ltpscope(1) under "tests".
 *
 * Ownership: the suite owns everything in it until suite_free().
 */
#ifndef LTPSCOPE_SUITE_H
#define LTPSCOPE_SUITE_H

#include <stddef.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/diag.h"
#include "ltpscope/ltpindex.h"
#include "ltpscope/ltpmeta.h"

struct suite_opts {
	const char *const	*tables;	/* -m files; none: default */
	size_t			 ntables;
	const char		*ltpdir;	/* -L; NULL: $LTPROOT, /opt/ltp */
	const char *const	*runtests;	/* -f files; none: default */
	size_t			 nruntests;
	const char		*testmap;	/* NULL: the default testmap */
	int			 no_index;	/* catalogue only */
	const char		*metadata;	/* ltp.json; NULL: the
						   install's, if any */
	int			 no_metadata;	/* name mapping only */
};

struct suite {
	struct catalogue	*cat;
	char			 tables_used[1024]; /* for messages */
	const char		**names;	/* distinct Linux names */
	size_t			 nnames;
	const char		*root;		/* LTP install */
	struct ltpindex		 idx;
	struct testmap		 tm;
	size_t			 nunmapped;
	struct ltpmeta		*meta;		/* NULL: none; bound to idx */
	size_t			 nmeta;		/* tests with metadata */
	size_t			 nmeta_mapped;	/* mapped by their group */
};

/*
 * Linux's names (the data directory's syscalls/ABI files) for the
 * NetBSD ABIs of cat that no loaded Linux table names; see
 * catalogue_load_names().  suite_load() does this itself.
 */
int		 suite_load_names(struct catalogue *, struct diaglist *);
/* The testmap to use: $LTPSCOPE_TESTMAP, else data/testmap. */
void		 suite_default_testmap(char *, size_t);

/*
 * Loads what opts asks for.  Returns 0, or -1 when something needed
 * could not be read at all; problems in files that did load are in dl
 * (check dl->nerrors).  The suite must be freed either way.
 */
int	suite_load(struct suite *, const struct suite_opts *,
	    struct diaglist *);
void	suite_free(struct suite *);
/*
 * Applies the metadata groups to idx as described above; returns how
 * many tests map to their group now.  suite_load() does this itself.
 */
size_t	suite_apply_groups(struct ltpindex *, const struct ltpmeta *,
	    const char *const *names, size_t n);
/* The first syscall a test maps to, or "". */
const char	*suite_test_syscall(const struct ltptest *);

#endif
