/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Importing a run that another ltpscope wrote out with "show RUN
 * --format json" (best with --with-outputs): a run made on a Linux box,
 * brought here as that arch's Linux reference, say.  The verdicts were
 * judged there by the same rules and are kept as written; the system
 * (host, OS, arch, LTP version) comes from the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/import.h"
#include "ltpscope/json.h"
#include "ltpscope/xmalloc.h"
#include "import_impl.h"

static unsigned
own_count(const struct json *o, const char *key)
{
	int64_t v;

	if (json_int64(json_get(o, key), &v) == 0 && v >= 0 && v <= 1000000)
		return (unsigned)v;
	return 0;
}

static int64_t
own_int(const struct json *o, const char *key, int64_t dflt)
{
	int64_t v;

	return json_int64(json_get(o, key), &v) == 0 ? v : dflt;
}

/*
 * One entry of "results" as an item: 0; 1 to skip it quietly (a test
 * still running there has no result to bring); -1 (warned) to skip it.
 */
static int
own_item(const char *path, size_t i, const struct json *e,
    struct import_item *it, struct diaglist *dl)
{
	struct store_result *r = &it->r;
	const struct json *out;
	const char *tag, *status;
	int st;

	tag = json_string(json_get(e, "tag"), NULL);
	status = json_string(json_get(e, "status"), NULL);
	if (e->type != JSON_OBJECT || tag == NULL || tag[0] == '\0' ||
	    strlen(tag) != json_get(e, "tag")->len ||
	    strpbrk(tag, "/\n") != NULL || status == NULL ||
	    (st = test_status_from_name(status)) < 0) {
		diag_add(dl, DIAG_WARNING, path, e->line, e->col,
		    "results[%zu]: no usable tag or status; skipped", i);
		return -1;
	}
	if (st == TS_RUNNING)
		return 1;
	memset(it, 0, sizeof(*it));
	r->tag = (char *)tag;
	r->syscall = (char *)json_string(json_get(e, "syscall"), "");
	r->status = (enum test_status)st;
	r->exit_code = (int)own_int(e, "exit_code", -1);
	r->signal = (int)own_int(e, "signal", 0);
	r->duration_ms = own_int(e, "duration_ms", 0);
	r->npass = own_count(e, "pass");
	r->nfail = own_count(e, "fail");
	r->nbroken = own_count(e, "broken");
	r->nconf = own_count(e, "conf");
	r->nwarn = own_count(e, "warn");
	r->nenvwarn = own_count(e, "env_warnings");
	out = json_get(e, "output");
	if (out != NULL && out->type == JSON_STRING) {
		it->out = out->str;
		it->outlen = out->len;
	} else
		it->out = "";
	return 0;
}

int
import_own_json(struct store *st, const char *path, const struct json *root,
    const struct import_opts *opts, struct import_stats *stats,
    struct diaglist *dl)
{
	const struct json *results = json_get(root, "results");
	struct import_item *items;
	struct store_run run;
	struct textbuf cfg;
	char *label;
	size_t i, n = json_count(results), nitems = 0;
	int rc;

	if (results == NULL || results->type != JSON_ARRAY) {
		diag_add(dl, DIAG_ERROR, path, root->line, root->col,
		    "not ltpscope's JSON of a run: no \"results\" array");
		return -1;
	}
	items = xcalloc(n ? n : 1, sizeof(*items));
	for (i = 0; i < n; i++)
		if ((rc = own_item(path, i, json_at(results, i),
		    &items[nitems], dl)) == 0)
			nitems++;
		else if (rc < 0)
			stats->nbad++;
	if (nitems == 0) {
		diag_error(dl, path, 0, "no test results in the file");
		free(items);
		return -1;
	}
	if (opts != NULL && opts->label != NULL)
		label = xstrdup(opts->label);
	else
		label = xstrdup(json_string(json_get(root, "label"), ""));
	memset(&cfg, 0, sizeof(cfg));
	textbuf_printf(&cfg, "source=%s\nltpscope.run=%lld\n",
	    IMPORT_SOURCE_OWN, (long long)own_int(root, "run", 0));
	memset(&run, 0, sizeof(run));
	run.host = (char *)json_string(json_get(root, "host"), "");
	run.uname = (char *)json_string(json_get(root, "uname"), "");
	run.os_name = (char *)json_string(json_get(root, "os_name"), "");
	run.os_version = (char *)json_string(json_get(root, "os_version"),
	    "");
	run.arch = (char *)json_string(json_get(root, "arch"), "");
	run.ltp_version = (char *)json_string(json_get(root, "ltp_version"),
	    "");
	run.label = label;
	run.config = cfg.s;
	run.started = own_int(root, "started", 0);
	rc = import_store_items(st, &run, items, nitems, opts, stats, dl);
	free(label);
	free(cfg.s);
	free(items);
	return rc;
}
