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
#include "ltpscope/triage.h"
#include "ltpscope/triage_store.h"
#include "ltpscope/xmalloc.h"

/*
 * kdump names a slot its table has no name for "#N": the catalogue
 * knows the number (strace's "syscall_0x1c2" likewise).
 */
static const struct cat_entry *
row_by_number(struct catalogue *cat, const char *abi, const char *name)
{
	const char *digits;
	char *end;
	long n;

	if (abi == NULL)
		return NULL;
	if (name[0] == '#')
		digits = name + 1;
	else if (strncmp(name, "syscall_0x", 10) == 0)
		digits = name + 8;
	else
		return NULL;
	n = strtol(digits, &end, 0);
	if (end == digits || *end != '\0' || n < 0)
		return NULL;
	return catalogue_find_number(cat, abi, n);
}

static void
row_state(struct profile_row *r, struct catalogue *cat, const char *abi)
{
	const struct cat_entry *e[4];

	r->state = "unknown";
	if (cat == NULL)
		return;
	if ((e[0] = row_by_number(cat, abi, r->call->name)) != NULL)
		r->linux_name = e[0]->name;
	else if (catalogue_find_name(cat, abi, r->call->name, e, 4) == 0)
		return;
	r->known = 1;
	r->state = cat_state_name(e[0]->state);
	r->implemented = cat_state_is_implemented(e[0]->state);
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
		rp->nunimpl += r->known && !r->implemented;
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
