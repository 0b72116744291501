/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The runner against the LTP-like fakes in tests/ltpfake/bin: exit
 * codes, signals, timeouts that kill a whole session (escaped
 * grandchildren included), the environment and TMPDIR a test gets, a
 * 50 MB flood, hostile bytes, and the user's stop.
 */
#include <sys/stat.h>
#include <sys/types.h>
#if defined(__linux__)
#include <sys/xattr.h>
#endif

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/diag.h"
#include "ltpscope/runner.h"
#include "tap.h"

#define FAKE	"tests/ltpfake/bin/"
#define KEEP	(1024 * 1024)	/* output kept for checking */

struct out {
	char			 p[KEEP + 1];
	size_t			 len;
	unsigned long long	 seen;
	int			 calls;
};

static struct out out;

static void
collect(void *arg, const char *buf, size_t len)
{
	struct out *o = arg;
	size_t n = len;

	o->seen += len;
	o->calls++;
	if (n > KEEP - o->len)
		n = KEEP - o->len;
	memcpy(o->p + o->len, buf, n);
	o->len += n;
	o->p[o->len] = '\0';
}

static void
opts_init(struct runner_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->tmpbase = tap_tmpdir();
	o->timeout_ms = 10000;
	o->grace_ms = 500;
	o->output = collect;
	o->output_arg = &out;
}

/* Runs cmd with o; fills res; 0 on start.  Output lands in out. */
static int
run(const struct runner_opts *o, const char *cmd, struct runner_result *res)
{
	struct diaglist dl;
	int rc;

	memset(&out, 0, sizeof(out));
	memset(res, 0, sizeof(*res));
	diag_init(&dl);
	rc = runner_run(o, cmd, res, &dl);
	if (rc != 0)
		diag_print(&dl, stdout, "# ");
	diag_free(&dl);
	return rc;
}

/* The value after "key=" in the output, in a static buffer. */
static const char *
field(const char *key)
{
	static char val[PATH_MAX];
	char pat[64];
	const char *p;
	size_t n;

	snprintf(pat, sizeof(pat), "%s=", key);
	for (p = out.p; (p = strstr(p, pat)) != NULL; p++)
		if (p == out.p || p[-1] == '\n')
			break;
	if (p == NULL)
		return "(missing)";
	p += strlen(pat);
	n = strcspn(p, "\r\n");
	if (n >= sizeof(val))
		n = sizeof(val) - 1;
	memcpy(val, p, n);
	val[n] = '\0';
	return val;
}

/* Number after word in the output, or -1. */
static long
number_after(const char *word)
{
	const char *p = strstr(out.p, word);

	return p != NULL ? strtol(p + strlen(word), NULL, 10) : -1;
}

/*
 * Live processes in session sid, by reading /proc independently of the
 * runner's own procs.c; -1 where there is no /proc.
 */
static int
live_in_session(long sid)
{
#if defined(__linux__)
	char path[300], buf[512], state, *p;
	int n = 0, pp, pg, s, fd;
	struct dirent *de;
	ssize_t len;
	DIR *d;

	if ((d = opendir("/proc")) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if ((fd = open(path, O_RDONLY)) == -1)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		if ((p = strrchr(buf, ')')) == NULL ||
		    sscanf(p + 1, " %c %d %d %d", &state, &pp, &pg, &s) != 4)
			continue;
		if (s == sid && state != 'Z' && state != 'X')
			n++;
	}
	closedir(d);
	return n;
#else
	(void)sid;
	return -1;
#endif
}

static int
alive(long pid)
{
#if defined(__linux__)
	char path[64], buf[512], *p;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY)) == -1)
		return 0;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	p = strrchr(buf, ')');
	return p != NULL && p[2] != 'Z' && p[2] != 'X';
#else
	return pid > 0 && kill((pid_t)pid, 0) == 0;
#endif
}

/*
 * A SIGKILLed process takes a moment to finish dying (its state reads
 * "running" while it exits): allow it up to a second.
 */
static int
gone(long pid)
{
	int i;

	for (i = 0; i < 100 && alive(pid); i++)
		(void)poll(NULL, 0, 10);
	return !alive(pid);
}

static int
session_left(long sid)
{
	int i, n = live_in_session(sid);

	for (i = 0; i < 100 && n > 0; i++) {
		(void)poll(NULL, 0, 10);
		n = live_in_session(sid);
	}
	return n;
}

static void
test_exit_codes(void)
{
	static const struct {
		const char	*cmd;
		int		 code;
		const char	*needle;
	} t[] = {
		{ FAKE "pass", 0, "pass01.c:33: TPASS: getpid() returns" },
		{ FAKE "fail", 1, "fail01.c:81: TFAIL: " },
		{ FAKE "broken", 2, "tst_tmpdir.c:135: TBROK: " },
		{ FAKE "conf", 32, "tst_test.c:1459: TCONF: " },
		{ FAKE "warn", 4, "tst_kconfig.c:42: TWARN: " },
		{ FAKE "oldlib", 0, "oldlib01    1  TPASS  :  regular" },
		{ FAKE "oldlib fail", 1, "oldlib01    3  TFAIL  :  fifo" },
		{ FAKE "sleepy 200", 0, "sleepy01.c:17: TPASS: slept 200" },
		{ FAKE "tiny", 0, "" },
	};
	struct runner_opts o;
	struct runner_result res;
	size_t i;

	opts_init(&o);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (!ok(run(&o, t[i].cmd, &res) == 0, "%s starts", t[i].cmd))
			continue;
		ok(res.exited && res.exit_code == t[i].code &&
		    !res.timed_out && res.signo == 0,
		    "%s exits %d (got exited=%d code=%d sig=%d)", t[i].cmd,
		    t[i].code, res.exited, res.exit_code, res.signo);
		has_str(out.p, t[i].needle, "%s output", t[i].cmd);
		is_int(res.bytes, out.seen, "%s byte count", t[i].cmd);
	}
	ok(strstr(out.p, "\r\n") == NULL, "pty passes \\n through as is");
	run(&o, FAKE "pass", &res);
	has_str(out.p, "\nSummary:\npassed   2\nfailed   0\n",
	    "summary block arrives whole, no \\r added");
	run(&o, FAKE "sleepy 200", &res);
	ok(res.duration >= 0.2 && res.duration < 5,
	    "duration of a 200 ms test: %.3f s", res.duration);
}

