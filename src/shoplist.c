/*
 * Building the shopping list of a run: its failures grouped per
 * syscall with category, note, first failing line and catalogue state,
 * ordered by priority (see export.h).  One pass over the run's
 * results; outputs are read only for the failures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/compare.h"
#include "ltpscope/crashlog.h"
#include "ltpscope/export.h"
#include "ltpscope/profile.h"
#include "ltpscope/linuxref.h"
#include "ltpscope/triage.h"
#include "ltpscope/triage_store.h"
#include "ltpscope/xmalloc.h"

static const struct triage_tag *
find_tag(const struct triage_tag *v, size_t n, const char *tag)
{
	size_t lo = 0, hi = n, mid;
	int c;

	/* Sorted by test, then line: the whole-test tag ("") first. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(v[mid].tag, tag)) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(v[lo].tag, tag) == 0 ? &v[lo] : NULL;
}

static struct shop_syscall *
find_syscall(struct shoplist *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	l->v = xreallocarray(l->v, l->n + 1, sizeof(*l->v));
	memset(&l->v[l->n], 0, sizeof(l->v[0]));
	l->v[l->n].name = xstrdup(name);
	return &l->v[l->n++];
}

static void
count_category(struct shoplist *l, const char *cat)
{
	size_t i;

	for (i = 0; i < l->ncats; i++)
		if (strcmp(l->catnames[i], cat) == 0) {
			l->catcounts[i]++;
			return;
		}
	l->catnames = xreallocarray(l->catnames, l->ncats + 1,
	    sizeof(*l->catnames));
	l->catcounts = xreallocarray(l->catcounts, l->ncats + 1,
	    sizeof(*l->catcounts));
	l->catnames[l->ncats] = xstrdup(cat);
	l->catcounts[l->ncats++] = 1;
}

static int
by_priority(const void *x, const void *y)
{
	const struct shop_syscall *a = x, *b = y;

	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void
shop_fill_test(struct store *st, const struct shop_opts *o,
    const struct store_result *r, const struct triage_tag *t,
    const char *sys, const struct linuxref *ref, struct shop_test *s)
{
	struct rules_suggestion sg;
	struct store_output out;
	struct diaglist quiet;
	char *first, panic[300], subject[64];

	memset(s, 0, sizeof(*s));
	/* Cleared below even when no rules were given to fill it. */
	memset(&sg, 0, sizeof(sg));
	s->tag = xstrdup(r->tag);
	s->status = r->status;
	diag_init(&quiet);
	if (store_get_output(st, r->id, &out, &quiet) != STORE_OK)
		memset(&out, 0, sizeof(out));
	first = out.data != NULL ? triage_first_failure(out.data,
	    out.stored_size, NULL) : NULL;
	/* A crash's first line is the panic it caused. */
	if (r->status == TS_CRASH && out.data != NULL &&
	    crashlog_find(out.data, out.stored_size, panic + 8,
	    sizeof(panic) - 8)) {
		free(first);
		memcpy(panic, "kernel: ", 8);
		first = xstrdup(panic);
	}
	s->first_line = first != NULL ? first : xstrdup("");
	s->linux_status = linuxref_status(ref, r->tag);
	s->linux_too = linuxref_fails(ref, r->tag);
	subject[0] = '\0';
	if (o->rules != NULL && t == NULL && ref->run_id != 0)
		linuxref_subject(st, ref, r->tag, out.data != NULL ? out.data :
		    "", out.stored_size, subject, sizeof(subject));
	if (t != NULL) {
		s->category = xstrdup(t->category);
		s->source = SHOP_TAGGED;
		s->note = xstrdup(t->note);
		s->author = xstrdup(t->author);
	} else {
		s->note = xstrdup("");
		s->author = xstrdup("");
		if (o->rules != NULL && rules_suggest_ref(o->rules, r->tag,
		    sys, subject, out.data != NULL ? out.data : "",
		    out.stored_size, &sg, NULL)) {
			s->category = xstrdup(sg.rule->category);
			s->source = SHOP_SUGGESTED;
		} else
			s->category = xstrdup("");
		rules_suggestion_clear(&sg);
	}
	store_output_clear(&out);
	diag_free(&quiet);
}

