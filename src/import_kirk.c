/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Importing kirk's results.json (kirk is LTP's own runner) as one run.
 * kirk writes, per test, the command, its output ("log"), its exit
 * status as a list of strings ("retval": ["0"]), the duration in
 * seconds and LTP's counters, plus its own verdict; and, per file, the
 * machine it ran on ("environment").  We judge each test again by
 * ltpscope's rules (ltpout_status) so that imported runs and our own
 * runs compare; kirk's verdict is kept only in a note when it differs.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/import.h"
#include "ltpscope/json.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/slurp.h"
#include "ltpscope/verdict.h"
#include "ltpscope/xmalloc.h"
#include "import_impl.h"

/* What kirk's "status" names, in our words. */
static const struct {
	const char	*kirk;
	enum test_status st;
} kirk_statuses[] = {
	{ "pass", TS_PASS },
	{ "fail", TS_FAIL },
	{ "brok", TS_BROKEN },
	{ "conf", TS_CONF },
	{ "warn", TS_WARN },
};

char *
import_tag_syscall(const char *tag)
{
	size_t n = strlen(tag), digits;

	while (n > 0 && tag[n - 1] >= '0' && tag[n - 1] <= '9')
		n--;
	digits = strlen(tag) - n;
	/* "accept4_01": the digits belong to the test, "4" to the name. */
	if (digits > 0 && n > 1 && tag[n - 1] == '_')
		n--;
	if (n == 0)
		n = strlen(tag);
	return xstrndup(tag, n);
}

/* The output of one test, run through the LTP output parser. */
static enum test_status
kirk_verdict(struct rules *rules, const char *log, size_t len,
    const struct json *retval, struct store_result *r)
{
	struct ltpout *p = ltpout_new();
	struct ltpout_tally t;
	struct ltpout_line l;
	struct test_end end;
	const char *s, *log0 = log;
	size_t len0 = len;
	char *ep;
	long v;
	enum test_status st;

	while (ltpout_scan(p, &log, &len, &l))
		continue;
	while (ltpout_flush(p, &l))
		continue;
	end.how = TEST_NOEXIT;
	end.code = 0;
	s = json_string(json_at(retval, 0), NULL);
	if (s != NULL) {
		errno = 0;
		v = strtol(s, &ep, 10);
		if (ep != s && *ep == '\0' && errno == 0) {
			/* Python's subprocess gives -N for signal N. */
			if (v < 0 && v > -128) {
				end.how = TEST_SIGNALLED;
				end.code = (int)-v;
			} else if (v >= 0 && v <= 255) {
				end.how = TEST_EXITED;
				end.code = (int)v;
			}
		}
	}
	t = *ltpout_tally(p);
	t.env_warn = verdict_env_count(rules, log0, len0);
	st = verdict_judge(rules, r, &t, &end, NULL, 0);
	ltpout_free(p);
	return st;
}

/* A counter kirk reports, or fallback when it has none. */
static unsigned
kirk_count(const struct json *test, const char *key, unsigned fallback)
{
	int64_t v;

	if (json_int64(json_get(test, key), &v) == 0 && v >= 0 &&
	    v <= UINT_MAX)
		return (unsigned)v;
	return fallback;
}

static char *
kirk_cmdline(const struct json *test, const char *tag)
{
	const struct json *args = json_get(test, "arguments");
	struct textbuf b;
	size_t i;

	memset(&b, 0, sizeof(b));
	textbuf_printf(&b, "%s", json_string(json_get(test, "command"), tag));
	for (i = 0; i < json_count(args); i++)
		if (json_string(json_at(args, i), NULL) != NULL)
			textbuf_printf(&b, " %s", json_at(args, i)->str);
	return b.s;
}

/* environment's strings as "kirk.KEY=VALUE" config lines. */
static char *
kirk_config(const struct json *env)
{
	struct textbuf b;
	const char *k;
	char *v, *p;
	size_t i;

	memset(&b, 0, sizeof(b));
	textbuf_printf(&b, "source=%s\n", IMPORT_SOURCE_KIRK);
	for (i = 0; env != NULL && env->type == JSON_OBJECT && i < env->n;
	    i++) {
		k = env->members[i].key;
		if (env->members[i].value->type != JSON_STRING ||
		    strlen(k) != env->members[i].keylen ||
		    strpbrk(k, "=\n") != NULL)
			continue;
		v = xstrdup(env->members[i].value->str);
		for (p = v; *p != '\0'; p++)
			if (*p == '\n' || *p == '\r')
				*p = ' ';
		textbuf_printf(&b, "kirk.%s=%s\n", k, v);
		free(v);
	}
	return b.s;
}

