/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine (see engine.h): a queue of tests, run one at a time
 * through the runner, parsed by ltpout, committed to the store under
 * the crash protocol.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/conflicts.h"
#include "ltpscope/engine.h"
#include "ltpscope/ipcleft.h"
#include "ltpscope/kmsg.h"
#include "ltpscope/paths.h"
#include "ltpscope/rmtree.h"
#include "ltpscope/spool.h"
#include "ltpscope/verdict.h"
#include "ltpscope/remote.h"
#include "ltpscope/xmalloc.h"
#include "engine_impl.h"

static void
engine_worker_init(struct engine *e, struct eworker *w, size_t index)
{
	memset(w, 0, sizeof(*w));
	w->e = e;
	w->index = index;
	w->parser = ltpout_new();
}

/*
 * Paths the tests are given, settled once for the run.  A test runs
 * in its TMPDIR, so a relative LTPROOT (-L ltp) would put PATH and
 * LTPROOT out of its reach: a test that runs a helper of its own from
 * testcases/bin by name (the exec and clone tests' children) could
 * not find it, and --resume from elsewhere could not find the suite.
 * The kernel config LTP reads is looked for once, not once a test.
 */
static void
engine_settle_paths(struct engine *e)
{
	if (e->opts.runner.remote != NULL)
		return;
	e->ltproot = paths_absolute(paths_ltproot(e->opts.runner.ltproot));
	e->opts.runner.ltproot = e->ltproot;
	if ((e->kconfig = runner_kconfig_path(&e->opts.runner)) == NULL)
		e->kconfig = xstrdup("");
	e->opts.runner.kconfig = e->kconfig;
}

static struct engine *
engine_alloc(struct store *st, const struct engine_opts *opts,
    const struct engine_events *ev)
{
	struct engine *e = xcalloc(1, sizeof(*e));
	size_t i;

	e->st = st;
	e->opts = *opts;
	e->euid = (long long)geteuid();
	engine_settle_paths(e);
	/* A caller's own spares win; else the run keeps a set. */
	if (opts->runner.spares == NULL)
		e->spares = e->opts.runner.spares = runner_spares_new();
	if (ev != NULL)
		e->ev = *ev;
	e->nw = opts->jobs > 1 ? (size_t)opts->jobs : 1;
	e->w = xcalloc(e->nw, sizeof(*e->w));
	for (i = 0; i < e->nw; i++)
		engine_worker_init(e, &e->w[i], i);
	engine_worker_init(e, &e->instant, ENGINE_NO_WORKER);
	/* From now on what the kernel logs is the tests'. */
	if (opts->runner.remote == NULL)
		e->kmsg = kmsg_open(e->kmsg_why, sizeof(e->kmsg_why));
	return e;
}

