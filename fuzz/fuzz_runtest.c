/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: LTP runtest files (ltpindex_load_buf), then what is
 * done with a loaded index: mapping tags to syscalls, the selections,
 * and the command-line split of every test.
 */
#include "ltpscope/ltpindex.h"
#include "ltpscope/xmalloc.h"
#include "fuzz.h"

static const char *const fz_runtest_names[] = {
	"open", "openat", "read", "fcntl", "clone3", "pread64", "a", ""
};

static void
fz_runtest_check(const struct ltpindex *idx)
{
	const struct ltptest *t;
	const char *why;
	unsigned int col;
	char **argv;
	size_t i;
	int rv;

	for (i = 0; i < idx->ntests; i++) {
		t = &idx->tests[i];
		FUZZ_CHECK(t->tag != NULL && t->cmdline != NULL);
		FUZZ_CHECK(ltpindex_find(idx, t->tag) != NULL);
		FUZZ_CHECK(t->needs_shell || t->argv != NULL);
		argv = NULL;
		why = NULL;
		rv = runtest_split(t->cmdline, &argv, &why, &col);
		FUZZ_CHECK(rv >= 0 || why != NULL);
		xfreev(argv);
	}
}

FUZZ_TARGET(runtest)
{
	static const char *const sys[] = { "open", "read", "nosuch" };
	struct ltpindex idx;
	struct ltpselect sel;
	struct diaglist dl;
	size_t *out, n;

	diag_init(&dl);
	ltpindex_init(&idx);
	(void)ltpindex_load_buf(&idx, "syscalls", (const char *)data, size,
	    &dl);
	fz_runtest_check(&idx);
	(void)ltpindex_map(&idx, NULL, fz_runtest_names,
	    sizeof(fz_runtest_names) / sizeof(fz_runtest_names[0]));
	memset(&sel, 0, sizeof(sel));
	sel.syscalls = sys;
	sel.nsyscalls = 3;
	sel.pattern = "^(open|rea)";
	out = NULL;
	if (ltpindex_select(&idx, &sel, &out, &n, &dl) == 0)
		FUZZ_CHECK(n <= idx.ntests);
	free(out);
	memset(&sel, 0, sizeof(sel));
	sel.unmapped_only = 1;
	out = NULL;
	(void)ltpindex_select(&idx, &sel, &out, &n, &dl);
	free(out);
	ltpindex_free(&idx);
	diag_free(&dl);
	return 0;
}
