/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Turning the core's data into the rows the explorer draws: the
 * catalogue (with how many LTP tests each call has and what their
 * latest results were), the tests of some calls, the runs, the results
 * of a run.  Rows own copies of their strings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/diag.h"
#include "ltpscope/store.h"
#include "ltpscope/store_triage.h"
#include "ltpscope/suite.h"
#include "ltpscope/ui.h"
#include "ltpscope/xmalloc.h"

#define UI_HISTORY	8

static const struct {
	const char	*tag;
	enum theme_elem	 elem;
	int		 rank;
} ui_states[CS__COUNT] = {
	[CS_NATIVE] = { "native", TE_IMPLEMENTED, 0 },
	[CS_COMPAT] = { "compat", TE_COMPAT, 1 },
	[CS_UNIMPL] = { "unimpl", TE_UNIMPLEMENTED, 2 },
	[CS_ABSENT] = { "absent", TE_ABSENT, 3 },
	[CS_OBSOLETE] = { "obsol", TE_OBSOLETE, 4 },
	[CS_LINUX] = { "linux", TE_NORMAL, 5 },
};

static int
ui_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Index of name in a sorted array, or -1. */
static long
ui_bsearch(const char **v, size_t n, const char *name)
{
	const char **p = bsearch(&name, v, n, sizeof(*v), ui_cmp_str);

	return p != NULL ? (long)(p - v) : -1;
}

int
ui_load_catalogue(struct suite *s, struct store *st,
    struct ui_sysrow **rowsp, size_t *np)
{
	struct ui_sysrow *rows;
	const struct cat_entry *e;
	size_t i, n, nrows = 0, nnetbsd = 0;

	n = s->cat != NULL ? catalogue_count(s->cat) : 0;
	for (i = 0; i < n; i++)
		if (catalogue_entry(s->cat, i)->state != CS_LINUX)
			nnetbsd++;
	rows = xcalloc(n ? n : 1, sizeof(*rows));
	for (i = 0; i < n; i++) {
		struct ui_sysrow *r;

		e = catalogue_entry(s->cat, i);
		/* Linux's rows only matter when nothing else is loaded. */
		if (e->state == CS_LINUX && nnetbsd > 0)
			continue;
		r = &rows[nrows++];
		r->abi = xstrdup(e->abi);
		r->number = e->number;
		r->name = xstrdup(e->name[0] ? e->name : e->own_name);
		r->type = xstrdup(e->type_name[0] ? e->type_name : "-");
		r->state = xstrdup(ui_states[e->state].tag);
		r->elem = ui_states[e->state].elem;
		r->state_rank = ui_states[e->state].rank;
		r->function = xstrdup(e->function);
		r->prototype = xstrdup(e->prototype);
		r->guard = xstrdup(e->guard);
		r->file = xstrdup(e->file);
		r->line = e->line;
	}
	*rowsp = rows;
	*np = nrows;
	ui_catalogue_results(s, st, rows, nrows);
	return 0;
}

/* What ui_catalogue_results() counts the latest statuses into. */
struct ui_count {
	const struct ltpindex	 *idx;
	const char		**names;	/* sorted */
	size_t			  n;
	unsigned		(*last)[TS__COUNT];
};

static void
ui_count_status(void *arg, const char *tag, const char *syscall,
    enum test_status status)
{
	struct ui_count *c = arg;
	const struct ltptest *t = ltpindex_find(c->idx, tag);
	long k;

	/* The index knows the mapping better than old rows. */
	if (t != NULL && t->nsyscalls > 0)
		syscall = t->syscalls[0];
	if ((unsigned)status < TS__COUNT &&
	    (k = ui_bsearch(c->names, c->n, syscall)) >= 0)
		c->last[k][status]++;
}

/*
 * Test counts per syscall from the LTP index, and the latest result of
 * each of those tests from the store.
 */
void
ui_catalogue_results(struct suite *s, struct store *st,
    struct ui_sysrow *rows, size_t nrows)
{
	struct triage_tag *tags = NULL;
	struct diaglist dl;
	const char **names;
	size_t i, j, ntags = 0;
	int *ntests;
	unsigned (*last)[TS__COUNT];
	long k;

