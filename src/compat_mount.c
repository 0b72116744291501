/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading the mount table and unmounting, which every system does its
 * own way: /proc/self/mounts and umount2(2) on Linux, getmntinfo(3) and
 * unmount(2) on the BSDs.  A file of its own because its BSD headers
 * (sys/statvfs.h, sys/mount.h) are not in the NetBSD header sysroot
 * that "make check-netbsd" compiles against.
 */
#if defined(__linux__)
#include <sys/mount.h>		/* umount2(2) */
#elif defined(__NetBSD__)
#include <sys/types.h>
#include <sys/statvfs.h>	/* getmntinfo(3) */
#include <sys/mount.h>		/* unmount(2), MNT_FORCE */
#else				/* FreeBSD, OpenBSD, macOS */
#include <sys/param.h>
#include <sys/mount.h>
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/compat.h"
#include "ltpscope/xmalloc.h"

/* 1 if path is dir or below it. */
static int
mount_is_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	while (n > 1 && dir[n - 1] == '/')
		n--;
	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 &&
	    (path[n] == '\0' || path[n] == '/');
}

static void
mount_add(struct compat_mount **v, long *n, size_t *cap, const char *path,
    const char *fstype)
{
	if ((size_t)*n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[*n].path = xstrdup(path);
	(*v)[*n].fstype = xstrdup(fstype);
	(*n)++;
}

#if defined(__linux__)
/*
 * A field of /proc/self/mounts, with the kernel's octal escapes of
 * blanks, newlines and backslashes undone, in place.  NULL at the end.
 */
static char *
mounts_field(char **pp)
{
	char *p = *pp, *start, *o;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '\0' || *p == '\n')
		return NULL;
	start = o = p;
	while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\n') {
		if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' &&
		    p[2] >= '0' && p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
			*o++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 +
			    (p[3] - '0'));
			p += 4;
		} else
			*o++ = *p++;
	}
	if (*p != '\0')
		p++;
	*o = '\0';
	*pp = p;
	return start;
}

long
compat_mounts_below(const char *dir, struct compat_mount **v)
{
	char *line = NULL, *p, *path, *fstype;
	size_t linecap = 0, cap = 0;
	long n = 0;
	FILE *fp;

	*v = NULL;
	if ((fp = fopen("/proc/self/mounts", "re")) == NULL)
		return -1;
	while (getline(&line, &linecap, fp) != -1) {
		p = line;
		if (mounts_field(&p) == NULL ||
		    (path = mounts_field(&p)) == NULL ||
		    (fstype = mounts_field(&p)) == NULL)
			continue;
		if (mount_is_below(path, dir))
			mount_add(v, &n, &cap, path, fstype);
	}
	free(line);
	fclose(fp);
	return n;
}

int
compat_unmount(const char *path)
{
	/* Detached even if busy: what holds it open keeps it alive. */
	if (umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW) == 0)
		return 0;
	if (errno == EINVAL || errno == ENOENT || errno == EPERM)
		return -1;
	return umount2(path, MNT_FORCE | UMOUNT_NOFOLLOW);
}
#else
long
compat_mounts_below(const char *dir, struct compat_mount **v)
{
#if defined(__NetBSD__)
	struct statvfs *fs;
#else
	struct statfs *fs;
#endif
	size_t cap = 0;
	long n = 0;
	int i, nfs;

	*v = NULL;
	if ((nfs = getmntinfo(&fs, MNT_NOWAIT)) <= 0)
		return -1;
	for (i = 0; i < nfs; i++)
		if (mount_is_below(fs[i].f_mntonname, dir))
			mount_add(v, &n, &cap, fs[i].f_mntonname,
			    fs[i].f_fstypename);
	return n;
}

int
compat_unmount(const char *path)
{
	/* There is no lazy detach: a forced unmount revokes what is open. */
	return unmount(path, MNT_FORCE);
}
#endif

void
compat_mounts_free(struct compat_mount *v, long n)
{
	long i;

	for (i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].fstype);
	}
	free(v);
}
