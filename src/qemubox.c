/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A QEMU box (qemubox.h): started through sh, so that the user's line
 * is read as the user would type it, in a session of its own (a ^C at
 * the terminal is ltpscope's to handle, not QEMU's); watched through
 * its monitor socket; stopped by "quit" there, then by signals.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/slurp.h"
#include "ltpscope/textsafe.h"
#include "ltpscope/xmalloc.h"

/* What of QEMU's stderr an error quotes (bytes). */
#define QEMUBOX_SAY_MAX	600
/* How long "quit" on the monitor is given before signals (ms). */
#define QEMUBOX_QUIT_MS	10000

struct qemubox {
	struct qemubox_conf conf;
	char	*name, *command, *dir;
	char	*console, *monitor, *pidfile, *errfile, *portfile;
	pid_t	 pid;		/* ours to wait for; 0: taken over */
	pid_t	 adopted;	/* taken over: its pid file's */
	int	 port;
	int	 was_running;
	off_t	 console_from;	/* its console's size when QEMU last
				   started; 0 if taken over */
};

static long long
qemubox_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* QEMU's option syntax: a ',' in a value is written ",,". */
static char *
qemubox_escape(const char *s)
{
	char *r = xmalloc(strlen(s) * 2 + 1), *p = r;

	for (; *s != '\0'; s++) {
		*p++ = *s;
		if (*s == ',')
			*p++ = ',';
	}
	*p = '\0';
	return r;
}

char **
qemubox_argv(const struct qemubox_conf *c, int port)
{
	char **v = xcalloc(16, sizeof(*v)), *d = qemubox_escape(c->dir);
	size_t n = 0;

	if (c->snapshot)
		v[n++] = xstrdup("-snapshot");
	v[n++] = xstrdup("-chardev");
	xasprintf(&v[n++], "file,id=ltpscope-console,path=%s/console,"
	    "append=on", d);
	v[n++] = xstrdup("-serial");
	v[n++] = xstrdup("chardev:ltpscope-console");
	v[n++] = xstrdup("-monitor");
	xasprintf(&v[n++], "unix:%s/monitor,server=on,wait=off", d);
	v[n++] = xstrdup("-nic");
	xasprintf(&v[n++], "user,id=ltpscope-net,restrict=on,"
	    "hostfwd=tcp:127.0.0.1:%d-:22", port);
	v[n++] = xstrdup("-pidfile");
	xasprintf(&v[n++], "%s/qemu.pid", c->dir);
	v[n] = NULL;
	free(d);
	return v;
}

void
qemubox_argv_free(char **v)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

/* The monitor, connected; -1 if nobody listens there. */
static int
qemubox_monitor_fd(const char *path)
{
	return compat_unix_connect(path);
}

/*
 * One command on the monitor, its answer read (and dropped) until the
 * next prompt or a second's silence, so that it is done when this
 * returns.  0, or -1 if the monitor does not answer.
 */
