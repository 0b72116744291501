/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Run comparison and flaky tests (see compare.h).  Results are matched
 * by tag; a test that ran twice in a run counts by its last result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/compare.h"
#include "ltpscope/linuxref.h"
#include "ltpscope/store_triage.h"
#include "ltpscope/strmap.h"
#include "ltpscope/triage.h"
#include "ltpscope/xmalloc.h"

static const char *const cmp_kind_names[CMP__COUNT] = {
	"same", "regressed", "fixed", "changed", "new", "removed"
};

const char *
cmp_kind_name(enum cmp_kind k)
{
	return (unsigned)k < CMP__COUNT ? cmp_kind_names[k] : "?";
}

unsigned
compare_bad_count(const struct store_result *r)
{
	unsigned n = r->nfail + r->nbroken;

	/* A timeout or a kill says nothing in the counts; still bad. */
	if (n == 0 && test_status_is_bad(r->status))
		n = 1;
	return n;
}

static unsigned
compare_own_warnings(const struct store_result *r)
{
	return r->nwarn > r->nenvwarn ? r->nwarn - r->nenvwarn : 0;
}

enum cmp_kind
compare_results(const struct store_result *a, const struct store_result *b)
{
	unsigned ba, bb;

	if (a == NULL)
		return b == NULL ? CMP_SAME : CMP_NEW;
	if (b == NULL)
		return CMP_REMOVED;
	ba = compare_bad_count(a);
	bb = compare_bad_count(b);
	if (bb > ba)
		return CMP_REGRESSED;
	if (bb < ba)
		return CMP_FIXED;
	/* The environment's warnings come and go with the box. */
	if (a->status != b->status || a->nconf != b->nconf ||
	    compare_own_warnings(a) != compare_own_warnings(b))
		return CMP_CHANGED;
	return CMP_SAME;
}

int
compare_default_runs(struct store *st, int64_t *run_a, int64_t *run_b,
    struct diaglist *dl)
{
	struct store_run rb;
	int err;

	if (*run_b == 0 && (err = store_latest_run(st, run_b, dl)) !=
	    STORE_OK)
		return err;
	if (*run_a != 0)
		return STORE_OK;
	if ((err = store_get_run(st, *run_b, &rb, dl)) != STORE_OK)
		return err;
	err = store_baseline_get(st, rb.arch, run_a, dl);
	if (err == STORE_OK && *run_a != *run_b)
		goto out;
	if (err != STORE_OK && err != STORE_ENOTFOUND)
		goto out;
	if ((err = store_previous_run(st, rb.arch, *run_b, run_a, dl)) ==
	    STORE_OK && *run_a == 0) {
		diag_error(dl, store_path(st), 0, "nothing to compare run %lld "
		    "with: no baseline for arch '%s' and no earlier run "
		    "(set one with ltpscope baseline RUN)",
		    (long long)*run_b, rb.arch);
		err = STORE_ENOTFOUND;
	}
out:
	store_run_clear(&rb);
	return err;
}

