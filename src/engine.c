/*
 * The engine (see engine.h): a queue of tests, run one at a time
 * through the runner, parsed by ltpout, committed to the store under
 * the crash protocol.
 */
#include <sys/types.h>
#include <sys/utsname.h>

#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpscope/engine.h"
#include "ltpscope/xmalloc.h"

/* Output kept in memory for the store; beyond it only counted. */
#define ENGINE_OUTPUT_KEEP	(STORE_OUTPUT_CAP + 4096)

struct etest {
	char	*tag;
	char	*syscall;
	char	*cmdline;
	int	 explicit;
	int64_t	 seq;
};

struct engine {
	struct store		*st;
	struct engine_opts	 opts;
	struct engine_events	 ev;
	struct etest		*tests;
	size_t			 n;
	size_t			 next;		/* next test to start */
	size_t			 ndone;
	int64_t			 run_id;

	struct runner		*cur;
	size_t			 cur_idx;
	int64_t			 cur_result;
	int64_t			 cur_started;
	struct ltpout		*parser;
	char			*out;
	size_t			 outlen;
	unsigned long long	 outtotal;

	unsigned		 counts[TS__COUNT];
	int			 stop_all;
	int			 finished;
};

static void
engine_line_cb(const struct ltpout_line *line, void *arg)
{
	struct engine *e = arg;

	if (e->ev.line != NULL)
		e->ev.line(e->ev.arg, line);
}

static void
engine_keep(struct engine *e, const char *buf, size_t len)
{
	size_t room;

	e->outtotal += len;
	if (e->outlen >= ENGINE_OUTPUT_KEEP)
		return;
	room = ENGINE_OUTPUT_KEEP - e->outlen;
	if (len > room)
		len = room;
	if (e->out == NULL)
		e->out = xmalloc(ENGINE_OUTPUT_KEEP);
	memcpy(e->out + e->outlen, buf, len);
	e->outlen += len;
}

static void
engine_output_cb(void *arg, const char *buf, size_t len)
{
	struct engine *e = arg;

	engine_keep(e, buf, len);
	ltpout_feed(e->parser, buf, len, engine_line_cb, e);
}

/* A line of ltpscope's own, stored with the output and shown live. */
static void
engine_meta(struct engine *e, const char *fmt, ...)
	__attribute__((__format__(__printf__, 2, 3)));

static void
engine_meta(struct engine *e, const char *fmt, ...)
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
	if (e->ev.line != NULL)
		e->ev.line(e->ev.arg, &l);
	buf[len++] = '\n';
	engine_keep(e, buf, (size_t)len);
}

static struct engine *
engine_alloc(struct store *st, const struct engine_opts *opts,
    const struct engine_events *ev)
{
	struct engine *e = xcalloc(1, sizeof(*e));

	e->st = st;
	e->opts = *opts;
	if (ev != NULL)
		e->ev = *ev;
	e->parser = ltpout_new();
	return e;
}

static void
engine_add(struct engine *e, const char *tag, const char *syscall,
    const char *cmdline, int explicit, int64_t seq)
{
	struct etest *t;

	e->tests = xreallocarray(e->tests, e->n + 1, sizeof(*e->tests));
	t = &e->tests[e->n++];
	t->tag = xstrdup(tag);
	t->syscall = xstrdup(syscall ? syscall : "");
	t->cmdline = xstrdup(cmdline ? cmdline : tag);
	t->explicit = explicit;
	t->seq = seq;
}

