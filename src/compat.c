/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Portability helpers that cannot be expressed as a header choice:
 * strlcpy and the system's name.  The mount table is compat_mount.c's.
 */
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
