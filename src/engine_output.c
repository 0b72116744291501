/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A test's output in the engine (see engine.h): through the parser and
 * into the spool, ltpscope's own lines among it, and the result written
 * with it and with the kernel's lines of the test.
 */
#include <sys/types.h>

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ltpscope/verdict.h"
#include "ltpscope/xmalloc.h"
#include "engine_impl.h"

void
engine_line_cb(const struct ltpout_line *line, void *arg)
{
	struct eworker *w = arg;
	struct engine *e = w->e;

	w->envwarn += (unsigned long)verdict_env_line(e->opts.rules, line);
	if (e->ev.line != NULL)
		e->ev.line(e->ev.arg, line);
	if (e->ev.worker_line != NULL)
		e->ev.worker_line(e->ev.arg, w->index, line);
}

/*
 * The output goes to the spool and through the parser, which is all the
 * verdict needs: it is judged from the parser's tally, line by line.
 */
void
engine_output_cb(void *arg, const char *buf, size_t len)
{
	struct eworker *w = arg;

	if (spool_write(w->spool, buf, len) == -1)
		engine_meta(w, "ltpscope: %s; output after byte %llu is "
		    "counted, not kept", spool_error(w->spool),
		    (unsigned long long)spool_length(w->spool));
	ltpout_feed(w->parser, buf, len, engine_line_cb, w);
}

void
engine_meta(struct eworker *w, const char *fmt, ...)
{
	struct ltpout_line l;
	char buf[512];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if ((size_t)len > sizeof(buf) - 2)
		len = (int)sizeof(buf) - 2;
	memset(&l, 0, sizeof(l));
	l.cls = LC_META;
	l.text = l.msg = buf;
	l.len = l.msglen = (size_t)len;
	engine_line_cb(&l, w);
	buf[len++] = '\n';
	spool_note(w->spool, buf, (size_t)len);
}

void
engine_reset_output(struct eworker *w)
{
	/* Made once the run's directory is: the file goes there. */
	if (w->spool == NULL)
		w->spool = spool_new(w->e->rundir != NULL ? w->e->rundir :
		    "/tmp", ENGINE_OUTPUT_KEEP);
	spool_reset(w->spool);
	w->envwarn = 0;
	ltpout_reset(w->parser);
}

static int
engine_spool_read(void *arg, void *buf, size_t len, uint64_t off)
{
	return spool_read(arg, buf, len, off);
}

/*
 * Writes a result; it is committed with the next test's running row
 * (or at the end of engine_service), and told only once committed, so
 * what the caller shows as finished is durable.  0 or -1 (store error).
 */
int
engine_record(struct engine *e, struct eworker *w, struct store_result *r,
    const char *why, struct diaglist *dl)
{
	struct store_outsrc src;
	struct epending *p;
	size_t idx = w->idx;
	int rv;

	r->id = w->result_id;
	r->run_id = e->run_id;
	r->tag = e->tests[idx].tag;
	r->syscall = e->tests[idx].syscall;
	r->seq = e->tests[idx].seq;
	r->output_size = (int64_t)spool_total(w->spool);
	memset(&src, 0, sizeof(src));
	src.read = engine_spool_read;
	src.arg = w->spool;
	src.len = spool_length(w->spool);
	src.total = spool_total(w->spool);
	rv = store_test_finish_src(e->st, w->result_id, r, &src, dl);
	/* Stored (if not yet committed): its disk space goes back now. */
	spool_reset(w->spool);
	if (rv != STORE_OK)
		return -1;
	e->pending = xreallocarray(e->pending, e->npending + 1,
	    sizeof(*e->pending));
	p = &e->pending[e->npending++];
	p->r = *r;
	/* The kernel's lines are stored; the counts go on to the caller. */
	p->r.kmsg = NULL;
	p->why = xstrdup(why != NULL ? why : "");
	p->idx = idx;
	p->worker = w->index;
	return 0;
}

/*
 * What the kernel logged since the last test's end goes with this
 * test, in *k (pointing into *t) and r's counts.  With -j that is all
 * the tests running then: the log does not say whose a line is.
 */
static void
engine_kmsg_take(const struct kmsg_take *t, struct store_kmsg *k,
    struct store_result *r)
{
	memset(k, 0, sizeof(*k));
	k->text = t->text;
	k->len = t->len;
	k->nlines = t->nlines;
	k->nwarn = t->nwarn;
	k->nlost = t->nlost;
	k->capped = t->capped;
	k->taint_before = t->taint_before;
	k->taint_after = t->taint_after;
	r->kmsg = k;
	r->kmsg_lines = t->nlines;
	r->kmsg_warnings = t->nwarn;
	r->kmsg_tainted = t->taint_before != t->taint_after &&
	    t->taint_before != -1 && t->taint_after != -1;
}

/* engine_record() with what the kernel said during the test. */
int
engine_record_kmsg(struct engine *e, struct eworker *w,
    struct store_result *r, const char *why, struct kmsg_take *t,
    struct diaglist *dl)
{
	struct store_kmsg k;
	int rv;

	engine_kmsg_take(t, &k, r);
	rv = engine_record(e, w, r, why, dl);
	kmsg_take_clear(t);
	return rv;
}
