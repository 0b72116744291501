/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "ltpscope catalogue": list, count, diff and cross-check syscall
 * tables from the command line.  All the knowledge is in the catalogue
 * module; this file picks the sources, and writes text, CSV or JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/diag.h"
#include "ltpscope/json.h"
#include "ltpscope/paths.h"
#include "ltpscope/suite.h"

/* Short state names for the 80-column text listing. */
static const char *const short_state[CS__COUNT] = {
	"native", "compat", "unimpl", "obsolete", "absent", "linux"
};

/* "ltpscope: file:line: message", as every subcommand reports. */
static void
print_diags(const struct diaglist *dl)
{
	size_t i;

	for (i = 0; i < dl->n; i++) {
		const struct diag *d = &dl->v[i];
		const char *lvl = d->level == DIAG_ERROR ? "" :
		    d->level == DIAG_WARNING ? "warning: " : "note: ";

		if (d->file != NULL && d->line != 0)
			fprintf(stderr, "ltpscope: %s:%lu: %s%s\n", d->file,
			    d->line, lvl, d->msg);
		else if (d->file != NULL)
			fprintf(stderr, "ltpscope: %s: %s%s\n", d->file, lvl,
			    d->msg);
		else
			fprintf(stderr, "ltpscope: %s%s\n", lvl, d->msg);
	}
}

static void
csv_field(const char *s, int last)
{
	const char *p;

	if (strpbrk(s, ",\"\r\n") == NULL)
		fputs(s, stdout);
	else {
		putchar('"');
		for (p = s; *p != '\0'; p++) {
			if (*p == '"')
				putchar('"');
			putchar(*p);
		}
		putchar('"');
	}
	putchar(last ? '\n' : ',');
}


/*
 * Rows of a Linux table only supply names once a NetBSD table is
 * loaded; they are listed only when nothing else is.
 */
static int
hidden(const struct cat_entry *e, int have_netbsd)
{
	return have_netbsd && e->state == CS_LINUX;
}

static int
have_netbsd_table(struct catalogue *cat)
{
	size_t i, n = catalogue_count_all(cat);

	for (i = 0; i < n; i++)
		if (catalogue_entry_all(cat, i)->format == CF_MASTER)
			return 1;
	return 0;
}

static void
list_text(struct catalogue *cat, size_t n, int all)
{
	const char *abi = NULL;
	size_t i;
	int nb = have_netbsd_table(cat);

	for (i = 0; i < n; i++) {
		const struct cat_entry *e = all ? catalogue_entry_all(cat, i) :
		    catalogue_entry(cat, i);
		char line[256];
		int len;

		if (hidden(e, nb))
			continue;
		if (abi == NULL || strcmp(abi, e->abi) != 0) {
			if (abi != NULL)
				putchar('\n');
			abi = e->abi;
			printf("%s\n%-5s %-24s %-8s %-9s %s\n", abi, "NUM",
			    "NAME", "STATE", "TYPE", "FUNCTION [GUARD]");
		}
		len = snprintf(line, sizeof(line), "%-5ld %-24.24s %-8s "
		    "%-9.9s %s", e->number, e->name[0] != '\0' ? e->name : "-",
		    short_state[e->state], e->type_name[0] != '\0' ?
		    e->type_name : "-", e->function);
		if (len < 0)
			continue;
		if ((size_t)len >= sizeof(line))
			len = sizeof(line) - 1;
		while (len > 0 && line[len - 1] == ' ')
			len--;
		if (e->guard[0] != '\0')
			len += snprintf(line + len, sizeof(line) - (size_t)len,
			    " [%s]", e->guard);
		if ((size_t)len >= sizeof(line))
			len = sizeof(line) - 1;
		if (len > 79) {
			/* Keep the row on one 80-column line. */
			line[78] = '~';
			len = 79;
		}
		while (len > 0 && line[len - 1] == ' ')
			len--;
		line[len] = '\0';
		puts(line);
	}
}

