/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope profile: import a trace of a Linux program as a named
 * profile, show it against the catalogue and the results, list and
 * delete profiles.  Also "@NAME" in the -s lists of run: a profile's
 * calls (cmd_profile_expand()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/json.h"
#include "ltpscope/profile.h"
#include "ltpscope/store.h"
#include "ltpscope/store_triage.h"
#include "ltpscope/xmalloc.h"

static int
profile_import(struct cmd_args *a)
{
	struct profile p;
	struct diaglist dl;
	struct store *st = NULL;
	const char *db = cmd_str(a, "db"), *name = cmd_str(a, "name");
	char namebuf[256];
	int rv = 1;

	if (name == NULL) {
		profile_name_from_path(a->argv[0], namebuf,
		    sizeof(namebuf));
		name = namebuf;
	}
	if (!profile_name_valid(name)) {
		return cmd_error(a, "'%s' is not a profile name (letters, "
		    "digits, '.', '_', '+', '-'); give one with --name",
		    name);
	}
	diag_init(&dl);
	profile_init(&p);
	if (profile_load_file(&p, a->argv[0], &dl) != 0)
		goto out;
	p.name = xstrdup(name);
	if (store_open_db(&st, db, STORE_CREATE | STORE_MKDIRS, NULL, &dl) !=
	    STORE_OK || store_profile_put(st, &p, &dl) != STORE_OK)
		goto out;
	printf("profile %s: %zu calls from %s (%s%s%s)\n", p.name, p.ncalls,
	    a->argv[0], profile_format_name(p.format),
	    p.emul[0] != '\0' ? ", emulation " : "", p.emul);
	rv = 0;
out:
	cli_diags(&dl);
	diag_free(&dl);
	store_close(st);
	profile_free(&p);
	return rv;
}

/* Columns as wide as their widest cell, so the rows stay aligned. */
static void
show_text(const struct profile *p, const struct profile_report *rp,
    const char *abi)
{
	struct profile_cells c;
	unsigned long made = 0;
	char line[2048];
	int wname = 20, werr = 22;
	size_t i, n;

	for (i = 0; i < p->ncalls; i++)
		made += p->calls[i].count;
	for (i = 0; i < rp->nrows; i++) {
		profile_row_cells(&rp->rows[i], &c);
		if ((int)strlen(c.name) > wname)
			wname = (int)strlen(c.name);
		if ((int)strlen(c.errs) > werr)
			werr = (int)strlen(c.errs);
	}
	printf("profile %s: %zu calls, %lu made; %s trace %s; on %s\n",
	    p->name, p->ncalls, made, profile_format_name(p->format),
	    p->source, abi != NULL ? abi : "any arch");
	printf("%-*s %7s  %-*s %-20s %-14s %s\n", wname, "CALL", "COUNT",
	    werr, "ERRORS", "STATE", "TESTS", "TAGS / FLAGS");
	for (i = 0; i < rp->nrows; i++) {
		profile_row_cells(&rp->rows[i], &c);
		(void)snprintf(line, sizeof(line), "%-*s %7lu  %-*s %-20s "
		    "%-14s %s", wname, c.name, rp->rows[i].call->count, werr,
		    c.errs, rp->rows[i].state, c.tests, c.notes);
		n = strlen(line);
		while (n > 0 && line[n - 1] == ' ')
			line[--n] = '\0';
		printf("%s\n", line);
	}
	printf("verdict: %s\n", rp->verdict);
}

static void
json_str(const char *s)
{
	json_write_str(stdout, s, strlen(s), 0);
}

static void
show_json(const struct profile *p, const struct profile_report *rp,
    const char *abi)
{
	const struct profile_row *r;
	size_t i, k;

	printf("{\"name\": ");
	json_str(p->name);
	printf(", \"source\": ");
	json_str(p->source);
	printf(", \"format\": \"%s\", \"emulation\": ",
	    profile_format_name(p->format));
	json_str(p->emul);
	printf(", \"imported\": %lld, \"abi\": ", (long long)p->imported);
	json_str(abi != NULL ? abi : "");
	printf(",\n \"calls\": [");
	for (i = 0; i < rp->nrows; i++) {
		r = &rp->rows[i];
		printf("%s\n  {\"name\": ", i > 0 ? "," : "");
		json_str(r->call->name);
		printf(", \"count\": %lu, \"failed\": %lu, \"errors\": {",
		    r->call->count, r->call->nerrors);
		for (k = 0; k < r->call->nerrs; k++) {
			printf("%s", k > 0 ? ", " : "");
			json_str(r->call->errs[k].name);
			printf(": %lu", r->call->errs[k].count);
		}
		printf("}, \"linux_name\": ");
		json_str(r->linux_name != NULL ? r->linux_name : "");
		printf(", \"state\": ");
		json_str(r->state);
		printf(", \"implemented\": %s, \"suspect\": %s, \"tests\": %u, "
		    "\"failing\": %u, \"tags\": ", r->implemented ? "true" :
		    "false", r->suspect ? "true" : "false", r->ntests,
		    r->nbad);
		json_str(r->tags != NULL ? r->tags : "");
		printf(", \"flags\": ");
		json_str(r->call->flags);
		printf("}");
	}
	printf("\n ],\n \"verdict\": ");
	json_str(rp->verdict);
	printf("}\n");
}

static int
profile_show(struct cmd_args *a)
{
	struct profile p;
	struct profile_report rp;
	struct diaglist dl;
	struct store *st = NULL;
	struct catalogue *cat = NULL;
	struct store_result *res = NULL;
	struct triage_tag *tags = NULL;
	const char **tables, *abi;
	char abibuf[64];
	size_t ntables, nres = 0, ntags = 0;
	int rv = 1;

	tables = cmd_list(a, "master", &ntables);
	diag_init(&dl);
	profile_init(&p);
	if ((cat = cli_catalogue(tables, ntables)) == NULL ||
	    cli_open(cmd_str(a, "db"), 0, &st) != 0)
		goto out;
	if (store_profile_get(st, a->argv[0], &p, &dl) != STORE_OK ||
	    store_latest_results(st, &res, &nres, &dl) != STORE_OK ||
	    store_tags_list(st, 0, NULL, &tags, &ntags, &dl) != STORE_OK)
		goto out;
	abi = profile_abi(cat, cmd_str(a, "arch"), abibuf, sizeof(abibuf));
	profile_report_build(&rp, &p, catalogue_count(cat) > 0 ? cat : NULL,
	    abi, res, nres, tags, ntags);
	if (cmd_json(a))
		show_json(&p, &rp, abi);
	else
		show_text(&p, &rp, abi);
	profile_report_free(&rp);
	rv = 0;
out:
	cli_diags(&dl);
	diag_free(&dl);
	store_results_free(res, nres);
	store_tags_free(tags, ntags);
	store_close(st);
	if (cat != NULL)
		catalogue_free(cat);
	profile_free(&p);
	return rv;
}

/* list and delete: a database and at most a name. */
static int
profile_simple(struct cmd_args *a)
{
	struct diaglist dl;
	struct store *st;
	struct profile p;
	char **names = NULL, when[32];
	size_t n = 0, i;
	int rv = 1;
	time_t t;

	if (cli_open(cmd_str(a, "db"), 0, &st) != 0)
		return 1;
	diag_init(&dl);
	if (a->argc > 0) {
		rv = store_profile_delete(st, a->argv[0], &dl) == STORE_OK ?
		    0 : 1;
		goto out;
	}
	if (store_profile_names(st, &names, &n, &dl) != STORE_OK)
		goto out;
	for (i = 0; i < n; i++) {
		if (store_profile_get(st, names[i], &p, &dl) != STORE_OK)
			goto out;
		t = (time_t)p.imported;
		(void)strftime(when, sizeof(when), "%Y-%m-%d %H:%M",
		    localtime(&t));
		printf("%-20s %4zu calls  %-8s %s  %s\n", p.name, p.ncalls,
		    profile_format_name(p.format), when, p.source);
		profile_free(&p);
	}
	rv = 0;
out:
	xfreev(names);
	cli_diags(&dl);
	diag_free(&dl);
	store_close(st);
	return rv;
}

static const struct cmd_option profile_db_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = NULL }
};

