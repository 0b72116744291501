/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The catalogue's storage: the arena its entries and strings live in,
 * adding an entry and reporting a parse error.  Below both the parsers
 * and catalogue.c's loading and views, which all build on it.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/xmalloc.h"
#include "catalogue_impl.h"

#define CAT_CHUNK	(64 * 1024)
#define CAT_ALIGN	(sizeof(long double) > sizeof(void *) ? \
			    sizeof(long double) : sizeof(void *))

struct catalogue *
catalogue_new(void)
{
	return xcalloc(1, sizeof(struct catalogue));
}

void
catalogue_free(struct catalogue *cat)
{
	struct cat_chunk *c, *next;

	if (cat == NULL)
		return;
	for (c = cat->chunks; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	free(cat->items);
	free(cat->files);
	free(cat->all);
	free(cat->view);
	free(cat->byname);
	free(cat->absent);
	free(cat);
}

void *
cat_alloc(struct catalogue *cat, size_t n)
{
	struct cat_chunk *c = cat->chunks;
	size_t hdr, size;
	char *p;

	hdr = (sizeof(struct cat_chunk) + CAT_ALIGN - 1) & ~(CAT_ALIGN - 1);
	n = (n + CAT_ALIGN - 1) & ~(CAT_ALIGN - 1);
	if (c == NULL || c->size - c->used < n) {
		size = n > CAT_CHUNK / 2 ? n : CAT_CHUNK;
		c = xmalloc(hdr + size);
		c->used = 0;
		c->size = size;
		/* A big one-off goes behind the current chunk, not before. */
		if (n > CAT_CHUNK / 2 && cat->chunks != NULL) {
			c->next = cat->chunks->next;
			cat->chunks->next = c;
		} else {
			c->next = cat->chunks;
			cat->chunks = c;
		}
	}
	p = (char *)c + hdr + c->used;
	c->used += n;
	return p;
}

const char *
cat_strndup(struct catalogue *cat, const char *s, size_t n)
{
	char *p;

	if (n == 0)
		return "";
	p = cat_alloc(cat, n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

const char *
cat_strdup(struct catalogue *cat, const char *s)
{
	return cat_strndup(cat, s, strlen(s));
}

struct cat_entry *
cat_new_entry(struct cat_parse *p)
{
	struct catalogue *cat = p->cat;
	struct cat_item *it;
	struct cat_entry *e;

	it = cat_alloc(cat, sizeof(*it));
	memset(it, 0, sizeof(*it));
	e = &it->e;
	e->abi = p->abi != NULL ? p->abi : "";
	e->name = e->own_name = e->type_name = e->modifiers = "";
	e->function = e->prototype = e->guard = e->alias = "";
	e->basename = "";
	e->comment = "";
	e->file = p->file;
	if (cat->nitems == cat->capitems) {
		cat->capitems = cat->capitems ? cat->capitems * 2 : 1024;
		cat->items = xreallocarray(cat->items, cat->capitems,
		    sizeof(*cat->items));
	}
	it->seq = cat->nitems;
	cat->items[cat->nitems++] = it;
	cat->dirty = 1;
	return e;
}

void
cat_drop_last(struct cat_parse *p)
{
	/* The arena keeps the bytes; only the index forgets the entry. */
	if (p->cat->nitems > 0)
		p->cat->nitems--;
}

void
cat_error(struct cat_parse *p, unsigned long line, const char *fmt, ...)
{
	char msg[512], *s;
	va_list ap;

	if (p->gave_up)
		return;
	if (++p->nerrors > CAT_MAX_ERRORS) {
		diag_error(p->dl, p->file, line,
		    "too many errors, ignoring the rest of the file");
		p->gave_up = 1;
		return;
	}
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Messages quote input: keep its control bytes off the terminal. */
	for (s = msg; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			*s = '?';
	diag_error(p->dl, p->file, line, "%s", msg);
}
