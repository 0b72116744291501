/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The safe test runner (see runner.h): one LTP test in its own session
 * and pty, with LTP's environment and a private TMPDIR, driven by
 * non-blocking calls so that a poll(2) loop elsewhere stays in charge.
 *
 * The life of a run: started -> leader reaped (stragglers of the
 * session killed at once) -> output drained to EOF, or abandoned after
 * a short drain period when something outside the session still holds
 * the pty -> TMPDIR removed, or handed on to the next test -> done.
 *
 * The end of a test's output on a pty: the runner keeps the slave open
 * itself while the test runs, so the master never answers EIO early,
 * watches for the leader's end on the exit watch (exitwatch.h), reads
 * the master dry once it is reaped, and only then lets the slave go.
 * A master that answers EIO the moment the test's last descriptor
 * closes cannot be trusted on Linux: the tail of the output was lost
 * that way about once in ten thousand tests (make stress).  Where
 * there is no exit watch, EIO is the end, but only once it has lasted
 * RUNNER_EIO_GRACE_MS.
 */
#include <sys/ioctl.h>		/* struct winsize */
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/exitwatch.h"
#include "ltpscope/ltpindex.h"
#include "ltpscope/paths.h"
#include "ltpscope/procs.h"
#include "ltpscope/remote.h"
#include "ltpscope/rmtree.h"
#include "ltpscope/runner.h"
#include "ltpscope/spawn.h"
#include "ltpscope/xmalloc.h"

#define RUNNER_BUFSZ		(128 * 1024)
/* Per runner_service() call, so that a flood cannot starve the UI. */
#define RUNNER_READ_CAP		(4 * 1024 * 1024)
/* Without SIGCHLD we look for the leader's end this often at most. */
#define RUNNER_REAP_POLL_MS	100
/*
 * Without an exit watch the slave is not held (the master's EIO is then
 * how the end is noticed), and a pty master can answer EIO while output
 * the test wrote just before it exited is still on its way through the
 * kernel.  EIO is taken for the end only when it lasts this long.
 */
#define RUNNER_EIO_GRACE_MS	3
#define RUNNER_EIO_POLL_MS	1
/*
 * A remote test's last resort: when the box has not reported this long
 * after the last thing it was told (SIGKILL, let go of the output), the
 * test is taken for lost, its agent for gone.
 */
#define RUNNER_REMOTE_SLACK_MS	30000

extern char **environ;

struct runner {
	pid_t		 pid;
	int		 fd;		/* pty master or pipe; -1 after EOF */
	int		 slave;		/* the pty slave, held until the
					   leader is reaped; else -1 */
	int		 held;		/* the slave was held: EIO is final */
	int		 xfd;		/* readable once the leader ended
					   (exitwatch.h); -1: none, or reaped */
	int		 reaped;
	int		 done;
	int		 term_sent;
	int		 kill_sent;
	unsigned int	 eof_polls;	/* reap attempts since EOF */
	long long	 t_start_ns;
	long long	 deadline;	/* ms, monotonic; -1: none */
	long long	 kill_at;	/* ms; SIGKILL after the grace */
	long long	 drain_at;	/* ms; give up on output */
	long long	 eio_until;	/* ms; 0: no EIO seen on the pty */
	int		 grace_ms;
	int		 drain_ms;
	char		*tmpdir;
	char		*tmpbase;	/* where it was made */
	struct stat	 tmpdir_st;	/* as made: a mount on it differs;
					   st_ino 0: unknown */
	struct runner_spares *spares;	/* the caller's, or NULL */
	runner_output_fn *output;
	void		*output_arg;
	char		*buf;
	struct remote_exec *rx;		/* remote: the test, or NULL */
	int		 hunt_sent;	/* remote: 'H' told */
	int		 cut_sent;	/* remote: 'C' told */
	long long	 cut_at;	/* ms; 'C' then; -1: not yet due */
	long long	 giveup_at;	/* ms; lost then; -1: not yet due */
	struct runner_result res;
};

static long long
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long
now_ms(void)
{
	return now_ns() / 1000000;
}

int
runner_needs_shell(const char *cmdline)
{
	return strpbrk(cmdline, "|&;<>()$`\\\"'*?[]#~={}\n") != NULL;
}