static void
test_signals(void)
{
	struct runner_opts o;
	struct runner_result res;

	opts_init(&o);
	run(&o, FAKE "selfkill", &res);
	ok(!res.exited && res.signo == SIGSEGV && !res.timed_out,
	    "selfkill dies of SIGSEGV (sig %d)", res.signo);
	has_str(out.p, "about to die", "its last words arrive");
	run(&o, FAKE "selfkill abrt", &res);
	is_int(res.signo, SIGABRT, "selfkill abrt dies of SIGABRT");
	run(&o, "echo shell says hi; exit 3", &res);
	ok(res.exited && res.exit_code == 3, "shell line exit status 3");
	has_str(out.p, "shell says hi", "shell line output");
}

static void
test_timeout(void)
{
	struct runner_opts o;
	struct runner_result res;
	char cwd[PATH_MAX], cmd[PATH_MAX + 64];
	long sid, child;

	opts_init(&o);
	o.timeout_ms = 1000;
	run(&o, FAKE "hang", &res);
	ok(res.timed_out && res.signo == SIGTERM && !res.killed,
	    "hang: timed out, ended by SIGTERM (sig %d killed %d)",
	    res.signo, res.killed);
	ok(res.duration >= 1.0 && res.duration < 3.0,
	    "hang: killed after ~1 s (%.3f s)", res.duration);
	has_str(out.p, "never comes", "hang: output before the timeout");

	/*
	 * SIG_IGN survives exec: the test ignores SIGTERM, gets SIGKILL.
	 * Shell lines run in TMPDIR, hence the absolute path.
	 */
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		cwd[0] = '\0';
	snprintf(cmd, sizeof(cmd), "trap '' TERM; exec %s/" FAKE "hang", cwd);
	run(&o, cmd, &res);
	ok(res.timed_out && res.killed && res.signo == SIGKILL,
	    "TERM-proof hang: SIGKILL after the grace (sig %d)", res.signo);
	ok(res.duration >= 1.5 && res.duration < 4.0,
	    "TERM-proof hang: timeout + grace (%.3f s)", res.duration);

	/* The parent hangs, its child left the process group. */
	run(&o, FAKE "escape pgrp hang", &res);
	sid = number_after(" session ");
	child = number_after("TINFO: child ");
	ok(res.timed_out, "escape pgrp hang: timed out");
	ok(sid > 1 && child > 1, "escape reports sid %ld child %ld", sid,
	    child);
	ok(gone(child), "escaped grandchild %ld was killed", child);
	if (live_in_session(sid) >= 0)
		is_int(session_left(sid), 0,
		    "no live process left in session %ld", sid);
	ok(res.duration < 3.0, "escape pgrp hang: done in %.3f s",
	    res.duration);
}

static void
test_escape_after_exit(void)
{
	struct runner_opts o;
	struct runner_result res;
	long sid, child;

	opts_init(&o);
	o.timeout_ms = 5000;
	/* The parent exits at once; its escaped child sleeps on. */
	run(&o, FAKE "escape pgrp exit", &res);
	sid = number_after(" session ");
	child = number_after("TINFO: child ");
	ok(res.exited && res.exit_code == 0 && !res.timed_out,
	    "escape pgrp exit: leader exits 0");
	ok(res.stragglers >= 1, "straggler killed (%d)", res.stragglers);
	ok(gone(child), "escaped grandchild %ld does not survive", child);
	if (live_in_session(sid) >= 0)
		is_int(session_left(sid), 0,
		    "no live process left in session %ld", sid);
	ok(res.duration < 2.0 && !res.output_cut,
	    "no wait for the pty (%.3f s)", res.duration);

	/*
	 * The straggler's own child left the session: found through its
	 * parent, which is still alive when the leader has gone.
	 */
	run(&o, FAKE "escape nest exit", &res);
	child = number_after("TINFO: grandchild ");
	ok(child > 1 && res.exited && res.exit_code == 0,
	    "escape nest: grandchild %ld reported", child);
	ok(res.stragglers >= 2, "child and grandchild killed (%d)",
	    res.stragglers);
	ok(gone(child), "grandchild in its own session does not survive");
	ok(!res.output_cut, "the pty closed by itself");
	if (child > 1)
		kill((pid_t)child, SIGKILL);

	/*
	 * A child that left the session as well holds the pty open: the
	 * runner must not wait for it.  We kill it ourselves.
	 */
	o.drain_ms = 200;
	run(&o, FAKE "escape setsid exit 20", &res);
	child = number_after("TINFO: child ");
	ok(res.exited && res.exit_code == 0, "escape setsid: leader exits 0");
	ok(res.output_cut, "escape setsid: pty abandoned after drain");
	ok(res.duration < 2.0, "escape setsid: done in %.3f s", res.duration);
	if (child > 1)
		kill((pid_t)child, SIGKILL);
}