static int
qemubox_monitor(const char *path, const char *cmd)
{
	struct pollfd pfd;
	char buf[512];
	size_t prompts = 0;
	ssize_t n;
	int fd;

	if ((fd = qemubox_monitor_fd(path)) == -1)
		return -1;
	if (write(fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd) ||
	    write(fd, "\n", 1) != 1) {
		close(fd);
		return -1;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	/* The banner's prompt, then the one after the command. */
	while (prompts < 2 && poll(&pfd, 1, 1000) > 0 &&
	    (n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		if (strstr(buf, "(qemu)") != NULL)
			prompts++;
	}
	close(fd);
	return 0;
}

static pid_t
qemubox_read_pid(const char *path)
{
	char *buf;
	size_t len;
	long v;

	if (slurp_file(path, 64, &buf, &len) != SLURP_OK)
		return 0;
	v = strtol(buf, NULL, 10);
	free(buf);
	return v > 1 ? (pid_t)v : 0;
}

int
qemubox_running(const char *dir)
{
	char *pf, *mon;
	pid_t pid;
	int fd;

	xasprintf(&pf, "%s/qemu.pid", dir);
	xasprintf(&mon, "%s/monitor", dir);
	pid = qemubox_read_pid(pf);
	fd = pid > 0 && kill(pid, 0) == 0 ? qemubox_monitor_fd(mon) : -1;
	if (fd != -1)
		close(fd);
	free(pf);
	free(mon);
	return fd != -1;
}

static int
qemubox_mkdirs(const char *dir)
{
	char *d = xstrdup(dir), *p;
	int rv = 0, end;

	for (p = d + 1; rv == 0; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		end = *p == '\0';
		*p = '\0';
		if (mkdir(d, 0700) == -1 && errno != EEXIST)
			rv = -1;
		if (end)
			break;
		*p = '/';
	}
	free(d);
	return rv;
}

/* QEMU is still there (ours: not reaped; taken over: its pid). */
static int
qemubox_alive(struct qemubox *q)
{
	int st;

	if (q->pid > 0)
		return waitpid(q->pid, &st, WNOHANG) == 0;
	return q->adopted > 0 && kill(q->adopted, 0) == 0;
}

/* What QEMU said on stderr, fit to print; malloc'd. */
static char *
qemubox_said(const struct qemubox *q)
{
	char *buf, *safe, *p;
	size_t len, slen;

	if (slurp_file(q->errfile, 1024 * 1024, &buf, &len) != SLURP_OK)
		return xstrdup("nothing (its stderr is not readable)");
	if (len > QEMUBOX_SAY_MAX)
		len = QEMUBOX_SAY_MAX;
	safe = textsafe_display(buf, len, TEXTSAFE_STRIP_ANSI, &slen);
	free(buf);
	for (p = safe; *p != '\0'; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	while (slen > 0 && safe[slen - 1] == ' ')
		safe[--slen] = '\0';
	if (slen == 0) {
		free(safe);
		return xstrdup("nothing");
	}
	return safe;
}

/* One start on port; 0, 1 to try another port, or -1 with dl. */
static int
qemubox_start_on(struct qemubox *q, int port, struct diaglist *dl)
{
	char **extra, *script, *said, buf[32];
	const char **argv;
	struct stat sb;
	long long until;
	size_t n, i;
	int fd, st, rv;

	(void)unlink(q->monitor);
	(void)unlink(q->pidfile);
	/* The console is appended to: this start's words come after. */
	q->console_from = stat(q->console, &sb) == 0 ? sb.st_size : 0;
	extra = qemubox_argv(&q->conf, port);
	for (n = 0; extra[n] != NULL; n++)
		continue;
	argv = xcalloc(n + 5, sizeof(*argv));
	/* The user's line as sh reads it, ours after it, quoted by exec. */
	xasprintf(&script, "exec %s \"$@\"", q->command);
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = script;
	argv[3] = "qemu";
	for (i = 0; i < n; i++)
		argv[4 + i] = extra[i];
	fflush(stdout);
	fflush(stderr);
	if ((q->pid = fork()) == -1) {
		diag_error(dl, q->name, 0, "cannot start qemu: fork: %s",
		    strerror(errno));
		q->pid = 0;
		rv = -1;
		goto out;
	}
	if (q->pid == 0) {
		(void)setsid();
		if ((fd = open("/dev/null", O_RDWR)) != -1) {
			(void)dup2(fd, STDIN_FILENO);
			(void)dup2(fd, STDOUT_FILENO);
		}
		if ((fd = open(q->errfile, O_WRONLY | O_CREAT | O_TRUNC,
		    0600)) != -1)
			(void)dup2(fd, STDERR_FILENO);
		execv("/bin/sh", (char *const *)argv);
		_exit(127);
	}
	until = qemubox_now_ms() + QEMUBOX_START_S * 1000LL;
	rv = -1;
	while (qemubox_now_ms() < until) {
		if (waitpid(q->pid, &st, WNOHANG) == q->pid) {
			q->pid = 0;
			said = qemubox_said(q);
			if (strstr(said, "hostfwd") != NULL ||
			    strstr(said, "forwarding") != NULL)
				rv = 1;
			else
				diag_error(dl, q->name, 0, "qemu exited "
				    "(status %d): %s", WIFEXITED(st) ?
				    WEXITSTATUS(st) : 128 + WTERMSIG(st),
				    said);
			free(said);
			goto out;
		}
		if ((fd = qemubox_monitor_fd(q->monitor)) != -1) {
			close(fd);
			rv = 0;
			break;
		}
		(void)poll(NULL, 0, 100);
	}
	if (rv != 0) {
		diag_error(dl, q->name, 0, "qemu did not open its monitor "
		    "in %d s", QEMUBOX_START_S);
		(void)kill(q->pid, SIGKILL);
		(void)waitpid(q->pid, &st, 0);
		q->pid = 0;
		goto out;
	}
	q->port = port;
	snprintf(buf, sizeof(buf), "%d\n", port);
	if ((fd = open(q->portfile, O_WRONLY | O_CREAT | O_TRUNC, 0600)) !=
	    -1) {
		(void)write(fd, buf, strlen(buf));
		close(fd);
	}
out:
	qemubox_argv_free(extra);
	free(argv);
	free(script);
	return rv;
}

/* Starts QEMU, on port if > 0 and free, else on others. */
static int
qemubox_start(struct qemubox *q, int port, struct diaglist *dl)
{
	int i, rv = 1;

	for (i = 0; i < QEMUBOX_PORT_TRIES && rv == 1; i++) {
		if (i > 0 || port <= 0)
			port = compat_free_tcp_port();
		if (port <= 0) {
			diag_error(dl, q->name, 0, "no free port on "
			    "127.0.0.1: %s", strerror(errno));
			return -1;
		}
		rv = qemubox_start_on(q, port, dl);
	}
	if (rv == 1)
		diag_error(dl, q->name, 0, "qemu could not forward a port "
		    "in %d tries", QEMUBOX_PORT_TRIES);
	return rv == 0 ? 0 : -1;
}

int
qemubox_up(struct qemubox **qp, const struct qemubox_conf *c,
    struct diaglist *dl)
{
	struct qemubox *q = xcalloc(1, sizeof(*q));
	char *buf;
	size_t len;

	q->name = xstrdup(c->name);
	q->command = xstrdup(c->command);
	q->dir = xstrdup(c->dir);
	q->conf = *c;
	q->conf.name = q->name;
	q->conf.command = q->command;
	q->conf.dir = q->dir;
	xasprintf(&q->console, "%s/console", q->dir);
	xasprintf(&q->monitor, "%s/monitor", q->dir);
	xasprintf(&q->pidfile, "%s/qemu.pid", q->dir);
	xasprintf(&q->errfile, "%s/qemu.err", q->dir);
	xasprintf(&q->portfile, "%s/port", q->dir);
	*qp = q;
	if (strlen(q->monitor) > compat_unix_path_max()) {
		diag_error(dl, q->dir, 0, "too long a path for the monitor "
		    "socket of box %s (at most %zu bytes)", q->name,
		    compat_unix_path_max());
		return -1;
	}
	if (qemubox_mkdirs(q->dir) != 0) {
		diag_error(dl, q->dir, 0, "cannot make: %s", strerror(errno));
		return -1;
	}
	if (qemubox_running(q->dir) && slurp_file(q->portfile, 64, &buf,
	    &len) == SLURP_OK) {
		q->port = atoi(buf);
		free(buf);
		if (q->port > 0) {
			q->adopted = qemubox_read_pid(q->pidfile);
			q->was_running = 1;
			return 0;
		}
	}
	return qemubox_start(q, 0, dl);
}

int
qemubox_port(const struct qemubox *q)
{
	return q->port;
}

void
qemubox_host(const struct qemubox *q, const char *host, char *buf,
    size_t len)
{
	size_t ulen = 0;

	if (host != NULL)
		ulen = strcspn(host, "@");
	snprintf(buf, len, "%.*s%s127.0.0.1:%d", (int)ulen,
	    ulen > 0 ? host : "", ulen > 0 ? "@" : "", q->port);
}

const char *
qemubox_console(const struct qemubox *q)
{
	return q->console;
}

/* How much of the console's end qemubox_console_said() reads. */
#define QEMUBOX_SAID_READ	4096

char *
qemubox_console_said(const struct qemubox *q, size_t nlines)
{
	char buf[QEMUBOX_SAID_READ], *out = xstrdup(""), *line, *t;
	const char *p, *e, *end, *start;
	off_t size, from = q->console_from;
	ssize_t n;
	size_t k;
	int fd;

	if ((fd = open(q->console, O_RDONLY | O_CLOEXEC)) == -1) {
		free(out);
		return NULL;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size - from > (off_t)sizeof(buf))
		from = size - (off_t)sizeof(buf);
	n = size > from ? pread(fd, buf, (size_t)(size - from), from) : 0;
	(void)close(fd);
	if (n <= 0)
		return out;
	end = buf + n;
	while (end > buf && (end[-1] == '\n' || end[-1] == '\r'))
		end--;
	/* Back from the end over nlines line starts. */
	for (p = end, k = 0; p > buf && k < nlines; p--)
		if (p[-1] == '\n' && ++k == nlines)
			break;
	for (start = p; start < end; start = p + 1) {
		for (p = start; p < end && *p != '\n'; p++)
			continue;
		/* A serial console's lines end in CR LF. */
		for (e = p; e > start && e[-1] == '\r'; e--)
			continue;
		line = textsafe_display(start, (size_t)(e - start),
		    TEXTSAFE_STRIP_ANSI, NULL);
		xasprintf(&t, "%s%s\n", out, line);
		free(line);
		free(out);
		out = t;
	}
	return out;
}

int
qemubox_was_running(const struct qemubox *q)
{
	return q->was_running;
}

int
qemubox_reset(struct qemubox *q, const char **what, struct diaglist *dl)
{
	if (qemubox_alive(q) && qemubox_monitor(q->monitor,
	    "system_reset") == 0) {
		*what = "system_reset on its monitor";
		return 0;
	}
	*what = "qemu had exited: started again";
	if (q->pid > 0) {
		/* Alive but deaf: a reset it cannot take is a restart. */
		(void)kill(q->pid, SIGKILL);
		(void)waitpid(q->pid, NULL, 0);
		q->pid = 0;
	}
	q->adopted = 0;
	return qemubox_start(q, q->port, dl);
}

/* Waits for our QEMU to end, up to ms; 1 if it did. */
static int
qemubox_reap(struct qemubox *q, long long ms)
{
	long long until = qemubox_now_ms() + ms;
	int st;

	while (qemubox_now_ms() < until) {
		if (waitpid(q->pid, &st, WNOHANG) != 0)
			return 1;
		(void)poll(NULL, 0, 50);
	}
	return 0;
}

void
qemubox_close(struct qemubox *q)
{
	if (q == NULL)
		return;
	if (!q->was_running && q->pid > 0) {
		(void)qemubox_monitor(q->monitor, "quit");
		if (!qemubox_reap(q, QEMUBOX_QUIT_MS)) {
			(void)kill(q->pid, SIGTERM);
			if (!qemubox_reap(q, 2000)) {
				(void)kill(q->pid, SIGKILL);
				(void)waitpid(q->pid, NULL, 0);
			}
		}
		(void)unlink(q->monitor);
		(void)unlink(q->pidfile);
	}
	free(q->name);
	free(q->command);
	free(q->dir);
	free(q->console);
	free(q->monitor);
	free(q->pidfile);
	free(q->errfile);
	free(q->portfile);
	free(q);
}
