/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Strings numbered in the order first seen, found again by hash: for
 * grouping thousands of rows by name without sorting them first.
 */
#ifndef LTPSCOPE_STRMAP_H
#define LTPSCOPE_STRMAP_H

#include <stddef.h>

#define STRMAP_NONE	((size_t)-1)

/* A key's hash beside its number: a probe reads no other key. */
struct strmap_slot {
	size_t	 hash;
	size_t	 n;		/* 1 + the key's number; 0: empty */
};

struct strmap_block;

struct strmap {
	char			**keys;	/* by number: copies, the map's */
	size_t			  n;
	struct strmap_slot	 *slot;
	size_t			  cap;	/* slots: a power of two, over
					   twice n */
	struct strmap_block	 *blocks; /* where the copies are */
};

void	strmap_init(struct strmap *);
void	strmap_free(struct strmap *);
/* FNV-1a of the len bytes at s. */
size_t	strmap_hash(const char *, size_t);
/* The number of the len bytes at s, added if new (then *isnew is 1). */
size_t	strmap_add(struct strmap *, const char *, size_t, int *);
/* The number of s, or STRMAP_NONE. */
size_t	strmap_find(const struct strmap *, const char *);

#endif
