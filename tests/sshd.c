/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A private sshd for tests (see sshd.h).  Everything it uses is made
 * here, in the test's directory: keys by ssh-keygen, an sshd_config
 * that reads nothing else, a client config that names our key and
 * known_hosts only.  The server runs in the foreground (-D) in a
 * session of its own; a watchdog child waits for the test to end (EOF
 * on a pipe only the test holds) and then kills the server's session
 * and descendants, so no sshd outlives a test that crashed.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/procs.h"
#include "sshd.h"
#include "tap.h"

#define SSHD_START_MS	10000	/* keygen and a first answer */
#define SSHD_STOP_MS	5000

static const char *const sshd_paths[] = {
	"/usr/sbin/sshd", "/usr/local/sbin/sshd", "/usr/pkg/sbin/sshd",
	"/sbin/sshd", NULL
};

static long long
sshd_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static const char *
sshd_binary(void)
{
	size_t i;

	for (i = 0; sshd_paths[i] != NULL; i++)
		if (access(sshd_paths[i], X_OK) == 0)
			return sshd_paths[i];
	return NULL;
}

/*
 * A port to try: sshd itself says whether it is free (it exits when
 * it cannot bind), which needs no socket code here.
 */
static int
sshd_pick_port(void)
{
	static unsigned int seq;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return 20000 + (int)(((unsigned int)ts.tv_nsec ^
	    ((unsigned int)getpid() << 8) ^ (++seq * 7919u)) % 40000u);
}

/* 1 once sshd's log says it listens. */
static int
sshd_listening(const char *log)
{
	size_t len;
	char *text = tap_slurp(log, &len);
	int yes = text != NULL && strstr(text, "Server listening on") != NULL;

	free(text);
	return yes;
}

static int
sshd_write(const char *path, const char *text)
{
	FILE *fp;

	if ((fp = fopen(path, "w")) == NULL)
		return -1;
	fputs(text, fp);
	return fclose(fp);
}

static int
sshd_keygen(const char *dir, const char *name)
{
	char cmd[2048], *out;
	int st;

	snprintf(cmd, sizeof(cmd), "rm -f '%s/%s' '%s/%s.pub'; "
	    "ssh-keygen -q -t ed25519 -N '' -C ltpscope-test -f '%s/%s'",
	    dir, name, dir, name, dir, name);
	out = tap_run(cmd, &st, 1);
	if (st != 0)
		tap_diag("ssh-keygen: %s", out);
	free(out);
	return st == 0 ? 0 : -1;
}

static int
sshd_configs(struct sshd_box *b)
{
	char path[1024], text[4096], *pub;
	size_t len;

	snprintf(path, sizeof(path), "%s/client_key.pub", b->dir);
	if ((pub = tap_slurp(path, &len)) == NULL)
		return -1;
	snprintf(path, sizeof(path), "%s/authorized_keys", b->dir);
	if (sshd_write(path, pub) != 0) {
		free(pub);
		return -1;
	}
	free(pub);
	/* The box's own programs (a fake dmesg) go first in its PATH. */
	snprintf(path, sizeof(path), "%s/bin", b->dir);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sshd_config", b->dir);
	snprintf(text, sizeof(text),
	    "Port %d\n"
	    "ListenAddress 127.0.0.1\n"
	    "HostKey %s/host_key\n"
	    "PidFile %s/sshd.pid\n"
	    "AuthorizedKeysFile %s/authorized_keys\n"
	    "StrictModes no\n"
	    "UsePAM no\n"
	    "PermitRootLogin prohibit-password\n"
	    "PubkeyAuthentication yes\n"
	    "PasswordAuthentication no\n"
	    "KbdInteractiveAuthentication no\n"
	    "UseDNS no\n"
	    "PrintMotd no\n"
	    "PrintLastLog no\n"
	    "MaxSessions 100\n"
	    "MaxStartups 100\n"
	    /*
	     * The box is this machine, the login root's: its shell's rc
	     * files are the host's (Debian's bash reads ~/.bashrc for ssh
	     * commands, and one here runs "pyenv rehash", whose lock a
	     * box "crash" killed mid-way left stale).  A shell level of 2
	     * makes bash read none, and HOME is ours; ~/.ssh/rc is not
	     * run either.  sshd takes the first SetEnv line only.
	     */
	    "SetEnv SHLVL=1 HOME=%s PATH=%s/bin:/usr/local/sbin:"
	    "/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
	    "PermitUserRC no\n"
	    "LogLevel INFO\n",
	    b->port, b->dir, b->dir, b->dir, b->dir, b->dir);
	if (sshd_write(path, text) != 0)
		return -1;
	snprintf(text, sizeof(text),
	    "Host *\n"
	    "  User %s\n"
	    "  IdentityFile %s/client_key\n"
	    "  IdentitiesOnly yes\n"
	    "  IdentityAgent none\n"
	    "  UserKnownHostsFile %s/known_hosts\n"
	    "  GlobalKnownHostsFile /dev/null\n"
	    "  StrictHostKeyChecking accept-new\n"
	    "  CheckHostIP no\n"
	    "  UpdateHostKeys no\n"
	    "  BatchMode yes\n"
	    "  ConnectTimeout 10\n"
	    "  LogLevel ERROR\n",
	    b->user, b->dir, b->dir);
	return sshd_write(b->config, text);
}

