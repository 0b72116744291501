/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Allocation wrappers that abort on failure (see xmalloc.h for why).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/xmalloc.h"

static void
xmalloc_die(size_t n)
{
	char buf[96];
	int len;

	len = snprintf(buf, sizeof(buf),
	    "ltpscope: out of memory allocating %zu bytes\n", n);
	if (len > 0)
		(void)write(STDERR_FILENO, buf, (size_t)len);
	abort();
}

void *
xmalloc(size_t n)
{
	void *p;

	if ((p = malloc(n == 0 ? 1 : n)) == NULL)
		xmalloc_die(n);
	return p;
}

void *
xcalloc(size_t nmemb, size_t size)
{
	void *p;

	if (nmemb == 0 || size == 0)
		nmemb = size = 1;
	if ((p = calloc(nmemb, size)) == NULL)
		xmalloc_die(nmemb * size);
	return p;
}

void *
xrealloc(void *old, size_t n)
{
	void *p;

	if ((p = realloc(old, n == 0 ? 1 : n)) == NULL)
		xmalloc_die(n);
	return p;
}

void *
xreallocarray(void *old, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		xmalloc_die(SIZE_MAX);
	return xrealloc(old, nmemb * size);
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p;
	size_t len;

	len = strnlen(s, n);
	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

int
xasprintf(char **ret, const char *fmt, ...)
{
	va_list ap, ap2;
	int len;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		xmalloc_die(0);
	*ret = xmalloc((size_t)len + 1);
	(void)vsnprintf(*ret, (size_t)len + 1, fmt, ap2);
	va_end(ap2);
	return len;
}

void
xfreev(char **v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}