/* Environment: the caller's, minus what we set, plus what we set. */
struct envbuild {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

static void
env_push(struct envbuild *e, char *s)
{
	if (e->n + 2 > e->cap) {
		e->cap = e->cap ? e->cap * 2 : 64;
		e->v = xreallocarray(e->v, e->cap, sizeof(*e->v));
	}
	e->v[e->n++] = s;
	e->v[e->n] = NULL;
}

static int
env_is_set_by(char *const *ours, size_t nours, const char *entry)
{
	size_t i, len;

	for (i = 0; i < nours; i++) {
		len = strcspn(ours[i], "=");
		if (strncmp(ours[i], entry, len) == 0 && entry[len] == '=')
			return 1;
	}
	return 0;
}

/* An absolute path for p, relative to the current directory. */
static char *
absolute_path(const char *p)
{
	char cwd[PATH_MAX], *s;

	if (p[0] == '/' || getcwd(cwd, sizeof(cwd)) == NULL)
		return xstrdup(p);
	xasprintf(&s, "%s/%s", cwd, p);
	return s;
}

/*
 * KCONFIG_PATH: the test runs in its TMPDIR, so it must be absolute.
 * The default is the data directory's, never one in the user's cwd.
 */
static char *
kconfig_path(const struct runner_opts *o)
{
	char buf[PATH_MAX];

	if (o->kconfig != NULL)
		return o->kconfig[0] == '\0' ? NULL : absolute_path(o->kconfig);
	if (paths_kconfig(buf, sizeof(buf)) != NULL)
		return absolute_path(buf);
	return NULL;
}

/*
 * The test's environment: the caller's entries are shared with environ
 * (the first *nshared, not to be freed: env_free), ours follow.
 */
static char **
build_env(const struct runner_opts *o, const char *ltproot,
    const char *tmpdir, const char *path, size_t *nshared)
{
	struct envbuild ours = { NULL, 0, 0 }, all = { NULL, 0, 0 };
	char *s, *kconfig, **ep;
	size_t i;

	xasprintf(&s, "LTPROOT=%s", ltproot);
	env_push(&ours, s);
	xasprintf(&s, "PATH=%s", path);
	env_push(&ours, s);
	xasprintf(&s, "TMPDIR=%s", tmpdir);
	env_push(&ours, s);
	env_push(&ours, xstrdup("LTP_COLORIZE_OUTPUT=0"));
	if ((kconfig = kconfig_path(o)) != NULL) {
		xasprintf(&s, "KCONFIG_PATH=%s", kconfig);
		env_push(&ours, s);
		free(kconfig);
	}
	if (o->timeout_mul != NULL) {
		xasprintf(&s, "LTP_TIMEOUT_MUL=%s", o->timeout_mul);
		env_push(&ours, s);
	}
	if (o->ltp_dev != NULL) {
		xasprintf(&s, "LTP_DEV=%s", o->ltp_dev);
		env_push(&ours, s);
	}
	if (o->reproducible)
		env_push(&ours, xstrdup("LTP_REPRODUCIBLE_OUTPUT=1"));
	for (i = 0; o->env_extra != NULL && o->env_extra[i] != NULL; i++)
		if (strchr(o->env_extra[i], '=') != NULL)
			env_push(&ours, xstrdup(o->env_extra[i]));

	for (ep = environ; ep != NULL && *ep != NULL; ep++)
		if (!env_is_set_by(ours.v, ours.n, *ep))
			env_push(&all, *ep);
	*nshared = all.n;
	for (i = 0; i < ours.n; i++)
		env_push(&all, ours.v[i]);
	free(ours.v);
	return all.v;
}

static void
env_free(char **envp, size_t nshared)
{
	size_t i;

	if (envp == NULL)
		return;
	for (i = nshared; envp[i] != NULL; i++)
		free(envp[i]);
	free(envp);
}

/* Where execve() will find argv0 in the test's PATH; NULL: nowhere. */
static char *
resolve_command(const char *argv0, const char *path)
{
	const char *p, *end;
	struct stat st;
	char *cand;
	size_t len;

	if (strchr(argv0, '/') != NULL)
		return absolute_path(argv0);
	for (p = path; *p != '\0'; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ":");
		len = (size_t)(end - p);
		if (len == 0)
			continue;
		xasprintf(&cand, "%.*s/%s", (int)len, p, argv0);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0) {
			if (cand[0] != '/') {
				char *abs = absolute_path(cand);

				free(cand);
				cand = abs;
			}
			return cand;
		}
		free(cand);
	}
	return NULL;
}

/*
 * Why argv0 was not found, when a file by that name is in path but is
 * not an executable regular file (a test binary left mode 0644 by a
 * half-done install); NULL otherwise, else malloc'd.
 */
static char *
why_not_runnable(const char *argv0, const char *path)
{
	const char *p, *end;
	struct stat st;
	char *cand, *why = NULL;
	size_t len;

	for (p = path; why == NULL && *p != '\0'; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ":");
		if ((len = (size_t)(end - p)) == 0)
			continue;
		xasprintf(&cand, "%.*s/%s", (int)len, p, argv0);
		if (stat(cand, &st) == 0)
			xasprintf(&why, "%s is %s (mode %04o)", cand,
			    S_ISREG(st.st_mode) ? "not executable" :
			    "not a regular file", (unsigned)(st.st_mode & 07777));
		free(cand);
	}
	return why;
}

static int
set_cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	return fl == -1 ? -1 : fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

static int
set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl == -1 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/*
 * Moves fd above 0, 1 and 2 (keeping close-on-exec): when ltpscope runs
 * with a standard descriptor closed, a new fd may land there, and the
 * dup2() onto 0..2 in the child would then do nothing, or clobber one.
 */
static int
fd_above_stdio(int *fd)
{
	int nfd;

	if (*fd > STDERR_FILENO)
		return 0;
	if ((nfd = fcntl(*fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1)) == -1)
		return -1;
	close(*fd);
	*fd = nfd;
	return 0;
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
		x = (unsigned long long)now_ns() ^
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

/* Master and slave of a pty that passes output bytes through as is. */
static int
open_pty(int *master, int *slave)
{
	struct winsize ws;
	struct termios t;

	memset(&ws, 0, sizeof(ws));
	ws.ws_row = 24;
	ws.ws_col = 80;
	if (openpty(master, slave, NULL, NULL, &ws) == -1)
		return -1;
	/* No "\n" -> "\r\n": the parser sees what the test wrote. */
	if (tcgetattr(*slave, &t) == 0) {
		t.c_oflag &= ~(tcflag_t)OPOST;
		t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL);
		(void)tcsetattr(*slave, TCSANOW, &t);
	}
	if (set_cloexec(*master) == -1 || set_cloexec(*slave) == -1 ||
	    set_nonblock(*master) == -1) {
		close(*master);
		close(*slave);
		return -1;
	}
	return 0;
}

