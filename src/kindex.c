/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel function index (kindex.h): walks the directories of a
 * NetBSD tree the catalogue's functions live in, scans each *.c file
 * whose mtime or size the cache does not already hold, and groups every
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

/* The definitions of the file name in dfd (full), read and scanned. */
static char *
kw_read(struct kindex_walk *w, int dfd, const char *name, const char *full,
    const struct stat *sb)
{
	struct kindex_text t = { NULL, 0, 0 };
	size_t got = 0;
	ssize_t r;
	int fd;

	if ((fd = openat(dfd, name, O_RDONLY)) == -1) {
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
kw_add(struct kindex_walk *w, int dfd, const char *name, const char *rel,
    const char *full, const struct stat *sb)
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
	} else if ((defs = kw_read(w, dfd, name, full, sb)) == NULL)
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

/*
 * Walks the directory open as dfd (full, shown as rel) for *.c files,
 * and closes dfd.  Each entry is looked up from its directory, not from
 * the root: a sys/ tree is thousands of files deep in a few levels,
 * and a second build is little more than these lookups.
 */
static void
kw_dir(struct kindex_walk *w, int dfd, const char *full, const char *rel,
    int depth)
{
	char fpath[PATH_MAX], rpath[PATH_MAX];
	struct dirent *de;
	struct stat sb;
	DIR *d;
	int cfd;

	if (depth > 32 || (d = fdopendir(dfd)) == NULL) {
		(void)close(dfd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(fpath, sizeof(fpath), "%s/%s", full,
		    de->d_name) >= sizeof(fpath) ||
		    (size_t)snprintf(rpath, sizeof(rpath), "%s/%s", rel,
		    de->d_name) >= sizeof(rpath) ||
		    fstatat(dirfd(d), de->d_name, &sb,
		    AT_SYMLINK_NOFOLLOW) == -1)
			continue;
		if (S_ISDIR(sb.st_mode)) {
			if ((cfd = openat(dirfd(d), de->d_name,
			    O_RDONLY | O_DIRECTORY)) != -1)
				kw_dir(w, cfd, fpath, rpath, depth + 1);
		} else if (S_ISREG(sb.st_mode) && kw_suffix_c(de->d_name))
			kw_add(w, dirfd(d), de->d_name, rpath, fpath, &sb);
	}
	(void)closedir(d);
}

/*
 * FNV-1a: names of one kernel spread well enough over the buckets.
 * ki_collect() computes it inline too.
 */
static uint32_t
ki_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static int
ki_before(const struct kindex_def *x, const struct kindex_def *y)
{
	int c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c < 0;
	if ((c = strcmp(x->file, y->file)) != 0)
		return c < 0;
	return x->line < y->line;
}

/*
 * Groups v by bucket of its names' hashes h (a counting sort), each
 * bucket then by name, file and line: a name's definitions end up side
 * by side, in time linear in their number, where a sort of a whole
 * sys/ tree's hundred thousand names costs as much as stat()ing its
 * files.
 */
static void
ki_group(struct kindex *ki, const uint32_t *h)
{
	struct kindex_def *out, tmp;
	size_t *bk, i, j, b, nb = ki->nbuckets;

	bk = ki->bucket = xcalloc(nb + 1, sizeof(ki->bucket[0]));
	for (i = 0; i < ki->n; i++)
		bk[h[i]]++;
	for (b = 1; b < nb; b++)
		bk[b] += bk[b - 1];
	bk[nb] = ki->n;
	/* Backwards, each bucket's end counts down to its start. */
	out = xreallocarray(NULL, ki->n + 1, sizeof(out[0]));
	for (i = ki->n; i-- > 0; )
		out[--bk[h[i]]] = ki->v[i];
	free(ki->v);
	ki->v = out;
	/* A bucket holds a name or two: an insertion sort suffices. */
	for (b = 0; b < nb; b++)
		for (i = bk[b] + 1; i < bk[b + 1]; i++) {
			tmp = out[i];
			for (j = i; j > bk[b] && ki_before(&tmp, &out[j - 1]);
			    j--)
				out[j] = out[j - 1];
			out[j] = tmp;
		}
}

/*
 * Cuts each file's "name line\n" text into the index, hashing each
 * name on the way, while it is in the cache.
 */
static void
ki_collect(struct kindex *ki)
{
	struct kindex_file *f;
	struct kindex_def *d;
	uint32_t *h = NULL, hv;
	size_t i, cap = 0;
	unsigned long line;
	char *p, *q, *end;

	for (i = 0; i < ki->nfiles; i++) {
		f = &ki->files[i];
		for (p = f->defs; *p != '\0'; p = end + 1) {
			hv = 2166136261u;
			for (q = p; *q != '\0' && *q != ' ' && *q != '\n'; q++)
				hv = (hv ^ (unsigned char)*q) * 16777619u;
			if (*q != ' ')
				break;
			line = strtoul(q + 1, &end, 10);
			if (*end != '\n')
				break;
			if (ki->n == cap) {
				cap = cap ? cap * 2 : 4096;
				ki->v = xreallocarray(ki->v, cap,
				    sizeof(ki->v[0]));
				h = xreallocarray(h, cap, sizeof(h[0]));
			}
			*q = '\0';
			*end = '\0';
			d = &ki->v[ki->n];
			d->name = p;
			d->file = f->path;
			d->line = line;
			h[ki->n++] = hv;
		}
	}
	for (ki->nbuckets = 1; ki->nbuckets < ki->n; )
		ki->nbuckets <<= 1;
	for (i = 0; i < ki->n; i++)
		h[i] &= (uint32_t)(ki->nbuckets - 1);
	ki_group(ki, h);
	free(h);
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
	int fd, err = STORE_OK;

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
		if ((fd = open(full, O_RDONLY | O_DIRECTORY)) != -1)
			kw_dir(&w, fd, full, rel, 0);
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
	free(ki->bucket);
	free(ki->root);
	free(ki->sysdir);
	memset(ki, 0, sizeof(*ki));
}

size_t
kindex_find_all(const struct kindex *ki, const char *name,
    const struct kindex_def **firstp)
{
	size_t i, end, n = 0, b;

	*firstp = NULL;
	if (ki->nbuckets == 0)
		return 0;
	b = ki_hash(name) & (ki->nbuckets - 1);
	end = ki->bucket[b + 1];
	for (i = ki->bucket[b]; i < end; i++)
		if (strcmp(ki->v[i].name, name) == 0)
			break;
	while (i + n < end && strcmp(ki->v[i + n].name, name) == 0)
		n++;
	if (n > 0)
		*firstp = &ki->v[i];
	return n;
}

const struct kindex_def *
kindex_find(const struct kindex *ki, const char *name)
{
	const struct kindex_def *d;

	(void)kindex_find_all(ki, name, &d);
	return d;
}