/* The sshd that wrote dir/sshd.pid (one sshd_reboot_command started). */
static pid_t
sshd_pidfile(const char *dir)
{
	char path[1024], *text;
	long pid;

	snprintf(path, sizeof(path), "%s/sshd.pid", dir);
	if ((text = tap_slurp(path, NULL)) == NULL)
		return 0;
	pid = atol(text);
	free(text);
	return pid > 1 ? (pid_t)pid : 0;
}

/* Kills the sshd of the pid file, with its sessions, and forgets it. */
static void
sshd_kill_detached(const char *dir, pid_t not)
{
	char path[1024];
	pid_t pid = sshd_pidfile(dir);

	if (pid > 0 && pid != not) {
		(void)procs_signal_session(pid, PROCS_DESCENDANTS, SIGKILL);
		(void)kill(pid, SIGKILL);
	}
	snprintf(path, sizeof(path), "%s/sshd.pid", dir);
	(void)unlink(path);
}

/*
 * The watchdog: holds the read end of a pipe whose write end only the
 * test has (close-on-exec), and kills the server's session and its
 * descendants when it reads EOF: the test ended or died.
 */
static pid_t
sshd_watch(pid_t server, const char *dir)
{
	int pfd[2];
	pid_t pid;
	char c;

	if (pipe(pfd) == -1)
		return -1;
	if ((pid = fork()) == -1) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);

		close(pfd[1]);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		(void)setsid();
		while (read(pfd[0], &c, 1) == -1 && errno == EINTR)
			;
		(void)procs_signal_session(server, PROCS_DESCENDANTS,
		    SIGKILL);
		(void)kill(server, SIGKILL);
		sshd_kill_detached(dir, server);
		_exit(0);
	}
	close(pfd[0]);
	(void)fcntl(pfd[1], F_SETFD, FD_CLOEXEC);
	/* Leaked on purpose: its close is the test's end. */
	return pid;
}

static int
sshd_launch(struct sshd_box *b)
{
	const char *sshd = sshd_binary();
	char cfg[1024], log[1024];
	long long deadline;
	pid_t pid;
	int st;

	snprintf(cfg, sizeof(cfg), "%s/sshd_config", b->dir);
	snprintf(log, sizeof(log), "%s/sshd.log", b->dir);
	(void)unlink(log);
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		int fd = open("/dev/null", O_RDWR);
		int lfd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0600);

		(void)setsid();
		if (fd >= 0) {
			dup2(fd, 0);
			dup2(fd, 1);
		}
		/* Its log, which says when it listens, stays out of TAP. */
		if (lfd >= 0)
			dup2(lfd, 2);
		/* sshd re-executes itself: it wants an absolute path. */
		execl(sshd, sshd, "-D", "-e", "-f", cfg, (char *)NULL);
		_exit(127);
	}
	b->pid = pid;
	b->watchdog = sshd_watch(pid, b->dir);
	deadline = sshd_now_ms() + SSHD_START_MS;
	while (sshd_now_ms() < deadline) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			b->pid = 0;
			return -1;
		}
		if (sshd_listening(log))
			return 0;
		(void)poll(NULL, 0, 10);
	}
	sshd_stop(b);
	return -1;
}