/*
 * What the next test will need.  A pty is made while this test runs
 * (some tens of microseconds) and goes to one test only.  A TMPDIR is
 * handed on: a test that ended clean and left its TMPDIR as it got it
 * -- empty, the same directory (no mount on it), ours, mode 1777, no
 * extended attribute (a default ACL would reach the next test's files)
 * -- gives it to the next test, so that a queue of such tests pays no
 * mkdir and rmdir, which cost tens to hundreds of microseconds each on
 * a journalling file system (ext4 mounted with discard: ~300 us an
 * rmdir).  Anything else is removed at the test's end, as without
 * spares.  All of them live below the caller's base (the engine's run
 * directory, which --resume cleans after a kill -9).  The caller owns
 * the spares (the engine keeps one set per run), so the runner itself
 * keeps no state between tests.
 */
#define RUNNER_SPARE_DIRS	8	/* kept for -j: one a worker */
#define RUNNER_SPARE_FDS	8

struct spare_dir {
	char		*path;
	char		*base;		/* the tmpbase it was made in */
	struct stat	 st;		/* as the test got it */
};

struct runner_spares {
	struct spare_dir dirs[RUNNER_SPARE_DIRS];
	size_t		 ndirs;
	int		 ptym;		/* a pty pair never used, or -1 */
	int		 ptys;
	int		 done[RUNNER_SPARE_FDS]; /* outputs read to their end,
					   closed after the next start */
	size_t		 ndone;
};

struct runner_spares *
runner_spares_new(void)
{
	struct runner_spares *sp = xcalloc(1, sizeof(*sp));

	sp->ptym = sp->ptys = -1;
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
	for (i = 0; i < sp->ndone; i++)
		close(sp->done[i]);
	for (i = 0; i < sp->ndirs; i++)
		spare_dir_drop(&sp->dirs[i]);
	free(sp);
}

/*
 * 1 if dir is still the directory was describes (not a link, not
 * something mounted on it), owned as it was and by us, of mode 1777,
 * and has nothing in it: a TMPDIR as a test got it.
 */
