/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test boxes over ssh: the tests run on another machine through the
 * system's OpenSSH client, while the store, the explorer and triage
 * stay here.  Nothing is installed on the box: it needs sh, the usual
 * commands (ps, awk, mkdir, rm, sleep) and the LTP install.
 *
 * One master connection (ControlMaster, its socket in a private
 * directory) carries every test of a run, so a test costs no new
 * handshake.  The master runs as our child with its stdin on a pipe
 * only we hold: when ltpscope ends, however it ends, the master sees
 * EOF and goes, instead of persisting with nobody to close it.
 *
 * Each test is one "ssh -S socket host 'exec /bin/sh -s'" started by
 * the runner (runner_opts.remote), its stdin carrying a small POSIX sh
 * wrapper (so that no login shell, csh included, parses it) that gives the
 * test a session of its own (setsid where there is one), a TMPDIR of
 * mode 1777 removed afterwards, a timeout that kills the whole session
 * (tree and process groups, found with ps), and a stop: EOF on its
 * stdin, which the runner closes.  Its last output is a line that
 * starts with a byte LTP never prints and a random nonce, carrying the
 * exit status; remote_exec_feed() takes it out of the output stream,
 * so the test's own bytes, binary or escape-laden, pass unchanged.
 *
 * The core rules hold: nothing here prints or calls curses; errors go
 * to a diaglist.
 */
#ifndef LTPSCOPE_REMOTE_H
#define LTPSCOPE_REMOTE_H

#include <stddef.h>

#include "ltpscope/diag.h"

/* "[user@]host[:port]"; "[v6addr]:port" for an IPv6 literal. */
struct remote_addr {
	char	*user;		/* NULL: ssh's default */
	char	*host;
	int	 port;		/* 0: ssh's default */
};

/* 0, or -1 after adding an error naming the spec to dl. */
int	remote_parse(const char *spec, struct remote_addr *,
	    struct diaglist *);
void	remote_addr_free(struct remote_addr *);

/* Zero members mean defaults. Strings are copied by remote_open(). */
struct remote_opts {
	const char	*ssh;		/* the client; NULL: "ssh" in PATH */
	const char	*config;	/* ssh -F file; NULL: the user's */
	const char	*ltproot;	/* on the box; NULL: /opt/ltp */
	const char	*tmpbase;	/* test TMPDIRs go below, on the
					   box; NULL: its $TMPDIR, /tmp */
	const char	*kconfig;	/* a local kernel config the tests
					   get as KCONFIG_PATH there; NULL
					   or "": none sent */
	int		 connect_timeout_s;	/* 0: 15 */
	int		 alive_interval_s;	/* ServerAliveInterval; 0: 5 */
	int		 alive_count;		/* ServerAliveCountMax; 0: 3 */
};

/* What the box said about itself when the master connected. */
struct remote_box {
	char	*sysname;	/* uname -s */
	char	*nodename;	/* uname -n */
	char	*release;	/* uname -r */
	char	*version;	/* uname -v */
	char	*machine;	/* uname -m */
	char	*processor;	/* uname -p (NetBSD: MACHINE_ARCH), or "" */
	char	*emul_release;	/* sysctl emul.linux.kern.osrelease, or "" */
	char	*ltp_version;	/* $LTPROOT/Version's first line, or "" */
};

struct remote;

/*
 * Connects (blocking, at most connect_timeout_s plus a little) and
 * reads the box's facts.  NULL after adding an error to dl: a bad
 * spec, no ssh, the box refusing or not answering (ssh's own message
 * is quoted).  The caller frees with remote_close().
 */
struct remote	*remote_open(const char *spec, const struct remote_opts *,
		    struct diaglist *);