static void
list_csv(struct catalogue *cat, size_t n, int all)
{
	char num[32], ln[32];
	size_t i;
	int nb = have_netbsd_table(cat);

	printf("abi,number,name,type,state,function,prototype,guard,file,"
	    "line\n");
	for (i = 0; i < n; i++) {
		const struct cat_entry *e = all ? catalogue_entry_all(cat, i) :
		    catalogue_entry(cat, i);

		if (hidden(e, nb))
			continue;
		(void)snprintf(num, sizeof(num), "%ld", e->number);
		(void)snprintf(ln, sizeof(ln), "%lu", e->line);
		csv_field(e->abi, 0);
		csv_field(num, 0);
		csv_field(e->name, 0);
		csv_field(e->type_name, 0);
		csv_field(cat_state_name(e->state), 0);
		csv_field(e->function, 0);
		csv_field(e->prototype, 0);
		csv_field(e->guard, 0);
		csv_field(e->file, 0);
		csv_field(ln, 1);
	}
}

/* Catalogue strings in JSON; DEL is written as it always was. */
static void
json_str(const char *s)
{
	json_write_str(stdout, s, strlen(s), JSON_W_DEL_RAW);
}

static void
list_json(struct catalogue *cat, size_t n, int all)
{
	size_t i, out = 0;
	int nb = have_netbsd_table(cat);

	putchar('[');
	for (i = 0; i < n; i++) {
		const struct cat_entry *e = all ? catalogue_entry_all(cat, i) :
		    catalogue_entry(cat, i);

		if (hidden(e, nb))
			continue;
		printf("%s\n  {\"abi\": ", out++ > 0 ? "," : "");
		json_str(e->abi);
		printf(", \"number\": %ld, \"name\": ", e->number);
		json_str(e->name);
		fputs(", \"type\": ", stdout);
		json_str(e->type_name);
		fputs(", \"state\": ", stdout);
		json_str(cat_state_name(e->state));
		fputs(", \"function\": ", stdout);
		json_str(e->function);
		fputs(", \"prototype\": ", stdout);
		json_str(e->prototype);
		fputs(", \"guard\": ", stdout);
		json_str(e->guard);
		fputs(", \"file\": ", stdout);
		json_str(e->file);
		printf(", \"line\": %lu}", e->line);
	}
	printf("%s]\n", out > 0 ? "\n" : "");
}

/* The Linux row naming some slot of file, to say where names came from. */
static const struct cat_entry *
names_source(struct catalogue *cat, const char *file)
{
	const struct cat_entry *e, *l;
	size_t i, n = catalogue_count(cat);

	for (i = 0; i < n; i++) {
		e = catalogue_entry(cat, i);
		if (e->format == CF_MASTER && strcmp(e->file, file) == 0 &&
		    (l = catalogue_linux_row(cat, e->abi, e->number)) != NULL)
			return l;
	}
	return NULL;
}

/* The types that count as implemented, in the order users know them. */
static const enum cat_type impl_types[] = {
	CT_STD, CT_NOARGS, CT_NODEF, CT_NOERR, CT_INDIR, CT_EXTERN, CT_COMPAT
};

