/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Recursive removal of a test's TMPDIR (see rmtree.h).  Tests leave
 * directories without write or search permission behind, so each
 * directory is made 0700 once opened; links are never followed, since
 * a test may leave a symlink to / in its TMPDIR; and the walk never
 * enters another file system, since a test killed before its cleanup
 * leaves its mounts behind, a bind mount of a real directory among
 * them.  A mount point is known by a device that differs from its
 * parent's, or, for a directory of the same file system bind-mounted,
 * by its device and inode being those of a mount in the mount table.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/rmtree.h"
#include "ltpscope/xmalloc.h"

#define RMTREE_MAXDEPTH	128	/* one fd per level */
#define RMTREE_PASSES	4	/* of unmounting: mounts stack */

struct rmtree_id {
	dev_t	dev;
	ino_t	ino;
};

struct rmtree_walk {
	struct rmtree_id *mnt;	/* roots of the mounts below the top */
	size_t		  nmnt;
	int		  err;	/* the first errno */
	int		  crossed;	/* a mount point was left alone */
	char		  path[PATH_MAX];	/* of the directory walked */
	size_t		  len;
	char		  where[PATH_MAX];	/* what err is about */
};

/* dir/name into buf (size > 0), cut short if need be; its length. */
static size_t
rmtree_join(char *buf, size_t size, const char *dir, const char *name)
{
	size_t n = 0;

	buf[0] = '\0';
	if (dir[0] != '\0') {
		if ((n = compat_strlcpy(buf, dir, size)) >= size - 1)
			return size - 1;
		buf[n++] = '/';
		buf[n] = '\0';
	}
	n += compat_strlcpy(buf + n, name, size - n);
	return n < size ? n : size - 1;
}

/* Notes errno e about name in the directory walked. */
static int
rmtree_note(struct rmtree_walk *w, int e, const char *name)
{
	if (w->err == 0) {
		w->err = e;
		(void)rmtree_join(w->where, sizeof(w->where), w->path, name);
	}
	return -1;
}

/* Enters name in the path walked; returns what to restore it to. */
static size_t
rmtree_push(struct rmtree_walk *w, const char *name)
{
	size_t was = w->len;

	if (w->len > 0 && w->len < sizeof(w->path) - 1)
		w->path[w->len++] = '/';
	w->len += compat_strlcpy(w->path + w->len, name,
	    sizeof(w->path) - w->len);
	if (w->len >= sizeof(w->path))
		w->len = sizeof(w->path) - 1;
	return was;
}

static void
rmtree_pop(struct rmtree_walk *w, size_t was)
{
	w->len = was;
	w->path[was] = '\0';
}

/* 1 if st, a directory whose parent is on device pdev, is a mount. */
static int
rmtree_is_mount(const struct rmtree_walk *w, const struct stat *st,
    dev_t pdev)
{
	size_t i;

	if (st->st_dev != pdev)
		return 1;
	for (i = 0; i < w->nmnt; i++)
		if (w->mnt[i].dev == st->st_dev && w->mnt[i].ino == st->st_ino)
			return 1;
	return 0;
}

/* The roots of the file systems mounted at or below the directory top. */
static void
rmtree_find_mounts(struct rmtree_walk *w, const char *top)
{
	struct compat_mount *v;
	struct stat st;
	char *real;
	long n, i;

	if ((real = realpath(top, NULL)) == NULL)
		return;
	n = compat_mounts_below(real, &v);
	free(real);
	if (n <= 0)
		return;
	w->mnt = xreallocarray(NULL, (size_t)n, sizeof(*w->mnt));
	for (i = 0; i < n; i++)
		if (lstat(v[i].path, &st) == 0) {
			w->mnt[w->nmnt].dev = st.st_dev;
			w->mnt[w->nmnt++].ino = st.st_ino;
		}
	compat_mounts_free(v, n);
}

/*
 * Opens the directory name (relative to dirfd) that fstatat(2) found
 * to be st: made searchable first if it is not, and refused if it is
 * no longer the directory that was looked at.
 */