static void
engine_add(struct engine *e, const struct engine_test *src, int64_t seq)
{
	struct etest *t;

	e->tests = xreallocarray(e->tests, e->n + 1, sizeof(*e->tests));
	t = &e->tests[e->n++];
	t->tag = xstrdup(src->tag);
	t->syscall = xstrdup(src->syscall ? src->syscall : "");
	t->cmdline = xstrdup(src->cmdline ? src->cmdline : src->tag);
	t->notrun = src->notrun != NULL ? xstrdup(src->notrun) : NULL;
	t->conflicts = xstrdup(src->conflicts != NULL ? src->conflicts : "");
	t->explicit = src->explicit;
	t->parallel = src->parallel;
	t->seq = seq;
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
	if (engine_rundir_make(e, dl) == -1) {
		engine_free(e);
		return NULL;
	}
	q = xcalloc(n ? n : 1, sizeof(*q));
	for (i = 0; i < n; i++) {
		engine_add(e, &tests[i], (int64_t)i);
		q[i].pos = (int64_t)i;
		q[i].tag = e->tests[i].tag;
		q[i].syscall = e->tests[i].syscall;
		q[i].cmdline = e->tests[i].cmdline;
		q[i].notrun = e->tests[i].notrun;
		q[i].named = e->tests[i].explicit;
		q[i].parallel = e->tests[i].parallel;
		q[i].conflicts = e->tests[i].conflicts;
	}
	memset(&run, 0, sizeof(run));
	if (opts->runner.remote != NULL)
		engine_describe_remote(&run, opts->runner.remote);
	else
		engine_describe_system(&run, e->opts.runner.ltproot);
	run.label = xstrdup(opts->label ? opts->label : "");
	/* What --resume needs to run the rest the same way. */
	snprintf(config, sizeof(config), "ltproot=%s\ntimeout=%d\n"
	    "kconfig=%s\ntimeout_mul=%s\ndev=%s\nreproducible=%d\n"
	    "pipe=%d\njobs=%d\n" ENGINE_RUNDIR_KEY "%s\n",
	    e->opts.runner.ltproot ? e->opts.runner.ltproot : "",
	    opts->timeout_s,
	    opts->runner.kconfig ? opts->runner.kconfig : "",
	    opts->runner.timeout_mul ? opts->runner.timeout_mul : "",
	    opts->runner.ltp_dev ? opts->runner.ltp_dev : "",
	    opts->runner.reproducible, opts->runner.use_pipe,
	    (int)e->nw, e->rundir);
	if (opts->runner.remote != NULL) {
		/* The box to resume on; compat_linux's Linux release. */
		size_t len = strlen(config);

		snprintf(config + len, sizeof(config) - len, "host=%s\n"
		    "ssh_config=%s\nemul_linux=%s\n",
		    remote_spec(opts->runner.remote),
		    remote_ssh_config(opts->runner.remote) != NULL ?
		    remote_ssh_config(opts->runner.remote) : "",
		    remote_box(opts->runner.remote)->emul_release);
	}
	xasprintf(&run.config, "%s%s", config, opts->config_extra != NULL ?
	    opts->config_extra : "");
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

	struct store_run run;
	char *old, *config;
	int rv;

	if (store_run_resume(st, run_id, &q, &n, dl) != STORE_OK)
		return NULL;
	e = engine_alloc(st, opts, ev);
	e->run_id = run_id;
	/* The dead run's TMPDIRs go; this run's are named before use. */
	memset(&run, 0, sizeof(run));
	rv = store_get_run(st, run_id, &run, dl);
	if (rv == STORE_OK && (old = engine_rundir_of(run.config)) != NULL) {
		engine_rundir_clean(e, old);
		free(old);
	}
	if (rv == STORE_OK && engine_rundir_make(e, dl) == 0) {
		config = engine_config_with_rundir(run.config, e->rundir);
		rv = store_run_set_config(st, run_id, config, dl);
		free(config);
	} else if (rv == STORE_OK)
		rv = STORE_EIO;
	store_run_clear(&run);
	if (rv != STORE_OK) {
		store_queue_free(q, n);
		(void)store_run_end(st, run_id, RUN_INTERRUPTED, dl);
		engine_free(e);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		struct engine_test t;

		memset(&t, 0, sizeof(t));
		t.tag = q[i].tag;
		t.syscall = q[i].syscall;
		t.cmdline = q[i].cmdline;
		t.notrun = q[i].notrun != NULL && q[i].notrun[0] != '\0' ?
		    q[i].notrun : NULL;
		t.explicit = q[i].named;
		/* Side by side as the run began: its marks and groups. */
		t.parallel = q[i].parallel && e->nw > 1;
		t.conflicts = q[i].conflicts;
		engine_add(e, &t, q[i].pos);
	}
	store_queue_free(q, n);
	return e;
}

size_t
engine_pollfds(const struct engine *e, struct pollfd *pfd, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < e->nw && n < max; i++)
		if (e->w[i].r != NULL)
			n += (size_t)runner_pollfds(e->w[i].r, pfd + n,
			    max - n > RUNNER_NPOLL ? RUNNER_NPOLL :
			    (int)(max - n));
	return n;
}