/* Keeps the last result of each tag: v is in execution order. */
static int
by_tag(const void *x, const void *y)
{
	const struct store_result *a = x, *b = y;
	int c = strcmp(a->tag, b->tag);

	if (c != 0)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

/* Both below; own: v's strings are its own, and those dropped freed. */
static size_t
last_per_tag(struct store_result *v, size_t n, int own)
{
	size_t i, m = 0;

	qsort(v, n, sizeof(*v), by_tag);
	for (i = 0; i < n; i++) {
		if (v[i].status == TS_RUNNING) {
			if (own)
				store_result_clear(&v[i]);
			continue;
		}
		if (m > 0 && strcmp(v[m - 1].tag, v[i].tag) == 0) {
			--m;
			if (own)
				store_result_clear(&v[m]);
		}
		if (m != i)
			v[m] = v[i];
		m++;
	}
	return m;
}

size_t
compare_last_per_tag(struct store_result *v, size_t n)
{
	return last_per_tag(v, n, 1);
}

size_t
compare_last_per_tag_borrowed(struct store_result *v, size_t n)
{
	return last_per_tag(v, n, 0);
}

static void
add_warning(struct cmp_result *c, const char *what, const char *a,
    const char *b)
{
	char *w;

	if (strcmp(a, b) == 0)
		return;
	xasprintf(&w, "the runs differ in %s: '%s' against '%s'", what, a, b);
	c->warnings = xreallocarray(c->warnings, c->nwarnings + 1,
	    sizeof(*c->warnings));
	c->warnings[c->nwarnings++] = w;
}

static void
add_item(struct cmp_result *c, const struct store_result *a,
    const struct store_result *b, char *const *flaky, size_t nflaky,
    const struct linuxref *ref)
{
	struct cmp_item *it;
	const struct store_result *r = b != NULL ? b : a;

	if (c->n % 64 == 0)
		c->v = xreallocarray(c->v, c->n + 64, sizeof(*c->v));
	it = &c->v[c->n++];
	memset(it, 0, sizeof(*it));
	it->tag = xstrdup(r->tag);
	it->syscall = triage_result_syscall(r);
	it->kind = compare_results(a, b);
	it->status_a = a != NULL ? (int)a->status : -1;
	it->status_b = b != NULL ? (int)b->status : -1;
	it->bad_a = a != NULL ? compare_bad_count(a) : 0;
	it->bad_b = b != NULL ? compare_bad_count(b) : 0;
	it->conf_a = a != NULL ? a->nconf : 0;
	it->conf_b = b != NULL ? b->nconf : 0;
	it->warn_a = a != NULL ? a->nwarn : 0;
	it->warn_b = b != NULL ? b->nwarn : 0;
	it->flaky = flaky_has(flaky, nflaky, it->tag);
	it->status_linux = linuxref_status(ref, it->tag);
	it->linux_too = b != NULL && test_status_is_bad(b->status) &&
	    linuxref_fails(ref, it->tag);
	c->nlinux_too += it->linux_too;
	c->counts[it->kind]++;
}

int
compare_runs(struct store *st, int64_t a, int64_t b, unsigned flaky_n,
    unsigned flaky_m, struct cmp_result *c, struct diaglist *dl)
{
	struct store_result *va = NULL, *vb = NULL;
	struct linuxref ref;
	char **flaky = NULL;
	size_t na = 0, nb = 0, nflaky = 0, i = 0, j = 0;
	int err, d;

	memset(c, 0, sizeof(*c));
	memset(&ref, 0, sizeof(ref));
	if ((err = store_get_run(st, a, &c->a, dl)) != STORE_OK ||
	    (err = store_get_run(st, b, &c->b, dl)) != STORE_OK ||
	    (err = store_run_results(st, a, &va, &na, dl)) != STORE_OK ||
	    (err = store_run_results(st, b, &vb, &nb, dl)) != STORE_OK ||
	    (err = flaky_tests(st, b, vb, nb, flaky_n ? flaky_n : FLAKY_N,
	    flaky_m ? flaky_m : FLAKY_M, &flaky, &nflaky, dl)) != STORE_OK ||
	    (err = linuxref_load(st, c->b.arch, b, &ref, dl)) != STORE_OK)
		goto out;
	c->linux_run = ref.run_id;
	add_warning(c, "OS", c->a.os_name, c->b.os_name);
	add_warning(c, "OS version", c->a.os_version, c->b.os_version);
	add_warning(c, "arch", c->a.arch, c->b.arch);
	add_warning(c, "LTP version", c->a.ltp_version, c->b.ltp_version);
	na = compare_last_per_tag(va, na);
	nb = compare_last_per_tag(vb, nb);
	while (i < na || j < nb) {
		if (i == na)
			d = 1;
		else if (j == nb)
			d = -1;
		else
			d = strcmp(va[i].tag, vb[j].tag);
		if (d < 0)
			add_item(c, &va[i++], NULL, flaky, nflaky, &ref);
		else if (d > 0)
			add_item(c, NULL, &vb[j++], flaky, nflaky, &ref);
		else
			add_item(c, &va[i++], &vb[j++], flaky, nflaky, &ref);
	}
out:
	store_results_free(va, na);
	store_results_free(vb, nb);
	flaky_free(flaky, nflaky);
	linuxref_free(&ref);
	if (err != STORE_OK)
		compare_free(c);
	return err;
}

void
compare_free(struct cmp_result *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].tag);
		free(c->v[i].syscall);
	}
	free(c->v);
	for (i = 0; i < c->nwarnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	store_run_clear(&c->a);
	store_run_clear(&c->b);
	memset(c, 0, sizeof(*c));
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

int
flaky_has(char *const *v, size_t n, const char *tag)
{
	return n > 0 && bsearch(&tag, v, n, sizeof(*v), cmp_str) != NULL;
}

void
flaky_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* One test's history in flaky_tests(), as far as it has been read. */
struct flaky_test {
	int64_t		 run;		/* the run of its newest result */
	int64_t		 id;		/* that result's id */
	int		 cur, last;	/* statuses: that run's, the
					   previous run's; -1: none */
	unsigned	 changes;
};

/* Where flaky_tests() is in the history: the tests by number. */
struct flaky_walk {
	struct strmap	  tags;
	struct flaky_test *v;
	size_t		  cap;
};

/* A result, the runs oldest first (see store_recent_history()). */
static int
flaky_row(void *arg, const char *tag, size_t len, int64_t run, int64_t id,
    enum test_status status)
{
	struct flaky_walk *w = arg;
	struct flaky_test *t;
	size_t i;
	int isnew;

	i = strmap_add(&w->tags, tag, len, &isnew);
	if (isnew) {
		if (i >= w->cap) {
			w->cap = w->cap ? w->cap * 2 : 256;
			w->v = xreallocarray(w->v, w->cap, sizeof(*w->v));
		}
		t = &w->v[i];
		t->last = -1;
		t->changes = 0;
	} else {
		t = &w->v[i];
		if (run == t->run && id < t->id)
			return 0;	/* an earlier try in the same run */
		if (run != t->run) {
			/* The previous run's result is final now. */
			if (t->last >= 0 && t->cur != t->last)
				t->changes++;
			t->last = t->cur;
		}
	}
	t->run = run;
	t->id = id;
	t->cur = (int)status;
	return 0;
}

int
flaky_tests(struct store *st, int64_t run_id, const struct store_result *res,
    size_t nres, unsigned n, unsigned m, char ***vp, size_t *np,
    struct diaglist *dl)
{
	struct flaky_walk w;
	struct flaky_test *t;
	size_t i;
	int err;

	*vp = NULL;
	*np = 0;
	memset(&w, 0, sizeof(w));
	strmap_init(&w.tags);
	/* A test that ran twice in a run counts by its last result. */
	if (res == NULL)
		err = store_recent_history(st, run_id, m, 1, flaky_row, &w,
		    dl);
	else if ((err = store_recent_history(st, run_id, m > 0 ? m - 1 : 0,
	    0, flaky_row, &w, dl)) == STORE_OK && m > 0) {
		/* The newest run last, as the store would give it. */
		for (i = 0; i < nres; i++)
			if (res[i].status != TS_RUNNING)
				(void)flaky_row(&w, res[i].tag != NULL ?
				    res[i].tag : "", res[i].tag != NULL ?
				    strlen(res[i].tag) : 0, run_id, res[i].id,
				    res[i].status);
	}
	for (i = 0; err == STORE_OK && i < w.tags.n; i++) {
		t = &w.v[i];
		if (t->last >= 0 && t->cur != t->last)
			t->changes++;
		if (n == 0 || t->changes < n)
			continue;
		*vp = xreallocarray(*vp, *np + 1, sizeof(**vp));
		(*vp)[(*np)++] = xstrdup(w.tags.keys[i]);
	}
	strmap_free(&w.tags);
	free(w.v);
	if (err != STORE_OK)
		return err;
	/* flaky_has() looks names up by bsearch(). */
	if (*np > 1)
		qsort(*vp, *np, sizeof(**vp), cmp_str);
	return STORE_OK;
}
