/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A profile held against the catalogue and the LTP results: for each
 * call the program made, where compat_linux stands, and the verdict
 * line that answers "will it run?".  The trace's own failures lead:
 * an ENOSYS the program met is a fact, a catalogue state a forecast.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/profile.h"
#include "ltpscope/store.h"
#include "ltpscope/store_triage.h"
#include "ltpscope/triage.h"
#include "ltpscope/xmalloc.h"

/*
 * kdump names a slot its table has no name for "#N" (strace's
 * "syscall_0x1c2" likewise): the number, else -1.
 */
static long
row_number(const char *name)
{
	const char *digits;
	char *end;
	long n;

	if (name[0] == '#')
		digits = name + 1;
	else if (strncmp(name, "syscall_0x", 10) == 0)
		digits = name + 8;
	else
		return -1;
	n = strtol(digits, &end, 0);
	if (end == digits || *end != '\0' || n < 0)
		return -1;
	return n;
}

/*
 * A call Linux has on this ABI that NetBSD's table lacks altogether is
 * absent: not implemented, whether or not a Linux table made an entry
 * of it (names files, the usual case, make none).
 */
static void
row_absent(struct profile_row *r, struct catalogue *cat, const char *abi,
    long num)
{
	const struct cat_entry *l;

	l = num >= 0 ? catalogue_linux_row(cat, abi, num) :
	    catalogue_linux_name(cat, abi, r->call->name);
	if (l == NULL)
		return;
	if (num >= 0)
		r->linux_name = l->name;
	r->known = 1;
	r->absent = 1;
	r->state = cat_state_name(CS_ABSENT);
}

const char *
profile_linux_name(struct catalogue *cat, const char *abi, const char *name)
{
	const struct cat_entry *e, *v[1];
	long num;

	if (cat == NULL || abi == NULL)
		return name;
	if ((num = row_number(name)) < 0) {
		if (catalogue_find_name(cat, abi, name, v, 1) == 0 &&
		    (e = catalogue_find_table_name(cat, abi, name)) != NULL &&
		    e->name[0] != '\0')
			return e->name;
		return name;
	}
	if ((e = catalogue_find_number(cat, abi, num)) != NULL ||
	    (e = catalogue_linux_row(cat, abi, num)) != NULL)
		return e->name[0] != '\0' ? e->name : name;
	return name;
}

static void
row_state(struct profile_row *r, struct catalogue *cat, const char *abi)
{
	const struct cat_entry *e[4];
	long num;

	r->state = "unknown";
	if (cat == NULL)
		return;
	num = abi != NULL ? row_number(r->call->name) : -1;
	if (num >= 0 && (e[0] = catalogue_find_number(cat, abi, num)) != NULL)
		r->linux_name = e[0]->name;
	else if (num < 0 && abi != NULL && catalogue_find_name(cat, abi,
	    r->call->name, e, 4) == 0 && (e[0] = catalogue_find_table_name(
	    cat, abi, r->call->name)) != NULL) {
		/* kdump's name for the slot: "__posix_rename" (rename). */
		if (strcmp(e[0]->name, r->call->name) != 0)
			r->linux_name = e[0]->name;
	} else if (num >= 0 || catalogue_find_name(cat, abi, r->call->name, e,
	    4) == 0) {
		if (abi != NULL)
			row_absent(r, cat, abi, num);
		return;
	}
	r->known = 1;
	r->state = cat_state_name(e[0]->state);
	r->implemented = cat_state_is_implemented(e[0]->state);
	r->absent = e[0]->state == CS_ABSENT;
}

static void
add_tag(struct profile_row *r, const char *cat)
{
	char *t;

	if (r->tags != NULL && strstr(r->tags, cat) != NULL)
		return;
	xasprintf(&t, "%s%s%s", r->tags != NULL ? r->tags : "",
	    r->tags != NULL ? ", " : "", cat);
	free(r->tags);
	r->tags = t;
}

static const struct triage_tag *
find_tag(const struct triage_tag *tags, size_t n, const char *test)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(tags[i].tag, test) == 0)
			return &tags[i];
	return NULL;
}

static size_t
count_words(const char *s)
{
	size_t n = 0;

	for (; s != NULL && *s != '\0'; s++)
		n += *s != ' ' && (s[1] == ' ' || s[1] == '\0');
	return n;
}

static int
row_rank(const struct profile_row *r)
{
	if (r->suspect)
		return 0;
	if (!r->implemented)
		return 1;
	return r->nbad > 0 ? 2 : 3;
}

static int
by_rank(const void *a, const void *b)
{
	const struct profile_row *x = a, *y = b;
	int rx = row_rank(x), ry = row_rank(y);

	if (rx != ry)
		return rx - ry;
	if (x->call->count != y->call->count)
		return x->call->count > y->call->count ? -1 : 1;
	return strcmp(x->call->name, y->call->name);
}

/* "3 calls unimplemented, 2 with failing tests": calls said once. */
static void
say(char *buf, size_t size, size_t *used, const char *what, size_t n,
    const char *one, const char *many)
{
	const char *noun = n == 1 ? one : many;
	int k;

	if (n == 0 || *used >= size)
		return;
	if (*used > 0 && strncmp(noun, "call", 4) == 0)
		noun = "";
	k = snprintf(buf + *used, size - *used, "%s%zu %s%s%s",
	    *used > 0 ? ", " : "", n, noun, noun[0] != '\0' ? " " : "", what);
	if (k > 0)
		*used += (size_t)k;
}

