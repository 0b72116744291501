/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Program profiles in the store (profile.h): a profile, its calls and
 * their errors written in one transaction, so that a re-import never
 * leaves half of the old profile beside half of the new.
 */
#include <stdlib.h>
#include <string.h>

#include "ltpscope/profile.h"
#include "ltpscope/xmalloc.h"
#include "store_impl.h"

static int
step_done(struct store *st, sqlite3_stmt *s, const char *what,
    struct diaglist *dl)
{
	int rc;

	rc = sqlite3_step(s);
	(void)sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "%s", what);
	return STORE_OK;
}

static int
put_calls(struct store *st, int64_t id, const struct profile *p,
    struct diaglist *dl)
{
	sqlite3_stmt *c = NULL, *e = NULL;
	const struct profile_call *pc;
	size_t i, k;
	int err;

	if ((err = store_prepare(st, &c, "INSERT INTO profile_calls "
	    "(profile_id, name, count, nerrors, flags) VALUES "
	    "(?1, ?2, ?3, ?4, ?5)", dl)) != STORE_OK ||
	    (err = store_prepare(st, &e, "INSERT INTO profile_errors "
	    "(profile_id, name, errno, count) VALUES (?1, ?2, ?3, ?4)",
	    dl)) != STORE_OK)
		goto out;
	for (i = 0; i < p->ncalls && err == STORE_OK; i++) {
		pc = &p->calls[i];
		(void)sqlite3_bind_int64(c, 1, id);
		(void)sqlite3_bind_text(c, 2, pc->name, -1, SQLITE_STATIC);
		(void)sqlite3_bind_int64(c, 3, (sqlite3_int64)pc->count);
		(void)sqlite3_bind_int64(c, 4, (sqlite3_int64)pc->nerrors);
		(void)sqlite3_bind_text(c, 5, pc->flags != NULL ? pc->flags :
		    "", -1, SQLITE_STATIC);
		err = step_done(st, c, "cannot store the profile's calls", dl);
		for (k = 0; k < pc->nerrs && err == STORE_OK; k++) {
			(void)sqlite3_bind_int64(e, 1, id);
			(void)sqlite3_bind_text(e, 2, pc->name, -1,
			    SQLITE_STATIC);
			(void)sqlite3_bind_text(e, 3, pc->errs[k].name, -1,
			    SQLITE_STATIC);
			(void)sqlite3_bind_int64(e, 4,
			    (sqlite3_int64)pc->errs[k].count);
			err = step_done(st, e, "cannot store the profile's "
			    "errors", dl);
		}
	}
out:
	(void)sqlite3_finalize(c);
	(void)sqlite3_finalize(e);
	return err;
}

int
store_profile_put(struct store *st, struct profile *p, struct diaglist *dl)
{
	sqlite3_stmt *s;
	int64_t id;
	int err;

	if (p->name == NULL || !profile_name_valid(p->name)) {
		diag_error(dl, st->path, 0, "'%s' is not a profile name",
		    p->name != NULL ? p->name : "");
		return STORE_EINVAL;
	}
	if ((err = store_begin_write(st, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &s, "DELETE FROM profiles WHERE "
	    "name = ?1", dl)) != STORE_OK)
		goto fail;
	(void)sqlite3_bind_text(s, 1, p->name, -1, SQLITE_STATIC);
	err = step_done(st, s, "cannot replace the profile", dl);
	(void)sqlite3_finalize(s);
	if (err != STORE_OK)
		goto fail;
	if ((err = store_prepare(st, &s, "INSERT INTO profiles (name, source, "
	    "format, emul, imported) VALUES (?1, ?2, ?3, ?4, ?5)", dl)) !=
	    STORE_OK)
		goto fail;
	p->imported = p->imported != 0 ? p->imported : store_now();
	(void)sqlite3_bind_text(s, 1, p->name, -1, SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 2, p->source != NULL ? p->source : "", -1,
	    SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 3, profile_format_name(p->format), -1,
	    SQLITE_STATIC);
	(void)sqlite3_bind_text(s, 4, p->emul != NULL ? p->emul : "", -1,
	    SQLITE_STATIC);
	(void)sqlite3_bind_int64(s, 5, p->imported);
	err = step_done(st, s, "cannot store the profile", dl);
	(void)sqlite3_finalize(s);
	if (err != STORE_OK)
		goto fail;
	id = sqlite3_last_insert_rowid(st->db);
	if ((err = put_calls(st, id, p, dl)) != STORE_OK)
		goto fail;
	return store_commit(st, dl);
fail:
	store_rollback(st);
	return err;
}

