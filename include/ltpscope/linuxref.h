/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linux reference runs: per arch, one run made on Linux (ltpscope run
 * --reference there, or an import of a run made there) that says which
 * failures under compat_linux fail on Linux as well.  Those are not
 * compat_linux's to fix: compare, the explorer and the shopping list
 * mark them "fails on Linux too" and rank them last, and triage rules
 * of the field "linux:" (rules.h) match on how the reference did.
 *
 * Arches are compared by their canonical name, linuxref_arch(): Linux
 * says x86_64 and i686 where NetBSD says amd64 and i386.
 *
 * Ownership: linuxref_free() releases what linuxref_load() filled.
 * Errors go to the diaglist naming the database file.
 */
#ifndef LTPSCOPE_LINUXREF_H
#define LTPSCOPE_LINUXREF_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/store.h"

/* The canonical name of arch (a static string, or arch itself). */
const char	*linuxref_arch(const char *arch);
/* Whether two arch names name the same arch. */
int		 linuxref_same_arch(const char *, const char *);
/*
 * The i-th other name of arch (amd64's x86_64, x86_64's amd64), a
 * static string; NULL past the last.
 */
const char	*linuxref_arch_other(const char *arch, size_t i);

/*
 * Makes run_id the Linux reference of its arch (replacing any other).
 * STORE_EINVAL, saying so, when the run was not made on Linux.
 */
int	linuxref_set(struct store *, int64_t run_id, struct diaglist *);
/* The reference run of arch; STORE_ENOTFOUND (no message) if none. */
int	linuxref_get(struct store *, const char *arch, int64_t *idp,
	    struct diaglist *);
/* Removes arch's reference; none is not an error. */
int	linuxref_clear(struct store *, const char *arch, struct diaglist *);

/* The reference's results, the last of each test, ordered by tag. */
struct linuxref {
	int64_t			 run_id;	/* 0: no reference */
	struct store_result	*v;
	size_t			 n;
};

/*
 * Loads the reference of arch; no reference is no error (run_id 0).
 * A run that is itself the reference (self == run_id) gets none: a run
 * cannot fail "on Linux too" against itself.
 */
int	linuxref_load(struct store *, const char *arch, int64_t self,
	    struct linuxref *, struct diaglist *);
void	linuxref_free(struct linuxref *);
/* The reference's result of tag, or NULL. */
const struct store_result *linuxref_find(const struct linuxref *,
	    const char *tag);
/* enum test_status of tag on Linux; -1 when the reference lacks it. */
int	linuxref_status(const struct linuxref *, const char *tag);
/* Whether tag fails (failed, broken, timed out...) on Linux too. */
int	linuxref_fails(const struct linuxref *, const char *tag);

/*
 * What "linux:" rules match, for a failure with output (len bytes):
 * "STATUS same" when the reference failed the same way (the same first
 * failing line, its file:line prefix aside: line numbers move between
 * LTP builds), "STATUS other" when it failed otherwise, "STATUS" when
 * it did not fail ("pass", "conf"...).  buf is "" when the reference
 * has no result for the test.
 */
void	linuxref_subject(struct store *, const struct linuxref *,
	    const char *tag, const char *output, size_t len, char *buf,
	    size_t buflen);

#endif
