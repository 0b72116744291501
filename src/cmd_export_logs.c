/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope export-logs: a run back out as the shell tool's log tree
 * (export_ctp_logs(), ctplog_export.c), so that its comparison can read
 * it.  The way in is cmd_import.c's.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/import.h"

static void
export_usage(FILE *fp)
{
	cmd_usage(fp, "export-logs");
}

int
cmd_export_logs(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct export_opts opts;
	struct export_stats stats;
	struct diaglist dl;
	struct store *st;
	const char *db = NULL, *runarg, *dir;
	int64_t run_id;
	int ch, rc;

	memset(&opts, 0, sizeof(opts));
	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:fh", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			db = optarg;
			break;
		case 'f':
			opts.force = 1;
			break;
		case 'h':
			export_usage(stdout);
			return 0;
		default:
			export_usage(stderr);
			return 2;
		}
	}
	if (optind + 2 != argc) {
		export_usage(stderr);
		return 2;
	}
	runarg = argv[optind];
	dir = argv[optind + 1];
	if ((rc = cli_open_run(db, runarg, "export-logs", &st,
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
