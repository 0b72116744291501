/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What "ltpscope runs" and "ltpscope show" share (see storecli.h).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpscope/diag.h"
#include "ltpscope/storecli.h"
#include "ltpscope/verdict.h"

int
storecli_open(const char *path, struct store **stp, char **pathp)
{
	struct diaglist dl;
	int rv = 0;

	diag_init(&dl);
	/* Read-write without create: a file we may not write reads fine. */
	if (store_open_db(stp, path, STORE_IF_EXISTS, pathp, &dl) !=
	    STORE_OK) {
		diag_print(&dl, stderr, "ltpscope");
		rv = 1;
	}
	diag_free(&dl);
	if (rv == 0 && *stp != NULL)
		storecli_rejudge(*stp, NULL);
	return rv;
}

struct rules *
storecli_verdict_rules(void)
{
	struct diaglist dl;
	struct rules *r = rules_new();
	int n;

	diag_init(&dl);
	n = rules_load_default(r, &dl);
	diag_print(&dl, stderr, "ltpscope");
	diag_free(&dl);
	if (n < 0) {
		rules_free(r);
		return NULL;
	}
	return r;
}

void
storecli_rejudge(struct store *st, struct rules *rules)
{
	struct rules *own = NULL;
	struct diaglist dl;

	/* Without data/rules, keep the verdicts rather than guess. */
	if (rules == NULL && (rules = own = storecli_verdict_rules()) == NULL)
		return;
	diag_init(&dl);
	if (verdict_rejudge(st, rules, NULL, &dl) != STORE_OK) {
		fprintf(stderr, "ltpscope: warning: the verdicts were not "
		    "judged again under the current rules:\n");
		diag_print(&dl, stderr, "ltpscope");
	}
	diag_free(&dl);
	rules_free(own);
}

void
storecli_warn_interrupted(struct store *st)
{
	struct store_interrupted *v;
	struct diaglist dl;
	size_t n, i, j;

	diag_init(&dl);
	if (store_interrupted_runs(st, &v, &n, &dl) != STORE_OK) {
		diag_print(&dl, stderr, "ltpscope");
		diag_free(&dl);
		return;
	}
	for (i = 0; i < n; i++) {
		fprintf(stderr, "ltpscope: warning: run %" PRId64
		    " was interrupted ", v[i].run_id);
		if (v[i].nrunning == 0)
			fprintf(stderr, "between tests");
		else {
			fprintf(stderr, "while ");
			for (j = 0; j < v[i].nrunning; j++)
				fprintf(stderr, "%s%s", j > 0 ? ", " : "",
				    v[i].running[j]);
			fprintf(stderr, " was running");
		}
		fprintf(stderr, "; resume with ltpscope run --resume\n");
	}
	store_interrupted_free(v, n);
	diag_free(&dl);
}

void
storecli_time(int64_t t, char *buf, size_t size)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (t == 0 || gmtime_r(&tt, &tm) == NULL) {
		(void)snprintf(buf, size, "-");
		return;
	}
	(void)strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
}

const char *
storecli_field(const char *s)
{
	static char buf[2][256];
	static int which;
	char *b = buf[which];
	size_t i;

	which = !which;
	for (i = 0; s[i] != '\0' && i < sizeof(buf[0]) - 1; i++)
		b[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' :
		    s[i];
	b[i] = '\0';
	return b;
}

int64_t
storecli_run_arg(struct store *st, const char *arg, const char *cmd)
{
	struct diaglist dl;
	char *end;
	long long id;
	int64_t last;

	if (strcmp(arg, "last") == 0) {
		diag_init(&dl);
		if (store_latest_run(st, &last, &dl) != STORE_OK) {
			diag_print(&dl, stderr, "ltpscope");
			last = 0;
		}
		diag_free(&dl);
		return last;
	}
	errno = 0;
	id = strtoll(arg, &end, 10);
	if (errno != 0 || end == arg || *end != '\0' || id <= 0) {
		fprintf(stderr, "ltpscope: %s: '%s' is not a run number "
		    "(see ltpscope runs)\n", cmd, arg);
		return 0;
	}
	return (int64_t)id;
}

int
storecli_open_run(const char *db, const char *runarg, const char *cmd,
    struct store **stp, int64_t *run_idp)
{
	char *path;

	*stp = NULL;
	if (strcmp(runarg, "last") != 0 && (runarg[0] == '\0' ||
	    runarg[strspn(runarg, "0123456789")] != '\0')) {
		fprintf(stderr, "ltpscope: %s: '%s' is not a run number "
		    "(see ltpscope runs)\n", cmd, runarg);
		return 2;
	}
	if (storecli_open(db, stp, &path) != 0) {
		free(path);
		return 1;
	}
	if (*stp == NULL) {
		fprintf(stderr, "ltpscope: %s: no such database; no runs "
		    "yet\n", path);
		free(path);
		return 1;
	}
	free(path);
	/* Only 0 or a number too big gets here; "show" as it always said. */
	if ((*run_idp = storecli_run_arg(*stp, runarg, "show")) == 0) {
		store_close(*stp);
		*stp = NULL;
		return 1;
	}
	return 0;
}

int
storecli_json_format(const char *arg)
{
	if (strcmp(arg, "json") == 0)
		return 1;
	return strcmp(arg, "text") == 0 ? 0 : -1;
}
