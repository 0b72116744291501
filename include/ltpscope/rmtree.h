/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Removing a test's TMPDIR, whatever the test left in it: read-only
 * and unreadable directories, symlinks (never followed), deep trees,
 * and the mounts of a test killed before its cleanup.
 */
#ifndef LTPSCOPE_RMTREE_H
#define LTPSCOPE_RMTREE_H

#include <stddef.h>

/*
 * Removes path and everything below it, making directories writable
 * and searchable as needed.  It never enters another file system: a
 * directory with something mounted on it (a bind mount of a directory
 * of the same file system included, found in the mount table) is left
 * with its contents, and so are its parents.  Returns 0, or -1 with
 * errno from the first thing that could not be removed (EBUSY for a
 * mount point; it removes what it can).
 */
int	rmtree(const char *path);

/*
 * rmtree() after unmounting everything mounted at or below path
 * (lazily or by force where the system allows, see compat_unmount).
 * On failure, why says what stays, e.g. "tmpfs mounted at /tmp/x/mnt";
 * it is "" on success.
 */
int	rmtree_unmount(const char *path, char *why, size_t whylen);

/*
 * rmtree_unmount(), saying in done what it unmounted, "tmpfs at
 * /tmp/x/mnt" or "tmpfs at /tmp/x/mnt and 2 more" ("" when nothing),
 * whether or not the rest went.
 */
int	rmtree_unmount_said(const char *path, char *why, size_t whylen,
	    char *done, size_t donelen);

#endif