static int
get_errors(struct store *st, int64_t id, struct profile *p,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	struct profile_call *c;
	const char *name;
	int err, rc;

	if ((err = store_prepare(st, &s, "SELECT name, errno, count FROM "
	    "profile_errors WHERE profile_id = ?1 ORDER BY name, count DESC, "
	    "errno", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		name = (const char *)sqlite3_column_text(s, 0);
		if (name == NULL || (c = (struct profile_call *)profile_find(p,
		    name)) == NULL)
			continue;
		c->errs = xreallocarray(c->errs, c->nerrs + 1,
		    sizeof(*c->errs));
		c->errs[c->nerrs].name = store_col_str(s, 1);
		c->errs[c->nerrs++].count =
		    (unsigned long)sqlite3_column_int64(s, 2);
	}
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "cannot read the profile");
	return STORE_OK;
}

int
store_profile_get(struct store *st, const char *name, struct profile *p,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	struct profile_call *c;
	int64_t id;
	int err, rc;

	profile_init(p);
	if ((err = store_prepare(st, &s, "SELECT id, name, source, format, "
	    "emul, imported FROM profiles WHERE name = ?1", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
	if ((rc = sqlite3_step(s)) != SQLITE_ROW) {
		(void)sqlite3_finalize(s);
		if (rc != SQLITE_DONE)
			return store_sqlerr(st, dl, rc, "cannot read the "
			    "profile");
		diag_error(dl, st->path, 0, "no profile named '%s'", name);
		return STORE_ENOTFOUND;
	}
	id = sqlite3_column_int64(s, 0);
	p->name = store_col_str(s, 1);
	p->source = store_col_str(s, 2);
	rc = profile_format_from_name((const char *)sqlite3_column_text(s,
	    3) != NULL ? (const char *)sqlite3_column_text(s, 3) : "");
	p->format = rc > 0 ? (enum profile_format)rc : PF_UNKNOWN;
	p->emul = store_col_str(s, 4);
	p->imported = sqlite3_column_int64(s, 5);
	(void)sqlite3_finalize(s);
	if ((err = store_prepare(st, &s, "SELECT name, count, nerrors, flags "
	    "FROM profile_calls WHERE profile_id = ?1 ORDER BY name", dl)) !=
	    STORE_OK)
		goto fail;
	(void)sqlite3_bind_int64(s, 1, id);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		p->calls = xreallocarray(p->calls, p->ncalls + 1,
		    sizeof(*p->calls));
		c = &p->calls[p->ncalls++];
		memset(c, 0, sizeof(*c));
		c->name = store_col_str(s, 0);
		c->count = (unsigned long)sqlite3_column_int64(s, 1);
		c->nerrors = (unsigned long)sqlite3_column_int64(s, 2);
		c->flags = store_col_str(s, 3);
	}
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		err = store_sqlerr(st, dl, rc, "cannot read the profile");
		goto fail;
	}
	/* SQLite's ORDER BY is bytewise, as profile_find() wants. */
	if ((err = get_errors(st, id, p, dl)) == STORE_OK)
		return STORE_OK;
fail:
	profile_free(p);
	return err;
}

int
store_profile_names(struct store *st, char ***namesp, size_t *np,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	char **v = NULL;
	size_t n = 0;
	int err, rc;

	*namesp = NULL;
	*np = 0;
	if ((err = store_prepare(st, &s, "SELECT name FROM profiles ORDER BY "
	    "name", dl)) != STORE_OK)
		return err;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		v = xreallocarray(v, n + 2, sizeof(*v));
		v[n++] = store_col_str(s, 0);
		v[n] = NULL;
	}
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		xfreev(v);
		return store_sqlerr(st, dl, rc, "cannot list the profiles");
	}
	*namesp = v;
	*np = n;
	return STORE_OK;
}

int
store_profile_delete(struct store *st, const char *name,
    struct diaglist *dl)
{
	sqlite3_stmt *s;
	int err;

	if ((err = store_prepare(st, &s, "DELETE FROM profiles WHERE "
	    "name = ?1", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, name, -1, SQLITE_TRANSIENT);
	err = step_done(st, s, "cannot delete the profile", dl);
	(void)sqlite3_finalize(s);
	if (err == STORE_OK && sqlite3_changes(st->db) == 0) {
		diag_error(dl, st->path, 0, "no profile named '%s'", name);
		return STORE_ENOTFOUND;
	}
	return err;
}
