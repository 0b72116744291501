/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope run on a box (--host): the files a run selects from, read
 * from the box, and what a run does when the box stops answering: the
 * kernel's words, the culprit, waiting for the box or rebooting it,
 * and going on.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/boxfiles.h"
#include "ltpscope/cli.h"
#include "ltpscope/crashlog.h"
#include "ltpscope/engine.h"
#include "ltpscope/paths.h"
#include "ltpscope/remote.h"
#include "ltpscope/skiplist.h"
#include "ltpscope/slurp.h"
#include "ltpscope/store.h"
#include "ltpscope/suite.h"
#include "ltpscope/xmalloc.h"

#include "cmd_run_impl.h"

/* A crash given the kernel's words: said as it goes. */
static void
run_told(void *arg, const char *tag, const char *first)
{
	fprintf(stderr, "ltpscope: %s crashed %s: %s\n", tag,
	    (const char *)arg, first);
}

/*
 * The box is back: what the kernel said goes with each crash of the
 * run that has no such words yet (crashlog_collect()).
 */
void
run_kernel_words(struct store *st, int64_t run_id, struct remote *box,
    struct run_box *b)
{
	struct diaglist dl;

	diag_init(&dl);
	(void)crashlog_collect(st, run_id, box, b->console, &b->console_off,
	    run_told, (void *)(uintptr_t)b->host, &dl);
	cli_diags(&dl);
	diag_free(&dl);
}

/* Sleeps ms, in steps, unless interrupted; 0, or -1 on ^C. */
static int
run_nap(long long ms)
{
	while (ms > 0 && !run_was_interrupted()) {
		(void)poll(NULL, 0, ms > 200 ? 200 : (int)ms);
		ms -= 200;
	}
	return run_was_interrupted() ? -1 : 0;
}

/*
 * Waits for the box to answer ssh again, trying at growing intervals
 * until wait_s (-1: no limit) or ^C.  The new connection, or NULL.
 */
static struct remote *
run_wait_box(const char *host, const struct remote_opts *ro, long wait_s)
{
	struct remote *rm;
	struct diaglist dl;
	long long start = (long long)time(NULL), next = 1;
	int tries = 0;
	char why[400];

	for (;;) {
		diag_init(&dl);
		rm = remote_open(host, ro, &dl);
		tries++;
		if (rm != NULL) {
			diag_free(&dl);
			fprintf(stderr, "ltpscope: %s is back after %lld s\n",
			    host, (long long)time(NULL) - start);
			return rm;
		}
		if (wait_s >= 0 && (long long)time(NULL) - start + next >
		    wait_s) {
			why[0] = '\0';
			if (dl.n > 0)
				(void)diag_format(&dl.v[0], why, sizeof(why));
			fprintf(stderr, "ltpscope: %s did not come back in "
			    "%ld s (%s)\n", host, wait_s, why);
			diag_free(&dl);
			return NULL;
		}
		fprintf(stderr, "ltpscope: waiting for %s: try %d failed; "
		    "next in %lld s\n", host, tries, next);
		diag_free(&dl);
		if (run_nap(next * 1000) != 0)
			return NULL;
		next = next * 2 > 60 ? 60 : next * 2;
	}
}

/* The culprit goes on the skip list for the box's system. */
static void
run_skip_culprit(struct run_box *b, const struct remote *box,
    const char *tag, int64_t run_id)
{
	const struct remote_box *rb = box != NULL ? remote_box(box) : NULL;
	char where[600];

	if (!b->skip_culprit || b->userskip == NULL ||
	    b->userskip[0] == '\0' || tag[0] == '\0')
		return;
	snprintf(where, sizeof(where), "%s (%s %s %s)", b->host,
	    rb != NULL ? rb->sysname : "?", rb != NULL ? rb->release : "?",
	    rb != NULL ? rb->machine : "?");
	if (run_add_culprit(b->userskip, tag, run_id, rb != NULL ?
	    rb->sysname : NULL, where) == 0)
		skiplist_add(b->skip, tag, "crashed the box in an earlier "
		    "run");
}

/*
 * The box stopped answering, or its kernel was tainted and
 * --reset-on-taint asks for a fresh one: run --reboot-cmd, wait for
 * the box, save what its kernel said with the crash, and go on with
 * the rest of the run, as often as it takes.  Without a box to go on
 * with, the run is left for --resume.  The run's exit status.
 */
