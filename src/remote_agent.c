/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The agents tests run in on a box (see remote.h): one long-lived sh
 * per ssh session over the master, fed one test at a time as a line on
 * its stdin, answering on its stdout with the test's output and marks
 * (RS, the test's nonce, a letter).  A test then costs the box two
 * forks and the execs of sh (which tells the test's pid), setsid, the
 * test, and cat that relays its output; no ssh client, mux handshake,
 * sshd session or login shell, which cost a per-test session some ten
 * milliseconds.
 *
 * On the box (the script below, one line for sh -s; the login shell,
 * csh maybe, parses nothing but "exec /bin/sh -s"):
 *
 *  - a reader (a subshell, the only one holding ssh's stdin) passes
 *    test lines to the loop through a pipe and acts on the control
 *    lines itself, since the loop is busy waiting for the test:
 *    "T nonce" (timeout) and "S nonce" (stop) SIGTERM the test's
 *    session, "K" SIGKILLs it, "H" kills what the test left behind
 *    while the output is held open, "C" cuts the output (the relay
 *    goes).  At EOF (the connection gone) it kills the running test,
 *    SIGTERM then SIGKILL after the grace, and ends.
 *  - the loop runs each test in its own session (setsid(1) where
 *    there is one), stdin /dev/null, its output into a FIFO that cat
 *    relays to ssh's stdout, reports "D" when the leader has ended,
 *    waits for the relay's EOF (every holder of the output gone), then
 *    "X status stragglers flags".  The env of a test is set in its own
 *    process, never in the loop's shell.
 *
 * What the test left behind: the full search (ps and awk: its session,
 * its process groups, the ppid tree) runs when the test's process group
 * still has a member after the leader's end, when the output is still
 * held open then (the local side sends "H" after its drain period),
 * and after a timeout, a stop or a SIGKILL.  Not caught: a process
 * that left the test's process group and let go of the output (closed
 * or never inherited it) when the leader ended by itself; without
 * setsid(1) (NetBSD), the same with the agent's group and session in
 * place of the test's own.  The local runner misses the same.
 *
 * A test's TMPDIR, mode 1777, is made once per agent and given to the
 * next test when it was left empty, sticky, still ours and not a link
 * (sh's test -k, -O and -h are builtins; a shell without them makes a
 * new one every time); any other is removed (not when a mount is below
 * it: then a new one is made beside it) and a new one is made.  Unlike
 * the local runner, a mode changed with the sticky bit kept (1700) is
 * not seen: reading a mode takes a program, ls(1), which made a test
 * on the box cost 60% more.  The agent's directory goes when it ends,
 * and when sshd hangs up on it.
 *
 * What the kernel said during a test (kmsg.h) goes before "X": its new
 * log lines, "k record" or "l line" each, and "t before after" when its
 * taint flags changed (see agent_kd).
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/remote.h"
#include "ltpscope/xmalloc.h"
#include "remote_impl.h"

/* Per remote_exec_service() call, so that a flood cannot starve a UI. */
#define AGENT_READ_CAP		(4 * 1024 * 1024)

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

struct remote_agents {
	struct remote_agent *list;
	unsigned int	 started;
};

/*
 * ks SIG signals what belongs to the test $P and prints how many: its
 * session (setsid made one), else the agent's own session minus the
 * agent; then, to a fixed point, the children of what is in and the
 * members of its process groups (never the agent's group).  The agent
 * ($$, its reader, its loop, the relay and ks itself) is the tree
 * below $$ minus the test's.  ps -o sid is not POSIX: without it, the
 * tree and the groups.
 */
static const char agent_ks_awk[] =
    "{ q=$1; o[NR]=q; pp[q]=$2; pg[q]=$3; sd[q]=(NF>3)?$4:\"\" } "
    "END { W=pg[me]; S=sd[me]; h[me]=1; "
    "do { c=0; for (i=1;i<=NR;i++) { q=o[i]; "
    "if ((q in h)||q==P) continue; "
    "if (pp[q] in h) { h[q]=1; c=1 } } } while (c); "
    "k[P]=1; if ((P in pg) && pg[P]!=W) g[pg[P]]=1; "
    "for (i=1;i<=NR;i++) { q=o[i]; if (q in h) continue; "
    "if (sd[q]!=\"\" && (sd[q]==P || (m==0 && S==me && sd[q]==S))) "
    "k[q]=1 } "
    "do { c=0; for (i=1;i<=NR;i++) { q=o[i]; "
    "if ((q in k)||(q in h)) continue; "
    "if ((pp[q] in k)||(pg[q] in g)) { k[q]=1; c=1 } } "
    "for (q in k) if ((q in pg) && pg[q]!=W && !(pg[q] in g)) "
    "{ g[pg[q]]=1; c=1 } } while (c); "
    "for (q in k) if (q in pp) printf \"%s \", q }";

/* Up to the TMPDIR base: the agent's directory and first TMPDIR. */
static const char agent_head[] =
    "case $b in /*) ;; *) b=/tmp;; esac; A=$b/ltpscope.$N0; T=$A/tmp; "
    "umask 022; if mkdir \"$A\"; then :; else "
    "printf '\\036%s E cannot make a directory in %s\\n' \"$N0\" \"$b\"; "
    "exit 0; fi; "
    "if mkdir -m 1777 \"$T\" && mkfifo -m 600 \"$A/o\" && "
    "printf '' >\"$A/p\" && cd \"$T\"; then :; else "
    "printf '\\036%s E cannot make a directory in %s\\n' \"$N0\" \"$A\"; "
    "cd /; rm -rf \"$A\"; exit 0; fi; "
    "k=0; s=; m=0; if command -v setsid >/dev/null 2>&1; "
    "then m=1; s=setsid; fi; nl=$(printf '\\nx'); nl=${nl%x}; ";

static const char agent_ks[] =
    "ks() { l=$(ps -A -o pid= -o ppid= -o pgid= -o sid= 2>/dev/null) || "
    "l=$(ps -A -o pid= -o ppid= -o pgid=); "
    "l=$(echo \"$l\" | awk -v P=\"$P\" -v me=$$ -v m=\"$m\" ";

/*
 * kd sends the kernel's new lines and a change of its taint flags.  On
 * Linux a cat of /dev/kmsg started once appends its records to $A/k,
 * which kd sends ("k record") and empties when it is not empty: a test
 * costs the box a test(1) and a read, both builtins.  Records from
 * before the agent (cat starts at the oldest) are older than $u0, the
 * uptime then.  Where there is no /dev/kmsg (NetBSD) kd runs dmesg, a
 * fork and exec a test, and only when its last line is not the one
 * seen last sends the lines after that one ("l line", awk, once).  $K
 * is "" for those, "dmesg" for dmesg anyway, else a file of records
 * the test suite's tests write to, emptied as $A/k is; $F is the
 * taint flags' file.
 */
static const char agent_kd[] =
    "km=d; u0=0; KP=; kf=$A/k; case $K in dmesg) ;; '') "
    "if [ -c /dev/kmsg ] && [ -r /dev/kmsg ]; then : >\"$kf\"; "
    "cat /dev/kmsg >>\"$kf\" 2>/dev/null & KP=$!; km=r; "
    "read -r u0 x </proc/uptime; u0=${u0%.*}000000; fi;; "
    "*) kf=$K; : >\"$kf\"; km=r;; esac; "
    "[ $km = r ] || kt=$(dmesg 2>/dev/null | tail -n 1); "
    "tb=; read -r tb <\"$F\"; "
    "kd() { if [ $km = r ]; then if [ -s \"$kf\" ]; then "
    "while IFS= read -r l; do case $l in ''|' '*) continue;; esac; "
    "x=${l#*,}; x=${x#*,}; x=${x%%[,;]*}; "
    "[ \"$x\" -ge \"$u0\" ] 2>/dev/null || continue; "
    "printf '\\036%s k %s\\n' \"$N\" \"$l\"; done <\"$kf\"; "
    ": >\"$kf\"; fi; else d=$(dmesg 2>/dev/null) || d=; "
    "case $nl$d in \"$nl\") ;; *\"$nl$kt\") ;; *) printf '%s\\n' \"$d\" | "
    "kt=$kt n=$N awk '{ a[NR]=$0; if ($0 == ENVIRON[\"kt\"]) k=NR } "
    "END { for (i=k+1;i<=NR;i++) "
    "printf \"\\036%s l %s\\n\", ENVIRON[\"n\"], a[i] }'; "
    "kt=${d##*\"$nl\"};; esac; fi; ta=; read -r ta <\"$F\"; "
    "if [ \"$ta\" != \"$tb\" ]; then "
    "printf '\\036%s t %s %s\\n' \"$N\" \"${tb:--1}\" \"${ta:--1}\"; "
    "tb=$ta; fi; }; ";

/*
 * A hangup (sshd's, when the connection drops) or a TERM ends the loop
 * and the reader, who take them as they come; the agent's own shell
 * then leaves nothing behind: the directory, and kd's cat.
 */
static const char agent_trap[] =
    "trap '[ -z \"$KP\" ] || kill \"$KP\"; cd /; rm -rf \"$A\"; exit 0' "
    "HUP TERM; ";

/* The reader: ssh's stdin to the loop, and the controls. */
static const char agent_reader[] =
    "exec 3<&0 </dev/null; printf '\\036%s R\\n' \"$N0\"; "
    "{ while read -r l; do case $l in "
    "[TSKHC]' '*) c=${l%% *}; q=${l#* }; "
    "if read -r x P C G <\"$A/p\" && [ \"$x\" = \"$q\" ]; then "
    "case $c in "
    "T|S) echo >\"$A/$c.$q\"; ks TERM >/dev/null;; "
    "K) if kill -s 0 \"$P\"; then echo >\"$A/K.$q\"; fi; "
    "ks KILL >/dev/null;; "
    "H) ks KILL >>\"$A/n.$q\";; "
    "C) echo >\"$A/O.$q\"; kill -s KILL \"$C\";; "
    "esac; fi;; "
    "*) printf '%s\\n' \"$l\";; esac; done; "
    "if read -r x P C G <\"$A/p\" && [ -n \"$P\" ]; then "
    "ks TERM >/dev/null; i=0; "
    "while [ $i -lt \"$G\" ] && kill -s 0 \"$P\"; do sleep 1; "
    "i=$((i+1)); done; ks KILL >/dev/null; kill -s KILL \"$C\"; fi; "
    "} <&3 3<&- | ";

/*
 * The loop: one test per line, its marks, its TMPDIR.  The test runs
 * in the foreground, through a sh of its own that writes its pid (the
 * test's, once it has exec'd) for the reader: an asynchronous list
 * would have SIGINT and SIGQUIT ignored, for good (POSIX), and the
 * test would inherit that.  dash's kill wants "--" before a process
 * group, NetBSD's takes "--" for a pid (and fails, having signalled
 * the group): either way, one answers.
 */
static const char agent_loop[] =
    "{ trap '' PIPE; while read -r l; do N=; G=1; eval \"$l\"; "
    "[ -n \"$N\" ] || continue; "
    "cat \"$A/o\" & C=$!; "
    "( trap - PIPE; exec /bin/sh -c 'echo \"$1 $$ $2 $3\" >\"$4\"; s=$5; "
    "nl=$6; eval \"$7\"; J' sh \"$N\" \"$C\" \"$G\" \"$A/p\" \"$s\" "
    "\"$nl\" \"$l\" ) >\"$A/o\" 2>&1 </dev/null; st=$?; "
    "P=; read -r x P x <\"$A/p\"; n=0; if [ -n \"$P\" ] && "
    "{ kill -s 0 -- \"-$P\" || kill -s 0 \"-$P\"; }; then "
    "n=$(ks KILL); fi; "
    "printf '\\036%s D\\n' \"$N\"; wait \"$C\"; printf '' >\"$A/p\"; "
    "f=; g=; for x in T S K O; do if [ -e \"$A/$x.$N\" ]; "
    "then f=$f$x; g=1; fi; done; "
    "if [ -e \"$A/n.$N\" ]; then while read -r x; do n=$((n+x)); "
    "done <\"$A/n.$N\"; g=1; fi; "
    "if [ -n \"$g\" ]; then x=$(ks KILL); n=$((n+x)); "
    "rm -f \"$A/T.$N\" \"$A/S.$N\" \"$A/K.$N\" \"$A/O.$N\" \"$A/n.$N\"; "
    "fi; q=; case $f in *O*) rm -f \"$A/o\"; "
    "mkfifo -m 600 \"$A/o\" || q=Q;; esac; "
    "e=1; for x in \"$T\"/* \"$T\"/.[!.]* \"$T\"/..?*; do "
    "if [ -e \"$x\" ] || [ -h \"$x\" ]; then e=0; fi; done; "
    "[ -k \"$T\" ] && [ -O \"$T\" ] && [ ! -h \"$T\" ] || e=0; "
    "if [ $e = 0 ]; then cd /; "
    "if mount | grep -F -e \" $T \" -e \" $T/\" >/dev/null; "
    "then f=${f}L; elif rm -rf \"$T\"; then :; else f=${f}L; fi; "
    "if [ -e \"$T\" ] || [ -h \"$T\" ]; then k=$((k+1)); T=$A/tmp$k; fi; "
    "if mkdir -m 1777 \"$T\" && cd \"$T\"; then TMPDIR=$T; "
    "export TMPDIR; else q=Q; fi; fi; "
    "kd; printf '\\036%s X %s %s %s\\n' \"$N\" \"$st\" \"$n\" \"${f:--}$q\"; "
    "[ -z \"$q\" ] || break; done; } 3<&-; "
    "[ -z \"$KP\" ] || kill \"$KP\"; cd /; rm -rf \"$A\"; exit 0\n";

/* An agent's script for sh -s on the box, ready-marked with n0. */
static char *
agent_script(const struct remote *rm, const char *n0)
{
	struct remote_buf b = { NULL, 0, 0 };
	const char *e;

	remote_buf_add(&b, "exec 2>/dev/null; N0=");
	remote_buf_add(&b, n0);
	remote_buf_add(&b, "; b=");
	if (rm->tmpbase != NULL)
		remote_buf_quote(&b, rm->tmpbase);
	else
		remote_buf_add(&b, "${TMPDIR:-/tmp}");
	remote_buf_add(&b, "; ");
	remote_buf_add(&b, agent_head);
	remote_buf_add(&b, "LTPROOT=");
	remote_buf_quote(&b, rm->ltproot);
	remote_buf_add(&b, "; PATH=\"$LTPROOT/testcases/bin:$PATH\"; "
	    "TMPDIR=$T; export LTPROOT PATH TMPDIR; ");
	if (rm->box_kconfig != NULL) {
		remote_buf_add(&b, "KCONFIG_PATH=");
		remote_buf_quote(&b, rm->box_kconfig);
		remote_buf_add(&b, "; export KCONFIG_PATH; ");
	}
	/* The test suite's boxes are this machine: its stand-ins hold. */
	remote_buf_add(&b, "K=");
	remote_buf_quote(&b, (e = getenv("LTPSCOPE_KMSG")) != NULL ? e : "");
	remote_buf_add(&b, "; F=");
	remote_buf_quote(&b, (e = getenv("LTPSCOPE_TAINTED")) != NULL &&
	    *e != '\0' ? e : "/proc/sys/kernel/tainted");
	remote_buf_add(&b, "; ");
	remote_buf_add(&b, agent_kd);
	remote_buf_add(&b, agent_ks);
	remote_buf_quote(&b, agent_ks_awk);
	/* The count first: what waits for the kill finds it written. */
	remote_buf_add(&b, "); z=$1; set -- $l; echo $#; "
	    "[ $# = 0 ] || kill -s \"$z\" \"$@\" 2>/dev/null; }; ");
	remote_buf_add(&b, agent_trap);
	remote_buf_add(&b, agent_reader);
	remote_buf_add(&b, agent_loop);
	return b.s;
}

/*
 * Writes all of s to fd (non-blocking; our lines are small, the pipe
 * has room), with SIGPIPE held and taken back: an ssh gone must not
 * end ltpscope.  0, or -1.
 */
static int
agent_write(int fd, const char *s, size_t len)
{
	struct remote_sigpipe hold;
	int rc = 0;
	ssize_t n;

	remote_sigpipe_hold(&hold);
	while (len > 0) {
		if ((n = write(fd, s, len)) == -1) {
			if (errno == EINTR)
				continue;
			rc = -1;
			break;
		}
		s += n;
		len -= (size_t)n;
	}
	remote_sigpipe_release(&hold);
	return rc;
}

/* Starts an agent: its ssh, the script on its stdin.  NULL (dl). */
static struct remote_agent *
agent_start(const struct remote *rm, struct diaglist *dl)
{
	struct remote_agent *ag;
	int inp[2] = { -1, -1 }, outp[2] = { -1, -1 };
	char *script;

	ag = xcalloc(1, sizeof(*ag));
	remote_nonce(ag->nonce);
	script = agent_script(rm, ag->nonce);
	if (strlen(script) > REMOTE_SCRIPT_MAX) {
		diag_error(dl, NULL, 0, "%s: the agent's script is too long "
		    "(%zu bytes; at most %d)", rm->spec, strlen(script),
		    REMOTE_SCRIPT_MAX);
		goto fail;
	}
	if (pipe(inp) == -1 || pipe(outp) == -1 ||
	    remote_set_cloexec(inp[1]) == -1 ||
	    remote_set_cloexec(outp[0]) == -1 ||
	    remote_set_nonblock(outp[0]) == -1 ||
	    agent_write(inp[1], script, strlen(script)) == -1 ||
	    remote_set_nonblock(inp[1]) == -1) {
		diag_error(dl, NULL, 0, "%s: pipe: %s", rm->spec,
		    strerror(errno));
		goto fail;
	}
	ag->pid = remote_spawn(rm, "no", REMOTE_SH, inp[0], outp[1]);
	if (ag->pid == -1) {
		diag_error(dl, NULL, 0, "%s: cannot run %s: %s", rm->spec,
		    rm->ssh, strerror(errno));
		goto fail;
	}
	close(inp[0]);
	close(outp[1]);
	free(script);
	ag->in = inp[1];
	ag->out = outp[0];
	return ag;
fail:
	free(script);
	remote_close_pipe(inp);
	remote_close_pipe(outp);
	free(ag);
	return NULL;
}

/*
 * Ends an agent at once: the local ssh goes, and with it the session
 * on the box, whose reader then kills a test still running there.
 */
static void
agent_kill(struct remote_agent *ag)
{
	int st;

	if (ag->in >= 0)
		close(ag->in);
	if (ag->out >= 0)
		close(ag->out);
	ag->in = ag->out = -1;
	if (ag->pid > 0 && waitpid(ag->pid, &st, WNOHANG) == 0) {
		(void)kill(ag->pid, SIGTERM);
		while (waitpid(ag->pid, &st, 0) == -1 && errno == EINTR)
			;
	}
	ag->pid = 0;
}

/* Takes ag out of the list and frees it, ending it first. */
static void
agent_drop(struct remote_agents *as, struct remote_agent *ag)
{
	struct remote_agent **pp;

	for (pp = &as->list; *pp != NULL; pp = &(*pp)->next)
		if (*pp == ag) {
			*pp = ag->next;
			break;
		}
	agent_kill(ag);
	free(ag->pre.s);
	free(ag);
}

struct remote_agents *
remote_agents_new(void)
{
	return xcalloc(1, sizeof(struct remote_agents));
}

/*
 * EOF on every agent's stdin: each ends its test (there should be
 * none), removes its directory on the box and exits, and its ssh with
 * it.  Those that take longer than REMOTE_CLOSE_MS (with wait; else at
 * once: the box is gone) are killed.
 */
void
remote_agents_free(struct remote_agents *as, int wait)
{
	struct remote_agent *ag;
	long long deadline;
	char buf[4096];
	int left, st;

	if (as == NULL)
		return;
	for (ag = as->list; ag != NULL; ag = ag->next) {
		close(ag->in);
		ag->in = -1;
	}
	deadline = remote_now_ms() + (wait ? REMOTE_CLOSE_MS : 0);
	do {
		left = 0;
		for (ag = as->list; ag != NULL; ag = ag->next) {
			if (ag->pid <= 0)
				continue;
			while (ag->out >= 0 && read(ag->out, buf,
			    sizeof(buf)) > 0)
				;
			if (waitpid(ag->pid, &st, WNOHANG) == ag->pid)
				ag->pid = 0;
			else
				left++;
		}
		if (left > 0)
			(void)poll(NULL, 0, 5);
	} while (left > 0 && remote_now_ms() < deadline);
	while (as->list != NULL)
		agent_drop(as, as->list);
	free(as);
}

/*
 * A free agent for a test: an idle one still there (what an escaped
 * process wrote since its last test is dropped), else a new one.
 */
static struct remote_agent *
agent_claim(const struct remote *rm, struct diaglist *dl)
{
	struct remote_agents *as = rm->agents;
	struct remote_agent *ag, *next;
	char buf[4096];
	ssize_t n;

	for (ag = as->list; ag != NULL; ag = next) {
		next = ag->next;
		if (ag->busy || !ag->ready)
			continue;
		while ((n = read(ag->out, buf, sizeof(buf))) > 0)
			;
		if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR)) {
			agent_drop(as, ag);
			continue;
		}
		ag->busy = 1;
		return ag;
	}
	if ((ag = agent_start(rm, dl)) == NULL)
		return NULL;
	ag->busy = 1;
	ag->next = as->list;
	as->list = ag;
	as->started++;
	return ag;
}

