/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading the store for the UI and the CLI: the run list with counts,
 * a run's results, a test's history and output, interrupted runs.
 * Every query is served by an index of store_schema.c; multi-statement
 * reads share one read transaction so they see one snapshot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/xmalloc.h"
#include "store_impl.h"

/* A result whose kernel lines warn or whose test tainted the kernel. */
#define KMARKED								\
	"(k.n_warn > 0 OR (k.taint_before <> k.taint_after AND "	\
	"k.taint_before <> -1 AND k.taint_after <> -1))"

/* A run's columns but the count of its results the kernel marked. */
#define RUN_COLS_BUT_KMARKED						\
	"id, host, uname, os_name, os_version, arch, ltp_version, label, " \
	"config, timeout_s, pid, started, ended, state, "		\
	"(SELECT count(*) FROM queue q WHERE q.run_id = runs.id), "	\
	"(SELECT count(*) FROM results e WHERE e.run_id = runs.id AND "	\
	"e.n_envwarn > 0 AND e.status IN (" SQL_TS_PASS ", "		\
	SQL_TS_CONF ")), "

#define RUN_COLS							\
	RUN_COLS_BUT_KMARKED						\
	"(SELECT count(*) FROM results e JOIN kmsgs k ON "		\
	"k.result_id = e.id WHERE e.run_id = runs.id AND " KMARKED ")"

#define RESULT_COLS							\
	"r.id, r.run_id, r.seq, r.tag, r.syscall, r.status, r.exit_code, " \
	"r.signal, r.duration_ms, r.n_pass, r.n_fail, r.n_broken, "	\
	"r.n_conf, r.n_warn, r.started, r.ended, o.original_size, "	\
	"o.stored_size, o.capped, r.n_envwarn, k.n_lines, k.n_warn, "	\
	"k.taint_before <> k.taint_after AND k.taint_before <> -1 AND "	\
	"k.taint_after <> -1 "						\
	"FROM results r LEFT JOIN outputs o ON o.result_id = r.id "	\
	"LEFT JOIN kmsgs k ON k.result_id = r.id "

static void
store_read_run(struct store *st, sqlite3_stmt *s, struct store_run *r)
{
	const char *state;
	int i;

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(s, 0);
	r->host = store_col_str(s, 1);
	r->uname = store_col_str(s, 2);
	r->os_name = store_col_str(s, 3);
	r->os_version = store_col_str(s, 4);
	r->arch = store_col_str(s, 5);
	r->ltp_version = store_col_str(s, 6);
	r->label = store_col_str(s, 7);
	r->config = store_col_str(s, 8);
	r->timeout_s = sqlite3_column_int(s, 9);
	r->pid = sqlite3_column_int64(s, 10);
	r->started = sqlite3_column_int64(s, 11);
	r->ended = sqlite3_column_int64(s, 12);
	state = (const char *)sqlite3_column_text(s, 13);
	r->state = RUN_RUNNING;
	for (i = 0; i < RUN__COUNT; i++)
		if (state != NULL && strcmp(state, store_run_state_name(i)) ==
		    0)
			r->state = i;
	/* Nobody holds its lock: the process died under it. */
	if ((r->state == RUN_RUNNING || r->state == RUN_RESUMED) &&
	    !store_run_is_live(st, r->id))
		r->state = RUN_INTERRUPTED;
	r->nqueued = (unsigned)sqlite3_column_int64(s, 14);
	r->nenvmarked = (unsigned)sqlite3_column_int64(s, 15);
	r->nkmarked = (unsigned)sqlite3_column_int64(s, 16);
}

void
store_run_clear(struct store_run *r)
{
	free(r->host);
	free(r->uname);
	free(r->os_name);
	free(r->os_version);
	free(r->arch);
	free(r->ltp_version);
	free(r->label);
	free(r->config);
	memset(r, 0, sizeof(*r));
}

void
store_run_copy(struct store_run *dst, const struct store_run *src)
{
	*dst = *src;
	dst->host = xstrdup(src->host != NULL ? src->host : "");
	dst->uname = xstrdup(src->uname != NULL ? src->uname : "");
	dst->os_name = xstrdup(src->os_name != NULL ? src->os_name : "");
	dst->os_version = xstrdup(src->os_version != NULL ? src->os_version :
	    "");
	dst->arch = xstrdup(src->arch != NULL ? src->arch : "");
	dst->ltp_version = xstrdup(src->ltp_version != NULL ?
	    src->ltp_version : "");
	dst->label = xstrdup(src->label != NULL ? src->label : "");
	dst->config = xstrdup(src->config != NULL ? src->config : "");
}

