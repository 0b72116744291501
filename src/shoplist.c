/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Building the shopping list of a run: its failures grouped per
 * syscall with category, note, first failing line and catalogue state,
 * ordered by priority (see shoplist.h).  One pass over the run's
 * results; outputs are read only for the failures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/compare.h"
#include "ltpscope/crashlog.h"
#include "ltpscope/linuxref.h"
#include "ltpscope/ltpmeta.h"
#include "ltpscope/profile.h"
#include "ltpscope/shoplist.h"
#include "ltpscope/store_triage.h"
#include "ltpscope/triage.h"
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

/* The test's tags in LTP's metadata: what Linux changed, its CVEs. */
static void
shop_fill_refs(const struct shop_opts *o, struct shop_test *s)
{
	const struct ltpmeta_tag *tags;
	char buf[1100];
	size_t n, i;

	if (o->meta == NULL || (tags = ltpmeta_tags(o->meta, s->tag, &n)) ==
	    NULL || n == 0)
		return;
	s->refs = xcalloc(n, sizeof(*s->refs));
	for (i = 0; i < n; i++) {
		ltpmeta_tag_name(&tags[i], buf, sizeof(buf));
		s->refs[i].name = xstrdup(buf);
		s->refs[i].kind = xstrdup(tags[i].kind);
		s->refs[i].value = xstrdup(tags[i].value);
		if (ltpmeta_tag_link(&tags[i], o->linux_git_url, buf,
		    sizeof(buf)) != 0)
			buf[0] = '\0';
		s->refs[i].url = xstrdup(buf);
	}
	s->nrefs = n;
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
	s->kmsg_lines = r->kmsg_lines;
	s->kmsg_marked = store_result_kmsg_marked(r);
	diag_init(&quiet);
	if (store_get_output_of(st, r, &out, &quiet) != STORE_OK)
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
	shop_fill_refs(o, s);
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

/*
 * The catalogue state of a call on arch: its slot's in compat_linux's
 * table, else "absent" for a call Linux has there that the table lacks
 * (not implemented at all), else its slot's in any table, else "".
 */
static const char *
shop_cat_state(struct catalogue *cat, const char *arch, const char *name)
{
	const struct cat_entry *e[4];
	char abi[64];

	if (cat == NULL)
		return "";
	/* A run on Linux says x86_64; the table is named after amd64. */
	(void)snprintf(abi, sizeof(abi), "linux-%s", linuxref_arch(arch));
	if (arch[0] != '\0' && catalogue_find_name(cat, abi, name, e, 4) > 0)
		return cat_state_name(e[0]->state);
	if (arch[0] != '\0' && catalogue_linux_name(cat, abi, name) != NULL)
		return cat_state_name(CS_ABSENT);
	if (catalogue_find_name(cat, NULL, name, e, 4) == 0)
		return "";
	return cat_state_name(e[0]->state);
}

/* Whether a result says anything: tests skipped or still running not. */
static int
shop_ran(enum test_status s)
{
	return s != TS_RUNNING && s != TS_NOTRUN;
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

/*
 * How often profile p calls name on arch; a slot number it holds
 * ("#334") counts for the call the catalogue names there.  -1: never.
 */
static long
shop_calls_of(const struct shop_opts *o, const char *arch,
    const struct profile *p, const char *name)
{
	const struct profile_call *c;
	char abi[64];
	long n = -1;
	size_t i;

	if ((c = profile_find(p, name)) != NULL)
		n = (long)c->count;
	/* A run on Linux says x86_64; the table is named after amd64. */
	(void)snprintf(abi, sizeof(abi), "linux-%s", linuxref_arch(arch));
	for (i = 0; i < p->ncalls && o->cat != NULL && arch[0] != '\0'; i++)
		if (&p->calls[i] != c && strcmp(profile_linux_name(o->cat,
		    abi, p->calls[i].name), name) == 0)
			n = (n < 0 ? 0 : n) + (long)p->calls[i].count;
	return n;
}

static void
weigh_one(struct shop_syscall *sc, const struct shop_opts *o,
    const char *arch, const struct profile *p)
{
	long n;
	char *t;

	if ((n = shop_calls_of(o, arch, p, sc->name)) < 0)
		return;
	sc->nprofiles++;
	sc->ncalls += (unsigned long)n;
	xasprintf(&t, "%s%s%s", sc->profiles != NULL ? sc->profiles : "",
	    sc->profiles != NULL ? "," : "", p->name);
	free(sc->profiles);
	sc->profiles = t;
}

/*
 * Weighs the list by the profiles; a call they need that is not
 * implemented joins it though no test of it failed.  Each call learns
 * how many of the run's results are its tests' (none: no LTP results
 * yet).
 */
static void
shop_weigh(struct shoplist *l, const struct shop_opts *o,
    const struct store_result *res, size_t nres)
{
	const struct profile *p;
	struct shop_syscall *sc;
	const char *state, *name;
	size_t i, k;
	char *sys, abi[64];
	int cs;

	(void)snprintf(abi, sizeof(abi), "linux-%s", l->run.arch);
	for (k = 0; k < o->nprofiles; k++) {
		p = &o->profiles[k];
		for (i = 0; i < p->ncalls; i++) {
			name = profile_linux_name(o->cat, abi,
			    p->calls[i].name);
			state = shop_cat_state(o->cat, l->run.arch, name);
			if ((cs = cat_state_from_name(state)) < 0 ||
			    cat_state_is_implemented((enum cat_state)cs))
				continue;
			sc = find_syscall(l, name);
			if (sc->cat_state == NULL)
				sc->cat_state = xstrdup(state);
		}
	}
	for (i = 0; i < l->n; i++)
		for (k = 0; k < o->nprofiles; k++)
			weigh_one(&l->v[i], o, l->run.arch, &o->profiles[k]);
	for (k = 0; k < nres; k++) {
		if (!shop_ran(res[k].status))
			continue;
		sys = triage_result_syscall(&res[k]);
		for (i = 0; i < l->n; i++)
			if (strcmp(l->v[i].name, sys) == 0)
				l->v[i].nresults++;
		free(sys);
	}
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
	memset(&l->rows[l->nrows], 0, sizeof(l->rows[0]));
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
 * rows and history (see shoplist.h), from the run list runs[0..nruns)
 * (NULL: read here); the counts come from the results the matrix and
 * the reference hold.
 */
static int
shop_report(struct store *st, struct shoplist *l, const struct linuxref *ref,
    const struct store_run *runs, size_t nruns, struct diaglist *dl)
{
	const struct archmatrix *m = &l->arches;
	const struct store_run *r;
	struct store_run *owned = NULL;
	size_t i, k;
	char *sys;
	int err;

	if (runs == NULL) {
		if ((err = store_list_runs(st, &owned, &nruns, dl)) !=
		    STORE_OK)
			return err;
		runs = owned;
	}
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
	store_runs_free(owned, owned != NULL ? nruns : 0);
	for (i = 0; i < m->nrows; i++)
		for (k = 0; k < m->ncols; k++)
			shop_count(l, k, m->rows[i].syscall,
			    m->rows[i].status[k]);
	for (i = 0; l->ncols > m->ncols && i < ref->n; i++) {
		sys = triage_result_syscall(&ref->v[i]);
		shop_count(l, l->ncols - 1, sys, (int)ref->v[i].status);
		free(sys);
	}
	if (l->nrows > 1)
		qsort(l->rows, l->nrows, sizeof(*l->rows), by_row_name);
	return STORE_OK;
}

/*
 * The report's rows weighed too: every call of the list gets a row (a
 * needed call no run has tested as well), and each row how many
 * profiles call it and how often.
 */
static void
shop_weigh_rows(struct shoplist *l, const struct shop_opts *o)
{
	struct shop_row *r;
	size_t i, k, nrows = l->nrows;
	long n;

	for (i = 0; i < l->n; i++)
		(void)shop_row(l, l->v[i].name);
	for (i = 0; i < l->nrows; i++) {
		r = &l->rows[i];
		for (k = 0; k < o->nprofiles; k++)
			if ((n = shop_calls_of(o, l->run.arch,
			    &o->profiles[k], r->name)) >= 0) {
				r->nprofiles++;
				r->ncalls += (unsigned long)n;
			}
	}
	if (l->nrows != nrows && l->nrows > 1)
		qsort(l->rows, l->nrows, sizeof(*l->rows), by_row_name);
}

/*
 * The newest run of arch, else of another name of it: a Linux box says
 * x86_64 where its user says amd64.  The error names the arch asked.
 */
static int
shop_latest_run(struct store *st, const char *arch, int64_t *idp,
    struct diaglist *dl)
{
	struct diaglist quiet;
	const char *other;
	size_t i;
	int err;

	diag_init(&quiet);
	err = store_latest_run_arch(st, arch, idp, &quiet);
	for (i = 0; err == STORE_ENOTFOUND && arch != NULL &&
	    (other = linuxref_arch_other(arch, i)) != NULL; i++)
		err = store_latest_run_arch(st, other, idp, &quiet);
	diag_free(&quiet);
	/* Asked again, for its error in dl. */
	if (err != STORE_OK)
		err = store_latest_run_arch(st, arch, idp, dl);
	return err;
}

/* Whether the store has a run of arch (NULL or "": of any). */
static int
shop_any_run(struct store *st, const char *arch)
{
	struct diaglist quiet;
	int64_t id = 0;
	int err;

	diag_init(&quiet);
	err = shop_latest_run(st, arch, &id, &quiet);
	diag_free(&quiet);
	return err != STORE_ENOTFOUND;
}

/*
 * The arch of the first compat_linux table loaded ("amd64" of
 * linux-amd64), for a list made before any run; "" when none is.
 */
static void
shop_catalogue_arch(struct catalogue *cat, char *buf, size_t size)
{
	const char **abis;
	size_t n = 0, i;

	buf[0] = '\0';
	if (cat == NULL)
		return;
	abis = catalogue_abis(cat, &n);
	for (i = 0; i < n && buf[0] == '\0'; i++)
		if (strncmp(abis[i], "linux-", 6) == 0)
			(void)snprintf(buf, size, "%s", abis[i] + 6);
	free(abis);
}

/*
 * Before any run of the arch: the calls the profiles need that the
 * catalogue says are not implemented, weighed, none with a result.
 */
static int
shop_catalogue_only(struct store *st, const struct shop_opts *o,
    struct shoplist *l, struct diaglist *dl)
{
	struct linuxref ref;
	char arch[64];
	size_t i;
	int err;

	if (o->arch != NULL && o->arch[0] != '\0')
		(void)snprintf(arch, sizeof(arch), "%s", o->arch);
	else
		shop_catalogue_arch(o->cat, arch, sizeof(arch));
	l->run.host = xstrdup("");
	l->run.uname = xstrdup("");
	l->run.os_name = xstrdup("");
	l->run.os_version = xstrdup("");
	l->run.arch = xstrdup(arch);
	l->run.ltp_version = xstrdup("");
	l->run.label = xstrdup("");
	l->run.config = xstrdup("");
	shop_weigh(l, o, NULL, 0);
	for (i = 0; i < l->n; i++)
		if (l->v[i].cat_state == NULL)
			l->v[i].cat_state = xstrdup("");
	if ((err = linuxref_load(st, arch, 0, &ref, dl)) == STORE_OK) {
		l->linux_run = ref.run_id;
		if ((err = shop_report(st, l, &ref, NULL, 0, dl)) ==
		    STORE_OK)
			shop_weigh_rows(l, o);
		linuxref_free(&ref);
	}
	shoplist_kfuncs(l, o);
	if (err != STORE_OK)
		shoplist_free(l);
	return err;
}

/* shoplist_build() inside its read transaction. */
static int
shop_build(struct store *st, const struct shop_opts *o, struct shoplist *l,
    struct diaglist *dl)
{
	struct store_result *res = NULL;
	struct store_run *runs = NULL;
	struct triage_tag *tags = NULL;
	const struct triage_tag *t;
	const struct category *c;
	struct shop_syscall *sc;
	struct linuxref ref;
	char **flaky = NULL;
	size_t nres = 0, ntags = 0, nflaky = 0, nruns = 0, i, nf;
	int64_t run_id = o->run_id;
	char *sys;
	int err;

	memset(&ref, 0, sizeof(ref));
	if (run_id == 0 && o->nprofiles > 0 && !shop_any_run(st, o->arch))
		return shop_catalogue_only(st, o, l, dl);
	if (run_id == 0 && (err = shop_latest_run(st, o->arch, &run_id,
	    dl)) != STORE_OK)
		return err;
	if ((err = store_get_run(st, run_id, &l->run, dl)) != STORE_OK ||
	    (err = store_run_results(st, run_id, &res, &nres, dl)) !=
	    STORE_OK ||
	    (err = store_tags_list(st, run_id, NULL, &tags, &ntags, dl)) !=
	    STORE_OK ||
	    (err = flaky_tests(st, run_id, res, nres, FLAKY_N, FLAKY_M, &flaky,
	    &nflaky, dl)) != STORE_OK ||
	    (err = linuxref_load(st, l->run.arch, run_id, &ref, dl)) !=
	    STORE_OK ||
	    /* One run list for the matrix and the report. */
	    (err = store_list_runs(st, &runs, &nruns, dl)) != STORE_OK ||
	    (err = archmatrix_build_first(st, run_id, res, nres, runs, nruns,
	    &l->arches, dl)) != STORE_OK)
		goto out;
	l->linux_run = ref.run_id;
	nf = o->fund != NULL ? o->fund->n : 0;
	for (i = 0; i < nres; i++) {
		l->nkmarked += (size_t)store_result_kmsg_marked(&res[i]);
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
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), by_priority);
	if (o->nprofiles > 0)
		shop_weigh(l, o, res, nres);
	if ((err = shop_report(st, l, &ref, runs, nruns, dl)) == STORE_OK &&
	    o->nprofiles > 0)
		shop_weigh_rows(l, o);
	shoplist_kfuncs(l, o);
out:
	store_results_free(res, nres);
	store_runs_free(runs, nruns);
	store_tags_free(tags, ntags);
	flaky_free(flaky, nflaky);
	linuxref_free(&ref);
	if (err != STORE_OK)
		shoplist_free(l);
	return err;
}

int
shoplist_build(struct store *st, const struct shop_opts *o,
    struct shoplist *l, struct diaglist *dl)
{
	int err;

	memset(l, 0, sizeof(*l));
	/* Hundreds of queries: one snapshot, not a lock for each. */
	if ((err = store_read_begin(st, dl)) != STORE_OK)
		return err;
	err = shop_build(st, o, l, dl);
	store_read_end(st);
	return err;
}

void
shoplist_free(struct shoplist *l)
{
	size_t i, j, k;

	for (i = 0; i < l->n; i++) {
		for (j = 0; j < l->v[i].ntests; j++) {
			free(l->v[i].tests[j].tag);
			free(l->v[i].tests[j].category);
			free(l->v[i].tests[j].note);
			free(l->v[i].tests[j].author);
			free(l->v[i].tests[j].first_line);
			for (k = 0; k < l->v[i].tests[j].nrefs; k++) {
				free(l->v[i].tests[j].refs[k].name);
				free(l->v[i].tests[j].refs[k].kind);
				free(l->v[i].tests[j].refs[k].value);
				free(l->v[i].tests[j].refs[k].url);
			}
			free(l->v[i].tests[j].refs);
		}
		free(l->v[i].tests);
		free(l->v[i].name);
		free(l->v[i].cat_state);
		free(l->v[i].profiles);
		free(l->v[i].function);
		free(l->v[i].func_file);
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
	free(l->source_url);
	archmatrix_free(&l->arches);
	store_run_clear(&l->run);
	memset(l, 0, sizeof(*l));
}
