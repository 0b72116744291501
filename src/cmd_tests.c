/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "ltpscope tests": list the LTP tests of an install, with the syscalls
 * each exercises and the command line that starts it, selected by
 * syscall (-s), pattern (-p) or tag.  With LTP's metadata, --doc adds
 * what each test checks and the Linux commits or CVEs it is about; the
 * JSON output always carries them.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cmd.h"
#include "ltpscope/json.h"
#include "ltpscope/ltpindex.h"
#include "ltpscope/ltpmeta.h"
#include "ltpscope/storecli.h"
#include "ltpscope/suite.h"
#include "ltpscope/xmalloc.h"

struct strvec {
	char	**v;
	size_t	  n;
};

static void
strvec_add(struct strvec *sv, const char *s, size_t len)
{
	sv->v = xreallocarray(sv->v, sv->n + 2, sizeof(*sv->v));
	sv->v[sv->n++] = xstrndup(s, len);
	sv->v[sv->n] = NULL;
}

static void
strvec_free(struct strvec *sv)
{
	xfreev(sv->v);
	sv->v = NULL;
	sv->n = 0;
}

/* Bytes as they are but for quotes and controls, as --format json
   always wrote them. */
static void
json_str(const char *s)
{
	json_write_str(stdout, s, strlen(s), JSON_W_BYTES);
}

static void
json_strv(char *const *v, size_t n)
{
	size_t i;

	putchar('[');
	for (i = 0; i < n; i++) {
		if (i > 0)
			printf(", ");
		json_str(v[i]);
	}
	putchar(']');
}

/* What the metadata says of a test, as JSON members after "line". */
static void
print_json_meta(const struct ltpmeta *meta, const char *tag)
{
	const struct ltpmeta_test *m = ltpmeta_test(meta, tag);
	char buf[1024];
	size_t i;

	if (m == NULL) {
		printf(", \"metadata\": null");
		return;
	}
	printf(", \"metadata\": ");
	json_str(m->name);
	printf(", \"group\": ");
	if (m->groups.n > 0)
		json_str(m->groups.v[0]);
	else
		printf("null");
	printf(", \"doc\": ");
	json_strv(m->doc.v, m->doc.n);
	printf(", \"tags\": [");
	for (i = 0; i < m->ntags; i++) {
		printf("%s{\"kind\": ", i > 0 ? ", " : "");
		json_str(m->tags[i].kind);
		printf(", \"value\": ");
		json_str(m->tags[i].value);
		printf(", \"url\": ");
		if (ltpmeta_tag_url(&m->tags[i], buf, sizeof(buf)) == 0)
			json_str(buf);
		else
			printf("null");
		putchar('}');
	}
	printf("], \"requires\": ");
	ltpmeta_requirements(m, buf, sizeof(buf));
	json_str(buf);
	printf(", \"parallel\": %s", ltpmeta_parallel_safe(m, NULL, 0) ?
	    "true" : "false");
}

static void
print_json(const struct ltpindex *idx, const size_t *sel, size_t n,
    const struct ltpmeta *meta)
{
	const struct ltptest *t;
	size_t i, argc;

	printf("[\n");
	for (i = 0; i < n; i++) {
		t = &idx->tests[sel[i]];
		printf("  {\"tag\": ");
		json_str(t->tag);
		printf(", \"syscalls\": ");
		json_strv(t->syscalls, t->nsyscalls);
		printf(", \"command\": ");
		json_str(t->cmdline);
		printf(", \"argv\": ");
		if (t->argv != NULL) {
			for (argc = 0; t->argv[argc] != NULL; argc++)
				continue;
			json_strv(t->argv, argc);
		} else
			printf("null");
		printf(", \"shell\": %s, \"file\": ",
		    t->needs_shell ? "true" : "false");
		json_str(t->file);
		printf(", \"line\": %lu", t->line);
		if (meta != NULL)
			print_json_meta(meta, t->tag);
		printf("}%s\n", i + 1 < n ? "," : "");
	}
	printf("]\n");
}

