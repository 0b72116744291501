/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Exporting a run in compat_linux_test_project's layout (see
 * import.h), DIR/<syscall>/<test>.log, so that the shell tool's
 * comparison (-c) can set a run of ltpscope against its own logs.  A
 * run imported from such logs gets its headers back from the ctp.* and
 * ctp@* config lines; any other run gets a header made from the run
 * and the result.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/ctplog.h"
#include "ltpscope/import.h"
#include "ltpscope/xmalloc.h"

/* The syscall directory of a result with none. */
#define EXPORT_NO_SYSCALL	"unknown"

/* The run's config lines, sorted for lookups by key. */
struct export_kv {
	char		*key;
	const char	*value;
	size_t		 pos;		/* the first of equal keys wins */
};

struct export_ctx {
	const struct store_run	*run;
	const char		*keys;		/* ctp.keys, or NULL */
	struct export_kv	*kv;
	size_t			 nkv;
	char			*config;	/* copy the kv point into */
};

static int
kv_cmp(const void *a, const void *b)
{
	const struct export_kv *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	if (c != 0)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Splits the config into key/value pairs (a 1,500-test import holds
   thousands of lines, looked up for every test). */
static void
kv_load(struct export_ctx *cx, const char *config)
{
	char *p, *nl, *eq;
	size_t cap = 0;

	cx->config = xstrdup(config);
	cx->kv = NULL;
	cx->nkv = 0;
	for (p = cx->config; p != NULL && *p != '\0'; p = nl) {
		if ((nl = strchr(p, '\n')) != NULL)
			*nl++ = '\0';
		if ((eq = strchr(p, '=')) == NULL)
			continue;
		*eq = '\0';
		if (cx->nkv == cap) {
			cap = cap ? cap * 2 : 64;
			cx->kv = xreallocarray(cx->kv, cap, sizeof(*cx->kv));
		}
		cx->kv[cx->nkv].key = p;
		cx->kv[cx->nkv].value = eq + 1;
		cx->kv[cx->nkv].pos = cx->nkv;
		cx->nkv++;
	}
	if (cx->nkv > 0)
		qsort(cx->kv, cx->nkv, sizeof(*cx->kv), kv_cmp);
}

static const char *
kv_get(const struct export_ctx *cx, const char *key)
{
	size_t lo = 0, hi = cx->nkv, mid;
	int c;

	/* The first of equal keys: lower bound. */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = strcmp(cx->kv[mid].key, key);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < cx->nkv && strcmp(cx->kv[lo].key, key) == 0)
		return cx->kv[lo].value;
	return NULL;
}

static int
export_name_ok(const char *s)
{
	return s[0] != '\0' && strcmp(s, ".") != 0 && strcmp(s, "..") != 0 &&
	    strchr(s, '/') == NULL && strchr(s, '\n') == NULL;
}

static const char *
export_syscall(const struct store_result *r)
{
	return r->syscall[0] != '\0' ? r->syscall : EXPORT_NO_SYSCALL;
}