int
sshd_start(struct sshd_box *b, const char *dir, char *why, size_t wlen)
{
	struct passwd *pw;
	struct stat st;
	int tries;

	memset(b, 0, sizeof(*b));
	if (sshd_binary() == NULL) {
		snprintf(why, wlen, "sshd not installed (openssh-server)");
		return -1;
	}
	if (geteuid() != 0) {
		snprintf(why, wlen, "not root: sshd needs root here");
		return -1;
	}
	if ((pw = getpwuid(geteuid())) == NULL) {
		snprintf(why, wlen, "no passwd entry for uid %ld",
		    (long)geteuid());
		return -1;
	}
	snprintf(b->user, sizeof(b->user), "%s", pw->pw_name);
	snprintf(b->dir, sizeof(b->dir), "%s", dir);
	snprintf(b->config, sizeof(b->config), "%s/ssh_config", dir);
	(void)mkdir(dir, 0700);
	/* The privilege separation directory Debian's unit file makes. */
	if (stat("/run/sshd", &st) == -1 && stat("/run", &st) == 0)
		(void)mkdir("/run/sshd", 0755);
	(void)setenv("HOME", dir, 1);
	(void)unsetenv("SSH_AUTH_SOCK");
	if (sshd_keygen(dir, "host_key") != 0 ||
	    sshd_keygen(dir, "client_key") != 0) {
		snprintf(why, wlen, "ssh-keygen failed");
		return -1;
	}
	/* A port in use: sshd exits at once; another one then. */
	for (tries = 0; tries < 10; tries++) {
		b->port = sshd_pick_port();
		if (sshd_configs(b) != 0) {
			snprintf(why, wlen, "cannot write the configs in %s",
			    dir);
			return -1;
		}
		snprintf(b->spec, sizeof(b->spec), "%s@127.0.0.1:%d", b->user,
		    b->port);
		if (sshd_launch(b) == 0)
			return 0;
	}
	snprintf(why, wlen, "sshd did not start (see %s/sshd_config)", dir);
	return -1;
}

int
sshd_restart(struct sshd_box *b)
{
	sshd_stop(b);
	return sshd_launch(b);
}

void
sshd_reboot_command(const struct sshd_box *b, int delay_s, char *buf,
    size_t len)
{
	snprintf(buf, len, "(sleep %d; exec %s -f %s/sshd_config -E "
	    "%s/sshd.log) </dev/null >/dev/null 2>&1 &", delay_s,
	    sshd_binary(), b->dir, b->dir);
}

void
sshd_stop(struct sshd_box *b)
{
	long long deadline;
	int st;

	sshd_kill_detached(b->dir, b->pid);
	if (b->pid > 0) {
		/* The sessions it serves too: a test's box goes down whole. */
		(void)procs_signal_session(b->pid, PROCS_DESCENDANTS, SIGKILL);
		(void)kill(b->pid, SIGKILL);
		deadline = sshd_now_ms() + SSHD_STOP_MS;
		while (waitpid(b->pid, &st, WNOHANG) == 0 &&
		    sshd_now_ms() < deadline)
			(void)poll(NULL, 0, 5);
		b->pid = 0;
	}
	if (b->watchdog > 0) {
		(void)kill(b->watchdog, SIGKILL);
		(void)waitpid(b->watchdog, &st, 0);
		b->watchdog = 0;
	}
}

char *
sshd_run(const struct sshd_box *b, const char *cmd, int *status)
{
	char line[4096];

	snprintf(line, sizeof(line), "ssh -F '%s' -p %d -- 127.0.0.1 '%s'",
	    b->config, b->port, cmd);
	return tap_run(line, status, 1);
}
