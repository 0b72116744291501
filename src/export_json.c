/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shopping list as JSON (see export.h for how bytes that are not
 * UTF-8 are kept).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ltpscope/json.h"
#include "export_impl.h"

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
		st = export_arch_status(t, c);
		fprintf(fp, "%s", c > 0 ? ", " : "");
		json_write_str(fp, l->arches.cols[c].run.arch,
		    strlen(l->arches.cols[c].run.arch), JSON_W_LONE_DC);
		if (st[0] != '\0')
			fprintf(fp, ": \"%s\"", st);
		else
			fputs(": null", fp);
	}
	fprintf(fp, "}, \"arch_scope\": \"%s\"", export_arch_scope(t));
}

void
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
	if (export_arch_columns(l))
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
			json_kv(fp, "source",
			    export_source_names[t->source], 1);
			json_kv(fp, "note", t->note, 1);
			json_kv(fp, "author", t->author, 1);
			json_kv(fp, "first_failing_line", t->first_line, 1);
			fprintf(fp, "\"flaky\": %s, \"linux\": ", t->flaky ?
			    "true" : "false");
			if (t->linux_status >= 0)
				fprintf(fp, "\"%s\"",
				    export_linux_name(t->linux_status));
			else
				fputs("null", fp);
			fprintf(fp, ", \"fails_on_linux\": %s", t->linux_too ?
			    "true" : "false");
			fprintf(fp, ", \"kernel_lines\": %u, \"kernel_marked\": "
			    "%s", t->kmsg_lines, t->kmsg_marked ? "true" :
			    "false");
			if (export_arch_columns(l))
				json_arch_cells(l, t, fp);
			json_refs(t, fp);
			putc('}', fp);
		}
		fputs("]}", fp);
	}
	fputs("\n]}\n", fp);
}