static void
summary(struct catalogue *cat)
{
	const char **files;
	size_t nfiles, i, k;

	files = catalogue_files(cat, &nfiles);
	for (i = 0; i < nfiles; i++) {
		struct cat_counts c;
		const struct cat_entry *e = NULL;
		size_t j, n = catalogue_count_all(cat), impl;
		int first = 1;

		catalogue_counts(cat, files[i], &c);
		for (j = 0; j < n && e == NULL; j++) {
			e = catalogue_entry_all(cat, j);
			if (strcmp(e->file, files[i]) != 0 ||
			    e->state == CS_ABSENT)
				e = NULL;
		}
		printf("%s (%s):\n", files[i], e != NULL ? e->abi : "empty");
		if (e != NULL && e->state == CS_LINUX) {
			printf("  %zu numbers in Linux's table\n", c.numbers);
			continue;
		}
		impl = c.state[CS_NATIVE] + c.state[CS_COMPAT];
		printf("  %zu numbers, %zu implemented (", c.numbers, impl);
		for (k = 0; k < sizeof(impl_types) / sizeof(impl_types[0]);
		    k++) {
			if (c.type[impl_types[k]] == 0)
				continue;
			printf("%s%zu %s%s", first ? "" : ", ",
			    c.type[impl_types[k]], cat_type_name(impl_types[k]),
			    impl_types[k] == CT_COMPAT ? "_*" : "");
			first = 0;
		}
		printf("%s), %zu unimplemented, %zu obsolete\n",
		    first ? "none" : "", c.state[CS_UNIMPL],
		    c.state[CS_OBSOLETE]);
		printf("  implemented by NetBSD's own calls: %zu, "
		    "by compat shims: %zu\n", c.state[CS_NATIVE],
		    c.state[CS_COMPAT]);
		if (c.state[CS_ABSENT] > 0)
			printf("  %zu numbers of Linux's table are missing "
			    "here (absent)\n", c.state[CS_ABSENT]);
		if (c.alternates > 0)
			printf("  %zu %s in #else branches not counted "
			    "(the default view takes the #if branch)\n",
			    c.alternates, c.alternates == 1 ? "entry" :
			    "entries");
		if ((e = names_source(cat, files[i])) != NULL)
			printf("  Linux's names from %s\n", e->file);
	}
	free(files);
}

static int
crosscheck(struct catalogue *cat)
{
	struct cat_mismatch *v;
	size_t n, i, count;
	int have_pair = 0;

	/* Without Linux's names for some NetBSD slot there is no check. */
	count = catalogue_count(cat);
	for (i = 0; i < count && !have_pair; i++) {
		const struct cat_entry *e = catalogue_entry(cat, i);

		have_pair = e->format == CF_MASTER &&
		    catalogue_linux_row(cat, e->abi, e->number) != NULL;
	}
	if (!have_pair) {
		cli_error("catalogue", "--crosscheck needs a NetBSD table "
		    "and the Linux table of its ABI (e.g. -m syscall_64.tbl)");
		return 2;
	}
	v = catalogue_crosscheck(cat, &n);
	for (i = 0; i < n; i++) {
		const struct cat_entry *e = v[i].netbsd, *l = v[i].ref;

		printf("%s:%lu: %s %ld: NetBSD has %s%s%s%s, Linux has %s "
		    "(%s:%lu)\n", e->file, e->line, e->abi, e->number,
		    e->own_name, e->function[0] != '\0' ? " (" : "",
		    e->function, e->function[0] != '\0' ? ")" : "",
		    l->own_name, l->file, l->line);
	}
	printf("%zu slot%s disagree%s with Linux\n", n, n == 1 ? "" : "s",
	    n == 1 ? "s" : "");
	free(v);
	return n > 0 ? 1 : 0;
}

static const char *
entry_desc(const struct cat_entry *e, char *buf, size_t size)
{
	(void)snprintf(buf, size, "%s%s%s%s", e->type_name[0] != '\0' ?
	    e->type_name : cat_state_name(e->state),
	    e->function[0] != '\0' ? " " : "", e->function,
	    e->guard[0] != '\0' ? " (guarded)" : "");
	return buf;
}

static int
diff(const char *oldf, const char *newf, const char **extra, size_t nextra,
    struct diaglist *dl)
{
	struct catalogue *old = catalogue_new(), *new = catalogue_new();
	struct cat_diff *v;
	size_t n, i, nadd = 0, nrem = 0, nchg = 0;
	char b1[256], b2[256];

