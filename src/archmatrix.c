/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The multi-arch matrix (see archmatrix.h): which runs make the
 * columns, then one merge of their results by tag.  The run list and
 * the results come through the store's own queries; nothing here
 * speaks SQL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/archmatrix.h"
#include "ltpscope/compare.h"
#include "ltpscope/linuxref.h"
#include "ltpscope/triage.h"
#include "ltpscope/xmalloc.h"

static const char *const amx_scope_names[AMX__COUNT] = {
	"ok", "arch-specific", "every-arch", "unsure"
};

const char *
amx_scope_name(enum amx_scope s)
{
	return (unsigned)s < AMX__COUNT ? amx_scope_names[s] : "?";
}

int
amx_status_good(int s)
{
	return s == TS_PASS || s == TS_WARN;
}

/* Whether run r is the Linux reference of its arch. */
static int
amx_is_reference(struct store *st, const struct store_run *r,
    struct diaglist *dl)
{
	int64_t id;
	int err;

	/* Only a run made on Linux can be one (linuxref_set()). */
	if (strcmp(r->os_name, "Linux") != 0)
		return 0;
	if ((err = linuxref_get(st, r->arch, &id, dl)) != STORE_OK &&
	    err != STORE_ENOTFOUND)
		return -1;
	return err == STORE_OK && id == r->id;
}

/*
 * A copy of runs[i] in a new column; runs[i], a view of the run list,
 * is left empty: taken.
 */
static void
amx_take(struct archmatrix *m, struct store_run *r)
{
	m->cols = xreallocarray(m->cols, m->ncols + 1, sizeof(*m->cols));
	memset(&m->cols[m->ncols], 0, sizeof(m->cols[0]));
	store_run_copy(&m->cols[m->ncols++].run, r);
	memset(r, 0, sizeof(*r));
}

static struct amx_column *
amx_col_of_arch(struct archmatrix *m, const char *arch)
{
	size_t i;

	for (i = 0; i < m->ncols; i++)
		if (linuxref_same_arch(m->cols[i].run.arch, arch))
			return &m->cols[i];
	return NULL;
}

static struct store_run *
amx_find_run(struct store_run *v, size_t n, int64_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].id == id)
			return &v[i];
	return NULL;
}

/*
 * The newest finished run of arch that is no Linux reference: *rp, or
 * NULL when there is none.  An error reading the references (said).
 */
static int
amx_newest_of(struct store *st, struct store_run *v, size_t n,
    const char *arch, struct store_run **rp, struct diaglist *dl)
{
	size_t i;
	int ref;

	*rp = NULL;
	/* v is newest first; a column already taken is empty here. */
	for (i = 0; i < n; i++) {
		if (v[i].id == 0 || v[i].state != RUN_FINISHED ||
		    !linuxref_same_arch(v[i].arch, arch))
			continue;
		if ((ref = amx_is_reference(st, &v[i], dl)) < 0)
			return STORE_EIO;
		if (!ref) {
			*rp = &v[i];
			break;
		}
	}
	return STORE_OK;
}

/* One column for run r, unless its arch has one already (said). */
static int
amx_add(struct store *st, struct archmatrix *m, struct store_run *r,
    struct diaglist *dl)
{
	const struct amx_column *c;

	if ((c = amx_col_of_arch(m, r->arch)) != NULL) {
		diag_error(dl, store_path(st), 0, "runs %lld and %lld are "
		    "both of arch '%s': the matrix has one column per arch",
		    (long long)c->run.id, (long long)r->id,
		    linuxref_arch(r->arch));
		return STORE_EINVAL;
	}
	amx_take(m, r);
	return STORE_OK;
}

static int
amx_pick_one(struct store *st, struct archmatrix *m, struct store_run *v,
    size_t n, const struct amx_pick *p, struct diaglist *dl)
{
	struct store_run *r;
	size_t i;

	if (p->run_id != 0) {
		if ((r = amx_find_run(v, n, p->run_id)) != NULL)
			return amx_add(st, m, r, dl);
		/* Not in the list: taken already, or no such run. */
		for (i = 0; i < m->ncols; i++)
			if (m->cols[i].run.id == p->run_id) {
				diag_error(dl, store_path(st), 0, "run %lld is "
				    "picked twice", (long long)p->run_id);
				return STORE_EINVAL;
			}
		diag_error(dl, store_path(st), 0, "no run %lld in the database",
		    (long long)p->run_id);
		return STORE_ENOTFOUND;
	}
	if (amx_col_of_arch(m, p->arch) != NULL) {
		diag_error(dl, store_path(st), 0, "arch '%s' is picked twice",
		    p->arch);
		return STORE_EINVAL;
	}
	if (amx_newest_of(st, v, n, p->arch, &r, dl) != STORE_OK)
		return STORE_EIO;
	if (r == NULL) {
		diag_error(dl, store_path(st), 0, "no finished run of arch "
		    "'%s' in the database", p->arch);
		return STORE_ENOTFOUND;
	}
	return amx_add(st, m, r, dl);
}

