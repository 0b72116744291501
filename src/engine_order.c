/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The order of a parallel run (engine_order(), see engine.h): the
 * longest tests first, from earlier runs' durations.
 */
#include <sys/types.h>

#include <stdlib.h>
#include <string.h>

#include "ltpscope/xmalloc.h"
#include "engine_impl.h"

/* Longest expected first; unknown (-1) after, in their order. */
struct engine_key {
	struct engine_test	 t;
	int			 klass;		/* 0 instant, 1 par, 2 ser */
	int64_t			 ms;
	size_t			 pos;
};

static int
engine_key_cmp(const void *a, const void *b)
{
	const struct engine_key *x = a, *y = b;

	if (x->klass != y->klass)
		return x->klass < y->klass ? -1 : 1;
	if (x->klass == 1 && x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
engine_res_cmp(const void *a, const void *b)
{
	return strcmp(((const struct store_result *)a)->tag,
	    ((const struct store_result *)b)->tag);
}

void
engine_order(struct engine_test *v, size_t n, struct store *st)
{
	struct store_result *res = NULL, key, *hit;
	struct engine_key *k;
	struct diaglist dl;
	size_t nres = 0, i;

	if (n == 0)
		return;
	diag_init(&dl);
	if (st != NULL && store_latest_results(st, &res, &nres, &dl) !=
	    STORE_OK)
		nres = 0;
	diag_free(&dl);
	/* store_latest_results is ordered by tag: bsearch it. */
	if (nres > 0)
		qsort(res, nres, sizeof(*res), engine_res_cmp);
	k = xcalloc(n, sizeof(*k));
	for (i = 0; i < n; i++) {
		k[i].t = v[i];
		k[i].pos = i;
		k[i].ms = -1;
		k[i].klass = v[i].notrun != NULL ? 0 : v[i].parallel ? 1 : 2;
		memset(&key, 0, sizeof(key));
		key.tag = (char *)(uintptr_t)v[i].tag;
		hit = nres > 0 ? bsearch(&key, res, nres, sizeof(*res),
		    engine_res_cmp) : NULL;
		if (hit != NULL && hit->status != TS_NOTRUN)
			k[i].ms = hit->duration_ms;
	}
	qsort(k, n, sizeof(*k), engine_key_cmp);
	for (i = 0; i < n; i++)
		v[i] = k[i].t;
	free(k);
	store_results_free(res, nres);
}