static const struct cmd_option profile_import_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "name", .letter = 'n', .kind = CMD_STR },
	{ .name = NULL }
};

static const struct cmd_entry profile_import_entry = {
	.name = "import",
	.exec = profile_import,
	.options = profile_import_options,
	.args_min = 1,
	.args_max = 1,
	.parent = &cmd_profile_entry,
};

static const struct cmd_option profile_show_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "master", .letter = 'm', .kind = CMD_LIST },
	{ .name = "arch", .kind = CMD_STR },
	{ .name = NULL }
};

static const struct cmd_entry profile_show_entry = {
	.name = "show",
	.exec = profile_show,
	.options = profile_show_options,
	.formats = "text|json",
	.args_min = 1,
	.args_max = 1,
	.parent = &cmd_profile_entry,
};

static const struct cmd_entry profile_list_entry = {
	.name = "list",
	.exec = profile_simple,
	.options = profile_db_options,
	.parent = &cmd_profile_entry,
};

static const struct cmd_entry profile_delete_entry = {
	.name = "delete",
	.exec = profile_simple,
	.options = profile_db_options,
	.args_min = 1,
	.args_max = 1,
	.parent = &cmd_profile_entry,
};

static const struct cmd_entry *const profile_actions[] = {
	&profile_import_entry, &profile_show_entry, &profile_list_entry,
	&profile_delete_entry, NULL
};

