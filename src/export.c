/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Writing the shopping list: CSV (RFC 4180), Markdown, JSON and one
 * self-contained HTML report with SVG charts and tables sorted in the
 * page (see export.h for the byte-exactness each format promises).
 * The caller owns the stream.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ltpscope/export.h"
#include "ltpscope/json.h"
#include "ltpscope/textsafe.h"

static const char *const source_names[] = { "", "suggested", "tagged" };

int
export_format_from_name(const char *s)
{
	if (strcmp(s, "csv") == 0)
		return EXPORT_CSV;
	if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0)
		return EXPORT_MD;
	if (strcmp(s, "json") == 0)
		return EXPORT_JSON;
	if (strcmp(s, "html") == 0)
		return EXPORT_HTML;
	return -1;
}

int
export_format_from_path(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot == NULL || strchr(dot, '/') != NULL)
		return -1;
	return export_format_from_name(dot + 1);
}

/* A status on the Linux reference; "" when it has none. */
static const char *
linux_name(int status)
{
	return status < 0 ? "" : test_status_name((enum test_status)status);
}

/* Whether the list shows a column per arch: the store has several. */
static int
arch_columns(const struct shoplist *l)
{
	return l->arches.ncols > 1;
}

/* A test's status on arch column c; "" when it has none there. */
static const char *
arch_status(const struct shop_test *t, size_t c)
{
	if (t->arch == NULL || t->arch->status[c] < 0)
		return "";
	return test_status_name((enum test_status)t->arch->status[c]);
}

static const char *
arch_scope(const struct shop_test *t)
{
	return t->arch != NULL ? amx_scope_name(t->arch->scope) : "";
}

static void
csv_field(FILE *fp, const char *s, int last)
{
	putc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			putc('"', fp);
		putc(*s, fp);
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
		csv_field(fp, t != NULL ? arch_status(t, c) :
		    l->arches.cols[c].run.arch, 0);
	csv_field(fp, t != NULL ? arch_scope(t) : "arch_scope", last);
}

static void
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
		    !arch_columns(l) && !l->kindexed);
	if (arch_columns(l))
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
			csv_field(fp, source_names[t->source], 0);
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
			csv_field(fp, linux_name(t->linux_status),
			    !l->weighted && !arch_columns(l) && !l->kindexed);
			if (arch_columns(l))
				csv_arches(fp, l, t, !l->weighted &&
				    !l->kindexed);
			if (l->weighted)
				csv_weight(fp, sc, !l->kindexed);
			if (l->kindexed)
				csv_kfunc(fp, sc);
		}
	}
}

/* Markdown inline code that survives backticks in the text. */
static void
md_code(FILE *fp, const char *s)
{
	const char *fence = strchr(s, '`') != NULL ? "`` " : "`";
	const char *end = strchr(s, '`') != NULL ? " ``" : "`";

	fprintf(fp, "%s%s%s", fence, s, end);
}

/*
 * ", linux_sys_fcntl (sys/.../linux_file.c:NNN)", a link with a URL;
 * nothing when the list was made without a kernel tree.
 */
static void
md_function(FILE *fp, const struct shoplist *l, const struct shop_syscall *sc)
{
	char url[2048];
	int link;

	/* Without a tree an item stays short: the name alone adds
	   little the catalogue does not say. */
	if (!l->kindexed || sc->function == NULL || sc->function[0] == '\0')
		return;
	link = shoplist_func_url(l, sc, url, sizeof(url));
	fprintf(fp, ", %s%s", link ? "[" : "", sc->function);
	if (sc->func_file[0] != '\0')
		fprintf(fp, " (%s:%lu)", sc->func_file, sc->func_line);
	if (link)
		fprintf(fp, "](%s)", url);
}

static void
md_indented(FILE *fp, const char *s)
{
	fputs("    > ", fp);
	for (; *s != '\0'; s++) {
		putc(*s, fp);
		if (*s == '\n' && s[1] != '\0')
			fputs("    > ", fp);
	}
	putc('\n', fp);
}

/*
 * What the list leaves out but a reader should know: passes and skips
 * whose only warnings were the environment's, and tests nobody can
 * judge (no result, no exit status).
 */
static void
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

static void
export_md_unlisted(const struct shoplist *l, FILE *fp)
{
	export_unlisted(l, fp, "\n", ".\n");
}

