/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The safe test runner (see runner.h): one LTP test in its own session
 * and pty, with LTP's environment and a private TMPDIR, driven by
 * non-blocking calls so that a poll(2) loop elsewhere stays in charge.
 * This is the API, on top of the runner's parts (runner_impl.h).
 *
 * The life of a run: started -> leader reaped (stragglers of the
 * session killed at once) -> output drained to EOF, or abandoned after
 * a short drain period when something outside the session still holds
 * the pty -> TMPDIR removed, or handed on to the next test -> done.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/exitwatch.h"
#include "ltpscope/paths.h"
#include "ltpscope/remote.h"
#include "ltpscope/rmtree.h"
#include "ltpscope/spawn.h"
#include "ltpscope/xmalloc.h"
#include "runner_impl.h"

int
runner_needs_shell(const char *cmdline)
{
	return strpbrk(cmdline, "|&;<>()$`\\\"'*?[]#~={}\n") != NULL;
}

/*
 * Moves fd above 0, 1 and 2 (keeping close-on-exec): when ltpscope runs
 * with a standard descriptor closed, a new fd may land there, and the
 * dup2() onto 0..2 in the child would then do nothing, or clobber one.
 */
static int
fd_above_stdio(int *fd)
{
	int nfd;

	if (*fd > STDERR_FILENO)
		return 0;
	if ((nfd = fcntl(*fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1)) == -1)
		return -1;
	close(*fd);
	*fd = nfd;
	return 0;
}

/* The test's clock: its grace, drain and deadline from o, from now. */
static void
runner_set_times(struct runner *r, const struct runner_opts *o)
{
	r->grace_ms = o->grace_ms > 0 ? o->grace_ms : RUNNER_DEFAULT_GRACE_MS;
	r->drain_ms = o->drain_ms > 0 ? o->drain_ms : RUNNER_DEFAULT_DRAIN_MS;
	if (o->timeout_ms < 0)
		r->deadline = -1;
	else
		r->deadline = r->t_start_ns / 1000000 + (o->timeout_ms > 0 ?
		    o->timeout_ms : RUNNER_DEFAULT_TIMEOUT_MS);
	r->kill_at = r->drain_at = -1;
}

struct runner *
runner_startv(const struct runner_opts *o, char *const argv[],
    struct diaglist *dl)
{
	static const struct runner_opts defaults;
	const char *ltproot, *tmpbase, *syspath;
	char *path = NULL, *exe = NULL, *tmpl = NULL, **envp = NULL;
	int out = -1, in = -1, devnull = -1, pfd[2], use_pipe;
	struct spawn_req rq;
	struct stat tst, tseen;
	size_t nshared = 0;
	int settled;
	struct runner *r;
	pid_t pid;

