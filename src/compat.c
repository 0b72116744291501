/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Portability helpers that cannot be expressed as a header choice:
 * strlcpy, the system's name and processor, extended attributes, a
 * pty's slave opened again.  The mount table is compat_mount.c's.
 */
#include <sys/types.h>
#include <sys/ioctl.h>
#ifdef __NetBSD__
#include <sys/sysctl.h>
#endif
#include <sys/utsname.h>
#if defined(__linux__)
#include <sys/xattr.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/compat.h"

size_t
compat_strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size != 0) {
		size_t n = len >= size ? size - 1 : len;

		memcpy(dst, src, n);
		dst[n] = '\0';
	}
	return len;
}

const char *
compat_os_name(char *buf, size_t len)
{
	struct utsname u;
	const char *e = getenv("LTPSCOPE_OS");

	if (len == 0)
		return buf;
	if (e != NULL && *e != '\0')
		snprintf(buf, len, "%s", e);
	else if (uname(&u) == 0)
		snprintf(buf, len, "%s", u.sysname);
	else
		buf[0] = '\0';
	return buf;
}

const char *
compat_machine_arch(char *buf, size_t len)
{
	struct utsname u;

	if (len == 0)
		return buf;
	buf[0] = '\0';
#ifdef __NetBSD__
	{
		size_t n = len;

		if (sysctlbyname("hw.machine_arch", buf, &n, NULL, 0) == 0 &&
		    n > 0 && n <= len) {
			buf[n - 1] = '\0';
			return buf;
		}
	}
#endif
	if (uname(&u) == 0)
		snprintf(buf, len, "%s", u.machine);
	return buf;
}

int
compat_pty_reopen(int master)
{
#if defined(TIOCGPTPEER)
	return ioctl(master, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
#else
	(void)master;
	errno = ENOTSUP;
	return -1;
#endif
}

int
compat_dir_extra_attrs(int fd)
{
#if defined(__linux__)
	char names[1024];
	ssize_t n, i;

	if ((n = flistxattr(fd, names, sizeof(names))) == -1)
		return errno == ENOTSUP ? 0 : -1;
	for (i = 0; i < n; i += (ssize_t)strlen(names + i) + 1)
		if (strncmp(names + i, "security.", 9) != 0)
			return 1;
	return 0;
#else
	(void)fd;
	return 0;
#endif
}