void
engine_describe_system(struct store_run *run, const char *ltproot)
{
	struct utsname u;
	char path[4096], ver[256] = "";
	FILE *fp;

	if (uname(&u) == 0) {
		char full[5 * sizeof(u.sysname) + 8];

		snprintf(full, sizeof(full), "%s %s %s %s %s", u.sysname,
		    u.nodename, u.release, u.version, u.machine);
		run->host = xstrdup(u.nodename);
		run->uname = xstrdup(full);
		run->os_name = xstrdup(u.sysname);
		run->os_version = xstrdup(u.release);
		run->arch = xstrdup(u.machine);
	} else {
		run->host = xstrdup("");
		run->uname = xstrdup("");
		run->os_name = xstrdup("");
		run->os_version = xstrdup("");
		run->arch = xstrdup("");
	}
	if (ltproot != NULL) {
		snprintf(path, sizeof(path), "%s/Version", ltproot);
		if ((fp = fopen(path, "r")) != NULL) {
			if (fgets(ver, sizeof(ver), fp) == NULL)
				ver[0] = '\0';
			ver[strcspn(ver, "\r\n")] = '\0';
			fclose(fp);
		}
	}
	run->ltp_version = xstrdup(ver);
}

struct engine *
engine_new(struct store *st, const struct engine_opts *opts,
    const struct engine_test *tests, size_t n,
    const struct engine_events *ev, struct diaglist *dl)
{
	struct engine *e;
	struct store_run run;
	struct store_queue_item *q;
	char config[2048];
	size_t i;

	e = engine_alloc(st, opts, ev);
	q = xcalloc(n ? n : 1, sizeof(*q));
	for (i = 0; i < n; i++) {
		engine_add(e, tests[i].tag, tests[i].syscall,
		    tests[i].cmdline, tests[i].explicit, (int64_t)i);
		q[i].pos = (int64_t)i;
		q[i].tag = e->tests[i].tag;
		q[i].syscall = e->tests[i].syscall;
		q[i].cmdline = e->tests[i].cmdline;
	}
	memset(&run, 0, sizeof(run));
	engine_describe_system(&run, opts->runner.ltproot);
	run.label = xstrdup(opts->label ? opts->label : "");
	/* What --resume needs to run the rest the same way. */
	snprintf(config, sizeof(config), "ltproot=%s\ntimeout=%d\n"
	    "kconfig=%s\ntimeout_mul=%s\ndev=%s\nreproducible=%d\n"
	    "pipe=%d\n",
	    opts->runner.ltproot ? opts->runner.ltproot : "",
	    opts->timeout_s,
	    opts->runner.kconfig ? opts->runner.kconfig : "",
	    opts->runner.timeout_mul ? opts->runner.timeout_mul : "",
	    opts->runner.ltp_dev ? opts->runner.ltp_dev : "",
	    opts->runner.reproducible, opts->runner.use_pipe);
	run.config = xstrdup(config);
	run.timeout_s = opts->timeout_s;
	if (store_run_begin(st, &run, q, n, dl) != STORE_OK) {
		store_run_clear(&run);
		free(q);
		engine_free(e);
		return NULL;
	}
	e->run_id = run.id;
	store_run_clear(&run);
	free(q);
	return e;
}

struct engine *
engine_resume(struct store *st, const struct engine_opts *opts,
    int64_t run_id, const struct engine_events *ev, struct diaglist *dl)
{
	struct engine *e;
	struct store_queue_item *q = NULL;
	size_t i, n = 0;

	if (store_run_resume(st, run_id, &q, &n, dl) != STORE_OK)
		return NULL;
	e = engine_alloc(st, opts, ev);
	e->run_id = run_id;
	for (i = 0; i < n; i++)
		engine_add(e, q[i].tag, q[i].syscall, q[i].cmdline, 0,
		    q[i].pos);
	store_queue_free(q, n);
	return e;
}

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
	return e->cur != NULL ? e->tests[e->cur_idx].tag : NULL;
}

const unsigned *
engine_counts(const struct engine *e)
{
	return e->counts;
}

int
engine_fd(const struct engine *e)
{
	return e->cur != NULL ? runner_fd(e->cur) : -1;
}

int
engine_poll_timeout(const struct engine *e)
{
	if (e->finished)
		return -1;
	if (e->cur == NULL)
		return 0;
	return runner_poll_timeout(e->cur);
}

