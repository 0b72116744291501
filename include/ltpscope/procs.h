/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Finding and signalling every process of a test's session.  LTP tests
 * move themselves into process groups of their own, so killing the
 * child's group is not enough; the session is what they cannot leave
 * without setsid(), and a process that did that is still found while
 * its parent lives, through its parent process id.
 *
 * How processes are listed differs per system (Linux /proc, NetBSD
 * sysctl KERN_PROC2); everything else in the tree uses these calls.
 */
#ifndef LTPSCOPE_PROCS_H
#define LTPSCOPE_PROCS_H

#include <sys/types.h>

#include <stddef.h>

/* Flags for the calls below. */
#define PROCS_DESCENDANTS	0x1	/* also descendants outside the
					   session (slower: reads ppids) */
#define PROCS_NOT_LEADER	0x2	/* leave the leader (pid sid) alone */

/*
 * Lists the processes in session sid, the leader included, and with
 * PROCS_DESCENDANTS their descendants.  Zombies are left out where the
 * system tells them apart cheaply (always with PROCS_DESCENDANTS).
 * *pids is allocated and owned by the caller (free it even when 0 is
 * returned).  Returns the count, or -1 when processes cannot be listed
 * on this system.
 */
long	procs_session(pid_t sid, int flags, pid_t **pids);

/*
 * Sends sig to every process procs_session() finds, never to the
 * caller; falls back to the process group sid when processes cannot be
 * listed.  Returns the number of processes signalled.
 */
int	procs_signal_session(pid_t sid, int flags, int sig);

/*
 * What a process is doing, to tell one a test left running from one on
 * its way out (a child the test had just signalled and not reaped).
 */
enum procs_fate {
	PROCS_GONE,	/* gone, a zombie, exiting, or a fatal signal
			   pending */
	PROCS_MOVING,	/* running, or a signal it catches pending: it
			   may exit at any moment */
	PROCS_STAYING,	/* asleep or stopped, nothing pending: it stays */
	PROCS_UNKNOWN	/* this system cannot say */
};
enum procs_fate procs_fate(pid_t);

/* How long procs_kill_left() waits at most for processes on the move. */
#define PROCS_SETTLE_MS	300

/*
 * Kills (SIGKILL) what is left of session sid after its leader ended:
 * the members but the leader, and their descendants.  Returns how many
 * of them were left behind: alive and not already dying.  A member on
 * the move (procs_fate) gets up to PROCS_SETTLE_MS, watched by its
 * state, to exit or settle; one asleep counts at once.  Where processes
 * cannot be listed, the process group is killed and counts as one.
 */
int	procs_kill_left(pid_t sid);

#endif
