/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shopping list as CSV (RFC 4180; see export.h): every field
 * quoted, CRLF line ends, bytes as stored.
 */
#include <stdio.h>
#include <string.h>

#include "export_impl.h"

/* A quoted field: the text up to each '"' in one write, the '"' twice. */
static void
csv_field(FILE *fp, const char *s, int last)
{
	size_t n;

	putc('"', fp);
	for (;;) {
		n = strcspn(s, "\"");
		(void)fwrite(s, 1, n, fp);
		if (s[n] == '\0')
			break;
		(void)fputs("\"\"", fp);
		s += n + 1;
	}
	putc('"', fp);
	fputs(last ? "\r\n" : ",", fp);
}

static void
csv_weight(FILE *fp, const struct shop_syscall *sc, int last)
{
	char n[32];

	(void)snprintf(n, sizeof(n), "%u", sc->nprofiles);
	csv_field(fp, n, 0);
	(void)snprintf(n, sizeof(n), "%lu", sc->ncalls);
	csv_field(fp, n, 0);
	csv_field(fp, sc->profiles != NULL ? sc->profiles : "", 0);
	(void)snprintf(n, sizeof(n), "%u", sc->nresults);
	csv_field(fp, n, last);
}

/* With a kernel tree, where the call's function is; always the last. */
static void
csv_kfunc(FILE *fp, const struct shop_syscall *sc)
{
	char n[32];

	csv_field(fp, sc->function, 0);
	csv_field(fp, sc->func_file, 0);
	if (sc->func_file[0] != '\0')
		(void)snprintf(n, sizeof(n), "%lu", sc->func_line);
	else
		n[0] = '\0';
	csv_field(fp, n, 1);
}

/*
 * The per-arch fields: a status per arch (its name heads the column)
 * and the scope; the heading when t is NULL.
 */
static void
csv_arches(FILE *fp, const struct shoplist *l, const struct shop_test *t,
    int last)
{
	size_t c;

	for (c = 0; c < l->arches.ncols; c++)
		csv_field(fp, t != NULL ? export_arch_status(t, c) :
		    l->arches.cols[c].run.arch, 0);
	csv_field(fp, t != NULL ? export_arch_scope(t) : "arch_scope", last);
}

void
export_csv(const struct shoplist *l, FILE *fp)
{
	static const char *const head[] = { "priority", "syscall",
	    "catalogue", "test", "status", "category", "source", "note",
	    "author", "first_failing_line", "kernel_lines", "kernel_marked",
	    "flaky", "linux" };
	/* A needed call with no failing test: no Linux status. */
	static const struct shop_test none = { 0, (char *)"", TS_UNKNOWN,
	    (char *)"", SHOP_NONE, (char *)"", (char *)"", (char *)"",
	    -1, 0, NULL, 0, 0, NULL, 0 };
	const size_t nhead = sizeof(head) / sizeof(head[0]);
	char prio[32], klines[32];
	size_t i, j, k;

	for (k = 0; k < nhead; k++)
		csv_field(fp, head[k], k == nhead - 1 && !l->weighted &&
		    !export_arch_columns(l) && !l->kindexed);
	if (export_arch_columns(l))
		csv_arches(fp, l, NULL, !l->weighted && !l->kindexed);
	if (l->weighted) {
		csv_field(fp, "profiles", 0);
		csv_field(fp, "profile_calls", 0);
		csv_field(fp, "needed_by", 0);
		csv_field(fp, "ltp_results", !l->kindexed);
	}
	if (l->kindexed) {
		csv_field(fp, "function", 0);
		csv_field(fp, "function_file", 0);
		csv_field(fp, "function_line", 1);
	}
	for (i = 0; i < l->n; i++) {
		const struct shop_syscall *sc = &l->v[i];

		(void)snprintf(prio, sizeof(prio), "%lu", sc->priority);
		/* Weighed, a needed call without failing tests is a row. */
		for (j = 0; j < sc->ntests || (j == 0 && l->weighted); j++) {
			const struct shop_test *t = j < sc->ntests ?
			    &sc->tests[j] : &none;

			csv_field(fp, prio, 0);
			csv_field(fp, sc->name, 0);
			csv_field(fp, sc->cat_state, 0);
			csv_field(fp, t->tag, 0);
			csv_field(fp, j < sc->ntests ?
			    test_status_name(t->status) : "", 0);
			csv_field(fp, t->category, 0);
			csv_field(fp, export_source_names[t->source], 0);
			csv_field(fp, t->note, 0);
			csv_field(fp, t->author, 0);
			csv_field(fp, t->first_line, 0);
			/* A needed call without a test: no kernel either. */
			(void)snprintf(klines, sizeof(klines), "%u",
			    t->kmsg_lines);
			csv_field(fp, j < sc->ntests ? klines : "", 0);
			csv_field(fp, j < sc->ntests ? t->kmsg_marked ? "yes" :
			    "no" : "", 0);
			csv_field(fp, t->flaky ? "yes" : "no", 0);
			csv_field(fp, export_linux_name(t->linux_status),
			    !l->weighted && !export_arch_columns(l) &&
			    !l->kindexed);
			if (export_arch_columns(l))
				csv_arches(fp, l, t, !l->weighted &&
				    !l->kindexed);
			if (l->weighted)
				csv_weight(fp, sc, !l->kindexed);
			if (l->kindexed)
				csv_kfunc(fp, sc);
		}
	}
}