static int
dir_as_made(const char *dir, const struct stat *was)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int fd, n = 0;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd == -1)
		return 0;
	if (fstat(fd, &st) == -1 || st.st_dev != was->st_dev ||
	    st.st_ino != was->st_ino || st.st_uid != was->st_uid ||
	    st.st_gid != was->st_gid || st.st_uid != geteuid() ||
	    (st.st_mode & 07777) != RUNNER_TMPDIR_MODE ||
	    compat_dir_extra_attrs(fd) != 0 || (d = fdopendir(fd)) == NULL) {
		close(fd);
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
 * A TMPDIR below tmpbase: one handed on by an earlier test if it is
 * still as that test left it, else a fresh one.  st is what it is.
 */
static char *
take_tmpdir(struct runner_spares *sp, const char *tmpbase, struct stat *st)
{
	struct spare_dir d;
	char *dir;

	while (sp != NULL && sp->ndirs > 0) {
		d = sp->dirs[--sp->ndirs];
		if (strcmp(d.base, tmpbase) == 0 &&
		    dir_as_made(d.path, &d.st)) {
			free(d.base);
			*st = d.st;
			return d.path;
		}
		spare_dir_drop(&d);
	}
	if ((dir = make_tmpdir(tmpbase)) != NULL && lstat(dir, st) == -1)
		st->st_ino = 0;		/* then it is never handed on */
	return dir;
}

/* A pty for a test: the spare if there is one. */
static int
take_pty(struct runner_spares *sp, int *master, int *slave)
{
	if (sp != NULL && sp->ptym >= 0) {
		*master = sp->ptym;
		*slave = sp->ptys;
		sp->ptym = sp->ptys = -1;
		return 0;
	}
	return open_pty(master, slave);
}

/*
 * After a start, while the test gets going on another CPU: the last
 * tests' outputs are closed (tearing a pty down costs some tens of
 * microseconds), the next test's pty is made, if it can be.
 */
static void
prepare_spares(struct runner_spares *sp, int pty)
{
	if (sp == NULL)
		return;
	while (sp->ndone > 0)
		close(sp->done[--sp->ndone]);
	if (pty && sp->ptym < 0 && open_pty(&sp->ptym, &sp->ptys) == -1)
		sp->ptym = sp->ptys = -1;
}

/* What a remote test delivers, counted as a local one's is. */
static void
runner_remote_out(void *arg, const char *buf, size_t len)
{
	struct runner *r = arg;

	r->res.bytes += (unsigned long long)len;
	if (r->output != NULL)
		r->output(r->output_arg, buf, len);
}

/* The test's clock: its grace, drain and deadline from o, from now. */
static void
runner_set_times(struct runner *r, const struct runner_opts *o)
{
	r->grace_ms = o->grace_ms > 0 ? o->grace_ms : RUNNER_DEFAULT_GRACE_MS;
	r->drain_ms = o->drain_ms > 0 ? o->drain_ms : RUNNER_DEFAULT_DRAIN_MS;
	if (o->timeout_ms < 0)
		r->deadline = -1;
	else
		r->deadline = r->t_start_ns / 1000000 + (o->timeout_ms > 0 ?
		    o->timeout_ms : RUNNER_DEFAULT_TIMEOUT_MS);
	r->kill_at = r->drain_at = -1;
}

/* The output has ended: closed now, or by the next start. */
static void
runner_close_output(struct runner *r)
{
	struct runner_spares *sp = r->spares;

	if (sp != NULL && sp->ndone < RUNNER_SPARE_FDS)
		sp->done[sp->ndone++] = r->fd;
	else
		close(r->fd);
	r->fd = -1;
}

/*
 * A test on a box (runner_opts.remote): no local process, but a line
 * to one of the connection's agents (remote.h), what the box is told
 * (LTPROOT, PATH and TMPDIR are made there).  The runner keeps the
 * clock: the timeout, the grace and the drain become lines to the box
 * ('T', 'K', 'H').  NULL after an error (dl).
 */
static struct runner *
runner_remote_start(const struct runner_opts *o, char *const argv[],
    struct diaglist *dl)
{
	struct envbuild env = { NULL, 0, 0 };
	struct remote_exec *rx;
	struct runner *r;
	size_t i;
	char *s;
	int grace_ms;

	env_push(&env, xstrdup("LTP_COLORIZE_OUTPUT=0"));
	if (o->timeout_mul != NULL) {
		xasprintf(&s, "LTP_TIMEOUT_MUL=%s", o->timeout_mul);
		env_push(&env, s);
	}
	if (o->ltp_dev != NULL) {
		xasprintf(&s, "LTP_DEV=%s", o->ltp_dev);
		env_push(&env, s);
	}
	if (o->reproducible)
		env_push(&env, xstrdup("LTP_REPRODUCIBLE_OUTPUT=1"));
	for (i = 0; o->env_extra != NULL && o->env_extra[i] != NULL; i++)
		env_push(&env, xstrdup(o->env_extra[i]));
	grace_ms = o->grace_ms > 0 ? o->grace_ms : RUNNER_DEFAULT_GRACE_MS;
	rx = remote_exec_new(o->remote, argv, env.v, (grace_ms + 999) / 1000,
	    dl);
	xfreev(env.v);
	if (rx == NULL)
		return NULL;
	r = xcalloc(1, sizeof(*r));
	r->t_start_ns = now_ns();
	if (remote_exec_start(rx, dl) != 0) {
		remote_exec_free(rx);
		free(r);
		return NULL;
	}
	r->rx = rx;
	r->fd = r->slave = r->xfd = -1;
	runner_set_times(r, o);
	r->cut_at = r->giveup_at = -1;
	r->output = o->output;
	r->output_arg = o->output_arg;
	return r;
}

struct runner *
runner_startv(const struct runner_opts *o, char *const argv[],
    struct diaglist *dl)
{
	static const struct runner_opts defaults;
	const char *ltproot, *tmpbase, *syspath;
	char *path = NULL, *exe = NULL, *tmpl = NULL, **envp = NULL;
	int out = -1, in = -1, devnull = -1, pfd[2], use_pipe;
	struct spawn_req rq;
	struct stat tst;
	size_t nshared = 0;
	struct runner *r;
	pid_t pid;

	if (o == NULL)
		o = &defaults;
	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0') {
		diag_error(dl, NULL, 0, "runner: empty command");
		return NULL;
	}
	if (o->remote != NULL)
		return runner_remote_start(o, argv, dl);
	use_pipe = o->use_pipe;
	ltproot = paths_ltproot(o->ltproot);
	if ((tmpbase = o->tmpbase) == NULL &&
	    ((tmpbase = getenv("TMPDIR")) == NULL || tmpbase[0] != '/'))
		tmpbase = "/tmp";
	if ((syspath = getenv("PATH")) == NULL || syspath[0] == '\0')
		syspath = "/usr/bin:/bin";
	xasprintf(&path, "%s/testcases/bin:%s", ltproot, syspath);

	if ((exe = resolve_command(argv[0], path)) == NULL) {
		char *why = strchr(argv[0], '/') == NULL ?
		    why_not_runnable(argv[0], path) : NULL;

		if (why != NULL)
			diag_error(dl, NULL, 0, "runner: %s: %s; check the "
			    "LTP install", argv[0], why);
		else
			diag_error(dl, NULL, 0, "runner: %s: command not found "
			    "in %s", argv[0], path);
		free(why);
		goto fail;
	}
	/* Its stat before the test can mount anything on it. */
	if ((tmpl = take_tmpdir(o->spares, tmpbase, &tst)) == NULL) {
		diag_error(dl, NULL, 0, "runner: cannot create a directory "
		    "in %s: %s", tmpbase, strerror(errno));
		goto fail;
	}
	if (tmpl[0] != '/') {
		char *abs = absolute_path(tmpl);

		free(tmpl);
		tmpl = abs;
	}
	envp = build_env(o, ltproot, tmpl, path, &nshared);

	if (use_pipe) {
		if (pipe(pfd) == -1) {
			diag_error(dl, NULL, 0, "runner: pipe: %s",
			    strerror(errno));
			goto fail;
		}
		in = pfd[0];
		out = pfd[1];
		if (set_cloexec(in) == -1 || set_cloexec(out) == -1 ||
		    set_nonblock(in) == -1) {
			diag_error(dl, NULL, 0, "runner: fcntl: %s",
			    strerror(errno));
			goto fail;
		}
	} else if (take_pty(o->spares, &in, &out) == -1) {
		diag_error(dl, NULL, 0, "runner: openpty: %s",
		    strerror(errno));
		in = out = -1;
		goto fail;
	}
	if ((devnull = open("/dev/null", O_RDONLY | O_CLOEXEC)) == -1) {
		diag_error(dl, NULL, 0, "runner: /dev/null: %s",
		    strerror(errno));
		goto fail;
	}
	if (fd_above_stdio(&out) == -1 || fd_above_stdio(&devnull) == -1) {
		diag_error(dl, NULL, 0, "runner: fcntl: %s", strerror(errno));
		goto fail;
	}

	rq.path = exe;
	rq.argv = argv;
	rq.envp = envp;
	rq.out_fd = out;
	rq.in_fd = devnull;
	rq.dir = tmpl;
	r = xcalloc(1, sizeof(*r));
	r->tmpdir_st = tst;
	r->t_start_ns = now_ns();
	if ((pid = spawn_session(&rq)) == -1) {
		diag_error(dl, NULL, 0, "runner: cannot run %s: %s", exe,
		    strerror(errno));
		free(r);
		goto fail;
	}

	close(devnull);
	env_free(envp, nshared);
	free(exe);
	free(path);
	r->pid = pid;
	r->fd = in;
	if ((r->xfd = exitwatch_open(pid)) >= 0 &&
	    fd_above_stdio(&r->xfd) == -1) {
		close(r->xfd);
		r->xfd = -1;	/* then reaping is polled for */
	}
	/* The exit watch tells the leader's end: the slave can be held. */
	r->slave = -1;
	if (!use_pipe && r->xfd >= 0) {
		r->slave = out;
		r->held = 1;
	} else
		close(out);
	prepare_spares(o->spares, !use_pipe);
	r->tmpdir = tmpl;
	r->tmpbase = xstrdup(tmpbase);
	r->spares = o->spares;
	runner_set_times(r, o);
	r->output = o->output;
	r->output_arg = o->output_arg;
	r->buf = xmalloc(RUNNER_BUFSZ);
	return r;

fail:
	if (in != -1)
		close(in);
	if (out != -1)
		close(out);
	if (devnull != -1)
		close(devnull);
	if (tmpl != NULL) {
		(void)rmtree(tmpl);
		free(tmpl);
	}
	env_free(envp, nshared);
	free(exe);
	free(path);
	return NULL;
}

