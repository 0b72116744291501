/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rmtree(): a TMPDIR as tests leave it is removed, links in it are not
 * followed, and a file system mounted in it (a tmpfs, a bind mount of
 * a directory of the same file system) is neither entered nor changed;
 * rmtree_unmount() unmounts such mounts first.  The mounts need root
 * and mount(8): without them those checks are skipped, with the
 * reason.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/rmtree.h"
#include "tap.h"

static void
put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp != NULL) {
		fputs(text, fp);
		fclose(fp);
	}
}

/* 1 if path holds exactly text. */
static int
holds(const char *path, const char *text)
{
	char *s = tap_slurp(path, NULL);
	int same = s != NULL && strcmp(s, text) == 0;

	free(s);
	return same;
}

static int
exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Mounts below dir, or -1 if the table cannot be read. */
static long
mounts_below(const char *dir)
{
	struct compat_mount *v;
	char *real = realpath(dir, NULL);
	long n;

	if (real == NULL)
		return -1;
	n = compat_mounts_below(real, &v);
	if (n > 0)
		compat_mounts_free(v, n);
	free(real);
	return n;
}

/* What a test may leave: read-only trees, links pointing outside. */
static void
test_links_and_modes(void)
{
	char top[PATH_MAX], out[PATH_MAX], p[PATH_MAX + 64];
	struct stat st;

	snprintf(top, sizeof(top), "%s/links", tap_tmpdir());
	snprintf(out, sizeof(out), "%s/outside", tap_tmpdir());
	mkdir(top, 0755);
	mkdir(out, 0755);
	snprintf(p, sizeof(p), "%s/file", out);
	put(p, "outside\n");
	snprintf(p, sizeof(p), "%s/to_dir", top);
	ok(symlink(out, p) == 0, "a link to a directory outside");
	snprintf(p, sizeof(p), "%s/to_file", top);
	ok(symlink("../outside/file", p) == 0, "a link to a file outside");
	snprintf(p, sizeof(p), "%s/ro", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/ro/deep", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/ro/deep/f", top);
	put(p, "x\n");
	chmod(p, 0400);
	snprintf(p, sizeof(p), "%s/ro/deep", top);
	chmod(p, 0);
	snprintf(p, sizeof(p), "%s/ro", top);
	chmod(p, 0500);
	chmod(out, 0555);

	is_int(rmtree(top), 0, "rmtree removes the tree");
	ok(!exists(top), "nothing is left of it");
	snprintf(p, sizeof(p), "%s/file", out);
	ok(holds(p, "outside\n"), "the file a link pointed at is intact");
	ok(exists(out), "so is the directory a link pointed at");
	if (stat(out, &st) == -1)
		st.st_mode = 0;
	is_int(st.st_mode & 07777, 0555,
	    "and its mode was not changed through the link");
	chmod(out, 0755);
	is_int(rmtree(top), 0, "rmtree of what is not there: 0");
}

/* Runs a shell command quietly; 0 if it succeeded. */
static int
sh(const char *fmt, const char *a, const char *b)
{
	char cmd[3 * PATH_MAX];
	char *out;
	int st;

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	out = tap_run(cmd, &st, 1);
	free(out);
	return st;
}

/*
 * A tree with a tmpfs and a bind mount of a directory of this file
 * system (same st_dev as its parent) in it.  0, or -1 with the reason.
 */
static int
make_mounted_tree(const char *top, const char *src, const char **why)
{
	char p[PATH_MAX + 64], q[PATH_MAX + 64];

	if (geteuid() != 0) {
		*why = "not root";
		return -1;
	}
	snprintf(p, sizeof(p), "%s/a/mnt", top);
	snprintf(q, sizeof(q), "%s/a", top);
	if (mkdir(top, 0755) == -1 || mkdir(q, 0755) == -1 ||
	    mkdir(p, 0755) == -1 || mkdir(src, 0755) == -1) {
		*why = "mkdir failed";
		return -1;
	}
	if (sh("mount -t tmpfs tmpfs '%s'%s", p, "") != 0) {
		*why = "mount -t tmpfs is not permitted here";
		return -1;
	}
	chmod(p, 0751);
	snprintf(q, sizeof(q), "%s/a/mnt/keep", top);
	put(q, "on the tmpfs\n");
	snprintf(q, sizeof(q), "%s/marker", src);
	put(q, "marker\n");
	chmod(src, 0751);
	snprintf(p, sizeof(p), "%s/bind", top);
	mkdir(p, 0755);
	if (sh("mount --bind '%s' '%s'", src, p) != 0 &&
	    sh("mount -t null '%s' '%s'", src, p) != 0) {
		*why = "bind mounts are not permitted here";
		return -1;
	}
	snprintf(p, sizeof(p), "%s/x", top);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/x/file", top);
	put(p, "plain\n");
	return 0;
}