/*
 * A data/kconfig in the directory ltpscope happens to run from is the
 * user's business, not the bundled one: the default comes from the data
 * directory alone.
 */
static void
test_kconfig_not_cwd(const struct runner_opts *o)
{
	struct runner_result res;
	char cwd[PATH_MAX], dir[PATH_MAX], path[PATH_MAX + 64];
	char fake[PATH_MAX + 32], datadir[PATH_MAX + 32];
	FILE *fp;

	if (getcwd(cwd, sizeof(cwd)) == NULL) {
		ok(0, "getcwd");
		return;
	}
	snprintf(fake, sizeof(fake), "%s/" FAKE "envdump", cwd);
	snprintf(dir, sizeof(dir), "%s/kcwd", tap_tmpdir());
	snprintf(path, sizeof(path), "%s/data", dir);
	snprintf(datadir, sizeof(datadir), "%s/empty-data", dir);
	(void)mkdir(dir, 0755);
	(void)mkdir(path, 0755);
	(void)mkdir(datadir, 0755);
	snprintf(path, sizeof(path), "%s/data/kconfig", dir);
	if ((fp = fopen(path, "w")) != NULL) {
		fputs("CONFIG_FROM_CWD=y\n", fp);
		fclose(fp);
	}
	ok(access(path, R_OK) == 0, "a data/kconfig in the cwd to be");
	setenv("LTPSCOPE_DATA", datadir, 1);
	if (chdir(dir) != 0) {
		ok(0, "chdir %s", dir);
		unsetenv("LTPSCOPE_DATA");
		return;
	}
	run(o, fake, &res);
	if (chdir(cwd) != 0)
		tap_diag("cannot go back to %s", cwd);
	unsetenv("LTPSCOPE_DATA");
	is_int(res.exit_code, 0, "envdump from another directory exits 0");
	is_str(field("KCONFIG_PATH"), "(unset)", "./data/kconfig of the cwd "
	    "is not the default kernel config");

	snprintf(path, sizeof(path), "%s/kconfig", datadir);
	if ((fp = fopen(path, "w")) != NULL) {
		fputs("CONFIG_FROM_DATA=y\n", fp);
		fclose(fp);
	}
	setenv("LTPSCOPE_DATA", datadir, 1);
	if (chdir(dir) == 0) {
		run(o, fake, &res);
		if (chdir(cwd) != 0)
			tap_diag("cannot go back to %s", cwd);
	}
	unsetenv("LTPSCOPE_DATA");
	is_str(field("KCONFIG_PATH"), path, "the data directory's kconfig "
	    "wins over the cwd's");
}

static void
test_environment(void)
{
	struct runner_opts o;
	struct runner_result res;
	struct stat st;
	char tmpdir[PATH_MAX], prefix[PATH_MAX], cwd[PATH_MAX];
	char kc[PATH_MAX + 32];
	char *extra[] = { (char *)"LTPSCOPE_EXTRA=yes", NULL };

	opts_init(&o);
	o.ltproot = "/opt/fakeltp";
	o.timeout_mul = "2.5";
	o.ltp_dev = "/dev/vnd0";
	o.reproducible = 1;
	o.env_extra = extra;
	run(&o, FAKE "envdump", &res);
	is_int(res.exit_code, 0, "envdump exits 0");
	is_str(field("LTPROOT"), "/opt/fakeltp", "LTPROOT");
	ok(strncmp(field("PATH"), "/opt/fakeltp/testcases/bin:", 27) == 0,
	    "PATH starts with $LTPROOT/testcases/bin: %s", field("PATH"));
	snprintf(tmpdir, sizeof(tmpdir), "%s", field("TMPDIR"));
	snprintf(prefix, sizeof(prefix), "%s/ltpscope.", tap_tmpdir());
	ok(strncmp(tmpdir, prefix, strlen(prefix)) == 0,
	    "TMPDIR %s is fresh below the base", tmpdir);
	is_str(field("cwd"), tmpdir, "cwd is TMPDIR");
	ok(stat(tmpdir, &st) == -1, "TMPDIR is gone afterwards");
	is_str(field("LTP_COLORIZE_OUTPUT"), "0", "colour off");
	is_str(field("LTP_TIMEOUT_MUL"), "2.5", "LTP_TIMEOUT_MUL");
	is_str(field("LTP_DEV"), "/dev/vnd0", "LTP_DEV");
	is_str(field("LTP_REPRODUCIBLE_OUTPUT"), "1", "reproducible");
	has_str(out.p, "\nLTPSCOPE_EXTRA=yes\n", "extra variable");
	is_str(field("isatty"), "1", "stdout is a tty by default");
	is_str(field("stdin_isatty"), "0", "stdin is /dev/null");
	ok(number_after("pid=") == number_after(" sid="),
	    "the test leads its own session");
	if (getcwd(cwd, sizeof(cwd)) != NULL) {
		setenv("LTPSCOPE_DATA", "data", 1);
		run(&o, FAKE "envdump", &res);
		snprintf(kc, sizeof(kc), "%s/data/kconfig", cwd);
		is_str(field("KCONFIG_PATH"), kc,
		    "KCONFIG_PATH defaults to the data directory's, absolute");
		unsetenv("LTPSCOPE_DATA");
	}
	test_kconfig_not_cwd(&o);

	o.kconfig = "";
	o.use_pipe = 1;
	run(&o, FAKE "envdump", &res);
	is_str(field("isatty"), "0", "pipe mode: not a tty");
	is_str(field("KCONFIG_PATH"), "(unset)", "kconfig \"\": not passed");
	has_str(out.p, "LTPROOT=/opt/fakeltp", "pipe mode delivers output");

	o.use_pipe = 0;
	run(&o, FAKE "envdump mess", &res);
	snprintf(tmpdir, sizeof(tmpdir), "%s", field("TMPDIR"));
	is_str(field("mess"), "made", "test left a read-only tree");
	ok(!res.tmpdir_left && stat(tmpdir, &st) == -1,
	    "read-only tree removed with TMPDIR");
	ok(stat("/", &st) == 0, "the link to / was not followed");
}