unsigned int
remote_agents_started(const struct remote *rm)
{
	return rm->agents != NULL ? rm->agents->started : 0;
}

struct remote_exec {
	const struct remote *rm;
	struct remote_agent *ag;	/* while it has one */
	char	 *cmd;		/* the test's line for the agent */
	int	  sent;
	char	  queued[8];	/* controls asked for before it went */
	size_t	  nqueued;
	char	  mark[20];	/* RS + nonce + " " */
	size_t	  mlen;
	char	  hold[20];	/* a possible start of a mark */
	size_t	  nhold;
	int	  state;	/* 0 output, 1 a mark's line, 2 done */
	char	  line[512];	/* a mark's line after the mark */
	size_t	  nline;
	int	  leader_done;
	int	  quits;	/* the agent ends after this test */
	int	  lost;
	struct remote_status st;
	struct remote_buf kmsg;		/* the kernel's ("k", "l") */
};

static int
remote_env_name_ok(const char *e)
{
	size_t i, len = strcspn(e, "=");

	if (len == 0 || e[len] != '=' || (e[0] >= '0' && e[0] <= '9'))
		return 0;
	for (i = 0; i < len; i++)
		if (!((e[i] >= 'a' && e[i] <= 'z') ||
		    (e[i] >= 'A' && e[i] <= 'Z') ||
		    (e[i] >= '0' && e[i] <= '9') || e[i] == '_'))
			return 0;
	return 1;
}

