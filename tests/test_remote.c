/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tests on a box over ssh, against a private sshd of the test's own on
 * 127.0.0.1 (tests/sshd.c) and the LTP-like programs of tests/ltpfake:
 * the same test gives the same bytes, exit status and verdict as a
 * local run; output streams while the test runs; a timeout or a stop
 * kills the whole session on the box and removes its TMPDIR; a status
 * line forged by the test's output is not taken for the agent's; a
 * box that goes away mid-test is told apart from a test's end, leaves
 * the run as a crash does, and --resume finishes it there.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/remote.h"
#include "ltpscope/runner.h"
#include "ltpscope/xmalloc.h"
#include "sshd.h"
#include "tap.h"
#include "tmux.h"

static struct sshd_box box;
static char root[1024];
static char boxtmp[1024];	/* the box's TMPDIR base */
static char bin[2048];
static char cwd[1024];

static const struct {
	const char	*tag;
	const char	*cmd;
} cases[] = {
	{ "open01", "pass" },
	{ "open02", "fail" },
	{ "close01", "broken" },
	{ "read01", "conf" },
	{ "write01", "warn" },
	{ "readv01", "oldlib" },
	{ "readv02", "oldlib fail" },
	{ "getpid01", "selfkill" },
	{ "mmap01", "escapes" },
	{ "writev01", "flood 2" },
	{ "pause01", "hang" },
};
#define NCASES	(sizeof(cases) / sizeof(cases[0]))

static long	db_number(const char *, const char *);

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
mkroot(const char *dir)
{
	static const char *const fakes[] = { "pass", "fail", "broken",
	    "conf", "warn", "oldlib", "selfkill", "hang", "escape", "flood",
	    "escapes", "envdump", NULL };
	char path[2048];
	FILE *fp;
	size_t i;

	tap_fake_ltproot(dir, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", dir);
	fp = fopen(path, "w");
	for (i = 0; i < NCASES; i++)
		fprintf(fp, "%s %s\n", cases[i].tag, cases[i].cmd);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/Version", dir);
	fp = fopen(path, "w");
	fprintf(fp, "20260529-fake\n");
	fclose(fp);
}

/* Entries in dir other than . and .. */
static int
dir_entries(const char *dir)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

/*
 * What tests left on the box: anything in a TMPDIR (an agent keeps
 * its empty one for the next test, in boxtmp/ltpscope.X/tmp), and
 * anything in boxtmp or an agent's directory but the agent's own.
 */
static int
box_leftovers(void)
{
	struct dirent *de, *fe;
	char path[2048], sub[2400];
	DIR *d, *f;
	int n = 0;

	if ((d = opendir(boxtmp)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", boxtmp, de->d_name);
		if (strncmp(de->d_name, "ltpscope.", 9) != 0 ||
		    (f = opendir(path)) == NULL) {
			tap_diag("left on the box: %s", path);
			n++;
			continue;
		}
		while ((fe = readdir(f)) != NULL) {
			if (strcmp(fe->d_name, ".") == 0 ||
			    strcmp(fe->d_name, "..") == 0 ||
			    strcmp(fe->d_name, "o") == 0 ||
			    strcmp(fe->d_name, "p") == 0)
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, fe->d_name);
			if (strncmp(fe->d_name, "tmp", 3) == 0 &&
			    dir_entries(sub) == 0)
				continue;
			tap_diag("left on the box: %s", sub);
			n++;
		}
		closedir(f);
	}
	closedir(d);
	return n;
}

/* The pid of our child ssh whose command line holds s, or -1. */
static long
our_ssh(const char *s)
{
	char *out, *line, *save = NULL;
	long pid = -1, ppid;
	int st, off;

	out = tap_run("ps -eo pid=,ppid=,args=", &st, 0);
	for (line = out != NULL ? strtok_r(out, "\n", &save) : NULL;
	    line != NULL && pid == -1; line = strtok_r(NULL, "\n", &save)) {
		long p;

		if (sscanf(line, "%ld %ld %n", &p, &ppid, &off) == 2 &&
		    ppid == (long)getpid() && strstr(line + off, s) != NULL)
			pid = p;
	}
	free(out);
	return pid;
}

/* 1 if a process whose command line holds s is alive. */
static int
process_alive(const char *s)
{
	char *out;
	int found, st;

	out = tap_run("ps -eo stat=,args=", &st, 0);
	found = 0;
	if (out != NULL) {
		char *line, *save = NULL;

		for (line = strtok_r(out, "\n", &save); line != NULL;
		    line = strtok_r(NULL, "\n", &save))
			/* Zombies are dead; their parent reaps them. */
			if (strstr(line, s) != NULL && line[0] != 'Z')
				found = 1;
	}
	free(out);
	return found;
}

static void
test_parse(void)
{
	struct remote_addr a;
	struct diaglist dl;
	static const char *const bad[] = { "", "box:0", "box:65536",
	    "box:x", "box:", "-oProxyCommand=sh", "user@", "@box", "[::1",
	    "[::1]x", "::1:22", "ho st", "box;reboot", "-l@box",
	    "box:22x", NULL };
	size_t i;

	diag_init(&dl);
	ok(remote_parse("box", &a, &dl) == 0 && a.user == NULL &&
	    strcmp(a.host, "box") == 0 && a.port == 0, "host alone");
	remote_addr_free(&a);
	ok(remote_parse("root@box.example:2222", &a, &dl) == 0 &&
	    strcmp(a.user, "root") == 0 &&
	    strcmp(a.host, "box.example") == 0 && a.port == 2222,
	    "user, host and port");
	remote_addr_free(&a);
	ok(remote_parse("me@[fe80::1]:22", &a, &dl) == 0 &&
	    strcmp(a.host, "fe80::1") == 0 && a.port == 22,
	    "an IPv6 literal in brackets");
	remote_addr_free(&a);
	ok(remote_parse("[::1]", &a, &dl) == 0 && strcmp(a.host, "::1") == 0
	    && a.port == 0, "brackets without a port");
	remote_addr_free(&a);
	is_int(dl.nerrors, 0, "no errors for good specs");
	for (i = 0; bad[i] != NULL; i++) {
		diag_free(&dl);
		diag_init(&dl);
		ok(remote_parse(bad[i], &a, &dl) == -1 && dl.nerrors == 1,
		    "'%s' is refused", bad[i]);
		has_str(tap_first_diag(&dl), "--host", "... the error names "
		    "the option");
	}
	diag_free(&dl);
}

static struct remote *
open_box(struct diaglist *dl)
{
	struct remote_opts ro;

	memset(&ro, 0, sizeof(ro));
	ro.config = box.config;
	ro.ltproot = root;
	ro.tmpbase = boxtmp;
	ro.alive_interval_s = 1;
	ro.alive_count = 3;
	return remote_open(box.spec, &ro, dl);
}

static void
test_connect(void)
{
	struct remote_opts ro;
	struct remote *rm;
	struct diaglist dl;
	struct utsname u;
	char spec[128];
	long long t0;
	int port;

	diag_init(&dl);
	rm = open_box(&dl);
	if (!ok(rm != NULL, "the master connects: %s", tap_first_diag(&dl))) {
		diag_free(&dl);
		return;
	}
	uname(&u);
	is_str(remote_box(rm)->sysname, u.sysname, "the box's uname -s");
	is_str(remote_box(rm)->machine, u.machine, "the box's uname -m");
	is_str(remote_box(rm)->release, u.release, "the box's uname -r");
	is_str(remote_box(rm)->ltp_version, "20260529-fake",
	    "LTP's Version, read on the box");
	remote_close(rm);

	/* Nobody listens on the port of a stopped box. */
	port = box.port;
	sshd_stop(&box);
	snprintf(spec, sizeof(spec), "%s@127.0.0.1:%d", box.user, port);
	memset(&ro, 0, sizeof(ro));
	ro.config = box.config;
	ro.connect_timeout_s = 5;
	t0 = now_ms();
	rm = remote_open(spec, &ro, &dl);
	ok(rm == NULL, "a box that does not answer: no connection");
	has_str(tap_first_diag(&dl), "cannot connect", "... and says so");
	has_str(tap_first_diag(&dl), spec, "... naming the box");
	ok(now_ms() - t0 < 12000, "... within the connect timeout");
	remote_close(rm);
	diag_free(&dl);
	ok(sshd_restart(&box) == 0, "the box comes back");
}

struct cap {
	char	*buf;
	size_t	 len;
};

static void
cap_out(void *arg, const char *b, size_t n)
{
	struct cap *c = arg;

	c->buf = xrealloc(c->buf, c->len + n + 1);
	memcpy(c->buf + c->len, b, n);
	c->len += n;
	c->buf[c->len] = '\0';
}

static void
runner_opts_for(struct runner_opts *o, struct remote *rm, struct cap *c,
    int timeout_ms)
{
	memset(o, 0, sizeof(*o));
	o->ltproot = root;
	o->kconfig = "";
	o->use_pipe = 1;	/* the box's output comes on a pipe too */
	o->timeout_ms = timeout_ms;
	o->grace_ms = 1000;
	o->output = cap_out;
	o->output_arg = c;
	o->remote = rm;
}

/* The same command here and on the box: the same bytes and end. */
static void
test_same_as_local(struct remote *rm)
{
	struct runner_result lres, rres;
	struct runner_opts o;
	struct diaglist dl;
	struct cap lc, rc;
	size_t i;

	for (i = 0; i < NCASES; i++) {
		int t = strcmp(cases[i].cmd, "hang") == 0 ? 1500 : 60000;

		memset(&lc, 0, sizeof(lc));
		memset(&rc, 0, sizeof(rc));
		diag_init(&dl);
		runner_opts_for(&o, NULL, &lc, t);
		if (runner_run(&o, cases[i].cmd, &lres, &dl) != 0) {
			ok(0, "%s runs here: %s", cases[i].cmd,
			    tap_first_diag(&dl));
			continue;
		}
		runner_opts_for(&o, rm, &rc, t);
		if (!ok(runner_run(&o, cases[i].cmd, &rres, &dl) == 0,
		    "%s runs on the box", cases[i].cmd))
			continue;
		ok(rres.exited == lres.exited && rres.exit_code ==
		    lres.exit_code && rres.signo == lres.signo &&
		    rres.timed_out == lres.timed_out && !rres.lost,
		    "%s: the same end (exited %d/%d, code %d/%d, signal %d/%d,"
		    " timed out %d/%d)", cases[i].cmd, rres.exited,
		    lres.exited, rres.exit_code, lres.exit_code, rres.signo,
		    lres.signo, rres.timed_out, lres.timed_out);
		if (!ok(rc.len == lc.len && (lc.len == 0 ||
		    memcmp(rc.buf, lc.buf, lc.len) == 0),
		    "%s: the same output, byte for byte (%zu, %zu bytes)",
		    cases[i].cmd, rc.len, lc.len) && rc.len < 4000) {
			tap_diag("box: %s", rc.buf ? rc.buf : "");
			tap_diag("here: %s", lc.buf ? lc.buf : "");
		}
		free(lc.buf);
		free(rc.buf);
		diag_free(&dl);
	}
	is_int(box_leftovers(), 0, "every TMPDIR on the box is gone or "
	    "empty");
}

/* The agent's status line cannot be forged by the test's output. */
static void
test_forged_status(struct remote *rm)
{
	struct runner_result res;
	struct runner_opts o;
	struct diaglist dl;
	struct cap c;

	memset(&c, 0, sizeof(c));
	diag_init(&dl);
	runner_opts_for(&o, rm, &c, 30000);
	ok(runner_run(&o, "printf 'a\\036b\\n\\0360123456789abcdef X 0 0 -\\n"
	    "tail\\036'; exit 7", &res, &dl) == 0, "a test that prints "
	    "status-like lines runs");
	ok(res.exited && res.exit_code == 7, "its own exit status counts "
	    "(%d)", res.exit_code);
	if (!ok(c.buf != NULL && c.len == 35 && memcmp(c.buf, "a\036b\n\036"
	    "0123456789abcdef X 0 0 -\ntail\036", 35) == 0,
	    "its bytes pass unchanged, a trailing RS too"))
		tap_diag("got %zu bytes: %s", c.len, c.buf ? c.buf : "");
	free(c.buf);

	/* What the test sees there: LTP's environment, its own TMPDIR. */
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 30000);
	o.reproducible = 1;
	ok(runner_run(&o, "envdump", &res, &dl) == 0 && res.exited &&
	    res.exit_code == 0, "envdump runs on the box");
	{
		char want[2200];

		snprintf(want, sizeof(want), "LTPROOT=%s\nPATH=%s/testcases/bin:",
		    root, root);
		has_str(c.buf, want, "LTPROOT, and PATH with its "
		    "testcases/bin first");
		snprintf(want, sizeof(want), "TMPDIR=%s/ltpscope.", boxtmp);
		has_str(c.buf, want, "TMPDIR below the box's base");
		has_str(c.buf, "LTP_COLORIZE_OUTPUT=0\n", "no colours");
		has_str(c.buf, "LTP_REPRODUCIBLE_OUTPUT=1\n", "settings are "
		    "passed on");
		has_str(c.buf, "KCONFIG_PATH=(unset)", "a local kconfig is "
		    "not");
		has_str(c.buf, "stdin_isatty=0", "stdin is not a terminal");
	}
	{
		const char *p = c.buf != NULL ? strstr(c.buf, "pid=") : NULL;
		long pid = -1, sid = -2;

		if (p != NULL)
			(void)sscanf(p, "pid=%ld sid=%ld", &pid, &sid);
		ok(pid == sid, "the test leads a session of its own there");
	}
	free(c.buf);
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 30000);
	ok(runner_run(&o, "envdump mess", &res, &dl) == 0 && c.buf != NULL &&
	    strstr(c.buf, "mess=made") != NULL && !res.tmpdir_left,
	    "a test that leaves a tree without permissions behind");
	is_int(box_leftovers(), 0, "... has its TMPDIR removed all the "
	    "same");
	free(c.buf);
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 30000);
	ok(runner_run(&o, "ls -ld \"$TMPDIR\" .", &res, &dl) == 0,
	    "ls runs on the box");
	ok(c.buf != NULL && strncmp(c.buf, "drwxrwxrwt", 10) == 0,
	    "its TMPDIR has mode 1777: %.40s", c.buf ? c.buf : "");
	free(c.buf);

	/* Quotes, "!" (csh's history) and a newline reach sh intact. */
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 30000);
	ok(runner_run(&o, "echo 'a!b' \"it's\" \"x\ny\" $((1+2))", &res, &dl)
	    == 0 && res.exited && res.exit_code == 0, "a shell command line "
	    "runs on the box");
	is_str(c.buf, "a!b it's x\ny 3\n", "... with its quoting intact");
	free(c.buf);
	{
		char *out, *p;
		int st;

		out = tap_run("ps -eo args=", &st, 0);
		p = out != NULL ? strstr(out, "-oControlMaster=no") : NULL;
		if (p != NULL)
			p[strcspn(p, "\n")] = '\0';
		ok(p != NULL && strlen(p) > 15 && strcmp(p + strlen(p) - 15,
		    "exec /bin/sh -s") == 0, "the login shell (csh, say) "
		    "parses nothing but this: %s", p != NULL ? p : "");
		free(out);
	}
	diag_free(&dl);
}