/* Which runs the arch columns are, and how many failures are one arch's. */
static void
md_arches(const struct shoplist *l, FILE *fp)
{
	unsigned n[AMX__COUNT];
	size_t i, j;

	memset(n, 0, sizeof(n));
	for (i = 0; i < l->n; i++)
		for (j = 0; j < l->v[i].ntests; j++)
			if (l->v[i].tests[j].arch != NULL)
				n[l->v[i].tests[j].arch->scope]++;
	fputs("Beside the newest finished run of every other arch:", fp);
	for (i = 1; i < l->arches.ncols; i++)
		fprintf(fp, "%s %s (run %" PRId64 ")", i > 1 ? "," : "",
		    l->arches.cols[i].run.arch, l->arches.cols[i].run.id);
	fprintf(fp, "; arch-specific (passing on another arch): %u of the "
	    "failing tests; failing on every arch: %u.\n", n[AMX_SPECIFIC],
	    n[AMX_EVERY]);
}

/* " (arch-specific: amd64 fail, i386 pass, evbarm -)" */
static void
md_arch_cells(const struct shoplist *l, const struct shop_test *t,
    FILE *fp)
{
	const char *st;
	size_t c;

	if (!arch_columns(l) || t->arch == NULL)
		return;
	fprintf(fp, " (%s:", arch_scope(t));
	for (c = 0; c < l->arches.ncols; c++) {
		st = arch_status(t, c);
		fprintf(fp, "%s %s %s", c > 0 ? "," : "",
		    l->arches.cols[c].run.arch, st[0] != '\0' ? st : "-");
	}
	putc(')', fp);
}

/*
 * What Linux changed: "  - checks [linux-git 086e774a57fb](URL)".  The
 * names and URLs are made of [0-9A-Za-z-] (ltpmeta_tag_url()) and the
 * template: nothing Markdown reads as markup but what is meant.
 */
static void
md_refs(const struct shop_test *t, FILE *fp)
{
	size_t i;

	if (t->nrefs == 0)
		return;
	fputs("  - checks", fp);
	for (i = 0; i < t->nrefs; i++) {
		fputs(i > 0 ? ", " : " ", fp);
		if (t->refs[i].url[0] != '\0')
			fprintf(fp, "[%s](<%s>)", t->refs[i].name,
			    t->refs[i].url);
		else
			md_code(fp, t->refs[i].name);
	}
	putc('\n', fp);
}

static void
export_md(const struct shoplist *l, FILE *fp)
{
	size_t i, j;

	if (l->run.id == 0)
		fprintf(fp, "# Shopping list: no run of %s yet\n\n%zu call%s "
		    "the profiles need %s not implemented, by the catalogue; "
		    "most needed first.\n", l->run.arch[0] != '\0' ?
		    l->run.arch : "any arch", l->n, l->n == 1 ? "" : "s",
		    l->n == 1 ? "is" : "are");
	else {
		fprintf(fp, "# Shopping list: run %" PRId64 " (%s %s %s, LTP "
		    "%s)\n\n", l->run.id, l->run.os_name, l->run.os_version,
		    l->run.arch, l->run.ltp_version);
		fprintf(fp, "%zu failing tests in %zu syscalls, most pressing "
		    "first.\n", l->ntests, l->n);
	}
	if (l->linux_run != 0)
		fprintf(fp, "Linux reference: run %" PRId64 "; %zu of the "
		    "failing tests fail there too, listed last.\n",
		    l->linux_run, l->nlinux);
	if (l->nkmarked > 0)
		fprintf(fp, "The kernel warned or was tainted after %zu "
		    "test%s of the run (`ltpscope show` marks them).\n",
		    l->nkmarked, l->nkmarked == 1 ? "" : "s");
	if (arch_columns(l))
		md_arches(l, fp);
	export_md_unlisted(l, fp);
	for (i = 0; i < l->n; i++) {
		const struct shop_syscall *sc = &l->v[i];

		fprintf(fp, "\n## %zu. %s\n\npriority %lu", i + 1, sc->name,
		    sc->priority);
		if (sc->cat_state[0] != '\0')
			fprintf(fp, ", catalogue: %s", sc->cat_state);
		if (l->weighted && sc->nprofiles > 0)
			fprintf(fp, ", needed by %u profile%s (%s), called %lu "
			    "time%s", sc->nprofiles, sc->nprofiles == 1 ? "" :
			    "s", sc->profiles, sc->ncalls,
			    sc->ncalls == 1 ? "" : "s");
		else if (l->weighted)
			fputs(", needed by no profile", fp);
		if (l->weighted && sc->nresults == 0)
			fputs(", no LTP results yet", fp);
		fputs("\n\n", fp);
		for (j = 0; j < sc->ntests; j++) {
			const struct shop_test *t = &sc->tests[j];

			fprintf(fp, "- **%s** %s%s%s%s", t->tag,
			    test_status_name(t->status), t->flaky ?
			    " (flaky)" : "", t->linux_too ?
			    " (fails on Linux too)" : "", t->kmsg_marked ?
			    " (the kernel warned)" : "");
			md_arch_cells(l, t, fp);
			if (t->category[0] != '\0')
				fprintf(fp, ", %s%s", t->category,
				    t->source == SHOP_SUGGESTED ?
				    " (suggested)" : "");
			md_function(fp, l, sc);
			if (t->first_line[0] != '\0') {
				fputs(": ", fp);
				md_code(fp, t->first_line);
			}
			putc('\n', fp);
			md_refs(t, fp);
			if (t->note[0] != '\0')
				md_indented(fp, t->note);
		}
	}
}

