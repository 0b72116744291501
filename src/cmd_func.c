/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "ltpscope func NAME...": where the kernel functions behind syscalls
 * are defined in a NetBSD tree, as "file:line: function", which an
 * editor's quickfix list reads.  NAME is a function (linux_sys_fcntl)
 * or a syscall the catalogue knows (fcntl), whose compat_linux
 * function is looked up.
 */
#include <stdio.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/kindex.h"
#include "ltpscope/settings.h"

/* The functions behind name: itself if defined, else the catalogue's. */
static size_t
func_lookup(struct kindex *ki, struct catalogue *cat, const char *name,
    const struct kindex_def **dp, struct diaglist *dl)
{
	const struct cat_entry *e[8];
	size_t n, i, k;

	if ((n = kindex_lookup(ki, name, dp, dl)) > 0 || cat == NULL)
		return n;
	k = catalogue_find_name(cat, NULL, name, e, 8);
	for (i = 0; i < k && i < 8; i++)
		if ((n = kindex_lookup(ki, e[i]->function, dp, dl)) > 0)
			return n;
	return 0;
}

static int
func_exec(struct cmd_args *a)
{
	const struct kindex_def *d;
	struct settings set;
	struct catalogue *cat;
	struct store *st = NULL;
	struct kindex ki;
	struct diaglist dl;
	const char **tables;
	size_t ntables, n, k;
	int i, rv = 0;

	cli_settings(&set);
	tables = cmd_list(a, "master", &ntables);
	if ((cat = cli_catalogue(tables, ntables)) == NULL) {
		settings_free(&set);
		return 1;
	}
	/* The cache is a bonus: without a database, index afresh. */
	diag_init(&dl);
	if (store_open_db(&st, cmd_str(a, "db"), STORE_IF_EXISTS, NULL,
	    &dl) != STORE_OK)
		st = NULL;
	cli_diags(&dl);
	diag_free(&dl);
	if (cli_kindex(cmd_str(a, "kernel-src"), &set, st, &ki, 0) != 0) {
		rv = 1;
		goto out;
	}
	for (i = 0; i < a->argc; i++) {
		diag_init(&dl);
		n = func_lookup(&ki, cat, a->argv[i], &d, &dl);
		cli_diags(&dl);
		diag_free(&dl);
		if (n == 0) {
			cli_error(a->name, "%s: no definition in %s", a->argv[i],
			    ki.sysdir);
			rv = 1;
		}
		for (k = 0; k < n; k++)
			printf("%s/%s:%lu: %s\n", ki.sysdir, d[k].file + 4,
			    d[k].line, d[k].name);
	}
out:
	kindex_free(&ki);
	settings_free(&set);
	if (st != NULL)
		store_close(st);
	catalogue_free(cat);
	return rv;
}

static const struct cmd_option func_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "master", .letter = 'm', .kind = CMD_LIST },
	{ .name = "kernel-src", .kind = CMD_STR },
	{ .name = NULL }
};

const struct cmd_entry cmd_func_entry = {
	.name = "func",
	.exec = func_exec,
	.options = func_options,
	.args_min = 1,
	.args_max = CMD_ANY,
	.usage = "func [-d db] [-m table]... [--kernel-src dir] name...",
	.summary = "where a syscall's kernel function is defined",
};
