/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which test the engine starts next, and when (see engine.h): tests
 * that conflict kept apart, serial ones alone, tests that never start
 * done at once, and how long the loop may sleep.
 */
#include <sys/types.h>

#include "ltpscope/conflicts.h"
#include "engine_impl.h"

/* Whether test t shares a conflict group with a test running now. */
int
engine_conflicting(const struct engine *e, const struct etest *t)
{
	size_t i;

	if (t->conflicts[0] == '\0')
		return 0;
	for (i = 0; i < e->nw; i++)
		if (e->w[i].r != NULL && conflicts_share(t->conflicts,
		    e->tests[e->w[i].idx].conflicts))
			return 1;
	return 0;
}

/* Whether t goes without a worker: ruled out, or skipped. */
int
engine_instant(const struct engine *e, const struct etest *t)
{
	return t->notrun != NULL || (!t->explicit && e->opts.skip != NULL &&
	    skiplist_match(e->opts.skip, t->tag) != NULL);
}

/*
 * The test to start next beside those running: the next in the queue,
 * or, when its conflict group is busy, the first parallel test after it
 * that is free to run (never past a test that runs alone).  e->n: none.
 */
size_t
engine_pick(const struct engine *e)
{
	const struct etest *t;
	size_t k;

	for (k = e->next; k < e->n; k++) {
		t = &e->tests[k];
		if (engine_instant(e, t))
			continue;
		if (!t->parallel)
			break;
		if (!engine_conflicting(e, t))
			return k;
	}
	return e->n;
}

/* Whether the next test could start now (so there is work at once). */
int
engine_can_start(const struct engine *e)
{
	const struct etest *t;
	size_t i;

	if (e->stop_all || e->next >= e->n)
		return e->nbusy == 0;
	t = &e->tests[e->next];
	/* Serially, results come in queue order; in parallel, at once. */
	if (engine_instant(e, t))
		return e->nw > 1 || e->nbusy == 0;
	if (e->nbusy == 0)
		return 1;
	if (e->nw < 2 || !t->parallel || e->nbusy >= e->nw)
		return 0;
	for (i = 0; i < e->nw; i++)
		if (e->w[i].r != NULL && e->w[i].serial)
			return 0;
	return engine_pick(e) < e->n;
}

int
engine_poll_timeout(const struct engine *e)
{
	size_t i;
	int ms = -1, t;

	if (e->finished)
		return -1;
	if (engine_can_start(e))
		return 0;
	for (i = 0; i < e->nw; i++) {
		if (e->w[i].r == NULL)
			continue;
		t = runner_poll_timeout(e->w[i].r);
		if (t >= 0 && (ms < 0 || t < ms))
			ms = t;
	}
	/* One fd polled by an older caller must not starve the others. */
	if (e->nbusy > 1 && (ms < 0 || ms > ENGINE_MULTI_POLL_MS))
		ms = ENGINE_MULTI_POLL_MS;
	return ms;
}
