/*
 * Recursive removal of a test's TMPDIR (see rmtree.h).  Tests leave
 * directories without write or search permission behind, so each
 * directory is made 0700 before it is opened; links are never followed,
 * since a test may leave a symlink to / in its TMPDIR.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/rmtree.h"

#define RMTREE_MAXDEPTH	128	/* one fd per level */

static int
rmtree_note(int *err, int e)
{
	if (*err == 0)
		*err = e;
	return -1;
}

/* Empties the directory name (relative to dirfd) and removes it. */
static int
rmtree_dir(int dirfd, const char *name, int depth, int *err)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd;

	if (depth > RMTREE_MAXDEPTH)
		return rmtree_note(err, ELOOP);
	(void)fchmodat(dirfd, name, S_IRWXU, 0);
	fd = openat(dirfd, name,
	    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		return rmtree_note(err, errno);
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return rmtree_note(err, errno);
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		if (fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1) {
			if (errno != ENOENT)
				rmtree_note(err, errno);
			continue;
		}
		if (S_ISDIR(st.st_mode))
			(void)rmtree_dir(fd, de->d_name, depth + 1, err);
		else if (unlinkat(fd, de->d_name, 0) == -1 && errno != ENOENT)
			rmtree_note(err, errno);
	}
	closedir(d);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) == -1 && errno != ENOENT)
		return rmtree_note(err, errno);
	return 0;
}

int
rmtree(const char *path)
{
	struct stat st;
	int err = 0;

	/* Most tests leave their TMPDIR empty: one call then. */
	if (rmdir(path) == 0)
		return 0;
	if (lstat(path, &st) == -1)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode)) {
		if (unlink(path) == -1)
			return -1;
		return 0;
	}
	(void)rmtree_dir(AT_FDCWD, path, 0, &err);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}