/*
 * The filter, fed the same stream cut in three everywhere: a mark cut
 * anywhere is put back together, a false start (RS and part of the
 * nonce, a bare RS at the end) is given back, in order; the leader's
 * end, marked in the middle of the output, is taken out and noted.
 */
static void
test_filter_splits(struct remote *rm)
{
	char *const argv[] = { (char *)"pass", NULL };
	const struct remote_status *st;
	struct remote_exec *x;
	struct diaglist dl;
	char nonce[17], payload[128], stream[256];
	size_t plen, slen, i, j, bad = 0, n = 0;
	struct cap c;

	diag_init(&dl);
	for (i = 0; i <= 60; i++) {
		for (j = i; j <= 60; j++) {
			x = remote_exec_new(rm, argv, NULL, 1, &dl);
			if (x == NULL) {
				bad++;
				continue;
			}
			remote_exec_nonce(x, nonce);
			plen = (size_t)snprintf(payload, sizeof(payload),
			    "x\036%.8sy\nz%c\033[2J\036", nonce, 0);
			/* The leader's end, between two bytes of output. */
			memcpy(stream, payload, 4);
			slen = 4 + (size_t)snprintf(stream + 4,
			    sizeof(stream) - 4, "\036%s D\n", nonce);
			memcpy(stream + slen, payload + 4, plen - 4);
			slen += plen - 4;
			slen += (size_t)snprintf(stream + slen,
			    sizeof(stream) - slen, "\036%s X 3 1 TK\n",
			    nonce);
			if (j > slen) {
				remote_exec_free(x);
				break;
			}
			memset(&c, 0, sizeof(c));
			remote_exec_feed(x, stream, i, cap_out, &c);
			remote_exec_feed(x, stream + i, j - i, cap_out, &c);
			remote_exec_feed(x, stream + j, slen - j, cap_out, &c);
			remote_exec_flush(x, cap_out, &c);
			st = remote_exec_status(x);
			n++;
			if (c.len != plen || memcmp(c.buf, payload, plen) != 0 ||
			    !st->have || st->status != 3 ||
			    !remote_exec_leader_done(x) ||
			    st->stragglers != 1 || !st->timed_out ||
			    !st->killed || st->stopped)
				bad++;
			free(c.buf);
			remote_exec_free(x);
		}
	}
	ok(n > 1000 && bad == 0, "marks cut in three anywhere are found, "
	    "the output around them kept whole (%zu of %zu cuts bad)",
	    bad, n);
	diag_free(&dl);
}

/*
 * A timeout kills the whole session on the box: a child that moved to
 * a process group of its own, and its child that left the session.
 */
static void
test_timeout(struct remote *rm)
{
	struct runner_result res;
	struct runner_opts o;
	struct diaglist dl;
	struct cap c;
	long long t0;

	memset(&c, 0, sizeof(c));
	diag_init(&dl);
	runner_opts_for(&o, rm, &c, 2000);
	t0 = now_ms();
	ok(runner_run(&o, "escape nest hang 73", &res, &dl) == 0,
	    "a test that hangs with escaped children runs on the box");
	ok(res.timed_out && !res.exited && res.signo != 0 && !res.lost,
	    "it times out there (signal %d)", res.signo);
	ok(now_ms() - t0 < 2000 + 1000 + 8000, "... on time (%lld ms)",
	    now_ms() - t0);
	ok(!process_alive("escape nest hang 73"), "no process of it is "
	    "left on the box");
	is_int(box_leftovers(), 0, "its TMPDIR is gone or empty");

	/* The leader exits, its child in a group of its own lives on. */
	runner_opts_for(&o, rm, &c, 30000);
	t0 = now_ms();
	ok(runner_run(&o, "escape pgrp exit 75", &res, &dl) == 0 &&
	    res.exited && res.exit_code == 0 && res.stragglers >= 1,
	    "a test's child left behind is killed on the box (%d)",
	    res.stragglers);
	ok(now_ms() - t0 < 10000, "... at once (%lld ms)", now_ms() - t0);
	ok(!process_alive("escape pgrp exit 75"), "... and is gone");
	is_int(box_leftovers(), 0, "its TMPDIR is gone or empty");
	free(c.buf);
	diag_free(&dl);
}

/*
 * Output streams while the test runs; a stop ends it on the box.
 */
static void
test_stream_and_stop(struct remote *rm)
{
	struct pollfd pfd[RUNNER_NPOLL];
	struct runner_opts o;
	struct runner *r;
	struct diaglist dl;
	struct cap c;
	const struct runner_result *res;
	long long deadline;
	int seen = 0, n;

	memset(&c, 0, sizeof(c));
	diag_init(&dl);
	runner_opts_for(&o, rm, &c, 60000);
	if (!ok((r = runner_start(&o, "escape pgrp hang 74", &dl)) != NULL,
	    "a hanging test starts on the box"))
		return;
	deadline = now_ms() + 15000;
	while (!runner_service(r) && now_ms() < deadline) {
		if (c.buf != NULL && strstr(c.buf, "TINFO") != NULL) {
			seen = 1;
			break;
		}
		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
		(void)poll(pfd, (nfds_t)n, runner_poll_timeout(r));
	}
	ok(seen && !runner_done(r), "its output arrives while it runs");
	runner_stop(r);
	deadline = now_ms() + 15000;
	while (!runner_service(r) && now_ms() < deadline) {
		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
		(void)poll(pfd, (nfds_t)n, runner_poll_timeout(r));
	}
	res = runner_result(r);
	ok(runner_done(r) && res->stopped && !res->lost && !res->exited,
	    "a stop ends it on the box, which reports (signal %d)",
	    res->signo);
	runner_free(r);
	ok(!process_alive("escape pgrp hang 74"), "nothing of it is left");
	is_int(box_leftovers(), 0, "its TMPDIR is gone or empty");
	free(c.buf);
	diag_free(&dl);
}

/* Runs the runner until it is done or deadline_ms pass; 1 if done. */
static int
serve(struct runner *r, int deadline_ms, struct cap *c, const char *until)
{
	struct pollfd pfd[RUNNER_NPOLL];
	long long deadline = now_ms() + deadline_ms;
	int n;

	while (!runner_service(r) && now_ms() < deadline) {
		if (until != NULL && c->buf != NULL &&
		    strstr(c->buf, until) != NULL)
			return 0;
		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
		(void)poll(pfd, (nfds_t)n, runner_poll_timeout(r));
	}
	return runner_done(r);
}

/* Polls until no process whose command line holds s is left. */
static int
gone_within(const char *s, int ms)
{
	long long deadline = now_ms() + ms;

	while (process_alive(s)) {
		if (now_ms() >= deadline)
			return 0;
		(void)poll(NULL, 0, 50);
	}
	return 1;
}

