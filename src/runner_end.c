/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A test's end, local or remote: the box's report taken for the result,
 * the output closed, the TMPDIR handed on to the next test or removed
 * (what the test mounted in it unmounted first).  Called by the API
 * (runner.c) and by a remote test's clock (runner_remote.c), so it
 * sits below both.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/remote.h"
#include "ltpscope/rmtree.h"
#include "runner_impl.h"

/* What a remote test delivers, counted as a local one's is. */
void
runner_remote_out(void *arg, const char *buf, size_t len)
{
	struct runner *r = arg;

	r->res.bytes += (unsigned long long)len;
	if (r->output != NULL)
		r->output(r->output_arg, buf, len);
}

/*
 * A remote test's end as the box reported it, in place of the local
 * ssh's; no report means the box stopped answering.
 */
static void
runner_remote_result(struct runner *r)
{
	const struct remote_status *st;
	struct runner_result *res = &r->res;
	char line[320];
	int len;

	remote_exec_flush(r->rx, runner_remote_out, r);
	st = remote_exec_status(r->rx);
	if (st->error[0] != '\0' && r->output != NULL) {
		len = snprintf(line, sizeof(line), "ltpscope: on the box: %s\n",
		    st->error);
		if (len > 0 && (size_t)len < sizeof(line))
			r->output(r->output_arg, line, (size_t)len);
	}
	res->exited = res->exit_code = res->signo = res->core_dumped = 0;
	if (!st->have) {
		res->lost = 1;
		return;
	}
	/* sh's $? says 128 + N for a signal N. */
	if (st->status > 128 && st->status < 128 + 65)
		res->signo = st->status - 128;
	else {
		res->exited = 1;
		res->exit_code = st->status;
	}
	res->timed_out = st->timed_out;
	res->killed = st->killed;
	res->stopped |= st->stopped;
	res->stragglers = st->stragglers;
	res->tmpdir_left = st->tmpdir_left;
	res->output_cut = st->output_cut;
}

void
runner_finish(struct runner *r)
{
	if (r->rx != NULL)
		runner_remote_result(r);
	if (r->slave >= 0) {
		close(r->slave);
		r->slave = -1;
	}
	if (r->fd >= 0) {
		close(r->fd);
		r->fd = -1;
	}
	runner_hand_on_pty(r);
	if (r->tmpdir == NULL)
		;
	else if (runner_hand_on(r))
		;
	else {
		char done[sizeof(r->res.cleaned) - 16];

		if (rmtree_unmount_said(r->tmpdir, r->res.tmpdir_why,
		    sizeof(r->res.tmpdir_why), done, sizeof(done)) == -1)
			r->res.tmpdir_left = 1;
		if (done[0] != '\0')
			snprintf(r->res.cleaned, sizeof(r->res.cleaned),
			    "unmounted %s", done);
	}
	r->done = 1;
}
