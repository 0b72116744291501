/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel function index (kindex.h): walks the directories of a
 * NetBSD tree the catalogue's functions live in, scans each *.c file
 * whose mtime or size the cache does not already hold, and sorts every
 * definition by name for lookups.
 *
 * Each file's definitions are kept as the text the cache stores ("name
 * line\n" per definition), so that a file from the cache and a file
 * just read cost the same to turn into the index: the names are cut in
 * place and the index points into that text.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/kindex.h"
#include "ltpscope/xmalloc.h"

const char *const kindex_dirs[] = {
	"compat/linux",
	"compat/linux32",
	"compat/common",
	"kern",
	"uvm",
	"miscfs",
	NULL
};

struct kindex_file {
	char	*path;		/* "sys/kern/sys_generic.c" */
	int64_t	 mtime_ns;
	int64_t	 size;
	char	*defs;		/* "name line\n"...; names cut in place */
	int	 fresh;		/* read this time: the cache needs it */
};

struct kindex_walk {
	struct kindex		*ki;
	size_t			 cap;
	struct kindex_cached	*cache;		/* sorted by path */
	size_t			 ncache;
	char			*buf;		/* a file's text */
	size_t			 bufcap;
	struct diaglist		*dl;
	int			 err;
};

struct kindex_text {
	char	*s;
	size_t	 len, cap;
};

static int
kt_found(void *arg, const char *name, size_t n, unsigned long line)
{
	struct kindex_text *t = arg;
	char num[24];
	int k;

	k = snprintf(num, sizeof(num), " %lu\n", line);
	if (t->len + n + (size_t)k + 1 > t->cap) {
		t->cap = (t->len + n + (size_t)k + 1) * 2;
		t->s = xrealloc(t->s, t->cap);
	}
	memcpy(t->s + t->len, name, n);
	memcpy(t->s + t->len + n, num, (size_t)k + 1);
	t->len += n + (size_t)k;
	return 0;
}

static int
cmp_cached(const void *a, const void *b)
{
	return strcmp(((const struct kindex_cached *)a)->path,
	    ((const struct kindex_cached *)b)->path);
}

static struct kindex_cached *
kw_cached(struct kindex_walk *w, const char *path)
{
	struct kindex_cached key;

	if (w->ncache == 0)
		return NULL;
	key.path = (char *)(uintptr_t)path;
	return bsearch(&key, w->cache, w->ncache, sizeof(key), cmp_cached);
}

/* The definitions of the file at full, read and scanned. */
static char *
kw_read(struct kindex_walk *w, const char *full, const struct stat *sb)
{
	struct kindex_text t = { NULL, 0, 0 };
	size_t got = 0;
	ssize_t r;
	int fd;

	if ((fd = open(full, O_RDONLY)) == -1) {
		diag_error(w->dl, full, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if ((size_t)sb->st_size + 1 > w->bufcap) {
		w->bufcap = (size_t)sb->st_size + 1;
		w->buf = xrealloc(w->buf, w->bufcap);
	}
	while (got < (size_t)sb->st_size &&
	    (r = read(fd, w->buf + got, (size_t)sb->st_size - got)) != 0) {
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			diag_error(w->dl, full, 0, "cannot read: %s",
			    strerror(errno));
			(void)close(fd);
			return NULL;
		}
		got += (size_t)r;
	}
	(void)close(fd);
	(void)kindex_scan(w->buf, got, kt_found, &t);
	return t.s != NULL ? t.s : xstrdup("");
}

static void
kw_add(struct kindex_walk *w, const char *rel, const char *full,
    const struct stat *sb)
{
	struct kindex *ki = w->ki;
	struct kindex_file *f;
	struct kindex_cached *c;
	int64_t mt;
	char *defs;

	mt = (int64_t)sb->st_mtim.tv_sec * 1000000000 + sb->st_mtim.tv_nsec;
	c = kw_cached(w, rel);
	if (c != NULL && c->mtime_ns == mt && c->size == sb->st_size &&
	    c->defs != NULL) {
		defs = c->defs;
		c->defs = NULL;
	} else if ((defs = kw_read(w, full, sb)) == NULL)
		return;
	if (ki->nfiles == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 256;
		ki->files = xreallocarray(ki->files, w->cap, sizeof(*f));
	}
	f = &ki->files[ki->nfiles++];
	f->path = xstrdup(rel);
	f->mtime_ns = mt;
	f->size = sb->st_size;
	f->defs = defs;
	f->fresh = c == NULL || c->defs != NULL;
	if (f->fresh)
		ki->nread++;
	/* Seen: not one to drop from the cache. */
	if (c != NULL)
		c->size = -1;
}

static int
kw_suffix_c(const char *name)
{
	size_t n = strlen(name);

	return n > 2 && name[n - 2] == '.' && name[n - 1] == 'c';
}

/* Walks full (shown as rel) for *.c files; depth guards loops. */
static void
kw_dir(struct kindex_walk *w, const char *full, const char *rel, int depth)
{
	char fpath[PATH_MAX], rpath[PATH_MAX];
	struct dirent *de;
	struct stat sb;
	DIR *d;

	if (depth > 32 || (d = opendir(full)) == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(fpath, sizeof(fpath), "%s/%s", full,
		    de->d_name) >= sizeof(fpath) ||
		    (size_t)snprintf(rpath, sizeof(rpath), "%s/%s", rel,
		    de->d_name) >= sizeof(rpath) ||
		    lstat(fpath, &sb) == -1)
			continue;
		if (S_ISDIR(sb.st_mode))
			kw_dir(w, fpath, rpath, depth + 1);
		else if (S_ISREG(sb.st_mode) && kw_suffix_c(de->d_name))
			kw_add(w, rpath, fpath, &sb);
	}
	(void)closedir(d);
}