/*
 * A test on the box runs change on its TMPDIR and ends cleanly; the
 * next one must get a fresh directory, of mode 1777 and ours.
 */
static void
box_tmpdir_change(struct remote *rm, const char *change, const char *what)
{
	struct runner_result res;
	struct runner_opts o;
	struct diaglist dl;
	struct cap c;
	char cmd[512], dir[1024] = "";
	const char *ls;

	diag_init(&dl);
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 10000);
	snprintf(cmd, sizeof(cmd), "echo \"$TMPDIR\"; %s", change);
	ok(runner_run(&o, cmd, &res, &dl) == 0 && res.exited &&
	    res.exit_code == 0, "%s", what);
	if (c.buf != NULL)
		snprintf(dir, sizeof(dir), "%.*s", (int)strcspn(c.buf, "\n"),
		    c.buf);
	free(c.buf);
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 10000);
	ok(runner_run(&o, "echo \"$TMPDIR\"; ls -ldn \"$TMPDIR\"", &res,
	    &dl) == 0 && res.exited && res.exit_code == 0, "... the next test "
	    "runs");
	/* A new one may have the old one's name: its mode tells. */
	ok(dir[0] != '\0' && c.buf != NULL && strncmp(c.buf, dir,
	    strlen(dir)) == 0, "... below the agent's directory, as %s",
	    dir);
	ls = c.buf != NULL && strchr(c.buf, '\n') != NULL ?
	    strchr(c.buf, '\n') + 1 : "";
	ok(strncmp(ls, "drwxrwxrwt ", 11) == 0 && strstr(ls, " 65534 ") ==
	    NULL, "... of mode 1777, ours: %.*s", (int)strcspn(ls, "\n"),
	    ls);
	free(c.buf);
	diag_free(&dl);
}

/*
 * Tests one after another go to the agent already there: nothing of
 * one reaches the next (its settings, its directory), a test that
 * reads stdin reads EOF and not the agent's lines, a stop goes as a
 * line and kills the test's whole session, and the agent stays.
 */
static void
test_agent(struct remote *rm)
{
	char *const leak[] = { (char *)"LEAKY=set by the first", NULL };
	const struct runner_result *rp;
	struct runner_result res;
	struct runner_opts o;
	struct diaglist dl;
	struct runner *r;
	struct cap c;
	char first[1200] = "", want[1200];
	unsigned int n1;
	long long t0;

	diag_init(&dl);
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 30000);
	o.env_extra = leak;
	ok(runner_run(&o, "echo \"[$LEAKY]\"; pwd; cd /; echo moved", &res,
	    &dl) == 0 && res.exited && res.exit_code == 0, "a test that is "
	    "given a setting and moves runs on the box");
	has_str(c.buf, "[set by the first]\n", "... with its setting");
	if (c.buf != NULL && strchr(c.buf, '\n') != NULL)
		snprintf(first, sizeof(first), "%.*s",
		    (int)strcspn(strchr(c.buf, '\n') + 1, "\n"),
		    strchr(c.buf, '\n') + 1);
	snprintf(want, sizeof(want), "%s/ltpscope.", boxtmp);
	ok(strncmp(first, want, strlen(want)) == 0, "... in its TMPDIR: %s",
	    first);
	n1 = remote_agents_started(rm);
	free(c.buf);
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 30000);
	ok(runner_run(&o, "echo \"[$LEAKY]\"; pwd; echo \"$TMPDIR\"", &res,
	    &dl) == 0 && res.exited && res.exit_code == 0, "the next test "
	    "runs");
	snprintf(want, sizeof(want), "[]\n%s\n%s\n", first, first);
	is_str(c.buf, want, "... without the first's setting, in the same "
	    "(empty) TMPDIR, not where the first moved");
	free(c.buf);

	/* stdin is /dev/null: the agent's next line is not the test's. */
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 10000);
	t0 = now_ms();
	ok(runner_run(&o, "cat; read x; echo \"got[$x]\"", &res, &dl) == 0
	    && res.exited && res.exit_code == 0 && !res.timed_out,
	    "a test that reads stdin reads EOF at once (%lld ms)",
	    now_ms() - t0);
	is_str(c.buf, "got[]\n", "... and nothing of the agent's");
	free(c.buf);
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 10000);
	ok(runner_run(&o, "echo after", &res, &dl) == 0 && res.exited &&
	    res.exit_code == 0, "the agent runs the next test");
	is_str(c.buf, "after\n", "... whole");
	free(c.buf);

	/* A TMPDIR whose mode a test changed is not handed on. */
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 10000);
	ok(runner_run(&o, "chmod 700 \"$TMPDIR\"", &res, &dl) == 0 &&
	    res.exited && res.exit_code == 0, "a test makes its TMPDIR 0700");
	free(c.buf);
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 10000);
	ok(runner_run(&o, "ls -ld \"$TMPDIR\"", &res, &dl) == 0 &&
	    res.exited && res.exit_code == 0, "the next test looks at its own");
	ok(c.buf != NULL && strncmp(c.buf, "drwxrwxrwt", 10) == 0, "... mode "
	    "1777 again: %.10s", c.buf != NULL ? c.buf : "");
	free(c.buf);
	/* Nor one a test gave away, still empty and sticky. */
	box_tmpdir_change(rm, "chown 65534 \"$TMPDIR\"", "a test gives its "
	    "empty, sticky TMPDIR to uid 65534");

	/* The agent ignores SIGPIPE; the test does not. */
	if (access("/proc/self/status", R_OK) == 0) {
		const char *sigs = "grep -e SigIgn -e SigBlk /proc/self/status";
		struct cap lc;

		memset(&c, 0, sizeof(c));
		memset(&lc, 0, sizeof(lc));
		runner_opts_for(&o, NULL, &lc, 10000);
		(void)runner_run(&o, sigs, &res, &dl);
		runner_opts_for(&o, rm, &c, 10000);
		ok(runner_run(&o, sigs, &res, &dl) == 0 && lc.buf != NULL && c.buf != NULL &&
		    strcmp(c.buf, lc.buf) == 0, "the test's signals are as "
		    "here: %s", c.buf != NULL ? c.buf : "");
		free(c.buf);
		free(lc.buf);
	}

	/* A stop: a line to the agent, the whole session goes. */
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 60000);
	if (ok((r = runner_start(&o, "escape nest hang 78", &dl)) != NULL,
	    "a test with a child in its own group and a grandchild in its "
	    "own session starts")) {
		ok(!serve(r, 15000, &c, "grandchild") && c.buf != NULL &&
		    strstr(c.buf, "grandchild") != NULL, "... they run");
		runner_stop(r);
		ok(serve(r, 15000, &c, NULL), "a stop ends it");
		rp = runner_result(r);
		ok(rp->stopped && !rp->lost && !rp->exited && rp->signo != 0,
		    "... the box says how (signal %d)", rp->signo);
		runner_free(r);
		ok(gone_within("escape nest hang 78", 10000), "its child and "
		    "grandchild are gone too");
	}
	free(c.buf);
	is_int((int)(remote_agents_started(rm) - n1), 0, "every test of "
	    "these went to the agent already there");
	is_int(box_leftovers(), 0, "nothing of them is left on the box");
	diag_free(&dl);
}

/*
 * A connection closed: its agents remove their directories on the box.
 * A connection dropped mid-test (the master killed): the agent kills
 * the test there, session and all, and goes.
 */
static struct remote *
test_dropped(struct remote *rm)
{
	struct runner_opts o;
	struct diaglist dl;
	struct runner *r;
	struct cap c;
	long long deadline;
	long master;

	remote_close(rm);
	is_int(dir_entries(boxtmp), 0, "a closed connection's agents have "
	    "removed their directories on the box");
	diag_init(&dl);
	if (!ok((rm = open_box(&dl)) != NULL, "a new connection: %s",
	    tap_first_diag(&dl)))
		return NULL;
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 60000);
	if (!ok((r = runner_start(&o, "escape nest hang 79", &dl)) != NULL,
	    "a hanging test with escaped children starts")) {
		diag_free(&dl);
		return rm;
	}
	ok(!serve(r, 15000, &c, "grandchild") && c.buf != NULL &&
	    strstr(c.buf, "grandchild") != NULL, "... they run");
	master = our_ssh("-oControlMaster=yes");
	ok(master > 0 && kill((pid_t)master, SIGKILL) == 0, "the connection "
	    "drops (its master killed)");
	ok(serve(r, 20000, &c, NULL) && runner_result(r)->lost,
	    "the test's end is unknown here");
	runner_free(r);
	ok(gone_within("escape nest hang 79", 15000), "the box has killed "
	    "it, its child and grandchild");
	deadline = now_ms() + 10000;
	while (dir_entries(boxtmp) != 0 && now_ms() < deadline)
		(void)poll(NULL, 0, 50);
	is_int(dir_entries(boxtmp), 0, "... and the agent's directory is "
	    "gone");
	free(c.buf);
	remote_close(rm);
	rm = open_box(&dl);
	ok(rm != NULL, "a new connection: %s", tap_first_diag(&dl));
	diag_free(&dl);
	return rm;
}

/*
 * Drops durations, which differ: "PASS  open01  0.01s  2 pass" ->
 * "PASS open01 2 pass", "timed out after 2.0 s" -> "timed out after s".
 */
static char *
run_lines(const char *out)
{
	char *copy = xstrdup(out), *line, *save = NULL, *w, *wsave;
	char *res = xcalloc(2, strlen(out) + 1), *end = res;
	size_t n;

	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		for (w = strtok_r(line, " ", &wsave); w != NULL;
		    w = strtok_r(NULL, " ", &wsave)) {
			if (w[0] >= '0' && w[0] <= '9' &&
			    strchr(w, '.') != NULL)
				continue;
			n = strlen(w);
			memcpy(end, w, n);
			end += n;
			*end++ = ' ';
		}
		*end++ = '\n';
	}
	*end = '\0';
	free(copy);
	return res;
}

/* ltpscope run --host stores what the same local run stores. */
static void
test_cli(void)
{
	char cmd[8192], db[1200], *out, *lout, *a, *b;
	int st;

	snprintf(db, sizeof(db), "%s/local.db", tap_tmpdir());
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s --timeout 2 --pipe "
	    "-v </dev/null 2>&1", bin, db, root);
	lout = tap_run(cmd, &st, 0);
	snprintf(db, sizeof(db), "%s/remote.db", tap_tmpdir());
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s --timeout 2 --pipe "
	    "-v --host %s --ssh-config %s </dev/null 2>&1", bin, db, root,
	    box.spec, box.config);
	out = tap_run(cmd, &st, 0);
	is_int(st, 1, "run --host exits as the local run does (failures)");
	a = run_lines(out);
	b = run_lines(lout);
	is_str(a, b, "the same verdicts and the same output shown, "
	    "escapes made harmless the same way");
	has_str(out, "coloured pass", "the escapes test's output is shown");
	ok(strchr(out, '\033') == NULL, "no escape byte reaches the "
	    "terminal");
	free(a);
	free(b);
	free(out);
	free(lout);
	snprintf(cmd, sizeof(cmd), "%s runs -d %s 2>&1", bin, db);
	out = tap_run(cmd, &st, 0);
	has_str(out, box.spec, "the run records the box");
	free(out);
	snprintf(cmd, sizeof(cmd), "sqlite3 %s \"SELECT config FROM runs\"",
	    db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "host=", "... and how to reach it again");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s --host nobody@-x "
	    "open01 2>&1", bin, db, root);
	out = tap_run(cmd, &st, 0);
	is_int(st, 1, "a bad --host fails");
	has_str(out, "bad host name", "... and says why");
	free(out);
}

