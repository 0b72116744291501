/*
 * Writing the shopping list: CSV (RFC 4180), Markdown, JSON and one
 * self-contained HTML file with SVG bar charts (see export.h for the
 * byte-exactness each format promises).  The caller owns the stream.
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
export_csv(const struct shoplist *l, FILE *fp)
{
	static const char *const head[] = { "priority", "syscall",
	    "catalogue", "test", "status", "category", "source", "note",
	    "author", "first_failing_line", "flaky" };
	char prio[32];
	size_t i, j, k;

	for (k = 0; k < 11; k++)
		csv_field(fp, head[k], k == 10);
	for (i = 0; i < l->n; i++) {
		const struct shop_syscall *sc = &l->v[i];

		(void)snprintf(prio, sizeof(prio), "%lu", sc->priority);
		for (j = 0; j < sc->ntests; j++) {
			const struct shop_test *t = &sc->tests[j];

			csv_field(fp, prio, 0);
			csv_field(fp, sc->name, 0);
			csv_field(fp, sc->cat_state, 0);
			csv_field(fp, t->tag, 0);
			csv_field(fp, test_status_name(t->status), 0);
			csv_field(fp, t->category, 0);
			csv_field(fp, source_names[t->source], 0);
			csv_field(fp, t->note, 0);
			csv_field(fp, t->author, 0);
			csv_field(fp, t->first_line, 0);
			csv_field(fp, t->flaky ? "yes" : "no", 1);
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

static void
export_md(const struct shoplist *l, FILE *fp)
{
	size_t i, j;

	fprintf(fp, "# Shopping list: run %" PRId64 " (%s %s %s, LTP %s)\n\n",
	    l->run.id, l->run.os_name, l->run.os_version, l->run.arch,
	    l->run.ltp_version);
	fprintf(fp, "%zu failing tests in %zu syscalls, most pressing "
	    "first.\n", l->ntests, l->n);
	export_md_unlisted(l, fp);
	for (i = 0; i < l->n; i++) {
		const struct shop_syscall *sc = &l->v[i];

		fprintf(fp, "\n## %zu. %s\n\npriority %lu", i + 1, sc->name,
		    sc->priority);
		if (sc->cat_state[0] != '\0')
			fprintf(fp, ", catalogue: %s", sc->cat_state);
		fputs("\n\n", fp);
		for (j = 0; j < sc->ntests; j++) {
			const struct shop_test *t = &sc->tests[j];

			fprintf(fp, "- **%s** %s%s", t->tag,
			    test_status_name(t->status), t->flaky ?
			    " (flaky)" : "");
			if (t->category[0] != '\0')
				fprintf(fp, ", %s%s", t->category,
				    t->source == SHOP_SUGGESTED ?
				    " (suggested)" : "");
			if (t->first_line[0] != '\0') {
				fputs(": ", fp);
				md_code(fp, t->first_line);
			}
			putc('\n', fp);
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

static void
export_json(const struct shoplist *l, FILE *fp)
{
	size_t i, j;

	fprintf(fp, "{\"run\": {\"id\": %" PRId64 ", ", l->run.id);
	json_kv(fp, "os_name", l->run.os_name, 1);
	json_kv(fp, "os_version", l->run.os_version, 1);
	json_kv(fp, "arch", l->run.arch, 1);
	json_kv(fp, "ltp_version", l->run.ltp_version, 1);
	json_kv(fp, "label", l->run.label, 1);
	fprintf(fp, "\"env_warned\": %u, \"unknown\": %u", l->run.nenvmarked,
	    l->run.counts[TS_UNKNOWN]);
	fputs("},\n \"syscalls\": [", fp);
	for (i = 0; i < l->n; i++) {
		const struct shop_syscall *sc = &l->v[i];

		fprintf(fp, "%s\n  {", i > 0 ? "," : "");
		json_kv(fp, "name", sc->name, 1);
		json_kv(fp, "catalogue", sc->cat_state, 1);
		fprintf(fp, "\"rank\": %zu, \"priority\": %lu, \"tests\": [",
		    sc->rank, sc->priority);
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
			fprintf(fp, "\"flaky\": %s}", t->flaky ? "true" :
			    "false");
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

static void
export_html(const struct shoplist *l, FILE *fp)
{
	const char *snames[TS__COUNT];
	unsigned scounts[TS__COUNT];
	size_t i, j, ns = 0;

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta "
	    "charset=\"utf-8\">\n<title>ltpscope shopping list</title>\n"
	    "<style>\nbody{font-family:sans-serif;margin:2em;color:#222}\n"
	    "table{border-collapse:collapse;width:100%}\n"
	    "td,th{border:1px solid #ccc;padding:3px 6px;text-align:left;"
	    "vertical-align:top}\nth{background:#eee}\n"
	    ".bar{fill:#c0392b}\nsvg text{font-size:12px}\n"
	    ".note{white-space:pre-wrap}\ncode{font-size:90%}\n"
	    ".suggested{font-style:italic;color:#666}\n"
	    "figure{display:inline-block;margin:0 2em 1em 0}\n"
	    "</style></head>\n<body>\n", fp);
	fprintf(fp, "<h1>Shopping list: run %" PRId64 "</h1>\n<p>", l->run.id);
	html_text(fp, l->run.os_name);
	putc(' ', fp);
	html_text(fp, l->run.os_version);
	putc(' ', fp);
	html_text(fp, l->run.arch);
	fputs(", LTP ", fp);
	html_text(fp, l->run.ltp_version);
	fprintf(fp, ": %zu failing tests in %zu syscalls.", l->ntests,
	    l->n);
	export_unlisted(l, fp, " ", ".");
	fputs("</p>\n", fp);
	html_chart(fp, "chart-category", "Failing tests per category",
	    (const char *const *)l->catnames, l->catcounts, l->ncats);
	for (i = 0; i < TS__COUNT; i++)
		if (l->statuscounts[i] > 0) {
			snames[ns] = test_status_name(i);
			scounts[ns++] = l->statuscounts[i];
		}
	html_chart(fp, "chart-status", "Failing tests per status", snames,
	    scounts, ns);
	fputs("<table>\n<tr><th>#</th><th>syscall</th><th>catalogue</th>"
	    "<th>priority</th><th>test</th><th>status</th><th>category</th>"
	    "<th>note</th><th>first failing line</th></tr>\n", fp);
	for (i = 0; i < l->n; i++) {
		const struct shop_syscall *sc = &l->v[i];

		for (j = 0; j < sc->ntests; j++) {
			const struct shop_test *t = &sc->tests[j];

			fprintf(fp, "<tr><td>%zu</td><td>", i + 1);
			html_text(fp, sc->name);
			fputs("</td><td>", fp);
			html_text(fp, sc->cat_state);
			fprintf(fp, "</td><td>%lu</td><td>", sc->priority);
			html_text(fp, t->tag);
			fprintf(fp, "</td><td>%s%s</td><td%s>",
			    test_status_name(t->status), t->flaky ?
			    " (flaky)" : "",
			    t->source == SHOP_SUGGESTED ?
			    " class=\"suggested\"" : "");
			html_text(fp, t->category);
			fputs("</td><td class=\"note\">", fp);
			html_text(fp, t->note);
			fputs("</td><td><code>", fp);
			html_text(fp, t->first_line);
			fputs("</code></td></tr>\n", fp);
		}
	}
	fputs("</table>\n</body></html>\n", fp);
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
