/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Telling a live run from a dead one.  A process running a run holds a
 * POSIX write lock on byte <run id> of "<db>-lock".  The kernel drops
 * the lock when the process dies, however it dies, and a reboot after a
 * panic starts with no locks at all, so "state is running but nobody
 * holds its byte" means the run was interrupted.
 *
 * POSIX locks belong to the process and vanish when it closes ANY
 * descriptor of the file, so the process keeps one descriptor per lock
 * file, shared by all its stores, and remembers which runs it holds
 * itself (F_GETLK does not report a process's own locks).
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/xmalloc.h"
#include "store_impl.h"

struct held_run {
	dev_t		 dev;
	ino_t		 ino;
	int64_t		 run_id;
	const struct store *owner;
};

static int		 lock_fd = -1;	/* the one lock file in use */
static dev_t		 lock_dev;
static ino_t		 lock_ino;
static struct held_run	*held;
static size_t		 nheld;

static int
lock_byte(int fd, int cmd, short type, int64_t run_id, struct flock *fl)
{
	memset(fl, 0, sizeof(*fl));
	fl->l_type = type;
	fl->l_whence = SEEK_SET;
	fl->l_start = (off_t)run_id;
	fl->l_len = 1;
	return fcntl(fd, cmd, fl);
}

int
store_lock_run(struct store *st, int64_t run_id, struct diaglist *dl)
{
	struct flock fl;
	struct stat sb;
	int fd;

	if ((fd = open(st->lockpath, O_RDWR | O_CREAT, 0600)) == -1) {
		diag_error(dl, st->path, 0, "cannot create the lock file %s: "
		    "%s", st->lockpath, strerror(errno));
		return errno == EROFS || errno == EACCES ? STORE_EREADONLY :
		    STORE_ECANTOPEN;
	}
	if (fstat(fd, &sb) != 0) {
		(void)close(fd);
		return STORE_EIO;
	}
	if (lock_fd != -1 && lock_dev == sb.st_dev && lock_ino == sb.st_ino) {
		(void)close(fd);	/* we hold nothing through fd */
		fd = lock_fd;
	} else if (lock_fd != -1 && nheld > 0) {
		/* One lock file per process: runs go to one database. */
		(void)close(fd);
		diag_error(dl, st->path, 0, "this process already runs tests "
		    "into another database");
		return STORE_EINVAL;
	} else {
		if (lock_fd != -1)
			(void)close(lock_fd);
		(void)fcntl(fd, F_SETFD, FD_CLOEXEC);
		lock_fd = fd;
		lock_dev = sb.st_dev;
		lock_ino = sb.st_ino;
	}
	if (lock_byte(fd, F_SETLK, F_WRLCK, run_id, &fl) == -1) {
		diag_error(dl, st->path, 0, "run %lld is in use by another "
		    "process", (long long)run_id);
		return STORE_ELOCKED;
	}
	held = xreallocarray(held, nheld + 1, sizeof(*held));
	held[nheld].dev = sb.st_dev;
	held[nheld].ino = sb.st_ino;
	held[nheld].run_id = run_id;
	held[nheld].owner = st;
	nheld++;
	return STORE_OK;
}

static void
store_unlock_at(size_t i)
{
	struct flock fl;

	(void)lock_byte(lock_fd, F_SETLK, F_UNLCK, held[i].run_id, &fl);
	held[i] = held[--nheld];
	if (nheld == 0) {
		(void)close(lock_fd);
		lock_fd = -1;
		free(held);
		held = NULL;
	}
}

void
store_unlock_run(struct store *st, int64_t run_id)
{
	size_t i;

	for (i = 0; i < nheld; i++)
		if (held[i].owner == st && held[i].run_id == run_id) {
			store_unlock_at(i);
			return;
		}
}

void
store_unlock_all(struct store *st)
{
	size_t i = 0;

	while (i < nheld)
		if (held[i].owner == st)
			store_unlock_at(i);
		else
			i++;
}

int
store_run_is_live(struct store *st, int64_t run_id)
{
	struct flock fl;
	struct stat sb;
	size_t i;
	int fd, live;

	if (stat(st->lockpath, &sb) != 0)
		return 0;	/* no run ever locked: none is live */
	for (i = 0; i < nheld; i++)
		if (held[i].dev == sb.st_dev && held[i].ino == sb.st_ino &&
		    held[i].run_id == run_id)
			return 1;
	if (lock_fd != -1 && lock_dev == sb.st_dev && lock_ino == sb.st_ino)
		return lock_byte(lock_fd, F_GETLK, F_WRLCK, run_id, &fl) == 0 &&
		    fl.l_type != F_UNLCK;
	/* We hold no lock on this file, so closing fd drops nothing. */
	if ((fd = open(st->lockpath, O_RDONLY)) == -1)
		return 0;
	live = lock_byte(fd, F_GETLK, F_WRLCK, run_id, &fl) == 0 &&
	    fl.l_type != F_UNLCK;
	(void)close(fd);
	return live;
}
