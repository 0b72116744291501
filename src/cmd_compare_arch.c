/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope compare --arch: the multi-arch matrix (archmatrix.h) as text
 * that fits 80 columns, or as JSON.  The tests that fail somewhere come
 * in three groups: arch-specific (they pass on another arch, so the bug
 * is in one arch's part of compat_linux), failing on every arch, and
 * unsure (nowhere passing, but skipped or missing somewhere).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/archmatrix.h"
#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/json.h"
#include "ltpscope/listparse.h"
#include "ltpscope/xmalloc.h"

#define AMX_WIDTH	80
#define AMX_CELL_MIN	7	/* "timeout", "not-run", "unknown" */
#define AMX_CELL_MAX	10

/* Column widths of the text table. */
struct amx_layout {
	int	tw;		/* test */
	int	sw;		/* syscall */
	int	cw;		/* each arch */
};

/* A status in a cell: the two long names shortened, absent "-". */
static const char *
cell_name(int s)
{
	if (s < 0)
		return "-";
	if (s == TS_SIGNALLED)
		return "signal";
	if (s == TS_INTERRUPTED)
		return "intr";
	return test_status_name((enum test_status)s);
}

/* s in w columns: cut with a '~' when longer. */
static void
put_cell(const char *s, int w, int last)
{
	int len = (int)strlen(s);

	if (len > w)
		printf("%.*s~", w - 1, s);
	else if (last)
		fputs(s, stdout);
	else
		printf("%-*s", w, s);
}

/* What snprintf() wrote into a buffer of size, the NUL aside. */
static size_t
amx_min(int len, size_t size)
{
	return len < 0 ? 0 : (size_t)len < size ? (size_t)len : size - 1;
}

static int
shown(const struct amx_row *r, int all)
{
	return all || r->scope != AMX_GOOD;
}

/*
 * Widths: each as its longest entry, then test and syscall cut down
 * (the test keeping at least two thirds) until the line fits.
 */
static void
amx_layout(const struct archmatrix *m, int all, struct amx_layout *lo)
{
	size_t i;
	int len, budget, share;

	lo->tw = 4;
	lo->sw = 7;
	lo->cw = AMX_CELL_MIN;
	for (i = 0; i < m->ncols; i++)
		if ((len = (int)strlen(m->cols[i].run.arch)) > lo->cw)
			lo->cw = len < AMX_CELL_MAX ? len : AMX_CELL_MAX;
	for (i = 0; i < m->nrows; i++) {
		if (!shown(&m->rows[i], all))
			continue;
		if ((len = (int)strlen(m->rows[i].tag)) > lo->tw)
			lo->tw = len;
		if ((len = (int)strlen(m->rows[i].syscall)) > lo->sw)
			lo->sw = len;
	}
	/* Many arches: narrower cells first ("bro~"), down to "fail". */
	while ((budget = AMX_WIDTH - 1 - 2 - 2 - (int)m->ncols *
	    (lo->cw + 1)) < 8 + 6 && lo->cw > 4)
		lo->cw--;
	if (lo->tw + lo->sw <= budget)
		return;
	share = budget * 2 / 3 > budget - lo->sw ? budget * 2 / 3 :
	    budget - lo->sw;
	if (lo->tw > share)
		lo->tw = share;
	lo->sw = budget - lo->tw;
	if (lo->tw < 8)
		lo->tw = 8;
	if (lo->sw < 6)
		lo->sw = 6;
}

static void
amx_text_row(const struct archmatrix *m, const struct amx_layout *lo,
    const char *tag, const char *sys, const int *status)
{
	size_t c;

	fputs("  ", stdout);
	put_cell(cli_field(tag), lo->tw, 0);
	putchar(' ');
	put_cell(cli_field(sys), lo->sw, 0);
	for (c = 0; c < m->ncols; c++) {
		putchar(' ');
		put_cell(cell_name(status[c]), lo->cw, c + 1 == m->ncols);
	}
	putchar('\n');
}

/* A line of per-arch counts under the matrix. */
static void
amx_text_counts(const struct archmatrix *m, const struct amx_layout *lo,
    const char *what, int only)
{
	char n[32];
	size_t c;

	printf("  %-*s", lo->tw + 1 + lo->sw, what);
	for (c = 0; c < m->ncols; c++) {
		(void)snprintf(n, sizeof(n), "%u", only ? m->cols[c].nonly :
		    m->cols[c].nbad);
		putchar(' ');
		put_cell(n, lo->cw, c + 1 == m->ncols);
	}
	putchar('\n');
}

static void
amx_text(const struct archmatrix *m, int picked, int all)
{
	static const struct {
		enum amx_scope	 scope;
		const char	*title;
	} groups[] = {
		{ AMX_SPECIFIC, "arch-specific (failing on some arches, "
		    "passing on another)" },
		{ AMX_EVERY, "failing on every arch" },
		{ AMX_UNSURE, "unsure (failing where judged; skipped, not run "
		    "or missing elsewhere)" },
		{ AMX_GOOD, "passing everywhere" },
	};
	struct amx_layout lo;
	const struct store_run *r;
	char line[1024];
	size_t c, g, i, len;

	amx_layout(m, all, &lo);
	printf("%s:\n", picked ? "Runs compared" : "The newest finished run "
	    "of each arch");
	for (c = 0; c < m->ncols; c++) {
		r = &m->cols[c].run;
		/* cli_field() has two buffers: two fields a call. */
		len = snprintf(line, sizeof(line), "  %-*s run %-5" PRId64
		    " %s", lo.cw, cli_field(r->arch), r->id,
		    cli_field(r->os_name));
		len = amx_min(len, sizeof(line));
		len += snprintf(line + len, sizeof(line) - len, " %s, LTP %s",
		    cli_field(r->os_version),
		    cli_field(r->ltp_version));
		len = amx_min(len, sizeof(line));
		(void)snprintf(line + len, sizeof(line) - len, "%s%s",
		    r->label[0] != '\0' ? "  " : "", cli_field(r->label));
		put_cell(line, AMX_WIDTH - 1, 1);
		putchar('\n');
	}
	putchar('\n');
	fputs("  ", stdout);
	put_cell("TEST", lo.tw, 0);
	putchar(' ');
	put_cell("SYSCALL", lo.sw, 0);
	for (c = 0; c < m->ncols; c++) {
		putchar(' ');
		put_cell(cli_field(m->cols[c].run.arch), lo.cw,
		    c + 1 == m->ncols);
	}
	putchar('\n');
	for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		if (m->counts[groups[g].scope] == 0 ||
		    (groups[g].scope == AMX_GOOD && !all))
			continue;
		printf("\n%s:\n", groups[g].title);
		for (i = 0; i < m->nrows; i++)
			if (m->rows[i].scope == groups[g].scope)
				amx_text_row(m, &lo, m->rows[i].tag,
				    m->rows[i].syscall, m->rows[i].status);
	}
	if (m->counts[AMX_SPECIFIC] + m->counts[AMX_EVERY] +
	    m->counts[AMX_UNSURE] == 0)
		puts("  (no test fails on any arch)");
	putchar('\n');
	amx_text_counts(m, &lo, "failing", 0);
	amx_text_counts(m, &lo, "only here", 1);
	printf("\nRESULTS\n");
	for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++)
		printf("%-17s %u\n", amx_scope_name(groups[g].scope),
		    m->counts[groups[g].scope]);
}

