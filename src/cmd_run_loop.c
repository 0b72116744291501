/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope run while its tests run: ^C and TERM noted, a line per
 * finished test (and the progress line on a terminal), the loop that
 * drives the engine and watches --console, and the crashes and summary
 * said at the end.  Below the command (cmd_run.c) and the box's files
 * (cmd_run_box.c), which go on after a box went down.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/textsafe.h"

#include "cmd_run_impl.h"

static volatile sig_atomic_t run_interrupted;
static pid_t run_parent;	/* the ltpscope that forked this box's run */
static int run_orphaned;	/* ... and it is gone */

void
run_on_signal(int sig)
{
	(void)sig;
	run_interrupted = 1;
}

/*
 * A box's run forked by the ltpscope of several boxes: should that one
 * be killed (kill -9 takes no children with it), this run stops as ^C
 * stops it, resumable, rather than going on unseen behind the shell's
 * prompt and holding its run and box against --resume.  No signal
 * tells a child its parent died on every system; its parent changing
 * does.
 */
void
run_watch_parent(pid_t parent)
{
	run_parent = parent;
}

/* For cmd_run_box.c, which waits on boxes, and the run's loop. */
int
run_was_interrupted(void)
{
	if (!run_interrupted && run_parent > 0 && getppid() != run_parent) {
		run_orphaned = 1;
		run_interrupted = 1;
	}
	return run_interrupted;
}

void
run_clear_progress(struct run_ctx *c)
{
	if (c->tty && c->progress_shown) {
		fprintf(stderr, "\r\033[K");
		c->progress_shown = 0;
	}
}

void
ev_test_start(void *arg, const char *tag, size_t idx, size_t n)
{
	struct run_ctx *c = arg;

	if (!c->tty)
		return;
	if (c->jobs > 1 && c->e != NULL) {
		/* Several run at once: say how many, and the newest. */
		fprintf(stderr, "\r\033[K[%zu/%zu] %zu running, %s ...",
		    engine_done_count(c->e), n, engine_running(c->e) + 1,
		    tag);
		fflush(stderr);
		c->progress_shown = 1;
		return;
	}
	fprintf(stderr, "\r\033[K[%zu/%zu] %s ...", idx + 1, n, tag);
	fflush(stderr);
	c->progress_shown = 1;
}

void
ev_skip_warning(void *arg, const char *tag, const char *reason)
{
	struct run_ctx *c = arg;

	run_clear_progress(c);
	fprintf(stderr, "ltpscope: warning: %s is on the skip list (%s); "
	    "running it because it was named\n", tag, reason);
}

void
ev_line(void *arg, const struct ltpout_line *l)
{
	struct run_ctx *c = arg;
	char *safe;
	size_t len;

	/* With -j the lines of several tests interleave: see ev_wline. */
	if (!c->verbose || c->jobs > 1)
		return;
	run_clear_progress(c);
	/* The explorer's placeholders: output must not drive the terminal. */
	safe = textsafe_display(l->text, l->len, 0, &len);
	if (c->prefix != NULL)
		printf("[%s] ", c->prefix);
	fwrite(safe, 1, len, stdout);
	putchar('\n');
	/* Live, into a pipe or a file too: a test that hangs said why. */
	fflush(stdout);
	free(safe);
}

/* -v with -j: each line after the tag of the test that printed it. */
void
ev_wline(void *arg, size_t w, const struct ltpout_line *l)
{
	struct run_ctx *c = arg;
	const char *tag;

	if (!c->verbose || c->jobs <= 1)
		return;
	tag = c->e != NULL ? engine_worker_tag(c->e, w) : NULL;
	printf("%s: ", tag != NULL ? tag : "ltpscope");
	c->jobs = 1;
	ev_line(arg, l);
	c->jobs = 2;
}

void
ev_test_end(void *arg, const struct store_result *r, const char *why,
    size_t idx, size_t n)
{
	struct run_ctx *c = arg;
	const unsigned counts[5] = { r->npass, r->nfail, r->nbroken,
	    r->nconf, r->nwarn };
	const char *names[5] = { "pass", "fail", "broken", "conf", "warn" };
	char status[16], tally[128] = "";
	size_t i, len = 0;

	run_clear_progress(c);
	snprintf(status, sizeof(status), "%s", test_status_name(r->status));
	for (i = 0; status[i] != '\0'; i++)
		if (status[i] >= 'a' && status[i] <= 'z')
			status[i] -= 'a' - 'A';
	for (i = 0; i < 5; i++)
		if (counts[i] > 0 && len < sizeof(tally))
			len += (size_t)snprintf(tally + len, sizeof(tally) - len,
			    "%s%u %s", len ? ", " : "", counts[i], names[i]);
	/*
	 * The verdict's reason matters when the counts do not tell it, as
	 * for a test ruled out beforehand (conf with no exit status).
	 */
	if (r->status == TS_PASS || r->status == TS_FAIL ||
	    (r->status == TS_CONF && r->exit_code >= 0) ||
	    r->status == TS_WARN || why == NULL)
		why = "";
	if (c->prefix != NULL)
		printf("[%s] ", c->prefix);
	printf("%-11s %-24s %7.2fs  %s", status, r->tag,
	    r->duration_ms / 1000.0, tally);
	if (*why)
		printf("%s(%s)", *tally ? "  " : "", why);
	if (test_status_env_marked(r->status, r->nenvwarn))
		printf("%senv warning", *tally || *why ? "  " : "");
	if (store_result_kmsg_marked(r))
		printf("%skernel %s", *tally || *why ? "  " : "",
		    r->kmsg_tainted ? "tainted" : "warned");
	printf("\n");
	fflush(stdout);
	(void)idx;
	(void)n;
}