static void
json_kv(FILE *fp, const char *k, const char *v, int comma)
{
	fprintf(fp, "\"%s\": ", k);
	json_write_str(fp, v, strlen(v), JSON_W_LONE_DC);
	if (comma)
		fputs(", ", fp);
}

/*
 * The test's tags in LTP's metadata, what Linux changed:
 * ", "tags": [{"kind": ..., "value": ..., "url": ...}]"
 */
static void
json_refs(const struct shop_test *t, FILE *fp)
{
	size_t i;

	/* Only when there are: the objects stay as they were without. */
	if (t->nrefs == 0)
		return;
	fputs(", \"tags\": [", fp);
	for (i = 0; i < t->nrefs; i++) {
		fputs(i > 0 ? ", {" : "{", fp);
		json_kv(fp, "kind", t->refs[i].kind, 1);
		json_kv(fp, "value", t->refs[i].value, 1);
		fputs("\"url\": ", fp);
		if (t->refs[i].url[0] != '\0')
			json_write_str(fp, t->refs[i].url,
			    strlen(t->refs[i].url), JSON_W_LONE_DC);
		else
			fputs("null", fp);
		putc('}', fp);
	}
	putc(']', fp);
}

/* The arch columns' runs: "arches": [{"arch": ..., "run": N}, ...], */
static void
json_arch_runs(const struct shoplist *l, FILE *fp)
{
	const struct store_run *r;
	size_t c;

	fputs(",\n \"arches\": [", fp);
	for (c = 0; c < l->arches.ncols; c++) {
		r = &l->arches.cols[c].run;
		fprintf(fp, "%s{", c > 0 ? ", " : "");
		json_kv(fp, "arch", r->arch, 1);
		fprintf(fp, "\"run\": %" PRId64 ", ", r->id);
		json_kv(fp, "os_name", r->os_name, 1);
		json_kv(fp, "os_version", r->os_version, 0);
		putc('}', fp);
	}
	putc(']', fp);
}

/* A test's status per arch (null: no result) and its scope. */
static void
json_arch_cells(const struct shoplist *l, const struct shop_test *t,
    FILE *fp)
{
	const char *st;
	size_t c;

	fputs(", \"arches\": {", fp);
	for (c = 0; c < l->arches.ncols; c++) {
		st = arch_status(t, c);
		fprintf(fp, "%s", c > 0 ? ", " : "");
		json_write_str(fp, l->arches.cols[c].run.arch,
		    strlen(l->arches.cols[c].run.arch), JSON_W_LONE_DC);
		if (st[0] != '\0')
			fprintf(fp, ": \"%s\"", st);
		else
			fputs(": null", fp);
	}
	fprintf(fp, "}, \"arch_scope\": \"%s\"", arch_scope(t));
}