/* Ends the master connection, removes the private directory, frees. */
void		 remote_close(struct remote *);
const char	*remote_spec(const struct remote *);	/* as given */
const struct remote_box *remote_box(const struct remote *);
/* The ssh -F file, or NULL. */
const char	*remote_ssh_config(const struct remote *);
/*
 * 0 once the master connection has ended (the box went away, or ssh
 * gave up on it after ServerAliveInterval * ServerAliveCountMax
 * seconds of silence); 1 while it lasts.  Cheap: no round trip.
 */
int		 remote_alive(const struct remote *);
/* The LTPROOT the box is told. */
const char	*remote_ltproot(const struct remote *);

/*
 * Runs script (sh, one line) on the box through the master and keeps
 * its output, stdout and stderr, at most 4 MiB of it (*outp malloc'd,
 * NUL-terminated): what the kernel said after a crash (dmesg), say.
 * Blocks up to timeout_s.  The script's exit status; -1 with *outp
 * NULL and dl saying why when the box did not answer.
 */
int		 remote_capture(const struct remote *, const char *script,
		    int timeout_s, char **outp, size_t *lenp,
		    struct diaglist *);

/*
 * The file at path (absolute) on the box, whole (*datap malloc'd, at
 * most 64 MiB, not NUL-terminated), through the master: 0; 1 when
 * there is nothing at path; -1 with dl naming the box and the path.
 */
int		 remote_fetch(const struct remote *, const char *path,
		    int timeout_s, char **datap, size_t *lenp,
		    struct diaglist *);
/*
 * Where the box keeps its copy of remote_opts.kconfig, made when the
 * connection opened and removed when it closes (when the box still
 * answers); what the tests get as KCONFIG_PATH.  NULL: none sent.
 */
const char	*remote_kconfig(const struct remote *);

/* Receives output bytes, as for runner_output_fn. */
typedef void	remote_output_fn(void *arg, const char *buf, size_t len);

/*
 * One command on the box, as the runner drives it.  env holds the
 * "NAME=value" settings the test gets (NULL-terminated; PATH and
 * TMPDIR are made on the box), timeout_s 0 means none, grace_s is the
 * time between SIGTERM and SIGKILL there.  NULL after an error (dl).
 */
struct remote_exec;
struct remote_exec *remote_exec_new(const struct remote *,
		    char *const argv[], char *const env[], int timeout_s,
		    int grace_s, struct diaglist *);
/* The local ssh command to run, argv[0] an absolute path; owned. */
char *const	*remote_exec_argv(const struct remote_exec *);
/*
 * What ssh's stdin must carry first (the wrapper, for sh -s on the
 * box): at most a few KiB, so it fits a pipe written before ssh
 * starts.  The pipe then stays open: closing it stops the test.
 */
const char	*remote_exec_script(const struct remote_exec *, size_t *);
/*
 * The ssh process's output, as read: the test's bytes go on to out,
 * the status line is kept.  A possible start of the status line is
 * held back until the next call decides; remote_exec_flush() lets go
 * of it at EOF.
 */
void		 remote_exec_feed(struct remote_exec *, const char *, size_t,
		    remote_output_fn *out, void *arg);
void		 remote_exec_flush(struct remote_exec *, remote_output_fn *,
		    void *);

/* What the wrapper reported; have is 0 when no status line came. */
struct remote_status {
	int	 have;
	int	 status;	/* sh's $? of the test: > 128 a signal */
	int	 stragglers;	/* killed after the test ended */
	int	 timed_out;
	int	 killed;	/* SIGKILL was needed */
	int	 stopped;	/* stopped through EOF on stdin */
	int	 tmpdir_left;	/* a mount below it, or rm failed */
	char	 error[256];	/* the wrapper could not run the test */
};
const struct remote_status *remote_exec_status(const struct remote_exec *);
void		 remote_exec_free(struct remote_exec *);

/*
 * Quotes s for a POSIX shell (and csh, the login shell of root on
 * NetBSD): 'it'\''s'.  Appends to *buf (allocated, grown).
 */
void		 remote_quote(char **buf, size_t *len, const char *s);

#endif
