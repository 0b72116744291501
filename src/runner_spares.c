/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a test is given to write in, and handed on to the next: its pty
 * and its TMPDIR, made fresh or taken from the caller's spares, and
 * given back when the test ends clean.  Below the runner's process
 * handling (runner_reap.c) and its end (runner_end.c), which both
 * return outputs and directories here; it calls nothing of the runner.
 */
#include <sys/ioctl.h>		/* struct winsize */
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/rmtree.h"
#include "ltpscope/xmalloc.h"
#include "runner_impl.h"

int
runner_set_cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	return fl == -1 ? -1 : fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

int
runner_set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl == -1 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/*
 * A fresh directory tmpbase/ltpscope.XXXXXX, mode 1777 like /tmp: LTP
 * tests that switch to "nobody" make their own directories in TMPDIR
 * (nftw01, symlink03).  The mode is set by chmod(2), since mkdir's is
 * cut by the umask and what it does with the sticky bit is the
 * system's choice; mkdir never follows a link planted under the name.
 * NULL with errno set on failure.
 */
static char *
make_tmpdir(const char *tmpbase)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	static unsigned long long seq;
	unsigned long long x;
	char *dir, *p;
	int tries, e, i;

	xasprintf(&dir, "%s/ltpscope.XXXXXX", tmpbase);
	p = dir + strlen(dir) - 6;
	for (tries = 0; tries < 100; tries++) {
		/* Unguessable enough: mkdir() fails on a planted name. */
		x = (unsigned long long)runner_now_ns() ^
		    ((unsigned long long)getpid() << 32) ^
		    (++seq * 0x9e3779b97f4a7c15ULL);
		for (i = 0; i < 6; i++) {
			p[i] = chars[x % (sizeof(chars) - 1)];
			x /= sizeof(chars) - 1;
		}
		if (mkdir(dir, 0700) == 0) {
			if (chmod(dir, RUNNER_TMPDIR_MODE) == 0)
				return dir;
			e = errno;
			(void)rmdir(dir);
			errno = e;
			break;
		}
		if (errno != EEXIST)
			break;
	}
	e = errno;
	free(dir);
	errno = e;
	return NULL;
}

/*
 * What the next test will need.  A pty that a test ended clean with
 * serves the next one (compat_pty_reopen): making one costs the kernel
 * a line discipline's buffers, some tens of microseconds, more than
 * the rest of the runner's work for a tiny test, and tearing it down
 * as much again.  It is made ready for the next test while this one
 * runs, so two ptys take turns (runner_prepare_spares()); where no pty
 * can serve again, a new one is made then, and goes to one test only.
 * A TMPDIR is handed on: a test that ended clean and left its TMPDIR
 * as it got it -- empty, the same directory (no mount on it), ours,
 * mode 1777, no extended attribute (a default ACL would reach the next
 * test's files) -- gives it to the next test, so that a queue of such
 * tests pays no mkdir and rmdir, which cost tens to hundreds of
 * microseconds each on a journalling file system (ext4 mounted with
 * discard: ~300 us an rmdir).  Anything else is removed at the test's
 * end, as without spares.  All of them live below the caller's base
 * (the engine's run directory, which --resume cleans after a kill -9).
 * The caller owns the spares (the engine keeps one set per run), so the
 * runner itself keeps no state between tests.
 */
#define RUNNER_SPARE_DIRS	8	/* kept for -j: one a worker */
#define RUNNER_SPARE_FDS	8

struct spare_dir {
	char		*path;
	char		*base;		/* the tmpbase it was made in */
	struct stat	 st;		/* as the test got it */
	struct stat	 seen;		/* when it was found so, empty */
};

struct runner_spares {
	struct spare_dir dirs[RUNNER_SPARE_DIRS];
	size_t		 ndirs;
	int		 ptym;		/* a pty pair never used, or -1 */
	int		 ptys;
	int		 used[RUNNER_SPARE_FDS]; /* masters of ptys that
					   tests ended clean with */
	size_t		 nused;
	int		 noreuse;	/* no pty can serve again here */
	struct termios	 tio;		/* the modes a test's pty has */
	int		 have_tio;
	int		 devnull;	/* tests' stdin, or -1 */
	int		 done[RUNNER_SPARE_FDS]; /* outputs read to their end,
					   closed after the next start */
	size_t		 ndone;
};

static void
pty_size(struct winsize *ws)
{
	memset(ws, 0, sizeof(*ws));
	ws->ws_row = 24;
	ws->ws_col = 80;
}

/*
 * Master and slave of a pty that passes output bytes through as is.
 * Where sp is not NULL, the modes its slave was given are kept there
 * for the ptys that serve again.
 */
