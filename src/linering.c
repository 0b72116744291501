/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The output pane's ring of lines (see linering.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ltpscope/linering.h"
#include "ltpscope/xmalloc.h"

struct ring_line {
	enum line_class	 cls;
	char		*text;
	size_t		 len;
};

struct linering {
	struct ring_line	*v;
	size_t			 cap;		/* = maxlines */
	size_t			 head;		/* index of the oldest */
	size_t			 n;
	size_t			 bytes;
	size_t			 maxbytes;
	unsigned long long	 total;
};

struct linering *
linering_new(size_t maxlines, size_t maxbytes)
{
	struct linering *r = xcalloc(1, sizeof(*r));

	r->cap = maxlines ? maxlines : 1;
	r->maxbytes = maxbytes;
	r->v = xcalloc(r->cap, sizeof(*r->v));
	return r;
}

static void
linering_drop_oldest(struct linering *r)
{
	struct ring_line *l = &r->v[r->head];

	r->bytes -= l->len;
	free(l->text);
	l->text = NULL;
	l->len = 0;
	r->head = (r->head + 1) % r->cap;
	r->n--;
}

void
linering_clear(struct linering *r)
{
	while (r->n > 0)
		linering_drop_oldest(r);
	r->head = 0;
	r->total = 0;
}

void
linering_free(struct linering *r)
{
	if (r == NULL)
		return;
	linering_clear(r);
	free(r->v);
	free(r);
}

void
linering_push(struct linering *r, enum line_class cls, const char *text,
    size_t len)
{
	struct ring_line *l;

	/* A single line larger than the whole budget keeps its start. */
	if (r->maxbytes > 0 && len > r->maxbytes)
		len = r->maxbytes;
	while (r->n > 0 && (r->n == r->cap ||
	    (r->maxbytes > 0 && r->bytes + len > r->maxbytes)))
		linering_drop_oldest(r);
	l = &r->v[(r->head + r->n) % r->cap];
	l->cls = cls;
	l->text = xmalloc(len + 1);
	memcpy(l->text, text, len);
	l->text[len] = '\0';
	l->len = len;
	r->n++;
	r->bytes += len;
	r->total++;
}

size_t
linering_count(const struct linering *r)
{
	return r->n;
}

unsigned long long
linering_total(const struct linering *r)
{
	return r->total;
}

size_t
linering_bytes(const struct linering *r)
{
	return r->bytes;
}

const char *
linering_get(const struct linering *r, size_t i, enum line_class *cls,
    size_t *len)
{
	const struct ring_line *l;

	if (i >= r->n)
		return NULL;
	l = &r->v[(r->head + i) % r->cap];
	if (cls != NULL)
		*cls = l->cls;
	if (len != NULL)
		*len = l->len;
	return l->text;
}
