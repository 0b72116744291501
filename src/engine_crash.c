/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A crash in the engine (see engine.h): the box lost, the test it was
 * running blamed and recorded as the crash, the culprit named by the
 * console's task.
 */
#include <sys/types.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ltpscope/rules.h"
#include "ltpscope/xmalloc.h"
#include "engine_impl.h"

/*
 * The box stopped answering: a crash there, as far as we can tell.
 * Nothing more is started, and the run is left as a crash leaves it.
 */
void
engine_lose_box(struct engine *e)
{
	e->box_lost = 1;
	e->stop_all = 1;
}

/*
 * The box stopped answering while w's test ran: that test is the crash,
 * the likely cause of a panic there, stored with the output it gave
 * until then.  Tests running beside it (-j) are interrupted: the one
 * the kernel named (engine_blame()) did it, else the first to be
 * missed is as good a guess as any.
 */
int
engine_crash(struct engine *e, struct eworker *w, double duration,
    struct diaglist *dl)
{
	struct store_result r;
	const char *tag = e->tests[w->idx].tag;
	char why[300];

	memset(&r, 0, sizeof(r));
	if (e->blamed != NULL && strcmp(e->blamed, tag) != 0) {
		engine_meta(w, "ltpscope: the box %s stopped answering after "
		    "%.1f s: its kernel crashed in %s, running beside this "
		    "test", remote_spec(e->opts.runner.remote), duration,
		    e->blamed);
		r.status = TS_INTERRUPTED;
		snprintf(why, sizeof(why), "the box's kernel crashed in %s, "
		    "running beside it", e->blamed);
	} else if (e->lost_test == NULL) {
		engine_meta(w, "ltpscope: the box %s %s after %.1f s: crash",
		    remote_spec(e->opts.runner.remote), e->lost_why != NULL ?
		    e->lost_why : "stopped answering", duration);
		r.status = TS_CRASH;
		e->lost_test = xstrdup(e->tests[w->idx].tag);
		e->lost_result = w->result_id;
		snprintf(why, sizeof(why), "the box stopped answering");
	} else {
		engine_meta(w, "ltpscope: the box %s stopped answering after "
		    "%.1f s, while %s ran beside this test",
		    remote_spec(e->opts.runner.remote), duration,
		    e->lost_test);
		r.status = TS_INTERRUPTED;
		snprintf(why, sizeof(why), "the box stopped answering while "
		    "%s ran beside it", e->lost_test);
	}
	r.exit_code = -1;
	r.duration_ms = (int64_t)(duration * 1000.0 + 0.5);
	r.started = w->started;
	r.ended = (int64_t)time(NULL);
	/* Judged by ltpscope, not by output: never judged again. */
	(void)snprintf(r.raw, sizeof(r.raw), "-");
	(void)rules_env_digest(e->opts.rules, r.judged, sizeof(r.judged));
	runner_free(w->r);
	w->r = NULL;
	e->nbusy--;
	engine_lose_box(e);
	return engine_record(e, w, &r, why, dl);
}

/* Whether the kernel's task name comm (cut to 15 bytes) is name's. */
static int
engine_comm_is(const char *comm, const char *name, size_t len)
{
	size_t n = strlen(comm);

	if (n == 0 || strncmp(comm, name, n) != 0)
		return 0;
	return len == n || (n == 15 && len > n);
}

void
engine_blame(struct engine *e, const char *comm)
{
	const char *tag, *cmd, *base, *end;
	size_t i;

	if (comm == NULL || *comm == '\0' || e->blamed != NULL)
		return;
	for (i = 0; i < e->nw; i++) {
		if (e->w[i].r == NULL)
			continue;
		tag = e->tests[e->w[i].idx].tag;
		cmd = e->tests[e->w[i].idx].cmdline;
		/* The program: the command line's first word, its name. */
		cmd += strspn(cmd, " \t");
		end = cmd + strcspn(cmd, " \t");
		for (base = end; base > cmd && base[-1] != '/'; base--)
			;
		if (engine_comm_is(comm, tag, strlen(tag)) ||
		    engine_comm_is(comm, base, (size_t)(end - base))) {
			e->blamed = xstrdup(tag);
			return;
		}
	}
}

void
engine_box_gone(struct engine *e, const char *why)
{
	size_t i;

	if (e->lost_why == NULL)
		e->lost_why = xstrdup(why);
	for (i = 0; i < e->nw; i++)
		if (e->w[i].r != NULL)
			runner_give_up(e->w[i].r);
}
