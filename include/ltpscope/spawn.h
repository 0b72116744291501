/*
 * Starting a test process in a session of its own.  Where the C library
 * can do that with posix_spawn(3) (glibc: POSIX_SPAWN_SETSID and
 * addchdir), it does, which costs a fraction of fork(2) in a big
 * process; elsewhere it forks.  Nothing here allocates.
 */
#ifndef LTPSCOPE_SPAWN_H
#define LTPSCOPE_SPAWN_H

#include <sys/types.h>

struct spawn_req {
	const char	*path;		/* absolute path of the program */
	char *const	*argv;
	char *const	*envp;
	int		 out_fd;	/* becomes stdout and stderr */
	const char	*tty;		/* out_fd's device when it is a pty
					   slave (NULL: a pipe): it becomes
					   the controlling terminal */
	int		 in_fd;		/* becomes stdin */
	const char	*dir;		/* working directory */
};

/*
 * Starts the program as leader of a new session, with default signal
 * actions and an empty signal mask.  Returns the pid, or -1 with errno
 * set when nothing could be started (or, where the library can tell,
 * the program could not be executed).  If it is found out only after
 * the fork, the child says so on stderr and exits 127.
 */
pid_t	spawn_session(const struct spawn_req *);

#endif
