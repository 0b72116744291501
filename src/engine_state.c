/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the engine says of a run while it goes (see engine.h): counts,
 * the tests running, what was left behind, a box lost.
 */
#include <sys/types.h>

#include "engine_impl.h"

int64_t
engine_run_id(const struct engine *e)
{
	return e->run_id;
}

size_t
engine_total(const struct engine *e)
{
	return e->n;
}

size_t
engine_done_count(const struct engine *e)
{
	return e->ndone;
}

const char *
engine_current(const struct engine *e)
{
	size_t i;

	for (i = 0; i < e->nw; i++)
		if (e->w[i].r != NULL)
			return e->tests[e->w[i].idx].tag;
	return NULL;
}

size_t
engine_workers(const struct engine *e)
{
	return e->nw;
}

const char *
engine_worker_tag(const struct engine *e, size_t w)
{
	return w < e->nw && e->w[w].r != NULL ? e->tests[e->w[w].idx].tag :
	    NULL;
}

size_t
engine_running(const struct engine *e)
{
	return e->nbusy;
}

const unsigned *
engine_counts(const struct engine *e)
{
	return e->counts;
}

const char *const *
engine_leftovers(const struct engine *e, size_t *n)
{
	*n = e->nleft;
	return (const char *const *)e->left;
}

const char *const *
engine_cleanups(const struct engine *e, size_t *n)
{
	*n = e->ncleaned;
	return (const char *const *)e->cleaned;
}

unsigned
engine_env_marked(const struct engine *e)
{
	return e->nenvmarked;
}

const char *
engine_reset_due(const struct engine *e)
{
	return e->reset_test;
}

const char *
engine_kmsg_missing(const struct engine *e)
{
	return e->opts.runner.remote == NULL && e->kmsg == NULL ?
	    e->kmsg_why : NULL;
}

unsigned
engine_kmsg_marked(const struct engine *e)
{
	return e->nkmarked;
}

int
engine_box_lost(const struct engine *e)
{
	return e->box_lost;
}

const char *
engine_lost_test(const struct engine *e)
{
	return e->lost_test;
}

int64_t
engine_lost_result(const struct engine *e)
{
	return e->lost_test != NULL ? e->lost_result : 0;
}