/*
 * Commits what was written since the last commit (one fsync).  0, or
 * -1: none of the results it held is stored, and none will be told.
 */
static int
engine_commit(struct engine *e, struct diaglist *dl)
{
	size_t i;

	if (store_batch_commit(e->st, dl) == STORE_OK) {
		e->ncommitted = e->npending;
		return 0;
	}
	for (i = 0; i < e->npending; i++)
		free(e->pending[i].why);
	e->npending = e->ncommitted = 0;
	return -1;
}

/* Counts and tells the results the last commit made durable. */
static void
engine_tell(struct engine *e)
{
	struct epending *p;
	size_t i;

	for (i = 0; i < e->ncommitted; i++) {
		p = &e->pending[i];
		if ((unsigned)p->r.status < TS__COUNT)
			e->counts[p->r.status]++;
		if (test_status_env_marked(p->r.status, p->r.nenvwarn))
			e->nenvmarked++;
		if (store_result_kmsg_marked(&p->r))
			e->nkmarked++;
		e->ndone++;
		if (e->ev.test_end != NULL)
			e->ev.test_end(e->ev.arg, &p->r, p->why, p->idx, e->n);
		if (e->ev.worker_end != NULL)
			e->ev.worker_end(e->ev.arg, p->worker, &p->r, p->why,
			    p->idx, e->n);
		free(p->why);
	}
	/* Written since, not committed yet: told after the next commit. */
	if (e->npending > e->ncommitted)
		memmove(e->pending, e->pending + e->ncommitted,
		    (e->npending - e->ncommitted) * sizeof(*e->pending));
	e->npending -= e->ncommitted;
	e->ncommitted = 0;
}

static int
engine_flush(struct engine *e, struct diaglist *dl)
{
	if (engine_commit(e, dl) != 0)
		return -1;
	engine_tell(e);
	return 0;
}

/* A free worker, or NULL. */
static struct eworker *
engine_free_worker(struct engine *e)
{
	size_t i;

	for (i = 0; i < e->nw; i++)
		if (e->w[i].r == NULL)
			return &e->w[i];
	return NULL;
}

/*
 * Tells the results committed before the test idx, then that it
 * starts (on worker w), and that it runs though skip lists it.
 */
static void
engine_tell_start(struct engine *e, struct eworker *w, size_t idx,
    const struct skip_entry *skip)
{
	const struct etest *t = &e->tests[idx];

	engine_tell(e);
	if (e->ev.test_start != NULL)
		e->ev.test_start(e->ev.arg, t->tag, idx, e->n);
	if (e->ev.worker_start != NULL)
		e->ev.worker_start(e->ev.arg, w->index, t->tag, idx, e->n);
	if (skip != NULL && t->explicit && e->ev.skip_warning != NULL)
		e->ev.skip_warning(e->ev.arg, t->tag, skip->reason);
}

/* r: a result ltpscope itself gives w's test, started as it was. */
static void
engine_judge_self(struct engine *e, const struct eworker *w,
    struct store_result *r)
{
	r->started = r->ended = w->started;
	(void)snprintf(r->raw, sizeof(r->raw), "-");
	(void)rules_env_digest(e->opts.rules, r->judged, sizeof(r->judged));
}