static void
test_path_lookup(void)
{
	struct runner_opts o;
	struct runner_result res;
	struct diaglist dl;
	struct runner *r;
	char root[PATH_MAX], bin[PATH_MAX + 32], link[PATH_MAX + 64];
	char target[PATH_MAX];

	opts_init(&o);
	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	snprintf(bin, sizeof(bin), "%s/testcases", root);
	mkdir(root, 0755);
	mkdir(bin, 0755);
	snprintf(bin, sizeof(bin), "%s/testcases/bin", root);
	mkdir(bin, 0755);
	if (getcwd(target, sizeof(target)) == NULL)
		return;
	strncat(target, "/" FAKE "envdump",
	    sizeof(target) - strlen(target) - 1);
	snprintf(link, sizeof(link), "%s/envdump01", bin);
	ok(symlink(target, link) == 0, "fake LTP install made");
	o.ltproot = root;
	ok(run(&o, "envdump01 -i 1", &res) == 0 && res.exit_code == 0,
	    "a bare test name is found in $LTPROOT/testcases/bin");
	is_str(field("LTPROOT"), root, "with that LTPROOT");

	diag_init(&dl);
	r = runner_start(&o, "no_such_test01", &dl);
	ok(r == NULL && dl.nerrors == 1, "unknown test: no start, an error");
	if (dl.n > 0)
		has_str(dl.v[0].msg, "no_such_test01: command not found",
		    "error names the command");
	runner_free(r);
	diag_free(&dl);
	diag_init(&dl);
	ok(runner_start(&o, "   ", &dl) == NULL && dl.nerrors == 1,
	    "empty command refused");
	diag_free(&dl);

	ok(runner_needs_shell("a | b") && runner_needs_shell("X=1 t") &&
	    runner_needs_shell("t > f") && !runner_needs_shell("t -i 2 -c 3"),
	    "shell metacharacters detected");
}

static double
secs_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) +
	    (double)(t1.tv_nsec - t0->tv_nsec) / 1e9;
}

static void
test_flood_and_bytes(void)
{
	static const char expect[] =
	    "escapes01.c:10: \033[1;32mTPASS: \033[0mcoloured pass\n"
	    "escapes01.c:11: TINFO: cursor \033[2J\033[H home\r\b\a\n"
	    "escapes01.c:12: TINFO: nul \0 byte \0\0 here\n"
	    "escapes01.c:13: TINFO: bad utf-8 \xff\xfe \xc3 \xc0\xaf "
	    "\xed\xa0\x80\n"
	    "escapes01.c:14: TINFO: good utf-8 \xc3\xa9\xe2\x82\xac\n";
	struct runner_opts o;
	struct runner_result res;
	struct timespec t0;
	double s;

	opts_init(&o);
	o.timeout_ms = 30000;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	run(&o, FAKE "flood 50", &res);
	s = secs_since(&t0);
	is_int(res.bytes, 50LL * 1024 * 1024, "50 MB flood fully received");
	is_int(out.seen, res.bytes, "callback saw every byte");
	ok(res.exited && res.exit_code == 0, "flood exits 0");
	has_str(out.p, "flood01.c:42: TINFO: line 00000000 of the flood",
	    "flood lines arrive intact");
	tap_diag("50 MB through the pty in %.2f s, %d callbacks", s,
	    out.calls);

	o.use_pipe = 1;
	run(&o, FAKE "flood 8", &res);
	is_int(res.bytes, 8LL * 1024 * 1024, "8 MB flood through a pipe");
	o.use_pipe = 0;

	run(&o, FAKE "escapes", &res);
	is_int(res.bytes, sizeof(expect) - 1, "every hostile byte counted");
	ok(out.len == sizeof(expect) - 1 &&
	    memcmp(out.p, expect, sizeof(expect) - 1) == 0,
	    "NULs, escapes, bad UTF-8 delivered unchanged");
}

