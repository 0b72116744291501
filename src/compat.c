/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Portability helpers that cannot be expressed as a header choice:
 * strlcpy, the system's name and its processor.  The mount table is compat_mount.c's.
 */
#include <sys/types.h>
#ifdef __NetBSD__
#include <sys/sysctl.h>
#endif
#include <sys/utsname.h>

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