	if (o == NULL)
		o = &defaults;
	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0') {
		diag_error(dl, NULL, 0, "runner: empty command");
		return NULL;
	}
	if (o->remote != NULL) {
		if ((r = runner_remote_start(o, argv, dl)) != NULL)
			runner_set_times(r, o);
		return r;
	}
	use_pipe = o->use_pipe;
	ltproot = paths_ltproot(o->ltproot);
	if ((tmpbase = o->tmpbase) == NULL &&
	    ((tmpbase = getenv("TMPDIR")) == NULL || tmpbase[0] != '/'))
		tmpbase = "/tmp";
	if ((syspath = getenv("PATH")) == NULL || syspath[0] == '\0')
		syspath = "/usr/bin:/bin";
	xasprintf(&path, "%s/testcases/bin:%s", ltproot, syspath);

	if ((exe = runner_resolve_command(argv[0], path)) == NULL) {
		char *why = strchr(argv[0], '/') == NULL ?
		    runner_why_not_runnable(argv[0], path) : NULL;

		if (why != NULL)
			diag_error(dl, NULL, 0, "runner: %s: %s; check the "
			    "LTP install", argv[0], why);
		else
			diag_error(dl, NULL, 0, "runner: %s: command not found "
			    "in %s", argv[0], path);
		free(why);
		goto fail;
	}
	/* Its stat before the test can mount anything on it. */
	if ((tmpl = runner_take_tmpdir(o->spares, tmpbase, &tst, &tseen,
	    &settled)) == NULL) {
		diag_error(dl, NULL, 0, "runner: cannot create a directory "
		    "in %s: %s", tmpbase, strerror(errno));
		goto fail;
	}
	if (tmpl[0] != '/') {
		char *abs = paths_absolute(tmpl);

		free(tmpl);
		tmpl = abs;
	}
	envp = runner_build_env(o, ltproot, tmpl, path, &nshared);

	if (use_pipe) {
		if (pipe(pfd) == -1) {
			diag_error(dl, NULL, 0, "runner: pipe: %s",
			    strerror(errno));
			goto fail;
		}
		in = pfd[0];
		out = pfd[1];
		if (runner_set_cloexec(in) == -1 || runner_set_cloexec(out) == -1 ||
		    runner_set_nonblock(in) == -1) {
			diag_error(dl, NULL, 0, "runner: fcntl: %s",
			    strerror(errno));
			goto fail;
		}
	} else if (runner_take_pty(o->spares, &in, &out) == -1) {
		diag_error(dl, NULL, 0, "runner: openpty: %s",
		    strerror(errno));
		in = out = -1;
		goto fail;
	}
	if ((devnull = runner_take_devnull(o->spares)) == -1 &&
	    (devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1) {
		diag_error(dl, NULL, 0, "runner: /dev/null: %s",
		    strerror(errno));
		goto fail;
	}
	if (fd_above_stdio(&out) == -1 || fd_above_stdio(&devnull) == -1) {
		diag_error(dl, NULL, 0, "runner: fcntl: %s", strerror(errno));
		goto fail;
	}

	rq.path = exe;
	rq.argv = argv;
	rq.envp = envp;
	rq.out_fd = out;
	rq.in_fd = devnull;
	rq.dir = tmpl;
	r = xcalloc(1, sizeof(*r));
	r->tmpdir_st = tst;
	r->tmpdir_seen = tseen;
	r->tmpdir_settled = settled;
	r->t_start_ns = runner_now_ns();
	if ((pid = spawn_session(&rq)) == -1) {
		diag_error(dl, NULL, 0, "runner: cannot run %s: %s", exe,
		    strerror(errno));
		free(r);
		goto fail;
	}

	runner_keep_devnull(o->spares, devnull);
	runner_env_free(envp, nshared);
	free(exe);
	free(path);
	r->pid = pid;
	r->fd = in;
	if ((r->xfd = exitwatch_open(pid)) >= 0 &&
	    fd_above_stdio(&r->xfd) == -1) {
		close(r->xfd);
		r->xfd = -1;	/* then reaping is polled for */
	}
	/* The exit watch tells the leader's end: the slave can be held. */
	r->slave = -1;
	if (!use_pipe && r->xfd >= 0) {
		r->slave = out;
		r->held = 1;
	} else
		close(out);
	runner_prepare_spares(o->spares, !use_pipe);
	r->tmpdir = tmpl;
	r->tmpbase = xstrdup(tmpbase);
	r->spares = o->spares;
	runner_set_times(r, o);
	r->output = o->output;
	r->output_arg = o->output_arg;
	r->buf = xmalloc(RUNNER_BUFSZ);
	return r;

fail:
	if (in != -1)
		close(in);
	if (out != -1)
		close(out);
	if (devnull != -1)
		runner_keep_devnull(o->spares, devnull);
	if (tmpl != NULL) {
		(void)rmtree(tmpl);
		free(tmpl);
	}
	runner_env_free(envp, nshared);
	free(exe);
	free(path);
	return NULL;
}

struct runner *
runner_start(const struct runner_opts *o, const char *cmdline,
    struct diaglist *dl)
{
	struct runner *r;
	char *copy, *p, **argv;
	size_t n = 0;

