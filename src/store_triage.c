/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tags and baselines in the store (see store_triage.h).  Each write is
 * one statement, hence one transaction of its own; notes and lines are
 * bound as BLOBs so that whatever bytes a user typed come back exact.
 */
#include <stdlib.h>
#include <string.h>

#include "ltpscope/store_triage.h"
#include "ltpscope/xmalloc.h"
#include "store_impl.h"

static const char *const tag_state_names[TAG__COUNT] = {
	"failing", "resolved?", "resolved", "skipped", "no-result"
};

const char *
tag_state_name(enum tag_state s)
{
	if ((int)s < 0 || s >= TAG__COUNT)
		return "?";
	return tag_state_names[s];
}

static const char *
nz(const char *s)
{
	return s != NULL ? s : "";
}

static void
bind_bytes(sqlite3_stmt *s, int i, const char *v)
{
	v = nz(v);
	/* A zero-length blob must not be NULL: the column is NOT NULL. */
	(void)sqlite3_bind_blob(s, i, *v != '\0' ? v : "", (int)strlen(v),
	    SQLITE_TRANSIENT);
}

static char *
col_bytes(sqlite3_stmt *s, int i)
{
	const void *p = sqlite3_column_blob(s, i);
	int n = sqlite3_column_bytes(s, i);
	char *v;

	v = xmalloc((size_t)n + 1);
	if (n > 0)
		memcpy(v, p, (size_t)n);
	v[n] = '\0';
	return v;
}

/* Runs a prepared write statement to completion; finalizes it. */
static int
step_done(struct store *st, sqlite3_stmt *s, const char *what,
    struct diaglist *dl)
{
	int rc;

	rc = sqlite3_step(s);
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "%s", what);
	return STORE_OK;
}

/* A tag's fields as ?1 to ?8 of the INSERT both writers share. */
static void
tag_bind(sqlite3_stmt *s, const struct triage_tag *t)
{
	(void)sqlite3_bind_text(s, 1, t->tag, -1, SQLITE_TRANSIENT);
	bind_bytes(s, 2, t->line);
	(void)sqlite3_bind_text(s, 3, t->category, -1, SQLITE_TRANSIENT);
	bind_bytes(s, 4, t->note);
	(void)sqlite3_bind_text(s, 5, nz(t->author), -1, SQLITE_TRANSIENT);
	(void)sqlite3_bind_int64(s, 6, t->created != 0 ? t->created :
	    store_now());
	(void)sqlite3_bind_int64(s, 7, t->run_id);
	(void)sqlite3_bind_int(s, 8, t->status_at);
}

/* A tag names a test and a category: STORE_EINVAL, said, otherwise. */
static int
tag_check(struct store *st, const struct triage_tag *t, struct diaglist *dl)
{
	if (t->tag == NULL || *t->tag == '\0' || t->category == NULL ||
	    *t->category == '\0') {
		diag_error(dl, st->path, 0, "a tag needs a test and a "
		    "category");
		return STORE_EINVAL;
	}
	return STORE_OK;
}

int
store_tag_set(struct store *st, const struct triage_tag *t,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if ((err = tag_check(st, t, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &s, "INSERT INTO tags (tag, line, "
	    "category, note, author, created, run_id, status_at, resolved) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, nullif(?7, 0), ?8, 0) "
	    "ON CONFLICT (tag, line) DO UPDATE SET"
	    " category = excluded.category, note = excluded.note,"
	    " author = excluded.author,"
	    " created = excluded.created, run_id = excluded.run_id,"
	    " status_at = excluded.status_at, resolved = 0", dl)) != STORE_OK)
		return err;
	tag_bind(s, t);
	return step_done(st, s, "cannot save the tag", dl);
}

int
store_tag_add(struct store *st, const struct triage_tag *t, int *addedp,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if (addedp != NULL)
		*addedp = 0;
	if ((err = tag_check(st, t, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &s, "INSERT INTO tags (tag, line, "
	    "category, note, author, created, run_id, status_at, resolved) "
	    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, nullif(?7, 0), ?8, 0) "
	    "ON CONFLICT (tag, line) DO NOTHING", dl)) != STORE_OK)
		return err;
	tag_bind(s, t);
	if ((err = step_done(st, s, "cannot save the tag", dl)) == STORE_OK &&
	    addedp != NULL)
		*addedp = sqlite3_changes(st->db) > 0;
	return err;
}

