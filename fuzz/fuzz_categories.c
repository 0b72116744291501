/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: triage categories files (categories_parse), read twice
 * so that the second read overrides the first in place.
 */
#include "ltpscope/categories.h"
#include "fuzz.h"

FUZZ_TARGET(categories)
{
	struct categories cats;
	struct diaglist dl;
	const struct category *c;
	size_t i, n;

	diag_init(&dl);
	categories_init(&cats);
	(void)categories_parse(&cats, "categories", (const char *)data,
	    size, &dl);
	n = cats.n;
	(void)categories_parse(&cats, "user", (const char *)data, size, &dl);
	/* The same names again override; they add nothing. */
	FUZZ_CHECK(cats.n == n);
	for (i = 0; i < cats.n; i++) {
		c = &cats.v[i];
		FUZZ_CHECK(c->name != NULL && c->colour != NULL &&
		    c->meaning != NULL);
		FUZZ_CHECK(categories_find(&cats, c->name) != NULL);
	}
	categories_free(&cats);
	diag_free(&dl);
	return 0;
}
