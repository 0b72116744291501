/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Allocators that never return NULL: running out of memory in a tool like
 * this is not a condition any caller could recover from sensibly, so we
 * stop with a message instead of threading ENOMEM through every parser.
 */
#ifndef LTPSCOPE_XMALLOC_H
#define LTPSCOPE_XMALLOC_H

#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
int	 xasprintf(char **, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
/* Frees a NULL-terminated vector of strings and the vector; NULL: none. */
void	 xfreev(char **);

#endif
