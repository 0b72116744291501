/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: skip lists (skiplist_parse), then the lookups a run
 * makes, with the patterns read as tags too.
 */
#include "ltpscope/skiplist.h"
#include "fuzz.h"

FUZZ_TARGET(skiplist)
{
	static const char *const tags[] = {
		"open01", "copy_file_range01", "fcntl34_64", "", "[", "*"
	};
	struct skiplist sl;
	struct diaglist dl;
	size_t i;

	diag_init(&dl);
	skiplist_init(&sl);
	(void)skiplist_parse(&sl, "skiplist", (const char *)data, size, &dl);
	for (i = 0; i < sl.n; i++) {
		FUZZ_CHECK(sl.v[i].pattern != NULL && sl.v[i].reason != NULL &&
		    sl.v[i].reason[0] != '\0');
		(void)skiplist_lookup(&sl, sl.v[i].pattern);
	}
	for (i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		(void)skiplist_lookup(&sl, tags[i]);
	skiplist_free(&sl);
	diag_free(&dl);
	return 0;
}
