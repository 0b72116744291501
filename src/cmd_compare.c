/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope compare: what changed between two runs (by default the
 * newest against its arch's baseline), in the shell tool's words:
 * regressed, fixed, changed, new, removed; flaky tests are marked, and
 * so are failures that fail on the arch's Linux reference run too:
 * those come last of their kind.
 * Exit status 3 on a regression with --fail-on-regression.  With
 * --arch, the newest run of each arch side by side (cmd_compare_arch.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/compare.h"
#include "ltpscope/json.h"
#include "ltpscope/numparse.h"

#define COMPARE_REGRESSED_EXIT	3

static const char *
status_or_dash(int s)
{
	return s < 0 ? "-" : test_status_name((enum test_status)s);
}

/* What moved, when both runs have the test. */
static void
compare_counts(const struct cmp_item *it)
{
	if (it->status_a < 0 || it->status_b < 0)
		return;
	if (it->bad_a != it->bad_b)
		printf("  failed+broken %u -> %u", it->bad_a, it->bad_b);
	if (it->conf_a != it->conf_b)
		printf("  skipped %u -> %u", it->conf_a, it->conf_b);
	if (it->warn_a != it->warn_b)
		printf("  warnings %u -> %u", it->warn_a, it->warn_b);
}

static void
compare_text(const struct cmp_result *c, int all)
{
	static const enum cmp_kind order[] = { CMP_REGRESSED, CMP_FIXED,
	    CMP_CHANGED, CMP_NEW, CMP_REMOVED, CMP_SAME };
	const struct cmp_item *it;
	size_t i, k, len;
	int wt = 24, ws = 14, pass;

	/* Each column as wide as its longest entry. */
	for (i = 0; i < c->n; i++) {
		if ((len = strlen(c->v[i].tag)) > (size_t)wt && len < 256)
			wt = (int)len;
		if ((len = strlen(c->v[i].syscall)) > (size_t)ws && len < 256)
			ws = (int)len;
	}
	printf("Comparing run %" PRId64 " (%s %s %s, LTP %s) with run %"
	    PRId64 " (%s %s %s, LTP %s)\n", c->a.id, c->a.os_name,
	    c->a.os_version, c->a.arch, c->a.ltp_version, c->b.id,
	    c->b.os_name, c->b.os_version, c->b.arch, c->b.ltp_version);
	for (i = 0; i < c->nwarnings; i++)
		printf("warning: %s\n", cli_field(c->warnings[i]));
	if (c->linux_run != 0)
		printf("Linux reference: run %" PRId64 "\n", c->linux_run);
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		if (order[k] == CMP_SAME && !all)
			continue;
		if (c->counts[order[k]] == 0)
			continue;
		printf("\n%s:\n", cmp_kind_name(order[k]));
		/* compat_linux's own first, Linux's failures after. */
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < c->n; i++) {
				it = &c->v[i];
				if (it->kind != order[k] ||
				    it->linux_too != pass)
					continue;
				printf("  %-*s %-*s %s -> %s", wt,
				    cli_field(it->tag), ws,
				    cli_field(it->syscall),
				    status_or_dash(it->status_a),
				    status_or_dash(it->status_b));
				compare_counts(it);
				printf("%s%s\n", it->flaky ? "  (flaky)" : "",
				    it->linux_too ? "  (fails on Linux too)" :
				    "");
			}
	}
	printf("\nRESULTS\n");
	for (k = 0; k < 5; k++)
		printf("%-17s %u\n", cmp_kind_name(order[k]),
		    c->counts[order[k]]);
	for (i = 0, k = 0; i < c->n; i++)
		k += c->v[i].flaky;
	printf("%-17s %zu\n", "flaky", k);
	if (c->linux_run != 0)
		printf("%-17s %u\n", "fails on Linux", c->nlinux_too);
}

static void
compare_json(const struct cmp_result *c, int all)
{
	const struct cmp_item *it;
	size_t i, first = 1;
	int k;

	printf("{\"run_a\": %" PRId64 ", \"run_b\": %" PRId64 ", "
	    "\"counts\": {", c->a.id, c->b.id);
	for (k = 1; k < CMP__COUNT; k++)
		printf("%s\"%s\": %u", k > 1 ? ", " : "", cmp_kind_name(k),
		    c->counts[k]);
	printf("}, \"linux_run\": ");
	if (c->linux_run != 0)
		printf("%" PRId64, c->linux_run);
	else
		printf("null");
	printf(", \"fails_on_linux\": %u, \"warnings\": [", c->nlinux_too);
	for (i = 0; i < c->nwarnings; i++) {
		if (i > 0)
			printf(", ");
		json_write_str(stdout, c->warnings[i],
		    strlen(c->warnings[i]), JSON_W_LONE_DC);
	}
	printf("], \"tests\": [");
	for (i = 0; i < c->n; i++) {
		it = &c->v[i];
		if (it->kind == CMP_SAME && !all && !it->flaky)
			continue;
		printf("%s\n  {\"test\": ", first ? "" : ",");
		first = 0;
		json_write_str(stdout, it->tag, strlen(it->tag),
		    JSON_W_LONE_DC);
		printf(", \"syscall\": ");
		json_write_str(stdout, it->syscall, strlen(it->syscall),
		    JSON_W_LONE_DC);
		printf(", \"kind\": \"%s\", \"a\": \"%s\", \"b\": \"%s\", "
		    "\"bad\": [%u, %u], \"skipped\": [%u, %u], "
		    "\"warnings\": [%u, %u], \"flaky\": %s, \"linux\": ",
		    cmp_kind_name(it->kind), status_or_dash(it->status_a),
		    status_or_dash(it->status_b), it->bad_a, it->bad_b,
		    it->conf_a, it->conf_b, it->warn_a, it->warn_b,
		    it->flaky ? "true" : "false");
		if (it->status_linux >= 0)
			printf("\"%s\"", status_or_dash(it->status_linux));
		else
			printf("null");
		printf(", \"fails_on_linux\": %s}", it->linux_too ? "true" :
		    "false");
	}
	printf("%s]}\n", first ? "" : "\n");
}