/* s quoted for sh on one line: a newline is the agent's "$nl". */
static void
agent_quote(struct remote_buf *b, const char *s)
{
	const char *nl;
	char *part;

	while ((nl = strchr(s, '\n')) != NULL) {
		part = xstrndup(s, (size_t)(nl - s));
		remote_buf_quote(b, part);
		free(part);
		remote_buf_add(b, "\"$nl\"");
		s = nl + 1;
	}
	remote_buf_quote(b, s);
}

/*
 * The test's line: its nonce, grace and J, which sets its environment
 * and becomes the test, in the process the agent starts for it.
 */
static char *
agent_test_line(const char *nonce, char *const argv[], char *const env[],
    int grace_s)
{
	struct remote_buf b = { NULL, 0, 0 };
	char num[32];
	size_t i, len;
	char *name;

	remote_buf_add(&b, "N=");
	remote_buf_add(&b, nonce);
	snprintf(num, sizeof(num), "; G=%d; J() { ", grace_s);
	remote_buf_add(&b, num);
	for (i = 0; env != NULL && env[i] != NULL; i++) {
		if (!remote_env_name_ok(env[i]))
			continue;
		len = strcspn(env[i], "=");
		name = xstrndup(env[i], len);
		remote_buf_add(&b, name);
		remote_buf_add(&b, "=");
		agent_quote(&b, env[i] + len + 1);
		remote_buf_add(&b, "; export ");
		remote_buf_add(&b, name);
		remote_buf_add(&b, "; ");
		free(name);
	}
	remote_buf_add(&b, "exec $s");
	for (i = 0; argv[i] != NULL; i++) {
		remote_buf_add(&b, " ");
		agent_quote(&b, argv[i]);
	}
	remote_buf_add(&b, "; }\n");
	return b.s;
}

