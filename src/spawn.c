/*
 * Process creation for the runner (see spawn.h).  posix_spawn(3) where
 * the C library can put the child in its own session and directory
 * (glibc 2.29 and later), fork(2) everywhere else.  glibc hides those
 * extensions behind _GNU_SOURCE, hence the define, which only this
 * file needs.
 */
#if defined(__linux__)
#define _GNU_SOURCE	1
#endif
#include <sys/ioctl.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/spawn.h"

/* -DSPAWN_FORK tries the fork(2) path where posix_spawn would do. */
#if !defined(SPAWN_FORK) && defined(__GLIBC__) && \
    defined(POSIX_SPAWN_SETSID) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
#define SPAWN_USE_POSIX_SPAWN	1
#endif

/* Signals an interactive parent may ignore; the test must not inherit. */
static const int spawn_sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGPIPE,
    SIGTERM, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN,
    SIGTTOU };
#define NSPAWN_SIGS	(sizeof(spawn_sigs) / sizeof(spawn_sigs[0]))

#ifdef SPAWN_USE_POSIX_SPAWN

pid_t
spawn_session(const struct spawn_req *rq)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	size_t i;
	pid_t pid;
	int e;

	sigemptyset(&none);
	sigemptyset(&dfl);
	for (i = 0; i < NSPAWN_SIGS; i++)
		sigaddset(&dfl, spawn_sigs[i]);
	if ((e = posix_spawnattr_init(&attr)) != 0) {
		errno = e;
		return -1;
	}
	if ((e = posix_spawn_file_actions_init(&fa)) != 0) {
		posix_spawnattr_destroy(&attr);
		errno = e;
		return -1;
	}
	e = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID |
	    POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
	if (e == 0)
		e = posix_spawnattr_setsigdefault(&attr, &dfl);
	if (e == 0)
		e = posix_spawnattr_setsigmask(&attr, &none);
	if (e == 0)
		e = posix_spawn_file_actions_adddup2(&fa, rq->in_fd, 0);
	/* O_NOCTTY: no controlling terminal, see child_exec(). */
	if (e == 0 && rq->tty != NULL)
		e = posix_spawn_file_actions_addopen(&fa, 1, rq->tty,
		    O_RDWR | O_NOCTTY, 0);
	else if (e == 0)
		e = posix_spawn_file_actions_adddup2(&fa, rq->out_fd, 1);
	if (e == 0)
		e = posix_spawn_file_actions_adddup2(&fa, 1, 2);
	if (e == 0)
		e = posix_spawn_file_actions_addchdir_np(&fa, rq->dir);
	if (e == 0)
		e = posix_spawn(&pid, rq->path, &fa, &attr, rq->argv,
		    rq->envp);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	if (e != 0) {
		errno = e;
		return -1;
	}
	return pid;
}

#else

static void
child_write(const char *s)
{
	(void)write(STDERR_FILENO, s, strlen(s));
}

/* After fork(): async-signal-safe calls only. */
static __dead void
child_exec(const struct spawn_req *rq)
{
	sigset_t none;
	size_t i;

	/*
	 * A session of its own, but the pty is not its controlling
	 * terminal: when a leader with one exits, the kernel hangs the
	 * terminal up, and a pty's hang-up throws away the output still
	 * on its way to the master (pty_flush_buffer): the end of a test's
	 * output was lost that way about once in a thousand runs.  The
	 * runner's session scan kills what the SIGHUP would have.
	 */
	(void)setsid();
	if (dup2(rq->in_fd, STDIN_FILENO) == -1 ||
	    dup2(rq->out_fd, STDOUT_FILENO) == -1 ||
	    dup2(rq->out_fd, STDERR_FILENO) == -1)
		_exit(127);
	for (i = 0; i < NSPAWN_SIGS; i++)
		(void)signal(spawn_sigs[i], SIG_DFL);
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	if (chdir(rq->dir) == -1) {
		child_write("ltpscope: cannot enter TMPDIR\n");
		_exit(127);
	}
	execve(rq->path, rq->argv, rq->envp);
	child_write("ltpscope: cannot execute ");
	child_write(rq->path);
	child_write("\n");
	_exit(127);
}

pid_t
spawn_session(const struct spawn_req *rq)
{
	pid_t pid;

	if ((pid = fork()) == 0)
		child_exec(rq);
	return pid;
}

#endif