static const char *
env_str(const struct json *env, const char *key)
{
	return json_string(json_get(env, key), "");
}

void
import_kirk_free(struct kirk_file *kf)
{
	size_t i;

	for (i = 0; i < kf->nitems; i++) {
		free(kf->syscalls[i]);
		free(kf->cmdlines[i]);
	}
	free(kf->syscalls);
	free(kf->cmdlines);
	free(kf->items);
	free(kf->label);
	free(kf->config);
	json_free(kf->root);
	memset(kf, 0, sizeof(*kf));
}

/* Seconds as milliseconds; what does not fit a duration is 0. */
static int64_t
kirk_ms(double secs)
{
	/* NaN fails both tests; a cast out of range is undefined. */
	if (!(secs >= 0 && secs < 1e12))
		return 0;
	return (int64_t)(secs * 1000 + 0.5);
}

/* One entry of "results" into the next item; 0, or -1 to skip it. */
static int
kirk_item(struct kirk_file *kf, const struct json *ent, size_t i,
    const char *name, const struct import_opts *opts,
    struct import_stats *stats, struct diaglist *dl)
{
	struct import_item *it = &kf->items[kf->nitems];
	struct store_result *r = &it->r;
	const struct json *test, *logv, *fqn;
	const char *kst, *tag;
	size_t j;

	test = json_get(ent, "test");
	fqn = json_get(ent, "test_fqn");
	tag = json_string(fqn, NULL);
	if (ent->type != JSON_OBJECT || tag == NULL || tag[0] == '\0' ||
	    strlen(tag) != fqn->len || strpbrk(tag, "/\n") != NULL ||
	    test == NULL || test->type != JSON_OBJECT) {
		diag_add(dl, DIAG_WARNING, name, ent->line, ent->col,
		    "results[%zu]: no usable test_fqn or test object; "
		    "skipped", i);
		stats->nbad++;
		return -1;
	}
	logv = json_get(test, "log");
	if (logv != NULL && logv->type != JSON_STRING)
		logv = NULL;
	r->tag = (char *)tag;
	r->syscall = kf->syscalls[kf->nitems] = import_tag_syscall(tag);
	(void)kirk_verdict(opts != NULL ? opts->rules : NULL,
	    logv != NULL ? logv->str : "", logv != NULL ? logv->len : 0,
	    json_get(test, "retval"), r);
	r->npass = kirk_count(test, "passed", r->npass);
	r->nfail = kirk_count(test, "failed", r->nfail);
	r->nbroken = kirk_count(test, "broken", r->nbroken);
	r->nconf = kirk_count(test, "skipped", r->nconf);
	r->nwarn = kirk_count(test, "warnings", r->nwarn);
	r->exit_code = -1;
	if (json_string(json_at(json_get(test, "retval"), 0), NULL) != NULL) {
		long v = strtol(json_at(json_get(test, "retval"), 0)->str,
		    NULL, 10);

		if (v >= 0 && v <= 255)
			r->exit_code = (int)v;
		else if (v < 0 && v > -128)
			r->signal = (int)-v;
	}
	r->duration_ms = kirk_ms(json_number(json_get(test, "duration"), 0));
	kst = json_string(json_get(ent, "status"), NULL);
	for (j = 0; kst != NULL && j < sizeof(kirk_statuses) /
	    sizeof(kirk_statuses[0]); j++)
		if (strcmp(kst, kirk_statuses[j].kirk) == 0 &&
		    kirk_statuses[j].st != r->status)
			diag_add(dl, DIAG_NOTE, name, ent->line, ent->col,
			    "%s: kirk said %s, ltpscope judges %s", tag, kst,
			    test_status_name(r->status));
	kf->cmdlines[kf->nitems] = kirk_cmdline(test, tag);
	it->cmdline = kf->cmdlines[kf->nitems];
	it->out = logv != NULL ? logv->str : "";
	it->outlen = logv != NULL ? logv->len : 0;
	kf->nitems++;
	return 0;
}