struct remote_exec *
remote_exec_new(const struct remote *rm, char *const argv[],
    char *const env[], int grace_s, struct diaglist *dl)
{
	struct remote_exec *x;
	char nonce[17], *cmd;

	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0') {
		diag_error(dl, NULL, 0, "%s: empty command", rm->spec);
		return NULL;
	}
	remote_nonce(nonce);
	cmd = agent_test_line(nonce, argv, env, grace_s > 0 ? grace_s : 1);
	if (strlen(cmd) > REMOTE_SCRIPT_MAX) {
		diag_error(dl, NULL, 0, "%s: the command is too long to send "
		    "(%zu bytes; at most %d)", rm->spec, strlen(cmd),
		    REMOTE_SCRIPT_MAX);
		free(cmd);
		return NULL;
	}
	x = xcalloc(1, sizeof(*x));
	x->rm = rm;
	x->cmd = cmd;
	x->mark[0] = REMOTE_MARK;
	memcpy(x->mark + 1, nonce, 16);
	x->mark[17] = ' ';
	x->mlen = 18;
	return x;
}

const char *
remote_exec_nonce(const struct remote_exec *x, char nonce[17])
{
	memcpy(nonce, x->mark + 1, 16);
	nonce[16] = '\0';
	return nonce;
}

/* The line, and what was asked for before it could go. */
static void
remote_exec_send(struct remote_exec *x)
{
	char ctl[24], nonce[17];
	size_t i;

	if (agent_write(x->ag->in, x->cmd, strlen(x->cmd)) == -1)
		return;		/* the agent's EOF will tell */
	x->sent = 1;
	remote_exec_nonce(x, nonce);
	for (i = 0; i < x->nqueued; i++) {
		snprintf(ctl, sizeof(ctl), "%c %s\n", x->queued[i], nonce);
		(void)agent_write(x->ag->in, ctl, strlen(ctl));
	}
	x->nqueued = 0;
}