static int
open_pty(struct runner_spares *sp, int *master, int *slave)
{
	struct winsize ws;
	struct termios t;

	pty_size(&ws);
	if (openpty(master, slave, NULL, NULL, &ws) == -1)
		return -1;
	/* No "\n" -> "\r\n": the parser sees what the test wrote. */
	if (tcgetattr(*slave, &t) == 0) {
		t.c_oflag &= ~(tcflag_t)OPOST;
		t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		if (tcsetattr(*slave, TCSANOW, &t) == 0 && sp != NULL) {
			sp->tio = t;
			sp->have_tio = 1;
		}
	}
	if (runner_set_cloexec(*master) == -1 || runner_set_cloexec(*slave) == -1 ||
	    runner_set_nonblock(*master) == -1) {
		close(*master);
		close(*slave);
		return -1;
	}
	return 0;
}

/*
 * Whether a and b are the same modes: then setting them again (three
 * ioctls with glibc) is saved, as for most tests, which change none.
 */
static int
same_modes(const struct termios *a, const struct termios *b)
{
	return a->c_iflag == b->c_iflag && a->c_oflag == b->c_oflag &&
	    a->c_cflag == b->c_cflag && a->c_lflag == b->c_lflag &&
	    memcmp(a->c_cc, b->c_cc, sizeof(a->c_cc)) == 0 &&
	    cfgetispeed(a) == cfgetispeed(b) &&
	    cfgetospeed(a) == cfgetospeed(b);
}

/*
 * A pty a test ended clean with (its output read to EIO: no descriptor
 * of the slave left anywhere), made as good as new for the next test:
 * what may still be on its way to the master dropped, as closing the
 * master would drop it, the slave opened again, nothing left in its
 * input, its line discipline the terminal's own, its modes and size
 * set back.  Not the controlling terminal of anything (spawn.c), it
 * has no session or process group to carry over.  0; 1 if this pty
 * cannot serve again; -1 if the system cannot open a slave again.
 */
static int
pty_renew(const struct termios *tio, int master, int *slave)
{
	struct termios cur;
	struct winsize ws;
	int s, disc = -1;

	(void)tcflush(master, TCIFLUSH);
	if ((s = compat_pty_reopen(master)) == -1)
		return errno == ENOTSUP || errno == ENOTTY ||
		    errno == EINVAL ? -1 : 1;
	pty_size(&ws);
	if (tcflush(s, TCIFLUSH) == -1 || ioctl(s, TIOCGETD, &disc) == -1 ||
	    disc != 0 || tcgetattr(s, &cur) == -1 ||
	    (!same_modes(&cur, tio) && tcsetattr(s, TCSANOW, tio) == -1) ||
	    ioctl(s, TIOCSWINSZ, &ws) == -1) {
		close(s);
		return 1;
	}
	*slave = s;
	return 0;
}

struct runner_spares *
runner_spares_new(void)
{
	struct runner_spares *sp = xcalloc(1, sizeof(*sp));

	sp->ptym = sp->ptys = sp->devnull = -1;
	return sp;
}

static void
spare_dir_drop(struct spare_dir *d)
{
	(void)rmtree(d->path);		/* 1777: others may write in it */
	free(d->path);
	free(d->base);
	d->path = d->base = NULL;
}

void
runner_spares_free(struct runner_spares *sp)
{
	size_t i;

	if (sp == NULL)
		return;
	if (sp->ptym >= 0) {
		close(sp->ptym);
		close(sp->ptys);
	}
	for (i = 0; i < sp->nused; i++)
		close(sp->used[i]);
	if (sp->devnull >= 0)
		close(sp->devnull);
	for (i = 0; i < sp->ndone; i++)
		close(sp->done[i]);
	for (i = 0; i < sp->ndirs; i++)
		spare_dir_drop(&sp->dirs[i]);
	free(sp);
}

/*
 * 1 if dir is still the directory was describes (not a link, not
 * something mounted on it), owned as it was and by us, of mode 1777,
 * and has nothing in it: a TMPDIR as a test got it.  seen gets what
 * it is now.
 */