/* A syscall's tests as found, those failing on Linux too moved last. */
static void
shop_linux_last(struct shop_syscall *sc)
{
	struct shop_test *v;
	size_t i, m = 0;
	int pass;

	if (sc->nlinux == 0 || sc->nlinux == sc->ntests)
		return;
	v = xcalloc(sc->ntests, sizeof(*v));
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < sc->ntests; i++)
			if (sc->tests[i].linux_too == pass)
				v[m++] = sc->tests[i];
	free(sc->tests);
	sc->tests = v;
}

static const char *
shop_cat_state(struct catalogue *cat, const char *arch, const char *name)
{
	const struct cat_entry *e[4];
	char abi[64];

	if (cat == NULL)
		return "";
	(void)snprintf(abi, sizeof(abi), "linux-%s", arch);
	if (catalogue_find_name(cat, arch[0] != '\0' ? abi : NULL, name, e,
	    4) == 0 && catalogue_find_name(cat, NULL, name, e, 4) == 0)
		return "";
	return cat_state_name(e[0]->state);
}

/* A syscall whose failing tests all fail on Linux too. */
static int
linux_only(const struct shop_syscall *sc)
{
	return sc->ntests > 0 && sc->nlinux == sc->ntests;
}

/*
 * Weighed: what fails on Linux as well last, as unweighted; then most
 * profiles, then most calls, then priority.
 */
static int
by_weight(const void *x, const void *y)
{
	const struct shop_syscall *a = x, *b = y;

	if (linux_only(a) != linux_only(b))
		return linux_only(a) ? 1 : -1;
	if (a->nprofiles != b->nprofiles)
		return a->nprofiles > b->nprofiles ? -1 : 1;
	if (a->ncalls != b->ncalls)
		return a->ncalls > b->ncalls ? -1 : 1;
	return by_priority(x, y);
}

static void
weigh_one(struct shop_syscall *sc, const struct profile *p)
{
	const struct profile_call *c;
	char *t;

	if ((c = profile_find(p, sc->name)) == NULL)
		return;
	sc->nprofiles++;
	sc->ncalls += c->count;
	xasprintf(&t, "%s%s%s", sc->profiles != NULL ? sc->profiles : "",
	    sc->profiles != NULL ? "," : "", p->name);
	free(sc->profiles);
	sc->profiles = t;
}

/*
 * Weighs the list by the profiles; a call they need that is not
 * implemented joins it though no test of it failed.
 */
static void
shop_weigh(struct shoplist *l, const struct shop_opts *o)
{
	const struct profile *p;
	struct shop_syscall *sc;
	const char *state;
	size_t i, k;
	int cs;

	for (k = 0; k < o->nprofiles; k++) {
		p = &o->profiles[k];
		for (i = 0; i < p->ncalls; i++) {
			state = shop_cat_state(o->cat, l->run.arch,
			    p->calls[i].name);
			if ((cs = cat_state_from_name(state)) < 0 ||
			    cat_state_is_implemented((enum cat_state)cs))
				continue;
			sc = find_syscall(l, p->calls[i].name);
			if (sc->cat_state == NULL)
				sc->cat_state = xstrdup(state);
		}
	}
	for (i = 0; i < l->n; i++)
		for (k = 0; k < o->nprofiles; k++)
			weigh_one(&l->v[i], &o->profiles[k]);
	l->weighted = 1;
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), by_weight);
}

static struct shop_row *
shop_row(struct shoplist *l, const char *name)
{
	size_t i;

	for (i = l->nrows; i > 0; i--)
		if (strcmp(l->rows[i - 1].name, name) == 0)
			return &l->rows[i - 1];
	if (l->nrows % 64 == 0)
		l->rows = xreallocarray(l->rows, l->nrows + 64,
		    sizeof(*l->rows));
	l->rows[l->nrows].name = xstrdup(name);
	l->rows[l->nrows].passed = xcalloc(l->ncols, sizeof(unsigned));
	l->rows[l->nrows].ran = xcalloc(l->ncols, sizeof(unsigned));
	return &l->rows[l->nrows++];
}

