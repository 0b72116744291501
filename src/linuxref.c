/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linux reference runs (see linuxref.h): which run is the reference of
 * an arch (kept by the store, store_linux_ref_*()) and the look-ups
 * compare, the shopping list and the triage rules make against a
 * reference's results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/linuxref.h"
#include "ltpscope/store_triage.h"
#include "ltpscope/triage.h"

/* Linux's uname -m on the left, NetBSD's (our canonical) on the right. */
static const struct {
	const char	*alias;
	const char	*canon;
} linuxref_arches[] = {
	{ "x86_64", "amd64" },
	{ "i686", "i386" },
	{ "i586", "i386" },
	{ "i486", "i386" },
	{ "arm64", "aarch64" },
	{ "evbarm64", "aarch64" },
};

const char *
linuxref_arch(const char *arch)
{
	size_t i;

	for (i = 0; i < sizeof(linuxref_arches) / sizeof(linuxref_arches[0]);
	    i++)
		if (strcmp(arch, linuxref_arches[i].alias) == 0)
			return linuxref_arches[i].canon;
	return arch;
}

int
linuxref_same_arch(const char *a, const char *b)
{
	return strcmp(linuxref_arch(a), linuxref_arch(b)) == 0;
}

const char *
linuxref_arch_other(const char *arch, size_t i)
{
	const char *canon = linuxref_arch(arch);
	size_t j;

	if (strcmp(canon, arch) != 0 && i-- == 0)
		return canon;
	for (j = 0; j < sizeof(linuxref_arches) / sizeof(linuxref_arches[0]);
	    j++)
		if (strcmp(linuxref_arches[j].canon, canon) == 0 &&
		    strcmp(linuxref_arches[j].alias, arch) != 0 && i-- == 0)
			return linuxref_arches[j].alias;
	return NULL;
}

int
linuxref_set(struct store *st, int64_t run_id, struct diaglist *dl)
{
	struct store_run r;
	int err;

	if ((err = store_get_run(st, run_id, &r, dl)) != STORE_OK)
		return err;
	if (strcmp(r.os_name, "Linux") != 0) {
		diag_error(dl, store_path(st), 0, "run %lld ran on %s, not "
		    "Linux: it cannot be a Linux reference", (long long)run_id,
		    r.os_name[0] != '\0' ? r.os_name : "an unknown system");
		store_run_clear(&r);
		return STORE_EINVAL;
	}
	err = store_linux_ref_set(st, linuxref_arch(r.arch), run_id, dl);
	store_run_clear(&r);
	return err;
}

int
linuxref_get(struct store *st, const char *arch, int64_t *idp,
    struct diaglist *dl)
{
	return store_linux_ref_get(st, linuxref_arch(arch != NULL ? arch :
	    ""), idp, dl);
}

int
linuxref_clear(struct store *st, const char *arch, struct diaglist *dl)
{
	return store_linux_ref_clear(st, linuxref_arch(arch), dl);
}

static int
by_tag_then_id(const void *x, const void *y)
{
	const struct store_result *a = x, *b = y;
	int c = strcmp(a->tag, b->tag);

	if (c != 0)
		return c;
	return a->id < b->id ? -1 : a->id > b->id;
}

int
linuxref_load(struct store *st, const char *arch, int64_t self,
    struct linuxref *ref, struct diaglist *dl)
{
	size_t i, m = 0;
	int err;

	memset(ref, 0, sizeof(*ref));
	err = linuxref_get(st, arch, &ref->run_id, dl);
	if (err == STORE_ENOTFOUND || (err == STORE_OK && ref->run_id ==
	    self)) {
		ref->run_id = 0;
		return STORE_OK;
	}
	if (err != STORE_OK || (err = store_run_results(st, ref->run_id,
	    &ref->v, &ref->n, dl)) != STORE_OK) {
		ref->run_id = 0;
		return err;
	}
	/* A test that ran twice (resumed) counts by its last result. */
	qsort(ref->v, ref->n, sizeof(*ref->v), by_tag_then_id);
	for (i = 0; i < ref->n; i++) {
		if (ref->v[i].status == TS_RUNNING) {
			store_result_clear(&ref->v[i]);
			continue;
		}
		if (m > 0 && strcmp(ref->v[m - 1].tag, ref->v[i].tag) == 0)
			store_result_clear(&ref->v[--m]);
		if (m != i)
			ref->v[m] = ref->v[i];
		m++;
	}
	ref->n = m;
	return STORE_OK;
}

void
linuxref_free(struct linuxref *ref)
{
	store_results_free(ref->v, ref->n);
	memset(ref, 0, sizeof(*ref));
}

const struct store_result *
linuxref_find(const struct linuxref *ref, const char *tag)
{
	size_t lo = 0, hi = ref->n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(ref->v[mid].tag, tag)) == 0)
			return &ref->v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int
linuxref_status(const struct linuxref *ref, const char *tag)
{
	const struct store_result *r = linuxref_find(ref, tag);

	return r != NULL ? (int)r->status : -1;
}

int
linuxref_fails(const struct linuxref *ref, const char *tag)
{
	const struct store_result *r = linuxref_find(ref, tag);

	return r != NULL && test_status_is_bad(r->status);
}

/* A failing line less its "file.c:123: " prefix. */
static const char *
linuxref_message(const char *line)
{
	const char *p;

	if ((p = strstr(line, ": T")) != NULL)
		return p + 2;
	return line;
}

void
linuxref_subject(struct store *st, const struct linuxref *ref,
    const char *tag, const char *output, size_t len, char *buf,
    size_t buflen)
{
	const struct store_result *r = linuxref_find(ref, tag);
	struct store_output o;
	struct diaglist quiet;
	char *ours, *theirs = NULL;
	int same;

	if (buflen == 0)
		return;
	buf[0] = '\0';
	if (r == NULL)
		return;
	if (!test_status_is_bad(r->status)) {
		(void)snprintf(buf, buflen, "%s", test_status_name(r->status));
		return;
	}
	diag_init(&quiet);
	if (store_get_output(st, r->id, &o, &quiet) == STORE_OK) {
		theirs = triage_first_failure(o.data, o.stored_size, NULL);
		store_output_clear(&o);
	}
	diag_free(&quiet);
	ours = triage_first_failure(output, len, NULL);
	same = ours != NULL && theirs != NULL &&
	    strcmp(linuxref_message(ours), linuxref_message(theirs)) == 0;
	(void)snprintf(buf, buflen, "%s %s", test_status_name(r->status),
	    same ? "same" : "other");
	free(ours);
	free(theirs);
}
