/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Diagnostics list (see diag.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "ltpscope/diag.h"
#include "ltpscope/xmalloc.h"

static const char *const diag_level_names[] = {
	"error", "warning", "note"
};

void
diag_init(struct diaglist *dl)
{
	dl->v = NULL;
	dl->n = dl->cap = dl->nerrors = 0;
}

void
diag_free(struct diaglist *dl)
{
	size_t i;

	for (i = 0; i < dl->n; i++) {
		free(dl->v[i].file);
		free(dl->v[i].msg);
	}
	free(dl->v);
	diag_init(dl);
}

static void
diag_vadd(struct diaglist *dl, enum diag_level level, const char *file,
    unsigned long line, unsigned int col, const char *fmt, va_list ap)
{
	struct diag *d;
	va_list ap2;
	int len;

	if (dl->n == dl->cap) {
		dl->cap = dl->cap ? dl->cap * 2 : 8;
		dl->v = xreallocarray(dl->v, dl->cap, sizeof(*dl->v));
	}
	d = &dl->v[dl->n++];
	d->level = level;
	d->file = file != NULL ? xstrdup(file) : NULL;
	d->line = line;
	d->col = col;
	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (len < 0)
		len = 0;
	d->msg = xmalloc((size_t)len + 1);
	(void)vsnprintf(d->msg, (size_t)len + 1, fmt, ap);
	if (level == DIAG_ERROR)
		dl->nerrors++;
}

void
diag_add(struct diaglist *dl, enum diag_level level, const char *file,
    unsigned long line, unsigned int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(dl, level, file, line, col, fmt, ap);
	va_end(ap);
}

void
diag_error(struct diaglist *dl, const char *file, unsigned long line,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(dl, DIAG_ERROR, file, line, 0, fmt, ap);
	va_end(ap);
}

const struct diag *
diag_first_error(const struct diaglist *dl)
{
	size_t i;

	for (i = 0; i < dl->n; i++)
		if (dl->v[i].level == DIAG_ERROR)
			return &dl->v[i];
	return NULL;
}

int
diag_format(const struct diag *d, char *buf, size_t size)
{
	const char *file = d->file;

	/* With no file the caller's prefix ("ltpscope: ") says who speaks. */
	if (file == NULL)
		return snprintf(buf, size, "%s: %s",
		    diag_level_names[d->level], d->msg);
	if (d->line != 0 && d->col != 0)
		return snprintf(buf, size, "%s:%lu:%u: %s: %s", file,
		    d->line, d->col, diag_level_names[d->level], d->msg);
	if (d->line != 0)
		return snprintf(buf, size, "%s:%lu: %s: %s", file, d->line,
		    diag_level_names[d->level], d->msg);
	return snprintf(buf, size, "%s: %s: %s", file,
	    diag_level_names[d->level], d->msg);
}

void
diag_print(const struct diaglist *dl, FILE *fp, const char *prog)
{
	char buf[1024];
	size_t i;

	for (i = 0; i < dl->n; i++) {
		(void)diag_format(&dl->v[i], buf, sizeof(buf));
		if (prog != NULL)
			fprintf(fp, "%s: %s\n", prog, buf);
		else
			fprintf(fp, "%s\n", buf);
	}
}
