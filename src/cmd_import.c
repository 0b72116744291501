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
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/import.h"
#include "ltpscope/linuxref.h"

static void
import_usage(FILE *fp)
{
	cmd_usage(fp, "import");
}

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

int
cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "label", required_argument, NULL, 'l' },
		{ "kirk", no_argument, NULL, 'k' },
		{ "reference", no_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct import_opts opts;
	struct import_stats stats;
	struct diaglist dl;
	struct store *st;
	struct stat sb;
	const char *db = NULL, *path;
	int ch, kirk = 0, verbose = 0, rc, i, first, reference = 0;

	memset(&opts, 0, sizeof(opts));
	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:l:kvh", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'd':
			db = optarg;
			break;
		case 'l':
			opts.label = optarg;
			break;
		case 'k':
			kirk = 1;
			break;
		case 'r':
			reference = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'h':
			import_usage(stdout);
			return 0;
		default:
			import_usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		import_usage(stderr);
		return 2;
	}
	path = argv[optind];
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
