/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The string numbering: each string its number from its first add,
 * the same number every time after, across the table's growths;
 * keys that end early at a NUL; keys alike but for their last byte or
 * length; a key longer than a block of keys; and strings never added
 * not found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/strmap.h"
#include "tap.h"

#define NKEYS	5000

int
main(void)
{
	struct strmap m;
	char buf[64];
	size_t i, bad, n;
	int isnew, nnew;

	strmap_init(&m);
	is_int(strmap_find(&m, "read01"), STRMAP_NONE, "an empty map finds "
	    "nothing");

	/* Numbers in the order first seen, through several growths. */
	for (i = 0, bad = 0, nnew = 0; i < NKEYS; i++) {
		snprintf(buf, sizeof(buf), "test%zu", i);
		n = strmap_add(&m, buf, strlen(buf), &isnew);
		bad += n != i;
		nnew += isnew;
	}
	is_int(bad, 0, "%d keys numbered in the order added", NKEYS);
	is_int(nnew, NKEYS, "each one new");
	is_int(m.n, NKEYS, "and counted");
	ok(m.cap > 2 * m.n && (m.cap & (m.cap - 1)) == 0, "the table over "
	    "twice their number, a power of two (%zu)", m.cap);
	for (i = NKEYS, bad = 0, nnew = 0; i-- > 0;) {
		snprintf(buf, sizeof(buf), "test%zu", i);
		n = strmap_add(&m, buf, strlen(buf), &isnew);
		bad += n != i || strmap_find(&m, buf) != i ||
		    strcmp(m.keys[i], buf) != 0;
		nnew += isnew;
	}
	is_int(bad, 0, "added again, each keeps its number and is found");
	is_int(nnew, 0, "none new the second time");
	is_int(m.n, NKEYS, "the count unchanged");

	/* Near misses. */
	is_int(strmap_find(&m, "test"), STRMAP_NONE, "a prefix of keys: "
	    "none");
	is_int(strmap_find(&m, "test50000"), STRMAP_NONE, "a key and more: "
	    "none");
	is_int(strmap_find(&m, ""), STRMAP_NONE, "the empty string: none");
	n = strmap_add(&m, "test12345", 6, &isnew);
	ok(n == 12 && !isnew, "the first 6 bytes of a longer string: "
	    "test12's number (%zu)", n);
	n = strmap_add(&m, "", 0, &isnew);
	ok(n == NKEYS && isnew && strcmp(m.keys[n], "") == 0, "the empty "
	    "string is a key too");
	is_int(strmap_find(&m, ""), NKEYS, "and found");

	/* A key ends at its first NUL, as a C string does. */
	n = strmap_add(&m, "pipe05\0junk", 11, &isnew);
	ok(isnew && strcmp(m.keys[n], "pipe05") == 0, "bytes after a NUL are "
	    "not the key's");
	is_int(strmap_add(&m, "pipe05", 6, &isnew), n, "the same key without "
	    "them");
	ok(!isnew, "not new");

	/* A key longer than a block of keys, and keys after it. */
	{
		size_t big = 200 * 1024, k;
		char *h = malloc(big + 1);

		memset(h, 'x', big);
		h[big] = '\0';
		k = strmap_add(&m, h, big, &isnew);
		ok(isnew && strlen(m.keys[k]) == big, "a %zu-byte key kept "
		    "whole", big);
		h[big - 1] = 'y';
		ok(strmap_find(&m, h) == STRMAP_NONE, "one differing only in "
		    "its last byte: not it");
		n = strmap_add(&m, "after", 5, &isnew);
		ok(isnew && strcmp(m.keys[n], "after") == 0 &&
		    strcmp(m.keys[0], "test0") == 0 && m.keys[k][big - 1] ==
		    'x', "the keys before and after it unchanged");
		free(h);
	}

	strmap_free(&m);
	ok(m.n == 0 && m.cap == 0 && m.keys == NULL, "freed: empty again");
	is_int(strmap_hash("", 0), strmap_hash("abc", 0), "the hash reads "
	    "only the length given");
	ok(strmap_hash("read01", 6) != strmap_hash("read02", 6), "and every "
	    "byte of it");
	return tap_done();
}
