/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: data/fundamental, the ranked list of calls that weighs
 * the shopping list (fundamental_parse), and the ranks read back.
 */
#include "ltpscope/fundamental.h"
#include "fuzz.h"

FUZZ_TARGET(fundamental)
{
	struct fundamental f;
	struct diaglist dl;
	size_t i;

	diag_init(&dl);
	(void)fundamental_parse(&f, "fundamental", (const char *)data, size,
	    &dl);
	for (i = 0; i < f.n; i++) {
		FUZZ_CHECK(f.names[i] != NULL && f.names[i][0] != '\0');
		FUZZ_CHECK(fundamental_rank(&f, f.names[i]) >= 1 &&
		    fundamental_rank(&f, f.names[i]) <= i + 1);
	}
	(void)fundamental_rank(&f, "read");
	fundamental_free(&f);
	diag_free(&dl);
	return 0;
}