int
remote_exec_start(struct remote_exec *x, struct diaglist *dl)
{
	if (x->ag != NULL)
		return 0;
	if ((x->ag = agent_claim(x->rm, dl)) == NULL)
		return -1;
	if (x->ag->ready)
		remote_exec_send(x);
	return 0;
}

int
remote_exec_fd(const struct remote_exec *x)
{
	return x->ag != NULL ? x->ag->out : -1;
}

int
remote_exec_leader_done(const struct remote_exec *x)
{
	return x->leader_done;
}

void
remote_exec_tell(struct remote_exec *x, int what)
{
	char ctl[24], nonce[17];

	if (x->ag == NULL || x->state == 2)
		return;
	if (!x->sent) {
		if (x->nqueued < sizeof(x->queued))
			x->queued[x->nqueued++] = (char)what;
		return;
	}
	snprintf(ctl, sizeof(ctl), "%c %s\n", what,
	    remote_exec_nonce(x, nonce));
	(void)agent_write(x->ag->in, ctl, strlen(ctl));
}

/* "D", "X status stragglers flags" or "E message". */
static void
remote_exec_parse(struct remote_exec *x)
{
	struct remote_status *s = &x->st;
	char flags[16] = "";
	const char *f;

	x->line[x->nline] = '\0';
	x->nline = 0;
	if (strcmp(x->line, "D") == 0) {
		x->leader_done = 1;
		x->state = 0;
		return;
	}
	if ((x->line[0] == 'k' || x->line[0] == 'l') && x->line[1] == ' ') {
		s->kmsg_records = x->line[0] == 'k';
		/* Beyond it kmsg.h's cap would drop them anyway. */
		if (x->kmsg.len < REMOTE_KMSG_MAX) {
			remote_buf_add(&x->kmsg, x->line + 2);
			remote_buf_add(&x->kmsg, "\n");
		}
		x->state = 0;
		return;
	}
	if (x->line[0] == 't' && x->line[1] == ' ') {
		if (sscanf(x->line + 2, "%lld %lld", &s->taint_before,
		    &s->taint_after) == 2)
			s->have_taint = 1;
		x->state = 0;
		return;
	}
	x->state = 2;
	if (x->line[0] == 'E' && x->line[1] == ' ') {
		snprintf(s->error, sizeof(s->error), "%s", x->line + 2);
		s->have = 1;
		s->status = 127;
		return;
	}
	if (sscanf(x->line, "X %d %d %15s", &s->status, &s->stragglers,
	    flags) != 3) {
		snprintf(s->error, sizeof(s->error), "unreadable status line "
		    "from the box");
		return;
	}
	for (f = flags; *f != '\0'; f++)
		switch (*f) {
		case 'T':
			s->timed_out = 1;
			break;
		case 'K':
			s->killed = 1;
			break;
		case 'S':
			s->stopped = 1;
			break;
		case 'L':
			s->tmpdir_left = 1;
			break;
		case 'O':
			s->output_cut = 1;
			break;
		case 'Q':
			x->quits = 1;
			break;
		}
	s->have = 1;
}