static int
rmtree_open(int dirfd, const char *name, const struct stat *st)
{
	struct stat now;
	int fd;

	fd = openat(dirfd, name,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1 && errno == EACCES) {
		(void)fchmodat(dirfd, name, S_IRWXU, 0);
		fd = openat(dirfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd == -1)
		return -1;
	if (fstat(fd, &now) == -1 || now.st_dev != st->st_dev ||
	    now.st_ino != st->st_ino) {
		close(fd);
		errno = EBUSY;
		return -1;
	}
	if ((now.st_mode & S_IRWXU) != S_IRWXU)
		(void)fchmod(fd, S_IRWXU);
	return fd;
}

/* Empties the directory name (relative to dirfd, stat st) and removes it. */
static int
rmtree_dir(struct rmtree_walk *w, int dirfd, const char *name,
    const struct stat *st, int depth)
{
	struct dirent *de;
	struct stat cst;
	size_t was;
	DIR *d;
	int fd;

	if (depth > RMTREE_MAXDEPTH)
		return rmtree_note(w, ELOOP, name);
	if ((fd = rmtree_open(dirfd, name, st)) == -1)
		return rmtree_note(w, errno, name);
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return rmtree_note(w, errno, name);
	}
	was = rmtree_push(w, name);
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(fd, de->d_name, &cst, AT_SYMLINK_NOFOLLOW) == -1) {
			if (errno != ENOENT)
				rmtree_note(w, errno, de->d_name);
			continue;
		}
		if (!S_ISDIR(cst.st_mode)) {
			if (unlinkat(fd, de->d_name, 0) == -1 &&
			    errno != ENOENT)
				rmtree_note(w, errno, de->d_name);
		} else if (rmtree_is_mount(w, &cst, st->st_dev)) {
			w->crossed = 1;
			rmtree_note(w, EBUSY, de->d_name);
		} else
			(void)rmtree_dir(w, fd, de->d_name, &cst, depth + 1);
	}
	closedir(d);
	rmtree_pop(w, was);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) == -1 && errno != ENOENT)
		return rmtree_note(w, errno, name);
	return 0;
}

/*
 * The walk from path, which is not a mount itself: its device is its
 * parent's (path/.. is the parent even when path is a mount point).
 * Fills w (w->err, w->where, w->crossed); the caller frees nothing.
 */
static int
rmtree_walk(struct rmtree_walk *w, const char *path)
{
	struct stat st, pst;
	char *parent;
	int rc;

	memset(w, 0, sizeof(*w));
	if (lstat(path, &st) == -1)
		return errno == ENOENT ? 0 : rmtree_note(w, errno, path);
	if (!S_ISDIR(st.st_mode))
		return unlink(path) == -1 && errno != ENOENT ?
		    rmtree_note(w, errno, path) : 0;
	xasprintf(&parent, "%s/..", path);
	rc = stat(parent, &pst);
	free(parent);
	if (rc == -1)
		return rmtree_note(w, errno, path);
	rmtree_find_mounts(w, path);
	if (rmtree_is_mount(w, &st, pst.st_dev)) {
		w->crossed = 1;
		rmtree_note(w, EBUSY, path);
	} else
		(void)rmtree_dir(w, AT_FDCWD, path, &st, 0);
	free(w->mnt);
	w->mnt = NULL;
	return w->err != 0 ? -1 : 0;
}

int
rmtree(const char *path)
{
	struct rmtree_walk *w;
	int rc;

	/* Most tests leave their TMPDIR empty: one call then. */
	if (rmdir(path) == 0)
		return 0;
	w = xmalloc(sizeof(*w));
	if ((rc = rmtree_walk(w, path)) == -1)
		errno = w->err;
	free(w);
	return rc;
}

/* Unmounts what is mounted at or below path, the deepest first. */
/* Unmounts what is below real; done names the first, and the count. */
static void
rmtree_unmount_below(const char *real, char *done, size_t donelen)
{
	struct compat_mount *v;
	long n, i, gone = 0;
	int pass;

	for (pass = 0; pass < RMTREE_PASSES; pass++) {
		if ((n = compat_mounts_below(real, &v)) <= 0)
			break;
		/* The table lists a mount after the one it sits on. */
		for (i = n - 1; i >= 0; i--) {
			if (compat_unmount(v[i].path) != 0)
				continue;
			if (gone++ == 0 && donelen > 0)
				snprintf(done, donelen, "%s at %s",
				    v[i].fstype, v[i].path);
		}
		compat_mounts_free(v, n);
	}
	if (gone > 1 && donelen > 0) {
		size_t len = strlen(done);

		snprintf(done + len, donelen - len, " and %ld more",
		    gone - 1);
	}
}

int
rmtree_unmount(const char *path, char *why, size_t whylen)
{
	return rmtree_unmount_said(path, why, whylen, NULL, 0);
}

int
rmtree_unmount_said(const char *path, char *why, size_t whylen,
    char *done, size_t donelen)
{
	struct compat_mount *v;
	struct rmtree_walk *w;
	char *real;
	long n;
	int e;

	if (whylen > 0)
		why[0] = '\0';
	if (donelen > 0)
		done[0] = '\0';
	if (rmdir(path) == 0 || errno == ENOENT)
		return 0;
	if ((real = realpath(path, NULL)) != NULL)
		rmtree_unmount_below(real, done, donelen);
	w = xmalloc(sizeof(*w));
	if (rmtree_walk(w, path) == 0) {
		free(w);
		free(real);
		return 0;
	}
	e = w->err;
	n = real != NULL ? compat_mounts_below(real, &v) : -1;
	if (n > 0)
		snprintf(why, whylen, "%s mounted at %s%s", v[0].fstype,
		    v[0].path, n > 1 ? " (and more)" : "");
	else if (w->crossed)
		snprintf(why, whylen, "%s: another file system, not entered",
		    w->where);
	else
		snprintf(why, whylen, "%s: %s", w->where, strerror(e));
	if (n > 0)
		compat_mounts_free(v, n);
	free(w);
	free(real);
	errno = e;
	return -1;
}
