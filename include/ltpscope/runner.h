/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The safe test runner: runs one LTP test command in its own session,
 * in a pseudo-terminal (LTP line-buffers on a tty) or on a pipe, with
 * the environment LTP expects, a private TMPDIR (mode 1777, as /tmp),
 * empty when the test starts, removed afterwards (or, left empty,
 * handed on to the next test: runner_spares), what the test mounted in
 * it unmounted first (the removal never enters another file system:
 * see rmtree.h), and a timeout that kills the whole session,
 * grandchildren that left the process group included.
 *
 * The interface is non-blocking so that the TUI can drive a test from
 * its own poll(2) loop:
 *
 *	r = runner_start(&opts, "fcntl07", &dl);
 *	while (!runner_done(r)) {
 *		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
 *		poll(pfd, n, runner_poll_timeout(r));
 *		runner_service(r);	// delivers output, reaps, kills
 *	}
 *	res = runner_result(r); ... runner_free(r);
 *
 * runner_service() may also be called at any other time (on SIGCHLD,
 * say); it never blocks.  runner_run() is that loop for callers that
 * can afford to wait.
 *
 * The runner never installs signal handlers, and the caller must not
 * reap the runner's children for it (no waitpid(-1) in a SIGCHLD
 * handler: the exit status would be lost).  File descriptors the
 * caller opened without O_CLOEXEC are inherited by the test.
 *
 * Stragglers: when the leader has exited, the rest of its session is
 * looked for and killed at once, with the descendants that left it (a
 * daemon that closed its descriptors included).  A timeout or a stop
 * signals the whole session.  The pty is not the test's controlling
 * terminal (see spawn.c), so nothing in the session gets SIGHUP from
 * the kernel when the leader ends.
 */
#ifndef LTPSCOPE_RUNNER_H
#define LTPSCOPE_RUNNER_H

#include <sys/types.h>

#include <poll.h>
#include <stddef.h>

#include "ltpscope/diag.h"

struct remote;

#define RUNNER_DEFAULT_TIMEOUT_MS	300000	/* LTP's own is 30 s..hours */
#define RUNNER_DEFAULT_GRACE_MS		5000	/* SIGTERM .. SIGKILL */
#define RUNNER_DEFAULT_DRAIN_MS		250	/* output after the leader died */
#define RUNNER_TMPDIR_MODE		01777	/* a test's TMPDIR, as /tmp */

/* Receives raw output bytes, as read; buf is only valid during the call. */
typedef void	runner_output_fn(void *arg, const char *buf, size_t len);

/*
 * How to run a test.  Zero means "default" for every member, so
 * "struct runner_opts o = { 0 };" is a valid start.  Strings are
 * borrowed: they must live until runner_start() returns.
 */
struct runner_opts {
	const char	*ltproot;	/* LTPROOT; NULL: $LTPROOT or /opt/ltp */
	const char	*tmpbase;	/* TMPDIRs go below; NULL: $TMPDIR, /tmp */
	const char	*kconfig;	/* KCONFIG_PATH; NULL: the data
					   directory's (paths_kconfig());
					   "" passes no KCONFIG_PATH */
	const char	*timeout_mul;	/* LTP_TIMEOUT_MUL, or NULL */
	const char	*ltp_dev;	/* LTP_DEV, or NULL */
	int		 reproducible;	/* LTP_REPRODUCIBLE_OUTPUT=1 */
	char *const	*env_extra;	/* more "NAME=value", NULL-terminated */
	int		 use_pipe;	/* stdout+stderr on a pipe, not a pty */
	int		 timeout_ms;	/* 0: default; < 0: none */
	int		 grace_ms;	/* 0: default */
	int		 drain_ms;	/* 0: default */
	runner_output_fn *output;	/* NULL: output is counted, dropped */
	void		*output_arg;
	struct runner_spares *spares;	/* NULL: each test starts from
					   nothing (see runner_spares_new) */
	const struct remote *remote;	/* non-NULL: the test runs on that
					   box through ssh (remote.h), with
					   the box's LTPROOT and TMPDIR
					   base (remote_opts); kconfig is
					   not sent */
};

/* What became of a run; valid once runner_done() says so. */
struct runner_result {
	int		 exited;	/* exited normally: exit_code is valid */
	int		 exit_code;
	int		 signo;		/* signal that ended it; 0 if none */
	int		 core_dumped;
	int		 timed_out;	/* we killed it: the timeout expired */
	int		 stopped;	/* we killed it: runner_stop() */
	int		 killed;	/* SIGKILL was needed (after grace) */
	int		 stragglers;	/* session members killed after the
					   leader exited */
	int		 output_cut;	/* output still held open by an escaped
					   process was abandoned */
	int		 tmpdir_left;	/* TMPDIR could not be removed */
	char		 cleaned[256];	/* what the runner cleaned up after
					   the test: "unmounted tmpfs at
					   /tmp/x/mnt"; "" when nothing */
	char		 tmpdir_why[256]; /* then what stays: "tmpfs
					   mounted at /tmp/ltpscope.x/mnt" */
	int		 lost;		/* remote: the box stopped answering
					   before it said how the test
					   ended (exited etc. are unset) */
	double		 duration;	/* seconds, start to reap */
	unsigned long long bytes;	/* output bytes delivered */
};

