/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The syscall catalogue (see catalogue.h): loading, the sorted views
 * and the lookups.  Entry storage lives in catalogue_entry.c, below the
 * parsers (catalogue_master.c and catalogue_linux.c) that this file
 * dispatches to; diff and cross-check in catalogue_compare.c.
 *
 * Loads only append entries.  The views (sorted arrays of pointers),
 * the Linux names and the absent entries depend on every table loaded
 * so far, so they are rebuilt lazily on the first query after a load.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/xmalloc.h"
#include "catalogue_impl.h"

static const char *const cat_state_names[CS__COUNT] = {
	"implemented-native", "implemented-compat", "unimplemented",
	"obsolete", "absent", "linux"
};

static const char *const cat_type_names[CT__COUNT] = {
	"", "STD", "NOARGS", "NODEF", "NOERR", "INDIR", "EXTERN", "COMPAT",
	"UNIMPL", "OBSOL", "IGNORED", "EXCL"
};

/*
 * Votes over the first lines, so that one odd line does not decide:
 * master lines are "number UPPERCASE-TYPE", tbl lines "number abi name",
 * headers "#define __NR_name number".
 */
enum cat_format
catalogue_detect(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;
	int lines, master = 0, tbl = 0, unistd = 0;

	if (len > strlen(CAT_NAMES_MAGIC) && memcmp(buf, CAT_NAMES_MAGIC,
	    strlen(CAT_NAMES_MAGIC)) == 0)
		return CF_NAMES;
	for (lines = 0; p < end && lines < 400; lines++, p = nl + 1) {
		const char *q;

		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (nl - p >= 2 && p[0] == '%' && p[1] == '%')
			master += 100;
		/* ';' comments and the RCS id are syscalls.master's alone. */
		if (nl > p && (p[0] == ';' || (nl - p > 8 &&
		    memcmp(p + (p[0] == '\t'), "$NetBSD", 7) == 0)))
			master++;
		if (nl - p > 13 && memcmp(p, "#define __NR_", 13) == 0)
			unistd++;
		for (q = p; q < nl && *q >= '0' && *q <= '9'; q++)
			continue;
		if (q == p || q == nl || (*q != ' ' && *q != '\t'))
			continue;
		while (q < nl && (*q == ' ' || *q == '\t'))
			q++;
		if (q < nl && *q >= 'A' && *q <= 'Z')
			master++;
		else if (q < nl && ((*q >= 'a' && *q <= 'z') ||
		    (*q >= '0' && *q <= '9')))
			tbl++;
	}
	if (master == 0 && tbl == 0 && unistd == 0)
		return CF_UNKNOWN;
	if (master >= tbl && master >= unistd)
		return CF_MASTER;
	return tbl >= unistd ? CF_TBL : CF_UNISTD;
}

