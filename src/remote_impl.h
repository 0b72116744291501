/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/remote*.c: the open connection and the helpers the
 * master's code (remote.c) and the agents' (remote_exec.c over
 * remote_agent.c) share, which live below both, in remote_buf.c and
 * remote_proc.c.
 */
#ifndef LTPSCOPE_REMOTE_IMPL_H
#define LTPSCOPE_REMOTE_IMPL_H

#include <sys/types.h>

#include <signal.h>

#include <stddef.h>

#include "ltpscope/remote.h"

#define REMOTE_CLOSE_MS		3000
/* A mark's first byte: ASCII RS, which LTP never prints. */
#define REMOTE_MARK		'\036'
/* A script fits in any pipe (NetBSD's start at 16 KiB): written whole. */
#define REMOTE_SCRIPT_MAX	12288
/* What the login shell runs, whatever shell it is. */
#define REMOTE_SH		"exec /bin/sh -s"

struct remote_agents;

struct remote {
	char		*spec;
	struct remote_addr addr;
	char		*ssh;		/* absolute path */
	char		*config;
	char		*ltproot;
	char		*tmpbase;
	char		*kconfig;	/* the local file sent, or NULL */
	char		*boxdir;	/* the connection's directory on the
					   box, or NULL */
	char		*box_kconfig;	/* its copy of kconfig there */
	int		 gone;		/* remote_give_up(): dead for sure */
	char		*dir;		/* private, 0700 */
	char		*sock;
	int		 alive_s;
	int		 alive_n;
	int		 connect_s;
	pid_t		 master;
	int		 master_in;	/* its stdin: closed, it goes */
	int		 master_out;
	struct remote_box box;
	/*
	 * The sessions the tests run in: working state, not what the
	 * connection is, so a const connection still hands them out.
	 */
	struct remote_agents *agents;
};

/* A growing string. */
struct remote_buf {
	char	*s;
	size_t	 len;
	size_t	 cap;
};

void	remote_buf_addn(struct remote_buf *, const char *, size_t);
void	remote_buf_add(struct remote_buf *, const char *);
/* s in single quotes, for sh and csh alike (no newline: see there). */
void	remote_buf_quote(struct remote_buf *, const char *);
long long remote_now_ms(void);
/* 16 hex digits nobody can guess. */
void	remote_nonce(char out[17]);
/*
 * The ssh command line up to and including the host, through the
 * master's socket; master is "yes" for the master itself, else "no".
 * *vp has room for two more entries and the NULL.
 */
void	remote_ssh_argv(const struct remote *, const char *master,
	    char ***vp, size_t *np);
/*
 * Starts "ssh ... host command" (master "yes" for the master itself)
 * in a session of its own, stdin from in_fd, stdout and stderr to
 * out_fd; its pid, or -1 with errno set.
 */
pid_t	remote_spawn(const struct remote *, const char *master,
	    const char *command, int in_fd, int out_fd);
int	remote_set_cloexec(int);
int	remote_set_nonblock(int);
/*
 * SIGPIPE held while writing to an ssh that may be gone, so a write
 * fails with EPIPE instead of ending ltpscope; the release takes back
 * one that came meanwhile.  Not held if one was pending already.
 */
struct remote_sigpipe {
	sigset_t	 old;
	int		 held;
};
void	remote_sigpipe_hold(struct remote_sigpipe *);
void	remote_sigpipe_release(struct remote_sigpipe *);
/* Closes both ends of a pipe(2) pair that are open (>= 0), marks them -1. */
void	remote_close_pipe(int p[2]);
/* ssh's or the shell's first line of words, for a message (in place). */
const char *remote_first_words(char *, size_t);

/*
 * remote_agent.c: the agents' list, made empty; ended (waiting for
 * them to clean up on the box when wait is set), freed.
 */
struct remote_agents *remote_agents_new(void);
void	remote_agents_free(struct remote_agents *, int wait);

/* An agent: a long-lived sh on the box over its own ssh session. */
struct remote_agent {
	pid_t		 pid;		/* the local ssh; 0: reaped */
	int		 in;		/* its stdin: our lines */
	int		 out;		/* its stdout and stderr */
	int		 ready;		/* said so: lines may go */
	int		 busy;		/* a test has it */
	char		 nonce[17];	/* of its ready line */
	struct remote_buf pre;		/* what came before that line */
	struct remote_agent *next;
};

/* remote_agent.c, below remote_exec.c which speaks to the agents. */
/*
 * A free agent for a test, marked busy: an idle one still there, else
 * a new one.  NULL (dl).
 */
struct remote_agent *remote_agent_claim(const struct remote *,
	    struct diaglist *);
/* Takes ag out of the list and frees it, ending it first. */
void	remote_agent_drop(struct remote_agents *, struct remote_agent *);
/* All of s to fd, with SIGPIPE held: 0, or -1. */
int	remote_agent_write(int fd, const char *s, size_t len);

#endif