const struct cmd_entry cmd_profile_entry = {
	.name = "profile",
	.actions = profile_actions,
	.usage = "profile import [-d db] [--name name] file\n"
	    "profile show [-d db] [-m table]... [--arch arch] "
	    "[--format text|json] name\n"
	    "profile list [-d db]\n"
	    "profile delete [-d db] name",
	.summary = "import a trace of a Linux program; show the calls it "
	    "needs",
};

int
cmd_profile_load(const char *db, const char *name, struct profile *p)
{
	struct diaglist dl;
	struct store *st;
	int rv = 0;

	if (cli_open(db, 0, &st) != 0)
		return -1;
	diag_init(&dl);
	if (store_profile_get(st, name, p, &dl) != STORE_OK) {
		cli_diags(&dl);
		rv = -1;
	}
	diag_free(&dl);
	store_close(st);
	return rv;
}

/*
 * A call as a trace named it, as LTP's tests know it: kdump prints the
 * compat_linux table's names and, for unnamed slots, numbers.
 */
static const char *
cmd_profile_linux_name(struct catalogue *cat, const char *name)
{
	const char **abis, *to = name;
	size_t n = 0, i;

	if (cat == NULL)
		return name;
	abis = catalogue_abis(cat, &n);
	for (i = 0; i < n && to == name; i++)
		if (strncmp(abis[i], "linux", 5) == 0)
			to = profile_linux_name(cat, abis[i], name);
	free(abis);
	return to;
}

int
cmd_profile_expand(const char *db, struct catalogue *cat, const char ***vp,
    size_t *np)
{
	const char **v = *vp, **out = NULL;
	struct profile *p;
	size_t i, k, n = 0, total = 0;
	int rv = 0;

	p = xcalloc(*np + 1, sizeof(*p));
	/* Every profile first: on an error the list stays as it was. */
	for (i = 0; i < *np && rv == 0; i++)
		if (v[i][0] == '@')
			rv = cmd_profile_load(db, v[i] + 1, &p[i]);
	for (i = 0; i < *np; i++)
		total += v[i][0] == '@' ? p[i].ncalls : 1;
	if (rv == 0 && total > 0)
		out = xcalloc(total, sizeof(*out));
	for (i = 0; i < *np && rv == 0; i++) {
		if (v[i][0] != '@') {
			out[n++] = v[i];
			continue;
		}
		for (k = 0; k < p[i].ncalls; k++)
			out[n++] = xstrdup(cmd_profile_linux_name(cat,
			    p[i].calls[k].name));
		free((char *)v[i]);
	}
	for (i = 0; i < *np; i++)
		profile_free(&p[i]);
	free(p);
	if (rv != 0)
		return -1;
	free(v);
	*vp = out;
	*np = n;
	return 0;
}
