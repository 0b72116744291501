/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What tests leave behind, in the engine (see engine.h): processes,
 * files and System V IPC objects found after a test and cleaned up,
 * said in its output and kept for the run's summary.
 */
#include <sys/types.h>

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/xmalloc.h"
#include "engine_impl.h"

/* What ltpscope cleaned up after w's test (or tags'), said twice. */
void
engine_cleaned(struct engine *e, struct eworker *w, const char *tags,
    const char *what)
{
	engine_meta(w, "ltpscope: cleaned up after the test: %s", what);
	e->cleaned = xreallocarray(e->cleaned, e->ncleaned + 1,
	    sizeof(*e->cleaned));
	xasprintf(&e->cleaned[e->ncleaned++], "%s: %s", tags, what);
}

/*
 * What the last sweep left stands for what exists when the next test
 * starts at once (as one does after another): one listing a test, not
 * two.  After longer (a paused run, a box's wait), something else of
 * the user's may have made objects meanwhile, and they are not a
 * test's to remove: listed afresh.
 */
#define ENGINE_IPC_REUSE_MS	100

static long long
engine_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * System V IPC objects have no owner a test can be told by once it is
 * gone, and tests side by side may each make some: what exists is noted
 * when a test starts with none running, and what is new when the last
 * of the tests that ran since ends is theirs.  With -j 1 that is one
 * test's.
 */
void
engine_ipc_begin(struct engine *e, const char *tag)
{
	size_t n;

	if (e->nbusy == 0) {
		ipcleft_free(e->ipc);
		if (e->ipc_after != NULL &&
		    engine_ms() - e->ipc_after_ms < ENGINE_IPC_REUSE_MS) {
			e->ipc = e->ipc_after;
			e->ipc_after = NULL;
		} else
			e->ipc = ipcleft_snap();
		ipcleft_free(e->ipc_after);
		e->ipc_after = NULL;
		e->ipc_tags[0] = '\0';
		e->ipc_ntests = 0;
	}
	n = strlen(e->ipc_tags);
	if (e->ipc_ntests++ == 0)
		(void)snprintf(e->ipc_tags, sizeof(e->ipc_tags), "%s", tag);
	else if (n + strlen(tag) + 16 < sizeof(e->ipc_tags))
		(void)snprintf(e->ipc_tags + n, sizeof(e->ipc_tags) - n,
		    ", %s", tag);
	else if (strcmp(e->ipc_tags + n - 3, "...") != 0)
		(void)snprintf(e->ipc_tags + n, sizeof(e->ipc_tags) - n,
		    ", ...");
}

void
engine_ipc_end(struct engine *e, struct eworker *w)
{
	char objs[360], what[440];
	int n;

	if (e->ipc == NULL)
		return;
	ipcleft_free(e->ipc_after);
	e->ipc_after = NULL;
	n = ipcleft_sweep(e->ipc, e->euid, objs, sizeof(objs),
	    &e->ipc_after);
	e->ipc_after_ms = engine_ms();
	ipcleft_free(e->ipc);
	e->ipc = NULL;
	if (n == 0)
		return;
	(void)snprintf(what, sizeof(what), "removed %d System V IPC "
	    "object%s left behind%s: %s", n, n == 1 ? "" : "s",
	    e->ipc_ntests > 1 ? " by the tests that ran side by side" : "",
	    objs);
	engine_cleaned(e, w, e->ipc_ntests > 1 ? e->ipc_tags :
	    e->tests[w->idx].tag, what);
}

/* A line for engine_leftovers(): "tag: what". */
void
engine_leftover(struct engine *e, const char *tag, const char *what)
{
	e->left = xreallocarray(e->left, e->nleft + 1, sizeof(*e->left));
	xasprintf(&e->left[e->nleft++], "%s: %s", tag, what);
}