static void
export_json(const struct shoplist *l, FILE *fp)
{
	size_t i, j;

	if (l->run.id != 0)
		fprintf(fp, "{\"run\": {\"id\": %" PRId64 ", ", l->run.id);
	else
		fputs("{\"run\": {\"id\": null, ", fp);
	json_kv(fp, "os_name", l->run.os_name, 1);
	json_kv(fp, "os_version", l->run.os_version, 1);
	json_kv(fp, "arch", l->run.arch, 1);
	json_kv(fp, "ltp_version", l->run.ltp_version, 1);
	json_kv(fp, "label", l->run.label, 1);
	fprintf(fp, "\"env_warned\": %u, \"kernel_marked\": %zu, "
	    "\"unknown\": %u, \"linux_run\": ", l->run.nenvmarked,
	    l->nkmarked, l->run.counts[TS_UNKNOWN]);
	if (l->linux_run != 0)
		fprintf(fp, "%" PRId64, l->linux_run);
	else
		fputs("null", fp);
	putc('}', fp);
	if (arch_columns(l))
		json_arch_runs(l, fp);
	fputs(",\n \"syscalls\": [", fp);
	for (i = 0; i < l->n; i++) {
		const struct shop_syscall *sc = &l->v[i];

		fprintf(fp, "%s\n  {", i > 0 ? "," : "");
		json_kv(fp, "name", sc->name, 1);
		json_kv(fp, "catalogue", sc->cat_state, 1);
		if (l->weighted) {
			fprintf(fp, "\"profiles\": %u, \"profile_calls\": "
			    "%lu, ", sc->nprofiles, sc->ncalls);
			json_kv(fp, "needed_by", sc->profiles != NULL ?
			    sc->profiles : "", 1);
			fprintf(fp, "\"ltp_results\": %u, ", sc->nresults);
		}
		json_kv(fp, "function", sc->function, 1);
		json_kv(fp, "function_file", sc->func_file, 1);
		fprintf(fp, "\"function_line\": %lu, ", sc->func_line);
		fprintf(fp, "\"rank\": %zu, \"priority\": %lu, "
		    "\"fails_on_linux\": %zu, \"tests\": [", sc->rank,
		    sc->priority, sc->nlinux);
		for (j = 0; j < sc->ntests; j++) {
			const struct shop_test *t = &sc->tests[j];

			fprintf(fp, "%s\n    {", j > 0 ? "," : "");
			json_kv(fp, "test", t->tag, 1);
			json_kv(fp, "status", test_status_name(t->status), 1);
			json_kv(fp, "category", t->category, 1);
			json_kv(fp, "source", source_names[t->source], 1);
			json_kv(fp, "note", t->note, 1);
			json_kv(fp, "author", t->author, 1);
			json_kv(fp, "first_failing_line", t->first_line, 1);
			fprintf(fp, "\"flaky\": %s, \"linux\": ", t->flaky ?
			    "true" : "false");
			if (t->linux_status >= 0)
				fprintf(fp, "\"%s\"",
				    linux_name(t->linux_status));
			else
				fputs("null", fp);
			fprintf(fp, ", \"fails_on_linux\": %s", t->linux_too ?
			    "true" : "false");
			fprintf(fp, ", \"kernel_lines\": %u, \"kernel_marked\": "
			    "%s", t->kmsg_lines, t->kmsg_marked ? "true" :
			    "false");
			if (arch_columns(l))
				json_arch_cells(l, t, fp);
			json_refs(t, fp);
			putc('}', fp);
		}
		fputs("]}", fp);
	}
	fputs("\n]}\n", fp);
}

static void
html_text(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len = strlen(s), i = 0, n;
	unsigned long cp;

	while (i < len) {
		if ((n = textsafe_utf8_decode(s + i, len - i, &cp)) == 0) {
			fputs("&#xfffd;", fp);
			i++;
			continue;
		}
		if (n == 1) {
			switch (p[i]) {
			case '<':
				fputs("&lt;", fp);
				break;
			case '>':
				fputs("&gt;", fp);
				break;
			case '&':
				fputs("&amp;", fp);
				break;
			case '"':
				fputs("&quot;", fp);
				break;
			case '\'':
				fputs("&#39;", fp);
				break;
			default:
				if ((p[i] < 0x20 && p[i] != '\n' &&
				    p[i] != '\t') || p[i] == 0x7f)
					fputs("&#xfffd;", fp);
				else
					putc(p[i], fp);
			}
		} else
			fwrite(p + i, 1, n, fp);
		i += n;
	}
}

