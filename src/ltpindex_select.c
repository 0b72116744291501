/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Choosing tests from the index (ltpindex_select(), see ltpindex.h): by
 * syscall name (-s, as the earlier compat_linux_test_project shell tool
 * did: the tests of each named syscall, syscall by syscall), by explicit
 * tag, and by a pcre2 pattern matched against tags and syscall names.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH	8
#include <pcre2.h>

#include "ltpscope/ltpindex.h"
#include "ltpscope/xmalloc.h"

struct picked {
	size_t		*v;
	size_t		 n;
	unsigned char	*taken;		/* per test */
};

static void
pick(struct picked *pk, const struct ltpindex *idx, size_t i, int only)
{
	if (pk->taken[i] || (only && idx->tests[i].nsyscalls != 0))
		return;
	pk->taken[i] = 1;
	pk->v[pk->n++] = i;
}

static int
test_has_syscall(const struct ltptest *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nsyscalls; i++)
		if (strcmp(t->syscalls[i], name) == 0)
			return 1;
	return 0;
}

/* The tag is name followed by digits and underscores only. */
static int
tag_named_after(const char *tag, const char *name)
{
	size_t len = strlen(name);

	if (strncmp(tag, name, len) != 0 || tag[len] == '\0')
		return 0;
	return strspn(tag + len, "0123456789_") == strlen(tag + len);
}

/* 1 on a match; a subject that hits the match limit counts as none. */
static int
pattern_matches(pcre2_code *re, pcre2_match_data *md,
    pcre2_match_context *mc, const char *s, int *limited)
{
	int rc;

	rc = pcre2_match(re, (PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED, 0, 0, md,
	    mc);
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT)
		*limited = 1;
	return rc >= 0;
}

static int
select_by_pattern(const struct ltpindex *idx, const struct ltpselect *sel,
    struct picked *pk, struct diaglist *dl)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	pcre2_code *re;
	pcre2_match_data *md;
	pcre2_match_context *mc;
	size_t i, j;
	int err, hit, limited = 0;

	re = pcre2_compile((PCRE2_SPTR)sel->pattern, PCRE2_ZERO_TERMINATED,
	    0, &err, &off, NULL);
	if (re == NULL) {
		(void)pcre2_get_error_message(err, msg, sizeof(msg));
		diag_add(dl, DIAG_ERROR, "-p", 1, (unsigned int)off + 1,
		    "%s in pattern '%s'", (char *)msg, sel->pattern);
		return -1;
	}
	/* JIT is an optimisation; NetBSD's PaX MPROTECT may refuse it. */
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	md = pcre2_match_data_create_from_pattern(re, NULL);
	mc = pcre2_match_context_create(NULL);
	(void)pcre2_set_match_limit(mc, LTPSELECT_MATCH_LIMIT);
	(void)pcre2_set_depth_limit(mc, LTPSELECT_MATCH_LIMIT / 10);
	for (i = 0; i < idx->ntests; i++) {
		const struct ltptest *t = &idx->tests[i];

		hit = pattern_matches(re, md, mc, t->tag, &limited);
		for (j = 0; !hit && j < t->nsyscalls; j++)
			hit = pattern_matches(re, md, mc, t->syscalls[j],
			    &limited);
		if (hit)
			pick(pk, idx, i, sel->unmapped_only);
	}
	if (limited)
		diag_add(dl, DIAG_WARNING, "-p", 1, 0,
		    "pattern '%s' hit the match limit; some tests were not "
		    "considered", sel->pattern);
	pcre2_match_context_free(mc);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return 0;
}

/*
 * The -s names no test exercises.  A program's profile (-s @ls) names
 * dozens of calls LTP has no test for: one warning lists them all
 * rather than a screenful of the same sentence.
 */
#define MISSING_ONE_BY_ONE	3
#define MISSING_LIST_MAX	600

struct missing {
	const char	*first[MISSING_ONE_BY_ONE];
	char		 list[MISSING_LIST_MAX];
	size_t		 n;
};

static void
missing_add(struct missing *m, const char *name)
{
	size_t used = strlen(m->list);

	if (m->n < MISSING_ONE_BY_ONE)
		m->first[m->n] = name;
	m->n++;
	if (used + strlen(name) + 8 < sizeof(m->list))
		(void)snprintf(m->list + used, sizeof(m->list) - used, "%s%s",
		    used > 0 ? ", " : "", name);
	else if (used + 5 < sizeof(m->list) &&
	    strcmp(m->list + used - 3, "...") != 0)
		(void)snprintf(m->list + used, sizeof(m->list) - used, ", ...");
}

static void
missing_report(const struct missing *m, struct diaglist *dl)
{
	size_t i;

	if (m->n > MISSING_ONE_BY_ONE) {
		diag_add(dl, DIAG_WARNING, NULL, 0, 0, "no test exercises %zu "
		    "of the syscalls: %s", m->n, m->list);
		return;
	}
	for (i = 0; i < m->n; i++)
		diag_add(dl, DIAG_WARNING, NULL, 0, 0,
		    "no test exercises syscall '%s'", m->first[i]);
}

int
ltpindex_select(const struct ltpindex *idx, const struct ltpselect *sel,
    size_t **outp, size_t *np, struct diaglist *dl)
{
	struct picked pk;
	struct missing miss;
	const struct ltptest *t;
	size_t i, j;
	int rv = 0, found;

	pk.v = xcalloc(idx->ntests + 1, sizeof(*pk.v));
	pk.n = 0;
	pk.taken = xcalloc(idx->ntests + 1, 1);
	memset(&miss, 0, sizeof(miss));
	for (j = 0; j < sel->nsyscalls; j++) {
		found = 0;
		for (i = 0; i < idx->ntests; i++) {
			if (test_has_syscall(&idx->tests[i],
			    sel->syscalls[j])) {
				found = 1;
				pick(&pk, idx, i, sel->unmapped_only);
			}
		}
		/*
		 * The shell tool grouped tests by LTP directory, so users
		 * say "-s pread" or "-s abort": names no test maps to.  Take
		 * them to mean the tests named after them (pread01_64).
		 */
		if (!found) {
			for (i = 0; i < idx->ntests; i++) {
				if (tag_named_after(idx->tests[i].tag,
				    sel->syscalls[j])) {
					found = 1;
					pick(&pk, idx, i, sel->unmapped_only);
				}
			}
		}
		if (!found)
			missing_add(&miss, sel->syscalls[j]);
	}
	missing_report(&miss, dl);
	for (j = 0; j < sel->ntags; j++) {
		if ((t = ltpindex_find(idx, sel->tags[j])) == NULL) {
			diag_add(dl, DIAG_ERROR, NULL, 0, 0,
			    "no test '%s' in the runtest files",
			    sel->tags[j]);
			rv = -1;
			continue;
		}
		pick(&pk, idx, (size_t)(t - idx->tests), sel->unmapped_only);
	}
	if (sel->pattern != NULL && select_by_pattern(idx, sel, &pk, dl) < 0)
		rv = -1;
	if (sel->nsyscalls == 0 && sel->ntags == 0 && sel->pattern == NULL)
		for (i = 0; i < idx->ntests; i++)
			pick(&pk, idx, i, sel->unmapped_only);
	free(pk.taken);
	if (rv < 0) {
		free(pk.v);
		*outp = NULL;
		*np = 0;
		return -1;
	}
	*outp = pk.v;
	*np = pk.n;
	return 0;
}