	(void)catalogue_load_file(old, oldf, NULL, dl);
	(void)catalogue_load_file(new, newf, NULL, dl);
	/* Linux tables given with -m name the slots of both. */
	for (i = 0; i < nextra; i++) {
		(void)catalogue_load_file(old, extra[i], NULL, dl);
		(void)catalogue_load_file(new, extra[i], NULL, dl);
	}
	(void)suite_load_names(old, dl);
	(void)suite_load_names(new, dl);
	v = catalogue_diff(old, new, &n);
	printf("--- %s\n+++ %s\n", oldf, newf);
	for (i = 0; i < n; i++) {
		const struct cat_entry *a = v[i].old, *b = v[i].new;

		switch (v[i].change) {
		case CC_ADDED:
			nadd++;
			printf("+ %s %ld %s: %s\n", b->abi, b->number,
			    b->name, entry_desc(b, b2, sizeof(b2)));
			break;
		case CC_REMOVED:
			nrem++;
			printf("- %s %ld %s: %s\n", a->abi, a->number,
			    a->name, entry_desc(a, b1, sizeof(b1)));
			break;
		case CC_CHANGED:
			nchg++;
			printf("~ %s %ld %s: %s -> %s (%s -> %s)\n", b->abi,
			    b->number, b->name[0] != '\0' ? b->name : a->name,
			    entry_desc(a, b1, sizeof(b1)),
			    entry_desc(b, b2, sizeof(b2)),
			    cat_state_name(a->state), cat_state_name(b->state));
			break;
		}
	}
	printf("%zu changed, %zu added, %zu removed\n", nchg, nadd, nrem);
	free(v);
	catalogue_free(old);
	catalogue_free(new);
	return 0;
}

static int
catalogue_exec(struct cmd_args *a)
{
	struct catalogue *cat;
	struct diaglist dl;
	const char **files, *src;
	char pathbuf[1024];
	size_t nfiles, i, n;
	int do_summary = cmd_has(a, "summary") > 0;
	int do_cross = cmd_has(a, "crosscheck") > 0;
	int do_diff = cmd_has(a, "diff") > 0, all = cmd_has(a, "all") > 0;
	int rv = 0;

	if (do_summary + do_cross + do_diff > 1 ||
	    (do_diff ? a->argc != 2 : a->argc != 0))
		return cmd_usage_error(a);
	files = cmd_list(a, "master", &nfiles);
	diag_init(&dl);
	if (do_diff) {
		rv = diff(a->argv[0], a->argv[1], files, nfiles, &dl);
		print_diags(&dl);
		rv = dl.nerrors > 0 ? 1 : rv;
		diag_free(&dl);
		return rv;
	}
	if (nfiles == 0) {
		if ((src = paths_syscall_table(pathbuf, sizeof(pathbuf))) ==
		    NULL) {
			cli_error(a->name, "no syscall table found: give one "
			    "with -m or set LTPSCOPE_MASTER");
			return 1;
		}
		cli_error(a->name, "using %s", src);
		files = &src;
		nfiles = 1;
	}
	cat = catalogue_new();
	for (i = 0; i < nfiles; i++)
		(void)catalogue_load_file(cat, files[i], NULL, &dl);
	(void)suite_load_names(cat, &dl);
	print_diags(&dl);

	if (do_summary)
		summary(cat);
	else if (do_cross)
		rv = crosscheck(cat);
	else {
		n = all ? catalogue_count_all(cat) : catalogue_count(cat);
		if (a->format != NULL && strcmp(a->format, "csv") == 0)
			list_csv(cat, n, all);
		else if (cmd_json(a))
			list_json(cat, n, all);
		else
			list_text(cat, n, all);
	}
	if (dl.nerrors > 0 && rv == 0)
		rv = 1;
	fflush(stdout);
	catalogue_free(cat);
	diag_free(&dl);
	return rv;
}

static const struct cmd_option catalogue_options[] = {
	{ .name = "master", .letter = 'm', .kind = CMD_LIST },
	{ .name = "summary", .letter = 's', .kind = CMD_FLAG },
	{ .name = "crosscheck", .letter = 'x', .kind = CMD_FLAG },
	{ .name = "diff", .letter = 'd', .kind = CMD_FLAG },
	{ .name = "all", .letter = 'a', .kind = CMD_FLAG },
	{ .name = NULL }
};

const struct cmd_entry cmd_catalogue_entry = {
	.name = "catalogue",
	.exec = catalogue_exec,
	.options = catalogue_options,
	.formats = "text|csv|json",
	.args_max = 2,
	.usage = "catalogue [-m table]... [--format text|csv|json] [--all]\n"
	    "catalogue [-m table]... --summary | --crosscheck\n"
	    "catalogue [-m table]... --diff old new",
	.summary = "list the syscall catalogue of syscalls.master files",
};