/* Starts the next test, or records why it does not run. */
static int
engine_start_next(struct engine *e, struct diaglist *dl)
{
	struct etest *t = &e->tests[e->next];
	const struct skip_entry *skip = NULL;
	struct eworker *w;
	struct runner_opts ro;
	struct store_result r;
	struct diaglist rdl;
	struct runner *run;
	size_t idx = e->next++;
	char why[600];

	/* Its group is busy: a later one that is free goes first. */
	if (e->nbusy > 0 && !engine_instant(e, t) && t->parallel &&
	    engine_conflicting(e, t)) {
		size_t k = engine_pick(e);
		struct etest tmp;

		if (k < e->n) {
			tmp = e->tests[k];
			memmove(&e->tests[idx + 1], &e->tests[idx],
			    (k - idx) * sizeof(*e->tests));
			e->tests[idx] = tmp;
		}
	}
	if (e->opts.runner.remote != NULL &&
	    !remote_alive(e->opts.runner.remote)) {
		/* Gone between tests: the run stops before this one. */
		e->next--;
		engine_lose_box(e);
		return 0;
	}
	if (e->opts.skip != NULL)
		skip = skiplist_match(e->opts.skip, t->tag);
	if ((skip != NULL && !t->explicit) || t->notrun != NULL ||
	    (w = engine_free_worker(e)) == NULL)
		w = &e->instant;
	engine_reset_output(w);
	w->idx = idx;
	w->started = (int64_t)time(NULL);
	/* Committed with the result before it, before the test starts. */
	if (store_test_start(e->st, e->run_id, t->tag, t->syscall, t->seq,
	    &w->result_id, dl) != STORE_OK || engine_commit(e, dl) != 0)
		return -1;
	/*
	 * The result ltpscope gives a test it does not run, or cannot
	 * start: judged by ltpscope, not by output, never judged again.
	 * Filled in only where it is used (engine_judge_self()), not on
	 * the way to every test's start.
	 */
	memset(&r, 0, sizeof(r));
	if ((skip != NULL && !t->explicit) || t->notrun != NULL) {
		engine_judge_self(e, w, &r);
		engine_tell_start(e, w, idx, skip);
	}
	if (skip != NULL && !t->explicit) {
		engine_meta(w, "ltpscope: not run: %s (skip list %s:%lu)",
		    skip->reason, skip->file ? skip->file : "", skip->line);
		r.status = TS_NOTRUN;
		r.exit_code = -1;
		snprintf(why, sizeof(why), "skip list: %s", skip->reason);
		return engine_record(e, w, &r, why, dl);
	}
	if (t->notrun != NULL) {
		/*
		 * LTP would have skipped it (TCONF) for the same need: stored
		 * alike, a baseline made by another runner compares equal.
		 */
		engine_meta(w, "ltpscope: not started, skipped (conf): %s",
		    t->notrun);
		r.status = TS_CONF;
		r.nconf = 1;
		r.exit_code = -1;
		return engine_record(e, w, &r, t->notrun, dl);
	}
	ro = e->opts.runner;
	ro.output = engine_output_cb;
	ro.output_arg = w;
	diag_init(&rdl);
	if (e->opts.runner.remote == NULL)
		engine_ipc_begin(e, t->tag);
	run = runner_start(&ro, t->cmdline, &rdl);
	/*
	 * Told once the test is on its way (what came before it is
	 * committed): printing and the caller's updates are not on the
	 * path from one test to the next.
	 */
	engine_tell_start(e, w, idx, skip);
	if (run == NULL) {
		char msg[400] = "cannot start";

		if (rdl.n > 0)
			diag_format(&rdl.v[0], msg, sizeof(msg));
		diag_free(&rdl);
		engine_meta(w, "ltpscope: %s", msg);
		engine_judge_self(e, w, &r);
		r.status = TS_BROKEN;
		r.exit_code = -1;
		snprintf(why, sizeof(why), "could not start: %s", msg);
		return engine_record(e, w, &r, why, dl);
	}
	diag_free(&rdl);
	w->r = run;
	w->serial = !(t->parallel && e->nw > 1);
	e->nbusy++;
	return 0;
}

