/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope export: the shopping list of a run (by default the newest,
 * of --arch if given) as CSV, Markdown, JSON or self-contained HTML,
 * to stdout or a file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/export.h"
#include "ltpscope/kindex.h"
#include "ltpscope/listparse.h"
#include "ltpscope/ltpmeta.h"
#include "ltpscope/paths.h"
#include "ltpscope/profile.h"
#include "ltpscope/settings.h"
#include "ltpscope/xmalloc.h"

/*
 * --weight @a,@b: the profiles, read from the store; -1 after a
 * message.  The @ is optional.
 */
static int
export_profiles(struct store *st, const char *list, struct profile **vp,
    size_t *np, struct diaglist *dl)
{
	char **items, *w;
	struct profile *v = NULL;
	size_t n = 0, i;
	int rv = 0;

	items = listparse_split(list, NULL);
	for (i = 0; (w = items[i]) != NULL && rv == 0; i++) {
		v = xreallocarray(v, n + 1, sizeof(*v));
		if (store_profile_get(st, w + (*w == '@'), &v[n], dl) !=
		    STORE_OK)
			rv = -1;
		else
			n++;
	}
	xfreev(items);
	*vp = v;
	*np = n;
	return rv;
}

static int
export_exec(struct cmd_args *a)
{
	struct shop_opts o;
	struct shoplist l;
	struct categories cats;
	struct fundamental fund;
	struct diaglist dl;
	struct settings set;
	struct kindex ki;
	struct store *st = NULL;
	char *tmp = NULL;
	const char **tables, *db = cmd_str(a, "db");
	const char *out = cmd_str(a, "output");
	const char *runarg = cmd_str(a, "run"), *weight = cmd_str(a, "weight");
	struct profile *profiles = NULL;
	struct ltpmeta *meta = NULL;
	struct diaglist quiet;
	size_t ntables, nprofiles = 0, i;
	int fmt = a->format != NULL ? export_format_from_name(a->format) : -1;
	int rv = 1;
	FILE *fp = stdout;

	memset(&o, 0, sizeof(o));
	memset(&ki, 0, sizeof(ki));
	settings_init(&set);
	o.arch = cmd_str(a, "arch");
	o.all = cmd_has(a, "all") > 0;
	tables = cmd_list(a, "master", &ntables);
	/* No --format: what the -o file's name says, else CSV. */
	if (fmt < 0 && out != NULL)
		fmt = export_format_from_path(out);
	if (fmt < 0)
		fmt = EXPORT_CSV;
	diag_init(&dl);
	categories_init(&cats);
	memset(&fund, 0, sizeof(fund));
	if (cli_categories(&cats) < 0 ||
	    (o.rules = cli_rules(&cats)) == NULL)
		goto out;
	if (fundamental_load_default(&fund, &dl) < 0)
		goto out;
	if ((o.cat = cli_catalogue(tables, ntables)) == NULL)
		goto out;
	o.cats = &cats;
	o.fund = &fund;
	if (cli_open(db, 0, &st) != 0)
		goto out;
	if (runarg != NULL && (o.run_id = cli_run(st, runarg,
	    a->name)) == 0)
		goto out;
	if (weight != NULL && export_profiles(st, weight, &profiles,
	    &nprofiles, &dl) != 0)
		goto out;
	o.profiles = profiles;
	o.nprofiles = nprofiles;
	/* Without a tree the list is made, only without file:line. */
	cli_settings(&set);
	if (cli_kindex(cmd_str(a, "kernel-src"), &set, st, &ki,
	    CLI_KINDEX_QUIET) == 0)
		o.kidx = &ki;
	o.source_url = cmd_str(a, "source-url") != NULL ?
	    cmd_str(a, "source-url") : set.has_source_url ? set.source_url :
	    NULL;
	/* The tags of LTP's metadata, when the install has it. */
	diag_init(&quiet);
	meta = ltpmeta_load_root(paths_ltproot(cmd_str(a, "ltproot")),
	    &quiet);
	diag_free(&quiet);
	o.meta = meta;
	o.linux_git_url = set.has_linux_git_url ? set.linux_git_url : NULL;
	if (shoplist_build(st, &o, &l, &dl) != STORE_OK)
		goto out;
	if (out != NULL) {
		/* Written beside it and renamed: never half a file. */
		xasprintf(&tmp, "%s.tmp%ld", out, (long)getpid());
		if ((fp = fopen(tmp, "w")) == NULL) {
			fprintf(stderr, "ltpscope: %s: %s\n", tmp,
			    strerror(errno));
			shoplist_free(&l);
			goto out;
		}
	}
	if (export_write(&l, fmt, fp) != 0)
		fprintf(stderr, "ltpscope: %s: write error: %s\n",
		    out != NULL ? out : "stdout", strerror(errno));
	else
		rv = 0;
	shoplist_free(&l);
	if (out != NULL) {
		if (fclose(fp) != 0 && rv == 0) {
			fprintf(stderr, "ltpscope: %s: %s\n", out,
			    strerror(errno));
			rv = 1;
		}
		if (rv == 0 && rename(tmp, out) != 0) {
			fprintf(stderr, "ltpscope: %s: %s\n", out,
			    strerror(errno));
			rv = 1;
		}
		if (rv != 0)
			(void)unlink(tmp);
	}
out:
	kindex_free(&ki);
	settings_free(&set);
	cli_diags(&dl);
	diag_free(&dl);
	if (st != NULL)
		store_close(st);
	if (o.cat != NULL)
		catalogue_free(o.cat);
	ltpmeta_free(meta);
	rules_free(o.rules);
	fundamental_free(&fund);
	categories_free(&cats);
	for (i = 0; i < nprofiles; i++)
		profile_free(&profiles[i]);
	free(profiles);
	free(tmp);
	return rv;
}

static const struct cmd_option export_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "kernel-src", .kind = CMD_STR },
	{ .name = "source-url", .kind = CMD_STR },
	{ .name = "output", .letter = 'o', .kind = CMD_STR },
	{ .name = "arch", .kind = CMD_STR },
	{ .name = "run", .kind = CMD_STR },
	{ .name = "all", .kind = CMD_FLAG },
	{ .name = "master", .letter = 'm', .kind = CMD_LIST },
	{ .name = "weight", .kind = CMD_STR },
	{ .name = "ltproot", .letter = 'L', .kind = CMD_STR },
	{ .name = NULL }
};

const struct cmd_entry cmd_export_entry = {
	.name = "export",
	.exec = export_exec,
	.options = export_options,
	/* "markdown" is md's long name, as in an -o file's suffix. */
	.formats = "csv|md|markdown|json|html",
	.usage = "export [-d db] [--format csv|md|json|html] [-o file] "
	    "[--arch arch] [--run run] [--all] [-m table]... "
	    "[--weight @profile[,...]] [--kernel-src dir] "
	    "[--source-url template] [-L dir]",
	.summary = "export the shopping list of failures per syscall",
};
