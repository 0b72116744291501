/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shopping list as one self-contained HTML report (see export.h):
 * inline CSS, SVG charts and tables sorted in the page by an inline
 * script, nothing fetched.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ltpscope/textsafe.h"
#include "export_impl.h"

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

	if (!export_arch_columns(l))
		return;
	for (c = 0; c < l->arches.ncols; c++) {
		if (t == NULL) {
			fputs("<th class=\"col-arch\">", fp);
			html_text(fp, l->arches.cols[c].run.arch);
			fputs("</th>", fp);
			continue;
		}
		if ((st = export_arch_status(t, c))[0] == '\0') {
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
		fprintf(fp, "<td class=\"scope-%s\">%s</td>",
		    export_arch_scope(t), export_arch_scope(t));
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

void
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