static void
json_str(const char *s)
{
	json_write_str(stdout, s, strlen(s), JSON_W_LONE_DC);
}

static void
amx_json(const struct archmatrix *m, int all)
{
	const struct amx_row *r;
	const struct store_run *run;
	size_t c, i, first = 1, k;
	int s;

	printf("{\"arches\": [");
	for (c = 0; c < m->ncols; c++) {
		run = &m->cols[c].run;
		printf("%s\n  {\"arch\": ", c > 0 ? "," : "");
		json_str(run->arch);
		printf(", \"run\": %" PRId64 ", \"os_name\": ", run->id);
		json_str(run->os_name);
		printf(", \"os_version\": ");
		json_str(run->os_version);
		printf(", \"ltp_version\": ");
		json_str(run->ltp_version);
		printf(", \"label\": ");
		json_str(run->label);
		printf(", \"failing\": %u, \"failing_here_only\": %u}",
		    m->cols[c].nbad, m->cols[c].nonly);
	}
	printf("],\n \"counts\": {");
	for (k = 0; k < AMX__COUNT; k++)
		printf("%s\"%s\": %u", k > 0 ? ", " : "",
		    amx_scope_name((enum amx_scope)k), m->counts[k]);
	printf("},\n \"tests\": [");
	for (i = 0; i < m->nrows; i++) {
		r = &m->rows[i];
		if (!shown(r, all))
			continue;
		printf("%s\n  {\"test\": ", first ? "" : ",");
		first = 0;
		json_str(r->tag);
		printf(", \"syscall\": ");
		json_str(r->syscall);
		printf(", \"scope\": \"%s\", \"status\": {",
		    amx_scope_name(r->scope));
		for (c = 0; c < m->ncols; c++) {
			printf("%s", c > 0 ? ", " : "");
			json_str(m->cols[c].run.arch);
			if ((s = r->status[c]) >= 0)
				printf(": \"%s\"", test_status_name(
				    (enum test_status)s));
			else
				printf(": null");
		}
		printf("}, \"failing_on\": [");
		for (c = 0, k = 0; c < m->ncols; c++) {
			if ((s = r->status[c]) < 0 ||
			    !test_status_is_bad((enum test_status)s))
				continue;
			printf("%s", k++ > 0 ? ", " : "");
			json_str(m->cols[c].run.arch);
		}
		printf("]}");
	}
	printf("%s]}\n", first ? "" : "\n");
}