/* A horizontal bar chart: one labelled bar per (name, count). */
static void
html_chart(FILE *fp, const char *id, const char *title,
    const char *const *names, const unsigned *counts, size_t n)
{
	unsigned max = 1;
	size_t i;
	int h = (int)n * 22 + 30;

	for (i = 0; i < n; i++)
		if (counts[i] > max)
			max = counts[i];
	fprintf(fp, "<figure><figcaption>%s</figcaption>\n<svg "
	    "xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" width=\"520\" "
	    "height=\"%d\" role=\"img\">\n", title, id, h);
	for (i = 0; i < n; i++) {
		int y = (int)i * 22 + 10;
		int w = (int)(300.0 * counts[i] / max);

		fprintf(fp, "<text x=\"150\" y=\"%d\" text-anchor=\"end\">",
		    y + 14);
		html_text(fp, names[i][0] != '\0' ? names[i] : "(none)");
		fprintf(fp, "</text><rect class=\"bar\" x=\"160\" y=\"%d\" "
		    "width=\"%d\" height=\"18\"/><text x=\"%d\" y=\"%d\">%u"
		    "</text>\n", y, w > 0 ? w : 1, 166 + w, y + 14,
		    counts[i]);
	}
	fputs("</svg></figure>\n", fp);
}

/*
 * The pass counts of the last runs as a line chart, oldest left; each
 * point says its run and count, in a title a browser shows on hover.
 */
static void
html_history(FILE *fp, const struct shoplist *l)
{
	unsigned max = 1;
	size_t i;
	int x, y, step;

	for (i = 0; i < l->nhistory; i++)
		if (l->history[i].ran > max)
			max = l->history[i].ran;
	step = l->nhistory > 1 ? 440 / (int)(l->nhistory - 1) : 0;
	fputs("<figure><figcaption>Tests passed in the last runs"
	    "</figcaption>\n<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "id=\"chart-history\" width=\"520\" height=\"170\" "
	    "role=\"img\">\n<line class=\"axis\" x1=\"40\" y1=\"140\" "
	    "x2=\"500\" y2=\"140\"/>\n<polyline class=\"line\" points=\"",
	    fp);
	for (i = 0; i < l->nhistory; i++)
		fprintf(fp, "%s%d,%d", i > 0 ? " " : "", 50 + (int)i * step,
		    140 - (int)(110.0 * l->history[i].passed / max));
	fputs("\"/>\n", fp);
	for (i = 0; i < l->nhistory; i++) {
		x = 50 + (int)i * step;
		y = 140 - (int)(110.0 * l->history[i].passed / max);
		fprintf(fp, "<circle class=\"point\" cx=\"%d\" cy=\"%d\" "
		    "r=\"3\" data-run=\"%" PRId64 "\" data-passed=\"%u\">"
		    "<title>run %" PRId64 ": %u of %u passed</title>"
		    "</circle><text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
		    "%u</text><text x=\"%d\" y=\"158\" text-anchor=\"middle\">"
		    "run %" PRId64 "</text>\n", x, y, l->history[i].run_id,
		    l->history[i].passed, l->history[i].run_id,
		    l->history[i].passed, l->history[i].ran, x, y - 6,
		    l->history[i].passed, x, l->history[i].run_id);
	}
	fputs("</svg></figure>\n", fp);
}

static const struct shop_syscall *
html_find_syscall(const struct shoplist *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i].name, name) == 0)
			return &l->v[i];
	return NULL;
}

/* A column's heading: the run, its system and arch. */
static void
html_column_head(FILE *fp, const struct shop_column *c)
{
	fprintf(fp, "<th class=\"%s\">%s", c->linux_ref ? "col-linux" :
	    "col-run", c->linux_ref ? "Linux reference<br>" : "");
	fprintf(fp, "run %" PRId64 "<br>", c->run_id);
	html_text(fp, c->os_name);
	putc(' ', fp);
	html_text(fp, c->arch);
	fputs("</th>", fp);
}

/* How many profiles need a syscall and how often they call it. */
static void
html_weight_cells(FILE *fp, const struct shop_row *r)
{
	fprintf(fp, "<td data-v=\"%u\" class=\"weight\">%u</td>"
	    "<td data-v=\"%lu\" class=\"weight\">%lu</td>", r->nprofiles,
	    r->nprofiles, r->ncalls, r->ncalls);
}

/* The call's function and file:line, a link with a source-url. */
static void
html_function(FILE *fp, const struct shoplist *l,
    const struct shop_syscall *sc)
{
	char url[2048], at[1100];
	int link = shoplist_func_url(l, sc, url, sizeof(url));

	if (link) {
		fputs("<a href=\"", fp);
		html_text(fp, url);
		fputs("\">", fp);
	}
	html_text(fp, sc->function);
	if (sc->func_file[0] != '\0') {
		(void)snprintf(at, sizeof(at), " (%s:%lu)", sc->func_file,
		    sc->func_line);
		html_text(fp, at);
	}
	if (link)
		fputs("</a>", fp);
}

