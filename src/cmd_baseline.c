/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope baseline: make a run the baseline of its arch, the run that
 * "ltpscope compare" measures later runs against by default; with
 * --reference, the Linux reference of its arch (linuxref.h), the run
 * that says which failures fail on Linux too.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/linuxref.h"
#include "ltpscope/store_triage.h"

static void
baseline_usage(FILE *fp)
{
	cmd_usage(fp, "baseline");
}

int
cmd_baseline(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "clear", required_argument, NULL, 'c' },
		{ "reference", no_argument, NULL, 'r' },
		{ "clear-reference", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct store_run r;
	struct diaglist dl;
	struct store *st;
	const char *db = NULL, *clear = NULL, *clearref = NULL;
	int ch, rv = 0, ref = 0;
	int64_t run;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			db = optarg;
			break;
		case 'c':
			clear = optarg;
			break;
		case 'r':
			ref = 1;
			break;
		case 'C':
			clearref = optarg;
			break;
		case 'h':
			baseline_usage(stdout);
			return 0;
		default:
			baseline_usage(stderr);
			return 2;
		}
	}
	if ((clear != NULL) + (clearref != NULL) + ref > 1 ||
	    argc - optind != (clear != NULL || clearref != NULL ? 0 : 1)) {
		baseline_usage(stderr);
		return 2;
	}
	if (cli_open(db, 0, &st) != 0)
		return 1;
	diag_init(&dl);
	if (clear != NULL) {
		if (store_baseline_clear(st, clear, &dl) != STORE_OK)
			rv = 1;
		goto out;
	}
	if (clearref != NULL) {
		if (linuxref_clear(st, clearref, &dl) != STORE_OK)
			rv = 1;
		goto out;
	}
	if ((run = cli_run(st, argv[optind], "baseline")) == 0) {
		rv = 1;
		goto out;
	}
	if ((ref ? linuxref_set(st, run, &dl) : store_baseline_set(st, run,
	    &dl)) != STORE_OK || store_get_run(st, run, &r, &dl) != STORE_OK) {
		rv = 1;
		goto out;
	}
	if (ref)
		printf("run %" PRId64 " is the Linux reference for arch '%s'\n",
		    run, linuxref_arch(r.arch));
	else
		printf("run %" PRId64 " is the baseline for arch '%s'\n", run,
		    r.arch);
	store_run_clear(&r);
out:
	cli_diags(&dl);
	diag_free(&dl);
	store_close(st);
	return rv;
}