/* One word of the operands: a run number (or "last"), else an arch. */
static int
amx_parse_pick(struct store *st, const char *w, struct amx_pick *p)
{
	memset(p, 0, sizeof(*p));
	if (cli_is_run_word(w)) {
		if ((p->run_id = cli_run(st, w, "compare")) == 0)
			return -1;
		return 0;
	}
	p->arch = w;
	return 0;
}

int
cmd_compare_arch(struct store *st, const char *list, char **words,
    int nwords, int json, int all)
{
	struct archmatrix m;
	struct diaglist dl;
	struct amx_pick *picks = NULL;
	char **items = NULL, **v;
	size_t npicks = 0, nitems = 0, k, j;
	int i, n = nwords + (list != NULL), rv = 0;

	/* Every word is a list (listparse.h); the picks point into items. */
	for (i = 0; i < n; i++) {
		v = listparse_split(list != NULL ? (i == 0 ? list :
		    words[i - 1]) : words[i], &k);
		items = xreallocarray(items, nitems + k + 1, sizeof(*items));
		for (j = 0; j < k; j++)
			items[nitems++] = v[j];
		items[nitems] = NULL;
		free(v);
	}
	picks = xcalloc(nitems + 1, sizeof(*picks));
	for (k = 0; k < nitems && rv == 0; k++)
		if (amx_parse_pick(st, items[k], &picks[npicks]) != 0)
			rv = 1;
		else
			npicks++;
	diag_init(&dl);
	if (rv == 0 && archmatrix_build(st, 0, picks, npicks, &m, &dl) !=
	    STORE_OK)
		rv = 1;
	else if (rv == 0) {
		if (m.ncols < 2) {
			cli_error("compare", "%s: nothing to set beside "
			    "it%s", npicks > 0 ? "one arch "
			    "picked" : m.ncols == 0 ? "no finished run in the "
			    "database" : "finished runs of one arch only",
			    npicks > 0 ? "" : "; run the tests on boxes of "
			    "other arches too (run --host A --host B)");
			rv = 1;
		} else if (json)
			amx_json(&m, all);
		else
			amx_text(&m, npicks > 0, all);
		archmatrix_free(&m);
	}
	cli_diags(&dl);
	diag_free(&dl);
	xfreev(items);
	free(picks);
	return rv;
}
