/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: triage rules files (rules_parse, pcre2 patterns the
 * user wrote), checked against the categories and matched: the input
 * up to a "--" line is the rules file, the rest a test's output that
 * rules_suggest() judges.
 */
#include "ltpscope/categories.h"
#include "ltpscope/rules.h"
#include "fuzz.h"

static const char fz_rules_cats[] =
    "missing-syscall fail yes A syscall NetBSD lacks\n"
    "bug-compat red yes A bug in compat_linux\n"
    "environment conf no The test box, not the kernel\n";

static const char fz_rules_output[] =
    "tst_test.c:1650: TINFO: Timeout per run is 0h 00m 30s\n"
    "open01.c:42: TFAIL: open() failed: ENOSYS (38)\n"
    "open01.c:50: TBROK: mmap() failed: EINVAL (22)\n"
    "open01    1  TCONF  :  open01.c:80: not on this kernel\n";

FUZZ_TARGET(rules)
{
	struct rules_suggestion sg;
	struct categories cats;
	struct diaglist dl;
	struct rules *r;
	const uint8_t *out;
	size_t n, outlen, i;

	n = fuzz_split(data, size, &out, &outlen);
	diag_init(&dl);
	categories_init(&cats);
	(void)categories_parse(&cats, "categories", fz_rules_cats,
	    sizeof(fz_rules_cats) - 1, &dl);
	r = rules_new();
	(void)rules_parse(r, "rules", (const char *)data, n, &dl);
	(void)rules_check(r, &cats, &dl);
	for (i = 0; i < rules_count(r); i++)
		FUZZ_CHECK(rules_get(r, i)->category != NULL &&
		    rules_get(r, i)->pattern != NULL);
	if (outlen == 0) {
		out = (const uint8_t *)fz_rules_output;
		outlen = sizeof(fz_rules_output) - 1;
	}
	if (rules_suggest(r, "open01", "open", (const char *)out, outlen,
	    &sg, &dl) == 1)
		FUZZ_CHECK(sg.rule != NULL && sg.line != NULL);
	rules_suggestion_clear(&sg);
	(void)rules_match(r, RF_TEST, "open01", 6, &dl);
	rules_free(r);
	categories_free(&cats);
	diag_free(&dl);
	return 0;
}