	names = xcalloc(nrows ? nrows : 1, sizeof(*names));
	for (i = 0; i < nrows; i++)
		names[i] = rows[i].name;
	qsort(names, nrows, sizeof(*names), ui_cmp_str);
	ntests = xcalloc(nrows ? nrows : 1, sizeof(*ntests));
	last = xcalloc(nrows ? nrows : 1, sizeof(*last));
	for (i = 0; i < s->idx.ntests; i++) {
		const struct ltptest *t = &s->idx.tests[i];

		for (j = 0; j < t->nsyscalls; j++)
			if ((k = ui_bsearch(names, nrows, t->syscalls[j])) >= 0)
				ntests[k]++;
	}
	diag_init(&dl);
	if (st != NULL) {
		struct ui_count c = { &s->idx, names, nrows, last };

		(void)store_latest_statuses(st, ui_count_status, &c, &dl);
	}
	diag_free(&dl);
	for (i = 0; i < nrows; i++)
		rows[i].category[0] = '\0';
	diag_init(&dl);
	if (st != NULL && store_tags_list(st, 0, NULL, &tags, &ntags, &dl) ==
	    STORE_OK) {
		/* A syscall shows the category of one of its tests' tags. */
		for (i = 0; i < ntags; i++) {
			const struct ltptest *t = ltpindex_find(&s->idx,
			    tags[i].tag);

			if (t == NULL || t->nsyscalls == 0 ||
			    tags[i].state == TAG_RESOLVED)
				continue;
			for (j = 0; j < nrows; j++)
				if (strcmp(rows[j].name, t->syscalls[0]) == 0 &&
				    rows[j].category[0] == '\0')
					snprintf(rows[j].category,
					    sizeof(rows[j].category), "%s",
					    tags[i].category);
		}
	}
	store_tags_free(tags, ntags);
	diag_free(&dl);
	for (i = 0; i < nrows; i++) {
		k = ui_bsearch(names, nrows, rows[i].name);
		rows[i].ntests = k >= 0 ? ntests[k] : 0;
		memcpy(rows[i].last, k >= 0 ? last[k] : last[0],
		    sizeof(rows[i].last));
		if (k < 0)
			memset(rows[i].last, 0, sizeof(rows[i].last));
	}
	free(names);
	free(ntests);
	free(last);
}

void
ui_free_catalogue(struct ui_sysrow *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].abi);
		free(rows[i].name);
		free(rows[i].type);
		free(rows[i].state);
		free(rows[i].function);
		free(rows[i].prototype);
		free(rows[i].guard);
		free(rows[i].file);
	}
	free(rows);
}

/* Latest status and the history strip of one test. */
void
ui_testrow_update(struct store *st, struct ui_testrow *r)
{
	struct store_result *h = NULL;
	struct triage_tag *tags = NULL;
	struct diaglist dl;
	size_t n = 0, i, k = 0, ntags = 0;

	r->has_result = 0;
	r->history[0] = '\0';
	diag_init(&dl);
	if (st != NULL && store_test_history(st, r->tag, UI_HISTORY, &h, &n,
	    &dl) == STORE_OK && n > 0) {
		/* Newest first from the store; the strip reads left to right. */
		for (i = n; i > 0 && k < sizeof(r->history) - 1; i--)
			r->history[k++] = ui_status_char(h[i - 1].status);
		r->history[k] = '\0';
		r->has_result = 1;
		r->status = h[0].status;
		r->result_id = h[0].id;
		r->duration_ms = h[0].duration_ms;
		r->npass = h[0].npass;
		r->nfail = h[0].nfail;
		r->nbroken = h[0].nbroken;
		r->nconf = h[0].nconf;
		r->nwarn = h[0].nwarn;
		r->nenvwarn = h[0].nenvwarn;
		r->kmarked = store_result_kmsg_marked(&h[0]);
	}
	store_results_free(h, n);
	r->category[0] = r->tagstate[0] = '\0';
	if (st != NULL && store_tags_list(st, 0, r->tag, &tags, &ntags,
	    &dl) == STORE_OK && ntags > 0) {
		snprintf(r->category, sizeof(r->category), "%s",
		    tags[0].category);
		if (tags[0].state != TAG_FAILING)
			snprintf(r->tagstate, sizeof(r->tagstate), "%s",
			    tag_state_name(tags[0].state));
	}
	store_tags_free(tags, ntags);
	diag_free(&dl);
}