	if (cmdline == NULL || cmdline[strspn(cmdline, " \t")] == '\0') {
		diag_error(dl, NULL, 0, "runner: empty command");
		return NULL;
	}
	if (runner_needs_shell(cmdline)) {
		char *sh[] = { (char *)"/bin/sh", (char *)"-c",
		    (char *)cmdline, NULL };

		return runner_startv(o, sh, dl);
	}
	copy = xstrdup(cmdline);
	argv = xcalloc(strlen(cmdline) / 2 + 2, sizeof(*argv));
	for (p = copy; *p != '\0';) {
		p += strspn(p, " \t");
		if (*p == '\0')
			break;
		argv[n++] = p;
		p += strcspn(p, " \t");
		if (*p != '\0')
			*p++ = '\0';
	}
	argv[n] = NULL;
	r = runner_startv(o, argv, dl);
	free(argv);
	free(copy);
	return r;
}

int
runner_service(struct runner *r)
{
	long long now;

	if (r->done)
		return 1;
	if (r->rx != NULL)
		return runner_remote_service(r);
	runner_read(r);
	if (!r->reaped) {
		runner_reap(r);
		if (r->reaped) {
			runner_read(r);
			if (r->fd >= 0)
				r->drain_at = runner_now_ms() + r->drain_ms;
		} else if (r->fd < 0)
			r->eof_polls++;
	}
	now = runner_now_ms();
	if (!r->reaped) {
		if (!r->term_sent && r->deadline >= 0 && now >= r->deadline) {
			r->res.timed_out = 1;
			r->term_sent = 1;
			r->kill_at = now + r->grace_ms;
			runner_signal(r, SIGTERM);
		}
		if (r->term_sent && now >= r->kill_at) {
			/* Again and again: a fork may have slipped through. */
			r->res.killed = 1;
			r->kill_sent = 1;
			runner_signal(r, SIGKILL);
		}
		return 0;
	}
	if (r->fd >= 0 && now >= r->drain_at) {
		/* Held open by something that left the session: let go. */
		r->res.output_cut = 1;
	} else if (r->fd >= 0)
		return 0;
	runner_finish(r);
	return 1;
}

int
runner_poll_timeout(const struct runner *r)
{
	long long now, t = -1, d;

	if (r->done)
		return 0;
	now = runner_now_ms();
	if (r->rx != NULL) {
		if ((t = runner_remote_next(r)) < 0)
			return -1;
		t -= now;
		return t < 0 ? 0 : (int)(t > INT_MAX ? INT_MAX : t);
	}
	if (r->fd >= 0 && r->eio_until != 0 && (r->reaped || r->xfd < 0))
		return RUNNER_EIO_POLL_MS;
	if (r->reaped) {
		d = r->drain_at - now;
		return d < 0 ? 0 : (int)d;
	}
	if (!r->term_sent && r->deadline >= 0)
		t = r->deadline - now;
	else if (r->term_sent && !r->kill_sent)
		t = r->kill_at - now;
	else if (r->kill_sent)
		t = 20;
	if (t < 0 && (r->term_sent || r->deadline >= 0))
		t = 0;			/* overdue */
	if (r->xfd >= 0)
		d = -1;			/* the exit watch wakes the caller */
	else if (r->fd < 0) {
		/*
		 * Output ended, the leader is on its way out: look again
		 * at once a few times, then back off.
		 */
		d = r->eof_polls < 8 ? 0 : 1LL << (r->eof_polls < 14 ?
		    r->eof_polls - 8 : 6);
	} else
		d = RUNNER_REAP_POLL_MS;
	if (t < 0 || (d >= 0 && d < t))
		t = d;
	return t < 0 ? -1 : (int)(t > INT_MAX ? INT_MAX : t);
}

int
runner_pollfds(const struct runner *r, struct pollfd *pfd, int max)
{
	int n = 0;

	if (r->done)
		return 0;
	if (r->rx != NULL) {
		if (remote_exec_fd(r->rx) < 0 || max < 1)
			return 0;
		pfd[0].fd = remote_exec_fd(r->rx);
		pfd[0].events = POLLIN;
		pfd[0].revents = 0;
		return 1;
	}
	/* After an EIO the fd polls readable for good: time, not poll. */
	if (r->fd >= 0 && r->eio_until == 0 && n < max) {
		pfd[n].fd = r->fd;
		pfd[n].events = POLLIN;
		pfd[n++].revents = 0;
	}
	if (!r->reaped && r->xfd >= 0 && n < max) {
		pfd[n].fd = r->xfd;
		pfd[n].events = POLLIN;
		pfd[n++].revents = 0;
	}
	return n;
}