static void
test_nonblocking_and_stop(void)
{
	struct runner_opts o;
	struct diaglist dl;
	struct runner *r;
	struct pollfd pfd[RUNNER_NPOLL];
	struct timespec t0;
	int t, maxt = -1, spins = 0, n, nmax = 0;

	opts_init(&o);
	memset(&out, 0, sizeof(out));
	diag_init(&dl);
	r = runner_start(&o, FAKE "hang", &dl);
	if (!ok(r != NULL, "hang started by hand")) {
		diag_free(&dl);
		return;
	}
	ok(runner_pollfds(r, pfd, RUNNER_NPOLL) >= 1, "a fd to poll");
	ok(runner_pid(r) > 1 && runner_tmpdir(r) != NULL, "pid and TMPDIR");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Wait for its first line, as the UI would, then press x. */
	while (strstr(out.p, "never comes") == NULL && secs_since(&t0) < 5) {
		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
		t = runner_poll_timeout(r);
		if (t > maxt)
			maxt = t;
		if (n > nmax)
			nmax = n;
		(void)poll(pfd, (nfds_t)n, t);
		(void)runner_service(r);
		spins++;
	}
	/*
	 * With an exit watch among the fds, poll(2) wakes when the test
	 * ends, and needs no timeout but the test's own; without one the
	 * runner must look for the end every 100 ms at most.
	 */
	if (nmax == 2)
		ok(maxt > 0 && maxt <= 10000, "output and exit watch polled, "
		    "timeout the test's (%d ms)", maxt);
	else
		ok(maxt >= 0 && maxt <= 100, "no exit watch: poll timeout "
		    "bounded (%d ms)", maxt);
	ok(!runner_done(r), "still running before the stop");
	runner_stop(r);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (!runner_service(r) && secs_since(&t0) < 5) {
		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
		(void)poll(pfd, (nfds_t)n, runner_poll_timeout(r));
	}
	ok(runner_done(r), "done after the stop");
	ok(runner_result(r)->stopped && !runner_result(r)->timed_out &&
	    runner_result(r)->signo == SIGTERM,
	    "stopped by the user, by SIGTERM");
	ok(secs_since(&t0) < 1.0, "stop takes effect at once (%.3f s)",
	    secs_since(&t0));
	runner_free(r);

	/* Pressing x twice does not wait for the grace period. */
	memset(&out, 0, sizeof(out));
	r = runner_start(&o, "trap '' TERM; echo ready; while :; do :; done",
	    &dl);
	if (ok(r != NULL, "TERM-proof shell loop started")) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		while (strstr(out.p, "ready") == NULL && secs_since(&t0) < 5) {
			n = runner_pollfds(r, pfd, RUNNER_NPOLL);
			(void)poll(pfd, (nfds_t)n, runner_poll_timeout(r));
			(void)runner_service(r);
		}
		runner_stop(r);
		(void)poll(NULL, 0, 50);
		ok(!runner_service(r), "SIGTERM ignored: still running");
		runner_stop(r);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		while (!runner_service(r) && secs_since(&t0) < 5)
			(void)poll(NULL, 0, runner_poll_timeout(r));
		ok(runner_result(r)->stopped && runner_result(r)->killed &&
		    runner_result(r)->signo == SIGKILL,
		    "second stop: SIGKILL (sig %d)", runner_result(r)->signo);
		ok(secs_since(&t0) < 0.4, "without the grace (%.3f s)",
		    secs_since(&t0));
		runner_free(r);
	}

	/* Freeing a run still going kills it and cleans up. */
	r = runner_start(&o, FAKE "hang", &dl);
	if (r != NULL) {
		char dir[PATH_MAX];
		struct stat st;
		long pid = runner_pid(r);

		snprintf(dir, sizeof(dir), "%s", runner_tmpdir(r));
		runner_free(r);
		ok(gone(pid) && stat(dir, &st) == -1,
		    "runner_free kills the test and removes TMPDIR");
	}
	diag_free(&dl);
	(void)spins;
}

/*
 * The entries of dir whose names start with "ltpscope.": how many; the
 * path of the last one other than skip (NULL: none) goes to last.
 */
static int
count_tmpdirs(const char *dir, const char *skip, char *last, size_t len)
{
	char path[PATH_MAX + 256];
	struct dirent *de;
	DIR *d;
	int n = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		if (strncmp(de->d_name, "ltpscope.", 9) == 0) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if ((skip == NULL || strcmp(path, skip) != 0) &&
			    strlen(path) < len)
				memcpy(last, path, strlen(path) + 1);
			n++;
		}
	closedir(d);
	return n;
}

/*
 * With spares, a test that ends clean and leaves its TMPDIR as it got
 * it hands it on to the next test: empty, mode 1777, ours.  Anything
 * else -- a file left, a mode changed, something put in it between two
 * tests, an attribute set on it, a test killed -- and the directory is
 * removed at once and the next test gets a fresh one.  Nothing
 * outlives runner_spares_free().
 */
#define LOOK	"echo \"T=$TMPDIR\"; echo \"E=$(ls -A | wc -l)\"; " \
		"echo \"M=$(stat -c %a .)\"; echo \"U=$(stat -c %u .)\""

