/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Comparing tables: what changed between two versions of a
 * syscalls.master, and where NetBSD's idea of a slot disagrees with
 * Linux's own table (a call wired to the wrong number is a bug LTP
 * reports in confusing ways: the test of one call runs another).
 */
#include <stdlib.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/xmalloc.h"

static int
single_abi(struct catalogue *cat)
{
	size_t n = catalogue_count(cat), i;
	const char *abi;

	if (n == 0)
		return 1;
	abi = catalogue_entry(cat, 0)->abi;
	for (i = 1; i < n; i++)
		if (strcmp(catalogue_entry(cat, i)->abi, abi) != 0)
			return 0;
	return 1;
}

static int
entry_changed(const struct cat_entry *a, const struct cat_entry *b)
{
	return strcmp(a->type_name, b->type_name) != 0 ||
	    a->state != b->state ||
	    strcmp(a->function, b->function) != 0 ||
	    strcmp(a->prototype, b->prototype) != 0 ||
	    (a->state == CS_LINUX && strcmp(a->name, b->name) != 0);
}

static void
diff_push(struct cat_diff **v, size_t *n, size_t *cap, enum cat_change c,
    const struct cat_entry *a, const struct cat_entry *b)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[*n].change = c;
	(*v)[*n].old = a;
	(*v)[*n].new = b;
	(*n)++;
}

struct cat_diff *
catalogue_diff(struct catalogue *old, struct catalogue *new, size_t *np)
{
	struct cat_diff *v = NULL;
	size_t i = 0, j = 0, n = 0, cap = 0;
	size_t no = catalogue_count(old), nn = catalogue_count(new);
	int byabi = !(single_abi(old) && single_abi(new));

	while (i < no || j < nn) {
		const struct cat_entry *a = i < no ?
		    catalogue_entry(old, i) : NULL;
		const struct cat_entry *b = j < nn ?
		    catalogue_entry(new, j) : NULL;
		int c;

		if (a == NULL)
			c = 1;
		else if (b == NULL)
			c = -1;
		else {
			c = byabi ? strcmp(a->abi, b->abi) : 0;
			if (c == 0 && a->number != b->number)
				c = a->number < b->number ? -1 : 1;
		}
		if (c < 0) {
			diff_push(&v, &n, &cap, CC_REMOVED, a, NULL);
			i++;
		} else if (c > 0) {
			diff_push(&v, &n, &cap, CC_ADDED, NULL, b);
			j++;
		} else {
			if (entry_changed(a, b))
				diff_push(&v, &n, &cap, CC_CHANGED, a, b);
			i++;
			j++;
		}
	}
	*np = n;
	return v;
}

/* Whether any name the NetBSD entry goes by is Linux's name. */
static int
names_agree(const struct cat_entry *e, const char *linux_name)
{
	return (e->own_name[0] != '\0' &&
	    catalogue_same_call(e->own_name, linux_name)) ||
	    (e->alias[0] != '\0' &&
	    catalogue_same_call(e->alias, linux_name)) ||
	    (e->basename[0] != '\0' &&
	    catalogue_same_call(e->basename, linux_name));
}

struct cat_mismatch *
catalogue_crosscheck(struct catalogue *cat, size_t *np)
{
	struct cat_mismatch *v = NULL;
	size_t i, n = 0, cap = 0, count = catalogue_count(cat);

	for (i = 0; i < count; i++) {
		const struct cat_entry *e = catalogue_entry(cat, i), *l;

		if (e->format != CF_MASTER || e->own_name[0] == '\0')
			continue;
		/* A Linux table's row, else a names file's. */
		if ((l = catalogue_linux_row(cat, e->abi, e->number)) == NULL)
			continue;
		if (names_agree(e, l->own_name))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n].netbsd = e;
		v[n].ref = l;
		n++;
	}
	*np = n;
	return v;
}