/*
 * --console: a panic line there while tests run on the box is the
 * crash, told at once, not once ssh's keepalives give the box up.
 * The task the kernel names with it, soon after, tells which of the
 * tests running (-j) did it.  The poll's timeout, shortened to look
 * again soon.
 */
static int
run_watch_console(struct engine *e, struct run_ctx *c, int ms)
{
	char comm[CRASHLOG_COMM];

	if (c->watch == NULL || engine_running(e) == 0 ||
	    (c->watch_fired && c->watch_ms == 0))
		return ms;
	if (!c->watch_fired) {
		if (!crashlog_watch_poll(c->watch, c->watch_line,
		    sizeof(c->watch_line)))
			return ms < 0 || ms > RUN_WATCH_MS ? RUN_WATCH_MS :
			    ms;
		c->watch_fired = 1;
		c->watch_ms = run_now_ms();
	}
	if (!crashlog_watch_culprit(c->watch, comm, sizeof(comm)) &&
	    run_now_ms() - c->watch_ms < RUN_COMM_MS)
		return 50;
	c->watch_ms = 0;
	engine_blame(e, comm);
	engine_box_gone(e, "console told of a panic");
	return 0;
}

int
run_loop(struct engine *e, struct run_ctx *c, struct diaglist *dl)
{
	struct pollfd pfd[RUN_MAXJOBS * ENGINE_NPOLL];
	size_t n;
	int rv, ms, stopping = 0;

	for (;;) {
		if (run_was_interrupted() && !stopping) {
			stopping = 1;
			run_clear_progress(c);
			fprintf(stderr, "ltpscope: %s; stopping the "
			    "current test%s (resume with ltpscope run "
			    "--resume)\n", run_orphaned ? "the ltpscope that "
			    "started this box's run is gone" : "interrupted",
			    engine_running(e) > 1 ? "s" : "");
			engine_stop_all(e);
		}
		if ((rv = engine_service(e, dl)) != 0)
			return rv < 0 ? -1 : 0;
		n = engine_pollfds(e, pfd, RUN_MAXJOBS * ENGINE_NPOLL);
		if ((ms = run_watch_console(e, c, engine_poll_timeout(e))) ==
		    0)
			continue;
		if (run_parent > 0 && !stopping && (ms < 0 ||
		    ms > RUN_PARENT_MS))
			ms = RUN_PARENT_MS;
		if (poll(pfd, (nfds_t)n, ms) == -1 && errno != EINTR)
			return -1;
	}
}

/* How many crashes the run had, which tests, and the kernel's words. */
void
run_crash_report(struct store *st, int64_t run_id)
{
	struct store_result *v = NULL;
	struct store_output o;
	struct diaglist dl;
	char first[300];
	size_t n = 0, i;
	unsigned ncrash = 0;

	diag_init(&dl);
	if (store_run_results(st, run_id, &v, &n, &dl) != STORE_OK)
		n = 0;
	for (i = 0; i < n; i++)
		ncrash += v[i].status == TS_CRASH;
	if (ncrash > 0)
		printf("%u crash%s (the box stopped answering):\n", ncrash,
		    ncrash == 1 ? "" : "es");
	for (i = 0; i < n; i++) {
		if (v[i].status != TS_CRASH)
			continue;
		memset(&o, 0, sizeof(o));
		if (store_get_output(st, v[i].id, &o, &dl) != STORE_OK ||
		    !crashlog_find(o.data, o.stored_size, first,
		    sizeof(first)))
			snprintf(first, sizeof(first), "the kernel's words "
			    "not read yet (the box was not back)");
		store_output_clear(&o);
		printf("  crash %s: %s\n", v[i].tag, first);
	}
	store_results_free(v, n);
	diag_free(&dl);
}

/*
 * The whole run's tally, from the store: after a crash the engine
 * going on knows only the tests left when it took over.
 */
void
run_summary(struct store *st, struct engine *e, int64_t run_id)
{
	const unsigned *k = engine_counts(e);
	const char *const *left;
	struct store_run run;
	struct diaglist dl;
	size_t n, nleft, done = engine_done_count(e), total = engine_total(e);
	unsigned envmarked = engine_env_marked(e);
	unsigned kmarked = engine_kmsg_marked(e);
	int i, first = 1;

	diag_init(&dl);
	memset(&run, 0, sizeof(run));
	if (store_get_run(st, run_id, &run, &dl) == STORE_OK) {
		k = run.counts;
		for (done = 0, i = 0; i < TS__COUNT; i++)
			done += k[i];
		total = run.nqueued > done ? run.nqueued : done;
		envmarked = run.nenvmarked;
		kmarked = run.nkmarked;
	}
	diag_free(&dl);
	printf("run %" PRId64 ": %zu of %zu tests done:", run_id, done,
	    total);
	for (i = 0; i < TS__COUNT; i++) {
		if (k[i] == 0 && i != TS_PASS && i != TS_FAIL &&
		    i != TS_BROKEN)
			continue;
		printf("%s %u %s", first ? "" : ",", k[i],
		    test_status_name(i));
		first = 0;
	}
	/* Passes and skips all the same, but a triager may ask. */
	if (envmarked > 0)
		printf(" (%u of them with an env warning)", envmarked);
	if (kmarked > 0)
		printf(" (%u after which the kernel warned or was tainted)",
		    kmarked);
	printf("\n");
	store_run_clear(&run);
	left = engine_leftovers(e, &nleft);
	for (n = 0; n < nleft; n++)
		printf("left behind: %s\n", left[n]);
	left = engine_cleanups(e, &nleft);
	for (n = 0; n < nleft; n++)
		printf("cleaned up after: %s\n", left[n]);
	run_crash_report(st, run_id);
}

long long
run_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