static int
export_mkdir(const char *path, struct diaglist *dl)
{
	struct stat sb;

	if (mkdir(path, 0777) == 0)
		return 0;
	if (errno == EEXIST && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return 0;
	diag_error(dl, path, 0, "cannot create the directory: %s",
	    errno == EEXIST ? "a file is in the way" : strerror(errno));
	return -1;
}

/* Appends key: value when the value may go into a header. */
static void
export_pair(struct ctplog *log, const char *key, const char *value)
{
	char *v, *p;

	if (ctplog_add(log, key, value) == 0)
		return;
	/* A line end in a value (a label, say) would end the header. */
	v = xstrdup(value);
	for (p = v; *p != '\0'; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
	(void)ctplog_add(log, key, v);
	free(v);
}

/* The header of a run imported from logs, as the logs had it. */
static void
export_header_kept(const struct export_ctx *cx, const struct store_result *r,
    struct ctplog *log)
{
	const char *p, *sp, *keys, *val;
	char *key, *id;

	(void)xasprintf(&id, "ctp@%s/%s:", r->syscall, r->tag);
	if ((keys = kv_get(cx, id)) == NULL)
		keys = cx->keys;
	for (p = keys; *p != '\0'; p = *sp != '\0' ? sp + 1 : sp) {
		sp = strchr(p, ' ');
		if (sp == NULL)
			sp = p + strlen(p);
		if (sp == p)
			continue;
		key = xstrndup(p, (size_t)(sp - p));
		free(id);
		(void)xasprintf(&id, "ctp@%s/%s:%s", r->syscall, r->tag, key);
		if ((val = kv_get(cx, id)) == NULL) {
			if (strcmp(key, "syscall_tested") == 0)
				val = r->syscall;
			else {
				free(id);
				(void)xasprintf(&id, "ctp.%s", key);
				val = kv_get(cx, id);
			}
		}
		if (val != NULL)
			export_pair(log, key, val);
		free(key);
	}
	free(id);
}

/* A header for a run of ltpscope's own (or of kirk). */
static void
export_header_made(const struct export_ctx *cx, const struct store_result *r,
    struct ctplog *log)
{
	const struct store_run *run = cx->run;
	char date[64], *inv, *repro;

	import_format_date(r->ended != 0 ? r->ended : run->started, date,
	    sizeof(date));
	export_pair(log, "date", date);
	export_pair(log, "netbsd_version", run->os_version);
	export_pair(log, "netbsd_build", run->uname);
	export_pair(log, "arch", run->arch);
	export_pair(log, "ltp_version", run->ltp_version);
	(void)xasprintf(&inv, "\"ltpscope run\" (run %lld%s%s)",
	    (long long)run->id, run->label[0] != '\0' ? ", " : "",
	    run->label);
	export_pair(log, "script_invocation", inv);
	free(inv);
	export_pair(log, "syscall_tested", export_syscall(r));
	repro = import_config_get(run->config, "reproducible");
	export_pair(log, "reproducible", repro != NULL && repro[0] != '\0' ?
	    repro : "0");
	free(repro);
}

static int
export_one(const struct export_ctx *cx, struct store *st,
    const struct store_result *r, const char *dir, struct diaglist *dl)
{
	struct store_output out;
	struct ctplog log;
	char *path, code[16];
	int rc;

	struct diaglist odl;
	size_t i;
	int err;

	memset(&out, 0, sizeof(out));
	diag_init(&odl);
	/* A result without output (not run, say) exports empty. */
	err = store_get_output(st, r->id, &out, &odl);
	if (err != STORE_OK && err != STORE_ENOTFOUND) {
		for (i = 0; i < odl.n; i++)
			diag_add(dl, odl.v[i].level, odl.v[i].file,
			    odl.v[i].line, odl.v[i].col, "%s", odl.v[i].msg);
		diag_free(&odl);
		return -1;
	}
	diag_free(&odl);
	ctplog_init(&log);
	if (cx->keys != NULL)
		export_header_kept(cx, r, &log);
	else
		export_header_made(cx, r, &log);
	/* Known only when the test exited; the shell tool never knew. */
	if (r->exit_code >= 0 && r->signal == 0 &&
	    ctplog_get(&log, "exit_code") == NULL) {
		(void)snprintf(code, sizeof(code), "%d", r->exit_code);
		export_pair(&log, "exit_code", code);
	}
	ctplog_set_body(&log, out.data != NULL ? out.data : "",
	    out.stored_size);
	(void)xasprintf(&path, "%s/%s/%s.log", dir, export_syscall(r),
	    r->tag);
	rc = ctplog_write(&log, path, dl);
	free(path);
	ctplog_free(&log);
	store_output_clear(&out);
	return rc;
}

/* Whether a later result in v is for the same test (a resumed run). */
static int
export_superseded(const struct store_result *v, size_t n, size_t i)
{
	size_t j;

	for (j = i + 1; j < n; j++)
		if (v[j].status != TS_RUNNING && v[j].status != TS_NOTRUN &&
		    strcmp(v[j].tag, v[i].tag) == 0 &&
		    strcmp(v[j].syscall, v[i].syscall) == 0)
			return 1;
	return 0;
}

static int
export_wanted(const struct store_result *v, size_t n, size_t i)
{
	return v[i].status != TS_RUNNING && v[i].status != TS_NOTRUN &&
	    export_name_ok(v[i].tag) && export_name_ok(export_syscall(&v[i])) &&
	    !export_superseded(v, n, i);
}

int
export_ctp_logs(struct store *st, int64_t run_id, const char *dir,
    const struct export_opts *opts, struct export_stats *stats,
    struct diaglist *dl)
{
	struct store_result *v = NULL;
	struct store_run run;
	struct export_ctx cx;
	struct stat sb;
	char *path, *keys = NULL;
	size_t n = 0, i, nexist = 0;
	int rc = -1;

	memset(&cx, 0, sizeof(cx));
	memset(stats, 0, sizeof(*stats));
	memset(&run, 0, sizeof(run));
	if (store_get_run(st, run_id, &run, dl) != STORE_OK)
		return -1;
	if (store_run_results(st, run_id, &v, &n, dl) != STORE_OK)
		goto out;
	/* A run not made from logs but carrying ctp.keys is not ours. */
	if ((path = import_config_get(run.config, "source")) != NULL &&
	    strcmp(path, IMPORT_SOURCE_CTP) == 0)
		keys = import_config_get(run.config, "ctp.keys");
	free(path);
	cx.run = &run;
	cx.keys = keys;
	kv_load(&cx, run.config);
	/* Look before writing anything: all of it or none of it. */
	for (i = 0; i < n; i++) {
		if (!export_wanted(v, n, i))
			continue;
		(void)xasprintf(&path, "%s/%s/%s.log", dir,
		    export_syscall(&v[i]), v[i].tag);
		if (lstat(path, &sb) == 0 && !(opts != NULL && opts->force)) {
			if (nexist++ < 5)
				diag_error(dl, path, 0, "exists; not "
				    "overwritten without --force");
		}
		free(path);
	}
	if (nexist > 5)
		diag_error(dl, dir, 0, "%zu more files exist", nexist - 5);
	if (nexist > 0)
		goto out;
	if (export_mkdir(dir, dl) != 0)
		goto out;
	for (i = 0; i < n; i++) {
		if (!export_wanted(v, n, i)) {
			if (v[i].status != TS_RUNNING &&
			    v[i].status != TS_NOTRUN &&
			    !export_superseded(v, n, i))
				diag_add(dl, DIAG_WARNING, dir, 0, 0, "test "
				    "'%s' of syscall '%s' cannot be a file "
				    "name; skipped", v[i].tag, v[i].syscall);
			stats->nskipped++;
			continue;
		}
		(void)xasprintf(&path, "%s/%s", dir, export_syscall(&v[i]));
		if (export_mkdir(path, dl) != 0 ||
		    export_one(&cx, st, &v[i], dir, dl) != 0) {
			free(path);
			goto out;
		}
		free(path);
		stats->nwritten++;
	}
	rc = 0;
out:
	free(keys);
	free(cx.kv);
	free(cx.config);
	store_results_free(v, n);
	store_run_clear(&run);
	return rc;
}
