/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: the test map (data/testmap, testmap_load_buf), then the
 * mapping of tags through it.
 */
#include "ltpscope/ltpindex.h"
#include "ltpscope/xmalloc.h"
#include "fuzz.h"

FUZZ_TARGET(testmap)
{
	static const char *const names[] = {
		"open", "openat", "fstatat64", "newfstatat", "pread64",
		"clone", "clone3", "x"
	};
	static const char *const tags[] = {
		"open01", "fcntl34_64", "clone301", "pread01_64", "abc", "",
		"[", "*"
	};
	struct testmap tm;
	struct diaglist dl;
	unsigned long line;
	char **v;
	size_t i, j;

	diag_init(&dl);
	testmap_init(&tm);
	(void)testmap_load_buf(&tm, "testmap", (const char *)data, size,
	    &dl);
	for (i = 0; i < tm.nrules; i++) {
		FUZZ_CHECK(tm.rules[i].pattern != NULL);
		for (j = 0; j < tm.rules[i].nitems; j++)
			FUZZ_CHECK(tm.rules[i].items[j] != NULL);
	}
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		v = ltpindex_map_tag(tags[i], &tm, names,
		    sizeof(names) / sizeof(names[0]), &line);
		xfreev(v);
	}
	/* Each rule's own pattern as a tag: it matches at least itself. */
	for (i = 0; i < tm.nrules && i < 64; i++) {
		v = ltpindex_map_tag(tm.rules[i].pattern, &tm, names,
		    sizeof(names) / sizeof(names[0]), &line);
		xfreev(v);
	}
	testmap_free(&tm);
	diag_free(&dl);
	return 0;
}
