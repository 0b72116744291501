/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope runs: the history of runs in the results store, newest
 * first, with counts per status; warns about runs that died.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/json.h"
#include "ltpscope/linuxref.h"

static unsigned
runs_other(const struct store_run *r)
{
	return r->counts[TS_WARN] + r->counts[TS_SIGNALLED] +
	    r->counts[TS_NOTRUN] + r->counts[TS_INTERRUPTED] +
	    r->counts[TS_UNKNOWN] + r->counts[TS_CRASH];
}

static unsigned
runs_done(const struct store_run *r)
{
	unsigned n = 0;
	int i;

	for (i = 0; i < TS__COUNT; i++)
		if (i != TS_RUNNING)
			n += r->counts[i];
	return n;
}

/* Whether run r is the Linux reference of its arch. */
static int
runs_is_ref(struct store *st, const struct store_run *r)
{
	struct diaglist quiet;
	int64_t id = 0;
	int err;

	diag_init(&quiet);
	err = linuxref_get(st, r->arch, &id, &quiet);
	diag_free(&quiet);
	return err == STORE_OK && id == r->id;
}

static void
runs_text(struct store *st, const struct store_run *v, size_t n)
{
	char when[32], where[256];
	size_t i;

	printf("%4s  %-19s  %-11s %5s %5s %5s %5s %5s %5s %11s  %s\n",
	    "ID", "STARTED (UTC)", "STATE", "PASS", "FAIL", "BROK", "CONF",
	    "TIME", "OTHER", "DONE/PLAN", "LABEL / HOST ARCH OS");
	for (i = 0; i < n; i++) {
		const struct store_run *r = &v[i];
		char done[32];

		cli_time(r->started, when, sizeof(when));
		(void)snprintf(done, sizeof(done), "%u/%u", runs_done(r),
		    r->nqueued);
		(void)snprintf(where, sizeof(where), "%s %s %s %s",
		    r->host[0] != '\0' ? r->host : "-",
		    r->arch[0] != '\0' ? r->arch : "-",
		    r->os_name[0] != '\0' ? r->os_name : "-", r->os_version);
		printf("%4" PRId64 "  %-19s  %-11s %5u %5u %5u %5u %5u %5u "
		    "%11s  %s%s%s%s\n", r->id, when,
		    store_run_state_name(r->state), r->counts[TS_PASS],
		    r->counts[TS_FAIL], r->counts[TS_BROKEN],
		    r->counts[TS_CONF], r->counts[TS_TIMEOUT], runs_other(r),
		    done, cli_field(r->label), r->label[0] != '\0' ?
		    " / " : "", cli_field(where), runs_is_ref(st, r) ?
		    "  [Linux reference]" : "");
	}
}

static void
runs_json_field(const char *name, const char *value, int comma)
{
	printf("\"%s\": ", name);
	json_write_str(stdout, value, strlen(value), 0);
	if (comma)
		printf(", ");
}

static void
runs_json(struct store *st, const struct store_run *v, size_t n)
{
	char when[32];
	size_t i;
	int s;

	printf("[");
	for (i = 0; i < n; i++) {
		const struct store_run *r = &v[i];

		printf("%s\n  {\"id\": %" PRId64 ", ", i > 0 ? "," : "", r->id);
		cli_time(r->started, when, sizeof(when));
		runs_json_field("started", when, 1);
		cli_time(r->ended, when, sizeof(when));
		runs_json_field("ended", when, 1);
		runs_json_field("state", store_run_state_name(r->state), 1);
		runs_json_field("label", r->label, 1);
		runs_json_field("host", r->host, 1);
		runs_json_field("uname", r->uname, 1);
		runs_json_field("os_name", r->os_name, 1);
		runs_json_field("os_version", r->os_version, 1);
		runs_json_field("arch", r->arch, 1);
		runs_json_field("ltp_version", r->ltp_version, 1);
		printf("\"timeout_s\": %d, \"planned\": %u, \"done\": %u, "
		    "\"counts\": {", r->timeout_s, r->nqueued, runs_done(r));
		for (s = 0; s < TS__COUNT; s++)
			printf("%s\"%s\": %u", s > 0 ? ", " : "",
			    test_status_name(s), r->counts[s]);
		printf("}, \"env_warned\": %u, \"linux_reference\": %s}",
		    r->nenvmarked, runs_is_ref(st, r) ? "true" : "false");
	}
	printf("%s]\n", n > 0 ? "\n" : "");
}

static int
runs_exec(struct cmd_args *a)
{
	struct store_run *v;
	struct store *st;
	struct diaglist dl;
	size_t n;
	int json = cmd_json(a), rv = 0;

	/* No database yet is an empty list, said as everywhere else. */
	if (cli_open(cmd_str(a, "db"), CLI_MISSING_OK, &st) != 0)
		return 1;
	if (st == NULL) {
		if (json)
			printf("[]\n");
		return 0;
	}
	cli_warn_interrupted(st);
	diag_init(&dl);
	if (store_list_runs(st, &v, &n, &dl) != STORE_OK) {
		cli_diags(&dl);
		rv = 1;
	} else {
		if (json)
			runs_json(st, v, n);
		else if (n == 0)
			printf("no runs yet in %s\n", store_path(st));
		else
			runs_text(st, v, n);
		store_runs_free(v, n);
	}
	diag_free(&dl);
	store_close(st);
	return rv;
}

static const struct cmd_option runs_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = NULL }
};

const struct cmd_entry cmd_runs_entry = {
	.name = "runs",
	.exec = runs_exec,
	.options = runs_options,
	.formats = "text|json",
	.usage = "runs [-d db] [--format text|json]",
	.summary = "list the runs in the results database, newest first",
};
