/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test boxes over ssh: the tests run on another machine through the
 * system's OpenSSH client, while the store, the explorer and triage
 * stay here.  Nothing is installed on the box: it needs sh, the usual
 * commands (ps, awk, cat, mkdir, mkfifo, rm, sleep) and the LTP install.
 *
 * One master connection (ControlMaster, its socket in a private
 * directory) carries every test of a run, so a test costs no new
 * handshake.  The master runs as our child with its stdin on a pipe
 * only we hold: when ltpscope ends, however it ends, the master sees
 * EOF and goes, instead of persisting with nobody to close it.
 *
 * The tests run in agents: each one "ssh -S socket host 'exec /bin/sh
 * -s'" whose stdin carries a small POSIX sh script (so that no login
 * shell, csh included, parses it) and then, one line at a time, the
 * tests it is to run (runner_opts.remote).  It gives each test a
 * session of its own (setsid where there is one), a TMPDIR of mode
 * 1777, stdin /dev/null, and kills what the test leaves behind (its
 * session, tree and process groups, found with ps); a timeout or a
 * stop, which the runner decides, goes to the agent as a line too and
 * kills the whole session.  When the connection drops, the agent kills
 * the test it runs and ends.  The test's output comes back on the
 * agent's stdout with marks: lines that start with a byte LTP never
 * prints and the test's random nonce, one when the test's leader has
 * ended and one with its exit status; remote_exec_feed() takes them
 * out of the stream, so the test's own bytes, binary or escape-laden,
 * pass unchanged.
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
	char	*boot_id;	/* this boot's: Linux's boot_id, NetBSD's
				   kern.boottime; "" when unknown */
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
/*
 * The box is known dead (its console told of a panic) though ssh has
 * not noticed yet: remote_alive() says 0 from now on, and
 * remote_close() neither talks to the box nor waits on it.
 */
void		 remote_give_up(struct remote *);
const char	*remote_spec(const struct remote *);	/* as given */
const struct remote_box *remote_box(const struct remote *);
/*
 * The arch the box's runs are filed under, as skip lists and the
 * matrix name it: uname -m, or on NetBSD's evb* boards the processor.
 */
const char	*remote_box_arch(const struct remote_box *);
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
 * One command on the box, as the runner drives it (remote_exec.c), run
 * by one of the connection's agents (remote_agent.c): long-lived shells
 * on the box, one per ssh session over the master, each running one
 * test at a time; a test that finds them all busy starts another.  env
 * holds the "NAME=value" settings the test gets (NULL-terminated; PATH
 * and TMPDIR are made on the box), grace_s is how long the box waits
 * between SIGTERM and SIGKILL when the connection drops mid-test.  The
 * timeout is the caller's: it tells the box (remote_exec_tell()).
 * NULL after an error (dl).
 */
struct remote_exec;
struct remote_exec *remote_exec_new(const struct remote *,
		    char *const argv[], char *const env[], int grace_s,
		    struct diaglist *);
/*
 * Hands it to an idle agent, or starts one (without waiting for it);
 * the test goes to the box as soon as the agent is ready.  0, or -1
 * (dl) when no ssh could be started.
 */
int		 remote_exec_start(struct remote_exec *, struct diaglist *);
/* The agent's output to poll for POLLIN; -1 when there is none. */
int		 remote_exec_fd(const struct remote_exec *);
/*
 * Reads what the agent sent (never blocks): the test's bytes go on to
 * out, the marks are kept.  1 once the box has said how the test
 * ended (remote_exec_status()), -1 when the agent's connection ended
 * before that (the box or the master gone), else 0.
 */
int		 remote_exec_service(struct remote_exec *,
		    remote_output_fn *out, void *arg);
/* 1 once the box has said the test's leader has ended. */
int		 remote_exec_leader_done(const struct remote_exec *);
/*
 * Tells the box, for this test: 'T' timed out and 'S' stopped (its
 * session gets SIGTERM), 'K' SIGKILL (after the grace), 'H' kill what
 * the ended test left that still holds its output, 'C' let go of the
 * output.  Before the test has gone to the box, kept until it goes.
 */
void		 remote_exec_tell(struct remote_exec *, int what);
/* The nonce of its marks, into nonce (returned). */
const char	*remote_exec_nonce(const struct remote_exec *,
		    char nonce[17]);
/*
 * The filter remote_exec_service() uses, for what the agent sent:
 * the test's bytes go on to out, the marks ("RS nonce D", "RS nonce
 * X ...") are taken out.  A possible start of a mark is held back
 * until the next call decides; remote_exec_flush() lets go of it.
 */
void		 remote_exec_feed(struct remote_exec *, const char *, size_t,
		    remote_output_fn *out, void *arg);
void		 remote_exec_flush(struct remote_exec *, remote_output_fn *,
		    void *);

/* What the box reported; have is 0 when no status line came. */
struct remote_status {
	int	 have;
	int	 status;	/* sh's $? of the test: > 128 a signal */
	int	 stragglers;	/* killed after the test ended */
	int	 timed_out;
	int	 killed;	/* SIGKILL was needed */
	int	 stopped;	/* stopped ('S') */
	int	 tmpdir_left;	/* a mount below it, or rm failed */
	int	 output_cut;	/* the output was let go of ('C') */
	char	 error[256];	/* the agent could not run the test */
	/* What the kernel said (remote_exec_kmsg() has its lines): */
	int	 kmsg_records;	/* they are /dev/kmsg records, not
				   lines as dmesg shows them */
	int	 have_taint;	/* its taint flags changed: */
	long long taint_before;
	long long taint_after;
};
/*
 * The lines the box's kernel logged during the test, /dev/kmsg records
 * or lines as its dmesg shows them (remote_status.kmsg_records),
 * '\n'-ended, kept up to REMOTE_KMSG_MAX bytes; NULL when none.
 * Owned by x.
 */
#define REMOTE_KMSG_MAX	(64u * 1024)
const char	*remote_exec_kmsg(const struct remote_exec *, size_t *len);
const struct remote_status *remote_exec_status(const struct remote_exec *);
/* Frees; a test still running is killed on the box (its agent goes). */
void		 remote_exec_free(struct remote_exec *);
/* How many agents the connection has started: for tests. */
unsigned int	 remote_agents_started(const struct remote *);
/*
 * The ssh command line (argv[0] an absolute path, NULL-terminated;
 * free with xfreev()) that runs command on the box through the master
 * as the agents' sessions are run: what a bare loop measures against.
 */
char		**remote_command_argv(const struct remote *,
		    const char *command);

/*
 * Quotes s for a POSIX shell (and csh, the login shell of root on
 * NetBSD): 'it'\''s'.  Appends to *buf (allocated, grown).
 */
void		 remote_quote(char **buf, size_t *len, const char *s);

#endif
