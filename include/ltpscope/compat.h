/*
 * The one place where Linux and the BSDs differ in headers we need.
 * Everything else in the tree is plain POSIX.1-2008 and C11.
 */
#ifndef LTPSCOPE_COMPAT_H
#define LTPSCOPE_COMPAT_H

#if defined(__linux__)
#include <pty.h>		/* openpty(3), forkpty(3) */
#elif defined(__FreeBSD__) || defined(__DragonFly__)
#include <libutil.h>
#else				/* NetBSD, OpenBSD, macOS */
#include <util.h>
#endif

#include <stddef.h>

#ifndef __dead
#define __dead	__attribute__((__noreturn__))
#endif

/* Name of the operating system's own Linux syscall header, if any. */
#if defined(__linux__)
#define COMPAT_HAVE_LINUX_UNISTD	1
#else
#define COMPAT_HAVE_LINUX_UNISTD	0
#endif

/* strlcpy(3) is in NetBSD libc and only recently in glibc. */
size_t	compat_strlcpy(char *, const char *, size_t);
/*
 * The system the tests run on, as uname -s names it ("NetBSD",
 * "Linux"): the skip list and the default kernel config depend on it.
 * $LTPSCOPE_OS, when set, wins, so that the test suite can play either
 * system on any machine.  Returns buf, "" when unknown.
 */
const char *compat_os_name(char *buf, size_t len);

#endif