static void
engine_reset_output(struct engine *e)
{
	e->outlen = 0;
	e->outtotal = 0;
	ltpout_reset(e->parser);
}

/* Stores a result and tells the caller; 0 or -1 (store error). */
static int
engine_record(struct engine *e, size_t idx, struct store_result *r,
    const char *why, struct diaglist *dl)
{
	int rv;

	r->run_id = e->run_id;
	r->tag = e->tests[idx].tag;
	r->syscall = e->tests[idx].syscall;
	r->seq = e->tests[idx].seq;
	r->output_size = (int64_t)e->outtotal;
	rv = store_test_finish(e->st, e->cur_result, r, e->out, e->outlen,
	    dl);
	if (rv != STORE_OK)
		return -1;
	if ((unsigned)r->status < TS__COUNT)
		e->counts[r->status]++;
	e->ndone++;
	if (e->ev.test_end != NULL)
		e->ev.test_end(e->ev.arg, r, why, idx, e->n);
	return 0;
}

static void
engine_fill_counts(struct store_result *r, const struct ltpout_tally *t)
{
	if (t->summary.present) {
		r->npass = (unsigned)t->summary.passed;
		r->nfail = (unsigned)t->summary.failed;
		r->nbroken = (unsigned)t->summary.broken;
		r->nconf = (unsigned)t->summary.skipped;
		r->nwarn = (unsigned)t->summary.warnings;
	} else {
		r->npass = (unsigned)t->lines[LC_TPASS];
		r->nfail = (unsigned)t->lines[LC_TFAIL];
		r->nbroken = (unsigned)t->lines[LC_TBROK];
		r->nconf = (unsigned)t->lines[LC_TCONF];
		r->nwarn = (unsigned)t->lines[LC_TWARN];
	}
}

/* Starts test idx, or records why it does not run. */
static int
engine_start_next(struct engine *e, struct diaglist *dl)
{
	struct etest *t = &e->tests[e->next];
	const struct skip_entry *skip = NULL;
	struct runner_opts ro;
	struct store_result r;
	struct diaglist rdl;
	size_t idx = e->next++;
	char why[600];

	engine_reset_output(e);
	e->cur_idx = idx;
	e->cur_started = (int64_t)time(NULL);
	if (store_test_start(e->st, e->run_id, t->tag, t->syscall, t->seq,
	    &e->cur_result, dl) != STORE_OK)
		return -1;
	if (e->ev.test_start != NULL)
		e->ev.test_start(e->ev.arg, t->tag, idx, e->n);
	if (e->opts.skip != NULL)
		skip = skiplist_match(e->opts.skip, t->tag);
	if (skip != NULL && t->explicit && e->ev.skip_warning != NULL)
		e->ev.skip_warning(e->ev.arg, t->tag, skip->reason);
	memset(&r, 0, sizeof(r));
	r.started = r.ended = e->cur_started;
	if (skip != NULL && !t->explicit) {
		engine_meta(e, "ltpscope: not run: %s (skip list %s:%lu)",
		    skip->reason, skip->file ? skip->file : "", skip->line);
		r.status = TS_NOTRUN;
		r.exit_code = -1;
		snprintf(why, sizeof(why), "skip list: %s", skip->reason);
		return engine_record(e, idx, &r, why, dl);
	}
	ro = e->opts.runner;
	ro.output = engine_output_cb;
	ro.output_arg = e;
	diag_init(&rdl);
	e->cur = runner_start(&ro, t->cmdline, &rdl);
	if (e->cur == NULL) {
		char msg[400] = "cannot start";

		if (rdl.n > 0)
			diag_format(&rdl.v[0], msg, sizeof(msg));
		diag_free(&rdl);
		engine_meta(e, "ltpscope: %s", msg);
		r.status = TS_BROKEN;
		r.exit_code = -1;
		snprintf(why, sizeof(why), "could not start: %s", msg);
		return engine_record(e, idx, &r, why, dl);
	}
	diag_free(&rdl);
	return 0;
}