static int	kirk_from_tree(struct kirk_file *, const char *,
		    const struct import_opts *, struct import_stats *,
		    struct diaglist *);

int
import_kirk_parse(struct kirk_file *kf, const char *name, const char *buf,
    size_t len, const struct import_opts *opts, struct import_stats *stats,
    struct diaglist *dl)
{
	memset(kf, 0, sizeof(*kf));
	if (json_parse(&kf->root, buf, len, name, NULL, dl) != 0)
		return -1;
	return kirk_from_tree(kf, name, opts, stats, dl);
}

/* import_kirk_parse() once kf->root is parsed (kf owns it). */
static int
kirk_from_tree(struct kirk_file *kf, const char *name,
    const struct import_opts *opts, struct import_stats *stats,
    struct diaglist *dl)
{
	const struct json *results, *env;
	size_t i, n;

	results = json_get(kf->root, "results");
	if (kf->root->type != JSON_OBJECT || results == NULL ||
	    results->type != JSON_ARRAY) {
		diag_add(dl, DIAG_ERROR, name, kf->root->line, kf->root->col,
		    "not kirk's results.json: no \"results\" array");
		import_kirk_free(kf);
		return -1;
	}
	env = json_get(kf->root, "environment");
	n = json_count(results);
	kf->items = xcalloc(n ? n : 1, sizeof(*kf->items));
	kf->syscalls = xcalloc(n ? n : 1, sizeof(*kf->syscalls));
	kf->cmdlines = xcalloc(n ? n : 1, sizeof(*kf->cmdlines));
	for (i = 0; i < n; i++)
		(void)kirk_item(kf, json_at(results, i), i, name, opts, stats,
		    dl);
	if (kf->nitems == 0) {
		diag_error(dl, name, 0, "no test results in the file");
		import_kirk_free(kf);
		return -1;
	}
	if (opts != NULL && opts->label != NULL)
		kf->label = xstrdup(opts->label);
	else
		(void)xasprintf(&kf->label, "kirk%s%s%s%s",
		    env_str(env, "distribution")[0] ? " " : "",
		    env_str(env, "distribution"),
		    env_str(env, "distribution_version")[0] ? " " : "",
		    env_str(env, "distribution_version"));
	kf->config = kirk_config(env);
	kf->run.host = (char *)env_str(env, "hostname");
	kf->run.uname = (char *)env_str(env, "kernel");
	kf->run.os_name = (char *)"Linux";
	kf->run.os_version = (char *)env_str(env, "kernel");
	kf->run.arch = (char *)env_str(env, "arch");
	kf->run.ltp_version = (char *)env_str(env, "ltp_version");
	kf->run.label = kf->label;
	kf->run.config = kf->config;
	kf->runtime_ms = kirk_ms(json_number(json_get(json_get(kf->root,
	    "stats"), "runtime"), 0));
	return 0;
}

int
import_kirk(struct store *st, const char *path,
    const struct import_opts *opts, struct import_stats *stats,
    struct diaglist *dl)
{
	struct kirk_file kf;
	struct stat sb;
	char *buf;
	size_t len;
	int rc;

	memset(stats, 0, sizeof(*stats));
	/* Reading stops early past the limit: json_parse() reports it. */
	if (slurp_file_diag(path, JSON_SIZE_MAX, &buf, &len, dl) == -1)
		return -1;
	memset(&kf, 0, sizeof(kf));
	rc = json_parse(&kf.root, buf, len, path, NULL, dl);
	free(buf);
	if (rc != 0)
		return -1;
	/* ltpscope's own: "run" is its number there. */
	if (kf.root->type == JSON_OBJECT && json_get(kf.root, "run") != NULL &&
	    json_get(kf.root, "run")->type == JSON_NUMBER) {
		rc = import_own_json(st, path, kf.root, opts, stats, dl);
		json_free(kf.root);
		return rc;
	}
	if (kirk_from_tree(&kf, path, opts, stats, dl) != 0)
		return -1;
	/* kirk writes the file at the end of the session. */
	if (stat(path, &sb) == 0)
		kf.run.started = (int64_t)sb.st_mtime - kf.runtime_ms / 1000;
	rc = import_store_items(st, &kf.run, kf.items, kf.nitems, opts, stats,
	    dl);
	import_kirk_free(&kf);
	return rc;
}