void
store_runs_free(struct store_run *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		store_run_clear(&v[i]);
	free(v);
}

static void
store_read_result(sqlite3_stmt *s, struct store_result *r)
{
	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(s, 0);
	r->run_id = sqlite3_column_int64(s, 1);
	r->seq = sqlite3_column_int64(s, 2);
	r->tag = store_col_str(s, 3);
	r->syscall = store_col_str(s, 4);
	r->status = (enum test_status)sqlite3_column_int(s, 5);
	r->exit_code = sqlite3_column_int(s, 6);
	r->signal = sqlite3_column_int(s, 7);
	r->duration_ms = sqlite3_column_int64(s, 8);
	r->npass = (unsigned)sqlite3_column_int64(s, 9);
	r->nfail = (unsigned)sqlite3_column_int64(s, 10);
	r->nbroken = (unsigned)sqlite3_column_int64(s, 11);
	r->nconf = (unsigned)sqlite3_column_int64(s, 12);
	r->nwarn = (unsigned)sqlite3_column_int64(s, 13);
	r->started = sqlite3_column_int64(s, 14);
	r->ended = sqlite3_column_int64(s, 15);
	r->output_size = sqlite3_column_int64(s, 16);
	r->stored_size = sqlite3_column_int64(s, 17);
	r->capped = sqlite3_column_int(s, 18);
	r->nenvwarn = (unsigned)sqlite3_column_int64(s, 19);
	r->kmsg_lines = (unsigned)sqlite3_column_int64(s, 20);
	r->kmsg_warnings = (unsigned)sqlite3_column_int64(s, 21);
	r->kmsg_tainted = sqlite3_column_int(s, 22);
}

int
store_result_kmsg_marked(const struct store_result *r)
{
	return r->kmsg_warnings > 0 || r->kmsg_tainted;
}

void
store_result_clear(struct store_result *r)
{
	free(r->tag);
	free(r->syscall);
	memset(r, 0, sizeof(*r));
}

void
store_results_free(struct store_result *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		store_result_clear(&v[i]);
	free(v);
}

/* Steps s to the end collecting results; done with s (store_stmt_done). */
static int
store_collect_results(struct store *st, sqlite3_stmt *s,
    struct store_result **vp, size_t *np, struct diaglist *dl)
{
	struct store_result *v = NULL;
	size_t n = 0, cap = 0;
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		store_read_result(s, &v[n++]);
	}
	store_stmt_done(st, s);
	if (rc != SQLITE_DONE) {
		store_results_free(v, n);
		return store_sqlerr(st, dl, rc, "cannot read results");
	}
	*vp = v;
	*np = n;
	return STORE_OK;
}

int
store_read_begin(struct store *st, struct diaglist *dl)
{
	int rc;

	if (st->reading > 0) {
		st->reading++;
		return STORE_OK;
	}
	rc = sqlite3_exec(st->db, "BEGIN", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return store_sqlerr(st, dl, rc, "cannot read the database");
	st->reading = 1;
	return STORE_OK;
}

void
store_read_end(struct store *st)
{
	if (st->reading == 0 || --st->reading > 0)
		return;
	(void)sqlite3_blob_close(st->outblob);
	st->outblob = NULL;
	store_rollback(st);	/* nothing was written; just let go */
}

/* The index of run id in v[], sorted newest (largest id) first; n if none. */
static size_t
store_run_index(const struct store_run *v, size_t n, int64_t id)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].id > id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && v[lo].id == id ? lo : n;
}

/*
 * The results of each run in v[] (sorted as above) the kernel marked,
 * in one pass over kmsgs, which holds only results the kernel said
 * something about.
 */
static int
store_count_kmarked(struct store *st, struct store_run *v, size_t n,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	size_t i;
	int rc, err;

	/* CROSS JOIN: kmsgs outside, or the planner scans every result. */
	if ((err = store_prepare(st, &s, "SELECT e.run_id, count(*) FROM "
	    "kmsgs k CROSS JOIN results e ON e.id = k.result_id WHERE "
	    KMARKED " GROUP BY e.run_id", dl)) != STORE_OK)
		return err;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW)
		if ((i = store_run_index(v, n, sqlite3_column_int64(s, 0))) < n)
			v[i].nkmarked = (unsigned)sqlite3_column_int64(s, 1);
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "cannot count the kernel's "
		    "marks");
	return STORE_OK;
}

