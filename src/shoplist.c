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
    const char *sys, struct shop_test *s)
{
	struct rules_suggestion sg;
	struct store_output out;
	struct diaglist quiet;
	char *first, panic[300];

	memset(s, 0, sizeof(*s));
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
	if (t != NULL) {
		s->category = xstrdup(t->category);
		s->source = SHOP_TAGGED;
		s->note = xstrdup(t->note);
		s->author = xstrdup(t->author);
	} else {
		s->note = xstrdup("");
		s->author = xstrdup("");
		if (o->rules != NULL && rules_suggest(o->rules, r->tag, sys,
		    out.data != NULL ? out.data : "", out.stored_size, &sg,
		    NULL)) {
			s->category = xstrdup(sg.rule->category);
			s->source = SHOP_SUGGESTED;
		} else
			s->category = xstrdup("");
		rules_suggestion_clear(&sg);
	}
	store_output_clear(&out);
	diag_free(&quiet);
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

int
shoplist_build(struct store *st, const struct shop_opts *o,
    struct shoplist *l, struct diaglist *dl)
{
	struct store_result *res = NULL;
	struct triage_tag *tags = NULL;
	const struct triage_tag *t;
	const struct category *c;
	struct shop_syscall *sc;
	char **flaky = NULL;
	size_t nres = 0, ntags = 0, nflaky = 0, i, nf;
	int64_t run_id = o->run_id;
	char *sys;
	int err;

	memset(l, 0, sizeof(*l));
	if (run_id == 0 && (err = store_latest_run_arch(st, o->arch, &run_id,
	    dl)) != STORE_OK)
		return err;
	if ((err = store_get_run(st, run_id, &l->run, dl)) != STORE_OK ||
	    (err = store_run_results(st, run_id, &res, &nres, dl)) !=
	    STORE_OK ||
	    (err = store_tags_list(st, run_id, NULL, &tags, &ntags, dl)) !=
	    STORE_OK ||
	    (err = flaky_tests(st, run_id, FLAKY_N, FLAKY_M, &flaky, &nflaky,
	    dl)) != STORE_OK)
		goto out;
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
		shop_fill_test(st, o, &res[i], t, sys,
		    &sc->tests[sc->ntests++]);
		sc->tests[sc->ntests - 1].flaky = flaky_has(flaky, nflaky,
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
		sc->priority = (unsigned long)sc->ntests *
		    (sc->rank > 0 ? nf + 2 - sc->rank : 1);
		sc->cat_state = xstrdup(shop_cat_state(o->cat, l->run.arch,
		    sc->name));
	}
	qsort(l->v, l->n, sizeof(*l->v), by_priority);
out:
	store_results_free(res, nres);
	store_tags_free(tags, ntags);
	flaky_free(flaky, nflaky);
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
	}
	free(l->v);
	for (i = 0; i < l->ncats; i++)
		free(l->catnames[i]);
	free(l->catnames);
	free(l->catcounts);
	store_run_clear(&l->run);
	memset(l, 0, sizeof(*l));
}
