/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shopping list as Markdown for a mailing list (see export.h): a
 * section per syscall, a list item per test, notes as indented text.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "export_impl.h"

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

	if (!export_arch_columns(l) || t->arch == NULL)
		return;
	fprintf(fp, " (%s:", export_arch_scope(t));
	for (c = 0; c < l->arches.ncols; c++) {
		st = export_arch_status(t, c);
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

void
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
	if (export_arch_columns(l))
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