/* Bytes after a mark: its line, up to the newline; what it used. */
static size_t
remote_exec_line_bytes(struct remote_exec *x, const char *p, size_t len)
{
	const char *nl;
	size_t n, used;

	nl = memchr(p, '\n', len);
	used = nl != NULL ? (size_t)(nl - p) + 1 : len;
	n = nl != NULL ? (size_t)(nl - p) : len;
	if (n > sizeof(x->line) - 1 - x->nline)
		n = sizeof(x->line) - 1 - x->nline;
	memcpy(x->line + x->nline, p, n);
	x->nline += n;
	if (nl != NULL)
		remote_exec_parse(x);
	return used;
}

void
remote_exec_feed(struct remote_exec *x, const char *buf, size_t len,
    remote_output_fn *out, void *arg)
{
	const char *p, *end = buf + len, *start;
	size_t n;

	while (buf < end && x->state != 2) {
		if (x->state == 1) {
			buf += remote_exec_line_bytes(x, buf,
			    (size_t)(end - buf));
			continue;
		}
		/* A mark begun in the last chunk: does this one end it? */
		while (x->nhold > 0 && buf < end) {
			if (*buf != x->mark[x->nhold]) {
				if (out != NULL)
					out(arg, x->hold, x->nhold);
				x->nhold = 0;
				break;
			}
			x->hold[x->nhold++] = *buf++;
			if (x->nhold == x->mlen) {
				x->nhold = 0;
				x->state = 1;
			}
		}
		if (x->state == 1 || buf == end)
			continue;
		start = buf;
		/* A mark's first byte occurs nowhere else in it. */
		for (p = buf; (p = memchr(p, REMOTE_MARK,
		    (size_t)(end - p))) != NULL; p++) {
			n = (size_t)(end - p) < x->mlen ? (size_t)(end - p) :
			    x->mlen;
			if (memcmp(p, x->mark, n) == 0)
				break;
		}
		if (p == NULL)
			p = end;
		if (out != NULL && p > start)
			out(arg, start, (size_t)(p - start));
		if (p == end)
			return;
		n = (size_t)(end - p);
		if (n < x->mlen) {
			memcpy(x->hold, p, n);
			x->nhold = n;
			return;
		}
		x->state = 1;
		buf = p + x->mlen;
	}
}