struct runner *
runner_start(const struct runner_opts *o, const char *cmdline,
    struct diaglist *dl)
{
	struct runner *r;
	char *copy, *p, **argv;
	size_t n = 0;

	if (cmdline == NULL || cmdline[strspn(cmdline, " \t")] == '\0') {
		diag_error(dl, NULL, 0, "runner: empty command");
		return NULL;
	}
	if (runner_needs_shell(cmdline)) {
		char *sh[] = { (char *)"/bin/sh", (char *)"-c",
		    (char *)cmdline, NULL };

		return runner_startv(o, sh, dl);
	}
	copy = xstrdup(cmdline);
	argv = xcalloc(strlen(cmdline) / 2 + 2, sizeof(*argv));
	for (p = copy; *p != '\0';) {
		p += strspn(p, " \t");
		if (*p == '\0')
			break;
		argv[n++] = p;
		p += strcspn(p, " \t");
		if (*p != '\0')
			*p++ = '\0';
	}
	argv[n] = NULL;
	r = runner_startv(o, argv, dl);
	free(argv);
	free(copy);
	return r;
}

/* Reads what is there; EOF and EIO (Linux pty, no slave left) end it. */
static void
runner_read(struct runner *r)
{
	size_t total = 0;
	ssize_t n;

	while (r->fd >= 0 && total < RUNNER_READ_CAP) {
		n = read(r->fd, r->buf, RUNNER_BUFSZ);
		if (n > 0) {
			total += (size_t)n;
			r->res.bytes += (unsigned long long)n;
			if (r->output != NULL)
				r->output(r->output_arg, r->buf, (size_t)n);
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n == -1 && errno == EIO && !r->held) {
			long long now = now_ms();

			if (r->eio_until == 0)
				r->eio_until = now + RUNNER_EIO_GRACE_MS;
			if (now < r->eio_until)
				break;
		}
		runner_close_output(r);
	}
}

/*
 * Once the leader has ended and its output has been read: the slave was
 * held, so no EIO cut that short.  Let go of it; EIO (or EOF) follows
 * at once unless something else still holds the pty.
 */
static void
runner_release_slave(struct runner *r)
{
	if (r->slave < 0)
		return;
	close(r->slave);
	r->slave = -1;
	runner_read(r);
}

static void
runner_signal(struct runner *r, int sig)
{
	(void)procs_signal_session(r->pid, PROCS_DESCENDANTS, sig);
	/* The leader, in case the listing missed it (or was impossible). */
	(void)kill(r->pid, sig);
}