static void
write_text(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL) {
		tap_diag("%s: cannot write", path);
		return;
	}
	fputs(text, fp);
	fclose(fp);
}

/*
 * The box's own files: a made-up syscalls.master where --box-master
 * says (the box keeps its sources elsewhere), and an LTP install of
 * its own with a runtest file and metadata, none of it named here but
 * by -L: a run on the box selects from them, read through the master
 * connection, and records where they came from.
 */
static void
test_box_files(void)
{
	static const char *const fakes[] = { "pass", "fail", "envdump",
	    NULL };
	const char *t = tap_tmpdir();
	char broot[1200], master[1200], path[2048], db[1200], cmd[8192];
	char kc[1200], kcpath[1200], *out, *p;
	struct utsname u;
	int st;

	uname(&u);
	snprintf(broot, sizeof(broot), "%s/boxltp", t);
	tap_fake_ltproot(broot, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", broot);
	write_text(path, "frobnicate01 pass\nfrobnicate02 fail\n"
	    "zzfrob01 pass\nopen01 pass\n");
	snprintf(path, sizeof(path), "%s/runtest/kconf", broot);
	write_text(path, "kconf01 envdump kconfig\n");
	snprintf(path, sizeof(path), "%s/metadata", broot);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/metadata/ltp.json", broot);
	write_text(path, "{\"tests\": {\"zzfrob01\": {\"groups\": "
	    "[\"frobnicate\"], \"fname\": \"zzfrob01.c\"}}}\n");
	snprintf(path, sizeof(path), "%s/boxsrc", t);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/boxsrc/%s", t, u.machine);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/boxsrc/%s/syscalls.master", t,
	    u.machine);
	write_text(path, "\t$made-up box table $\n%%\n"
	    "0\tSTD\t\t{ int|linux_sys||frobnicate(int fd); }\n"
	    "2\tSTD\t\t{ int|linux_sys||open(const char *path, "
	    "int flags); }\n");
	snprintf(master, sizeof(master), "%s/boxsrc/%%m/syscalls.master", t);
	snprintf(db, sizeof(db), "%s/boxfiles.db", t);

	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s --host %s "
	    "--ssh-config %s --box-master %s -s frobnicate --dry-run "
	    "</dev/null 2>&1", bin, db, broot, box.spec, box.config, master);
	out = tap_run(cmd, &st, 0);
	if (!is_int(st, 0, "run --host --dry-run selects from the box's "
	    "files"))
		tap_diag("%s", out != NULL ? out : "");
	ok(out != NULL && strstr(out, "frobnicate01") != NULL &&
	    strstr(out, "frobnicate02") != NULL && strstr(out, " open01") ==
	    NULL, "... the calls of its syscalls.master, the tests of its "
	    "runtest file");
	has_str(out, "zzfrob01                 frobnicate", "... mapped by "
	    "its metadata");
	snprintf(path, sizeof(path), "catalogue: box:%s/boxsrc/%s/"
	    "syscalls.master\n", t, u.machine);
	has_str(out, path, "it says which syscalls.master, %%m its uname -m");
	snprintf(path, sizeof(path), "runtests: box:%s/runtest/syscalls\n",
	    broot);
	has_str(out, path, "... which runtest file");
	snprintf(path, sizeof(path), "metadata: box:%s/metadata/ltp.json\n",
	    broot);
	has_str(out, path, "... which metadata");
	snprintf(path, sizeof(path), "the box's files are kept in %s/boxes/"
	    "%s\n", t, box.spec);
	has_str(out, path, "... and where it keeps them: beside the "
	    "database");
	free(out);
	snprintf(path, sizeof(path), "%s/boxes/%s/runtest/syscalls", t,
	    box.spec);
	out = tap_slurp(path, NULL);
	has_str(out, "frobnicate02 fail\n", "the copy of the runtest file");
	free(out);

	/* The box's file changes: the next run reads it again. */
	snprintf(path, sizeof(path), "%s/runtest/syscalls", broot);
	write_text(path, "frobnicate01 pass\nfrobnicate02 fail\n"
	    "zzfrob01 pass\nopen01 pass\nfrobnicate03 pass\n");
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s --host %s "
	    "--ssh-config %s --box-master %s -s frobnicate --timeout 10 "
	    "</dev/null 2>&1", bin, db, broot, box.spec, box.config, master);
	out = tap_run(cmd, &st, 0);
	if (!is_int(st, 1, "a real run from the box's files (a failure)"))
		tap_diag("%s", out != NULL ? out : "");
	has_str(out, "PASS        frobnicate03", "what the box has now runs");
	has_str(out, "FAIL        frobnicate02", "... all of it");
	free(out);
	is_int(db_number(db, "SELECT count(*) FROM results"), 4, "four "
	    "results: the box's selection");
	snprintf(cmd, sizeof(cmd), "sqlite3 %s \"SELECT config FROM runs\"",
	    db);
	out = tap_run(cmd, &st, 0);
	snprintf(path, sizeof(path), "catalogue=box:%s/boxsrc/%s/"
	    "syscalls.master\n", t, u.machine);
	has_str(out, path, "the run records the box's syscalls.master");
	snprintf(path, sizeof(path), "runtests=box:%s/runtest/syscalls\n",
	    broot);
	has_str(out, path, "... its runtest file");
	snprintf(path, sizeof(path), "metadata=box:%s/metadata/ltp.json\n",
	    broot);
	has_str(out, path, "... its metadata");
	free(out);

	/* Local copies win. */
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s --host %s "
	    "--ssh-config %s -m data/demo/linux-amd64-syscalls.master "
	    "--no-metadata -s open --dry-run </dev/null 2>&1", bin, db, broot,
	    box.spec, box.config);
	out = tap_run(cmd, &st, 0);
	has_str(out, "catalogue: data/demo/linux-amd64-syscalls.master\n",
	    "-m: the local table, not the box's");
	has_str(out, "metadata: none (--no-metadata)", "... and no metadata");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s --host %s "
	    "--ssh-config %s --box-master /nonexistent/%%m/syscalls.master "
	    "--dry-run </dev/null 2>&1", bin, db, broot, box.spec,
	    box.config);
	out = tap_run(cmd, &st, 0);
	is_int(st, 1, "a missing syscalls.master on the box fails");
	snprintf(path, sizeof(path), "%s: /nonexistent/%s/syscalls.master: "
	    "no such file on the box", box.spec, u.machine);
	has_str(out, path, "... naming the box and the path");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s --host %s "
	    "--ssh-config %s --box-master %s -f nosuch --dry-run </dev/null "
	    "2>&1", bin, db, broot, box.spec, box.config, master);
	out = tap_run(cmd, &st, 0);
	snprintf(path, sizeof(path), "%s: %s/runtest/nosuch: no such file on "
	    "the box", box.spec, broot);
	has_str(out, path, "so does a runtest file it lacks");
	free(out);

	/* --kconfig: the box gets a copy, the tests its path. */
	snprintf(kc, sizeof(kc), "%s/box-kconfig", t);
	write_text(kc, "# made-up kconfig for the box\nCONFIG_FROB=y\n");
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s --host %s "
	    "--ssh-config %s --box-master %s -f kconf --kconfig %s -v "
	    "</dev/null 2>&1", bin, db, broot, box.spec, box.config, master,
	    kc);
	out = tap_run(cmd, &st, 0);
	if (!is_int(st, 0, "a run on the box with --kconfig"))
		tap_diag("%s", out != NULL ? out : "");
	has_str(out, "kconfig_first=# made-up kconfig for the box\n", "the "
	    "test on the box reads the config at KCONFIG_PATH");
	kcpath[0] = '\0';
	if (out != NULL && (p = strstr(out, "KCONFIG_PATH=")) != NULL)
		snprintf(kcpath, sizeof(kcpath), "%.*s", (int)strcspn(p + 13,
		    "\r\n"), p + 13);
	ok(strstr(kcpath, "/ltpscope-box.") != NULL && strcmp(kcpath, kc) !=
	    0, "... a copy on the box, in a directory of the run's (%s)",
	    kcpath);
	ok(kcpath[0] != '\0' && access(kcpath, F_OK) == -1, "the copy is "
	    "gone when the run ends");
	free(out);
	snprintf(cmd, sizeof(cmd), "sqlite3 %s \"SELECT config FROM runs "
	    "ORDER BY id DESC LIMIT 1\"", db);
	out = tap_run(cmd, &st, 0);
	snprintf(path, sizeof(path), "box_kconfig=%s\n", kc);
	has_str(out, path, "the run records the config it sent, for "
	    "--resume");
	free(out);
}

/* The box goes away mid-test: that is not a test's end. */
static void
test_lost(struct remote *rm)
{
	struct pollfd pfd[RUNNER_NPOLL];
	struct runner_opts o;
	struct runner *r;
	struct diaglist dl;
	struct cap c;
	const struct runner_result *res;
	long long deadline;
	int n;

	memset(&c, 0, sizeof(c));
	diag_init(&dl);
	runner_opts_for(&o, rm, &c, 60000);
	if (!ok((r = runner_start(&o, "hang", &dl)) != NULL,
	    "a hanging test starts on the box"))
		return;
	deadline = now_ms() + 15000;
	while (!runner_service(r) && now_ms() < deadline &&
	    (c.buf == NULL || strstr(c.buf, "TINFO") == NULL)) {
		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
		(void)poll(pfd, (nfds_t)n, runner_poll_timeout(r));
	}
	/* The box dies: sshd and every session it served. */
	sshd_stop(&box);
	deadline = now_ms() + 20000;
	while (!runner_service(r) && now_ms() < deadline) {
		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
		(void)poll(pfd, (nfds_t)n, runner_poll_timeout(r));
	}
	res = runner_result(r);
	ok(runner_done(r) && res->lost && !res->exited && res->signo == 0,
	    "a box gone mid-test: the test's end is unknown, not a signal");
	runner_free(r);
	free(c.buf);
	diag_free(&dl);
}

/* A number from the database (sqlite3 prints it), or -1. */
static long
db_number(const char *db, const char *sql)
{
	char cmd[2048], *out;
	long v = -1;
	int st;

	snprintf(cmd, sizeof(cmd), "sqlite3 %s \"%s\" 2>/dev/null", db, sql);
	out = tap_run(cmd, &st, 0);
	if (st == 0 && out != NULL && out[0] >= '0' && out[0] <= '9')
		v = atol(out);
	free(out);
	return v;
}

