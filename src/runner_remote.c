/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A test on a box (runner_opts.remote): its start, and the clock the
 * runner keeps for it, told to the box as lines ('T', 'K', 'H', 'C').
 * Below the API (runner.c), which picks local or remote; above a
 * test's end (runner_end.c), where a remote test finishes.
 */
#include <stdlib.h>

#include "ltpscope/remote.h"
#include "ltpscope/xmalloc.h"
#include "runner_impl.h"

/*
 * A test on a box (runner_opts.remote): no local process, but a line
 * to one of the connection's agents (remote.h), what the box is told
 * (LTPROOT, PATH and TMPDIR are made there).  The runner keeps the
 * clock: the timeout, the grace and the drain become lines to the box
 * ('T', 'K', 'H').  NULL after an error (dl).
 */
struct runner *
runner_remote_start(const struct runner_opts *o, char *const argv[],
    struct diaglist *dl)
{
	struct envbuild env = { NULL, 0, 0 };
	struct remote_exec *rx;
	struct runner *r;
	size_t i;
	char *s;
	int grace_ms;

	runner_env_push(&env, xstrdup("LTP_COLORIZE_OUTPUT=0"));
	if (o->timeout_mul != NULL) {
		xasprintf(&s, "LTP_TIMEOUT_MUL=%s", o->timeout_mul);
		runner_env_push(&env, s);
	}
	if (o->ltp_dev != NULL) {
		xasprintf(&s, "LTP_DEV=%s", o->ltp_dev);
		runner_env_push(&env, s);
	}
	if (o->reproducible)
		runner_env_push(&env, xstrdup("LTP_REPRODUCIBLE_OUTPUT=1"));
	for (i = 0; o->env_extra != NULL && o->env_extra[i] != NULL; i++)
		runner_env_push(&env, xstrdup(o->env_extra[i]));
	grace_ms = o->grace_ms > 0 ? o->grace_ms : RUNNER_DEFAULT_GRACE_MS;
	rx = remote_exec_new(o->remote, argv, env.v, (grace_ms + 999) / 1000,
	    dl);
	xfreev(env.v);
	if (rx == NULL)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->t_start_ns = runner_now_ns();
	if (remote_exec_start(rx, dl) != 0) {
		remote_exec_free(rx);
		free(r);
		return NULL;
	}
	r->rx = rx;
	r->fd = r->slave = r->xfd = -1;
	r->cut_at = r->giveup_at = -1;
	r->output = o->output;
	r->output_arg = o->output_arg;
	return r;
}

/* The next thing a remote test's clock is waiting for, ms; -1: none. */
long long
runner_remote_next(const struct runner *r)
{
	long long t = -1, c[4];
	int i, n = 0;

	if (!r->term_sent && r->deadline >= 0)
		c[n++] = r->deadline;
	if (r->term_sent && !r->kill_sent)
		c[n++] = r->kill_at;
	if (r->drain_at >= 0 && !r->hunt_sent)
		c[n++] = r->drain_at;
	if (r->cut_at >= 0 && !r->cut_sent)
		c[n++] = r->cut_at;
	if (r->giveup_at >= 0)
		c[n++] = r->giveup_at;
	for (i = 0; i < n; i++)
		if (t < 0 || c[i] < t)
			t = c[i];
	return t;
}

/*
 * A remote test: what the agent sent, and what the box is to be told
 * when.  After the leader's end the output gets drain_ms to end, then
 * what holds it is killed ('H'), then, after the grace, it is let go
 * of ('C'); a test the box does not report on after that, or after
 * its SIGKILL, is lost.
 */
int
runner_remote_service(struct runner *r)
{
	long long now;
	int rc;

	rc = remote_exec_service(r->rx, runner_remote_out, r);
	now = runner_now_ms();
	if (rc == 0 && r->giveup_at >= 0 && now >= r->giveup_at)
		rc = -1;
	if (rc != 0) {
		r->res.duration = (double)(runner_now_ns() - r->t_start_ns) / 1e9;
		runner_finish(r);
		return 1;
	}
	if (remote_exec_leader_done(r->rx) && r->drain_at < 0)
		r->drain_at = now + r->drain_ms;
	if (!r->term_sent && r->deadline >= 0 && now >= r->deadline) {
		r->res.timed_out = 1;
		r->term_sent = 1;
		r->kill_at = now + r->grace_ms;
		remote_exec_tell(r->rx, 'T');
	}
	if (r->term_sent && !r->kill_sent && now >= r->kill_at &&
	    !remote_exec_leader_done(r->rx)) {
		r->kill_sent = 1;
		remote_exec_tell(r->rx, 'K');
		r->giveup_at = now + RUNNER_REMOTE_SLACK_MS;
	}
	if (r->drain_at >= 0 && !r->hunt_sent && now >= r->drain_at) {
		r->hunt_sent = 1;
		remote_exec_tell(r->rx, 'H');
		r->cut_at = now + r->grace_ms;
	}
	if (r->cut_at >= 0 && !r->cut_sent && now >= r->cut_at) {
		r->cut_sent = 1;
		remote_exec_tell(r->rx, 'C');
		r->giveup_at = now + RUNNER_REMOTE_SLACK_MS;
	}
	return 0;
}
