/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A descriptor that poll(2) reports readable once a child process has
 * ended, so that the runner can sleep in poll until the test can be
 * reaped instead of looking again and again (it installs no SIGCHLD
 * handler).  Linux has pidfd_open(2), the BSDs and macOS kqueue(2)
 * with EVFILT_PROC; elsewhere there is none and callers keep polling.
 */
#ifndef LTPSCOPE_EXITWATCH_H
#define LTPSCOPE_EXITWATCH_H

#include <sys/types.h>

/*
 * Returns a close-on-exec descriptor, owned by the caller (close(2)
 * it), that polls POLLIN once pid (a child of ours, not yet reaped)
 * has exited; -1 when the system cannot give one, or pid has already
 * ended where the system cannot tell that (the caller then finds it
 * at its next waitid(2)).  Reading it is never needed.
 */
int	exitwatch_open(pid_t pid);

#endif