/* Starts ltpscope with args in the background, output to log. */
static pid_t
start_bg(const char *args, const char *log)
{
	char cmd[8192];
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "exec %s %s </dev/null >%s 2>&1", bin,
	    args, log);
	if ((pid = fork()) == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* Waits up to ms for pid; its status, or -1 (then it is killed). */
static int
wait_bg(pid_t pid, int ms)
{
	long long deadline = now_ms() + ms;
	int st;

	while (now_ms() < deadline)
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		else
			(void)poll(NULL, 0, 50);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

/*
 * The box's kernel log: its dmesg (first in the box's PATH, see
 * sshd.h) prints kmsg, which a test's "reboot" fills with a panic.
 */
static void
fake_dmesg(void)
{
	char path[1200];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/bin/dmesg", box.dir);
	fp = fopen(path, "w");
	fprintf(fp, "#!/bin/sh\ncat %s/kmsg 2>/dev/null\n", box.dir);
	fclose(fp);
	chmod(path, 0755);
	snprintf(path, sizeof(path), "%s/kmsg", box.dir);
	fp = fopen(path, "w");
	fprintf(fp, "[     1.000000] NetBSD 10.1 (GENERIC) #0\n"
	    "[     1.000000] total memory = 2047 MB\n");
	fclose(fp);
}

/*
 * What a panic leaves in the kernel's message buffer, as a NetBSD
 * kernel words it, then the next boot: a shell command appending it to
 * file.
 */
static void
panic_command(const char *file, const char *why, char *buf, size_t len)
{
	snprintf(buf, len, "printf '%%s\\n' '[   812.345678] fatal page "
	    "fault in supervisor mode' '[   812.345678] trap type 6 code 0x2 "
	    "rip 0xffffffff80a0b1c2' '[   812.345678] panic: %s' "
	    "'[   812.345678] cpu0: Begin traceback...' "
	    "'[   812.345678] linux_sys_pause() at "
	    "netbsd:linux_sys_pause+0x1c' "
	    "'[     1.000000] NetBSD 10.1 (GENERIC) #0' >>'%s'", why, file);
}

/* What show --output says of tag in db. */
static char *
show_output(const char *db, const char *tag)
{
	char cmd[4096];
	int st;

	snprintf(cmd, sizeof(cmd), "%s show last -d %s --output %s 2>&1", bin,
	    db, tag);
	return tap_run(cmd, &st, 0);
}

/*
 * Waits for the culprit-to-be to be running and to have said its
 * first line (run -v shows it in the log), then kills the box.
 */
static void
crash_box_when(const char *log, const char *text)
{
	char *out = NULL;
	long long deadline = now_ms() + 30000;

	while (now_ms() < deadline && ((out = tap_slurp(log, NULL)) ==
	    NULL || strstr(out, text) == NULL)) {
		free(out);
		out = NULL;
		(void)poll(NULL, 0, 50);
	}
	free(out);
	sshd_stop(&box);
}

static void
crash_box_during(const char *db, const char *tag, const char *log)
{
	char sql[256], *out = NULL;
	long long deadline = now_ms() + 30000;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM results WHERE "
	    "tag = '%s' AND status = 9", tag);
	while (now_ms() < deadline && db_number(db, sql) != 1)
		(void)poll(NULL, 0, 50);
	while (now_ms() < deadline && ((out = tap_slurp(log, NULL)) ==
	    NULL || strstr(out, "waiting for a signal") == NULL)) {
		free(out);
		out = NULL;
		(void)poll(NULL, 0, 50);
	}
	free(out);
	sshd_stop(&box);
}

/*
 * --reboot-cmd: the box dies mid-run, the command brings it back after
 * a few tries of the wait, and the same ltpscope finishes the run.
 */
static void
test_reboot(const char *rt)
{
	char db[1200], log[1200], reboot[4400], args[8192], *out;
	char kmsg[1200], panic[2048], skip[1200], cmd[2048];
	struct utsname u;
	pid_t pid;
	int st;

	snprintf(db, sizeof(db), "%s/reboot.db", tap_tmpdir());
	snprintf(log, sizeof(log), "%s/reboot.log", tap_tmpdir());
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", box.dir);
	snprintf(skip, sizeof(skip), "%s/ltpscope/skiplist", tap_tmpdir());
	(void)unlink(skip);
	panic_command(kmsg, "kernel diagnostic assertion \"l->l_stat == "
	    "LSONPROC\" failed", panic, sizeof(panic));
	sshd_reboot_command(&box, 3, cmd, sizeof(cmd));
	snprintf(reboot, sizeof(reboot), "%s; %s", panic, cmd);
	snprintf(args, sizeof(args), "run -v -d %s -L %s -f %s --timeout 60 "
	    "--host %s --ssh-config %s --box-wait 60 --skip-culprit "
	    "--reboot-cmd \"$R\"", db, root, rt, box.spec, box.config);
	setenv("R", reboot, 1);
	pid = start_bg(args, log);
	crash_box_during(db, "pause01", log);
	st = wait_bg(pid, 90000);
	out = tap_slurp(log, NULL);
	if (!ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1,
	    "the run survives its box's crash and ends (status %#x)", st))
		tap_diag("%s", out != NULL ? out : "");
	has_str(out, "stopped answering while running pause01", "it names "
	    "the test that was running");
	has_str(out, "running --reboot-cmd", "it runs --reboot-cmd");
	has_str(out, "try 2 failed", "it waits for the box, backing off");
	has_str(out, "is back after", "the box comes back");
	has_str(out, "resuming run 1 on", "the run goes on by itself");
	has_str(out, "crash: pause01", "... with the culprit marked");
	has_str(out, "pause01 crashed " , "it reads what the kernel said");
	has_str(out, "FAIL        open02", "the rest runs");
	has_str(out, "run 1: 3 of 3 tests done: 1 pass, 1 fail, 0 broken, "
	    "1 crash\n", "the summary counts the whole run, not what ran "
	    "after the crash");
	has_str(out, "1 crash (the box stopped answering):\n  crash pause01: "
	    "panic: kernel diagnostic assertion \"l->l_stat == LSONPROC\" "
	    "failed\n", "the summary: how many crashes, which tests, the "
	    "panic of each");
	free(out);
	is_int(db_number(db, "SELECT status FROM results WHERE "
	    "tag = 'pause01'"), 11, "the culprit is a crash");
	out = show_output(db, "pause01");
	has_str(out, "waiting for a signal that never comes", "its output "
	    "until the box stopped answering is kept");
	has_str(out, "ltpscope: kernel (dmesg on ", "what dmesg said is kept "
	    "with it");
	has_str(out, "fatal page fault in supervisor mode\n", "... the "
	    "lines around the panic");
	has_str(out, "linux_sys_pause() at netbsd:", "... and the "
	    "traceback");
	free(out);
	snprintf(reboot, sizeof(reboot), "%s export -d %s --format md 2>&1",
	    bin, db);
	out = tap_run(reboot, &st, 0);
	has_str(out, "pause01", "the shopping list has the crash");
	has_str(out, "kernel: panic: kernel diagnostic assertion", "... with "
	    "its panic for a first line");
	free(out);
	out = tap_slurp(skip, NULL);
	snprintf(reboot, sizeof(reboot), "pause01\tos=Linux\tarch=%s\t"
	    "crashed ", uname(&u) == 0 ? u.machine : "?");
	has_str(out, reboot, "--skip-culprit puts it on the skip list, for "
	    "the box's system and arch");
	free(out);
	is_int(db_number(db, "SELECT status FROM results WHERE "
	    "tag = 'open01'"), 0, "what ran before is kept");
	is_int(db_number(db, "SELECT count(*) FROM results"), 3,
	    "nothing lost, nothing ran twice");
	is_int(db_number(db, "SELECT count(*) FROM runs WHERE state = "
	    "'finished'"), 1, "the run is finished");
}

/*
 * --console FILE: the box's serial console is logged here; what it
 * said since the run began goes with the crash, not dmesg's words,
 * nor what the console said before.
 */
static void
test_console(const char *rt)
{
	char db[1200], log[1200], con[1200], reboot[4400], args[8192];
	char panic[2048], cmd[2048], *out;
	FILE *fp;
	pid_t pid;
	int st;

	snprintf(db, sizeof(db), "%s/console.db", tap_tmpdir());
	snprintf(log, sizeof(log), "%s/console.log", tap_tmpdir());
	snprintf(con, sizeof(con), "%s/console.txt", tap_tmpdir());
	/* test_reboot's culprit would not run. */
	snprintf(cmd, sizeof(cmd), "%s/ltpscope/skiplist", tap_tmpdir());
	(void)unlink(cmd);
	fp = fopen(con, "w");
	fprintf(fp, "[   1.0] panic: an old crash, before this run\r\n");
	fclose(fp);
	panic_command(con, "from the serial console", panic, sizeof(panic));
	sshd_reboot_command(&box, 1, cmd, sizeof(cmd));
	snprintf(reboot, sizeof(reboot), "%s; %s", panic, cmd);
	setenv("R", reboot, 1);
	snprintf(args, sizeof(args), "run -v -d %s -L %s -f %s --timeout 60 "
	    "--host %s --ssh-config %s --box-wait 60 --console %s "
	    "--reboot-cmd \"$R\"", db, root, rt, box.spec, box.config, con);
	pid = start_bg(args, log);
	crash_box_during(db, "pause01", log);
	st = wait_bg(pid, 90000);
	out = tap_slurp(log, NULL);
	if (!ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1,
	    "a run with --console survives its box's crash (status %#x)",
	    st))
		tap_diag("%s", out != NULL ? out : "");
	has_str(out, "crash pause01: panic: from the serial console\n",
	    "the summary has the console's panic");
	free(out);
	out = show_output(db, "pause01");
	has_str(out, "ltpscope: kernel (console ", "the console's words go "
	    "with the crash");
	ok(out != NULL && strstr(out, "an old crash") == NULL, "... not what "
	    "it said before the run");
	ok(out != NULL && strstr(out, "LSONPROC") == NULL, "... nor dmesg's");
	free(out);
}

/*
 * The explorer in tmux on the demo catalogue and the LTP install at
 * ltproot, the configuration under tap_tmpdir() (written by the
 * caller), env set before it ("" for none): 0 once it shows, else -1
 * with its screen told and tmux gone.
 */
static int
ui_start(const char *env, const char *ltproot, const char *rt,
    const char *db, const char *what)
{
	const char *t = tap_tmpdir();
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "env %sXDG_CONFIG_HOME=%s XDG_DATA_HOME=%s "
	    "XDG_STATE_HOME=%s %s ui -m data/demo/linux-amd64-syscalls.master "
	    "-L %s -f %s -d %s", env, t, t, t, bin, ltproot, rt, db);
	if (ok(tmux_start(cmd, 120, 30) == 0 && tmux_wait_for("syscalls,",
	    8000), "%s", what))
		return 0;
	tap_diag("screen:\n%s", tmux_screen());
	tmux_stop();
	return -1;
}

/*
 * The explorer on a box: the host from the config file, a run there,
 * the box lost mid-test (a crash), and the run resumed there once the
 * box is back, with the kernel's words.
 */
