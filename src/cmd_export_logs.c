/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope export-logs: a run back out as the shell tool's log tree
 * (export_ctp_logs(), ctplog_export.c), so that its comparison can read
 * it.  The way in is cmd_import.c's.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/import.h"

static int
export_logs_exec(struct cmd_args *a)
{
	struct export_opts opts;
	struct export_stats stats;
	struct diaglist dl;
	struct store *st;
	const char *runarg = a->argv[0], *dir = a->argv[1];
	int64_t run_id;
	int rc;

	memset(&opts, 0, sizeof(opts));
	opts.force = cmd_has(a, "force") > 0;
	if ((rc = cli_open_run(cmd_str(a, "db"), runarg, a->name, &st,
	    &run_id)) != 0)
		return rc;
	diag_init(&dl);
	rc = export_ctp_logs(st, run_id, dir, &opts, &stats, &dl);
	cli_diags(&dl);
	if (rc == 0)
		printf("run %" PRId64 ": %u log%s written to %s\n", run_id,
		    stats.nwritten, stats.nwritten == 1 ? "" : "s", dir);
	if (rc == 0 && stats.nskipped > 0)
		printf("%u test%s not run or not nameable, not written\n",
		    stats.nskipped, stats.nskipped == 1 ? "" : "s");
	diag_free(&dl);
	store_close(st);
	return rc == 0 ? 0 : 1;
}

static const struct cmd_option export_logs_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "force", .letter = 'f', .kind = CMD_FLAG },
	{ .name = NULL }
};

const struct cmd_entry cmd_export_logs_entry = {
	.name = "export-logs",
	.exec = export_logs_exec,
	.options = export_logs_options,
	.args_min = 2,
	.args_max = 2,
	.usage = "export-logs [-d db] [--force] run|last dir",
	.summary = "write a run as the shell tool's <syscall>/<test>.log "
	    "tree",
};