/* Whatever a failed check left mounted goes before tap_done's rm -rf. */
static void
unmount_all(const char *dir)
{
	struct compat_mount *v;
	char *real = realpath(dir, NULL);
	long n, i;

	if (real == NULL)
		return;
	if ((n = compat_mounts_below(real, &v)) > 0) {
		for (i = n - 1; i >= 0; i--)
			(void)compat_unmount(v[i].path);
		compat_mounts_free(v, n);
	}
	free(real);
}

static void
test_mounts(void)
{
	char top[PATH_MAX], src[PATH_MAX], p[PATH_MAX + 64], why[256];
	const char *skip = NULL;
	struct stat st;

	snprintf(top, sizeof(top), "%s/mounted", tap_tmpdir());
	snprintf(src, sizeof(src), "%s/real", tap_tmpdir());
	if (make_mounted_tree(top, src, &skip) == -1) {
		ok(1, "# SKIP mounts: %s", skip);
		unmount_all(tap_tmpdir());
		return;
	}
	is_int(mounts_below(top), 2, "the mount table shows both mounts");

	errno = 0;
	ok(rmtree(top) == -1 && errno == EBUSY,
	    "rmtree fails with EBUSY on a tree with mounts in it");
	snprintf(p, sizeof(p), "%s/a/mnt/keep", top);
	ok(holds(p, "on the tmpfs\n"), "the tmpfs was not entered");
	snprintf(p, sizeof(p), "%s/a/mnt", top);
	if (stat(p, &st) == -1)
		st.st_mode = 0;
	is_int(st.st_mode & 07777, 0751, "nor made 0700");
	snprintf(p, sizeof(p), "%s/marker", src);
	ok(holds(p, "marker\n"), "the bind-mounted directory's file is "
	    "intact (same file system: found in the mount table)");
	if (stat(src, &st) == -1)
		st.st_mode = 0;
	is_int(st.st_mode & 07777, 0751, "and its mode too");
	snprintf(p, sizeof(p), "%s/x", top);
	ok(!exists(p), "what is not below a mount is removed");
	is_int(mounts_below(top), 2, "nothing was unmounted");

	is_int(rmtree_unmount(top, why, sizeof(why)), 0,
	    "rmtree_unmount removes it all");
	is_str(why, "", "and has nothing to say");
	ok(!exists(top), "nothing is left of the tree");
	is_int(mounts_below(tap_tmpdir()), 0, "nothing stays mounted");
	snprintf(p, sizeof(p), "%s/marker", src);
	ok(holds(p, "marker\n"), "the bind-mounted directory's file is "
	    "still intact");
	unmount_all(tap_tmpdir());
}

/* A mount on the top directory itself. */
static void
test_mount_on_top(void)
{
	char top[PATH_MAX], p[PATH_MAX + 64], why[256];

	if (geteuid() != 0) {
		ok(1, "# SKIP mount on top: not root");
		return;
	}
	snprintf(top, sizeof(top), "%s/ontop", tap_tmpdir());
	mkdir(top, 0755);
	if (sh("mount -t tmpfs tmpfs '%s'%s", top, "") != 0) {
		ok(1, "# SKIP mount on top: mount -t tmpfs not permitted");
		return;
	}
	snprintf(p, sizeof(p), "%s/keep", top);
	put(p, "kept\n");
	errno = 0;
	ok(rmtree(top) == -1 && errno == EBUSY && holds(p, "kept\n"),
	    "rmtree leaves a tree that is itself a mount point alone");
	is_int(rmtree_unmount(top, why, sizeof(why)), 0,
	    "rmtree_unmount unmounts it and removes the directory");
	ok(!exists(top), "gone");
	unmount_all(tap_tmpdir());
}

int
main(void)
{
	test_links_and_modes();
	test_mounts();
	test_mount_on_top();
	return tap_done();
}