static void
test_ui(const char *rt)
{
	const char *t = tap_tmpdir();
	char db[1200], cfg[1200], cmd[8192], kmsg[1200], *out;
	FILE *fp;
	int st;

	snprintf(db, sizeof(db), "%s/ui.db", t);
	snprintf(cfg, sizeof(cfg), "%s/ltpscope/config", t);
	snprintf(cmd, sizeof(cmd), "%s/ltpscope", t);
	(void)mkdir(cmd, 0755);
	(void)unlink(cmd);
	snprintf(cmd, sizeof(cmd), "%s/ltpscope/skiplist", t);
	(void)unlink(cmd);
	fp = fopen(cfg, "w");
	fprintf(fp, "# the box\nhost %s\nssh-config %s\n", box.spec,
	    box.config);
	fclose(fp);
	if (ui_start("", root, rt, db, "the explorer starts") != 0) {
		unlink(cfg);
		return;
	}
	tmux_keys(":");
	tmux_keys("-l 'run open01 open02'");
	tmux_keys("Enter");
	if (!ok(tmux_wait_for("finished: 1 pass, 1 fail", 30000), "a run "
	    "from the explorer, on the box of the config file"))
		tap_diag("screen:\n%s", tmux_screen());
	snprintf(cmd, sizeof(cmd), "SELECT count(*) FROM runs WHERE host = "
	    "'%s'", box.spec);
	is_int(db_number(db, cmd), 1, "the run names the box");
	tmux_keys(":");
	tmux_keys("-l 'run pause01'");
	tmux_keys("Enter");
	if (!ok(tmux_wait_for("waiting for a signal", 30000), "the test's "
	    "words stream from the box"))
		tap_diag("screen:\n%s", tmux_screen());
	sshd_stop(&box);
	if (!ok(tmux_wait_for("stopped answering while running pause01 "
	    "(crash)", 30000), "the explorer says the box stopped answering"))
		tap_diag("screen:\n%s", tmux_screen());
	is_int(db_number(db, "SELECT status FROM results WHERE tag = "
	    "'pause01'"), 11, "the test is a crash");
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", box.dir);
	panic_command(kmsg, "seen by the explorer", cmd, sizeof(cmd));
	out = tap_run(cmd, &st, 0);
	free(out);
	if (ok(sshd_restart(&box) == 0, "the box is back")) {
		tmux_keys("y");
		if (!ok(tmux_wait_for("crashed", 30000) &&
		    tmux_wait_for("panic: seen by the explorer", 5000),
		    "resumed there: the kernel's words in the pane"))
			tap_diag("screen:\n%s", tmux_screen());
	}
	tmux_keys("q q q");
	ok(tmux_wait_dead(5000), "q quits");
	tmux_stop();
	out = show_output(db, "pause01");
	has_str(out, "ltpscope: kernel (dmesg on ", "the kernel's words are "
	    "stored with the crash");
	free(out);
	unlink(cfg);
}

/*
 * The explorer's skip list holds as on its box, once the box has told
 * its system and arch: here the explorer plays a NetBSD machine, the
 * box is this Linux one, so neither a test the list keeps off NetBSD
 * nor one it keeps off aarch64 is skipped there.
 */
static void
test_ui_skip_box(void)
{
	const char *t = tap_tmpdir();
	char db[1200], cfg[1200], rt[1200], skip[1200], cmd[8192];

	snprintf(db, sizeof(db), "%s/uiskip.db", t);
	snprintf(cfg, sizeof(cfg), "%s/ltpscope/config", t);
	snprintf(cmd, sizeof(cmd), "%s/ltpscope", t);
	(void)mkdir(cmd, 0755);
	snprintf(skip, sizeof(skip), "%s/ltpscope/skiplist", t);
	tap_write(skip, "close02\tarch=aarch64\tcrashes an aarch64 kernel\n");
	snprintf(rt, sizeof(rt), "%s/uiskip.runtest", t);
	tap_write(rt, "rt_sigqueueinfo01 pass\nclose02 fail\n");
	snprintf(cmd, sizeof(cmd), "# the box\nhost %s\nssh-config %s\n",
	    box.spec, box.config);
	tap_write(cfg, cmd);
	if (ui_start("LTPSCOPE_OS=NetBSD ", root, rt, db, "the explorer "
	    "starts, playing a NetBSD machine") != 0) {
		unlink(cfg);
		unlink(skip);
		return;
	}
	tmux_keys(":");
	tmux_keys("-l 'run -s rt_sigqueueinfo,close'");
	tmux_keys("Enter");
	if (!ok(tmux_wait_for("finished: 1 pass, 1 fail", 30000), "on its "
	    "Linux amd64 box, neither NetBSD's nor aarch64's skip entries "
	    "hold"))
		tap_diag("screen:\n%s", tmux_screen());
	is_int(db_number(db, "SELECT count(*) FROM results WHERE status IN "
	    "(0, 1)"), 2, "both tests ran there");
	tmux_keys("q q q");
	ok(tmux_wait_dead(5000), "q quits");
	tmux_stop();
	unlink(cfg);
	unlink(skip);
}

/*
 * The explorer with a reboot-cmd in the config: a crash runs it, the
 * wait for the box counts down and backs off on the status line, and
 * the run goes on there by itself once the box is back.
 */
static void
test_ui_reboot(const char *rt)
{
	const char *t = tap_tmpdir();
	char db[1200], cfg[1200], cmd[8192], up[2048], *out;
	FILE *fp;

	snprintf(db, sizeof(db), "%s/uireboot.db", t);
	snprintf(cfg, sizeof(cfg), "%s/ltpscope/config", t);
	snprintf(cmd, sizeof(cmd), "%s/ltpscope/skiplist", t);
	(void)unlink(cmd);
	/* Back after three tries; the config takes no '#'. */
	sshd_reboot_command(&box, 6, up, sizeof(up));
	fp = fopen(cfg, "w");
	fprintf(fp, "host %s\nssh-config %s\nbox-wait 120\n"
	    "reboot-cmd printf '%%s\\n' '[   9.000000] panic: seen after "
	    "the reboot-cmd' >>'%s/kmsg'; %s\n", box.spec, box.config,
	    box.dir, up);
	fclose(fp);
	if (ui_start("", root, rt, db, "the explorer starts, a reboot-cmd in "
	    "its config") != 0) {
		unlink(cfg);
		return;
	}
	tmux_keys(":");
	tmux_keys("-l 'run pause01 open02'");
	tmux_keys("Enter");
	if (!ok(tmux_wait_for("waiting for a signal", 30000), "a run on the "
	    "box"))
		tap_diag("screen:\n%s", tmux_screen());
	sshd_stop(&box);
	if (!ok(tmux_wait_for("running printf", 30000), "a crash runs the "
	    "reboot-cmd"))
		tap_diag("screen:\n%s", tmux_screen());
	if (!ok(tmux_wait_for("try 2 failed; next in ", 30000),
	    "the wait backs off on the status line"))
		tap_diag("screen:\n%s", tmux_screen());
	/* The pane follows the next test at once: the store tells. */
	if (!ok(tmux_wait_for("finished: 0 pass, 1 fail", 90000), "the box "
	    "back, the run went on there by itself"))
		tap_diag("screen:\n%s", tmux_screen());
	tmux_keys("q q q");
	ok(tmux_wait_dead(5000), "q quits");
	tmux_stop();
	out = show_output(db, "pause01");
	has_str(out, "panic: seen after the reboot-cmd", "the kernel's words "
	    "after the reboot are stored with the crash");
	free(out);
	is_int(db_number(db, "SELECT status FROM results WHERE tag = "
	    "'pause01'"), 11, "the culprit is a crash");
	is_int(db_number(db, "SELECT status FROM results WHERE tag = "
	    "'open02'"), 1, "the rest ran");
	is_int(db_number(db, "SELECT count(*) FROM runs"), 1, "in the same "
	    "run");
	unlink(cfg);
}

/*
 * A second box beside box, in tap_tmpdir()/name, and in cfg one ssh
 * client config for both (each box's key and known hosts).  0, or -1
 * (said).
 */
static int
second_box(struct sshd_box *two, const char *name, char *cfg, size_t len)
{
	char dir[1200], why[256];
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s/%s", tap_tmpdir(), name);
	if (sshd_start(two, dir, why, sizeof(why)) != 0) {
		ok(0, "a second box: %s", why);
		return -1;
	}
	snprintf(cfg, len, "%s/%s_config", tap_tmpdir(), name);
	fp = fopen(cfg, "w");
	fprintf(fp, "Host *\n  User %s\n  IdentityFile %s/client_key\n"
	    "  IdentityFile %s/client_key\n  IdentitiesOnly yes\n"
	    "  IdentityAgent none\n  UserKnownHostsFile %s/known_hosts "
	    "%s/known_hosts\n  GlobalKnownHostsFile /dev/null\n"
	    "  StrictHostKeyChecking accept-new\n  CheckHostIP no\n"
	    "  UpdateHostKeys no\n  BatchMode yes\n  LogLevel ERROR\n",
	    box.user, box.dir, two->dir, box.dir, two->dir);
	fclose(fp);
	return 0;
}

/*
 * Two boxes side by side: the same tests on each, a run a box, the
 * result lines told apart, and one box's crash leaving the other's
 * run alone.
 */
static void
test_hosts(const char *rt)
{
	struct sshd_box two;
	char cfg[1200], db[1200], log[1200], args[8192];
	char sql[512], *out;
	pid_t pid;
	int st;

	if (second_box(&two, "box2", cfg, sizeof(cfg)) != 0)
		return;
	snprintf(db, sizeof(db), "%s/hosts.db", tap_tmpdir());
	snprintf(log, sizeof(log), "%s/hosts.log", tap_tmpdir());
	snprintf(args, sizeof(args), "run -v -d %s -L %s -f %s --timeout 10 "
	    "--host %s --host %s --ssh-config %s --box-wait 0", db, root, rt,
	    box.spec, two.spec, cfg);
	pid = start_bg(args, log);
	/* Box two dies during pause01; box one goes on. */
	{
		struct sshd_box keep = box;
		char line[300];

		snprintf(line, sizeof(line), "[%s] hang01.c", two.spec);
		box = two;
		crash_box_when(log, line);
		two = box;
		box = keep;
	}
	st = wait_bg(pid, 90000);
	out = tap_slurp(log, NULL);
	if (!ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1,
	    "both boxes' runs end (status %#x)", st))
		tap_diag("%s", out != NULL ? out : "");
	snprintf(args, sizeof(args), "[%s] FAIL        open02", box.spec);
	has_str(out, args, "box one's lines are marked with it");
	snprintf(args, sizeof(args), "[%s] PASS        open01", two.spec);
	has_str(out, args, "... and box two's with it");
	free(out);
	is_int(db_number(db, "SELECT count(*) FROM runs"), 2, "a run a box");
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM results r JOIN runs "
	    "u ON u.id = r.run_id WHERE u.host = '%s'", box.spec);
	is_int(db_number(db, sql), 3, "box one ran every test");
	snprintf(sql, sizeof(sql), "SELECT r.status FROM results r JOIN runs "
	    "u ON u.id = r.run_id WHERE u.host = '%s' AND r.tag = 'pause01'",
	    two.spec);
	is_int(db_number(db, sql), 11, "box two's pause01 is its crash");
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM results r JOIN runs "
	    "u ON u.id = r.run_id WHERE u.host = '%s' AND r.tag = 'open02'",
	    two.spec);
	is_int(db_number(db, sql), 0, "... its run left for --resume");
	sshd_stop(&two);
}

