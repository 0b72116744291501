/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/runner*.c: the running test and what the runner's
 * files share.  Nothing outside the runner includes this.
 *
 * The runner's files, each calling only those below it:
 *
 *	runner.c	the API: start, service, poll, stop, free
 *	runner_remote.c	a test on a box: its start and its clock
 *	runner_end.c	a test's end: the box's report, TMPDIR handed
 *			on or removed
 *	runner_reap.c	a local test's process: output, signals, reaping
 *	runner_spares.c	pty and TMPDIR, made and handed on (runner_spares)
 *	runner_env.c	the test's environment and command lookup
 */
#ifndef LTPSCOPE_RUNNER_IMPL_H
#define LTPSCOPE_RUNNER_IMPL_H

#include <sys/types.h>
#include <sys/stat.h>

#include <stddef.h>
#include <time.h>

#include "ltpscope/diag.h"
#include "ltpscope/runner.h"

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

struct runner {
	pid_t		 pid;
	int		 fd;		/* pty master or pipe; -1 after EOF */
	int		 slave;		/* the pty slave, held until the
					   leader is reaped; else -1 */
	int		 held;		/* the slave was held: EIO is final */
	int		 pty_ended;	/* pty_fd: the master, its output
					   ended, for runner_finish() */
	int		 pty_fd;
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
	struct stat	 tmpdir_seen;	/* as the test got it, empty */
	int		 tmpdir_settled; /* and unchanged for long enough
					   that a change moves its ctime */
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

/* A growing NULL-terminated vector of "NAME=value" strings. */
struct envbuild {
	char	**v;
	size_t	  n;
	size_t	  cap;
};

/* The runner's clock: monotonic, so a clock step moves no deadline. */
static inline long long
runner_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline long long
runner_now_ms(void)
{
	return runner_now_ns() / 1000000;
}

/* runner_env.c */
void	 runner_env_push(struct envbuild *, char *);
char	**runner_build_env(const struct runner_opts *, const char *ltproot,
	    const char *tmpdir, const char *path, size_t *nshared);
void	 runner_env_free(char **, size_t);
char	*runner_resolve_command(const char *, const char *path);
char	*runner_why_not_runnable(const char *, const char *path);

/* runner_spares.c */
int	 runner_set_cloexec(int);
int	 runner_set_nonblock(int);
char	*runner_take_tmpdir(struct runner_spares *, const char *tmpbase,
	    struct stat *, struct stat *seen, int *settled);
int	 runner_take_pty(struct runner_spares *, int *master, int *slave);
int	 runner_take_devnull(struct runner_spares *);
void	 runner_keep_devnull(struct runner_spares *, int);
void	 runner_prepare_spares(struct runner_spares *, int pty);
void	 runner_close_output(struct runner *);
void	 runner_hand_on_pty(struct runner *);
int	 runner_hand_on(struct runner *);

/* runner_reap.c */
void	 runner_read(struct runner *);
void	 runner_signal(struct runner *, int);
void	 runner_reap(struct runner *);

/* runner_end.c */
void	 runner_remote_out(void *, const char *, size_t);
void	 runner_finish(struct runner *);

/* runner_remote.c */
struct runner *runner_remote_start(const struct runner_opts *,
	    char *const argv[], struct diaglist *);
long long runner_remote_next(const struct runner *);
int	 runner_remote_service(struct runner *);

#endif /* !LTPSCOPE_RUNNER_IMPL_H */
