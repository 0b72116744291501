/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers of the triage subcommands (see triagecli.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/diag.h"
#include "ltpscope/storecli.h"
#include "ltpscope/suite.h"
#include "ltpscope/triagecli.h"

struct store *
triagecli_open(const char *db, const char *cmd)
{
	struct diaglist dl;
	struct store *st;

	diag_init(&dl);
	if (store_open_db(&st, db, 0, NULL, &dl) != STORE_OK) {
		if (dl.n == 0)
			fprintf(stderr, "ltpscope: %s: no database\n", cmd);
		diag_print(&dl, stderr, "ltpscope");
	}
	diag_free(&dl);
	if (st != NULL)
		storecli_rejudge(st, NULL);
	return st;
}

int64_t
triagecli_run(struct store *st, const char *arg, const char *cmd)
{
	struct diaglist dl;
	struct store_run r;
	int64_t id;

	if ((id = storecli_run_arg(st, arg, cmd)) == 0 ||
	    strcmp(arg, "last") == 0)
		return id;
	diag_init(&dl);
	if (store_get_run(st, id, &r, &dl) != STORE_OK) {
		diag_print(&dl, stderr, "ltpscope");
		id = 0;
	} else
		store_run_clear(&r);
	diag_free(&dl);
	return id;
}

const char *
triagecli_author(const char *opt)
{
	const char *v;

	if (opt != NULL)
		return opt;
	if ((v = getenv("LTPSCOPE_AUTHOR")) != NULL && *v != '\0')
		return v;
	if ((v = getenv("USER")) != NULL && *v != '\0')
		return v;
	if ((v = getenv("LOGNAME")) != NULL && *v != '\0')
		return v;
	return "";
}

int
triagecli_categories(struct categories *c)
{
	struct diaglist dl;
	int n;

	diag_init(&dl);
	categories_init(c);
	n = categories_load_default(c, &dl);
	diag_print(&dl, stderr, "ltpscope");
	diag_free(&dl);
	return n < 0 ? -1 : 0;
}

struct rules *
triagecli_rules(const struct categories *c)
{
	struct diaglist dl;
	struct rules *r = rules_new();

	diag_init(&dl);
	if (rules_load_default(r, &dl) < 0) {
		diag_print(&dl, stderr, "ltpscope");
		diag_free(&dl);
		rules_free(r);
		return NULL;
	}
	if (c != NULL)
		(void)rules_check(r, c, &dl);
	diag_print(&dl, stderr, "ltpscope");
	diag_free(&dl);
	return r;
}

struct catalogue *
triagecli_catalogue(char **tables, size_t n)
{
	struct catalogue *cat = catalogue_new();
	struct diaglist dl;
	char buf[1024];
	size_t i;

	diag_init(&dl);
	if (n == 0 && suite_default_table(buf, sizeof(buf)) != NULL)
		(void)catalogue_load_file(cat, buf, NULL, &dl);
	for (i = 0; i < n; i++)
		if (catalogue_load_file(cat, tables[i], NULL, &dl) < 0)
			break;
	(void)suite_load_names(cat, &dl);
	if (dl.nerrors > 0 && n > 0) {
		diag_print(&dl, stderr, "ltpscope");
		diag_free(&dl);
		catalogue_free(cat);
		return NULL;
	}
	diag_free(&dl);
	return cat;
}