/* Metadata text, printable bytes only: it must not drive the terminal. */
static void
print_safe(const char *s)
{
	for (; *s != '\0'; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

/* --doc: the doc lines, requirements and tags, indented under a test. */
static void
print_doc(const struct ltpmeta *meta, const char *tag)
{
	const struct ltpmeta_test *m = ltpmeta_test(meta, tag);
	char buf[1024];
	size_t i;

	if (m == NULL) {
		printf("    (no metadata)\n");
		return;
	}
	for (i = 0; i < m->doc.n; i++) {
		if (m->doc.v[i][0] != '\0')
			printf("    ");
		print_safe(m->doc.v[i]);
		putchar('\n');
	}
	ltpmeta_requirements(m, buf, sizeof(buf));
	if (buf[0] != '\0') {
		printf("    requires: ");
		print_safe(buf);
		putchar('\n');
	}
	for (i = 0; i < m->ntags; i++) {
		printf("    ");
		print_safe(m->tags[i].kind);
		putchar(' ');
		print_safe(m->tags[i].value);
		if (ltpmeta_tag_url(&m->tags[i], buf, sizeof(buf)) == 0)
			printf("  %s", buf);
		putchar('\n');
	}
}

/* TAG, syscalls, and what will be run: a shell line is shown as such. */
static void
print_text(const struct ltpindex *idx, const size_t *sel, size_t n,
    const struct ltpmeta *doc)
{
	const struct ltptest *t;
	const char *p;
	size_t i, j;

	for (i = 0; i < n; i++) {
		t = &idx->tests[sel[i]];
		printf("%s\t", t->tag);
		for (j = 0; j < t->nsyscalls; j++)
			printf("%s%s", j > 0 ? "," : "", t->syscalls[j]);
		printf("%s\t", t->nsyscalls == 0 ? "-" : "");
		if (!t->needs_shell)
			printf("%s\n", t->cmdline);
		else {
			printf("sh -c '");
			for (p = t->cmdline; *p != '\0'; p++)
				if (*p == '\'')
					printf("'\\''");
				else
					putchar(*p);
			printf("'\n");
		}
		if (doc != NULL)
			print_doc(doc, t->tag);
	}
}

int
cmd_tests(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'F' },
		{ "unmapped", no_argument, NULL, 'U' },
		{ "doc", no_argument, NULL, 'D' },
		{ "metadata", required_argument, NULL, 'E' },
		{ "no-metadata", no_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct strvec files = { NULL, 0 }, sysv = { NULL, 0 };
	struct strvec tables = { NULL, 0 };
	struct ltpselect sel;
	struct suite_opts so;
	struct suite suite;
	struct diaglist dl;
	const char *dir = NULL, *s, *comma;
	size_t *picked = NULL, npicked = 0, i, first;
	const char *metadata = NULL;
	int ch, json = 0, rv = 0, doc = 0, no_metadata = 0;

	memset(&sel, 0, sizeof(sel));
	optind = 1;
	while ((ch = getopt_long(argc, argv, "L:f:m:s:p:h", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'L':
			dir = optarg;
			break;
		case 'f':
			strvec_add(&files, optarg, strlen(optarg));
			break;
		case 'm':
			strvec_add(&tables, optarg, strlen(optarg));
			break;
		case 's':
			for (s = optarg; *s != '\0'; s = comma) {
				if ((comma = strchr(s, ',')) == NULL)
					comma = s + strlen(s);
				if (comma > s)
					strvec_add(&sysv, s,
					    (size_t)(comma - s));
				if (*comma == ',')
					comma++;
			}
			break;
		case 'p':
			sel.pattern = optarg;
			break;
		case 'U':
			sel.unmapped_only = 1;
			break;
		case 'D':
			doc = 1;
			break;
		case 'E':
			metadata = optarg;
			break;
		case 'X':
			no_metadata = 1;
			break;
		case 'F':
			if ((json = storecli_json_format(optarg)) < 0) {
				fprintf(stderr, "ltpscope: tests: unknown "
				    "format '%s'\n", optarg);
				cmd_usage(stderr, "tests");
				rv = 2;
				goto out;
			}
			break;
		case 'h':
			cmd_usage(stdout, "tests");
			goto out;
		default:
			cmd_usage(stderr, "tests");
			rv = 2;
			goto out;
		}
	}
	sel.syscalls = (const char *const *)sysv.v;
	sel.nsyscalls = sysv.n;
	sel.tags = (const char *const *)(argv + optind);
	sel.ntags = (size_t)(argc - optind);

	diag_init(&dl);
	memset(&so, 0, sizeof(so));
	so.tables = (const char *const *)tables.v;
	so.ntables = tables.n;
	so.ltpdir = dir;
	so.runtests = (const char *const *)files.v;
	so.nruntests = files.n;
	so.metadata = metadata;
	so.no_metadata = no_metadata;
	if (suite_load(&suite, &so, &dl) != 0 || dl.nerrors > 0)
		rv = 1;
	first = dl.n;
	if (ltpindex_select(&suite.idx, &sel, &picked, &npicked, &dl) < 0) {
		/* A pattern that does not compile is a usage error. */
		rv = 1;
		for (i = first; i < dl.n; i++)
			if (dl.v[i].file != NULL &&
			    strcmp(dl.v[i].file, "-p") == 0 &&
			    dl.v[i].level == DIAG_ERROR)
				rv = 2;
	}
	diag_print(&dl, stderr, "ltpscope");
	if (picked != NULL) {
		if (json)
			print_json(&suite.idx, picked, npicked, suite.meta);
		else
			print_text(&suite.idx, picked, npicked, doc ?
			    suite.meta : NULL);
	}
	free(picked);
	suite_free(&suite);
	diag_free(&dl);
out:
	strvec_free(&files);
	strvec_free(&sysv);
	strvec_free(&tables);
	return rv;
}
