/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A private OpenSSH server for tests that need a remote box: sshd on a
 * free loopback port, with a host key, a client key, a known_hosts and
 * a client config all made by the test in its own directory, so that
 * neither the server nor the client reads anything of the host's
 * (/etc/ssh, ~/.ssh, an agent).  A watchdog process kills sshd when the
 * test program ends, however it ends.  The box's sessions have dir as
 * HOME (no ~/.bashrc of the host's runs there) and find dir/bin first
 * in their PATH: a test puts the box's own programs there (a dmesg
 * that tells of a panic).
 */
#ifndef LTPSCOPE_TESTS_SSHD_H
#define LTPSCOPE_TESTS_SSHD_H

#include <sys/types.h>

#include <stddef.h>

struct sshd_box {
	char	 dir[512];	/* keys, configs, pid file */
	char	 config[600];	/* client config: ssh -F config */
	char	 spec[128];	/* "user@127.0.0.1:port" */
	char	 user[64];
	int	 port;
	pid_t	 pid;		/* sshd (-D); 0 when not running */
	pid_t	 watchdog;
};

/*
 * Makes the keys and configs below dir (created) and starts sshd;
 * 0 when it answers, -1 with why filled (a reason to SKIP: sshd not
 * installed, not root, ssh-keygen failed, no answer in time).  Sets
 * HOME to dir, so that nothing reads the user's ~/.ssh, and unsets
 * SSH_AUTH_SOCK.
 */
int	 sshd_start(struct sshd_box *, const char *dir, char *why, size_t);
/* Starts it again on the same port, keys and config (a box back up). */
int	 sshd_restart(struct sshd_box *);
/*
 * A shell command that starts the box's sshd again, detached, delay_s
 * seconds after it returns (at once): what a --reboot-cmd does for a
 * test.  sshd_stop() and the watchdog kill that sshd too.
 */
void	 sshd_reboot_command(const struct sshd_box *, int delay_s, char *,
	    size_t);
/* Kills sshd (and the sessions it serves) and reaps it; idempotent. */
void	 sshd_stop(struct sshd_box *);
/*
 * Runs cmd on the box with a fresh connection (ssh -F config) and
 * returns its stdout and stderr (caller frees); *status is the exit
 * status, 255 when ssh itself failed.
 */
char	*sshd_run(const struct sshd_box *, const char *cmd, int *status);

#endif
