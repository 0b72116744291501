/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the shopping list says the same way in every format (see
 * export_impl.h): a status's name on Linux and on each arch's column,
 * a test's source, and what the list leaves out.
 */
#include <stdio.h>

#include "export_impl.h"

const char *const export_source_names[] = { "", "suggested", "tagged" };

/* A status on the Linux reference; "" when it has none. */
const char *
export_linux_name(int status)
{
	return status < 0 ? "" : test_status_name((enum test_status)status);
}

/* Whether the list shows a column per arch: the store has several. */
int
export_arch_columns(const struct shoplist *l)
{
	return l->arches.ncols > 1;
}

/* A test's status on arch column c; "" when it has none there. */
const char *
export_arch_status(const struct shop_test *t, size_t c)
{
	if (t->arch == NULL || t->arch->status[c] < 0)
		return "";
	return test_status_name((enum test_status)t->arch->status[c]);
}

const char *
export_arch_scope(const struct shop_test *t)
{
	return t->arch != NULL ? amx_scope_name(t->arch->scope) : "";
}

/*
 * What the list leaves out but a reader should know: passes and skips
 * whose only warnings were the environment's, and tests nobody can
 * judge (no result, no exit status).
 */
void
export_unlisted(const struct shoplist *l, FILE *fp, const char *sep,
    const char *end)
{
	unsigned env = l->run.nenvmarked, unk = l->run.counts[TS_UNKNOWN];

	if (env > 0)
		fprintf(fp, "%s%u passed or skipped with an env warning only",
		    sep, env);
	if (unk > 0)
		fprintf(fp, "%s%u unknown (no result and no exit status)",
		    env > 0 ? "; " : sep, unk);
	if (env > 0 || unk > 0)
		fputs(end, fp);
}