/* 1 once no process has pid, within ms. */
static int
pid_gone_within(pid_t pid, int ms)
{
	long long deadline = now_ms() + ms;

	while (now_ms() < deadline) {
		if (kill(pid, 0) == -1 && errno == ESRCH)
			return 1;
		(void)poll(NULL, 0, 50);
	}
	return 0;
}

/*
 * The ltpscope of two boxes killed with SIGKILL, which takes no child
 * with it: each box's run notices that it is gone, stops as ^C stops
 * it, and leaves its run to --resume, not running on unseen.
 */
static void
test_hosts_orphaned(void)
{
	struct sshd_box two;
	char cfg[1200], db[1200], log[1200], rt[1200], args[8192], *out;
	long p1, p2;
	pid_t pid;

	if (second_box(&two, "box3", cfg, sizeof(cfg)) != 0)
		return;
	snprintf(db, sizeof(db), "%s/orphan.db", tap_tmpdir());
	snprintf(log, sizeof(log), "%s/orphan.log", tap_tmpdir());
	snprintf(rt, sizeof(rt), "%s/orphan.runtest", tap_tmpdir());
	tap_write(rt, "pause01 hang\npause02 hang\n");
	snprintf(args, sizeof(args), "run -v -d %s -L %s -f %s --timeout 120 "
	    "--host %s --host %s --ssh-config %s --box-wait 0", db, root, rt,
	    box.spec, two.spec, cfg);
	pid = start_bg(args, log);
	{
		long long deadline = now_ms() + 30000;

		while (now_ms() < deadline && db_number(db, "SELECT count(*) "
		    "FROM results WHERE status = 9") != 2)
			(void)poll(NULL, 0, 50);
	}
	p1 = db_number(db, "SELECT min(pid) FROM runs");
	p2 = db_number(db, "SELECT max(pid) FROM runs");
	if (!ok(p1 > 0 && p2 > 0 && p1 != p2 && db_number(db, "SELECT "
	    "count(*) FROM results WHERE status = 9") == 2, "both boxes run "
	    "a test (runs by %ld and %ld)", p1, p2)) {
		kill(pid, SIGTERM);
		(void)wait_bg(pid, 30000);
		sshd_stop(&two);
		return;
	}
	kill(pid, SIGKILL);
	(void)wait_bg(pid, 5000);
	ok(pid_gone_within((pid_t)p1, 30000) &&
	    pid_gone_within((pid_t)p2, 30000),
	    "each box's run ends when the ltpscope that started it is "
	    "killed");
	is_int(db_number(db, "SELECT count(*) FROM runs WHERE state = "
	    "'interrupted'"), 2, "both runs are left interrupted, for "
	    "--resume");
	is_int(db_number(db, "SELECT count(*) FROM results WHERE status = "
	    "9"), 0, "no test is left running");
	out = tap_slurp(log, NULL);
	has_str(out, "the ltpscope that started this box's run is gone",
	    "each says why it stops");
	free(out);
	/* Where they went on, they go now. */
	(void)kill((pid_t)p1, SIGTERM);
	(void)kill((pid_t)p2, SIGTERM);
	(void)pid_gone_within((pid_t)p1, 30000);
	(void)pid_gone_within((pid_t)p2, 30000);
	sshd_stop(&two);
}

/*
 * The box dies while a run is on it: ltpscope leaves the run as a
 * crash leaves it, with the test that was running as the culprit, and
 * --resume finishes it on the box once it is back, nothing run twice.
 */
static void
test_crash_resume(void)
{
	char db[1200], rt[1200], log[1200], cmd[8192], kmsg[1200], *out;
	char skip[1200], line[1400];
	struct utsname u;
	FILE *fp;
	pid_t pid;
	int st;

	snprintf(db, sizeof(db), "%s/crash.db", tap_tmpdir());
	snprintf(rt, sizeof(rt), "%s/crash.runtest", tap_tmpdir());
	snprintf(log, sizeof(log), "%s/crash.log", tap_tmpdir());
	fp = fopen(rt, "w");
	fprintf(fp, "open01 pass\npause01 hang\nopen02 fail\n");
	fclose(fp);
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg", box.dir);
	fake_dmesg();
	snprintf(cmd, sizeof(cmd), "run -v -d %s -L %s -f %s --timeout 60 "
	    "--host %s --ssh-config %s --box-wait 0", db, root, rt, box.spec,
	    box.config);
	pid = start_bg(cmd, log);
	crash_box_during(db, "pause01", log);
	st = wait_bg(pid, 30000);
	ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1, "the run ends "
	    "when its box dies, with --box-wait 0 (status %#x)", st);
	out = tap_slurp(log, NULL);
	has_str(out, "stopped answering", "... and says so");
	free(out);
	is_int(db_number(db, "SELECT count(*) FROM results WHERE "
	    "tag = 'pause01' AND status = 11"), 1, "the test that ran is "
	    "a crash");
	out = show_output(db, "pause01");
	has_str(out, "waiting for a signal that never comes", "with the "
	    "output it gave");
	has_str(out, "stopped answering after", "... and why it ended");
	free(out);
	panic_command(kmsg, "crashed by pause01", cmd, sizeof(cmd));
	out = tap_run(cmd, &st, 0);
	free(out);
	is_int(db_number(db, "SELECT count(*) FROM results WHERE "
	    "tag = 'open02'"), 0, "nothing ran after it");
	if (!ok(sshd_restart(&box) == 0, "the box comes back"))
		return;
	snprintf(skip, sizeof(skip), "%s/ltpscope/skiplist", tap_tmpdir());
	(void)unlink(skip);
	/* Nobody said --skip-culprit when it crashed: now, with --resume. */
	snprintf(cmd, sizeof(cmd), "%s run --resume -d %s --skip-culprit "
	    "</dev/null 2>&1", bin, db);
	out = tap_run(cmd, &st, 0);
	is_int(st, 1, "--resume finishes the run (with its failures)");
	snprintf(line, sizeof(line), "added pause01 to %s", skip);
	has_str(out, line, "--resume --skip-culprit takes the stored crash "
	    "for the skip list");
	has_str(out, "pause01 crashed ", "it reads what the kernel said, "
	    "now that the box is back");
	has_str(out, "open02", "it runs the rest on the box");
	has_str(out, "crash pause01: panic: crashed by pause01\n", "the "
	    "summary names the crash and its panic");
	free(out);
	is_int(db_number(db, "SELECT status FROM results WHERE "
	    "tag = 'pause01'"), 11, "the culprit stays a crash");
	out = show_output(db, "pause01");
	has_str(out, "ltpscope: kernel (dmesg on ", "what dmesg said goes "
	    "with the crash");
	has_str(out, "panic: crashed by pause01\n", "... the panic itself");
	free(out);
	is_int(db_number(db, "SELECT status FROM results WHERE "
	    "tag = 'open02'"), 1, "the rest ran");
	is_int(db_number(db, "SELECT count(*) FROM results"), 3,
	    "nothing ran twice");
	out = tap_slurp(skip, NULL);
	snprintf(line, sizeof(line), "pause01\tos=Linux\tarch=%s\tcrashed "
	    "%s (Linux ", uname(&u) == 0 ? u.machine : "?", box.spec);
	has_str(out, line, "... for the box's system and arch, naming the "
	    "box");
	ok(out != NULL && strstr(strstr(out, "pause01") + 1, "pause01") ==
	    NULL, "... once");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s run --resume 1 -d %s --skip-culprit "
	    "</dev/null 2>&1", bin, db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "pause01 is on ", "again: it is there already");
	free(out);
	out = tap_slurp(skip, NULL);
	ok(out != NULL && strstr(strstr(out, "pause01") + 1, "pause01") ==
	    NULL, "... and stays there once");
	free(out);
	(void)unlink(skip);
	test_reboot(rt);
	test_console(rt);
	test_ui(rt);
	test_ui_skip_box();
	test_ui_reboot(rt);
	test_hosts(rt);
	test_hosts_orphaned();
}

/*
 * sshd hangs up on an agent whose connection dropped: the agent's
 * process group gets SIGHUP.  Its directory goes all the same (and
 * with it, on Linux, the cat that reads /dev/kmsg for it).  The test
 * finds the group by the cat of its own output ($A/p).
 */
static void
test_agent_hangup(void)
{
	struct runner_result res;
	struct runner_opts o;
	struct diaglist dl;
	struct remote *rm;
	struct stat sb;
	struct cap c;
	char dir[1200] = "";
	long long t0;
	int gone = 0;

	diag_init(&dl);
	if ((rm = open_box(&dl)) == NULL) {
		ok(0, "a box for the hangup: %s", tap_first_diag(&dl));
		diag_free(&dl);
		return;
	}
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 30000);
	(void)runner_run(&o, "A=${TMPDIR%/*}; echo \"$A\"; "
	    "read -r x P C G <\"$A/p\"; g=$(ps -o pgid= -p \"$C\"); "
	    "kill -s HUP -- \"-${g# *}\" || kill -s HUP \"-${g# *}\"; "
	    "sleep 5", &res, &dl);
	if (c.buf != NULL)
		snprintf(dir, sizeof(dir), "%.*s", (int)strcspn(c.buf, "\n"),
		    c.buf);
	ok(strncmp(dir, boxtmp, strlen(boxtmp)) == 0, "the hung-up agent's "
	    "directory: %s", dir);
	for (t0 = now_ms(); dir[0] != '\0' && now_ms() - t0 < 20000; ) {
		if (lstat(dir, &sb) == -1) {
			gone = 1;
			break;
		}
		(void)poll(NULL, 0, 50);
	}
	ok(gone, "an agent hung up on leaves no directory on the box");
	free(c.buf);
	remote_close(rm);
	diag_free(&dl);
}

/*
 * The explorer with reset-on-taint and a reboot-cmd in its config: a
 * test that taints the box's kernel has the box reset (the command
 * runs, and "boots" it with its taint flags clear) before the next
 * test, and the run goes on there by itself.  kroot: an LTP install
 * with the fakes "pass" and "fail".
 */
