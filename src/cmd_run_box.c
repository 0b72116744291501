/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope run on a box (--host): the files a run selects from, read
 * from the box, and what a run does when the box stops answering: the
 * kernel's words, the culprit, waiting for the box or rebooting it,
 * and going on.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
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
#include "ltpscope/textsafe.h"
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
 * Waits for the box to answer ssh again, trying at growing intervals,
 * until wait_s after start (ms, run_now_ms(); wait_s -1: no limit),
 * with a last try at that limit, or ^C.  A try never outlasts the
 * limit by more than a second.  The new connection, or NULL.
 */
static struct remote *
run_wait_box(const char *host, const struct remote_opts *ro0, long wait_s,
    long long start)
{
	struct remote_opts ro = *ro0;
	struct remote *rm;
	struct diaglist dl;
	long long deadline = start + (long long)wait_s * 1000, now, nap;
	long long next = 1000;
	int tries = 0, last;
	char why[400];

	for (;;) {
		/*
		 * A try begun while the box boots may hang until its
		 * timeout (QEMU's user network drops the first SYN to a
		 * guest not up yet and backs off): short tries while the
		 * naps are short, longer as they grow, for a slow box.
		 */
		nap = next / 1000 < RUN_TRY_S ? RUN_TRY_S : next / 1000;
		if (wait_s >= 0 && nap > (deadline - run_now_ms() + 999) /
		    1000)
			nap = (deadline - run_now_ms() + 999) / 1000;
		ro.connect_timeout_s = nap < 1 ? 1 : nap > 15 ? 15 : (int)nap;
		diag_init(&dl);
		rm = remote_open(host, &ro, &dl);
		tries++;
		now = run_now_ms();
		if (rm != NULL) {
			diag_free(&dl);
			fprintf(stderr, "ltpscope: %s is back after %lld s\n",
			    host, (now - start + 500) / 1000);
			return rm;
		}
		if (wait_s >= 0 && now >= deadline) {
			why[0] = '\0';
			if (dl.n > 0)
				(void)diag_format(&dl.v[0], why, sizeof(why));
			fprintf(stderr, "ltpscope: %s did not come back in "
			    "%ld s (%d tr%s; the last: %s)\n", host, wait_s,
			    tries, tries == 1 ? "y" : "ies", why);
			diag_free(&dl);
			return NULL;
		}
		nap = next;
		last = wait_s >= 0 && now + nap >= deadline;
		if (last)
			nap = deadline - now;
		fprintf(stderr, "ltpscope: waiting for %s: try %d failed; "
		    "%s in %lld s\n", host, tries, last ? "last try" : "next",
		    (nap + 999) / 1000);
		diag_free(&dl);
		if (run_nap(nap) != 0)
			return NULL;
		next = next * 2 > 60000 ? 60000 : next * 2;
	}
}

/*
 * Runs --reboot-cmd, its output (stdout and stderr) read, not shown:
 * a monitor's escape sequences must not reach the terminal.  The
 * output (malloc'd, *lenp bytes, at most RUN_REBOOT_KEEP) and in
 * *status the command's wait status, or -1 when it could not start.
 */
