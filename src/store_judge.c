/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Judging stored results again when the rules that judged them change
 * (see store_rejudge() in store.h).  The store keeps each result's
 * verdict inputs; what they mean is verdict.c's business, so the new
 * verdict comes from a callback.
 */
#include <stdlib.h>
#include <string.h>

#include "ltpscope/xmalloc.h"
#include "store_impl.h"

/*
 * Rows the rules could judge differently: those with a warning (an
 * envwarn rule may cover it), unknown ones, and rows older than the
 * verdict inputs.  Failures, timeouts and signals never change.  The
 * two ranges let results_judged serve "judged <> digest".
 */
#define JUDGE_WHERE							\
	"(judged < ?1 OR judged > ?1) AND status <> " SQL_TS_RUNNING
#define JUDGE_MAYCHANGE							\
	"status IN (" SQL_TS_PASS ", " SQL_TS_BROKEN ", " SQL_TS_CONF	\
	", " SQL_TS_WARN ", " SQL_TS_UNKNOWN ") AND (raw = '' OR "	\
	"n_warn > 0 OR n_envwarn > 0)"

struct judge_row {
	int64_t		 id;
	enum test_status status;
	int		 exit_code;
	int		 signal;
	unsigned	 nenvwarn;
	char		*raw;
};

static int
judge_collect(struct store *st, const char *digest, struct judge_row **vp,
    size_t *np, struct diaglist *dl)
{
	struct judge_row *v = NULL;
	sqlite3_stmt *s;
	size_t n = 0, cap = 0;
	int rc, err;

	if ((err = store_prepare(st, &s, "SELECT id, status, exit_code, "
	    "signal, n_envwarn, raw FROM results WHERE " JUDGE_WHERE " AND "
	    JUDGE_MAYCHANGE " ORDER BY id", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, digest, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n].id = sqlite3_column_int64(s, 0);
		v[n].status = (enum test_status)sqlite3_column_int(s, 1);
		v[n].exit_code = sqlite3_column_int(s, 2);
		v[n].signal = sqlite3_column_int(s, 3);
		v[n].nenvwarn = (unsigned)sqlite3_column_int64(s, 4);
		v[n].raw = store_col_str(s, 5);
		n++;
	}
	(void)sqlite3_finalize(s);
	*vp = v;
	*np = n;
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "cannot read the results to "
		    "judge");
	return STORE_OK;
}

static int
judge_update(struct store *st, const struct store_judge *j,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int rc, err;

	if ((err = store_prepare(st, &s, "UPDATE results SET status = ?, "
	    "n_envwarn = ?, raw = ? WHERE id = ?", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int(s, 1, (int)j->new_status);
	(void)sqlite3_bind_int64(s, 2, j->new_nenvwarn);
	(void)sqlite3_bind_text(s, 3, j->new_raw, -1, SQLITE_STATIC);
	(void)sqlite3_bind_int64(s, 4, j->id);
	rc = sqlite3_step(s);
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "cannot record the verdict "
		    "of result %lld", (long long)j->id);
	return STORE_OK;
}

static int
judge_one(struct store *st, const struct judge_row *row, store_judge_fn fn,
    void *arg, unsigned *nchanged, struct diaglist *dl)
{
	struct store_output o;
	struct store_judge j;
	struct diaglist odl;
	int err;

	memset(&j, 0, sizeof(j));
	j.id = row->id;
	j.status = j.new_status = row->status;
	j.exit_code = row->exit_code;
	j.signal = row->signal;
	j.nenvwarn = j.new_nenvwarn = row->nenvwarn;
	j.raw = row->raw;
	(void)strncpy(j.new_raw, row->raw, sizeof(j.new_raw) - 1);
	/* No output stored is no error: the counts are judged alone. */
	diag_init(&odl);
	err = store_get_output(st, row->id, &o, &odl);
	if (err != STORE_OK && err != STORE_ENOTFOUND) {
		diag_free(&odl);
		return store_sqlerr(st, dl, sqlite3_errcode(st->db),
		    "cannot read the output of result %lld",
		    (long long)row->id);
	}
	diag_free(&odl);
	j.output = o.data != NULL ? o.data : "";
	j.outlen = o.stored_size;
	fn(arg, &j);
	store_output_clear(&o);
	if (j.new_status == j.status && j.new_nenvwarn == j.nenvwarn &&
	    strcmp(j.new_raw, j.raw) == 0)
		return STORE_OK;
	if ((unsigned)j.new_status >= TS__COUNT ||
	    j.new_status == TS_RUNNING)
		return STORE_OK;
	if (j.new_status != j.status)
		(*nchanged)++;
	return judge_update(st, &j, dl);
}

int
store_rejudge(struct store *st, const char *digest, store_judge_fn fn,
    void *arg, unsigned *nchangedp, struct diaglist *dl)
{
	struct judge_row *v = NULL;
	sqlite3_stmt *s;
	unsigned nchanged = 0;
	size_t n = 0, i;
	int rc, err, any;

	if (nchangedp != NULL)
		*nchangedp = 0;
	/* The usual case, read only: everything judged by these rules. */
	if ((err = store_prepare(st, &s, "SELECT 1 FROM results WHERE "
	    JUDGE_WHERE " LIMIT 1", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, digest, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	any = rc == SQLITE_ROW;
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "cannot read the results");
	if (!any)
		return STORE_OK;
	if ((err = store_begin_write(st, dl)) != STORE_OK)
		return err;
	if ((err = judge_collect(st, digest, &v, &n, dl)) != STORE_OK)
		goto fail;
	for (i = 0; i < n; i++)
		if ((err = judge_one(st, &v[i], fn, arg, &nchanged, dl)) !=
		    STORE_OK)
			goto fail;
	if ((err = store_prepare(st, &s, "UPDATE results SET judged = ?1 "
	    "WHERE " JUDGE_WHERE, dl)) != STORE_OK)
		goto fail;
	(void)sqlite3_bind_text(s, 1, digest, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		err = store_sqlerr(st, dl, rc, "cannot mark the results "
		    "judged");
		goto fail;
	}
	if ((err = store_commit(st, dl)) != STORE_OK)
		goto out;
	if (nchangedp != NULL)
		*nchangedp = nchanged;
	goto out;
fail:
	store_rollback(st);
out:
	for (i = 0; i < n; i++)
		free(v[i].raw);
	free(v);
	return err;
}
