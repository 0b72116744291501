/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Process creation for the runner (see spawn.h).  On Linux, vfork(2):
 * glibc's posix_spawn(3) asks for every one of the 64 signals' actions
 * in the child, and fork(2) copies the page tables of a process that
 * holds a database and a screen; either costs more than a small test
 * itself takes.  Elsewhere fork(2), which the BSDs make cheap.  glibc
 * declares vfork() only with _GNU_SOURCE, hence the define, which only
 * this file needs.
 */
#if defined(__linux__)
#define _GNU_SOURCE	1
#if !defined(SPAWN_FORK)	/* -DSPAWN_FORK: the other systems' path */
#define SPAWN_USE_VFORK	1
#endif
#endif
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/spawn.h"

/*
 * Signals an interactive parent may catch or ignore; the test must not
 * inherit an ignored one, and under vfork() none of the parent's
 * handlers may run in the child, which shares its memory.
 */
static const int spawn_sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGPIPE,
    SIGTERM, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGTSTP, SIGTTIN,
    SIGTTOU, SIGCONT,
#ifdef SIGWINCH
    SIGWINCH,
#endif
};
#define NSPAWN_SIGS	(sizeof(spawn_sigs) / sizeof(spawn_sigs[0]))

static void
child_write(const char *s)
{
	(void)write(STDERR_FILENO, s, strlen(s));
}

/*
 * In the child, between fork or vfork and exec: async-signal-safe calls
 * only, and (vfork) nothing written to memory but *exec_errno.
 */
static __dead void
child_exec(const struct spawn_req *rq, volatile int *exec_errno)
{
	struct sigaction sa;
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
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	(void)sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSPAWN_SIGS; i++)
		(void)sigaction(spawn_sigs[i], &sa, NULL);
	(void)sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	if (chdir(rq->dir) == -1) {
		child_write("ltpscope: cannot enter TMPDIR\n");
		_exit(127);
	}
	execve(rq->path, rq->argv, rq->envp);
	if (exec_errno != NULL)
		*exec_errno = errno;
	child_write("ltpscope: cannot execute ");
	child_write(rq->path);
	child_write("\n");
	_exit(127);
}

pid_t
spawn_session(const struct spawn_req *rq)
{
	sigset_t all, old;
	pid_t pid;
#ifdef SPAWN_USE_VFORK
	volatile int exec_errno = 0;
	int status, e;
#endif

	/*
	 * Every signal blocked until the child has reset the actions it
	 * may have inherited: no handler of ours runs in the child.
	 */
	(void)sigfillset(&all);
	(void)sigprocmask(SIG_SETMASK, &all, &old);
#ifdef SPAWN_USE_VFORK
	/* The parent sleeps until the child has called execve or exited. */
	if ((pid = vfork()) == 0)
		child_exec(rq, &exec_errno);
	e = errno;
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid > 0 && exec_errno != 0) {
		/* Nothing ran: say why, as posix_spawn(3) would. */
		(void)waitpid(pid, &status, 0);
		errno = exec_errno;
		return -1;
	}
	errno = e;
#else
	if ((pid = fork()) == 0)
		child_exec(rq, NULL);
	(void)sigprocmask(SIG_SETMASK, &old, NULL);
#endif
	return pid;
}
