/*
 * Portability helpers that cannot be expressed as a header choice.
 */
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