static int
amx_by_arch(const void *x, const void *y)
{
	const struct amx_column *a = x, *b = y;

	return strcmp(linuxref_arch(a->run.arch), linuxref_arch(b->run.arch));
}

/*
 * The runs that make the columns (see archmatrix_build()), from the
 * run list runs[0..n), or read here when runs is NULL.
 */
static int
amx_columns(struct store *st, struct archmatrix *m, int64_t first,
    const struct amx_pick *picks, size_t npicks,
    const struct store_run *runs, size_t n, struct diaglist *dl)
{
	struct store_run *owned = NULL, *v, *r;
	struct amx_pick p;
	size_t i, nfirst;
	int err = STORE_OK;

	if (runs == NULL) {
		if ((err = store_list_runs(st, &owned, &n, dl)) != STORE_OK)
			return err;
		runs = owned;
	}
	/* A view whose entries are emptied as columns take them. */
	v = xcalloc(n > 0 ? n : 1, sizeof(*v));
	if (n > 0)
		memcpy(v, runs, n * sizeof(*v));
	if (first != 0) {
		memset(&p, 0, sizeof(p));
		p.run_id = first;
		err = amx_pick_one(st, m, v, n, &p, dl);
	}
	for (i = 0; i < npicks && err == STORE_OK; i++)
		err = amx_pick_one(st, m, v, n, &picks[i], dl);
	if (err != STORE_OK || npicks > 0)
		goto out;
	nfirst = m->ncols;
	for (i = 0; i < n && err == STORE_OK; i++) {
		if (v[i].id == 0 || amx_col_of_arch(m, v[i].arch) != NULL)
			continue;
		if ((err = amx_newest_of(st, v, n, v[i].arch, &r, dl)) ==
		    STORE_OK && r != NULL)
			amx_take(m, r);
	}
	if (err == STORE_OK && m->ncols - nfirst > 1)
		qsort(m->cols + nfirst, m->ncols - nfirst, sizeof(*m->cols),
		    amx_by_arch);
out:
	free(v);
	store_runs_free(owned, owned != NULL ? n : 0);
	return err;
}

static int
amx_by_tag(const void *x, const void *y)
{
	return strcmp(((const struct amx_row *)x)->tag,
	    ((const struct amx_row *)y)->tag);
}

const struct amx_row *
archmatrix_find(const struct archmatrix *m, const char *tag)
{
	struct amx_row key;

	if (m->nrows == 0)
		return NULL;
	memset(&key, 0, sizeof(key));
	key.tag = (char *)tag;
	return bsearch(&key, m->rows, m->nrows, sizeof(*m->rows), amx_by_tag);
}

/*
 * Rows for every tag of the columns' results, sorted, each once: a
 * merge of the columns, each sorted by tag with a tag once already
 * (compare_last_per_tag()), so no sort and no search here.
 */
static void
amx_rows(struct archmatrix *m, struct store_result **res, size_t *nres)
{
	struct amx_row *r;
	const char *t;
	size_t c, n = 0, *at;

	for (c = 0; c < m->ncols; c++)
		n += nres[c];
	m->rows = xcalloc(n > 0 ? n : 1, sizeof(*m->rows));
	/* A block for every row's cells: not an allocation a row. */
	m->cells = xreallocarray(NULL, n > 0 ? n : 1, (m->ncols > 0 ?
	    m->ncols : 1) * sizeof(*m->cells));
	at = xcalloc(m->ncols > 0 ? m->ncols : 1, sizeof(*at));
	for (;;) {
		/* The least tag under the columns' cursors is the next row's. */
		for (c = 0, t = NULL; c < m->ncols; c++)
			if (at[c] < nres[c] && (t == NULL ||
			    strcmp(res[c][at[c]].tag, t) < 0))
				t = res[c][at[c]].tag;
		if (t == NULL)
			break;
		r = &m->rows[m->nrows++];
		r->tag = xstrdup(t);
		r->status = m->cells + (m->nrows - 1) * m->ncols;
		for (c = 0; c < m->ncols; c++) {
			r->status[c] = -1;
			if (at[c] >= nres[c] ||
			    strcmp(res[c][at[c]].tag, r->tag) != 0)
				continue;
			r->status[c] = (int)res[c][at[c]].status;
			if (r->syscall == NULL)
				r->syscall = triage_result_syscall(
				    &res[c][at[c]]);
			at[c]++;
		}
	}
	free(at);
}