static int
engine_finish_current(struct engine *e, struct diaglist *dl)
{
	const struct runner_result *rr = runner_result(e->cur);
	struct store_result r;
	struct test_end end;
	struct ltpout_line line;
	char why[256];
	int rv;

	while (ltpout_flush(e->parser, &line))
		engine_line_cb(&line, e);
	if (rr->stopped)
		engine_meta(e, "ltpscope: stopped by the user after %.1f s",
		    rr->duration);
	else if (rr->timed_out)
		engine_meta(e, "ltpscope: timed out after %.1f s; the "
		    "session was killed%s", rr->duration,
		    rr->killed ? " (SIGKILL was needed)" : "");
	if (rr->stragglers > 0)
		engine_meta(e, "ltpscope: killed %d process%s left behind in "
		    "the test's session", rr->stragglers,
		    rr->stragglers == 1 ? "" : "es");
	memset(&end, 0, sizeof(end));
	if (rr->stopped)
		end.how = TEST_INTERRUPTED;
	else if (rr->timed_out)
		end.how = TEST_TIMEDOUT;
	else if (!rr->exited) {
		end.how = TEST_SIGNALLED;
		end.code = rr->signo;
	} else {
		end.how = TEST_EXITED;
		end.code = rr->exit_code;
	}
	memset(&r, 0, sizeof(r));
	r.status = ltpout_status(ltpout_tally(e->parser), &end, why,
	    sizeof(why));
	r.exit_code = rr->exited ? rr->exit_code : -1;
	r.signal = rr->exited ? 0 : rr->signo;
	r.duration_ms = (int64_t)(rr->duration * 1000.0 + 0.5);
	r.started = e->cur_started;
	r.ended = (int64_t)time(NULL);
	engine_fill_counts(&r, ltpout_tally(e->parser));
	runner_free(e->cur);
	e->cur = NULL;
	rv = engine_record(e, e->cur_idx, &r, why, dl);
	return rv;
}

int
engine_service(struct engine *e, struct diaglist *dl)
{
	if (e->finished)
		return 1;
	if (e->cur != NULL) {
		if (!runner_service(e->cur))
			return 0;
		if (engine_finish_current(e, dl) != 0)
			goto fail;
		return 0;
	}
	if (e->stop_all || e->next >= e->n) {
		if (store_run_end(e->st, e->run_id, e->stop_all &&
		    e->next < e->n ? RUN_INTERRUPTED : RUN_FINISHED, dl) !=
		    STORE_OK)
			goto fail;
		e->finished = 1;
		return 1;
	}
	if (engine_start_next(e, dl) != 0)
		goto fail;
	return 0;
fail:
	e->finished = 1;
	return -1;
}

void
engine_stop_test(struct engine *e)
{
	if (e->cur != NULL)
		runner_stop(e->cur);
}

void
engine_stop_all(struct engine *e)
{
	e->stop_all = 1;
	engine_stop_test(e);
}

int
engine_run(struct engine *e, struct diaglist *dl)
{
	struct pollfd pfd;
	int rv, fd;

	for (;;) {
		if ((rv = engine_service(e, dl)) != 0)
			return rv < 0 ? -1 : 0;
		if ((fd = engine_fd(e)) < 0 && engine_poll_timeout(e) == 0)
			continue;
		pfd.fd = fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		(void)poll(&pfd, fd >= 0 ? 1 : 0, engine_poll_timeout(e));
	}
}

void
engine_free(struct engine *e)
{
	size_t i;

	if (e == NULL)
		return;
	if (e->cur != NULL)
		runner_free(e->cur);
	for (i = 0; i < e->n; i++) {
		free(e->tests[i].tag);
		free(e->tests[i].syscall);
		free(e->tests[i].cmdline);
	}
	free(e->tests);
	free(e->out);
	ltpout_free(e->parser);
	free(e);
}
