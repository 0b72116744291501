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
 *
 * This file holds the agents' script and their processes: started,
 * claimed for a test, ended.  A test's line and what comes back, the
 * protocol, are in remote_exec.c, above this file.
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
	/*
	 * A relative -L is the login's: from $HOME, as ssh's other
	 * commands take it, not from $T, where the tests run and would
	 * not find their helpers in testcases/bin.
	 */
	remote_buf_add(&b, "LTPROOT=");
	remote_buf_quote(&b, rm->ltproot);
	remote_buf_add(&b, "; case $LTPROOT in /*) ;; *) "
	    "LTPROOT=${HOME:-}/$LTPROOT;; esac; "
	    "PATH=\"$LTPROOT/testcases/bin:$PATH\"; "
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
int
remote_agent_write(int fd, const char *s, size_t len)
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
	    remote_agent_write(inp[1], script, strlen(script)) == -1 ||
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
void
remote_agent_drop(struct remote_agents *as, struct remote_agent *ag)
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
		remote_agent_drop(as, as->list);
	free(as);
}

/*
 * A free agent for a test: an idle one still there (what an escaped
 * process wrote since its last test is dropped), else a new one.
 */
struct remote_agent *
remote_agent_claim(const struct remote *rm, struct diaglist *dl)
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
			remote_agent_drop(as, ag);
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
