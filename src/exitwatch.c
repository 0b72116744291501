/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Waiting for a child's end in poll(2) (see exitwatch.h): the one file
 * that knows pidfd_open(2) and kqueue(2).  glibc declares syscall(2)
 * only with _GNU_SOURCE, hence the define, which only this file needs.
 */
#if defined(__linux__)
#define _GNU_SOURCE	1
#endif
#include <sys/types.h>
#if defined(__linux__)
#include <sys/syscall.h>
#elif defined(__NetBSD__) || defined(__FreeBSD__) || \
    defined(__OpenBSD__) || defined(__DragonFly__) || defined(__APPLE__)
#include <sys/event.h>
#include <sys/time.h>
#define EXITWATCH_KQUEUE	1
#endif

#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "ltpscope/exitwatch.h"

#if defined(__linux__) && defined(SYS_pidfd_open)

/*
 * Linux 5.3 and later; older kernels (ENOSYS) and seccomp filters that
 * refuse the call leave the caller polling.  A pidfd is close-on-exec.
 */
int
exitwatch_open(pid_t pid)
{
	long fd = syscall(SYS_pidfd_open, pid, 0);

	return fd < 0 ? -1 : (int)fd;
}

#elif defined(EXITWATCH_KQUEUE)

/*
 * A kqueue with one EVFILT_PROC NOTE_EXIT event is readable once the
 * process exits.  Attaching to a process that has already ended fails
 * on some systems: the caller's next waitid() finds it then.
 */
int
exitwatch_open(pid_t pid)
{
	struct kevent ev;
	int kq;

	if ((kq = kqueue()) == -1)
		return -1;
	if (fcntl(kq, F_SETFD, FD_CLOEXEC) == -1) {
		close(kq);
		return -1;
	}
	EV_SET(&ev, (uintptr_t)pid, EVFILT_PROC, EV_ADD | EV_ONESHOT,
	    NOTE_EXIT, 0, 0);
	if (kevent(kq, &ev, 1, NULL, 0, NULL) == -1) {
		close(kq);
		return -1;
	}
	return kq;
}

#else

int
exitwatch_open(pid_t pid)
{
	(void)pid;
	return -1;
}

#endif