/* Fills the per-status counts of v[], sorted newest (largest id) first. */
static int
store_count(struct store *st, struct store_run *v, size_t n,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	size_t lo, hi, mid;
	int64_t id;
	int rc, err, status;

	if ((err = store_prepare(st, &s, n == 1 ?
	    "SELECT run_id, status, n FROM run_counts WHERE run_id = ?" :
	    "SELECT run_id, status, n FROM run_counts", dl)) != STORE_OK)
		return err;
	if (n == 1)
		(void)sqlite3_bind_int64(s, 1, v[0].id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		id = sqlite3_column_int64(s, 0);
		status = sqlite3_column_int(s, 1);
		if (status < 0 || status >= TS__COUNT)
			continue;
		/* v is sorted by id, newest (largest) first. */
		lo = 0;
		hi = n;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (v[mid].id > id)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < n && v[lo].id == id)
			v[lo].counts[status] =
			    (unsigned)sqlite3_column_int64(s, 2);
	}
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "cannot count results");
	return STORE_OK;
}

int
store_list_runs(struct store *st, struct store_run **vp, size_t *np,
    struct diaglist *dl)
{
	struct store_run *v = NULL;
	sqlite3_stmt *s;
	size_t n = 0, cap = 0;
	int rc, err;

	*vp = NULL;
	*np = 0;
	if ((err = store_read_begin(st, dl)) != STORE_OK)
		return err;
	/*
	 * The kernel's marks are counted for all runs in one pass below:
	 * per run, its every result was looked up in kmsgs, 1,300 lookups
	 * a run, which made a listing of 200 runs cost more than the
	 * shopping list's export did without it (bench_export).
	 */
	if ((err = store_prepare_kept(st, SS_LIST_RUNS, &s, "SELECT "
	    RUN_COLS_BUT_KMARKED "0 FROM runs ORDER BY id DESC", dl)) !=
	    STORE_OK)
		goto out;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		store_read_run(st, s, &v[n++]);
	}
	store_stmt_done(st, s);
	if (rc != SQLITE_DONE) {
		err = store_sqlerr(st, dl, rc, "cannot list runs");
		goto out;
	}
	if (n > 0)
		err = store_count(st, v, n, dl);
	if (n > 0 && err == STORE_OK)
		err = store_count_kmarked(st, v, n, dl);
out:
	store_read_end(st);
	if (err != STORE_OK) {
		store_runs_free(v, n);
		return err;
	}
	*vp = v;
	*np = n;
	return STORE_OK;
}

