/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Starting a test process in a session of its own, as cheaply as the
 * system allows (vfork on Linux, fork elsewhere: see spawn.c).
 * Nothing here allocates.
 */
#ifndef LTPSCOPE_SPAWN_H
#define LTPSCOPE_SPAWN_H

#include <sys/types.h>

struct spawn_req {
	const char	*path;		/* absolute path of the program */
	char *const	*argv;
	char *const	*envp;
	int		 out_fd;	/* becomes stdout and stderr (a pty
					   slave is not made the controlling
					   terminal) */
	int		 in_fd;		/* becomes stdin */
	const char	*dir;		/* working directory */
};

/*
 * Starts the program as leader of a new session, with default signal
 * actions and an empty signal mask.  Returns the pid, or -1 with errno
 * set when nothing could be started or (vfork) the program could not
 * be executed.  If that is found out only after a fork, the child says
 * so on stderr and exits 127.
 */
pid_t	spawn_session(const struct spawn_req *);

#endif