void
remote_exec_flush(struct remote_exec *x, remote_output_fn *out, void *arg)
{
	if (x->state == 0 && x->nhold > 0 && out != NULL)
		out(arg, x->hold, x->nhold);
	x->nhold = 0;
	if (x->state == 1 && x->nline > 0 && x->st.error[0] == '\0')
		snprintf(x->st.error, sizeof(x->st.error), "the box's status "
		    "line was cut short");
}

/*
 * Before the agent's ready line: ssh's words or the shell's.  Returns
 * how many bytes of buf that took (the rest is the test's stream),
 * with the agent ready, or the test ended with the agent's error.
 */
static size_t
remote_exec_pre(struct remote_exec *x, const char *buf, size_t len)
{
	struct remote_agent *ag = x->ag;
	char mark[24], *p, *nl;
	size_t before = ag->pre.len, used;

	remote_buf_addn(&ag->pre, buf, len);
	snprintf(mark, sizeof(mark), "%c%s ", REMOTE_MARK, ag->nonce);
	if ((p = strstr(ag->pre.s, mark)) == NULL ||
	    (nl = strchr(p, '\n')) == NULL)
		return len;
	used = (size_t)(nl + 1 - ag->pre.s) - before;
	p += strlen(mark);
	*nl = '\0';
	if (strcmp(p, "R") == 0) {
		ag->ready = 1;
		remote_exec_send(x);
	} else {
		snprintf(x->st.error, sizeof(x->st.error), "%s",
		    strncmp(p, "E ", 2) == 0 ? p + 2 : p);
		x->st.have = 1;
		x->st.status = 127;
		x->state = 2;
		x->quits = 1;
	}
	free(ag->pre.s);
	memset(&ag->pre, 0, sizeof(ag->pre));
	return used;
}