int
run_box_lost(struct store *st, struct engine **ep,
    struct remote **boxp, struct engine_opts *eo,
    const struct engine_events *ev, struct run_ctx *ctx, struct run_box *b,
    struct diaglist *dl)
{
	struct remote_opts ro;
	const char *taint = NULL;
	char tag[256];
	int64_t run_id = engine_run_id(*ep);
	int rc;

	memset(&ro, 0, sizeof(ro));
	ro.config = b->ssh_config;
	ro.ltproot = eo->runner.ltproot;
	ro.kconfig = b->kconfig;
	while (*ep != NULL && (engine_box_lost(*ep) ||
	    (taint = engine_reset_due(*ep)) != NULL)) {
		/* Kept: the engine that knows it goes. */
		if (!engine_box_lost(*ep)) {
			fprintf(stderr, "ltpscope: the kernel of %s was "
			    "tainted after %s: resetting the box\n", b->host,
			    taint);
			tag[0] = '\0';
		} else {
			snprintf(tag, sizeof(tag), "%s", engine_lost_test(*ep) !=
			    NULL ? engine_lost_test(*ep) : "");
			fprintf(stderr, "ltpscope: %s stopped answering %s%s\n",
			    b->host, tag[0] != '\0' ? "while running " :
			    "between tests", tag);
			run_skip_culprit(b, *boxp, tag, run_id);
		}
		if (b->wait_s == 0 || run_was_interrupted())
			break;
		if (b->reboot_cmd != NULL) {
			fprintf(stderr, "ltpscope: running %s\n",
			    b->reboot_cmd);
			fflush(stderr);
			if ((rc = system(b->reboot_cmd)) != 0)
				fprintf(stderr, "ltpscope: --reboot-cmd "
				    "failed (status %d)\n", rc);
		}
		remote_close(*boxp);
		eo->runner.remote = NULL;
		if ((*boxp = run_wait_box(b->host, &ro, b->wait_s)) == NULL)
			break;
		eo->runner.remote = *boxp;
		run_kernel_words(st, run_id, *boxp, b);
		/* Ours to take over: the lock goes, the crash is kept. */
		if (store_run_end(st, run_id, RUN_INTERRUPTED, dl) != STORE_OK)
			return 1;
		engine_free(*ep);
		if ((*ep = engine_resume(st, eo, run_id, ev, dl)) == NULL)
			return 1;
		ctx->e = *ep;
		printf("resuming run %" PRId64 " on %s: %zu test%s left%s%s\n",
		    run_id, b->host, engine_total(*ep), engine_total(*ep) ==
		    1 ? "" : "s", tag[0] != '\0' ? "; crash: " : "", tag);
		fflush(stdout);
		if (run_loop(*ep, ctx, dl) != 0)
			return 1;
	}
	if (*ep != NULL && (engine_box_lost(*ep) ||
	    engine_reset_due(*ep) != NULL)) {
		fprintf(stderr, "ltpscope: run %" PRId64 " is left for later: "
		    "when %s is back, ltpscope run --resume\n", run_id,
		    b->host);
		run_crash_report(st, run_id);
		return 1;
	}
	run_summary(st, *ep, run_id);
	return 1;
}

struct remote *
run_open_box(const char *host, const char *ssh_config, const char *ltproot,
    const char *kconfig, struct diaglist *dl)
{
	struct remote_opts ro;

	memset(&ro, 0, sizeof(ro));
	ro.config = ssh_config;
	ro.ltproot = ltproot;
	ro.kconfig = kconfig;
	return remote_open(host, &ro, dl);
}

/*
 * A new run on a box: connects (sending the kernel config) and reads
 * from the box what so does not name here, in the box's cache
 * (boxfiles_suite()).  0, or -1 with dl.
 */
int
run_box_files(struct remote **boxp, struct boxfiles *bf,
    struct suite_opts *so, const char ***rtallp, const char *const **localrt,
    size_t *nlocalrt, const char *dbpath, const char *host,
    const char *ssh_config, const char *kconfig, const char *box_master,
    char **cachedirp, struct diaglist *dl)
{
	*rtallp = NULL;
	*localrt = so->runtests;
	*nlocalrt = so->nruntests;
	if ((*boxp = run_open_box(host, ssh_config, paths_ltproot(so->ltpdir),
	    kconfig, dl)) == NULL)
		return -1;
	if ((*cachedirp = boxfiles_cachedir(dbpath, host, dl)) == NULL)
		return -1;
	return boxfiles_suite(bf, *boxp, so, box_master, *cachedirp, rtallp,
	    localrt, nlocalrt, dl);
}