/* One syscall a row: its place on the list and each column's passes. */
static void
html_syscall_table(FILE *fp, const struct shoplist *l)
{
	const struct shop_syscall *sc;
	const struct shop_row *r;
	size_t i, c;

	fputs("<h2>Per syscall</h2>\n<p class=\"hint\">Click a heading to "
	    "sort.  A cell says tests passed of tests run.</p>\n"
	    "<table id=\"syscalls\" class=\"sortable\">\n<thead><tr>"
	    "<th>syscall</th><th>catalogue</th><th>function</th>"
	    "<th>priority</th>"
	    "<th>failing</th><th>fails on Linux too</th>", fp);
	if (l->weighted)
		fputs("<th class=\"weight\">programs needing it</th>"
		    "<th class=\"weight\">calls</th>", fp);
	for (c = 0; c < l->ncols; c++)
		html_column_head(fp, &l->cols[c]);
	fputs("</tr></thead>\n<tbody>\n", fp);
	for (i = 0; i < l->nrows; i++) {
		r = &l->rows[i];
		sc = html_find_syscall(l, r->name);
		fputs("<tr><td>", fp);
		html_text(fp, r->name);
		fputs("</td><td>", fp);
		html_text(fp, sc != NULL ? sc->cat_state : "");
		fputs("</td><td>", fp);
		if (sc != NULL)
			html_function(fp, l, sc);
		fprintf(fp, "</td><td data-v=\"%lu\">%lu</td>", sc != NULL ?
		    sc->priority : 0, sc != NULL ? sc->priority : 0);
		if (l->weighted && sc != NULL && sc->nresults == 0)
			fputs("<td data-v=\"0\" class=\"noresults\">no LTP "
			    "results yet</td>", fp);
		else
			fprintf(fp, "<td data-v=\"%zu\">%zu</td>", sc != NULL ?
			    sc->ntests : 0, sc != NULL ? sc->ntests : 0);
		fprintf(fp, "<td data-v=\"%zu\">%zu</td>", sc != NULL ?
		    sc->nlinux : 0, sc != NULL ? sc->nlinux : 0);
		if (l->weighted)
			html_weight_cells(fp, r);
		for (c = 0; c < l->ncols; c++) {
			if (r->ran[c] == 0) {
				fputs("<td data-v=\"-1\">-</td>", fp);
				continue;
			}
			fprintf(fp, "<td data-v=\"%.4f\" class=\"%s\">%u/%u"
			    "</td>", (double)r->passed[c] / r->ran[c],
			    r->passed[c] == r->ran[c] ? "allpass" : "somefail",
			    r->passed[c], r->ran[c]);
		}
		fputs("</tr>\n", fp);
	}
	fputs("</tbody></table>\n", fp);
}

/*
 * With several arches, a test's status on each and where it fails
 * ("arch-specific" when it passes on another arch); the headings when
 * t is NULL.
 */
static void
html_arch_cells(FILE *fp, const struct shoplist *l,
    const struct shop_test *t)
{
	const char *st;
	size_t c;
	int s;

	if (!arch_columns(l))
		return;
	for (c = 0; c < l->arches.ncols; c++) {
		if (t == NULL) {
			fputs("<th class=\"col-arch\">", fp);
			html_text(fp, l->arches.cols[c].run.arch);
			fputs("</th>", fp);
			continue;
		}
		if ((st = arch_status(t, c))[0] == '\0') {
			fputs("<td>-</td>", fp);
			continue;
		}
		s = t->arch->status[c];
		fprintf(fp, "<td%s>%s</td>", amx_status_good(s) ?
		    " class=\"allpass\"" :
		    test_status_is_bad((enum test_status)s) ?
		    " class=\"somefail\"" : "", st);
	}
	if (t == NULL)
		fputs("<th>arches</th>", fp);
	else
		fprintf(fp, "<td class=\"scope-%s\">%s</td>", arch_scope(t),
		    arch_scope(t));
}

/* Under the test's name, links to what Linux changed. */
static void
html_refs(FILE *fp, const struct shop_test *t)
{
	size_t i;

	for (i = 0; i < t->nrefs; i++) {
		fputs(i == 0 ? "<br><small>" : ", ", fp);
		if (t->refs[i].url[0] != '\0') {
			fputs("<a href=\"", fp);
			html_text(fp, t->refs[i].url);
			fputs("\">", fp);
			html_text(fp, t->refs[i].name);
			fputs("</a>", fp);
		} else
			html_text(fp, t->refs[i].name);
	}
	if (t->nrefs > 0)
		fputs("</small>", fp);
}