static void
amx_classify(struct archmatrix *m)
{
	struct amx_row *r;
	size_t i, c;
	unsigned ngood;

	for (i = 0; i < m->nrows; i++) {
		r = &m->rows[i];
		for (c = 0, ngood = 0; c < m->ncols; c++) {
			if (r->status[c] >= 0 && test_status_is_bad(
			    (enum test_status)r->status[c]))
				r->nbad++;
			ngood += amx_status_good(r->status[c]);
		}
		if (r->nbad == 0)
			r->scope = AMX_GOOD;
		else if (ngood > 0)
			r->scope = AMX_SPECIFIC;
		else if (r->nbad == m->ncols)
			r->scope = AMX_EVERY;
		else
			r->scope = AMX_UNSURE;
		m->counts[r->scope]++;
		for (c = 0; c < m->ncols; c++) {
			if (r->status[c] < 0 || !test_status_is_bad(
			    (enum test_status)r->status[c]))
				continue;
			m->cols[c].nbad++;
			m->cols[c].nonly += r->scope == AMX_SPECIFIC &&
			    r->nbad == 1;
		}
	}
}

/*
 * A view of the first run's results, which the caller read and keeps:
 * the structures copied, their strings not, each tag's last result
 * that is not still running.
 */
static struct store_result *
amx_view(const struct store_result *v, size_t n, size_t *np)
{
	struct store_result *w = xcalloc(n > 0 ? n : 1, sizeof(*w));

	if (n > 0)
		memcpy(w, v, n * sizeof(*w));
	*np = compare_last_per_tag_borrowed(w, n);
	return w;
}

/*
 * The matrix; fres (when not NULL) the first run's results, read by the
 * caller, which its column takes as they are instead of reading them
 * again.
 */
static int
archmatrix_build_with(struct store *st, int64_t first,
    const struct store_result *fres, size_t nfres,
    const struct store_run *runs, size_t nruns,
    const struct amx_pick *picks, size_t npicks, struct archmatrix *m,
    struct diaglist *dl)
{
	struct store_result **res;
	size_t *nres, c;
	int err, viewed = 0;

	memset(m, 0, sizeof(*m));
	if ((err = amx_columns(st, m, first, picks, npicks, runs, nruns,
	    dl)) != STORE_OK) {
		archmatrix_free(m);
		return err;
	}
	res = xcalloc(m->ncols > 0 ? m->ncols : 1, sizeof(*res));
	nres = xcalloc(m->ncols > 0 ? m->ncols : 1, sizeof(*nres));
	for (c = 0; c < m->ncols && err == STORE_OK; c++) {
		if (c == 0 && fres != NULL && first != 0 &&
		    m->cols[0].run.id == first) {
			res[0] = amx_view(fres, nfres, &nres[0]);
			viewed = 1;
		} else if ((err = store_run_results(st, m->cols[c].run.id,
		    &res[c], &nres[c], dl)) == STORE_OK)
			nres[c] = compare_last_per_tag(res[c], nres[c]);
	}
	if (err == STORE_OK) {
		amx_rows(m, res, nres);
		amx_classify(m);
	}
	for (c = 0; c < m->ncols; c++)
		if (c == 0 && viewed)
			free(res[0]);
		else
			store_results_free(res[c], nres[c]);
	free(res);
	free(nres);
	if (err != STORE_OK)
		archmatrix_free(m);
	return err;
}

int
archmatrix_build_first(struct store *st, int64_t first,
    const struct store_result *fres, size_t nfres,
    const struct store_run *runs, size_t nruns, struct archmatrix *m,
    struct diaglist *dl)
{
	return archmatrix_build_with(st, first, fres, nfres, runs, nruns,
	    NULL, 0, m, dl);
}

int
archmatrix_build(struct store *st, int64_t first,
    const struct amx_pick *picks, size_t npicks, struct archmatrix *m,
    struct diaglist *dl)
{
	return archmatrix_build_with(st, first, NULL, 0, NULL, 0, picks,
	    npicks, m, dl);
}

void
archmatrix_free(struct archmatrix *m)
{
	size_t i;

	for (i = 0; i < m->ncols; i++)
		store_run_clear(&m->cols[i].run);
	free(m->cols);
	for (i = 0; i < m->nrows; i++) {
		free(m->rows[i].tag);
		free(m->rows[i].syscall);
	}
	free(m->rows);
	free(m->cells);
	memset(m, 0, sizeof(*m));
}