struct runner;
struct runner_spares;

/*
 * Starts a test.  cmdline is a runtest-style command line: split at
 * blanks and run directly, or given to /bin/sh -c when it has shell
 * metacharacters.  A command name without '/' is looked up in the
 * test's PATH ($LTPROOT/testcases/bin first).  Returns NULL after
 * adding an error to dl if nothing could be started.  The caller frees
 * the handle with runner_free().
 */
struct runner	*runner_start(const struct runner_opts *, const char *cmdline,
		    struct diaglist *);
/* The same with an argv (NULL-terminated, argv[0] the command). */
struct runner	*runner_startv(const struct runner_opts *, char *const argv[],
		    struct diaglist *);

/*
 * The descriptors to poll for POLLIN now, at most RUNNER_NPOLL: the
 * output while it lasts and, until the test is reaped, one that becomes
 * readable when it exits (pidfd or kqueue, exitwatch.h) where the
 * system has it.  Fills pfd (up to max) and returns how many; 0 when
 * there is nothing to wait for but runner_poll_timeout().
 */
#define RUNNER_NPOLL	2
int		 runner_pollfds(const struct runner *, struct pollfd *,
		    int max);
/*
 * Milliseconds until runner_service() must run again even if the fd
 * stays quiet (timeout, grace, reaping); -1: only when the fd is ready.
 * Without an exit watch, small while the leader's end is pending, since
 * the runner installs no SIGCHLD handler; a caller with one may call
 * runner_service() sooner.
 */
int		 runner_poll_timeout(const struct runner *);
/*
 * Reads what output there is (in big chunks, to the callback), reaps
 * the child, applies the timeout.  Never blocks.  Returns 1 when the
 * run is finished (fds closed, TMPDIR removed or, left as the test got
 * it, handed on to the next test through the spares), else 0.
 */
int		 runner_service(struct runner *);
int		 runner_done(const struct runner *);
/*
 * The user's interrupt: SIGTERM to the session, SIGKILL after grace;
 * called again before the test is gone, SIGKILL at once.
 */
void		 runner_stop(struct runner *);
/*
 * A remote test whose box is known dead (its console told of a panic):
 * taken for lost at the next runner_service(), with what it sent, as
 * if the box had stopped answering, without waiting for ssh to notice.
 * No effect on a local test.
 */
void		 runner_give_up(struct runner *);
/* Owned by the handle. */
const struct runner_result *runner_result(const struct runner *);
/*
 * On a box: the lines its kernel logged during the test (NULL: none),
 * /dev/kmsg records when *records is set, else lines as its dmesg shows
 * them, and its taint flags before and after when they changed (else
 * both -1).  Owned by the handle.
 */
const char	*runner_box_kmsg(const struct runner *, size_t *len,
		    int *records, long long *before, long long *after);
/* The session id; 0 for a test on a box (it has no local process). */
pid_t		 runner_pid(const struct runner *);
const char	*runner_tmpdir(const struct runner *);	/* owned */
/* Kills and reaps a run still going, removes its TMPDIR, frees. */
void		 runner_free(struct runner *);

/* Starts, services until done, fills *res.  -1 if it could not start. */
int		 runner_run(const struct runner_opts *, const char *cmdline,
		    struct runner_result *, struct diaglist *);

/*
 * To start the next test sooner, when runner_opts.spares holds a set
 * of spares: runner_start() makes the next test's pty while this one
 * runs (a pty is never used twice), and a test that ended clean (no
 * timeout, stop, kill, straggler or output held open) and left its
 * TMPDIR as it got it -- empty, the same directory, ours, mode 1777,
 * no extended attributes -- hands the directory on to the next test,
 * which checks it again before use; any other TMPDIR is removed when
 * its test ends.  The spares must outlive every run started with
 * them.  The caller owns them: runner_spares_free() removes and closes
 * what is left.
 */
struct runner_spares	*runner_spares_new(void);
void			 runner_spares_free(struct runner_spares *);

/* 1 if the line needs /bin/sh -c (has shell metacharacters). */
int		 runner_needs_shell(const char *cmdline);
/*
 * The KCONFIG_PATH o gives its tests, absolute (they run in their
 * TMPDIR): malloc'd, or NULL for none.
 */
char		*runner_kconfig_path(const struct runner_opts *);

#endif
