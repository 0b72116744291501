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

#endif