static void
html_test_table(FILE *fp, const struct shoplist *l)
{
	size_t i, j;

	fputs("<h2>Failing tests, most pressing first</h2>\n"
	    "<table id=\"tests\" class=\"sortable\">\n<thead><tr><th>#</th>"
	    "<th>syscall</th><th>catalogue</th><th>function</th>"
	    "<th>priority</th>"
	    "<th>test</th><th>status</th><th>Linux</th>", fp);
	html_arch_cells(fp, l, NULL);
	fputs("<th>category</th>"
	    "<th>note</th><th>first failing line</th></tr></thead>\n"
	    "<tbody>\n", fp);
	for (i = 0; i < l->n; i++) {
		const struct shop_syscall *sc = &l->v[i];

		for (j = 0; j < sc->ntests; j++) {
			const struct shop_test *t = &sc->tests[j];

			fprintf(fp, "<tr%s><td data-v=\"%zu\">%zu</td><td>",
			    t->linux_too ? " class=\"linux-too\"" : "", i + 1,
			    i + 1);
			html_text(fp, sc->name);
			fputs("</td><td>", fp);
			html_text(fp, sc->cat_state);
			fputs("</td><td>", fp);
			html_function(fp, l, sc);
			fprintf(fp, "</td><td data-v=\"%lu\">%lu</td><td>",
			    sc->priority, sc->priority);
			html_text(fp, t->tag);
			html_refs(fp, t);
			fprintf(fp, "</td><td>%s%s%s</td><td>%s%s</td>",
			    test_status_name(t->status), t->flaky ?
			    " (flaky)" : "", t->kmsg_marked ? " <span "
			    "class=\"kernel\">(the kernel warned)</span>" :
			    "", t->linux_status >= 0 ?
			    test_status_name((enum test_status)
			    t->linux_status) : "-", t->linux_too ?
			    " (fails on Linux too)" : "");
			html_arch_cells(fp, l, t);
			fprintf(fp, "<td%s>", t->source == SHOP_SUGGESTED ?
			    " class=\"suggested\"" : "");
			html_text(fp, t->category);
			fputs("</td><td class=\"note\">", fp);
			html_text(fp, t->note);
			fputs("</td><td><code>", fp);
			html_text(fp, t->first_line);
			fputs("</code></td></tr>\n", fp);
		}
	}
	fputs("</tbody></table>\n", fp);
}

/*
 * Sorting in the page, so that the file stays one file: a click on a
 * heading sorts by that column (by its data-v numbers, else the text),
 * a second click the other way.  No '<' or '>' in it: the page stays
 * easy to check as balanced markup.
 */
static const char html_sort_script[] =
    "<script>\n"
    "(function () {\n"
    "function key(c) {\n"
    "  var v = c.getAttribute('data-v');\n"
    "  return v !== null ? parseFloat(v) : c.textContent.toLowerCase();\n"
    "}\n"
    "function cmp(a, c) {\n"
    "  return typeof a === 'number' ? a - c : a.localeCompare(c);\n"
    "}\n"
    "function sortBy(t, th, i) {\n"
    "  var b = t.tBodies[0], rows = Array.prototype.slice.call(b.rows);\n"
    "  var up = th.getAttribute('aria-sort') !== 'ascending';\n"
    "  Array.prototype.forEach.call(t.tHead.rows[0].cells, function (h) {\n"
    "    h.removeAttribute('aria-sort');\n"
    "  });\n"
    "  th.setAttribute('aria-sort', up ? 'ascending' : 'descending');\n"
    "  rows.sort(function (x, y) {\n"
    "    var d = cmp(key(x.cells[i]), key(y.cells[i]));\n"
    "    return up ? d : -d;\n"
    "  });\n"
    "  rows.forEach(function (r) { b.appendChild(r); });\n"
    "}\n"
    "Array.prototype.forEach.call(document.querySelectorAll("
    "'table.sortable'), function (t) {\n"
    "  Array.prototype.forEach.call(t.tHead.rows[0].cells, "
    "function (th, i) {\n"
    "    th.addEventListener('click', function () { sortBy(t, th, i); });\n"
    "  });\n"
    "});\n"
    "})();\n"
    "</script>\n";