static int
engine_finish(struct engine *e, struct eworker *w, struct diaglist *dl)
{
	const struct runner_result *rr = runner_result(w->r);
	struct store_result r;
	struct ltpout_tally t;
	struct test_end end;
	struct ltpout_line line;
	struct kmsg_take kt;
	const char *ktext;
	size_t klen;
	int krec;
	char why[256], left[sizeof(rr->tmpdir_why) + 32];

	while (ltpout_flush(w->parser, &line))
		engine_line_cb(&line, w);
	if (rr->lost)
		return engine_crash(e, w, rr->duration, dl);
	if (rr->stopped)
		engine_meta(w, "ltpscope: stopped by the user after %.1f s",
		    rr->duration);
	else if (rr->timed_out)
		engine_meta(w, "ltpscope: timed out after %.1f s; the "
		    "session was killed%s", rr->duration,
		    rr->killed ? " (SIGKILL was needed)" : "");
	if (rr->stragglers > 0) {
		snprintf(left, sizeof(left), "killed %d process%s left behind "
		    "in the test's session", rr->stragglers,
		    rr->stragglers == 1 ? "" : "es");
		engine_meta(w, "ltpscope: %s", left);
		engine_leftover(e, e->tests[w->idx].tag, left);
	}
	if (rr->cleaned[0] != '\0')
		engine_cleaned(e, w, e->tests[w->idx].tag, rr->cleaned);
	if (e->nbusy == 1)
		engine_ipc_end(e, w);
	if (rr->tmpdir_left) {
		snprintf(left, sizeof(left), "tmpdir_left: %s",
		    rr->tmpdir_why);
		engine_meta(w, "ltpscope: %s", left);
		engine_leftover(e, e->tests[w->idx].tag, left);
	}
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
	t = *ltpout_tally(w->parser);
	t.env_warn = w->envwarn;
	(void)verdict_judge(e->opts.rules, &r, &t, &end, why, sizeof(why));
	r.exit_code = rr->exited ? rr->exit_code : -1;
	r.signal = rr->exited ? 0 : rr->signo;
	r.duration_ms = (int64_t)(rr->duration * 1000.0 + 0.5);
	r.started = w->started;
	r.ended = (int64_t)time(NULL);
	kmsg_take_init(&kt);
	if (e->kmsg != NULL)
		kmsg_collect(e->kmsg, &kt);
	else if ((ktext = runner_box_kmsg(w->r, &klen, &krec,
	    &kt.taint_before, &kt.taint_after)) != NULL) {
		kmsg_take_add(&kt, krec ? KMSG_RECORDS : KMSG_LINES, ktext,
		    klen);
		kmsg_take_end(&kt, krec ? KMSG_RECORDS : KMSG_LINES);
	}
	/* No test more on a tainted kernel: the caller resets the box. */
	if (e->opts.reset_on_taint && e->opts.runner.remote != NULL &&
	    kt.taint_before != kt.taint_after && kt.taint_before != -1 &&
	    kt.taint_after != -1 && e->next < e->n && e->reset_test == NULL) {
		e->reset_test = xstrdup(e->tests[w->idx].tag);
		e->stop_all = 1;
	}
	runner_free(w->r);
	w->r = NULL;
	e->nbusy--;
	return engine_record_kmsg(e, w, &r, why, &kt, dl);
}

/*
 * On a box, the kernel that may panic is not the one holding the
 * database: a test's running row need not be on disk before the test
 * starts, only survive kill -9, and the fsync a test is saved (issue
 * 25).  Once the run ends, or stops, all of it is synced at once.
 */
static void
engine_lazy(struct engine *e, struct diaglist *dl)
{
	if (!e->lazy && e->opts.runner.remote != NULL &&
	    !e->opts.durable_each && !e->finished &&
	    store_sync_each(e->st, 0, dl) == STORE_OK)
		e->lazy = 1;
}

static int
engine_durable(struct engine *e, struct diaglist *dl)
{
	if (!e->lazy)
		return 0;
	e->lazy = 0;
	return store_sync_each(e->st, 1, dl) == STORE_OK ? 0 : -1;
}