static char *
run_reboot_output(const char *cmd, int *status, size_t *lenp)
{
	struct pollfd pfd;
	char *out = xmalloc(RUN_REBOOT_KEEP + 1), buf[4096];
	size_t len = 0;
	ssize_t n;
	pid_t pid;
	int p[2], fd, reaped = 0;

	*status = -1;
	*lenp = 0;
	out[0] = '\0';
	fflush(stdout);
	fflush(stderr);
	if (pipe(p) == -1)
		return out;
	if ((pid = fork()) == -1) {
		close(p[0]);
		close(p[1]);
		return out;
	}
	if (pid == 0) {
		if ((fd = open("/dev/null", O_RDONLY)) != -1)
			(void)dup2(fd, STDIN_FILENO);
		(void)dup2(p[1], STDOUT_FILENO);
		(void)dup2(p[1], STDERR_FILENO);
		close(p[0]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	/*
	 * Until the shell ends: what it left in the background may hold
	 * the pipe for good (a box started again, say).
	 */
	pfd.fd = p[0];
	pfd.events = POLLIN;
	while (pfd.fd >= 0) {
		if (!reaped && waitpid(pid, status, WNOHANG) == pid)
			reaped = 1;
		if (poll(&pfd, 1, reaped ? 0 : 100) <= 0) {
			if (reaped)
				break;
			continue;
		}
		if ((n = read(p[0], buf, sizeof(buf))) <= 0) {
			if (n == -1 && errno == EINTR)
				continue;
			break;
		}
		if (len < RUN_REBOOT_KEEP) {
			if ((size_t)n > RUN_REBOOT_KEEP - len)
				n = (ssize_t)(RUN_REBOOT_KEEP - len);
			memcpy(out + len, buf, (size_t)n);
			len += (size_t)n;
		}
	}
	close(p[0]);
	if (!reaped)
		while (waitpid(pid, status, 0) == -1 && errno == EINTR)
			;
	out[len] = '\0';
	*lenp = len;
	return out;
}

/*
 * Its output as lines fit for the terminal and the stored output: ESC
 * sequences gone, carriage returns (a monitor's redraws) as line ends,
 * each line indented so that none reads as one of ours.
 */
static char *
run_reboot_lines(const char *out, size_t len, size_t *nlines)
{
	char *res = xstrdup(""), *t, *safe;
	const char *p = out, *e = out + len, *q;
	size_t slen;

	*nlines = 0;
	while (p < e) {
		for (q = p; q < e && *q != '\n' && *q != '\r'; q++)
			;
		safe = textsafe_display(p, (size_t)(q - p),
		    TEXTSAFE_STRIP_ANSI, &slen);
		if (slen > 0 && strspn(safe, " ") != slen) {
			xasprintf(&t, "%s  %s\n", res, safe);
			free(res);
			res = t;
			(*nlines)++;
		}
		free(safe);
		p = q < e ? q + 1 : e;
	}
	return res;
}

/*
 * --reboot-cmd, its output kept with the crash (result id; 0: between
 * tests, said here instead), never raw on the terminal.
 */
static void
run_reboot(struct store *st, const struct run_box *b, int64_t id,
    const char *tag)
{
	struct diaglist dl;
	char *out, *lines, *block, how[64];
	size_t len, n;
	int status;

	fprintf(stderr, "ltpscope: running --reboot-cmd\n");
	out = run_reboot_output(b->reboot_cmd, &status, &len);
	lines = run_reboot_lines(out, len, &n);
	if (status == -1)
		snprintf(how, sizeof(how), "could not be started");
	else if (WIFEXITED(status))
		snprintf(how, sizeof(how), "exit status %d",
		    WEXITSTATUS(status));
	else
		snprintf(how, sizeof(how), "killed by signal %d",
		    WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	xasprintf(&block, "ltpscope: --reboot-cmd (%s) said%s\n%s", how,
	    n > 0 ? ":" : " nothing", lines);
	diag_init(&dl);
	if (id > 0 && store_output_append(st, id, block, strlen(block),
	    &dl) == STORE_OK)
		fprintf(stderr, "ltpscope: --reboot-cmd: %s; its output "
		    "(%zu line%s) is kept with the crash of %s\n", how, n,
		    n == 1 ? "" : "s", tag);
	else
		fprintf(stderr, "%s", block);
	cli_diags(&dl);
	diag_free(&dl);
	free(block);
	free(lines);
	free(out);
}

/* A box that answers after a crash: has it booted since? */
static void
run_say_boot(const struct run_box *b, const struct remote *rm,
    const char *boot_before)
{
	const char *now = remote_box(rm)->boot_id;

	if (boot_before[0] == '\0' || now[0] == '\0')
		fprintf(stderr, "ltpscope: %s answers again: not reset\n",
		    b->host);
	else if (strcmp(now, boot_before) == 0)
		fprintf(stderr, "ltpscope: %s answers and has not booted "
		    "since (the same boot id): not reset\n", b->host);
	else
		fprintf(stderr, "ltpscope: %s is back: it has booted since "
		    "the crash (a new boot id): not reset\n", b->host);
}

/*
 * Right after a crash: one quick try, for a box that rebooted by
 * itself (panic=N) before the crash was noticed, or never went down.
 * Such a box is not reset.  The connection, or NULL.
 */
static struct remote *
run_try_box(const struct run_box *b, const struct remote_opts *ro0,
    const char *boot_before)
{
	struct remote_opts ro = *ro0;
	struct remote *rm;
	struct diaglist dl;

	ro.connect_timeout_s = RUN_QUICK_TRY_S;
	diag_init(&dl);
	rm = remote_open(b->host, &ro, &dl);
	diag_free(&dl);
	if (rm == NULL)
		return NULL;
	run_say_boot(b, rm, boot_before);
	return rm;
}

/*
 * What the console says became of the box after its panic: rebooting
 * by itself, or stopped for good (panic=0, ddb); it may take the
 * kernel a moment to say, while its trace goes out.  A console with
 * no panic line (a box gone silent) is not waited on.
 */
static int
run_console_fate(const struct run_box *b)
{
	long long until = run_now_ms() + RUN_FATE_MS;
	int fate;

	if (b->console == NULL)
		return CRASHLOG_SILENT;
	while ((fate = crashlog_console_fate(b->console, b->console_off)) ==
	    CRASHLOG_UNKNOWN && run_now_ms() < until && run_nap(200) == 0)
		;
	return fate;
}

/*
 * Before --reboot-cmd: a box rebooting by itself (its console says
 * so) is waited for a while; one its console does not say is down
 * for good is tried once.  Either, back, is not reset.  The box, or
 * NULL to reset it.
 */
static struct remote *
run_no_reset(const struct run_box *b, const struct remote_opts *ro,
    const char *boot, long long start)
{
	struct remote *rm = NULL;
	long wait_s = RUN_SELF_REBOOT_S;
	int fate = run_console_fate(b);

	if (fate == CRASHLOG_REBOOTING) {
		if (b->wait_s >= 0 && b->wait_s < wait_s)
			wait_s = b->wait_s;
		fprintf(stderr, "ltpscope: the console of %s says its kernel "
		    "reboots by itself: waiting up to %ld s for it before "
		    "--reboot-cmd\n", b->host, wait_s);
		if ((rm = run_wait_box(b->host, ro, wait_s, start)) != NULL)
			run_say_boot(b, rm, boot);
	} else if (fate != CRASHLOG_STOPPED)
		rm = run_try_box(b, ro, boot);
	return rm;
}

/*
 * A QEMU box's reset: on its monitor, or QEMU started again (on
 * another port, maybe: b->host is the run_state's, updated).
 */
static void
run_qemu_reset(struct run_box *b)
{
	struct diaglist dl;
	const char *what = "";

	diag_init(&dl);
	if (qemubox_reset(b->qs->qemu, &what, &dl) == 0) {
		run_qemu_host(b->qs);
		fprintf(stderr, "ltpscope: reset %s: %s\n", b->host, what);
	}
	cli_diags(&dl);
	diag_free(&dl);
}

/*
 * A QEMU box just started (or taken over): until its ssh answers, up
 * to --box-wait.  0, or -1 said, with what its console said.
 */
int
run_wait_up(struct run_opts *o, struct run_state *s)
{
	struct remote_opts ro;
	struct remote *rm;

	memset(&ro, 0, sizeof(ro));
	ro.config = o->ssh_config;
	ro.ltproot = paths_ltproot(o->ltpdir);
	if ((rm = run_wait_box(o->host, &ro, o->box_wait, run_now_ms())) ==
	    NULL) {
		if (!run_was_interrupted() && s->qemu != NULL)
			cli_box_console(s->qemu);
		return -1;
	}
	remote_close(rm);
	return 0;
}

/*
 * The culprit goes on the skip list for the box's system and arch:
 * the other boxes of a run share the file, and one of another arch
 * still runs the test.
 */
static void
run_skip_culprit(struct run_box *b, const struct remote *box,
    const char *tag, int64_t run_id)
{
	const struct remote_box *rb = box != NULL ? remote_box(box) : NULL;
	char where[700];

	if (!b->skip_culprit || b->userskip == NULL ||
	    b->userskip[0] == '\0' || tag[0] == '\0')
		return;
	snprintf(where, sizeof(where), "%s%s%s%s (%s %s %s)",
	    b->name != NULL ? "box " : "", b->name != NULL ? b->name : "",
	    b->name != NULL ? ", " : "", b->host,
	    rb != NULL ? rb->sysname : "?", rb != NULL ? rb->release : "?",
	    rb != NULL ? rb->machine : "?");
	if (run_add_culprit(b->userskip, tag, run_id, rb != NULL ?
	    rb->sysname : NULL, rb != NULL ? remote_box_arch(rb) : NULL,
	    where) == 0)
		skiplist_add(b->skip, tag, "crashed the box in an earlier "
		    "run");
}

/* How the crash was told: ssh gave the box up, or its console. */
static void
run_say_lost(const struct run_box *b, struct run_ctx *ctx, const char *tag)
{
	if (ctx->watch_fired)
		fprintf(stderr, "ltpscope: the console of %s told of a panic "
		    "%s%s: %s\n", b->host, tag[0] != '\0' ? "while running " :
		    "between tests", tag, ctx->watch_line);
	else
		fprintf(stderr, "ltpscope: %s stopped answering %s%s\n",
		    b->host, tag[0] != '\0' ? "while running " :
		    "between tests", tag);
}

/*
 * The box stopped answering (or its console told of a panic), or its
 * kernel was tainted and --reset-on-taint asks for a fresh one: a box
 * that is back already is not reset; else run --reboot-cmd and wait
 * for the box up to --box-wait from now; save what its kernel said
 * with the crash, and go on with the rest of the run, as often as it
 * takes.  Without a box to go on with, the run is left for --resume.
 * The run's exit status.
 */
int
run_box_lost(struct store *st, struct engine **ep,
    struct remote **boxp, struct engine_opts *eo,
    const struct engine_events *ev, struct run_ctx *ctx, struct run_box *b,
    struct diaglist *dl)
{
	struct remote_opts ro;
	const char *taint = NULL;
	char tag[256], boot[128];
	int64_t run_id = engine_run_id(*ep);
	long long start;

	memset(&ro, 0, sizeof(ro));
	ro.config = b->ssh_config;
	ro.ltproot = eo->runner.ltproot;
	ro.kconfig = b->kconfig;
	while (*ep != NULL && (engine_box_lost(*ep) ||
	    (taint = engine_reset_due(*ep)) != NULL)) {
		start = run_now_ms();
		if (engine_box_lost(*ep))
			taint = NULL;
		/* Kept: the engine that knows it goes. */
		if (taint != NULL) {
			fprintf(stderr, "ltpscope: the kernel of %s was "
			    "tainted after %s: resetting the box\n", b->host,
			    taint);
			tag[0] = '\0';
		} else {
			snprintf(tag, sizeof(tag), "%s", engine_lost_test(*ep) !=
			    NULL ? engine_lost_test(*ep) : "");
			run_say_lost(b, ctx, tag);
			run_skip_culprit(b, *boxp, tag, run_id);
		}
		if (b->wait_s == 0 || run_was_interrupted())
			break;
		snprintf(boot, sizeof(boot), "%s", *boxp != NULL ?
		    remote_box(*boxp)->boot_id : "");
		/* Its console told: ssh would take its time to. */
		if (ctx->watch_fired)
			remote_give_up(*boxp);
		remote_close(*boxp);
		eo->runner.remote = *boxp = NULL;
		/* A tainted kernel answers, but is reset all the same. */
		if ((b->reboot_cmd != NULL || b->qs != NULL) && taint == NULL)
			*boxp = run_no_reset(b, &ro, boot, start);
		if (*boxp == NULL && b->qs != NULL && !run_was_interrupted())
			run_qemu_reset(b);
		else if (*boxp == NULL && b->reboot_cmd != NULL &&
		    !run_was_interrupted())
			run_reboot(st, b, engine_lost_result(*ep), tag);
		if (*boxp == NULL && (*boxp = run_wait_box(b->host, &ro,
		    b->wait_s, start)) == NULL)
			break;
		eo->runner.remote = *boxp;
		run_kernel_words(st, run_id, *boxp, b);
		/* The crash's lines are read: watch what comes after. */
		if (ctx->watch != NULL)
			crashlog_watch_seek(ctx->watch,
			    crashlog_console_end(b->console));
		ctx->watch_fired = 0;
		ctx->watch_ms = 0;
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
    const char *cachekey, char **cachedirp, struct diaglist *dl)
{
	*rtallp = NULL;
	*localrt = so->runtests;
	*nlocalrt = so->nruntests;
	if ((*boxp = run_open_box(host, ssh_config, paths_ltproot(so->ltpdir),
	    kconfig, dl)) == NULL)
		return -1;
	if ((*cachedirp = boxfiles_cachedir(dbpath, cachekey, dl)) == NULL)
		return -1;
	return boxfiles_suite(bf, *boxp, so, box_master, *cachedirp, rtallp,
	    localrt, nlocalrt, dl);
}
