/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope import: results of the earlier shell tool (a log tree) or
 * of kirk (results.json) as a run in the results store, with
 * --reference the Linux reference of its arch.  The way back out is
 * cmd_export_logs.c's.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/import.h"
#include "ltpscope/linuxref.h"

/* Warnings always; notes (kirk's verdict differing) with -v only. */
static void
import_print_diags(const struct diaglist *dl, int verbose)
{
	struct diaglist shown;
	size_t i;

	diag_init(&shown);
	for (i = 0; i < dl->n; i++)
		if (verbose || dl->v[i].level != DIAG_NOTE)
			diag_add(&shown, dl->v[i].level, dl->v[i].file,
			    dl->v[i].line, dl->v[i].col, "%s", dl->v[i].msg);
	cli_diags(&shown);
	diag_free(&shown);
}

/* A file is kirk's JSON when asked, named .json, or starting with '{'. */
static int
import_is_json(const char *path)
{
	size_t len = strlen(path);
	FILE *fp;
	int c;

	if (len > 5 && strcmp(path + len - 5, ".json") == 0)
		return 1;
	if ((fp = fopen(path, "rb")) == NULL)
		return 0;
	while ((c = getc(fp)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		continue;
	(void)fclose(fp);
	return c == '{';
}

static int
import_exec(struct cmd_args *a)
{
	struct import_opts opts;
	struct import_stats stats;
	struct diaglist dl;
	struct store *st;
	struct stat sb;
	const char *db = cmd_str(a, "db"), *path = a->argv[0];
	int kirk = cmd_has(a, "kirk") > 0, verbose = cmd_has(a, "verbose") > 0;
	int reference = cmd_has(a, "reference") > 0, rc, i, first;

	memset(&opts, 0, sizeof(opts));
	opts.label = cmd_str(a, "label");
	if (stat(path, &sb) != 0) {
		fprintf(stderr, "ltpscope: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (!kirk && !S_ISDIR(sb.st_mode)) {
		if (!import_is_json(path)) {
			fprintf(stderr, "ltpscope: %s: neither a directory of "
			    "logs nor kirk's results.json\n", path);
			return 1;
		}
		kirk = 1;
	}
	if (kirk && S_ISDIR(sb.st_mode)) {
		fprintf(stderr, "ltpscope: %s: a directory; --kirk wants "
		    "results.json\n", path);
		return 1;
	}
	diag_init(&dl);
	if (store_open_db(&st, db, STORE_CREATE | STORE_MKDIRS, NULL, &dl) !=
	    STORE_OK) {
		cli_diags(&dl);
		diag_free(&dl);
		return 1;
	}
	if (reference)
		opts.linux_only = path;
	opts.rules = cli_verdict_rules();
	if (opts.rules != NULL)
		cli_rejudge(st, opts.rules);
	if (kirk)
		rc = import_kirk(st, path, &opts, &stats, &dl);
	else
		rc = import_ctp_dir(st, path, &opts, &stats, &dl);
	rules_free(opts.rules);
	import_print_diags(&dl, verbose);
	if (stats.run_id != 0) {
		printf("run %" PRId64 ": %u test%s imported from %s (",
		    stats.run_id, stats.ntests, stats.ntests == 1 ? "" : "s",
		    path);
		for (i = 0, first = 1; i < TS__COUNT; i++)
			if (stats.counts[i] > 0) {
				printf("%s%s %u", first ? "" : ", ",
				    test_status_name((enum test_status)i),
				    stats.counts[i]);
				first = 0;
			}
		if (stats.nenvmarked > 0)
			printf("; %u of them with an env warning",
			    stats.nenvmarked);
		printf(")%s", rc != 0 ? ", interrupted" : "");
		if (stats.nbad > 0)
			printf("; %u skipped", stats.nbad);
		printf("\n");
	}
	/* Only a whole run tells which tests fail on Linux. */
	if (reference && rc == 0 && stats.run_id != 0) {
		diag_free(&dl);
		diag_init(&dl);
		if (linuxref_set(st, stats.run_id, &dl) == STORE_OK)
			printf("run %" PRId64 " is the Linux reference for its "
			    "arch\n", stats.run_id);
		else
			rc = -1;
		cli_diags(&dl);
	}
	diag_free(&dl);
	store_close(st);
	return rc == 0 ? 0 : 1;
}

static const struct cmd_option import_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "label", .letter = 'l', .kind = CMD_STR },
	{ .name = "kirk", .letter = 'k', .kind = CMD_FLAG },
	{ .name = "reference", .kind = CMD_FLAG },
	{ .name = "verbose", .letter = 'v', .kind = CMD_FLAG },
	{ .name = NULL }
};

const struct cmd_entry cmd_import_entry = {
	.name = "import",
	.exec = import_exec,
	.options = import_options,
	.args_min = 1,
	.args_max = 1,
	.usage = "import [-v] [-d db] [--label text] [--kirk] "
	    "[--reference] path",
	.summary = "import shell tool logs or kirk's results.json as a run",
};
