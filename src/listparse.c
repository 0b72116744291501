/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Splitting a typed list into its items; see listparse.h.
 */
#include <string.h>

#include "ltpscope/listparse.h"
#include "ltpscope/xmalloc.h"

char **
listparse_split(const char *s, size_t *np)
{
	char **v;
	size_t n = 0, len;

	v = xcalloc(1, sizeof(*v));
	for (s += strspn(s, LISTPARSE_SEPS); *s != '\0';
	    s += strspn(s, LISTPARSE_SEPS)) {
		len = strcspn(s, LISTPARSE_SEPS);
		v = xreallocarray(v, n + 2, sizeof(*v));
		v[n++] = xstrndup(s, len);
		v[n] = NULL;
		s += len;
	}
	if (np != NULL)
		*np = n;
	return v;
}