static void
verdict(struct profile_report *rp)
{
	char *v = rp->verdict;
	size_t size = sizeof(rp->verdict), used = 0, i;
	const char *sep = ": ";
	int k;

	say(v, size, &used, "unimplemented", rp->nunimpl, "call", "calls");
	say(v, size, &used, "absent from the table", rp->nabsent, "call",
	    "calls");
	say(v, size, &used, "unknown to the catalogue", rp->nunknown, "call",
	    "calls");
	say(v, size, &used, "with failing tests", rp->nfailing, "call",
	    "calls");
	say(v, size, &used, "unsupported", rp->nflags, "flag", "flags");
	for (i = 0; rp->nflags > 0 && i < rp->nrows && used < size; i++) {
		if (rp->rows[i].call->flags[0] == '\0')
			continue;
		k = snprintf(v + used, size - used, "%s%s in %s", sep,
		    rp->rows[i].call->flags, rp->rows[i].call->name);
		if (k > 0)
			used += (size_t)k;
		sep = "; ";
	}
	if (used == 0)
		(void)snprintf(v, size, "all %zu calls implemented, none with "
		    "failing tests", rp->nrows);
}

void
profile_report_build(struct profile_report *rp, const struct profile *p,
    struct catalogue *cat, const char *abi, const struct store_result *res,
    size_t nres, const struct triage_tag *tags, size_t ntags)
{
	const struct triage_tag *t;
	struct profile_row *r;
	size_t i, k;
	char *sys;

	memset(rp, 0, sizeof(*rp));
	rp->nrows = p->ncalls;
	rp->rows = xcalloc(p->ncalls + 1, sizeof(*rp->rows));
	for (i = 0; i < p->ncalls; i++) {
		r = &rp->rows[i];
		r->call = &p->calls[i];
		r->suspect = profile_call_suspect(r->call);
		row_state(r, cat, abi);
	}
	for (k = 0; k < nres; k++) {
		sys = triage_result_syscall(&res[k]);
		for (i = 0; i < p->ncalls; i++) {
			r = &rp->rows[i];
			if (strcmp(r->call->name, sys) != 0)
				continue;
			r->ntests++;
			if (!test_status_is_bad(res[k].status))
				continue;
			r->nbad++;
			if ((t = find_tag(tags, ntags, res[k].tag)) != NULL)
				add_tag(r, t->category);
		}
		free(sys);
	}
	for (i = 0; i < p->ncalls; i++) {
		r = &rp->rows[i];
		rp->nunimpl += r->known && !r->implemented && !r->absent;
		rp->nabsent += r->absent;
		rp->nunknown += cat != NULL && !r->known;
		rp->nfailing += r->nbad > 0;
		rp->nflags += count_words(r->call->flags);
	}
	qsort(rp->rows, rp->nrows, sizeof(*rp->rows), by_rank);
	verdict(rp);
}

void
profile_report_free(struct profile_report *rp)
{
	size_t i;

	for (i = 0; i < rp->nrows; i++)
		free(rp->rows[i].tags);
	free(rp->rows);
	memset(rp, 0, sizeof(*rp));
}

const char *
profile_abi(struct catalogue *cat, const char *arch, char *buf,
    size_t size)
{
	const char **abis;
	size_t n, i;

	if (arch != NULL) {
		(void)snprintf(buf, size, "%s%s", strncmp(arch, "linux", 5) ==
		    0 ? "" : "linux-", arch);
		return buf;
	}
	buf[0] = '\0';
	if (cat == NULL)
		return NULL;
	abis = catalogue_abis(cat, &n);
	for (i = 0; i < n && buf[0] == '\0'; i++)
		if (strncmp(abis[i], "linux", 5) == 0)
			(void)snprintf(buf, size, "%s", abis[i]);
	free(abis);
	return buf[0] != '\0' ? buf : NULL;
}

void
profile_row_cells(const struct profile_row *r, struct profile_cells *c)
{
	const char *flags = r->call->flags;

	(void)snprintf(c->name, sizeof(c->name), "%s%s%s%s", r->call->name,
	    r->linux_name != NULL ? " (" : "", r->linux_name != NULL ?
	    r->linux_name : "", r->linux_name != NULL ? ")" : "");
	profile_errs_format(r->call, c->errs, sizeof(c->errs));
	if (c->errs[0] == '\0')
		(void)snprintf(c->errs, sizeof(c->errs), "-");
	if (r->ntests == 0)
		(void)snprintf(c->tests, sizeof(c->tests), "-");
	else
		(void)snprintf(c->tests, sizeof(c->tests), "%u, %u failing",
		    r->ntests, r->nbad);
	(void)snprintf(c->notes, sizeof(c->notes), "%s%s%s%s",
	    r->tags != NULL ? r->tags : "",
	    r->tags != NULL && flags[0] != '\0' ? "; " : "",
	    flags[0] != '\0' ? "flags failed: " : "", flags);
}