/* The agent ended without a word on this test: ssh's, if any. */
static void
remote_exec_agent_gone(struct remote_exec *x)
{
	struct remote_agent *ag = x->ag;

	if (!ag->ready && ag->pre.len > 0 && x->st.error[0] == '\0')
		snprintf(x->st.error, sizeof(x->st.error), "%s",
		    remote_first_words(ag->pre.s, ag->pre.len));
	agent_drop(x->rm->agents, ag);
	x->ag = NULL;
	x->lost = !x->st.have;
}

/* Done with the agent: it takes the next test, or goes. */
static void
remote_exec_release(struct remote_exec *x)
{
	if (x->ag == NULL)
		return;
	if (x->quits)
		agent_drop(x->rm->agents, x->ag);
	else
		x->ag->busy = 0;
	x->ag = NULL;
}

int
remote_exec_service(struct remote_exec *x, remote_output_fn *out,
    void *arg)
{
	char buf[65536];
	size_t total = 0, used;
	ssize_t n;

	while (x->ag != NULL && x->state != 2 && total < AGENT_READ_CAP) {
		n = read(x->ag->out, buf, sizeof(buf));
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			remote_exec_agent_gone(x);
			break;
		}
		total += (size_t)n;
		used = 0;
		if (!x->ag->ready)
			used = remote_exec_pre(x, buf, (size_t)n);
		if (used < (size_t)n && x->state != 2)
			remote_exec_feed(x, buf + used, (size_t)n - used, out,
			    arg);
	}
	if (x->state == 2) {
		remote_exec_release(x);
		return 1;
	}
	return x->ag == NULL ? -1 : 0;
}

const struct remote_status *
remote_exec_status(const struct remote_exec *x)
{
	return &x->st;
}

void
remote_exec_free(struct remote_exec *x)
{
	if (x == NULL)
		return;
	/* A test still running: the agent goes, the box kills it. */
	if (x->ag != NULL && x->state != 2)
		agent_drop(x->rm->agents, x->ag);
	else
		remote_exec_release(x);
	free(x->cmd);
	free(x->kmsg.s);
	free(x);
}

const char *
remote_exec_kmsg(const struct remote_exec *x, size_t *lenp)
{
	*lenp = x->kmsg.len;
	return x->kmsg.s;
}