int
ui_load_tests(struct suite *s, struct store *st, const char *const *names,
    size_t nnames, struct ui_testrow **rowsp, size_t *np)
{
	struct ltpselect sel;
	struct diaglist dl;
	struct ui_testrow *rows;
	size_t *picked = NULL, n = 0, i;

	memset(&sel, 0, sizeof(sel));
	sel.syscalls = names;
	sel.nsyscalls = nnames;
	diag_init(&dl);
	if (ltpindex_select(&s->idx, &sel, &picked, &n, &dl) < 0)
		n = 0;
	diag_free(&dl);
	rows = xcalloc(n ? n : 1, sizeof(*rows));
	for (i = 0; i < n; i++) {
		const struct ltptest *t = &s->idx.tests[picked[i]];

		rows[i].tag = xstrdup(t->tag);
		rows[i].syscall = xstrdup(suite_test_syscall(t));
		rows[i].cmdline = xstrdup(t->cmdline);
		ui_testrow_update(st, &rows[i]);
		if (s->meta != NULL) {
			const struct ltpmeta_test *m;
			char req[512];

			rows[i].doc = ltpmeta_doc(s->meta, t->tag,
			    &rows[i].ndoc);
			if ((m = ltpmeta_test(s->meta, t->tag)) != NULL) {
				rows[i].meta = m;
				ltpmeta_requirements(m, req, sizeof(req));
				if (req[0] != '\0')
					rows[i].requires = xstrdup(req);
			}
		}
	}
	free(picked);
	*rowsp = rows;
	*np = n;
	return 0;
}

int
ui_load_runs(struct store *st, struct ui_runrow **rowsp, size_t *np)
{
	struct store_run *v = NULL;
	struct ui_runrow *rows;
	struct diaglist dl;
	size_t n = 0, i;
	char where[512];
	time_t t;
	struct tm tm;

	diag_init(&dl);
	if (store_list_runs(st, &v, &n, &dl) != STORE_OK) {
		diag_free(&dl);
		return -1;
	}
	diag_free(&dl);
	rows = xcalloc(n ? n : 1, sizeof(*rows));
	for (i = 0; i < n; i++) {
		rows[i].id = v[i].id;
		t = (time_t)v[i].started;
		gmtime_r(&t, &tm);
		strftime(rows[i].when, sizeof(rows[i].when), "%Y-%m-%d %H:%M",
		    &tm);
		rows[i].label = xstrdup(v[i].label);
		snprintf(where, sizeof(where), "%s %s %s %s", v[i].host,
		    v[i].arch, v[i].os_name, v[i].os_version);
		rows[i].where = xstrdup(where);
		rows[i].state = xstrdup(store_run_state_name(v[i].state));
		memcpy(rows[i].counts, v[i].counts, sizeof(rows[i].counts));
		rows[i].nqueued = v[i].nqueued;
		rows[i].nenvmarked = v[i].nenvmarked;
	}
	store_runs_free(v, n);
	*rowsp = rows;
	*np = n;
	return 0;
}

int
ui_load_run_results(struct store *st, int64_t run,
    struct ui_testrow **rowsp, size_t *np)
{
	struct store_result *v = NULL;
	struct ui_testrow *rows;
	struct diaglist dl;
	size_t n = 0, i;

	diag_init(&dl);
	if (store_run_results(st, run, &v, &n, &dl) != STORE_OK) {
		diag_free(&dl);
		return -1;
	}
	diag_free(&dl);
	rows = xcalloc(n ? n : 1, sizeof(*rows));
	for (i = 0; i < n; i++) {
		rows[i].tag = xstrdup(v[i].tag);
		rows[i].syscall = xstrdup(v[i].syscall);
		rows[i].cmdline = xstrdup(v[i].tag);
		/* This run's result, with the test's history beside it. */
		ui_testrow_update(st, &rows[i]);
		rows[i].has_result = v[i].status != TS_RUNNING;
		rows[i].status = v[i].status;
		rows[i].result_id = v[i].id;
		rows[i].duration_ms = v[i].duration_ms;
		rows[i].npass = v[i].npass;
		rows[i].nfail = v[i].nfail;
		rows[i].nbroken = v[i].nbroken;
		rows[i].nconf = v[i].nconf;
		rows[i].nwarn = v[i].nwarn;
		rows[i].nenvwarn = v[i].nenvwarn;
		rows[i].kmarked = store_result_kmsg_marked(&v[i]);
	}
	store_results_free(v, n);
	*rowsp = rows;
	*np = n;
	return 0;
}