static int
cmp_def(const void *a, const void *b)
{
	const struct kindex_def *x = a, *y = b;
	int c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	if ((c = strcmp(x->file, y->file)) != 0)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Cuts each file's "name line\n" text into the sorted index. */
static void
ki_collect(struct kindex *ki)
{
	struct kindex_file *f;
	size_t i, cap = 0;
	char *p, *sp, *nl;

	for (i = 0; i < ki->nfiles; i++) {
		f = &ki->files[i];
		for (p = f->defs; *p != '\0'; p = nl + 1) {
			if ((nl = strchr(p, '\n')) == NULL ||
			    (sp = memchr(p, ' ', (size_t)(nl - p))) == NULL)
				break;
			if (ki->n == cap) {
				cap = cap ? cap * 2 : 1024;
				ki->v = xreallocarray(ki->v, cap,
				    sizeof(ki->v[0]));
			}
			*sp = '\0';
			*nl = '\0';
			ki->v[ki->n].name = p;
			ki->v[ki->n].file = f->path;
			ki->v[ki->n].line = strtoul(sp + 1, NULL, 10);
			ki->n++;
		}
	}
	if (ki->n > 1)
		qsort(ki->v, ki->n, sizeof(ki->v[0]), cmp_def);
}

/* Writes the files read this time, and drops the ones gone, to st. */
static int
ki_save(struct kindex *ki, struct kindex_walk *w, struct store *st)
{
	struct kindex_cached *v;
	const char **gone;
	size_t i, n = 0, ngone = 0;
	int err;

	v = xcalloc(ki->nread + 1, sizeof(*v));
	gone = xcalloc(w->ncache + 1, sizeof(*gone));
	for (i = 0; i < ki->nfiles; i++) {
		if (!ki->files[i].fresh)
			continue;
		v[n].path = ki->files[i].path;
		v[n].mtime_ns = ki->files[i].mtime_ns;
		v[n].size = ki->files[i].size;
		v[n].defs = ki->files[i].defs;
		n++;
	}
	for (i = 0; i < w->ncache; i++)
		if (w->cache[i].size != -1)
			gone[ngone++] = w->cache[i].path;
	err = n == 0 && ngone == 0 ? STORE_OK : store_kindex_put(st,
	    ki->sysdir, v, n, gone, ngone, w->dl);
	free(v);
	free(gone);
	return err;
}

/* root's sys/ directory: root/sys, or root itself when it is one. */
static char *
ki_sysdir(const char *root)
{
	char path[PATH_MAX];
	struct stat sb;

	(void)snprintf(path, sizeof(path), "%s/sys", root);
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return realpath(path, NULL);
	(void)snprintf(path, sizeof(path), "%s/kern", root);
	if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
		return realpath(root, NULL);
	return NULL;
}

int
kindex_build(struct kindex *ki, const char *root, const char *const *dirs,
    struct store *st, struct diaglist *dl)
{
	struct kindex_walk w;
	char full[PATH_MAX], rel[PATH_MAX];
	size_t i;
	int err = STORE_OK;

	memset(ki, 0, sizeof(*ki));
	memset(&w, 0, sizeof(w));
	ki->root = xstrdup(root);
	if ((ki->sysdir = ki_sysdir(root)) == NULL) {
		diag_error(dl, root, 0, "no NetBSD kernel source here (looked "
		    "for %s/sys/kern); point at a tree with --kernel-src DIR "
		    "or \"kernel-src DIR\" in the config", root);
		return STORE_ENOTFOUND;
	}
	w.ki = ki;
	w.dl = dl;
	if (st != NULL && (err = store_kindex_load(st, ki->sysdir, &w.cache,
	    &w.ncache, dl)) != STORE_OK)
		return err;
	if (w.ncache > 1)
		qsort(w.cache, w.ncache, sizeof(w.cache[0]), cmp_cached);
	for (i = 0; dirs == NULL ? kindex_dirs[i] != NULL : dirs[i] != NULL;
	    i++) {
		const char *d = dirs == NULL ? kindex_dirs[i] : dirs[i];

		if (strcmp(d, ".") == 0 || *d == '\0') {
			(void)snprintf(full, sizeof(full), "%s", ki->sysdir);
			(void)snprintf(rel, sizeof(rel), "sys");
		} else {
			(void)snprintf(full, sizeof(full), "%s/%s",
			    ki->sysdir, d);
			(void)snprintf(rel, sizeof(rel), "sys/%s", d);
		}
		kw_dir(&w, full, rel, 0);
	}
	if (st != NULL)
		err = ki_save(ki, &w, st);
	ki_collect(ki);
	store_kindex_cached_free(w.cache, w.ncache);
	free(w.buf);
	return err;
}

void
kindex_free(struct kindex *ki)
{
	size_t i;

	for (i = 0; i < ki->nfiles; i++) {
		free(ki->files[i].path);
		free(ki->files[i].defs);
	}
	free(ki->files);
	free(ki->v);
	free(ki->root);
	free(ki->sysdir);
	memset(ki, 0, sizeof(*ki));
}

size_t
kindex_find_all(const struct kindex *ki, const char *name,
    const struct kindex_def **firstp)
{
	size_t lo = 0, hi = ki->n, mid, n;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(ki->v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (n = 0; lo + n < ki->n && strcmp(ki->v[lo + n].name, name) == 0;
	    n++)
		continue;
	*firstp = n > 0 ? &ki->v[lo] : NULL;
	return n;
}

const struct kindex_def *
kindex_find(const struct kindex *ki, const char *name)
{
	const struct kindex_def *d;

	(void)kindex_find_all(ki, name, &d);
	return d;
}
