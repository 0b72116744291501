/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Writing a run: the crash protocol of store.h.  Every step is one
 * BEGIN IMMEDIATE ... COMMIT, so whatever kills the process, the file
 * holds either the state before a step or the state after it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/ltpout.h"
#include "ltpscope/xmalloc.h"
#include "store_impl.h"

/* What an interrupted test's output says, since none was captured. */
static const char interrupted_note[] =
    "[ltpscope: the run died while this test was running; it likely "
    "crashed the system]\n";

static int	store_step_done(struct store *, sqlite3_stmt *,
		    struct diaglist *, const char *, ...)
		    __attribute__((__format__(__printf__, 4, 5)));

static const char *
nz(const char *s)
{
	return s != NULL ? s : "";
}

/*
 * Runs a prepared write statement to completion and finalizes it (or
 * resets it, if the store keeps it).
 */
static int
store_step_done(struct store *st, sqlite3_stmt *s, struct diaglist *dl,
    const char *fmt, ...)
{
	char what[256];
	va_list ap;
	int rc;

	rc = sqlite3_step(s);
	store_stmt_done(st, s);
	if (rc == SQLITE_DONE)
		return STORE_OK;
	va_start(ap, fmt);
	(void)vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return store_sqlerr(st, dl, rc, "%s", what);
}

static int
store_insert_queue(struct store *st, int64_t run_id,
    const struct store_queue_item *q, size_t n, struct diaglist *dl)
{
	sqlite3_stmt *s;
	size_t i;
	int rc, err;

	if ((err = store_prepare(st, &s, "INSERT INTO queue (run_id, pos, "
	    "tag, syscall, cmdline, notrun, named, parallel, conflicts) VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?, ?)", dl)) != STORE_OK)
		return err;
	for (i = 0; i < n; i++) {
		(void)sqlite3_bind_int64(s, 1, run_id);
		(void)sqlite3_bind_int64(s, 2, (int64_t)i);
		(void)sqlite3_bind_text(s, 3, nz(q[i].tag), -1, SQLITE_STATIC);
		(void)sqlite3_bind_text(s, 4, nz(q[i].syscall), -1,
		    SQLITE_STATIC);
		(void)sqlite3_bind_text(s, 5, nz(q[i].cmdline), -1,
		    SQLITE_STATIC);
		(void)sqlite3_bind_text(s, 6, nz(q[i].notrun), -1,
		    SQLITE_STATIC);
		(void)sqlite3_bind_int(s, 7, q[i].named != 0);
		(void)sqlite3_bind_int(s, 8, q[i].parallel != 0);
		(void)sqlite3_bind_text(s, 9, nz(q[i].conflicts), -1,
		    SQLITE_STATIC);
		if ((rc = sqlite3_step(s)) != SQLITE_DONE) {
			(void)sqlite3_finalize(s);
			return store_sqlerr(st, dl, rc, "cannot record the "
			    "tests planned for run %lld", (long long)run_id);
		}
		(void)sqlite3_reset(s);
	}
	(void)sqlite3_finalize(s);
	return STORE_OK;
}

