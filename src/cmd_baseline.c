/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope baseline: make a run the baseline of its arch, the run that
 * "ltpscope compare" measures later runs against by default; with
 * --reference, the Linux reference of its arch (linuxref.h), the run
 * that says which failures fail on Linux too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/linuxref.h"
#include "ltpscope/store_triage.h"

static int
baseline_exec(struct cmd_args *a)
{
	struct store_run r;
	struct diaglist dl;
	struct store *st;
	const char *db = cmd_str(a, "db"), *clear = cmd_str(a, "clear");
	const char *clearref = cmd_str(a, "clear-reference");
	int rv = 0, ref = cmd_has(a, "reference") > 0;
	int64_t run;

	if ((clear != NULL) + (clearref != NULL) + ref > 1 ||
	    a->argc != (clear != NULL || clearref != NULL ? 0 : 1))
		return cmd_usage_error(a);
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
	if ((run = cli_run(st, a->argv[0], a->name)) == 0) {
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

static const struct cmd_option baseline_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "clear", .kind = CMD_STR },
	{ .name = "reference", .kind = CMD_FLAG },
	{ .name = "clear-reference", .kind = CMD_STR },
	{ .name = NULL }
};

const struct cmd_entry cmd_baseline_entry = {
	.name = "baseline",
	.exec = baseline_exec,
	.options = baseline_options,
	.args_max = 1,
	.usage = "baseline [-d db] [--reference] run\n"
	    "baseline [-d db] --clear arch\n"
	    "baseline [-d db] --clear-reference arch",
	.summary = "make a run the baseline (or the Linux reference) of "
	    "its arch",
};