/* "N/M", 0 < N < M <= 1000, each part checked whole. */
static int
parse_flaky(const char *s, unsigned *n, unsigned *m)
{
	char part[32], msg[160];
	const char *slash;
	long long a, b;

	if ((slash = strchr(s, '/')) == NULL ||
	    (size_t)(slash - s) >= sizeof(part))
		return -1;
	snprintf(part, sizeof(part), "%.*s", (int)(slash - s), s);
	if (numparse_ll(part, 1, 999, &a, msg, sizeof(msg)) != 0 ||
	    numparse_ll(slash + 1, 2, 1000, &b, msg, sizeof(msg)) != 0 ||
	    a >= b)
		return -1;
	*n = (unsigned)a;
	*m = (unsigned)b;
	return 0;
}

static int
compare_exec(struct cmd_args *a)
{
	struct cmp_result c;
	struct diaglist dl;
	struct store *st;
	const char *flaky = cmd_str(a, "flaky");
	unsigned fn = FLAKY_N, fm = FLAKY_M;
	size_t i;
	int json = cmd_json(a), all = cmd_has(a, "all") > 0, rv = 0;
	int failreg = cmd_has(a, "fail-on-regression") > 0;
	int arch = cmd_has(a, "arch") > 0;
	int64_t ra = 0, rb = 0;

	if (flaky != NULL && parse_flaky(flaky, &fn, &fm) != 0)
		return cmd_error(a, "--flaky: '%s' is not N/M with 0 < N < M "
		    "<= 1000, e.g. 2/5", flaky);
	if (arch && (failreg || flaky != NULL))
		return cmd_error(a, "--arch sets arches side by side: no "
		    "--fail-on-regression or --flaky with it");
	if (a->argc > 2 && !arch)
		return cmd_usage_error(a);
	if (cli_open(cmd_str(a, "db"), 0, &st) != 0)
		return 1;
	if (arch) {
		rv = cmd_compare_arch(st, cmd_str(a, "arch"), a->argv,
		    a->argc, json, all);
		store_close(st);
		return rv;
	}
	if ((a->argc >= 1 && (ra = cli_run(st, a->argv[0], a->name)) ==
	    0) || (a->argc == 2 && (rb = cli_run(st, a->argv[1],
	    a->name)) == 0)) {
		store_close(st);
		return 1;
	}
	/* One run given: it is compared against the newest. */
	diag_init(&dl);
	if (compare_default_runs(st, &ra, &rb, &dl) != STORE_OK ||
	    compare_runs(st, ra, rb, fn, fm, &c, &dl) != STORE_OK)
		rv = 1;
	else {
		for (i = 0; i < c.nwarnings && json; i++)
			cli_error(a->name, "warning: %s", c.warnings[i]);
		if (json)
			compare_json(&c, all);
		else
			compare_text(&c, all);
		if (failreg && c.counts[CMP_REGRESSED] > 0)
			rv = COMPARE_REGRESSED_EXIT;
		compare_free(&c);
	}
	cli_diags(&dl);
	diag_free(&dl);
	store_close(st);
	return rv;
}

static const struct cmd_option compare_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "fail-on-regression", .kind = CMD_FLAG },
	{ .name = "all", .kind = CMD_FLAG },
	{ .name = "flaky", .kind = CMD_STR },
	/* --arch=amd64,i386 as well as --arch amd64 i386 */
	{ .name = "arch", .kind = CMD_OPTARG },
	{ .name = NULL }
};

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.exec = compare_exec,
	.options = compare_options,
	.formats = "text|json",
	.args_max = CMD_ANY,
	.usage = "compare [-d db] [--fail-on-regression] [--all] "
	    "[--flaky N/M] [--format text|json] [run_a] [run_b]\n"
	    "compare [-d db] --arch [--all] [--format text|json] "
	    "[arch|run ...]",
	.summary = "compare two runs (the newest and its baseline), or "
	    "the arches",
};