static void
shop_add_column(struct shoplist *l, const struct store_run *r, int ref)
{
	struct shop_column *c;

	l->cols = xreallocarray(l->cols, l->ncols + 1, sizeof(*l->cols));
	c = &l->cols[l->ncols++];
	c->run_id = r->id;
	c->arch = xstrdup(r->arch);
	c->os_name = xstrdup(r->os_name);
	c->linux_ref = ref;
}

/* Whether a result says anything: tests skipped or still running not. */
static int
shop_ran(enum test_status s)
{
	return s != TS_RUNNING && s != TS_NOTRUN;
}

/* A result of a column, counted on its syscall's row. */
static void
shop_count(struct shoplist *l, size_t col, const char *sys, int status)
{
	struct shop_row *row;

	if (status < 0 || !shop_ran((enum test_status)status))
		return;
	row = shop_row(l, sys);
	row->ran[col]++;
	row->passed[col] += status == TS_PASS;
}

static int
by_row_name(const void *x, const void *y)
{
	return strcmp(((const struct shop_row *)x)->name,
	    ((const struct shop_row *)y)->name);
}

/*
 * The report's columns (the arch matrix's, then the Linux reference),
 * rows and history (see export.h): one read of the run list; the
 * counts come from the results the matrix and the reference hold.
 */
static int
shop_report(struct store *st, struct shoplist *l, const struct linuxref *ref,
    struct diaglist *dl)
{
	const struct archmatrix *m = &l->arches;
	struct store_run *runs = NULL, *r;
	size_t nruns = 0, i, k;
	char *sys;
	int err;

	if ((err = store_list_runs(st, &runs, &nruns, dl)) != STORE_OK)
		return err;
	for (i = 0; i < m->ncols; i++)
		shop_add_column(l, &m->cols[i].run, 0);
	for (i = 0; i < nruns && ref->run_id != 0; i++)
		if (runs[i].id == ref->run_id)
			shop_add_column(l, &runs[i], 1);
	/* Newest first in runs; the chart wants oldest first. */
	for (i = 0; i < nruns && l->nhistory < SHOP_HISTORY_MAX; i++) {
		r = &runs[i];
		if (r->id > l->run.id || r->id == ref->run_id ||
		    strcmp(r->os_name, l->run.os_name) != 0 ||
		    !linuxref_same_arch(r->arch, l->run.arch))
			continue;
		l->history[l->nhistory].run_id = r->id;
		l->history[l->nhistory].passed = r->counts[TS_PASS];
		l->history[l->nhistory].ran = 0;
		for (k = 0; k < TS__COUNT; k++)
			if (shop_ran((enum test_status)k))
				l->history[l->nhistory].ran += r->counts[k];
		l->nhistory++;
	}
	for (i = 0; i < l->nhistory / 2; i++) {
		struct shop_point t = l->history[i];

		l->history[i] = l->history[l->nhistory - 1 - i];
		l->history[l->nhistory - 1 - i] = t;
	}
	store_runs_free(runs, nruns);
	for (i = 0; i < m->nrows; i++)
		for (k = 0; k < m->ncols; k++)
			shop_count(l, k, m->rows[i].syscall,
			    m->rows[i].status[k]);
	for (i = 0; l->ncols > m->ncols && i < ref->n; i++) {
		sys = triage_result_syscall(&ref->v[i]);
		shop_count(l, l->ncols - 1, sys, (int)ref->v[i].status);
		free(sys);
	}
	qsort(l->rows, l->nrows, sizeof(*l->rows), by_row_name);
	return STORE_OK;
}

int
shoplist_build(struct store *st, const struct shop_opts *o,
    struct shoplist *l, struct diaglist *dl)
{
	struct store_result *res = NULL;
	struct triage_tag *tags = NULL;
	const struct triage_tag *t;
	const struct category *c;
	struct shop_syscall *sc;
	struct linuxref ref;
	char **flaky = NULL;
	size_t nres = 0, ntags = 0, nflaky = 0, i, nf;
	int64_t run_id = o->run_id;
	char *sys;
	int err;

