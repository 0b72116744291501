/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel function index's cache in the store (kindex.h): one row
 * per source file, keyed by the tree's sys/ directory and the file's
 * path, holding its mtime, size and definitions as one text, so that
 * reloading a tree of thousands of files reads thousands of rows, not
 * the hundred thousand definitions one by one.
 */
#include <stdlib.h>
#include <string.h>

#include "ltpscope/kindex.h"
#include "ltpscope/xmalloc.h"
#include "store_impl.h"

int
store_kindex_load(struct store *st, const char *sysdir,
    struct kindex_cached **vp, size_t *np, struct diaglist *dl)
{
	struct kindex_cached *v = NULL;
	size_t n = 0, cap = 0;
	sqlite3_stmt *s;
	int rc, err;

	*vp = NULL;
	*np = 0;
	if ((err = store_prepare(st, &s, "SELECT path, mtime_ns, size, defs "
	    "FROM kindex_files WHERE sysdir = ?1", dl)) != STORE_OK)
		return err;
	(void)sqlite3_bind_text(s, 1, sysdir, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n].path = store_col_str(s, 0);
		v[n].mtime_ns = sqlite3_column_int64(s, 1);
		v[n].size = sqlite3_column_int64(s, 2);
		v[n].defs = store_col_str(s, 3);
		n++;
	}
	(void)sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		store_kindex_cached_free(v, n);
		return store_sqlerr(st, dl, rc, "cannot read the kernel "
		    "function index");
	}
	*vp = v;
	*np = n;
	return STORE_OK;
}

void
store_kindex_cached_free(struct kindex_cached *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].defs);
	}
	free(v);
}

static int
kx_step(struct store *st, sqlite3_stmt *s, struct diaglist *dl)
{
	int rc;

	rc = sqlite3_step(s);
	(void)sqlite3_reset(s);
	if (rc != SQLITE_DONE)
		return store_sqlerr(st, dl, rc, "cannot write the kernel "
		    "function index");
	return STORE_OK;
}

int
store_kindex_put(struct store *st, const char *sysdir,
    const struct kindex_cached *v, size_t n, const char *const *gone,
    size_t ngone, struct diaglist *dl)
{
	sqlite3_stmt *ins = NULL, *del = NULL;
	size_t i;
	int err;

	if (st->readonly)
		return STORE_OK;
	if ((err = store_begin_write(st, dl)) != STORE_OK)
		return err;
	if ((err = store_prepare(st, &ins, "INSERT OR REPLACE INTO "
	    "kindex_files (sysdir, path, mtime_ns, size, defs) VALUES "
	    "(?1, ?2, ?3, ?4, ?5)", dl)) != STORE_OK ||
	    (err = store_prepare(st, &del, "DELETE FROM kindex_files WHERE "
	    "sysdir = ?1 AND path = ?2", dl)) != STORE_OK)
		goto out;
	for (i = 0; i < n && err == STORE_OK; i++) {
		(void)sqlite3_bind_text(ins, 1, sysdir, -1, SQLITE_STATIC);
		(void)sqlite3_bind_text(ins, 2, v[i].path, -1, SQLITE_STATIC);
		(void)sqlite3_bind_int64(ins, 3, v[i].mtime_ns);
		(void)sqlite3_bind_int64(ins, 4, v[i].size);
		(void)sqlite3_bind_text(ins, 5, v[i].defs, -1, SQLITE_STATIC);
		err = kx_step(st, ins, dl);
	}
	for (i = 0; i < ngone && err == STORE_OK; i++) {
		(void)sqlite3_bind_text(del, 1, sysdir, -1, SQLITE_STATIC);
		(void)sqlite3_bind_text(del, 2, gone[i], -1, SQLITE_STATIC);
		err = kx_step(st, del, dl);
	}
out:
	(void)sqlite3_finalize(ins);
	(void)sqlite3_finalize(del);
	if (err != STORE_OK) {
		store_rollback(st);
		return err;
	}
	return store_commit(st, dl);
}
