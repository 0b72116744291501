/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The processes and descriptors that talk to the box: ssh's command
 * line and its start through the master's socket, pipes, SIGPIPE held
 * around writes to an ssh that may be gone, the clock and the nonces
 * of status lines.  Below both the master's code (remote.c) and the
 * agents' (remote_agent.c), which share it; it calls neither.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/remote.h"
#include "ltpscope/spawn.h"
#include "ltpscope/xmalloc.h"
#include "remote_impl.h"

extern char **environ;

long long
remote_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* 16 hex digits nobody can guess: the status line's nonce. */
void
remote_nonce(char out[17])
{
	static const char hex[] = "0123456789abcdef";
	static unsigned long long seq;
	unsigned char r[8];
	unsigned long long x;
	ssize_t n = -1;
	int fd, i;

	if ((fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, r, sizeof(r));
		close(fd);
	}
	if (n != (ssize_t)sizeof(r)) {
		x = (unsigned long long)remote_now_ms() * 0x9e3779b97f4a7c15ULL ^
		    ((unsigned long long)getpid() << 20) ^ ++seq;
		for (i = 0; i < 8; i++, x >>= 8)
			r[i] = (unsigned char)x;
	}
	for (i = 0; i < 8; i++) {
		out[2 * i] = hex[r[i] >> 4];
		out[2 * i + 1] = hex[r[i] & 15];
	}
	out[16] = '\0';
}

/*
 * The ssh command line up to and including the host: every connection
 * of a run the same way, through the master's socket.
 */
void
remote_ssh_argv(const struct remote *rm, const char *master, char ***vp,
    size_t *np)
{
	char **v = xcalloc(40, sizeof(*v));
	size_t n = 0;

	v[n++] = xstrdup(rm->ssh);
	if (rm->config != NULL) {
		v[n++] = xstrdup("-F");
		v[n++] = xstrdup(rm->config);
	}
	v[n++] = xstrdup("-S");
	v[n++] = xstrdup(rm->sock);
	xasprintf(&v[n++], "-oControlMaster=%s", master);
	v[n++] = xstrdup("-oControlPersist=no");
	v[n++] = xstrdup("-oBatchMode=yes");
	xasprintf(&v[n++], "-oConnectTimeout=%d", rm->connect_s);
	xasprintf(&v[n++], "-oServerAliveInterval=%d", rm->alive_s);
	xasprintf(&v[n++], "-oServerAliveCountMax=%d", rm->alive_n);
	v[n++] = xstrdup("-oLogLevel=ERROR");
	v[n++] = xstrdup("-T");
	v[n++] = xstrdup("-x");
	v[n++] = xstrdup("-a");
	if (rm->addr.user != NULL) {
		v[n++] = xstrdup("-l");
		v[n++] = xstrdup(rm->addr.user);
	}
	if (rm->addr.port != 0) {
		v[n++] = xstrdup("-p");
		xasprintf(&v[n++], "%d", rm->addr.port);
	}
	v[n++] = xstrdup("--");
	v[n++] = xstrdup(rm->addr.host);
	*vp = v;
	*np = n;
}

pid_t
remote_spawn(const struct remote *rm, const char *master,
    const char *command, int in_fd, int out_fd)
{
	struct spawn_req rq;
	char **v;
	size_t n;
	pid_t pid;
	int en;

	remote_ssh_argv(rm, master, &v, &n);
	v[n++] = xstrdup(command);
	v[n] = NULL;
	memset(&rq, 0, sizeof(rq));
	rq.path = rm->ssh;
	rq.argv = v;
	rq.envp = environ;
	rq.out_fd = out_fd;
	rq.in_fd = in_fd;
	rq.dir = "/";
	pid = spawn_session(&rq);
	en = errno;
	xfreev(v);
	errno = en;
	return pid;
}

void
remote_close_pipe(int p[2])
{
	int i;

	for (i = 0; i < 2; i++)
		if (p[i] >= 0) {
			close(p[i]);
			p[i] = -1;
		}
}

int
remote_set_cloexec(int fd)
{
	int fl = fcntl(fd, F_GETFD);

	return fl == -1 ? -1 : fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

int
remote_set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl == -1 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

void
remote_sigpipe_hold(struct remote_sigpipe *h)
{
	sigset_t spipe, pending;

	sigemptyset(&spipe);
	sigaddset(&spipe, SIGPIPE);
	sigemptyset(&pending);
	(void)sigpending(&pending);
	h->held = !sigismember(&pending, SIGPIPE) &&
	    sigprocmask(SIG_BLOCK, &spipe, &h->old) == 0;
}

void
remote_sigpipe_release(struct remote_sigpipe *h)
{
	struct timespec zero = { 0, 0 };
	sigset_t spipe, pending;

	if (!h->held)
		return;
	sigemptyset(&spipe);
	sigaddset(&spipe, SIGPIPE);
	sigemptyset(&pending);
	if (sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE))
		(void)sigtimedwait(&spipe, NULL, &zero);
	(void)sigprocmask(SIG_SETMASK, &h->old, NULL);
	h->held = 0;
}
