/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope export: the shopping list of a run (by default the newest,
 * of --arch if given) as CSV, Markdown, JSON or self-contained HTML,
 * to stdout or a file.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/cmd.h"
#include "ltpscope/export.h"
#include "ltpscope/profile.h"
#include "ltpscope/triagecli.h"
#include "ltpscope/xmalloc.h"

static void
export_usage(FILE *fp)
{
	cmd_usage(fp, "export");
}

/*
 * --weight @a,@b: the profiles, read from the store; -1 after a
 * message.  The @ is optional.
 */
static int
export_profiles(struct store *st, const char *list, struct profile **vp,
    size_t *np, struct diaglist *dl)
{
	char *copy = xstrdup(list), *w, *save = NULL;
	struct profile *v = NULL;
	size_t n = 0;
	int rv = 0;

	for (w = strtok_r(copy, ", ", &save); w != NULL && rv == 0;
	    w = strtok_r(NULL, ", ", &save)) {
		v = xreallocarray(v, n + 1, sizeof(*v));
		if (store_profile_get(st, w + (*w == '@'), &v[n], dl) !=
		    STORE_OK)
			rv = -1;
		else
			n++;
	}
	free(copy);
	*vp = v;
	*np = n;
	return rv;
}

int
cmd_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "format", required_argument, NULL, 'f' },
		{ "output", required_argument, NULL, 'o' },
		{ "arch", required_argument, NULL, 'A' },
		{ "run", required_argument, NULL, 'r' },
		{ "all", no_argument, NULL, 'a' },
		{ "master", required_argument, NULL, 'm' },
		{ "weight", required_argument, NULL, 'W' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct shop_opts o;
	struct shoplist l;
	struct categories cats;
	struct fundamental fund;
	struct diaglist dl;
	struct store *st = NULL;
	char **tables = NULL, *tmp = NULL;
	const char *db = NULL, *out = NULL, *runarg = NULL, *weight = NULL;
	struct profile *profiles = NULL;
	size_t ntables = 0, nprofiles = 0, i;
	int ch, fmt = -1, rv = 1;
	FILE *fp = stdout;

	memset(&o, 0, sizeof(o));
	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:f:o:m:h", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'd':
			db = optarg;
			break;
		case 'f':
			if ((fmt = export_format_from_name(optarg)) < 0) {
				fprintf(stderr, "ltpscope: export: unknown "
				    "format '%s'\n", optarg);
				export_usage(stderr);
				free(tables);
				return 2;
			}
			break;
		case 'o':
			out = optarg;
			break;
		case 'A':
			o.arch = optarg;
			break;
		case 'r':
			runarg = optarg;
			break;
		case 'a':
			o.all = 1;
			break;
		case 'W':
			weight = optarg;
			break;
		case 'm':
			tables = xreallocarray(tables, ntables + 1,
			    sizeof(*tables));
			tables[ntables++] = optarg;
			break;
		case 'h':
			export_usage(stdout);
			free(tables);
			return 0;
		default:
			export_usage(stderr);
			free(tables);
			return 2;
		}
	}
	if (optind != argc) {
		export_usage(stderr);
		free(tables);
		return 2;
	}
	/* No --format: what the -o file's name says, else CSV. */
	if (fmt < 0 && out != NULL)
		fmt = export_format_from_path(out);
	if (fmt < 0)
		fmt = EXPORT_CSV;
	diag_init(&dl);
	categories_init(&cats);
	memset(&fund, 0, sizeof(fund));
	if (triagecli_categories(&cats) < 0 ||
	    (o.rules = triagecli_rules(&cats)) == NULL)
		goto out;
	if (fundamental_load_default(&fund, &dl) < 0)
		goto out;
	if ((o.cat = triagecli_catalogue(tables, ntables)) == NULL)
		goto out;
	o.cats = &cats;
	o.fund = &fund;
	if ((st = triagecli_open(db, "export")) == NULL)
		goto out;
	if (runarg != NULL && (o.run_id = triagecli_run(st, runarg,
	    "export")) == 0)
		goto out;
	if (weight != NULL && export_profiles(st, weight, &profiles,
	    &nprofiles, &dl) != 0)
		goto out;
	o.profiles = profiles;
	o.nprofiles = nprofiles;
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
	diag_print(&dl, stderr, "ltpscope");
	diag_free(&dl);
	if (st != NULL)
		store_close(st);
	if (o.cat != NULL)
		catalogue_free(o.cat);
	rules_free(o.rules);
	fundamental_free(&fund);
	categories_free(&cats);
	for (i = 0; i < nprofiles; i++)
		profile_free(&profiles[i]);
	free(profiles);
	free(tables);
	free(tmp);
	return rv;
}
