/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Diagnostics: how core modules report problems without printing.
 *
 * A parser that meets bad input records "file:line[:col]: message" here
 * and carries on where that is safe; the caller decides whether to print,
 * show in the UI, or fail.  The list owns every string in it.
 */
#ifndef LTPSCOPE_DIAG_H
#define LTPSCOPE_DIAG_H

#include <stddef.h>
#include <stdio.h>

enum diag_level {
	DIAG_ERROR,
	DIAG_WARNING,
	DIAG_NOTE
};

struct diag {
	enum diag_level	 level;
	char		*file;		/* may be NULL */
	unsigned long	 line;		/* 0: no line */
	unsigned int	 col;		/* 0: no column */
	char		*msg;
};

struct diaglist {
	struct diag	*v;
	size_t		 n;
	size_t		 cap;
	size_t		 nerrors;
};

void	diag_init(struct diaglist *);
void	diag_free(struct diaglist *);
void	diag_add(struct diaglist *, enum diag_level, const char *,
	    unsigned long, unsigned int, const char *, ...)
	    __attribute__((__format__(__printf__, 6, 7)));
/* Shorthand for errors. */
void	diag_error(struct diaglist *, const char *, unsigned long,
	    const char *, ...)
	    __attribute__((__format__(__printf__, 4, 5)));
/* The first error in the list, or NULL when there is none. */
const struct diag	*diag_first_error(const struct diaglist *);
/* Writes "file:line:col: level: msg" into buf; returns strlen-like. */
int	diag_format(const struct diag *, char *, size_t);
/* Prints every entry, one per line, prefixed by prog if non-NULL. */
void	diag_print(const struct diaglist *, FILE *, const char *);

#endif