int
store_get_run(struct store *st, int64_t run_id, struct store_run *r,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int rc, err;

	memset(r, 0, sizeof(*r));
	if ((err = store_read_begin(st, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare_kept(st, SS_GET_RUN, &s, "SELECT " RUN_COLS
	    " FROM runs WHERE id = ?", dl)) != STORE_OK)
		goto out;
	(void)sqlite3_bind_int64(s, 1, run_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		store_read_run(st, s, r);
	store_stmt_done(st, s);
	if (rc == SQLITE_DONE) {
		diag_error(dl, st->path, 0, "no run %ld in the database",
		    (long)run_id);
		err = STORE_ENOTFOUND;
	} else if (rc != SQLITE_ROW)
		err = store_sqlerr(st, dl, rc, "cannot read run %lld",
		    (long long)run_id);
	else
		err = store_count(st, r, 1, dl);
	if (err != STORE_OK)
		store_run_clear(r);
out:
	store_read_end(st);
	return err;
}

int
store_latest_run(struct store *st, int64_t *idp, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int rc, err;

	*idp = 0;
	if ((err = store_prepare(st, &s, "SELECT max(id) FROM runs", dl)) !=
	    STORE_OK)
		return err;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*idp = sqlite3_column_int64(s, 0);
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_ROW)
		return store_sqlerr(st, dl, rc, "cannot read runs");
	if (*idp == 0) {
		diag_error(dl, st->path, 0, "no runs in the database yet");
		return STORE_ENOTFOUND;
	}
	return STORE_OK;
}

int
store_run_results(struct store *st, int64_t run_id,
    struct store_result **vp, size_t *np, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	*vp = NULL;
	*np = 0;
	if ((err = store_prepare_kept(st, SS_RUN_RESULTS, &s, "SELECT "
	    RESULT_COLS "WHERE r.run_id = ? ORDER BY r.seq, r.id", dl)) !=
	    STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, run_id);
	return store_collect_results(st, s, vp, np, dl);
}

int
store_find_result(struct store *st, int64_t run_id, const char *tag,
    struct store_result *r, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int rc, err;

	memset(r, 0, sizeof(*r));
	if ((err = store_prepare(st, &s, "SELECT " RESULT_COLS
	    "WHERE r.run_id = ? AND r.tag = ? ORDER BY r.id DESC LIMIT 1",
	    dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, run_id);
	(void)sqlite3_bind_text(s, 2, tag, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		store_read_result(s, r);
	(void)sqlite3_finalize(s);
	if (rc == SQLITE_ROW)
		return STORE_OK;
	if (rc == SQLITE_DONE) {
		diag_error(dl, st->path, 0, "run %lld has no result for %s",
		    (long long)run_id, tag);
		return STORE_ENOTFOUND;
	}
	return store_sqlerr(st, dl, rc, "cannot read the result of %s", tag);
}

int
store_test_history(struct store *st, const char *tag, size_t n,
    struct store_result **vp, size_t *np, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	*vp = NULL;
	*np = 0;
	if ((err = store_prepare(st, &s, "SELECT " RESULT_COLS
	    "WHERE r.tag = ? ORDER BY r.run_id DESC, r.id DESC LIMIT ?",
	    dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, tag, -1, SQLITE_STATIC);
	(void)sqlite3_bind_int64(s, 2, (int64_t)n);
	return store_collect_results(st, s, vp, np, dl);
}

int
store_latest_results(struct store *st, struct store_result **vp,
    size_t *np, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	*vp = NULL;
	*np = 0;
	if ((err = store_prepare(st, &s, "SELECT " RESULT_COLS
	    "JOIN latest l ON l.result_id = r.id ORDER BY l.tag", dl)) !=
	    STORE_OK)
		return err;
	return store_collect_results(st, s, vp, np, dl);
}

int
store_latest_statuses(struct store *st, store_status_fn *fn, void *arg,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	const unsigned char *tag, *sc;
	int rc, err;

	if ((err = store_prepare(st, &s, "SELECT l.tag, r.syscall, r.status "
	    "FROM latest l JOIN results r ON r.id = l.result_id ORDER BY "
	    "l.tag", dl)) != STORE_OK)
		return err;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		tag = sqlite3_column_text(s, 0);
		sc = sqlite3_column_text(s, 1);
		fn(arg, tag != NULL ? (const char *)tag : "",
		    sc != NULL ? (const char *)sc : "",
		    (enum test_status)sqlite3_column_int(s, 2));
	}
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "cannot read results");
	return STORE_OK;
}

/*
 * The sizes and capped flag of a result's output into o (data NULL);
 * *rc: SQLITE_ROW, SQLITE_DONE when none is stored, or an error.  The
 * statement is kept: a shopping list reads an output per failure, and
 * compiling the query cost more than reading the row.
 */
static int
store_output_size(struct store *st, int64_t result_id,
    struct store_output *o, int *rc, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	memset(o, 0, sizeof(*o));
	/* length() of a blob reads its header, not its pages. */
	if ((err = store_prepare_kept(st, SS_OUTPUT_SIZE, &s, "SELECT "
	    "length(data), original_size, capped FROM outputs WHERE "
	    "result_id = ?", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, result_id);
	if ((*rc = sqlite3_step(s)) == SQLITE_ROW) {
		o->stored_size = (size_t)sqlite3_column_int64(s, 0);
		o->original_size = sqlite3_column_int64(s, 1);
		o->capped = sqlite3_column_int(s, 2);
	}
	store_stmt_done(st, s);
	return STORE_OK;
}

/* A blob handle on the output of result_id: the kept one moved, or new. */
static int
store_output_blob(struct store *st, int64_t result_id, sqlite3_blob **bp)
{
	sqlite3_blob *b;
	int rc;

	if ((b = st->outblob) != NULL) {
		st->outblob = NULL;
		if (sqlite3_blob_reopen(b, result_id) == SQLITE_OK) {
			*bp = b;
			return SQLITE_OK;
		}
		/* A row gone or changed under it: start afresh. */
		(void)sqlite3_blob_close(b);
	}
	rc = sqlite3_blob_open(st->db, "main", "outputs", "data", result_id,
	    0, &b);
	*bp = rc == SQLITE_OK ? b : NULL;
	if (rc != SQLITE_OK)
		(void)sqlite3_blob_close(b);
	return rc;
}

/* Keeps b for the next output while a read lasts; closes it otherwise. */
static void
store_output_blob_done(struct store *st, sqlite3_blob *b)
{
	if (st->reading > 0 && st->outblob == NULL)
		st->outblob = b;
	else
		(void)sqlite3_blob_close(b);
}

/*
 * o->stored_size bytes of result_id's output into o->data, through b
 * (NULL when there are none), which is then done with.
 */
static int
store_output_read(struct store *st, int64_t result_id, sqlite3_blob *b,
    struct store_output *o, struct diaglist *dl)
{
	int rc = SQLITE_OK;

	o->data = xmalloc(o->stored_size + 1);
	o->data[o->stored_size] = '\0';
	if (o->stored_size > 0)
		rc = sqlite3_blob_read(b, o->data, (int)o->stored_size, 0);
	if (b != NULL)
		store_output_blob_done(st, b);
	if (rc == SQLITE_OK)
		return STORE_OK;
	store_output_clear(o);
	return store_sqlerr(st, dl, rc, "cannot read the output of result "
	    "%lld", (long long)result_id);
}

/*
 * Read into one buffer of its size through an incremental blob handle:
 * a column value would be built whole by SQLite, then copied, twice
 * the memory of the (capped) output.
 */
int
store_get_output(struct store *st, int64_t result_id, struct store_output *o,
    struct diaglist *dl)
{
	sqlite3_blob *b;
	int rc, err;

	if ((err = store_output_size(st, result_id, o, &rc, dl)) !=
	    STORE_OK)
		return err;
	if (rc == SQLITE_DONE) {
		diag_error(dl, st->path, 0, "no output stored for result %lld",
		    (long long)result_id);
		return STORE_ENOTFOUND;
	}
	b = NULL;
	if (rc != SQLITE_ROW || (o->stored_size > 0 &&
	    (rc = store_output_blob(st, result_id, &b)) != SQLITE_OK)) {
		store_output_clear(o);
		return store_sqlerr(st, dl, rc, "cannot read the output of "
		    "result %lld", (long long)result_id);
	}
	return store_output_read(st, result_id, b, o, dl);
}

int
store_get_output_of(struct store *st, const struct store_result *r,
    struct store_output *o, struct diaglist *dl)
{
	sqlite3_blob *b;
	int n;

	/* No output row (or an empty one), or sizes not of this snapshot. */
	if (st->reading == 0 || r->stored_size <= 0 ||
	    store_output_blob(st, r->id, &b) != SQLITE_OK)
		return store_get_output(st, r->id, o, dl);
	memset(o, 0, sizeof(*o));
	n = sqlite3_blob_bytes(b);
	o->stored_size = n > 0 ? (size_t)n : 0;
	o->original_size = r->output_size;
	o->capped = r->capped;
	return store_output_read(st, r->id, b, o, dl);
}

/* Pieces store_read_output() hands out. */
#define STORE_READ_CHUNK	(64u * 1024)

int
store_read_output(struct store *st, int64_t result_id,
    void (*fn)(void *, const char *, size_t), void *arg,
    struct store_output *o, struct diaglist *dl)
{
	sqlite3_blob *b;
	char *buf;
	size_t off, n;
	int rc, err;

	if ((err = store_output_size(st, result_id, o, &rc, dl)) !=
	    STORE_OK)
		return err;
	if (rc == SQLITE_DONE) {
		diag_error(dl, st->path, 0, "no output stored for result %lld",
		    (long long)result_id);
		return STORE_ENOTFOUND;
	}
	if (rc != SQLITE_ROW || o->stored_size == 0)
		goto done;
	if ((rc = store_output_blob(st, result_id, &b)) != SQLITE_OK)
		goto done;
	buf = xmalloc(STORE_READ_CHUNK);
	for (off = 0; rc == SQLITE_OK && off < o->stored_size; off += n) {
		n = o->stored_size - off < STORE_READ_CHUNK ?
		    o->stored_size - off : STORE_READ_CHUNK;
		if ((rc = sqlite3_blob_read(b, buf, (int)n, (int)off)) ==
		    SQLITE_OK)
			fn(arg, buf, n);
	}
	free(buf);
	store_output_blob_done(st, b);
done:
	if (rc == SQLITE_ROW || rc == SQLITE_OK)
		return STORE_OK;
	return store_sqlerr(st, dl, rc, "cannot read the output of result "
	    "%lld", (long long)result_id);
}

int
store_get_kmsg(struct store *st, int64_t result_id, struct store_kmsg *k,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	const void *p;
	char *text;
	int rc, err;

	memset(k, 0, sizeof(*k));
	k->taint_before = k->taint_after = -1;
	if ((err = store_prepare(st, &s, "SELECT n_lines, n_warn, n_lost, "
	    "taint_before, taint_after, capped, text FROM kmsgs "
	    "WHERE result_id = ?", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, result_id);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		k->nlines = (unsigned)sqlite3_column_int64(s, 0);
		k->nwarn = (unsigned)sqlite3_column_int64(s, 1);
		k->nlost = (unsigned)sqlite3_column_int64(s, 2);
		k->taint_before = sqlite3_column_int64(s, 3);
		k->taint_after = sqlite3_column_int64(s, 4);
		k->capped = sqlite3_column_int(s, 5);
		p = sqlite3_column_blob(s, 6);
		k->len = (size_t)sqlite3_column_bytes(s, 6);
		text = xmalloc(k->len + 1);
		if (k->len > 0)
			memcpy(text, p, k->len);
		text[k->len] = '\0';
		k->text = text;
	}
	(void)sqlite3_finalize(s);
	if (rc == SQLITE_ROW)
		return STORE_OK;
	if (rc == SQLITE_DONE)
		return STORE_ENOTFOUND;
	return store_sqlerr(st, dl, rc, "cannot read the kernel's lines of "
	    "result %lld", (long long)result_id);
}

void
store_kmsg_clear(struct store_kmsg *k)
{
	free((char *)k->text);
	memset(k, 0, sizeof(*k));
	k->taint_before = k->taint_after = -1;
}

void
store_output_clear(struct store_output *o)
{
	free(o->data);
	memset(o, 0, sizeof(*o));
}

int
store_interrupted_runs(struct store *st, struct store_interrupted **vp,
    size_t *np, struct diaglist *dl)
{
	struct store_interrupted *v = NULL, *it;
	sqlite3_stmt *s, *t = NULL;
	size_t n = 0;
	int rc, err;

	*vp = NULL;
	*np = 0;
	if ((err = store_read_begin(st, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &s, "SELECT id, label, started FROM runs "
	    "WHERE state IN ('running', 'resumed') ORDER BY id DESC", dl)) !=
	    STORE_OK)
		goto out;
	if ((err = store_prepare(st, &t, "SELECT tag FROM results WHERE "
	    "run_id = ? AND status = ? ORDER BY seq, id", dl)) != STORE_OK) {
		(void)sqlite3_finalize(s);
		goto out;
	}
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (store_run_is_live(st, sqlite3_column_int64(s, 0)))
			continue;
		v = xreallocarray(v, n + 1, sizeof(*v));
		it = &v[n++];
		it->run_id = sqlite3_column_int64(s, 0);
		it->label = store_col_str(s, 1);
		it->started = sqlite3_column_int64(s, 2);
		it->running = NULL;
		it->nrunning = 0;
		(void)sqlite3_bind_int64(t, 1, it->run_id);
		(void)sqlite3_bind_int(t, 2, TS_RUNNING);
		while ((rc = sqlite3_step(t)) == SQLITE_ROW) {
			it->running = xreallocarray(it->running,
			    it->nrunning + 1, sizeof(char *));
			it->running[it->nrunning++] = store_col_str(t, 0);
		}
		(void)sqlite3_reset(t);
		if (rc != SQLITE_DONE)
			break;
	}
	(void)sqlite3_finalize(s);
	(void)sqlite3_finalize(t);
	if (rc != SQLITE_DONE)
		err = store_sqlerr(st, dl, rc, "cannot look for interrupted "
		    "runs");
out:
	store_read_end(st);
	if (err != STORE_OK) {
		store_interrupted_free(v, n);
		return err;
	}
	*vp = v;
	*np = n;
	return STORE_OK;
}

void
store_interrupted_free(struct store_interrupted *v, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		free(v[i].label);
		for (j = 0; j < v[i].nrunning; j++)
			free(v[i].running[j]);
		free(v[i].running);
	}
	free(v);
}