/* Session members other than the leader: -1 if they cannot be listed. */
static long
runner_session_left(pid_t sid)
{
	pid_t *v;
	long n, i, left = 0;

	n = procs_session(sid, 0, &v);
	for (i = 0; i < n; i++)
		if (v[i] != sid)
			left++;
	free(v);
	return n < 0 ? -1 : left;
}

/*
 * Kills what is left of the session, and the descendants it started;
 * counts only what was left alive, not a child the test had signalled
 * and not reaped yet (procs_kill_left).
 */
static void
runner_kill_stragglers(struct runner *r)
{
	if (runner_session_left(r->pid) == 0)
		return;
	r->res.stragglers += procs_kill_left(r->pid);
}

/* Reaps the leader if it has ended; kills what is left of its session. */
static void
runner_reap(struct runner *r)
{
	siginfo_t si;
	pid_t w;
	int st;

	memset(&si, 0, sizeof(si));
	/* Look without reaping: a zombie leader keeps its pid (= sid) ours. */
	if (waitid(P_PID, (id_t)r->pid, &si, WEXITED | WNOHANG | WNOWAIT)
	    == -1) {
		if (errno == EINTR)
			return;
	} else if (si.si_pid != r->pid)
		return;
	/*
	 * Stragglers.  Listing every process costs tens of microseconds
	 * (Linux's /proc), more than the rest of a tiny test's handling,
	 * so it is done when something may be left: when the output is
	 * still held open after the leader's end (by a member, or by a
	 * process that left the session while its parent lives), or,
	 * once the leader is reaped, when its process group still has a
	 * member.  Missed: a member that moved to a process group of its
	 * own and let go of the output as well; a timeout or a stop
	 * always lists the whole session.
	 */
	runner_read(r);
	runner_release_slave(r);
	if (r->fd >= 0)
		runner_kill_stragglers(r);
	do
		w = waitpid(r->pid, &st, 0);
	while (w == -1 && errno == EINTR);
	/* The leader's pid cannot come back while its group lives on. */
	if (r->fd < 0 && kill(-r->pid, 0) == 0)
		runner_kill_stragglers(r);
	r->reaped = 1;
	if (r->xfd >= 0) {
		close(r->xfd);
		r->xfd = -1;
	}
	r->res.duration = (double)(now_ns() - r->t_start_ns) / 1e9;
	if (w == r->pid) {
		if (WIFEXITED(st)) {
			r->res.exited = 1;
			r->res.exit_code = WEXITSTATUS(st);
		} else if (WIFSIGNALED(st)) {
			r->res.signo = WTERMSIG(st);
#ifdef WCOREDUMP
			r->res.core_dumped = WCOREDUMP(st) != 0;
#endif
		}
	}
}

/*
 * A remote test's end as the box reported it, in place of the local
 * ssh's; no report means the box stopped answering.
 */
static void
runner_remote_result(struct runner *r)
{
	const struct remote_status *st;
	struct runner_result *res = &r->res;
	char line[320];
	int len;

	remote_exec_flush(r->rx, runner_remote_out, r);
	st = remote_exec_status(r->rx);
	if (st->error[0] != '\0' && r->output != NULL) {
		len = snprintf(line, sizeof(line), "ltpscope: on the box: %s\n",
		    st->error);
		if (len > 0 && (size_t)len < sizeof(line))
			r->output(r->output_arg, line, (size_t)len);
	}
	res->exited = res->exit_code = res->signo = res->core_dumped = 0;
	if (!st->have) {
		res->lost = 1;
		return;
	}
	/* sh's $? says 128 + N for a signal N. */
	if (st->status > 128 && st->status < 128 + 65)
		res->signo = st->status - 128;
	else {
		res->exited = 1;
		res->exit_code = st->status;
	}
	res->timed_out = st->timed_out;
	res->killed = st->killed;
	res->stopped |= st->stopped;
	res->stragglers = st->stragglers;
	res->tmpdir_left = st->tmpdir_left;
	res->output_cut = st->output_cut;
}

/*
 * Gives r's TMPDIR to the next test (runner_spares) if the test ended
 * clean -- on its own, nothing of it left running or holding the
 * output -- and left the directory as it got it; 1 if it did.
 */
static int
runner_hand_on(struct runner *r)
{
	struct runner_spares *sp = r->spares;
	const struct runner_result *res = &r->res;
	struct spare_dir *d;

	if (sp == NULL || sp->ndirs >= RUNNER_SPARE_DIRS ||
	    r->tmpdir_st.st_ino == 0 || res->timed_out || res->killed ||
	    res->stopped || res->stragglers > 0 || res->output_cut ||
	    res->lost || !dir_as_made(r->tmpdir, &r->tmpdir_st))
		return 0;
	d = &sp->dirs[sp->ndirs++];
	d->path = xstrdup(r->tmpdir);
	d->base = xstrdup(r->tmpbase);
	d->st = r->tmpdir_st;
	return 1;
}

static void
runner_finish(struct runner *r)
{
	if (r->rx != NULL)
		runner_remote_result(r);
	if (r->slave >= 0) {
		close(r->slave);
		r->slave = -1;
	}
	if (r->fd >= 0) {
		close(r->fd);
		r->fd = -1;
	}
	if (r->tmpdir == NULL)
		;
	else if (runner_hand_on(r))
		;
	else {
		char done[sizeof(r->res.cleaned) - 16];

		if (rmtree_unmount_said(r->tmpdir, r->res.tmpdir_why,
		    sizeof(r->res.tmpdir_why), done, sizeof(done)) == -1)
			r->res.tmpdir_left = 1;
		if (done[0] != '\0')
			snprintf(r->res.cleaned, sizeof(r->res.cleaned),
			    "unmounted %s", done);
	}
	r->done = 1;
}