void
runner_give_up(struct runner *r)
{
	if (r->rx != NULL && !r->done)
		r->giveup_at = runner_now_ms();
}

int
runner_done(const struct runner *r)
{
	return r->done;
}

void
runner_stop(struct runner *r)
{
	if (r->done || r->reaped)
		return;
	if (r->rx != NULL) {
		/* The box signals; the first time, SIGKILL after the grace. */
		if (r->res.stopped) {
			r->kill_sent = 1;
			remote_exec_tell(r->rx, 'K');
			if (r->giveup_at < 0)
				r->giveup_at = runner_now_ms() +
				    RUNNER_REMOTE_SLACK_MS;
		} else if (!r->term_sent) {
			r->term_sent = 1;
			r->kill_at = runner_now_ms() + r->grace_ms;
			remote_exec_tell(r->rx, 'S');
		}
		r->res.stopped = 1;
		return;
	}
	if (r->res.stopped) {
		/* Asked twice: the user does not want to wait the grace. */
		r->res.killed = 1;
		r->kill_sent = 1;
		runner_signal(r, SIGKILL);
		return;
	}
	r->res.stopped = 1;
	if (!r->term_sent) {
		r->term_sent = 1;
		r->kill_at = runner_now_ms() + r->grace_ms;
		runner_signal(r, SIGTERM);
	}
}

const struct runner_result *
runner_result(const struct runner *r)
{
	return &r->res;
}

const char *
runner_box_kmsg(const struct runner *r, size_t *lenp, int *recordsp,
    long long *beforep, long long *afterp)
{
	const struct remote_status *st;

	*lenp = 0;
	*recordsp = 0;
	*beforep = *afterp = -1;
	if (r->rx == NULL)
		return NULL;
	st = remote_exec_status(r->rx);
	*recordsp = st->kmsg_records;
	if (st->have_taint) {
		*beforep = st->taint_before;
		*afterp = st->taint_after;
	}
	return remote_exec_kmsg(r->rx, lenp);
}

pid_t
runner_pid(const struct runner *r)
{
	return r->pid;
}

const char *
runner_tmpdir(const struct runner *r)
{
	return r->tmpdir;
}

void
runner_free(struct runner *r)
{
	if (r == NULL)
		return;
	if (r->rx != NULL && !r->done) {
		/* Its agent goes; the box then kills the test (remote.h). */
		r->res.killed = 1;
		runner_finish(r);
	}
	if (!r->reaped && r->rx == NULL) {
		runner_signal(r, SIGKILL);
		r->res.killed = 1;
		runner_reap(r);
		while (!r->reaped) {
			/* SIGKILL cannot be ignored: this is short. */
			(void)poll(NULL, 0, 5);
			runner_reap(r);
		}
	}
	if (!r->done)
		runner_finish(r);
	if (r->xfd >= 0)
		close(r->xfd);
	remote_exec_free(r->rx);
	free(r->tmpdir);
	free(r->tmpbase);
	free(r->buf);
	free(r);
}

int
runner_run(const struct runner_opts *o, const char *cmdline,
    struct runner_result *res, struct diaglist *dl)
{
	struct pollfd pfd[RUNNER_NPOLL];
	struct runner *r;
	int n;

	if ((r = runner_start(o, cmdline, dl)) == NULL)
		return -1;
	while (!runner_service(r)) {
		if (r->rx == NULL && r->fd < 0 && !r->reaped && r->xfd < 0) {
			/*
			 * Output ended and the leader is on its way out,
			 * which takes tens of microseconds: finer steps
			 * than poll(2)'s milliseconds, backing off to 40 ms
			 * for a test that closed its output and goes on.
			 */
			struct timespec ts;
			unsigned int k = r->eof_polls < 11 ? r->eof_polls : 11;

			ts.tv_sec = 0;
			ts.tv_nsec = 20000L << k;
			(void)nanosleep(&ts, NULL);
			continue;
		}
		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
		(void)poll(pfd, (nfds_t)n, runner_poll_timeout(r));
	}
	*res = r->res;
	runner_free(r);
	return 0;
}
