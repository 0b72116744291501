/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Lists a person typed: "-s open,close", "--arch amd64,i386",
 * "--weight @a, @b".  Every option that takes a list splits it here,
 * so that all of them take the same separators: commas and blanks,
 * any number of them, empty items dropped.  Core: nothing printed.
 */
#ifndef LTPSCOPE_LISTPARSE_H
#define LTPSCOPE_LISTPARSE_H

#include <stddef.h>

/* What separates the items of a list. */
#define LISTPARSE_SEPS	", \t\n"

/*
 * The items of s, each malloc'd, in a malloc'd NULL-terminated vector
 * (never NULL; empty when s holds none); *np, when np is not NULL,
 * their number.  The caller frees with xfreev(), or frees the vector
 * alone after taking the items.
 */
char	**listparse_split(const char *s, size_t *np);

#endif