static void
test_ui_taint(const char *kroot)
{
	const char *t = tap_tmpdir();
	char db[1200], cfg[1200], cmd[8192], taint[1200], seen[1200];
	char path[1400], *s;
	FILE *fp;
	int st;

	snprintf(db, sizeof(db), "%s/uitaint.db", t);
	snprintf(cfg, sizeof(cfg), "%s/ltpscope/config", t);
	snprintf(taint, sizeof(taint), "%s/uitaint", t);
	snprintf(seen, sizeof(seen), "%s/uiseen", t);
	snprintf(cmd, sizeof(cmd), "%s/ltpscope", t);
	(void)mkdir(cmd, 0755);
	snprintf(cmd, sizeof(cmd), "%s/ltpscope/skiplist", t);
	(void)unlink(cmd);
	snprintf(path, sizeof(path), "%s/runtest/taint", kroot);
	fp = fopen(path, "w");
	fprintf(fp, "close01 echo 512 >%s; echo close01 >>%s; pass\n", taint,
	    seen);
	fprintf(fp, "close02 echo close02 >>%s; pass\n", seen);
	fclose(fp);
	write_text(taint, "0\n");
	write_text(seen, "");
	fp = fopen(cfg, "w");
	fprintf(fp, "host %s\nssh-config %s\nbox-wait 60\n"
	    "reset-on-taint yes\nreboot-cmd echo reset >>'%s'; "
	    "echo 0 >'%s'\n", box.spec, box.config, seen, taint);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_TAINTED=%s ", taint);
	if (ui_start(cmd, kroot, "taint", db, "the explorer starts, "
	    "reset-on-taint in its config") != 0) {
		unlink(cfg);
		return;
	}
	tmux_keys(":");
	tmux_keys("-l 'run close01 close02'");
	tmux_keys("Enter");
	if (!ok(tmux_wait_for("finished: 2 pass, 0 fail", 60000), "the "
	    "explorer's run went on after the reset"))
		tap_diag("screen:\n%s", tmux_screen());
	tmux_keys("q q q");
	ok(tmux_wait_dead(5000), "q quits");
	tmux_stop();
	s = tap_slurp(seen, NULL);
	is_str(s, "close01\nreset\nclose02\n", "explorer: the reboot-cmd "
	    "ran once, after the tainting test, before the next");
	free(s);
	is_int(db_number(db, "SELECT count(*) FROM runs"), 1, "explorer: "
	    "in the same run");
	snprintf(cmd, sizeof(cmd), "%s show last -d %s --output close01 2>&1",
	    bin, db);
	s = tap_run(cmd, &st, 0);
	has_str(s, "--- kernel messages (0 lines, tainted 0 -> 512) ---",
	    "explorer: the taint change stored");
	free(s);
	unlink(cfg);
}

/*
 * What the box's kernel said during each test: its log (a file here,
 * $LTPSCOPE_KMSG, read by the agent where a box runs dmesg) and its
 * taint flags ($LTPSCOPE_TAINTED), the new lines stored with the test
 * that wrote them; with --reset-on-taint a tainted kernel is reset
 * (the reboot-cmd runs) before the next test, and the run goes on.
 */
static void
test_box_kmsg(void)
{
	static const char *const fakes[] = { "pass", "fail", NULL };
	const char *t = tap_tmpdir();
	char kroot[1200], db[1200], klog[1200], taint[1200], seen[1200];
	char cmd[16384], path[1400], *out, *s;
	FILE *fp;
	int st;

	snprintf(kroot, sizeof(kroot), "%s/kltp", t);
	snprintf(klog, sizeof(klog), "%s/boxkmsg", t);
	snprintf(taint, sizeof(taint), "%s/boxtaint", t);
	snprintf(seen, sizeof(seen), "%s/boxseen", t);
	tap_fake_ltproot(kroot, fakes);
	snprintf(path, sizeof(path), "%s/Version", kroot);
	write_text(path, "20260529-fake\n");
	snprintf(path, sizeof(path), "%s/runtest/kmsg", kroot);
	fp = fopen(path, "w");
	fprintf(fp, "open01 pass\n");
	fprintf(fp, "open02 printf '4,90,77000001,-;WARNING: box warns\\n"
	    " SUBSYSTEM=x\\n6,91,77000002,-;more of it\\n' >>%s; fail\n",
	    klog);
	fprintf(fp, "close01 echo 1 >%s; echo close01 >>%s; pass\n", taint,
	    seen);
	fprintf(fp, "close02 echo close02 >>%s; pass\n", seen);
	fclose(fp);
	write_text(klog, "6,1,1000000,-;booted before the run\n");
	write_text(taint, "0\n");
	write_text(seen, "");

	snprintf(db, sizeof(db), "%s/boxkmsg.db", t);
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_KMSG=%s LTPSCOPE_TAINTED=%s "
	    "%s run -d %s -L %s -f kmsg --host %s --ssh-config %s "
	    "--box-wait 30 --reset-on-taint --reboot-cmd 'echo reset >>%s' "
	    "</dev/null 2>&1", klog, taint, bin, db, kroot, box.spec,
	    box.config, seen);
	out = tap_run(cmd, &st, 0);
	has_str(tap_line_of(out, " open02 "), "kernel warned",
	    "box: the test during which the kernel warned is marked");
	has_str(tap_line_of(out, " close01 "), "kernel tainted",
	    "box: the test that tainted it is marked");
	ok(strstr(tap_line_of(out, " open01 "), "kernel") == NULL,
	    "box: what the log held before the run is no test's");
	has_str(out, "the kernel of ", "box: the taint is said");
	has_str(tap_line_of(out, " close02 "), "PASS",
	    "box: the run went on after the reset");
	s = tap_slurp(seen, NULL);
	is_str(s, "close01\nreset\nclose02\n", "box: the reboot-cmd ran "
	    "once, after the tainting test, before the next");
	free(s);
	free(out);
	is_int(db_number(db, "SELECT count(*) FROM runs WHERE config LIKE "
	    "'%reset_on_taint=1%'"), 1, "box: run --resume will know "
	    "--reset-on-taint");

	snprintf(cmd, sizeof(cmd), "%s show last -d %s --output open02 2>&1",
	    bin, db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "--- kernel messages (2 lines, 1 warning) ---\n"
	    "[   77.000001] WARNING: box warns\n[   77.000002] more of it\n",
	    "box: show --output has the box's kernel lines");
	ok(strstr(out, "booted before") == NULL, "box: only the new lines");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s show last -d %s --output close01 2>&1",
	    bin, db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "--- kernel messages (0 lines, tainted 0 -> 1) ---",
	    "box: the taint change stored");
	free(out);

	test_ui_taint(kroot);

	/* Where there is no /dev/kmsg (NetBSD), dmesg's new lines. */
	fake_dmesg();
	snprintf(path, sizeof(path), "%s/runtest/kmsg", kroot);
	fp = fopen(path, "w");
	fprintf(fp, "open01 pass\n");
	fprintf(fp, "open02 printf '[  88.000001] panic: not really\\n' >>"
	    "%s/kmsg; fail\n", box.dir);
	fprintf(fp, "close02 pass\n");
	fclose(fp);
	snprintf(db, sizeof(db), "%s/boxdmesg.db", t);
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_KMSG=dmesg %s run -d %s -L %s "
	    "-f kmsg --host %s --ssh-config %s </dev/null 2>&1", bin, db,
	    kroot, box.spec, box.config);
	out = tap_run(cmd, &st, 0);
	has_str(tap_line_of(out, " open02 "), "kernel warned",
	    "box, dmesg: the test that made the kernel speak is marked");
	ok(strstr(tap_line_of(out, " close02 "), "kernel") == NULL &&
	    strstr(tap_line_of(out, " open01 "), "kernel") == NULL,
	    "box, dmesg: the others are not");
	free(out);
	snprintf(cmd, sizeof(cmd), "%s show last -d %s --output open02 2>&1",
	    bin, db);
	out = tap_run(cmd, &st, 0);
	has_str(out, "--- kernel messages (1 line, 1 warning) ---\n"
	    "[  88.000001] panic: not really\n", "box, dmesg: the new line");
	ok(strstr(out, "total memory") == NULL, "box, dmesg: only it");
	free(out);
	/* Later tests make the box's dmesg when they want one. */
	snprintf(path, sizeof(path), "%s/bin/dmesg", box.dir);
	(void)unlink(path);
}

/*
 * -L relative on a box is the login's ($HOME): a test there runs in
 * its TMPDIR yet finds a helper of its own in testcases/bin by name.
 */
static void
test_relative_root(void)
{
	static const char *const fakes[] = { "pass", NULL };
	struct runner_result res;
	struct runner_opts o;
	struct remote_opts ro;
	struct remote *rm;
	struct diaglist dl;
	struct cap c;
	char rroot[1400];

	snprintf(rroot, sizeof(rroot), "%s/relroot-ltp", box.dir);
	tap_fake_ltproot(rroot, fakes);
	tap_fake_helper_test(rroot);
	diag_init(&dl);
	memset(&ro, 0, sizeof(ro));
	ro.config = box.config;
	ro.ltproot = "relroot-ltp";
	ro.tmpbase = boxtmp;
	ro.alive_interval_s = 1;
	ro.alive_count = 3;
	rm = remote_open(box.spec, &ro, &dl);
	if (!ok(rm != NULL, "a box whose -L is relative: %s",
	    tap_first_diag(&dl))) {
		diag_free(&dl);
		return;
	}
	memset(&c, 0, sizeof(c));
	runner_opts_for(&o, rm, &c, 30000);
	ok(runner_run(&o, "execve99", &res, &dl) == 0 && res.exited &&
	    res.exit_code == 0, "its test finds its helper by name");
	has_str(c.buf, "TPASS: the child ran", "(it says so)");
	free(c.buf);
	remote_close(rm);
	diag_free(&dl);
}

int
main(void)
{
	struct remote *rm;
	struct diaglist dl;
	char why[256], dir[1200];
	const char *b = getenv("LTPSCOPE_BIN");

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(bin, sizeof(bin), "%s/%s", cwd, b ? b : "ltpscope");
	test_parse();
	snprintf(dir, sizeof(dir), "%s/box", tap_tmpdir());
	if (sshd_start(&box, dir, why, sizeof(why)) != 0) {
		ok(1, "# SKIP no test box: %s", why);
		return tap_done();
	}
	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	mkroot(root);
	snprintf(boxtmp, sizeof(boxtmp), "%s/boxtmp", tap_tmpdir());
	(void)mkdir(boxtmp, 0755);
	setenv("XDG_CONFIG_HOME", tap_tmpdir(), 1);
	setenv("XDG_DATA_HOME", tap_tmpdir(), 1);
	test_connect();
	diag_init(&dl);
	rm = open_box(&dl);
	if (ok(rm != NULL, "a connection for the runs: %s",
	    tap_first_diag(&dl))) {
		test_same_as_local(rm);
		test_forged_status(rm);
		test_filter_splits(rm);
		test_timeout(rm);
		test_stream_and_stop(rm);
		test_agent(rm);
		test_agent_hangup();
		test_cli();
		test_box_files();
		test_box_kmsg();
		test_relative_root();
		rm = test_dropped(rm);
		if (rm != NULL)
			test_lost(rm);
		remote_close(rm);
		if (ok(sshd_restart(&box) == 0, "the box is back"))
			test_crash_resume();
	}
	diag_free(&dl);
	sshd_stop(&box);
	return tap_done();
}