/* Long enough for dir_settled() (30 ms) on any clock. */
static void
settle(void)
{
	struct timespec ts = { 0, 250000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/*
 * A TMPDIR the next test gets (in dir), handed on once and settled
 * before it and after it: then the next test's is that one, settled.
 */
static void
settled_tmpdir(struct runner_opts *o, char *dir, size_t len)
{
	struct runner_result res;

	run(o, LOOK, &res);
	snprintf(dir, len, "%s", field("T"));
	settle();
	run(o, LOOK, &res);
	settle();
}

static void
test_spares(void)
{
	struct runner_opts o;
	struct runner_result res;
	char a[PATH_MAX], b[PATH_MAX], last[PATH_MAX], planted[PATH_MAX + 16];
	char uid[32];
	struct stat st;
	int fd;

	opts_init(&o);
	o.spares = runner_spares_new();
	run(&o, LOOK, &res);
	snprintf(a, sizeof(a), "%s", field("T"));
	is_int(count_tmpdirs(tap_tmpdir(), NULL, last, sizeof(last)), 1,
	    "a test that left its TMPDIR empty: it waits for the next test");
	ok(stat(a, &st) == 0 && strcmp(last, a) == 0, "and it is %s", a);
	run(&o, LOOK, &res);
	is_str(field("T"), a, "the next test gets that TMPDIR");
	is_str(field("E"), "0", "empty");
	is_str(field("M"), "1777", "mode 1777");
	snprintf(uid, sizeof(uid), "%u", (unsigned)geteuid());
	is_str(field("U"), uid, "still ours");

	/* A file left: removed at the test's end, the next one is new. */
	run(&o, "touch left", &res);
	ok(!res.tmpdir_left && stat(a, &st) == -1, "a TMPDIR a test left a "
	    "file in is removed at its end");
	is_int(count_tmpdirs(tap_tmpdir(), NULL, last, sizeof(last)), 0,
	    "and nothing waits");
	run(&o, LOOK, &res);
	snprintf(b, sizeof(b), "%s", field("T"));
	ok(b[0] == '/' && strcmp(a, b) != 0, "the next test gets a fresh "
	    "TMPDIR (%s)", b);
	is_str(field("E"), "0", "empty");

	/* Empty, but its mode changed. */
	run(&o, "chmod 755 .", &res);
	ok(stat(b, &st) == -1, "a TMPDIR whose mode a test changed is "
	    "removed");
	run(&o, LOOK, &res);
	snprintf(a, sizeof(a), "%s", field("T"));
	ok(strcmp(a, b) != 0, "and not handed on");
	is_str(field("M"), "1777", "the fresh one is 1777");

	/* Something put in the waiting TMPDIR between two tests. */
	snprintf(planted, sizeof(planted), "%s/planted", a);
	if ((fd = open(planted, O_WRONLY | O_CREAT, 0644)) >= 0)
		close(fd);
	run(&o, LOOK, &res);
	snprintf(b, sizeof(b), "%s", field("T"));
	ok(strcmp(a, b) != 0 && stat(a, &st) == -1, "a waiting TMPDIR "
	    "with something put in it is removed, not handed on");
	is_str(field("E"), "0", "the test's TMPDIR is empty");

#if defined(__linux__)
	/* A default ACL or any attribute would reach the next test. */
	if (setxattr(b, "user.ltpscope", "1", 1, 0) == 0) {
		run(&o, LOOK, &res);
		snprintf(a, sizeof(a), "%s", field("T"));
		ok(strcmp(a, b) != 0 && stat(b, &st) == -1, "a TMPDIR with "
		    "an extended attribute set on it is not handed on");
	} else
		ok(1, "# SKIP no user extended attributes in %s",
		    tap_tmpdir());
#endif

	/*
	 * Left alone long enough (dir_settled(): 30 ms, here 250), a
	 * TMPDIR is found unchanged at a test's end by one lstat(2);
	 * what a test does in it still moves its ctime, and it is
	 * removed.
	 */
	run(&o, LOOK, &res);
	snprintf(a, sizeof(a), "%s", field("T"));
	settle();
	run(&o, LOOK, &res);
	is_str(field("T"), a, "a settled TMPDIR a test did not touch is "
	    "handed on");
	settle();
	run(&o, LOOK, &res);
	is_str(field("T"), a, "and again");
	settle();
	run(&o, "touch left", &res);
	ok(!res.tmpdir_left && stat(a, &st) == -1, "a settled TMPDIR a test "
	    "left a file in is removed at its end");
	settled_tmpdir(&o, a, sizeof(a));
	run(&o, "mkdir sub", &res);
	ok(stat(a, &st) == -1, "and one it left a directory in");
	settled_tmpdir(&o, a, sizeof(a));
	run(&o, "chmod 700 . && chmod 1777 .", &res);
	run(&o, LOOK, &res);
	is_str(field("T"), a, "one whose mode a test changed and set back "
	    "is looked at whole and, as made, handed on");

	/* Killed: whatever it did, its TMPDIR is not handed on. */
	run(&o, LOOK, &res);
	snprintf(a, sizeof(a), "%s", field("T"));
	o.timeout_ms = 300;
	o.grace_ms = 100;
	run(&o, "sleep 30", &res);
	ok(res.timed_out && stat(a, &st) == -1, "the TMPDIR of a test that "
	    "timed out is removed (%s)", a);
	o.timeout_ms = 10000;
	o.grace_ms = 500;
	run(&o, LOOK, &res);
	ok(strcmp(field("T"), a) != 0, "and the next test's is fresh");
	runner_spares_free(o.spares);
	is_int(count_tmpdirs(tap_tmpdir(), NULL, last, sizeof(last)), 0,
	    "nothing left below the base after runner_spares_free()");
}

#if defined(__linux__)
/*
 * With spares, the pty a test ended clean with serves again (Linux),
 * made ready while the next test runs: two ptys take turns, so a
 * test gets the pty of the test before last -- told by its inode and
 * the time devpts made it, as a new pty may get the number, and so the
 * inode, of one just closed -- with nothing of that test in it: its
 * modes and size set back.  A test that did not end clean leaves its
 * pty to no one.
 */
#define PTYINO	"echo I=$(stat -L -c %i@%z /proc/$$/fd/1 | tr -d ' ')"

static void
test_pty_reuse(void)
{
	struct runner_opts o;
	static const char want[] = "a\nb\n24 80\nI=";
	struct runner_result res;
	char a[64], b[64], c[64];

	opts_init(&o);
	o.spares = runner_spares_new();
	run(&o, PTYINO, &res);
	snprintf(a, sizeof(a), "%s", field("I"));
	run(&o, PTYINO, &res);
	snprintf(b, sizeof(b), "%s", field("I"));
	ok(strcmp(a, "(missing)") != 0 && strcmp(b, "(missing)") != 0 &&
	    strcmp(a, b) != 0, "the second test gets the pty made ready "
	    "while the first ran (inode %s, then %s)", a, b);
	run(&o, PTYINO, &res);
	is_str(field("I"), a, "the third gets the first test's pty, "
	    "renewed while the second ran");
	run(&o, "stty opost onlcr cols 132 rows 50 echo <&1; printf 'x\\n'",
	    &res);
	is_str(out.p, "x\r\n", "a test that changed its pty's modes sees "
	    "them changed");
	run(&o, PTYINO, &res);
	is_str(field("I"), a, "the ptys go on taking turns");
	run(&o, "printf 'a\\nb\\n'; stty size <&1; " PTYINO, &res);
	is_str(field("I"), b, "the changed pty serves the test after next");
	ok(strncmp(out.p, want, sizeof(want) - 1) == 0, "with the modes "
	    "and size a new pty has");
	o.timeout_ms = 300;
	o.grace_ms = 100;
	run(&o, PTYINO "; sleep 30", &res);
	snprintf(c, sizeof(c), "%s", field("I"));
	ok(res.timed_out && strcmp(c, a) == 0, "a test that timed out had "
	    "the other one");
	o.timeout_ms = 10000;
	o.grace_ms = 500;
	run(&o, PTYINO, &res);
	is_str(field("I"), b, "the next test gets the pty that is ready");
	run(&o, PTYINO, &res);
	ok(strcmp(field("I"), "(missing)") != 0 && strcmp(field("I"), c) !=
	    0 && strcmp(field("I"), b) != 0, "but the timed-out test's pty "
	    "serves no one after it: a new one takes its turn (inode %s)",
	    field("I"));
	runner_spares_free(o.spares);
}
#endif

/*
 * A test that closes its output and goes on: the caller sleeps in
 * poll(2) until it ends (an exit watch where the system has one)
 * rather than waking again and again.
 */
static void
test_output_closed_early(void)
{
	struct runner_opts o;
	struct diaglist dl;
	struct runner *r;
	struct pollfd pfd[RUNNER_NPOLL];
	int spins = 0, watched = 0, t, n;

	opts_init(&o);
	memset(&out, 0, sizeof(out));
	diag_init(&dl);
	/* The HUP trap: so that it would go on were the pty hung up. */
	r = runner_start(&o, "trap '' HUP; exec >&- 2>&-; sleep 1", &dl);
	if (!ok(r != NULL, "output-closing test started")) {
		diag_free(&dl);
		return;
	}
	while (!runner_service(r) && spins < 1000) {
		n = runner_pollfds(r, pfd, RUNNER_NPOLL);
		t = runner_poll_timeout(r);
		/* Beyond the 100 ms look for the leader: a watch. */
		if (n > 0 && (t == -1 || t > 100))
			watched = 1;
		(void)poll(pfd, (nfds_t)n, t);
		spins++;
	}
	ok(runner_done(r) && runner_result(r)->exited &&
	    runner_result(r)->exit_code == 0, "it ends well");
	ok(runner_result(r)->duration >= 0.9, "after its second (%.3f s)",
	    runner_result(r)->duration);
	if (watched)
		ok(spins <= 8, "the caller slept in poll (%d wakeups)", spins);
	else
		tap_diag("no exit watch here: %d wakeups", spins);
	runner_free(r);
	diag_free(&dl);
}

/* ltpscope started with stdin and stderr closed still feeds its tests. */
static void
test_closed_stdio(void)
{
	struct runner_opts o;
	struct runner_result res;
	int save0, save2, rc;

	opts_init(&o);
	save0 = dup(0);
	save2 = dup(2);
	close(0);
	close(2);
	rc = run(&o, FAKE "pass", &res);
	dup2(save0, 0);
	dup2(save2, 2);
	close(save0);
	close(save2);
	ok(rc == 0 && res.exited && res.exit_code == 0,
	    "runs with fds 0 and 2 closed");
	has_str(out.p, "pass01.c:33: TPASS:", "and its stderr arrives");
}

/* Real runtest lines run directly: none of them needs the shell. */
static void
test_runtest_lines(void)
{
	char *rt, *line, *save = NULL;
	int lines = 0, shell = 0;

	rt = tap_slurp(tap_shared_path("ltp/runtest-syscalls"), NULL);
	if (!ok(rt != NULL, "runtest-syscalls readable"))
		return;
	for (line = strtok_r(rt, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (*line == '#' || *line == '\0')
			continue;
		line += strcspn(line, " \t");	/* the tag */
		lines++;
		if (runner_needs_shell(line)) {
			shell++;
			tap_diag("needs a shell: %s", line);
		}
	}
	ok(lines > (tap_layer_real() ? 1500 : 15), "%d runtest commands",
	    lines);
	is_int(shell, 0, "none sent through /bin/sh");
	free(rt);
}

/* Mounts at or below dir; -1 if the table cannot be read. */
static long
mounts_below(const char *dir)
{
	struct compat_mount *v;
	char *real = realpath(dir, NULL);
	long n, i;

	if (real == NULL)
		return -1;
	n = compat_mounts_below(real, &v);
	for (i = 0; i < n; i++)
		tap_diag("still mounted: %s", v[i].path);
	if (n > 0)
		compat_mounts_free(v, n);
	free(real);
	return n;
}

/* What a failed check left mounted goes before tap_done's rm -rf. */
static void
unmount_all(const char *dir)
{
	struct compat_mount *v;
	char *real = realpath(dir, NULL);
	long n, i;

	if (real == NULL)
		return;
	if ((n = compat_mounts_below(real, &v)) > 0) {
		for (i = n - 1; i >= 0; i--)
			(void)compat_unmount(v[i].path);
		compat_mounts_free(v, n);
	}
	free(real);
}

/*
 * A test killed at the timeout before its cleanup, with a tmpfs (and
 * one inside it) and a bind mount of a real directory in its TMPDIR:
 * the runner unmounts them, removes TMPDIR, and deletes nothing of the
 * bind-mounted directory.
 */
static void
test_mounts_left(void)
{
	struct runner_opts o;
	struct runner_result res;
	char src[PATH_MAX], marker[PATH_MAX + 16], cmd[PATH_MAX + 64];
	char tmpdir[PATH_MAX], *m;
	const char *conf;
	struct stat st;
	FILE *fp;

	if (geteuid() != 0) {
		ok(1, "# SKIP mounts left by a killed test: not root");
		return;
	}
	snprintf(src, sizeof(src), "%s/bindsrc", tap_tmpdir());
	snprintf(marker, sizeof(marker), "%s/marker", src);
	mkdir(src, 0755);
	if ((fp = fopen(marker, "w")) != NULL) {
		fputs("keep me\n", fp);
		fclose(fp);
	}
	opts_init(&o);
	o.timeout_ms = 1000;
	o.grace_ms = 300;
	snprintf(cmd, sizeof(cmd), FAKE "mounter %s", src);
	run(&o, cmd, &res);
	if ((conf = strstr(out.p, "TCONF: ")) != NULL) {
		ok(1, "# SKIP mounts left by a killed test: %.*s",
		    (int)strcspn(conf + 7, "\r\n"), conf + 7);
		unmount_all(tap_tmpdir());
		return;
	}
	snprintf(tmpdir, sizeof(tmpdir), "%s", field("TMPDIR"));
	has_str(out.p, "mounted tmpfs, tmpfs/nested and bind",
	    "the test mounted, then hung");
	ok(res.timed_out, "it was killed at the timeout");
	m = tap_slurp(marker, NULL);
	is_str(m != NULL ? m : "(gone)", "keep me\n",
	    "the bind-mounted directory's marker file is intact");
	free(m);
	ok(!res.tmpdir_left, "TMPDIR removed (%s)", res.tmpdir_left ?
	    res.tmpdir_why : "nothing left");
	ok(tmpdir[0] == '/' && stat(tmpdir, &st) == -1,
	    "nothing is left of %s", tmpdir);
	is_int(mounts_below(tap_tmpdir()), 0, "nothing stays mounted");
	unmount_all(tap_tmpdir());

	/* An empty tmpfs on TMPDIR itself is not an empty TMPDIR. */
	o.spares = runner_spares_new();
	run(&o, FAKE "mounter -", &res);
	snprintf(tmpdir, sizeof(tmpdir), "%s", field("TMPDIR"));
	has_str(out.p, "mounted a tmpfs on TMPDIR", "a test mounted a tmpfs "
	    "on its TMPDIR, then hung");
	ok(!res.tmpdir_left, "TMPDIR removed (%s)", res.tmpdir_left ?
	    res.tmpdir_why : "nothing left");
	is_int(mounts_below(tap_tmpdir()), 0, "nothing stays mounted, the "
	    "empty-TMPDIR shortcut notwithstanding");
	ok(tmpdir[0] == '/' && stat(tmpdir, &st) == -1,
	    "nothing is left of %s", tmpdir);
	runner_spares_free(o.spares);
	unmount_all(tap_tmpdir());
}

/*
 * TMPDIR is like /tmp, whatever the umask: a test that switches to
 * nobody makes its own directory in it, and the runner (root) removes
 * what nobody left there.
 */
static void
test_tmpdir_like_tmp(void)
{
	struct runner_opts o;
	struct runner_result res;
	char tmpdir[PATH_MAX];
	struct stat st;
	mode_t mask;

	opts_init(&o);
	mask = umask(077);
	/* nobody must get through the base to reach its TMPDIR. */
	chmod(tap_tmpdir(), 0711);
	run(&o, FAKE "nobody", &res);
	chmod(tap_tmpdir(), 0700);
	umask(mask);
	is_str(field("tmpdir_mode"), "1777", "TMPDIR is mode 1777 even "
	    "with umask 077");
	snprintf(tmpdir, sizeof(tmpdir), "%s", field("TMPDIR"));
	if (geteuid() != 0) {
		ok(1, "# SKIP switching to nobody: not root");
		return;
	}
	has_str(out.p, "TPASS  :  nobody made a directory in TMPDIR",
	    "a test running as nobody makes its directory in TMPDIR");
	is_int(res.exit_code, 0, "and passes");
	ok(!res.tmpdir_left, "the runner removed what nobody left%s%s",
	    res.tmpdir_left ? ": " : "", res.tmpdir_why);
	ok(tmpdir[0] == '/' && stat(tmpdir, &st) == -1,
	    "nothing is left of %s", tmpdir);
}

int
main(void)
{
	struct stat st;
	int i;

	if (stat(FAKE "pass", &st) == -1) {
		ok(0, "fakes are built (make fakes)");
		return tap_done();
	}
	test_exit_codes();
	test_signals();
	test_timeout();
	test_escape_after_exit();
	test_environment();
	test_path_lookup();
	for (i = 0; tap_layer(i); i++)
		test_runtest_lines();
	test_closed_stdio();
	test_flood_and_bytes();
	test_nonblocking_and_stop();
	test_output_closed_early();
	test_spares();
#if defined(__linux__)
	test_pty_reuse();
#endif
	test_tmpdir_like_tmp();
	test_mounts_left();
	return tap_done();
}
