/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The string numbering of strmap.h: open addressing with linear
 * probing, the table doubled before it is half full, the keys kept
 * by number in an array as large as the table's half, their bytes in
 * blocks of STRMAP_BLOCK: thousands of tags cost a few allocations,
 * not one each.
 */
#include <stdlib.h>
#include <string.h>

#include "ltpscope/strmap.h"
#include "ltpscope/xmalloc.h"

#define STRMAP_BLOCK	(64 * 1024)

struct strmap_block {
	struct strmap_block	*next;
	size_t			 used, size;
	char			 data[];
};

void
strmap_init(struct strmap *m)
{
	memset(m, 0, sizeof(*m));
}

void
strmap_free(struct strmap *m)
{
	struct strmap_block *b;

	while ((b = m->blocks) != NULL) {
		m->blocks = b->next;
		free(b);
	}
	free(m->keys);
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

/* A copy of the len bytes at s, and a NUL, in the map's blocks. */
static char *
strmap_copy(struct strmap *m, const char *s, size_t len)
{
	struct strmap_block *b = m->blocks;
	size_t size;
	char *p;

	if (b == NULL || b->size - b->used < len + 1) {
		size = len + 1 > STRMAP_BLOCK ? len + 1 : STRMAP_BLOCK;
		b = xmalloc(sizeof(*b) + size);
		b->used = 0;
		b->size = size;
		b->next = m->blocks;
		m->blocks = b;
	}
	p = b->data + b->used;
	memcpy(p, s, len);
	p[len] = '\0';
	b->used += len + 1;
	return p;
}

size_t
strmap_hash(const char *s, size_t len)
{
	size_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

static void
strmap_grow(struct strmap *m)
{
	struct strmap_slot *old = m->slot;
	size_t oldcap = m->cap, i, h, mask;

	m->cap = m->cap ? m->cap * 2 : 256;
	m->slot = xcalloc(m->cap, sizeof(*m->slot));
	/* Room for every key the table takes before it grows again. */
	m->keys = xreallocarray(m->keys, m->cap / 2, sizeof(*m->keys));
	mask = m->cap - 1;
	for (i = 0; i < oldcap; i++) {
		if (old[i].n == 0)
			continue;
		for (h = old[i].hash; m->slot[h & mask].n != 0; h++)
			continue;
		m->slot[h & mask] = old[i];
	}
	free(old);
}

/* The slot that holds the len bytes at s (hashed h), or the empty one. */
static struct strmap_slot *
strmap_slot(const struct strmap *m, const char *s, size_t len, size_t h)
{
	size_t mask = m->cap - 1, i;
	struct strmap_slot *p;
	const char *k;

	for (i = h;; i++) {
		p = &m->slot[i & mask];
		if (p->n == 0)
			return p;
		if (p->hash != h)
			continue;
		k = m->keys[p->n - 1];
		if (strncmp(k, s, len) == 0 && k[len] == '\0')
			return p;
	}
}

size_t
strmap_add(struct strmap *m, const char *s, size_t len, int *isnew)
{
	struct strmap_slot *p;
	size_t h;

	/* A key is a C string: it ends at the first NUL. */
	len = strnlen(s, len);
	*isnew = 0;
	if (m->cap == 0 || (m->n + 1) * 2 > m->cap)
		strmap_grow(m);
	h = strmap_hash(s, len);
	if ((p = strmap_slot(m, s, len, h))->n != 0)
		return p->n - 1;
	m->keys[m->n] = strmap_copy(m, s, len);
	p->hash = h;
	p->n = ++m->n;
	*isnew = 1;
	return m->n - 1;
}

size_t
strmap_find(const struct strmap *m, const char *s)
{
	struct strmap_slot *p;
	size_t len;

	if (m->cap == 0)
		return STRMAP_NONE;
	len = strlen(s);
	p = strmap_slot(m, s, len, strmap_hash(s, len));
	return p->n != 0 ? p->n - 1 : STRMAP_NONE;
}