/* The report's heading and what it is of: the run. */
static void
html_run_intro(FILE *fp, const struct shoplist *l)
{
	fprintf(fp, "<h1>ltpscope report: run %" PRId64 "</h1>\n<p>",
	    l->run.id);
	html_text(fp, l->run.os_name);
	putc(' ', fp);
	html_text(fp, l->run.os_version);
	putc(' ', fp);
	html_text(fp, l->run.arch);
	fputs(", LTP ", fp);
	html_text(fp, l->run.ltp_version);
	fprintf(fp, ": %zu failing tests in %zu syscalls.", l->ntests,
	    l->n);
	if (l->linux_run != 0)
		fprintf(fp, " Linux reference: run %" PRId64 "; <span "
		    "id=\"linux-too\">%zu</span> of the failing tests fail "
		    "there too, listed last.", l->linux_run, l->nlinux);
	else
		fputs(" No Linux reference run for this arch.", fp);
	if (l->nkmarked > 0)
		fprintf(fp, " The kernel warned or was tainted after <span "
		    "id=\"kernel-marked\">%zu</span> test%s of the run.",
		    l->nkmarked, l->nkmarked == 1 ? "" : "s");
	export_unlisted(l, fp, " ", ".");
	fputs("</p>\n", fp);
}

/* The same before any run: the profiles' needs, from the catalogue. */
static void
html_no_run(FILE *fp, const struct shoplist *l)
{
	fputs("<h1>ltpscope report: no run yet</h1>\n<p>", fp);
	html_text(fp, l->run.arch[0] != '\0' ? l->run.arch : "any arch");
	fprintf(fp, ": %zu call%s the profiles need %s not implemented, by "
	    "the catalogue; no LTP results yet.</p>\n", l->n, l->n == 1 ?
	    "" : "s", l->n == 1 ? "is" : "are");
}

static void
export_html(const struct shoplist *l, FILE *fp)
{
	const char *snames[TS__COUNT];
	unsigned scounts[TS__COUNT];
	size_t i, ns = 0;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\">\n<title>ltpscope report</title>\n"
	    "<style>\nbody{font-family:sans-serif;margin:2em;color:#222}\n"
	    "table{border-collapse:collapse;width:100%;margin-bottom:2em}\n"
	    "td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;"
	    "vertical-align:top}\nth{background:#eee;cursor:pointer}\n"
	    "th[aria-sort=ascending]::after{content:\" \\25B2\"}\n"
	    "th[aria-sort=descending]::after{content:\" \\25BC\"}\n"
	    ".bar{fill:#c0392b}\nsvg text{font-size:12px}\n"
	    ".line{fill:none;stroke:#2471a3;stroke-width:2}\n"
	    ".point{fill:#2471a3}\n.axis{stroke:#999}\n"
	    ".note{white-space:pre-wrap}\ncode{font-size:90%}\n"
	    ".suggested{font-style:italic;color:#666}\n"
	    ".linux-too{color:#888}\n.kernel{color:#a04000}\n"
	    ".allpass{background:#e8f6e8}\n"
	    ".somefail{background:#fbeaea}\n.col-linux{background:#e8eef8}\n"
	    ".hint{color:#666;font-size:90%}\n.noresults{color:#a04000}\n"
	    "figure{display:inline-block;margin:0 2em 1em 0;"
	    "vertical-align:top}\n</style></head>\n<body>\n", fp);
	if (l->run.id == 0)
		html_no_run(fp, l);
	else
		html_run_intro(fp, l);
	html_chart(fp, "chart-category", "Failing tests per category",
	    (const char *const *)l->catnames, l->catcounts, l->ncats);
	for (i = 0; i < TS__COUNT; i++)
		if (l->statuscounts[i] > 0) {
			snames[ns] = test_status_name(i);
			scounts[ns++] = l->statuscounts[i];
		}
	html_chart(fp, "chart-status", "Failing tests per status", snames,
	    scounts, ns);
	html_history(fp, l);
	html_syscall_table(fp, l);
	html_test_table(fp, l);
	fputs(html_sort_script, fp);
	fputs("</body></html>\n", fp);
}

int
export_write(const struct shoplist *l, enum export_format f, FILE *fp)
{
	switch (f) {
	case EXPORT_CSV:
		export_csv(l, fp);
		break;
	case EXPORT_MD:
		export_md(l, fp);
		break;
	case EXPORT_JSON:
		export_json(l, fp);
		break;
	case EXPORT_HTML:
		export_html(l, fp);
		break;
	}
	if (fflush(fp) != 0 || ferror(fp))
		return -1;
	return 0;
}