static const char *
cat_basename(const char *path)
{
	const char *s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

static void
cat_add_file(struct catalogue *cat, const char *file)
{
	if (cat->nfiles == cat->capfiles) {
		cat->capfiles = cat->capfiles ? cat->capfiles * 2 : 8;
		cat->files = xreallocarray(cat->files, cat->capfiles,
		    sizeof(*cat->files));
	}
	cat->files[cat->nfiles++] = file;
}

int
catalogue_load_buffer(struct catalogue *cat, const char *name,
    const char *abi, const char *buf, size_t len, struct diaglist *dl)
{
	struct cat_parse p;
	enum cat_format fmt;
	const char *base = cat_basename(name);
	size_t blen = strlen(base);

	memset(&p, 0, sizeof(p));
	p.cat = cat;
	p.dl = dl;
	p.file = cat_strdup(cat, name);
	cat->dirty = 1;
	fmt = catalogue_detect(buf, len);
	/* A names file only names slots: it is not a source to list. */
	if (fmt != CF_NAMES)
		cat_add_file(cat, p.file);
	if (fmt == CF_UNKNOWN) {
		/* Let the name decide; the parser then says what is wrong. */
		if (blen > 4 && strcmp(base + blen - 4, ".tbl") == 0)
			fmt = CF_TBL;
		else if (blen > 2 && strcmp(base + blen - 2, ".h") == 0)
			fmt = CF_UNISTD;
		else
			fmt = CF_MASTER;
	}
	switch (fmt) {
	case CF_TBL:
		p.abi = abi != NULL ? cat_strdup(cat, abi) : NULL;
		cat_parse_tbl(&p, buf, len);
		break;
	case CF_UNISTD:
		p.abi = cat_strdup(cat, abi != NULL ? abi :
		    cat_linux_file_abi(name));
		cat_parse_unistd(&p, buf, len);
		break;
	case CF_NAMES:
		if (abi == NULL && (abi = cat_names_abi(cat, buf, len)) ==
		    NULL)
			abi = base;
		p.abi = cat_strdup(cat, abi);
		cat_parse_names(&p, buf, len);
		break;
	default:
		p.abi = abi != NULL ? cat_strdup(cat, abi) :
		    cat_master_abi(cat, name, buf, len);
		cat_parse_master(&p, buf, len);
		break;
	}
	return p.nerrors;
}

int
catalogue_load_file(struct catalogue *cat, const char *path,
    const char *abi, struct diaglist *dl)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t r;
	int fd, rv;

	if ((fd = open(path, O_RDONLY)) == -1) {
		diag_error(dl, path, 0, "cannot open: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 65536;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + len, cap - len);
		if (r == -1 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	if (r == -1) {
		diag_error(dl, path, 0, "cannot read: %s", strerror(errno));
		(void)close(fd);
		free(buf);
		return -1;
	}
	(void)close(fd);
	rv = catalogue_load_buffer(cat, path, abi, buf, len, dl);
	free(buf);
	return rv;
}

const char *
catalogue_linux_abi(const char *abi)
{
	/* NetBSD's arch names on the left, Linux's on the right. */
	static const struct {
		const char *netbsd, *linux_abi;
	} map[] = {
		{ "linux-amd64", "x86_64" },
		{ "linux-x86_64", "x86_64" },
		{ "linux-i386", "i386" },
		{ "linux32-amd64", "i386" },
		{ "linux32-x86_64", "i386" },
		{ "linux-aarch64", "arm64" },
		{ "linux32-aarch64", "arm" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(abi, map[i].netbsd) == 0)
			return map[i].linux_abi;
	if (strncmp(abi, "linux-", 6) == 0 && abi[6] != '\0')
		return abi + 6;
	return abi;
}

/* Order: abi, number, default before alternate, load order. */
static int
cat_cmp_entry(const void *a, const void *b)
{
	const struct cat_item *x = *(const struct cat_item *const *)a;
	const struct cat_item *y = *(const struct cat_item *const *)b;
	int c;

	/* Entries of one file share their ABI string. */
	if (x->e.abi != y->e.abi && (c = strcmp(x->e.abi, y->e.abi)) != 0)
		return c;
	if (x->e.number != y->e.number)
		return x->e.number < y->e.number ? -1 : 1;
	if (x->e.alternate != y->e.alternate)
		return x->e.alternate - y->e.alternate;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
cat_cmp_name(const void *a, const void *b)
{
	const struct cat_entry *x = *(const struct cat_entry *const *)a;
	const struct cat_entry *y = *(const struct cat_entry *const *)b;
	int c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if ((c = strcmp(x->abi, y->abi)) != 0)
		return c;
	return x->number < y->number ? -1 : x->number > y->number;
}

/* First index in sorted items[lo..hi) with (abi, number) >= key. */
static size_t
cat_lower_bound(struct cat_item **v, size_t lo, size_t hi, const char *abi,
    long number)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v[mid]->e.abi, abi);

		if (c < 0 || (c == 0 && v[mid]->e.number < number))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void	catalogue_finish(struct catalogue *);

static int
cat_is_linux_table(const struct cat_entry *e)
{
	return e->format == CF_TBL || e->format == CF_UNISTD ||
	    e->format == CF_NAMES;
}

/*
 * The Linux row at (labi, number) among the sorted items: a Linux
 * table's before a names file's, which only stands in for one.
 */
static const struct cat_entry *
cat_linux_row_at(struct catalogue *cat, const char *labi, long number)
{
	struct cat_item **v = cat->items;
	const struct cat_entry *names = NULL;
	size_t j, n = cat->nitems;

	j = cat_lower_bound(v, 0, n, labi, number);
	for (; j < n && strcmp(v[j]->e.abi, labi) == 0 &&
	    v[j]->e.number == number; j++) {
		if (v[j]->e.format == CF_NAMES) {
			if (names == NULL)
				names = &v[j]->e;
		} else if (cat_is_linux_table(&v[j]->e))
			return &v[j]->e;
	}
	return names;
}

const struct cat_entry *
catalogue_linux_row(struct catalogue *cat, const char *abi, long number)
{
	const char *labi = catalogue_linux_abi(abi);

	if (strcmp(labi, abi) == 0)
		return NULL;
	catalogue_finish(cat);
	return cat_linux_row_at(cat, labi, number);
}

const struct cat_entry *
catalogue_linux_name(struct catalogue *cat, const char *abi,
    const char *name)
{
	const char *labi = catalogue_linux_abi(abi);
	const struct cat_entry *names = NULL, *e;
	size_t j;

	if (strcmp(labi, abi) == 0)
		return NULL;
	catalogue_finish(cat);
	j = cat_lower_bound(cat->items, 0, cat->nitems, labi, LONG_MIN);
	for (; j < cat->nitems && strcmp(cat->items[j]->e.abi, labi) == 0;
	    j++) {
		e = &cat->items[j]->e;
		if (!cat_is_linux_table(e) || strcmp(e->name, name) != 0)
			continue;
		if (e->format != CF_NAMES)
			return e;
		if (names == NULL)
			names = e;
	}
	return names;
}

/* The function's name without its sys_, linux_sys_ ... prefix. */
static const char *
cat_function_base(const char *f)
{
	const char *u = strstr(f, "sys_");

	return u != NULL ? u + 4 : f;
}

const struct cat_entry *
catalogue_find_table_name(struct catalogue *cat, const char *abi,
    const char *name)
{
	const struct cat_entry *e;
	size_t i;

	catalogue_finish(cat);
	for (i = 0; i < cat->nview; i++) {
		e = cat->view[i];
		if (e->format != CF_MASTER || strcmp(e->abi, abi) != 0)
			continue;
		if (strcmp(e->own_name, name) == 0 ||
		    strcmp(e->basename, name) == 0 ||
		    strcmp(e->alias, name) == 0 ||
		    (e->function[0] != '\0' &&
		    strcmp(cat_function_base(e->function), name) == 0))
			return e;
	}
	return NULL;
}

/* Whether a Linux table or names file of ABI labi is loaded. */
static int
cat_has_linux(struct catalogue *cat, const char *labi)
{
	size_t i;

	for (i = 0; i < cat->nitems; i++)
		if (cat_is_linux_table(&cat->items[i]->e) &&
		    strcmp(cat->items[i]->e.abi, labi) == 0)
			return 1;
	return 0;
}

int
catalogue_load_names(struct catalogue *cat, const char *dir,
    struct diaglist *dl)
{
	const char **abis;
	size_t nabis, i;
	char path[PATH_MAX];
	int n, loaded = 0;

	abis = catalogue_abis(cat, &nabis);
	for (i = 0; i < nabis; i++) {
		const char *labi = catalogue_linux_abi(abis[i]);

		if (strcmp(labi, abis[i]) == 0 || !cat_abi_name_ok(labi) ||
		    cat_has_linux(cat, labi))
			continue;
		n = snprintf(path, sizeof(path), "%s/%s", dir, labi);
		if (n < 0 || (size_t)n >= sizeof(path) ||
		    access(path, F_OK) != 0)
			continue;
		if (catalogue_load_file(cat, path, labi, dl) < 0) {
			loaded = -1;
			break;
		}
		loaded++;
	}
	free(abis);
	return loaded;
}

/*
 * Rebuilds names, absent entries and views.  The loaded items are
 * sorted in place; Linux rows are found by binary search among them.
 */
static void
catalogue_finish(struct catalogue *cat)
{
	const struct cat_entry *lrow;
	struct cat_item **v;
	size_t i, n, k;

	if (!cat->dirty)
		return;
	cat->dirty = 0;
	v = cat->items;
	n = cat->nitems;
	/* An empty table leaves items NULL, which qsort(3) may not get. */
	if (n > 1)
		qsort(v, n, sizeof(*v), cat_cmp_entry);

	/* Linux names for NetBSD entries. */
	for (i = 0; i < n; i++) {
		struct cat_entry *e = &v[i]->e;
		const char *labi;

		e->name = e->own_name;
		if (cat_is_linux_table(e))
			continue;
		labi = catalogue_linux_abi(e->abi);
		if (strcmp(labi, e->abi) == 0)
			continue;
		if ((lrow = cat_linux_row_at(cat, labi, e->number)) != NULL)
			e->name = lrow->own_name;
	}

	/*
	 * Absent entries: for every NetBSD ABI with a Linux table, the
	 * Linux numbers the NetBSD table lacks in every branch.
	 */
	cat->nabsent = 0;
	for (i = 0; i < n; i = k) {
		const char *abi = v[i]->e.abi, *labi;
		size_t lj;

		for (k = i; k < n && strcmp(v[k]->e.abi, abi) == 0; k++)
			continue;
		if (cat_is_linux_table(&v[i]->e))
			continue;
		labi = catalogue_linux_abi(abi);
		if (strcmp(labi, abi) == 0)
			continue;
		lj = cat_lower_bound(v, 0, n, labi, LONG_MIN);
		for (; lj < n && strcmp(v[lj]->e.abi, labi) == 0; lj++) {
			struct cat_item *a;
			const struct cat_entry *l = &v[lj]->e;
			size_t at;

			if (!cat_is_linux_table(l) || l->format == CF_NAMES ||
			    (lj > 0 &&
			    strcmp(v[lj - 1]->e.abi, labi) == 0 &&
			    v[lj - 1]->e.number == l->number))
				continue;
			at = cat_lower_bound(v, i, k, abi, l->number);
			if (at < k && v[at]->e.number == l->number)
				continue;
			a = cat_alloc(cat, sizeof(*a));
			memset(a, 0, sizeof(*a));
			a->e = *l;
			a->e.abi = abi;
			a->e.own_name = "";
			a->e.state = CS_ABSENT;
			a->e.type = CT_NONE;
			a->e.type_name = "";
			a->e.function = "";
			a->e.prototype = "";
			a->seq = SIZE_MAX;
			if (cat->nabsent == cat->capabsent) {
				cat->capabsent = cat->capabsent ?
				    cat->capabsent * 2 : 64;
				cat->absent = xreallocarray(cat->absent,
				    cat->capabsent, sizeof(*cat->absent));
			}
			cat->absent[cat->nabsent++] = a;
		}
	}

	free(cat->all);
	free(cat->view);
	free(cat->byname);
	cat->all = xreallocarray(NULL, n + cat->nabsent + 1,
	    sizeof(*cat->all));
	cat->nall = 0;
	for (i = 0; i < n; i++)
		if (v[i]->e.format != CF_NAMES)
			cat->all[cat->nall++] = &v[i]->e;
	for (i = 0; i < cat->nabsent; i++)
		cat->all[cat->nall++] = &cat->absent[i]->e;
	/* cat_item starts with its entry, so this sorts items too. */
	qsort(cat->all, cat->nall, sizeof(*cat->all), cat_cmp_entry);
	cat->view = xreallocarray(NULL, cat->nall + 1, sizeof(*cat->view));
	cat->byname = xreallocarray(NULL, cat->nall + 1,
	    sizeof(*cat->byname));
	cat->nview = cat->nbyname = 0;
	for (i = 0; i < cat->nall; i++) {
		if (cat->all[i]->alternate)
			continue;
		cat->view[cat->nview++] = cat->all[i];
		if (cat->all[i]->name[0] != '\0')
			cat->byname[cat->nbyname++] = cat->all[i];
	}
	qsort(cat->byname, cat->nbyname, sizeof(*cat->byname), cat_cmp_name);
}

size_t
catalogue_count(struct catalogue *cat)
{
	catalogue_finish(cat);
	return cat->nview;
}

const struct cat_entry *
catalogue_entry(struct catalogue *cat, size_t i)
{
	catalogue_finish(cat);
	return i < cat->nview ? cat->view[i] : NULL;
}

size_t
catalogue_count_all(struct catalogue *cat)
{
	catalogue_finish(cat);
	return cat->nall;
}

const struct cat_entry *
catalogue_entry_all(struct catalogue *cat, size_t i)
{
	catalogue_finish(cat);
	return i < cat->nall ? cat->all[i] : NULL;
}

const struct cat_entry *
catalogue_find_number(struct catalogue *cat, const char *abi, long number)
{
	size_t lo = 0, hi;

	catalogue_finish(cat);
	hi = cat->nview;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct cat_entry *e = cat->view[mid];
		int c = strcmp(e->abi, abi);

		if (c < 0 || (c == 0 && e->number < number))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < cat->nview && strcmp(cat->view[lo]->abi, abi) == 0 &&
	    cat->view[lo]->number == number)
		return cat->view[lo];
	return NULL;
}

size_t
catalogue_find_name(struct catalogue *cat, const char *abi,
    const char *name, const struct cat_entry **out, size_t max)
{
	size_t lo = 0, hi, found = 0;

	catalogue_finish(cat);
	hi = cat->nbyname;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(cat->byname[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < cat->nbyname && strcmp(cat->byname[lo]->name, name) == 0;
	    lo++) {
		if (abi != NULL && strcmp(cat->byname[lo]->abi, abi) != 0)
			continue;
		if (found < max)
			out[found] = cat->byname[lo];
		found++;
	}
	return found;
}

static int
cat_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **
catalogue_names(struct catalogue *cat, const char *abi, size_t *np)
{
	const char **v;
	size_t i, n = 0, out = 0;

	catalogue_finish(cat);
	v = xreallocarray(NULL, cat->nview + 1, sizeof(*v));
	for (i = 0; i < cat->nview; i++)
		if (cat->view[i]->name[0] != '\0' &&
		    (abi == NULL || strcmp(cat->view[i]->abi, abi) == 0))
			v[n++] = cat->view[i]->name;
	qsort(v, n, sizeof(*v), cat_cmp_str);
	for (i = 0; i < n; i++)
		if (out == 0 || strcmp(v[out - 1], v[i]) != 0)
			v[out++] = v[i];
	v[out] = NULL;
	*np = out;
	return v;
}

const char **
catalogue_abis(struct catalogue *cat, size_t *np)
{
	const char **v;
	size_t i, n = 0;

	catalogue_finish(cat);
	v = xreallocarray(NULL, cat->nview + 1, sizeof(*v));
	for (i = 0; i < cat->nview; i++)
		if (n == 0 || strcmp(v[n - 1], cat->view[i]->abi) != 0)
			v[n++] = cat->view[i]->abi;
	v[n] = NULL;
	*np = n;
	return v;
}

const char **
catalogue_files(struct catalogue *cat, size_t *np)
{
	const char **v;

	v = xreallocarray(NULL, cat->nfiles + 1, sizeof(*v));
	if (cat->nfiles > 0)
		memcpy(v, cat->files, cat->nfiles * sizeof(*v));
	v[cat->nfiles] = NULL;
	*np = cat->nfiles;
	return v;
}

const char *
cat_state_name(enum cat_state s)
{
	return (unsigned)s < CS__COUNT ? cat_state_names[s] : "?";
}

int
cat_state_from_name(const char *name)
{
	int i;

	for (i = 0; i < CS__COUNT; i++)
		if (strcmp(cat_state_names[i], name) == 0)
			return i;
	return -1;
}

const char *
cat_type_name(enum cat_type t)
{
	return (unsigned)t < CT__COUNT ? cat_type_names[t] : "?";
}

int
cat_state_is_implemented(enum cat_state s)
{
	return s == CS_NATIVE || s == CS_COMPAT;
}

void
catalogue_counts(struct catalogue *cat, const char *file,
    struct cat_counts *c)
{
	size_t i;
	long last = -1;
	const char *lastabi = NULL, *fileabi = NULL;

	catalogue_finish(cat);
	memset(c, 0, sizeof(*c));
	/* Absent entries come from the Linux table: credit the ABI. */
	for (i = 0; file != NULL && fileabi == NULL && i < cat->nall; i++)
		if (cat->all[i]->state != CS_ABSENT &&
		    strcmp(cat->all[i]->file, file) == 0)
			fileabi = cat->all[i]->abi;
	for (i = 0; i < cat->nall; i++) {
		const struct cat_entry *e = cat->all[i];

		if (e->state == CS_ABSENT) {
			if (file == NULL || (fileabi != NULL &&
			    strcmp(e->abi, fileabi) == 0))
				c->state[CS_ABSENT]++;
			continue;
		}
		if (file != NULL && strcmp(e->file, file) != 0)
			continue;
		if (e->alternate) {
			c->alternates++;
			continue;
		}
		if (lastabi == NULL || strcmp(lastabi, e->abi) != 0 ||
		    e->number != last)
			c->numbers++;
		lastabi = e->abi;
		last = e->number;
		c->state[e->state]++;
		c->type[e->type]++;
	}
}