static int
dir_as_made(const char *dir, const struct stat *was, struct stat *seen)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int n = 0;

	/*
	 * A link put in its place leads to another st_dev and st_ino, and
	 * was is what we made, so its owner is us: one opendir(3), no
	 * open(2) with O_NOFOLLOW and fdopendir(3) (two system calls
	 * more), and no geteuid(2), twice a test.
	 */
	if ((d = opendir(dir)) == NULL)
		return 0;
	if (fstat(dirfd(d), seen) == -1)
		memset(seen, 0, sizeof(*seen));
	st = *seen;
	if (st.st_ino == 0 || st.st_dev != was->st_dev ||
	    st.st_ino != was->st_ino || st.st_uid != was->st_uid ||
	    st.st_gid != was->st_gid ||
	    (st.st_mode & 07777) != RUNNER_TMPDIR_MODE ||
	    compat_dir_extra_attrs(dirfd(d)) != 0) {
		closedir(d);
		return 0;
	}
	while (n == 0 && (de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n == 0;
}

/*
 * 1 if dir, found empty and as made when it was seen, has not changed
 * since: the same inode at the path (no link, nothing mounted on it),
 * its owner, mode, links and size, and the times that any entry made
 * or removed in it, or any change of its owner, mode or attributes,
 * would have moved.  One lstat(2) instead of the whole look (open,
 * two fstat, the attributes, readdir), between two tests that follow
 * each other: the test before it ended clean (nothing of it was left
 * running), so nothing of its should touch the directory since.
 */
static int
dir_unchanged(const char *dir, const struct stat *seen)
{
	struct stat st;

	return lstat(dir, &st) == 0 && st.st_dev == seen->st_dev &&
	    st.st_ino == seen->st_ino && st.st_mode == seen->st_mode &&
	    st.st_uid == seen->st_uid && st.st_gid == seen->st_gid &&
	    st.st_nlink == seen->st_nlink && st.st_size == seen->st_size &&
	    st.st_mtim.tv_sec == seen->st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == seen->st_mtim.tv_nsec &&
	    st.st_ctim.tv_sec == seen->st_ctim.tv_sec &&
	    st.st_ctim.tv_nsec == seen->st_ctim.tv_nsec;
}

/*
 * Whether a directory last changed as seen says has been left alone
 * long enough that any change now moves its ctime, which no system
 * call sets back: file systems stamp times from a clock that runs up
 * to a tick behind (10 ms at HZ=100, 16 at 64) and keep them to their
 * own grain (10 ms for some; whole seconds where no nanoseconds are
 * seen: up to 2 s, FAT's), so the ctime of a change now is after one
 * older than the two together.  Then, at the test's end, one lstat(2)
 * that finds it unchanged (dir_unchanged()) says it is still empty and
 * as made, where the whole look (dir_as_made(): open, two fstat, the
 * attributes, readdir) is seven system calls on the way from one test
 * to the next.
 */
static int
dir_settled(const struct stat *seen)
{
	struct timespec now;
	long long age_ms, need_ms;

	if (clock_gettime(CLOCK_REALTIME, &now) == -1)
		return 0;
	age_ms = ((long long)now.tv_sec - (long long)seen->st_ctim.tv_sec) *
	    1000 + ((long long)now.tv_nsec -
	    (long long)seen->st_ctim.tv_nsec) / 1000000;
	need_ms = seen->st_ctim.tv_nsec == 0 ? 3000 : 30;
	return age_ms > need_ms;
}

/*
 * A TMPDIR below tmpbase: one handed on by an earlier test if it is
 * still as that test left it, else a fresh one.  st is what it is as
 * made, seen what it is now (empty), settled whether dir_settled().
 */
char *
runner_take_tmpdir(struct runner_spares *sp, const char *tmpbase,
    struct stat *st, struct stat *seen, int *settled)
{
	struct spare_dir d;
	char *dir;

	*settled = 0;
	while (sp != NULL && sp->ndirs > 0) {
		d = sp->dirs[--sp->ndirs];
		if (strcmp(d.base, tmpbase) == 0 &&
		    (dir_unchanged(d.path, &d.seen) ||
		    dir_as_made(d.path, &d.st, &d.seen))) {
			free(d.base);
			*st = d.st;
			*seen = d.seen;
			*settled = dir_settled(seen);
			return d.path;
		}
		spare_dir_drop(&d);
	}
	if ((dir = make_tmpdir(tmpbase)) != NULL && lstat(dir, st) == -1)
		st->st_ino = 0;		/* then it is never handed on */
	*seen = *st;
	return dir;
}

/* An output that has ended, closed after the next start. */
static void
spare_done(struct runner_spares *sp, int fd)
{
	if (sp->ndone < RUNNER_SPARE_FDS)
		sp->done[sp->ndone++] = fd;
	else
		close(fd);
}

/*
 * A pty a test ended clean with, made as good as new in *master and
 * *slave: 0, or -1 if there is none that can serve.
 */
static int
renew_used(struct runner_spares *sp, int *master, int *slave)
{
	int m, rc;

	while (sp->nused > 0) {
		m = sp->used[--sp->nused];
		if (!sp->have_tio || (rc = pty_renew(&sp->tio, m, slave)) < 0)
			sp->noreuse = 1;
		else if (rc == 0) {
			*master = m;
			return 0;
		}
		spare_done(sp, m);
	}
	return -1;
}

/*
 * A pty for a test: the spare made ready while the last test ran, or
 * one a test ended clean with, or new.
 */
int
runner_take_pty(struct runner_spares *sp, int *master, int *slave)
{
	if (sp == NULL)
		return open_pty(NULL, master, slave);
	if (sp->ptym >= 0) {
		*master = sp->ptym;
		*slave = sp->ptys;
		sp->ptym = sp->ptys = -1;
		return 0;
	}
	if (renew_used(sp, master, slave) == 0)
		return 0;
	return open_pty(sp, master, slave);
}

/*
 * /dev/null, opened for the tests' stdin, is kept from one test to the
 * next: take returns it (-1: none yet), keep takes it back, or closes
 * it where there are no spares.
 */
int
runner_take_devnull(struct runner_spares *sp)
{
	int fd;

	if (sp == NULL)
		return -1;
	fd = sp->devnull;
	sp->devnull = -1;
	return fd;
}

void
runner_keep_devnull(struct runner_spares *sp, int fd)
{
	if (sp != NULL && sp->devnull < 0)
		sp->devnull = fd;
	else
		close(fd);
}

/*
 * After a start, while the test gets going on another CPU: the last
 * tests' outputs are closed (tearing a pty down costs some tens of
 * microseconds) and the next test's pty is made ready, so that none
 * of that stands between one test's end and the next one's start.
 * That is a pty an earlier test ended clean with, made as good as new
 * (six ioctls, ~20 us), or where there is none, a new one: so two
 * ptys take turns, one serving the test that runs while the other is
 * renewed for the next.  Not where the tests have no pty (pty 0).  A
 * pty whose slave was not held (no exit watch: the EIO that says
 * nothing holds it is not trusted at once) serves no one again
 * (runner_close_output()).
 */
void
runner_prepare_spares(struct runner_spares *sp, int pty)
{
	if (sp == NULL)
		return;
	while (sp->ndone > 0)
		close(sp->done[--sp->ndone]);
	if (!pty || sp->ptym >= 0)
		return;
	if ((sp->noreuse || renew_used(sp, &sp->ptym, &sp->ptys) == -1) &&
	    open_pty(sp, &sp->ptym, &sp->ptys) == -1)
		sp->ptym = sp->ptys = -1;
}

/*
 * The output has ended: closed now, or by the next start; a pty's, once
 * nothing held its slave (EIO after the runner let go of it), is kept
 * for runner_finish() to hand on.
 */
void
runner_close_output(struct runner *r)
{
	struct runner_spares *sp = r->spares;

	if (sp == NULL)
		close(r->fd);
	else if (r->held && !r->pty_ended && !sp->noreuse) {
		r->pty_ended = 1;
		r->pty_fd = r->fd;
	} else
		spare_done(sp, r->fd);
	r->fd = -1;
}

/*
 * Whether the test ended on its own, nothing of it left running or
 * holding the output: then what it had may serve the next test.
 */
static int
ended_clean(const struct runner *r)
{
	const struct runner_result *res = &r->res;

	return !res->timed_out && !res->killed && !res->stopped &&
	    res->stragglers == 0 && !res->output_cut && !res->lost;
}

/* Gives r's pty to the next test if the test ended clean. */
void
runner_hand_on_pty(struct runner *r)
{
	struct runner_spares *sp = r->spares;

	if (!r->pty_ended)
		return;
	r->pty_ended = 0;
	if (ended_clean(r) && sp->nused < RUNNER_SPARE_FDS)
		sp->used[sp->nused++] = r->pty_fd;
	else
		spare_done(sp, r->pty_fd);
}

/*
 * Gives r's TMPDIR to the next test (runner_spares) if the test ended
 * clean -- on its own, nothing of it left running or holding the
 * output -- and left the directory as it got it; 1 if it did.
 */
int
runner_hand_on(struct runner *r)
{
	struct runner_spares *sp = r->spares;
	struct spare_dir *d;
	struct stat seen;

	if (sp == NULL || sp->ndirs >= RUNNER_SPARE_DIRS ||
	    r->tmpdir_st.st_ino == 0 || !ended_clean(r))
		return 0;
	if (r->tmpdir_settled && dir_unchanged(r->tmpdir, &r->tmpdir_seen))
		seen = r->tmpdir_seen;
	else if (!dir_as_made(r->tmpdir, &r->tmpdir_st, &seen))
		return 0;
	d = &sp->dirs[sp->ndirs++];
	d->path = xstrdup(r->tmpdir);
	d->base = xstrdup(r->tmpbase);
	d->st = r->tmpdir_st;
	d->seen = seen;
	return 1;
}