int
engine_service(struct engine *e, struct diaglist *dl)
{
	size_t i;

	if (e->finished)
		return 1;
	engine_lazy(e, dl);
	store_batch_begin(e->st);
	for (i = 0; i < e->nw; i++) {
		if (e->w[i].r == NULL || !runner_service(e->w[i].r))
			continue;
		if (engine_finish(e, &e->w[i], dl) != 0)
			goto fail;
	}
	if ((e->stop_all || e->next >= e->n) && e->nbusy == 0) {
		/*
		 * The end in the last results' commit: one fsync fewer.
		 * Left "running": --resume goes on after the crash.
		 */
		if (!e->box_lost && e->reset_test == NULL &&
		    store_run_end(e->st, e->run_id, e->stop_all &&
		    e->next < e->n ? RUN_INTERRUPTED : RUN_FINISHED, dl) !=
		    STORE_OK)
			goto fail;
		if (engine_flush(e, dl) != 0 ||
		    store_batch_end(e->st, dl) != STORE_OK ||
		    engine_durable(e, dl) != 0)
			goto fail;
		e->finished = 1;
		return 1;
	}
	while (!e->stop_all && e->next < e->n && engine_can_start(e))
		if (engine_start_next(e, dl) != 0)
			goto fail;
	if (engine_flush(e, dl) != 0 || store_batch_end(e->st, dl) !=
	    STORE_OK)
		goto fail;
	/* While tests run: the next commit's fsync stays cheap. */
	if (e->nbusy > 0)
		store_checkpoint_idle(e->st);
	return 0;
fail:
	/* What was written before the failure is still worth keeping. */
	(void)engine_flush(e, dl);
	(void)store_batch_end(e->st, dl);
	(void)engine_durable(e, dl);
	e->finished = 1;
	return -1;
}

void
engine_stop_worker(struct engine *e, size_t w)
{
	if (w < e->nw && e->w[w].r != NULL)
		runner_stop(e->w[w].r);
}

void
engine_stop_test(struct engine *e)
{
	size_t i;

	for (i = 0; i < e->nw; i++)
		engine_stop_worker(e, i);
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
	struct pollfd *pfd = xcalloc(e->nw, ENGINE_NPOLL * sizeof(*pfd));
	size_t n;
	int rv, ms;

	for (;;) {
		if ((rv = engine_service(e, dl)) != 0)
			break;
		n = engine_pollfds(e, pfd, e->nw * ENGINE_NPOLL);
		if ((ms = engine_poll_timeout(e)) == 0)
			continue;
		(void)poll(pfd, (nfds_t)n, ms);
	}
	free(pfd);
	return rv < 0 ? -1 : 0;
}

static void
engine_worker_free(struct eworker *w)
{
	if (w->r != NULL)
		runner_free(w->r);
	spool_free(w->spool);
	ltpout_free(w->parser);
}

void
engine_free(struct engine *e)
{
	size_t i;

	if (e == NULL)
		return;
	for (i = 0; i < e->nw; i++)
		engine_worker_free(&e->w[i]);
	runner_spares_free(e->spares);
	engine_worker_free(&e->instant);
	kmsg_close(e->kmsg);
	free(e->reset_test);
	/* Empty unless a test left a mount, already told as left behind. */
	if (e->rundir != NULL)
		(void)rmtree(e->rundir);
	free(e->rundir);
	free(e->ltproot);
	free(e->kconfig);
	free(e->w);
	for (i = 0; i < e->n; i++) {
		free(e->tests[i].tag);
		free(e->tests[i].syscall);
		free(e->tests[i].cmdline);
		free(e->tests[i].notrun);
		free(e->tests[i].conflicts);
	}
	free(e->tests);
	for (i = 0; i < e->nleft; i++)
		free(e->left[i]);
	free(e->left);
	for (i = 0; i < e->ncleaned; i++)
		free(e->cleaned[i]);
	free(e->cleaned);
	ipcleft_free(e->ipc);
	ipcleft_free(e->ipc_after);
	if (e->lazy) {
		/* Stopped between services: what it stored goes to disk. */
		struct diaglist dl;

		diag_init(&dl);
		(void)engine_durable(e, &dl);
		diag_free(&dl);
	}
	free(e->lost_test);
	free(e->blamed);
	free(e->lost_why);
	for (i = 0; i < e->npending; i++)
		free(e->pending[i].why);
	free(e->pending);
	free(e);
}