	memset(l, 0, sizeof(*l));
	memset(&ref, 0, sizeof(ref));
	if (run_id == 0 && (err = store_latest_run_arch(st, o->arch, &run_id,
	    dl)) != STORE_OK)
		return err;
	if ((err = store_get_run(st, run_id, &l->run, dl)) != STORE_OK ||
	    (err = store_run_results(st, run_id, &res, &nres, dl)) !=
	    STORE_OK ||
	    (err = store_tags_list(st, run_id, NULL, &tags, &ntags, dl)) !=
	    STORE_OK ||
	    (err = flaky_tests(st, run_id, FLAKY_N, FLAKY_M, &flaky, &nflaky,
	    dl)) != STORE_OK ||
	    (err = linuxref_load(st, l->run.arch, run_id, &ref, dl)) !=
	    STORE_OK ||
	    (err = archmatrix_build(st, run_id, NULL, 0, &l->arches, dl)) !=
	    STORE_OK)
		goto out;
	l->linux_run = ref.run_id;
	nf = o->fund != NULL ? o->fund->n : 0;
	for (i = 0; i < nres; i++) {
		if (!test_status_is_bad(res[i].status))
			continue;
		t = find_tag(tags, ntags, res[i].tag);
		if (t != NULL && !o->all && o->cats != NULL &&
		    (c = categories_find(o->cats, t->category)) != NULL &&
		    !c->shopping)
			continue;
		sys = triage_result_syscall(&res[i]);
		sc = find_syscall(l, sys);
		sc->tests = xreallocarray(sc->tests, sc->ntests + 1,
		    sizeof(*sc->tests));
		shop_fill_test(st, o, &res[i], t, sys, &ref,
		    &sc->tests[sc->ntests++]);
		sc->nlinux += sc->tests[sc->ntests - 1].linux_too;
		l->nlinux += sc->tests[sc->ntests - 1].linux_too;
		sc->tests[sc->ntests - 1].flaky = flaky_has(flaky, nflaky,
		    res[i].tag);
		sc->tests[sc->ntests - 1].arch = archmatrix_find(&l->arches,
		    res[i].tag);
		count_category(l, sc->tests[sc->ntests - 1].category);
		l->statuscounts[res[i].status]++;
		l->ntests++;
		free(sys);
	}
	for (i = 0; i < l->n; i++) {
		sc = &l->v[i];
		sc->rank = o->fund != NULL ? fundamental_rank(o->fund,
		    sc->name) : 0;
		sc->priority = (unsigned long)(sc->ntests - sc->nlinux) *
		    (sc->rank > 0 ? nf + 2 - sc->rank : 1);
		shop_linux_last(sc);
		sc->cat_state = xstrdup(shop_cat_state(o->cat, l->run.arch,
		    sc->name));
	}
	qsort(l->v, l->n, sizeof(*l->v), by_priority);
	if (o->nprofiles > 0)
		shop_weigh(l, o);
	err = shop_report(st, l, &ref, dl);
out:
	store_results_free(res, nres);
	store_tags_free(tags, ntags);
	flaky_free(flaky, nflaky);
	linuxref_free(&ref);
	if (err != STORE_OK)
		shoplist_free(l);
	return err;
}

void
shoplist_free(struct shoplist *l)
{
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		for (j = 0; j < l->v[i].ntests; j++) {
			free(l->v[i].tests[j].tag);
			free(l->v[i].tests[j].category);
			free(l->v[i].tests[j].note);
			free(l->v[i].tests[j].author);
			free(l->v[i].tests[j].first_line);
		}
		free(l->v[i].tests);
		free(l->v[i].name);
		free(l->v[i].cat_state);
		free(l->v[i].profiles);
	}
	free(l->v);
	for (i = 0; i < l->ncats; i++)
		free(l->catnames[i]);
	free(l->catnames);
	free(l->catcounts);
	for (i = 0; i < l->ncols; i++) {
		free(l->cols[i].arch);
		free(l->cols[i].os_name);
	}
	free(l->cols);
	for (i = 0; i < l->nrows; i++) {
		free(l->rows[i].name);
		free(l->rows[i].passed);
		free(l->rows[i].ran);
	}
	free(l->rows);
	archmatrix_free(&l->arches);
	store_run_clear(&l->run);
	memset(l, 0, sizeof(*l));
}