/* The next thing a remote test's clock is waiting for, ms; -1: none. */
static long long
runner_remote_next(const struct runner *r)
{
	long long t = -1, c[4];
	int i, n = 0;

	if (!r->term_sent && r->deadline >= 0)
		c[n++] = r->deadline;
	if (r->term_sent && !r->kill_sent)
		c[n++] = r->kill_at;
	if (r->drain_at >= 0 && !r->hunt_sent)
		c[n++] = r->drain_at;
	if (r->cut_at >= 0 && !r->cut_sent)
		c[n++] = r->cut_at;
	if (r->giveup_at >= 0)
		c[n++] = r->giveup_at;
	for (i = 0; i < n; i++)
		if (t < 0 || c[i] < t)
			t = c[i];
	return t;
}

/*
 * A remote test: what the agent sent, and what the box is to be told
 * when.  After the leader's end the output gets drain_ms to end, then
 * what holds it is killed ('H'), then, after the grace, it is let go
 * of ('C'); a test the box does not report on after that, or after
 * its SIGKILL, is lost.
 */
static int
runner_remote_service(struct runner *r)
{
	long long now;
	int rc;

	rc = remote_exec_service(r->rx, runner_remote_out, r);
	now = now_ms();
	if (rc == 0 && r->giveup_at >= 0 && now >= r->giveup_at)
		rc = -1;
	if (rc != 0) {
		r->res.duration = (double)(now_ns() - r->t_start_ns) / 1e9;
		runner_finish(r);
		return 1;
	}
	if (remote_exec_leader_done(r->rx) && r->drain_at < 0)
		r->drain_at = now + r->drain_ms;
	if (!r->term_sent && r->deadline >= 0 && now >= r->deadline) {
		r->res.timed_out = 1;
		r->term_sent = 1;
		r->kill_at = now + r->grace_ms;
		remote_exec_tell(r->rx, 'T');
	}
	if (r->term_sent && !r->kill_sent && now >= r->kill_at &&
	    !remote_exec_leader_done(r->rx)) {
		r->kill_sent = 1;
		remote_exec_tell(r->rx, 'K');
		r->giveup_at = now + RUNNER_REMOTE_SLACK_MS;
	}
	if (r->drain_at >= 0 && !r->hunt_sent && now >= r->drain_at) {
		r->hunt_sent = 1;
		remote_exec_tell(r->rx, 'H');
		r->cut_at = now + r->grace_ms;
	}
	if (r->cut_at >= 0 && !r->cut_sent && now >= r->cut_at) {
		r->cut_sent = 1;
		remote_exec_tell(r->rx, 'C');
		r->giveup_at = now + RUNNER_REMOTE_SLACK_MS;
	}
	return 0;
}

int
runner_service(struct runner *r)
{
	long long now;

	if (r->done)
		return 1;
	if (r->rx != NULL)
		return runner_remote_service(r);
	runner_read(r);
	if (!r->reaped) {
		runner_reap(r);
		if (r->reaped) {
			runner_read(r);
			if (r->fd >= 0)
				r->drain_at = now_ms() + r->drain_ms;
		} else if (r->fd < 0)
			r->eof_polls++;
	}
	now = now_ms();
	if (!r->reaped) {
		if (!r->term_sent && r->deadline >= 0 && now >= r->deadline) {
			r->res.timed_out = 1;
			r->term_sent = 1;
			r->kill_at = now + r->grace_ms;
			runner_signal(r, SIGTERM);
		}
		if (r->term_sent && now >= r->kill_at) {
			/* Again and again: a fork may have slipped through. */
			r->res.killed = 1;
			r->kill_sent = 1;
			runner_signal(r, SIGKILL);
		}
		return 0;
	}
	if (r->fd >= 0 && now >= r->drain_at) {
		/* Held open by something that left the session: let go. */
		r->res.output_cut = 1;
	} else if (r->fd >= 0)
		return 0;
	runner_finish(r);
	return 1;
}

int
runner_poll_timeout(const struct runner *r)
{
	long long now, t = -1, d;

	if (r->done)
		return 0;
	now = now_ms();
	if (r->rx != NULL) {
		if ((t = runner_remote_next(r)) < 0)
			return -1;
		t -= now;
		return t < 0 ? 0 : (int)(t > INT_MAX ? INT_MAX : t);
	}
	if (r->fd >= 0 && r->eio_until != 0 && (r->reaped || r->xfd < 0))
		return RUNNER_EIO_POLL_MS;
	if (r->reaped) {
		d = r->drain_at - now;
		return d < 0 ? 0 : (int)d;
	}
	if (!r->term_sent && r->deadline >= 0)
		t = r->deadline - now;
	else if (r->term_sent && !r->kill_sent)
		t = r->kill_at - now;
	else if (r->kill_sent)
		t = 20;
	if (t < 0 && (r->term_sent || r->deadline >= 0))
		t = 0;			/* overdue */
	if (r->xfd >= 0)
		d = -1;			/* the exit watch wakes the caller */
	else if (r->fd < 0) {
		/*
		 * Output ended, the leader is on its way out: look again
		 * at once a few times, then back off.
		 */
		d = r->eof_polls < 8 ? 0 : 1LL << (r->eof_polls < 14 ?
		    r->eof_polls - 8 : 6);
	} else
		d = RUNNER_REAP_POLL_MS;
	if (t < 0 || (d >= 0 && d < t))
		t = d;
	return t < 0 ? -1 : (int)(t > INT_MAX ? INT_MAX : t);
}