int
store_tag_remove(struct store *st, const char *test, const char *line,
    size_t *np, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if (np != NULL)
		*np = 0;
	if ((err = store_prepare(st, &s, line == NULL ?
	    "DELETE FROM tags WHERE tag = ?1" :
	    "DELETE FROM tags WHERE tag = ?1 AND line = ?2", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, test, -1, SQLITE_TRANSIENT);
	if (line != NULL)
		bind_bytes(s, 2, line);
	err = step_done(st, s, "cannot remove the tag", dl);
	if (err == STORE_OK && np != NULL)
		*np = (size_t)sqlite3_changes(st->db);
	return err;
}

int
store_tag_resolve(struct store *st, const char *test, const char *line,
    int resolved, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if ((err = store_prepare(st, &s, "UPDATE tags SET resolved = ?3 "
	    "WHERE tag = ?1 AND line = ?2", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, test, -1, SQLITE_TRANSIENT);
	bind_bytes(s, 2, line);
	(void)sqlite3_bind_int(s, 3, resolved != 0);
	if ((err = step_done(st, s, "cannot update the tag", dl)) != STORE_OK)
		return err;
	if (sqlite3_changes(st->db) == 0) {
		diag_error(dl, st->path, 0, "%s has no such tag", test);
		return STORE_ENOTFOUND;
	}
	return STORE_OK;
}

static enum tag_state
tag_state_of(int status, int resolved)
{
	if (status < 0)
		return TAG_NORESULT;
	if (test_status_is_bad((enum test_status)status))
		return TAG_FAILING;
	if (status == TS_PASS || status == TS_WARN)
		return resolved ? TAG_RESOLVED : TAG_RESOLVED_Q;
	return TAG_SKIPPED;
}

int
store_tags_list(struct store *st, int64_t run_id, const char *test,
    struct triage_tag **vp, size_t *np, struct diaglist *dl)
{
	struct triage_tag *v = NULL, *t;
	sqlite3_stmt *s;
	size_t n = 0, cap = 0;
	int rc, err;

	*vp = NULL;
	*np = 0;
	/*
	 * The result the state is read from: the run's own (the last one
	 * if the test ran twice), or the test's newest via "latest".
	 */
	if ((err = store_prepare_kept(st, SS_TAGS_LIST, &s, "SELECT t.id, "
	    "t.tag, t.line, t.category, t.note, t.author, t.created, "
	    "ifnull(t.run_id, 0), t.status_at, t.resolved, r.run_id, "
	    "r.status FROM tags t LEFT JOIN results r ON r.id = CASE WHEN "
	    "?1 = 0 THEN "
	    "(SELECT result_id FROM latest l WHERE l.tag = t.tag) ELSE "
	    "(SELECT max(id) FROM results x WHERE x.run_id = ?1 AND "
	    "x.tag = t.tag AND x.status <> " SQL_TS_RUNNING ") END "
	    "WHERE ?2 IS NULL OR t.tag = ?2 ORDER BY t.tag, t.line", dl)) !=
	    STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, run_id);
	if (test != NULL)
		(void)sqlite3_bind_text(s, 2, test, -1, SQLITE_TRANSIENT);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		t = &v[n++];
		memset(t, 0, sizeof(*t));
		t->id = sqlite3_column_int64(s, 0);
		t->tag = store_col_str(s, 1);
		t->line = col_bytes(s, 2);
		t->category = store_col_str(s, 3);
		t->note = col_bytes(s, 4);
		t->author = store_col_str(s, 5);
		t->created = sqlite3_column_int64(s, 6);
		t->run_id = sqlite3_column_int64(s, 7);
		t->status_at = sqlite3_column_int(s, 8);
		t->resolved = sqlite3_column_int(s, 9);
		t->seen_run = sqlite3_column_int64(s, 10);
		t->seen_status = sqlite3_column_type(s, 11) == SQLITE_NULL ?
		    -1 : sqlite3_column_int(s, 11);
		t->state = tag_state_of(t->seen_status, t->resolved);
	}
	store_stmt_done(st, s);
	if (rc != SQLITE_DONE) {
		store_tags_free(v, n);
		return store_sqlerr(st, dl, rc, "cannot read tags");
	}
	*vp = v;
	*np = n;
	return STORE_OK;
}

void
store_tag_clear(struct triage_tag *t)
{
	free(t->tag);
	free(t->line);
	free(t->category);
	free(t->note);
	free(t->author);
	memset(t, 0, sizeof(*t));
}

void
store_tags_free(struct triage_tag *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		store_tag_clear(&v[i]);
	free(v);
}

int
store_baseline_set(struct store *st, int64_t run_id, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if ((err = store_prepare(st, &s, "INSERT INTO baselines (arch, "
	    "run_id, set_at) SELECT arch, id, ?2 FROM runs WHERE id = ?1 "
	    "ON CONFLICT (arch) DO UPDATE SET run_id = excluded.run_id, "
	    "set_at = excluded.set_at", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, run_id);
	(void)sqlite3_bind_int64(s, 2, store_now());
	if ((err = step_done(st, s, "cannot set the baseline", dl)) !=
	    STORE_OK)
		return err;
	if (sqlite3_changes(st->db) == 0) {
		diag_error(dl, st->path, 0, "no run %lld in the database",
		    (long long)run_id);
		return STORE_ENOTFOUND;
	}
	return STORE_OK;
}

/*
 * A run of arch: the statement sql (arch its ?1, before its ?2 if it
 * has one) gives its id or no row (STORE_ENOTFOUND).  baselines and
 * linux_refs hold one run per arch alike, and the newest runs are
 * looked up by arch too.  why: what a failure says.
 */
static int
arch_run_get(struct store *st, const char *sql, const char *arch,
    int64_t before, int64_t *idp, const char *why, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int rc, err;

	*idp = 0;
	if ((err = store_prepare(st, &s, sql, dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, nz(arch), -1, SQLITE_TRANSIENT);
	if (sqlite3_bind_parameter_count(s) > 1)
		(void)sqlite3_bind_int64(s, 2, before);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*idp = sqlite3_column_int64(s, 0);
	(void)sqlite3_finalize(s);
	if (rc == SQLITE_DONE)
		return STORE_ENOTFOUND;
	if (rc != SQLITE_ROW)
		return store_sqlerr(st, dl, rc, "%s", why);
	return STORE_OK;
}

/* why: what a failure says, "cannot clear the baseline". */
static int
arch_run_clear(struct store *st, const char *sql, const char *arch,
    const char *why, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if ((err = store_prepare(st, &s, sql, dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, nz(arch), -1, SQLITE_TRANSIENT);
	return step_done(st, s, why, dl);
}

int
store_baseline_get(struct store *st, const char *arch, int64_t *idp,
    struct diaglist *dl)
{
	return arch_run_get(st, "SELECT run_id FROM baselines WHERE arch = ?1",
	    arch, 0, idp, "cannot read the baseline", dl);
}

int
store_baseline_clear(struct store *st, const char *arch,
    struct diaglist *dl)
{
	return arch_run_clear(st, "DELETE FROM baselines WHERE arch = ?1",
	    arch, "cannot clear the baseline", dl);
}

int
store_linux_ref_set(struct store *st, const char *arch, int64_t run_id,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if ((err = store_prepare(st, &s, "INSERT INTO linux_refs (arch, "
	    "run_id, set_at) VALUES (?1, ?2, ?3) ON CONFLICT (arch) DO "
	    "UPDATE SET run_id = excluded.run_id, set_at = excluded.set_at",
	    dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, nz(arch), -1, SQLITE_TRANSIENT);
	(void)sqlite3_bind_int64(s, 2, run_id);
	(void)sqlite3_bind_int64(s, 3, store_now());
	return step_done(st, s, "cannot set the Linux reference", dl);
}

int
store_linux_ref_get(struct store *st, const char *arch, int64_t *idp,
    struct diaglist *dl)
{
	return arch_run_get(st, "SELECT run_id FROM linux_refs WHERE "
	    "arch = ?1", arch, 0, idp, "cannot read the Linux reference", dl);
}

int
store_linux_ref_clear(struct store *st, const char *arch,
    struct diaglist *dl)
{
	return arch_run_clear(st, "DELETE FROM linux_refs WHERE arch = ?1",
	    arch, "cannot clear the Linux reference", dl);
}

int
store_latest_run_arch(struct store *st, const char *arch, int64_t *idp,
    struct diaglist *dl)
{
	int err;

	/* max() always gives a row: NULL, read as 0, when none. */
	if ((err = arch_run_get(st, "SELECT max(id) FROM runs WHERE ?1 = '' "
	    "OR arch = ?1", arch, 0, idp, "cannot read runs", dl)) !=
	    STORE_OK)
		return err;
	if (*idp == 0) {
		diag_error(dl, st->path, 0, "no runs%s%s in the database",
		    nz(arch)[0] != '\0' ? " for " : "", nz(arch));
		return STORE_ENOTFOUND;
	}
	return STORE_OK;
}

int
store_previous_run(struct store *st, const char *arch, int64_t before,
    int64_t *idp, struct diaglist *dl)
{
	return arch_run_get(st, "SELECT max(id) FROM runs WHERE arch = ?1 "
	    "AND id < ?2", arch, before, idp, "cannot read runs", dl);
}