int
store_run_begin(struct store *st, struct store_run *run,
    const struct store_queue_item *queue, size_t nqueue,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int64_t id;
	int err;

	if ((err = store_begin_write(st, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &s, "INSERT INTO runs (host, uname, "
	    "os_name, os_version, arch, ltp_version, label, config, "
	    "timeout_s, pid, started, state) VALUES "
	    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running')", dl)) != STORE_OK)
		goto fail;
	if (run->started == 0)
		run->started = store_now();
	run->pid = (int64_t)getpid();
	(void)sqlite3_bind_text(s, 1, nz(run->host), -1, SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 2, nz(run->uname), -1, SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 3, nz(run->os_name), -1, SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 4, nz(run->os_version), -1, SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 5, nz(run->arch), -1, SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 6, nz(run->ltp_version), -1,
	    SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 7, nz(run->label), -1, SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 8, nz(run->config), -1, SQLITE_STATIC);
	(void)sqlite3_bind_int(s, 9, run->timeout_s);
	(void)sqlite3_bind_int64(s, 10, run->pid);
	(void)sqlite3_bind_int64(s, 11, run->started);
	if ((err = store_step_done(st, s, dl, "cannot record a new run")) !=
	    STORE_OK)
		goto fail;
	id = sqlite3_last_insert_rowid(st->db);
	if ((err = store_insert_queue(st, id, queue, nqueue, dl)) != STORE_OK)
		goto fail;
	/* Locked before anyone can see the run, so it never looks dead. */
	if ((err = store_lock_run(st, id, dl)) != STORE_OK)
		goto fail;
	if ((err = store_commit(st, dl)) != STORE_OK) {
		store_unlock_run(st, id);
		return err;
	}
	run->id = id;
	run->state = RUN_RUNNING;
	run->ended = 0;
	run->nqueued = (unsigned)nqueue;
	memset(run->counts, 0, sizeof(run->counts));
	return STORE_OK;
fail:
	store_rollback(st);
	return err;
}

int
store_run_end(struct store *st, int64_t run_id, enum store_run_state state,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if ((err = store_begin_write(st, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &s, "UPDATE runs SET state = ?, "
	    "ended = ? WHERE id = ?", dl)) != STORE_OK)
		goto fail;
	(void)sqlite3_bind_text(s, 1, store_run_state_name(state), -1,
	    SQLITE_STATIC);
	(void)sqlite3_bind_int64(s, 2, store_now());
	(void)sqlite3_bind_int64(s, 3, run_id);
	if ((err = store_step_done(st, s, dl, "cannot mark the run ended")) !=
	    STORE_OK)
		goto fail;
	if (sqlite3_changes(st->db) == 0) {
		diag_error(dl, st->path, 0, "no run %lld", (long long)run_id);
		err = STORE_ENOTFOUND;
		goto fail;
	}
	if ((err = store_commit(st, dl)) != STORE_OK)
		return err;
	if (state == RUN_RUNNING || state == RUN_RESUMED)
		return STORE_OK;
	if (st->intx)
		st->unlock_run = run_id;
	else
		store_unlock_run(st, run_id);
	return STORE_OK;
fail:
	store_rollback(st);
	return err;
}

int
store_test_start(struct store *st, int64_t run_id, const char *tag,
    const char *syscall, int64_t seq, int64_t *result_idp,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	*result_idp = 0;
	if ((err = store_begin_write(st, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare_kept(st, SS_TEST_START, &s, "INSERT INTO "
	    "results (run_id, seq, tag, syscall, status, started, judged) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?)", dl)) != STORE_OK)
		goto fail;
	(void)sqlite3_bind_int64(s, 1, run_id);
	(void)sqlite3_bind_int64(s, 2, seq);
	(void)sqlite3_bind_text(s, 3, nz(tag), -1, SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 4, nz(syscall), -1, SQLITE_STATIC);
	(void)sqlite3_bind_int(s, 5, TS_RUNNING);
	(void)sqlite3_bind_int64(s, 6, store_now());
	(void)sqlite3_bind_text(s, 7, st->judged_last, -1, SQLITE_STATIC);
	if ((err = store_step_done(st, s, dl, "cannot record that %s is "
	    "starting", nz(tag))) != STORE_OK)
		goto fail;
	*result_idp = sqlite3_last_insert_rowid(st->db);
	if ((err = store_commit(st, dl)) != STORE_OK)
		*result_idp = 0;
	return err;
fail:
	store_rollback(st);
	return err;
}

/*
 * How much of the output to keep: all of it, or its head and then a
 * note saying how much there was, so a cut is never silent.  total is
 * what the test wrote, of which the caller may have kept only the first
 * len bytes.  Returns the head's length; the note (if any) is in note.
 */
static size_t
store_cap_output(const struct store *st, size_t len, uint64_t total,
    char *note, size_t notesize, size_t *notelenp)
{
	size_t nlen, keep;

	*notelenp = 0;
	if (len <= st->output_cap && total <= len)
		return len;
	/* Sized with total for the kept count: the real note is no longer. */
	nlen = (size_t)snprintf(note, notesize, "\n[ltpscope: output "
	    "capped: kept %llu of %llu bytes]\n", (unsigned long long)total,
	    (unsigned long long)total);
	keep = st->output_cap > nlen ? st->output_cap - nlen : 0;
	if (keep > len)
		keep = len;
	*notelenp = (size_t)snprintf(note, notesize, "\n[ltpscope: output "
	    "capped: kept %zu of %llu bytes]\n", keep,
	    (unsigned long long)total);
	return keep;
}

/*
 * Up to this size an output is bound whole; a bigger one goes in as a
 * zeroblob (the row's last column: no memory for it) and its head and
 * note are written into it in place, page by page.  Bound whole, SQLite
 * would copy it into the row it builds, on top of the caller's buffer.
 */
#define STORE_OUTPUT_INPLACE	(256u * 1024)

/* Bytes copied from an output source to the database at a time. */
#define STORE_OUTPUT_CHUNK	(64u * 1024)

/* Bytes [off, off + len) of the output: from mem, else from src. */
static int
store_out_read(struct store *st, const void *mem,
    const struct store_outsrc *src, void *buf, size_t len, uint64_t off,
    struct diaglist *dl)
{
	if (mem != NULL) {
		memcpy(buf, (const char *)mem + off, len);
		return STORE_OK;
	}
	if (src->read(src->arg, buf, len, off) == 0)
		return STORE_OK;
	diag_error(dl, st->path, 0, "cannot read the output back to store "
	    "it: %s", strerror(errno));
	return STORE_EIO;
}

/*
 * The output's head and note written into the zeroblob in place, a
 * chunk at a time, so that neither SQLite nor we hold it whole.
 */
static int
store_fill_output(struct store *st, int64_t result_id, const void *mem,
    const struct store_outsrc *src, size_t keep, const char *note,
    size_t nlen, struct diaglist *dl)
{
	sqlite3_blob *b;
	char *buf = NULL;
	size_t off, n;
	int rc, err = STORE_OK;

	rc = sqlite3_blob_open(st->db, "main", "outputs", "data", result_id,
	    1, &b);
	if (rc != SQLITE_OK)
		return store_sqlerr(st, dl, rc, "cannot store the output");
	if (mem != NULL && keep > 0)
		rc = sqlite3_blob_write(b, mem, (int)keep, 0);
	else if (keep > 0)
		buf = xmalloc(STORE_OUTPUT_CHUNK);
	for (off = 0; buf != NULL && rc == SQLITE_OK && off < keep;
	    off += n) {
		n = keep - off < STORE_OUTPUT_CHUNK ? keep - off :
		    STORE_OUTPUT_CHUNK;
		if ((err = store_out_read(st, NULL, src, buf, n, off, dl)) !=
		    STORE_OK)
			break;
		rc = sqlite3_blob_write(b, buf, (int)n, (int)off);
	}
	free(buf);
	if (err == STORE_OK && rc == SQLITE_OK && nlen > 0)
		rc = sqlite3_blob_write(b, note, (int)nlen, (int)keep);
	if (err == STORE_OK && rc == SQLITE_OK)
		rc = sqlite3_blob_close(b);
	else
		(void)sqlite3_blob_close(b);
	if (err != STORE_OK)
		return err;
	if (rc != SQLITE_OK)
		return store_sqlerr(st, dl, rc, "cannot store the output");
	return STORE_OK;
}

/*
 * Stores an output (src->len bytes of src->total): from mem when it is
 * not NULL, else read from src.
 */
static int
store_put_output(struct store *st, int64_t result_id, const void *mem,
    const struct store_outsrc *src, struct diaglist *dl)
{
	sqlite3_stmt *s;
	char note[128], *buf;
	uint64_t total = src->total;
	size_t keep, nlen, len = (size_t)src->len;
	int err, inplace;

	if ((err = store_prepare_kept(st, SS_PUT_OUTPUT, &s, "INSERT OR "
	    "REPLACE INTO outputs "
	    "(result_id, data, stored_size, original_size, capped) VALUES "
	    "(?, ?, ?, ?, ?)", dl)) != STORE_OK)
		return err;
	if (total < len)
		total = len;
	keep = store_cap_output(st, len, total, note, sizeof(note), &nlen);
	inplace = keep + nlen > STORE_OUTPUT_INPLACE;
	(void)sqlite3_bind_int64(s, 1, result_id);
	if (inplace)
		(void)sqlite3_bind_zeroblob64(s, 2,
		    (sqlite3_uint64)(keep + nlen));
	else if (nlen == 0 && mem != NULL)
		(void)sqlite3_bind_blob64(s, 2, keep > 0 ? mem : "",
		    (sqlite3_uint64)keep, SQLITE_STATIC);
	else {
		buf = xmalloc(keep + nlen + 1);
		if (keep > 0 && (err = store_out_read(st, mem, src, buf, keep,
		    0, dl)) != STORE_OK) {
			free(buf);
			(void)sqlite3_finalize(s);
			return err;
		}
		memcpy(buf + keep, note, nlen);
		(void)sqlite3_bind_blob64(s, 2, buf, (sqlite3_uint64)(keep +
		    nlen), free);
	}
	(void)sqlite3_bind_int64(s, 3, (int64_t)(keep + nlen));
	(void)sqlite3_bind_int64(s, 4, (int64_t)total);
	(void)sqlite3_bind_int(s, 5, nlen != 0);
	if ((err = store_step_done(st, s, dl, "cannot store the output")) !=
	    STORE_OK || !inplace)
		return err;
	return store_fill_output(st, result_id, mem, src, keep, note, nlen,
	    dl);
}

/* What the kernel said during the test, if anything. */
static int
store_put_kmsg(struct store *st, int64_t result_id,
    const struct store_kmsg *k, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if (k == NULL || (k->nlines == 0 && k->nlost == 0 &&
	    k->taint_before == k->taint_after))
		return STORE_OK;
	if ((err = store_prepare_kept(st, SS_PUT_KMSG, &s, "INSERT OR "
	    "REPLACE INTO kmsgs (result_id, n_lines, n_warn, n_lost, "
	    "taint_before, taint_after, capped, text) "
	    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, result_id);
	(void)sqlite3_bind_int64(s, 2, k->nlines);
	(void)sqlite3_bind_int64(s, 3, k->nwarn);
	(void)sqlite3_bind_int64(s, 4, k->nlost);
	(void)sqlite3_bind_int64(s, 5, k->taint_before);
	(void)sqlite3_bind_int64(s, 6, k->taint_after);
	(void)sqlite3_bind_int(s, 7, k->capped);
	(void)sqlite3_bind_blob(s, 8, k->text != NULL ? k->text : "",
	    (int)k->len, SQLITE_STATIC);
	return store_step_done(st, s, dl, "cannot record what the kernel "
	    "said during result %lld", (long long)result_id);
}

/* The result and its output, from mem or else src, in one step. */
static int
store_finish(struct store *st, int64_t result_id,
    const struct store_result *r, const void *mem,
    const struct store_outsrc *src, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if (r->status == TS_RUNNING || (unsigned)r->status >= TS__COUNT) {
		diag_error(dl, st->path, 0, "%s: cannot finish a test with "
		    "status %d", nz(r->tag), (int)r->status);
		return STORE_EINVAL;
	}
	if ((err = store_begin_write(st, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare_kept(st, SS_TEST_FINISH, &s, "UPDATE "
	    "results SET status = ?, "
	    "exit_code = ?, signal = ?, duration_ms = ?, n_pass = ?, "
	    "n_fail = ?, n_broken = ?, n_conf = ?, n_warn = ?, ended = ?, "
	    "n_envwarn = ?, raw = ?, judged = ? "
	    "WHERE id = ? AND status = ?", dl)) != STORE_OK)
		goto fail;
	(void)sqlite3_bind_int(s, 1, (int)r->status);
	(void)sqlite3_bind_int(s, 2, r->exit_code);
	(void)sqlite3_bind_int(s, 3, r->signal);
	(void)sqlite3_bind_int64(s, 4, r->duration_ms);
	(void)sqlite3_bind_int64(s, 5, r->npass);
	(void)sqlite3_bind_int64(s, 6, r->nfail);
	(void)sqlite3_bind_int64(s, 7, r->nbroken);
	(void)sqlite3_bind_int64(s, 8, r->nconf);
	(void)sqlite3_bind_int64(s, 9, r->nwarn);
	(void)sqlite3_bind_int64(s, 10, r->ended != 0 ? r->ended :
	    store_now());
	(void)sqlite3_bind_int64(s, 11, r->nenvwarn);
	(void)sqlite3_bind_text(s, 12, r->raw, -1, SQLITE_TRANSIENT);
	(void)sqlite3_bind_text(s, 13, r->judged, -1, SQLITE_TRANSIENT);
	(void)sqlite3_bind_int64(s, 14, result_id);
	(void)sqlite3_bind_int(s, 15, TS_RUNNING);
	if ((err = store_step_done(st, s, dl, "cannot record the result of "
	    "%s", nz(r->tag))) != STORE_OK)
		goto fail;
	if (sqlite3_changes(st->db) == 0) {
		diag_error(dl, st->path, 0, "result %lld is not a running "
		    "test", (long long)result_id);
		err = STORE_ENOTFOUND;
		goto fail;
	}
	(void)snprintf(st->judged_last, sizeof(st->judged_last), "%s",
	    r->judged);
	if ((err = store_put_output(st, result_id, mem, src, dl)) !=
	    STORE_OK ||
	    (err = store_put_kmsg(st, result_id, r->kmsg, dl)) != STORE_OK)
		goto fail;
	return store_commit(st, dl);
fail:
	store_rollback(st);
	return err;
}

int
store_test_finish(struct store *st, int64_t result_id,
    const struct store_result *r, const void *output, size_t len,
    struct diaglist *dl)
{
	struct store_outsrc src;

	memset(&src, 0, sizeof(src));
	src.len = len;
	/* output_size: what the test wrote, of which output is the head. */
	src.total = r->output_size > 0 ? (uint64_t)r->output_size : len;
	return store_finish(st, result_id, r, output != NULL ? output : "",
	    &src, dl);
}

int
store_test_finish_src(struct store *st, int64_t result_id,
    const struct store_result *r, const struct store_outsrc *src,
    struct diaglist *dl)
{
	return store_finish(st, result_id, r, NULL, src, dl);
}

int
store_output_append(struct store *st, int64_t result_id, const void *text,
    size_t len, struct diaglist *dl)
{
	struct store_outsrc src;
	sqlite3_stmt *s;
	const void *old;
	char *buf = NULL;
	size_t oldlen = 0;
	int64_t total = 0;
	int rc, err;

	if ((err = store_begin_write(st, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &s, "SELECT data, original_size FROM "
	    "outputs WHERE result_id = ?", dl)) != STORE_OK)
		goto fail;
	(void)sqlite3_bind_int64(s, 1, result_id);
	if ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		old = sqlite3_column_blob(s, 0);
		oldlen = (size_t)sqlite3_column_bytes(s, 0);
		total = sqlite3_column_int64(s, 1);
		buf = xmalloc(oldlen + len + 1);
		if (oldlen > 0)
			memcpy(buf, old, oldlen);
	} else
		buf = xmalloc(len + 1);
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		err = store_sqlerr(st, dl, rc, "cannot read the output of "
		    "result %lld", (long long)result_id);
		goto fail;
	}
	memcpy(buf + oldlen, text, len);
	if (total < (int64_t)oldlen)
		total = (int64_t)oldlen;
	memset(&src, 0, sizeof(src));
	src.len = oldlen + len;
	src.total = (uint64_t)total + len;
	if ((err = store_put_output(st, result_id, buf, &src, dl)) !=
	    STORE_OK)
		goto fail;
	free(buf);
	return store_commit(st, dl);
fail:
	free(buf);
	store_rollback(st);
	return err;
}

static int
store_mark_interrupted(struct store *st, int64_t run_id,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if ((err = store_prepare(st, &s, "INSERT OR IGNORE INTO outputs "
	    "(result_id, data, stored_size, original_size, capped) "
	    "SELECT id, CAST(?1 AS BLOB), length(CAST(?1 AS BLOB)), "
	    "length(CAST(?1 AS BLOB)), 0 "
	    "FROM results WHERE run_id = ?2 AND status = ?3", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, interrupted_note, -1, SQLITE_STATIC);
	(void)sqlite3_bind_int64(s, 2, run_id);
	(void)sqlite3_bind_int(s, 3, TS_RUNNING);
	if ((err = store_step_done(st, s, dl, "cannot note the interrupted "
	    "tests")) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &s, "UPDATE results SET status = ?, "
	    "ended = ? WHERE run_id = ? AND status = ?", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int(s, 1, TS_INTERRUPTED);
	(void)sqlite3_bind_int64(s, 2, store_now());
	(void)sqlite3_bind_int64(s, 3, run_id);
	(void)sqlite3_bind_int(s, 4, TS_RUNNING);
	if ((err = store_step_done(st, s, dl, "cannot mark the interrupted "
	    "tests")) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &s, "UPDATE runs SET state = 'resumed', "
	    "pid = ?, ended = NULL WHERE id = ?", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, (int64_t)getpid());
	(void)sqlite3_bind_int64(s, 2, run_id);
	return store_step_done(st, s, dl, "cannot mark the run resumed");
}

static int
store_unrun_tests(struct store *st, int64_t run_id,
    struct store_queue_item **qp, size_t *np, struct diaglist *dl)
{
	struct store_queue_item *q = NULL;
	sqlite3_stmt *s;
	size_t n = 0, cap = 0;
	int rc, err;

	/*
	 * By tag, so a test with any result is never run again, but for
	 * one cut short by a crash beside it (-j): interrupted, judged by
	 * ltpscope ("-"), not by how it ended.
	 */
	if ((err = store_prepare(st, &s, "SELECT pos, tag, syscall, cmdline, "
	    "notrun, named, parallel, conflicts FROM queue q WHERE run_id = ?1 AND NOT EXISTS "
	    "(SELECT 1 FROM "
	    "results r WHERE r.run_id = ?1 AND r.tag = q.tag AND "
	    "NOT (r.status = ?2 AND r.raw = '-')) ORDER BY pos",
	    dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, run_id);
	(void)sqlite3_bind_int(s, 2, TS_INTERRUPTED);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			q = xreallocarray(q, cap, sizeof(*q));
		}
		q[n].pos = sqlite3_column_int64(s, 0);
		q[n].tag = store_col_str(s, 1);
		q[n].syscall = store_col_str(s, 2);
		q[n].cmdline = store_col_str(s, 3);
		q[n].notrun = store_col_str(s, 4);
		q[n].named = sqlite3_column_int(s, 5);
		q[n].parallel = sqlite3_column_int(s, 6);
		q[n].conflicts = store_col_str(s, 7);
		n++;
	}
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_queue_free(q, n);
		return store_sqlerr(st, dl, rc, "cannot read the queue of run "
		    "%lld", (long long)run_id);
	}
	*qp = q;
	*np = n;
	return STORE_OK;
}

int
store_run_resume(struct store *st, int64_t run_id,
    struct store_queue_item **qp, size_t *np, struct diaglist *dl)
{
	struct store_run run;
	int64_t pid;
	int err;

	*qp = NULL;
	*np = 0;
	if ((err = store_get_run(st, run_id, &run, dl)) != STORE_OK)
		return err;
	pid = run.pid;
	store_run_clear(&run);
	if (store_run_is_live(st, run_id)) {
		diag_error(dl, st->path, 0, "run %lld is still running "
		    "(process %lld)", (long long)run_id, (long long)pid);
		return STORE_EINVAL;
	}
	/* The lock is the claim: two resumers cannot both get it. */
	if ((err = store_lock_run(st, run_id, dl)) != STORE_OK)
		return err;
	if ((err = store_begin_write(st, dl)) != STORE_OK)
		goto fail;
	if ((err = store_mark_interrupted(st, run_id, dl)) != STORE_OK) {
		store_rollback(st);
		goto fail;
	}
	if ((err = store_commit(st, dl)) != STORE_OK)
		goto fail;
	if ((err = store_unrun_tests(st, run_id, qp, np, dl)) != STORE_OK)
		goto fail;
	return STORE_OK;
fail:
	store_unlock_run(st, run_id);
	return err;
}

void
store_queue_free(struct store_queue_item *q, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(q[i].tag);
		free(q[i].syscall);
		free(q[i].cmdline);
		free(q[i].notrun);
		free(q[i].conflicts);
	}
	free(q);
}

void
store_result_counts(struct store_result *r, const struct ltpout_tally *t)
{
	if (t->summary.present) {
		r->npass = (unsigned)t->summary.passed;
		r->nfail = (unsigned)t->summary.failed;
		r->nbroken = (unsigned)t->summary.broken;
		r->nconf = (unsigned)t->summary.skipped;
		r->nwarn = (unsigned)t->summary.warnings;
	} else {
		r->npass = (unsigned)t->lines[LC_TPASS];
		r->nfail = (unsigned)t->lines[LC_TFAIL];
		r->nbroken = (unsigned)t->lines[LC_TBROK];
		r->nconf = (unsigned)t->lines[LC_TCONF];
		r->nwarn = (unsigned)t->lines[LC_TWARN];
	}
}

int
store_run_set_config(struct store *st, int64_t run_id, const char *config,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if ((err = store_begin_write(st, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &s, "UPDATE runs SET config = ? "
	    "WHERE id = ?", dl)) != STORE_OK)
		goto fail;
	(void)sqlite3_bind_text(s, 1, nz(config), -1, SQLITE_STATIC);
	(void)sqlite3_bind_int64(s, 2, run_id);
	if ((err = store_step_done(st, s, dl, "cannot record the settings "
	    "of run %lld", (long long)run_id)) != STORE_OK)
		goto fail;
	return store_commit(st, dl);
fail:
	store_rollback(st);
	return err;
}
