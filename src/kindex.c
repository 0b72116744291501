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

/* A cached file's path's hash, and 1 + its index in the cache (0: none). */
struct kindex_slot {
	uint32_t	hash;
	uint32_t	at;
};

struct kindex_walk {
	struct kindex		*ki;
	size_t			 cap;
	struct kindex_cached	*cache;
	size_t			 ncache;
	struct kindex_slot	*slot;
	size_t			 nslots;	/* a power of 2 */
	char			 rel[PATH_MAX];	/* "sys/kern/...": the walk's */
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

/* FNV-1a, from h on: a path's is its directory's carried on. */
static uint32_t
kw_hash(uint32_t h, const char *s)
{
	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

#define KW_HASH0	2166136261u

/*
 * The cached files by path, in a table open-addressed by hash: a
 * lookup per file of the walk costs a hash of its name and one
 * comparison, where sorting and searching the cache's paths, long and
 * alike ("sys/compat/linux/common/..."), cost a good part of a second
 * build.
 */
static void
kw_slots(struct kindex_walk *w)
{
	size_t i, k, mask;
	uint32_t h;

	for (w->nslots = 16; w->nslots < w->ncache * 2; )
		w->nslots <<= 1;
	w->slot = xcalloc(w->nslots, sizeof(w->slot[0]));
	mask = w->nslots - 1;
	for (i = 0; i < w->ncache; i++) {
		h = kw_hash(KW_HASH0, w->cache[i].path);
		for (k = h & mask; w->slot[k].at != 0; k = (k + 1) & mask)
			continue;
		w->slot[k].hash = h;
		w->slot[k].at = (uint32_t)i + 1;
	}
}

/* The cached file w->rel (whose hash is h), or NULL. */
static struct kindex_cached *
kw_cached(struct kindex_walk *w, uint32_t h)
{
	size_t k, mask = w->nslots - 1;
	struct kindex_cached *c;

	if (w->ncache == 0)
		return NULL;
	/* The hash beside each slot: no other file's path looked at. */
	for (k = h & mask; w->slot[k].at != 0; k = (k + 1) & mask) {
		if (w->slot[k].hash != h)
			continue;
		c = &w->cache[w->slot[k].at - 1];
		if (c->path != NULL && strcmp(c->path, w->rel) == 0)
			return c;
	}
	return NULL;
}

/* The definitions of the file name in dfd (w->rel), read and scanned. */
static char *
kw_read(struct kindex_walk *w, int dfd, const char *name,
    const struct stat *sb)
{
	struct kindex_text t = { NULL, 0, 0 };
	char full[PATH_MAX];
	size_t got = 0;
	ssize_t r;
	int fd;

	/* For messages, the whole path: w->rel's "sys" is sysdir. */
	(void)snprintf(full, sizeof(full), "%s%s", w->ki->sysdir, w->rel + 3);
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

/* The file name in dfd, w->rel (hashed h): from the cache, or read. */
static void
kw_add(struct kindex_walk *w, int dfd, const char *name, uint32_t h,
    const struct stat *sb)
{
	struct kindex *ki = w->ki;
	struct kindex_file *f;
	struct kindex_cached *c;
	int64_t mt;
	char *defs;

	mt = (int64_t)sb->st_mtim.tv_sec * 1000000000 + sb->st_mtim.tv_nsec;
	c = kw_cached(w, h);
	if (c != NULL && c->mtime_ns == mt && c->size == sb->st_size &&
	    c->defs != NULL) {
		defs = c->defs;
		c->defs = NULL;
	} else if ((defs = kw_read(w, dfd, name, sb)) == NULL)
		return;
	if (ki->nfiles == w->cap) {
		w->cap = w->cap ? w->cap * 2 : 256;
		ki->files = xreallocarray(ki->files, w->cap, sizeof(*f));
	}
	f = &ki->files[ki->nfiles++];
	f->mtime_ns = mt;
	f->size = sb->st_size;
	f->defs = defs;
	f->fresh = c == NULL || c->defs != NULL;
	if (f->fresh)
		ki->nread++;
	/* Seen: not one to drop from the cache; its path is the file's. */
	if (c != NULL) {
		f->path = c->path;
		c->path = NULL;
	} else
		f->path = xstrdup(w->rel);
}

static int
kw_suffix_c(const char *name, size_t n)
{
	return n > 2 && name[n - 2] == '.' && name[n - 1] == 'c';
}

/*
 * Walks the directory open as dfd, w->rel (rellen bytes, hashed h),
 * for *.c files, and closes dfd.  Each entry is looked up from its
 * directory, not from the root: a sys/ tree is thousands of files deep
 * in a few levels, and a second build is little more than these
 * lookups.  w->rel is back as it was on return.
 */
static void
kw_dir(struct kindex_walk *w, int dfd, size_t rellen, uint32_t h, int depth)
{
	struct dirent *de;
	struct stat sb;
	size_t n;
	uint32_t hn;
	DIR *d;
	int cfd;

	if (depth > 32 || (d = fdopendir(dfd)) == NULL) {
		(void)close(dfd);
		return;
	}
	h = (h ^ '/') * 16777619u;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		n = strlen(de->d_name);
		if (rellen + 1 + n >= sizeof(w->rel) ||
		    fstatat(dirfd(d), de->d_name, &sb,
		    AT_SYMLINK_NOFOLLOW) == -1)
			continue;
		w->rel[rellen] = '/';
		memcpy(w->rel + rellen + 1, de->d_name, n + 1);
		hn = kw_hash(h, de->d_name);
		if (S_ISDIR(sb.st_mode)) {
			if ((cfd = openat(dirfd(d), de->d_name,
			    O_RDONLY | O_DIRECTORY)) != -1)
				kw_dir(w, cfd, rellen + 1 + n, hn, depth + 1);
		} else if (S_ISREG(sb.st_mode) && kw_suffix_c(de->d_name, n))
			kw_add(w, dirfd(d), de->d_name, hn, &sb);
	}
	w->rel[rellen] = '\0';
	(void)closedir(d);
}

/*
 * FNV-1a: names of one kernel spread well enough over the buckets.
 * ki_hashes() computes it inline too.
 */
static uint32_t
ki_hash(const char *s)
{
	return kw_hash(KW_HASH0, s);
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
 * The hash of each well-formed "name line\n" of the files' texts, in
 * order; a file's text is cut at its first bad record, so that the
 * second pass (ki_place()) sees exactly the records counted here.
 */
static uint32_t *
ki_hashes(struct kindex *ki, size_t *np)
{
	uint32_t *h = NULL, hv;
	size_t i, n = 0, cap = 0;
	char *p, *q;

	for (i = 0; i < ki->nfiles; i++)
		for (p = ki->files[i].defs; *p != '\0'; p = q + 1) {
			hv = KW_HASH0;
			for (q = p; *q != '\0' && *q != ' ' && *q != '\n'; q++)
				hv = (hv ^ (unsigned char)*q) * 16777619u;
			if (*q++ != ' ' || *q < '0' || *q > '9') {
				*p = '\0';
				break;
			}
			while (*q >= '0' && *q <= '9')
				q++;
			if (*q != '\n') {
				*p = '\0';
				break;
			}
			if (n == cap) {
				cap = cap ? cap * 2 : 4096;
				h = xreallocarray(h, cap, sizeof(h[0]));
			}
			h[n++] = hv;
		}
	*np = n;
	return h;
}

/*
 * Cuts each record into v, straight into its bucket's place (h[i] the
 * hash of the i-th record, bk[b] the end of bucket b, its start when
 * done), its hash beside in hv: the records are placed once, in memory
 * allocated once, where growing an array and sorting it into another
 * cost more than reading the cache, most of it in touching fresh pages.
 */
static void
ki_place(struct kindex *ki, const uint32_t *h, uint32_t *bk, uint32_t *hv)
{
	uint32_t mask = (uint32_t)ki->nbuckets - 1, at;
	struct kindex_def *d;
	unsigned long line;
	size_t i, k = 0;
	char *p, *q;

	for (i = 0; i < ki->nfiles; i++)
		for (p = ki->files[i].defs; *p != '\0'; p = q + 1) {
			q = strchr(p, ' ');
			*q++ = '\0';
			for (line = 0; *q != '\n'; q++)
				line = line * 10 + (unsigned long)(*q - '0');
			*q = '\0';
			at = --bk[h[k] & mask];
			hv[at] = h[k++];
			d = &ki->v[at];
			d->name = p;
			d->file = ki->files[i].path;
			d->line = line;
		}
}

/*
 * Groups every file's definitions by the bucket of their names' hashes
 * (a counting sort), each bucket then by name, file and line: a name's
 * definitions end up side by side, in time linear in their number,
 * where a sort of a whole sys/ tree's hundred thousand names costs as
 * much as stat()ing its files.
 */
static void
ki_collect(struct kindex *ki)
{
	struct kindex_def tmp, *v;
	uint32_t *h, *hv, *bk, th;
	size_t i, j, b, nb;

	h = ki_hashes(ki, &ki->n);
	/* About two names a bucket: fewer fresh pages, short buckets. */
	for (nb = 1; nb * 2 < ki->n; )
		nb <<= 1;
	ki->nbuckets = nb;
	bk = ki->bucket = xcalloc(nb + 1, sizeof(ki->bucket[0]));
	for (i = 0; i < ki->n; i++)
		bk[h[i] & (nb - 1)]++;
	for (b = 1; b < nb; b++)
		bk[b] += bk[b - 1];
	bk[nb] = (uint32_t)ki->n;
	v = ki->v = xreallocarray(NULL, ki->n + 1, sizeof(v[0]));
	hv = xreallocarray(NULL, ki->n + 1, sizeof(hv[0]));
	ki_place(ki, h, bk, hv);
	free(h);
	/*
	 * A bucket holds a name or two: an insertion sort suffices, by
	 * whole hash first, so that names are compared (a cache miss
	 * each) only when their hashes are the same, most often when
	 * they are.
	 */
	for (b = 0; b < nb; b++)
		for (i = bk[b] + 1; i < bk[b + 1]; i++) {
			tmp = v[i];
			th = hv[i];
			for (j = i; j > bk[b] && (th < hv[j - 1] ||
			    (th == hv[j - 1] && ki_before(&tmp, &v[j - 1])));
			    j--) {
				v[j] = v[j - 1];
				hv[j] = hv[j - 1];
			}
			v[j] = tmp;
			hv[j] = th;
		}
	free(hv);
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
	/* A file seen took its path from the cache: the rest are gone. */
	for (i = 0; i < w->ncache; i++)
		if (w->cache[i].path != NULL)
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

const char *
kindex_default_root(void)
{
	const char *e = getenv("LTPSCOPE_KERNEL_SRC");

	return e != NULL && *e != '\0' ? e : KINDEX_DEFAULT_ROOT;
}

int
kindex_build(struct kindex *ki, const char *root, const char *const *dirs,
    struct store *st, struct diaglist *dl)
{
	struct kindex_walk w;
	char full[PATH_MAX];
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
	kw_slots(&w);
	for (i = 0; dirs == NULL ? kindex_dirs[i] != NULL : dirs[i] != NULL;
	    i++) {
		const char *d = dirs == NULL ? kindex_dirs[i] : dirs[i];

		if (strcmp(d, ".") == 0 || *d == '\0')
			d = "";
		if ((size_t)snprintf(full, sizeof(full), "%s%s%s", ki->sysdir,
		    *d != '\0' ? "/" : "", d) >= sizeof(full) ||
		    (size_t)snprintf(w.rel, sizeof(w.rel), "sys%s%s",
		    *d != '\0' ? "/" : "", d) >= sizeof(w.rel))
			continue;
		if ((fd = open(full, O_RDONLY | O_DIRECTORY)) != -1)
			kw_dir(&w, fd, strlen(w.rel), kw_hash(KW_HASH0, w.rel),
			    0);
	}
	if (st != NULL)
		err = ki_save(ki, &w, st);
	ki->st = st;
	ki->dirs = dirs;
	ki_collect(ki);
	store_kindex_cached_free(w.cache, w.ncache);
	free(w.slot);
	free(w.buf);
	return err;
}

int
kindex_open(struct kindex *ki, const char *root, const char *const *dirs,
    struct store *st, struct diaglist *dl)
{
	struct kindex_cached *c = NULL;
	struct kindex_file *f;
	size_t i, n = 0;
	char *sysdir;

	if (st == NULL || (sysdir = ki_sysdir(root)) == NULL)
		return kindex_build(ki, root, dirs, st, dl);
	if (store_kindex_load(st, sysdir, &c, &n, dl) != STORE_OK || n == 0) {
		free(sysdir);
		store_kindex_cached_free(c, n);
		return kindex_build(ki, root, dirs, st, dl);
	}
	memset(ki, 0, sizeof(*ki));
	ki->root = xstrdup(root);
	ki->sysdir = sysdir;
	ki->files = xcalloc(n, sizeof(*ki->files));
	for (i = 0; i < n; i++) {
		f = &ki->files[ki->nfiles++];
		f->path = c[i].path;
		f->mtime_ns = c[i].mtime_ns;
		f->size = c[i].size;
		/* A row without its text: stale, as a changed file is. */
		f->defs = c[i].defs != NULL ? c[i].defs : xstrdup("");
		f->mtime_ns = c[i].defs != NULL ? f->mtime_ns : -1;
	}
	free(c);			/* its strings are the files' now */
	ki->st = st;
	ki->dirs = dirs;
	ki->trusting = 1;
	ki_collect(ki);
	return STORE_OK;
}

/* Whether the file of d is as the cache has it. */
static int
ki_current(const struct kindex *ki, const struct kindex_def *d)
{
	const struct kindex_file *f = NULL;
	char path[PATH_MAX];
	struct stat sb;
	size_t i;

	/* d->file is its file's path, the same pointer. */
	for (i = 0; i < ki->nfiles && f == NULL; i++)
		if (ki->files[i].path == d->file)
			f = &ki->files[i];
	if (f == NULL || (size_t)snprintf(path, sizeof(path), "%s%s",
	    ki->sysdir, d->file + 3) >= sizeof(path) ||
	    stat(path, &sb) == -1 || !S_ISREG(sb.st_mode))
		return 0;
	return f->mtime_ns == (int64_t)sb.st_mtim.tv_sec * 1000000000 +
	    sb.st_mtim.tv_nsec && f->size == sb.st_size;
}

size_t
kindex_lookup(struct kindex *ki, const char *name,
    const struct kindex_def **firstp, struct diaglist *dl)
{
	struct diaglist mine;
	struct kindex nk;
	size_t n, i;
	int err;

	n = kindex_find_all(ki, name, firstp);
	if (!ki->trusting)
		return n;
	for (i = 0; i < n; i++)
		if (!ki_current(ki, &(*firstp)[i]))
			break;
	if ((n > 0 && i == n) || (n == 0 && ki->walked))
		return n;
	/* Stale, or not in the cache: walk the tree (reading what changed). */
	diag_init(&mine);
	err = kindex_build(&nk, ki->root, ki->dirs, ki->st,
	    dl != NULL ? dl : &mine);
	diag_free(&mine);
	if (err != STORE_OK && nk.nbuckets == 0) {
		kindex_free(&nk);
		*firstp = NULL;
		return 0;
	}
	kindex_free(ki);
	*ki = nk;
	ki->trusting = ki->walked = 1;
	return kindex_find_all(ki, name, firstp);
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
