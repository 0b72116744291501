/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A local test's process: its output read, its session signalled, its
 * leader reaped and what it left of the session killed.  Below the API
 * (runner.c), above the spares (runner_spares.c), where an output that
 * has ended goes back.
 *
 * The end of a test's output on a pty: the runner keeps the slave open
 * itself while the test runs, so the master never answers EIO early,
 * watches for the leader's end on the exit watch (exitwatch.h), reads
 * the master dry once it is reaped, and only then lets the slave go.
 * A master that answers EIO the moment the test's last descriptor
 * closes cannot be trusted on Linux: the tail of the output was lost
 * that way about once in ten thousand tests (make stress).  Where
 * there is no exit watch, EIO is the end, but only once it has lasted
 * RUNNER_EIO_GRACE_MS.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/procs.h"
#include "runner_impl.h"

/* Reads what is there; EOF and EIO (Linux pty, no slave left) end it. */
void
runner_read(struct runner *r)
{
	size_t total = 0;
	ssize_t n;

	while (r->fd >= 0 && total < RUNNER_READ_CAP) {
		n = read(r->fd, r->buf, RUNNER_BUFSZ);
		if (n > 0) {
			total += (size_t)n;
			r->res.bytes += (unsigned long long)n;
			if (r->output != NULL)
				r->output(r->output_arg, r->buf, (size_t)n);
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n == -1 && errno == EIO && !r->held) {
			long long now = runner_now_ms();

			if (r->eio_until == 0)
				r->eio_until = now + RUNNER_EIO_GRACE_MS;
			if (now < r->eio_until)
				break;
		}
		runner_close_output(r);
	}
}

/*
 * Once the leader has ended and its output has been read: the slave was
 * held, so no EIO cut that short.  Let go of it; EIO (or EOF) follows
 * at once unless something else still holds the pty.
 */
static void
runner_release_slave(struct runner *r)
{
	if (r->slave < 0)
		return;
	close(r->slave);
	r->slave = -1;
	runner_read(r);
}

void
runner_signal(struct runner *r, int sig)
{
	(void)procs_signal_session(r->pid, PROCS_DESCENDANTS, sig);
	/* The leader, in case the listing missed it (or was impossible). */
	(void)kill(r->pid, sig);
}

/* Session members other than the leader: -1 if they cannot be listed. */
static long
runner_session_left(pid_t sid)
{
	pid_t *v;
	long n, i, left = 0;

	n = procs_session(sid, 0, &v);
	for (i = 0; i < n; i++)
		if (v[i] != sid)
			left++;
	free(v);
	return n < 0 ? -1 : left;
}

/*
 * Kills what is left of the session, and the descendants it started;
 * counts only what was left alive, not a child the test had signalled
 * and not reaped yet (procs_kill_left).
 */
static void
runner_kill_stragglers(struct runner *r)
{
	if (runner_session_left(r->pid) == 0)
		return;
	r->res.stragglers += procs_kill_left(r->pid);
}

/* Reaps the leader if it has ended; kills what is left of its session. */
void
runner_reap(struct runner *r)
{
	siginfo_t si;
	pid_t w;
	int st;

	memset(&si, 0, sizeof(si));
	/* Look without reaping: a zombie leader keeps its pid (= sid) ours. */
	if (waitid(P_PID, (id_t)r->pid, &si, WEXITED | WNOHANG | WNOWAIT)
	    == -1) {
		if (errno == EINTR)
			return;
	} else if (si.si_pid != r->pid)
		return;
	/*
	 * Stragglers.  Listing every process costs tens of microseconds
	 * (Linux's /proc), more than the rest of a tiny test's handling,
	 * so it is done when something may be left: when the output is
	 * still held open after the leader's end (by a member, or by a
	 * process that left the session while its parent lives), or,
	 * once the leader is reaped, when its process group still has a
	 * member.  Missed: a member that moved to a process group of its
	 * own and let go of the output as well; a timeout or a stop
	 * always lists the whole session.
	 */
	/*
	 * With the slave held, its release reads all that is left up to
	 * the EIO (a pty holds far less than one read's cap): a read
	 * before it would only find nothing there yet.
	 */
	if (r->slave < 0)
		runner_read(r);
	runner_release_slave(r);
	if (r->fd >= 0)
		runner_kill_stragglers(r);
	do
		w = waitpid(r->pid, &st, 0);
	while (w == -1 && errno == EINTR);
	/* The leader's pid cannot come back while its group lives on. */
	if (r->fd < 0 && kill(-r->pid, 0) == 0)
		runner_kill_stragglers(r);
	r->reaped = 1;
	if (r->xfd >= 0) {
		close(r->xfd);
		r->xfd = -1;
	}
	r->res.duration = (double)(runner_now_ns() - r->t_start_ns) / 1e9;
	if (w == r->pid) {
		if (WIFEXITED(st)) {
			r->res.exited = 1;
			r->res.exit_code = WEXITSTATUS(st);
		} else if (WIFSIGNALED(st)) {
			r->res.signo = WTERMSIG(st);
#ifdef WCOREDUMP
			r->res.core_dumped = WCOREDUMP(st) != 0;
#endif
		}
	}
}