int
runner_pollfds(const struct runner *r, struct pollfd *pfd, int max)
{
	int n = 0;

	if (r->done)
		return 0;
	if (r->rx != NULL) {
		if (remote_exec_fd(r->rx) < 0 || max < 1)
			return 0;
		pfd[0].fd = remote_exec_fd(r->rx);
		pfd[0].events = POLLIN;
		pfd[0].revents = 0;
		return 1;
	}
	/* After an EIO the fd polls readable for good: time, not poll. */
	if (r->fd >= 0 && r->eio_until == 0 && n < max) {
		pfd[n].fd = r->fd;
		pfd[n].events = POLLIN;
		pfd[n++].revents = 0;
	}
	if (!r->reaped && r->xfd >= 0 && n < max) {
		pfd[n].fd = r->xfd;
		pfd[n].events = POLLIN;
		pfd[n++].revents = 0;
	}
	return n;
}

void
runner_give_up(struct runner *r)
{
	if (r->rx != NULL && !r->done)
		r->giveup_at = now_ms();
}

int
runner_done(const struct runner *r)
{
	return r->done;
}

void
runner_stop(struct runner *r)
{
	if (r->done || r->reaped)
		return;
	if (r->rx != NULL) {
		/* The box signals; the first time, SIGKILL after the grace. */
		if (r->res.stopped) {
			r->kill_sent = 1;
			remote_exec_tell(r->rx, 'K');
			if (r->giveup_at < 0)
				r->giveup_at = now_ms() +
				    RUNNER_REMOTE_SLACK_MS;
		} else if (!r->term_sent) {
			r->term_sent = 1;
			r->kill_at = now_ms() + r->grace_ms;
			remote_exec_tell(r->rx, 'S');
		}
		r->res.stopped = 1;
		return;
	}
	if (r->res.stopped) {
		/* Asked twice: the user does not want to wait the grace. */
		r->res.killed = 1;
		r->kill_sent = 1;
		runner_signal(r, SIGKILL);
		return;
	}
	r->res.stopped = 1;
	if (!r->term_sent) {
		r->term_sent = 1;
		r->kill_at = now_ms() + r->grace_ms;
		runner_signal(r, SIGTERM);
	}
}

const struct runner_result *
runner_result(const struct runner *r)
{
	return &r->res;
}

const char *
runner_box_kmsg(const struct runner *r, size_t *lenp, int *recordsp,
    long long *beforep, long long *afterp)
{
	const struct remote_status *st;

	*lenp = 0;
	*recordsp = 0;
	*beforep = *afterp = -1;
	if (r->rx == NULL)
		return NULL;
	st = remote_exec_status(r->rx);
	*recordsp = st->kmsg_records;
	if (st->have_taint) {
		*beforep = st->taint_before;
		*afterp = st->taint_after;
	}
	return remote_exec_kmsg(r->rx, lenp);
}

pid_t
runner_pid(const struct runner *r)
{
	return r->pid;
}

const char *
runner_tmpdir(const struct runner *r)
{
	return r->tmpdir;
}

void
runner_free(struct runner *r)
{
	if (r == NULL)
		return;
	if (r->rx != NULL && !r->done) {
		/* Its agent goes; the box then kills the test (remote.h). */
		r->res.killed = 1;
		runner_finish(r);
	}
	if (!r->reaped && r->rx == NULL) {
		runner_signal(r, SIGKILL);
		r->res.killed = 1;
		runner_reap(r);
		while (!r->reaped) {
			/* SIGKILL cannot be ignored: this is short. */
			(void)poll(NULL, 0, 5);
			runner_reap(r);
		}
	}
	if (!r->done)
		runner_finish(r);
	if (r->xfd >= 0)
		close(r->xfd);
	remote_exec_free(r->rx);
	free(r->tmpdir);
	free(r->tmpbase);
	free(r->buf);
	free(r);
}

int
runner_run(const struct runner_opts *o, const char *cmdline,
    struct runner_result *res, struct diaglist *dl)
{
	struct pollfd pfd[RUNNER_NPOLL];
	struct runner *r;
	int n;

	if ((r = runner_start(o, cmdline, dl)) == NULL)
		return -1;
	while (!runner_service(r)) {
		if (r->rx == NULL && r->fd < 0 && !r->reaped && r->xfd < 0) {
			/*
			 * Output ended and the leader is on its way out,
			 * which takes tens of microseconds: finer steps
			 * than poll(2)'s milliseconds, backing off to 40 ms
			 * for a test that closed its output and goes on.
			 */
			struct timespec ts;
			unsigned int k = r->eof_polls < 11 ? r->eof_polls : 11;

			ts.tv_sec = 0;
			ts.tv_nsec = 20000L << k;
			(void)nanosleep(&ts, NULL);
			continue;
		}
		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
		(void)poll(pfd, (nfds_t)n, runner_poll_timeout(r));
	}
	*res = r->res;
	runner_free(r);
	return 0;
}
