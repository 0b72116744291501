/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "ltpscope runs" and "ltpscope show" end to end: a database written
 * through the store API, then the CLI binary ($LTPSCOPE_BIN) reading it
 * with -d, in text and JSON, with terminal-safe output and warnings
 * about a run that died.
 */
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/store.h"
#include "ltpscope/textsafe.h"
#include "fixture_store.h"
#include "tap.h"

static char		 db[1024];

static int64_t
add_run(struct store *st, const char *label, size_t nqueue)
{
	static const char *const tags[] = { "abort01", "access01", "brk01",
	    "chdir01" };
	struct store_queue_item q[4];
	struct store_run run;
	struct diaglist dl;

	fixture_run_init(&run);
	run.host = (char *)"vm-netbsd";
	run.label = (char *)label;
	fixture_queue(q, tags, nqueue);
	diag_init(&dl);
	store_run_begin(st, &run, q, nqueue, &dl);
	diag_free(&dl);
	return run.id;
}

static void
add_result(struct store *st, int64_t run, const char *tag, int64_t seq,
    enum test_status status, const char *out, size_t len)
{
	struct store_result r;
	struct diaglist dl;
	int64_t id;

	diag_init(&dl);
	store_test_start(st, run, tag, "abort", seq, &id, &dl);
	memset(&r, 0, sizeof(r));
	r.tag = (char *)tag;
	r.status = status;
	r.exit_code = status == TS_FAIL ? 1 : 0;
	r.duration_ms = 1234;
	r.npass = 2;
	r.nfail = status == TS_FAIL;
	store_test_finish(st, id, &r, out, len, &dl);
	diag_free(&dl);
}

/* A run whose process is killed while brk01 runs. */
static void
crashed_run(void)
{
	struct diaglist dl;
	struct store *st;
	int64_t run, id;
	pid_t pid;

	if ((pid = fork()) == 0) {
		diag_init(&dl);
		if (store_open(&st, db, 0, &dl) != STORE_OK)
			_exit(3);
		run = add_run(st, "crashed\x1b[2J", 4);
		add_result(st, run, "abort01", 0, TS_PASS, "ok\n", 3);
		store_test_start(st, run, "brk01", "brk", 1, &id, &dl);
		kill(getpid(), SIGKILL);
		_exit(4);
	}
	waitpid(pid, NULL, 0);
}

/*
 * `ltpscope show 1 -d DB --output TAG` into outf: its peak resident set
 * in KiB, -1 on failure.  It runs below a child of ours that reports
 * getrusage(RUSAGE_CHILDREN) of it alone, the one child it reaps.
 */
static long
show_rss(const char *dbf, const char *tag, const char *outf)
{
	struct rusage ru;
	const char *bin;
	long kib = -1;
	pid_t pid, show;
	int st, fd, pfd[2];

	if ((bin = getenv("LTPSCOPE_BIN")) == NULL || *bin == '\0')
		bin = "./ltpscope";
	if (pipe(pfd) == -1 || (pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		close(pfd[0]);
		if ((show = fork()) == 0) {
			if ((fd = open(outf, O_WRONLY | O_CREAT | O_TRUNC,
			    0644)) == -1 || dup2(fd, 1) == -1)
				_exit(127);
			execl(bin, bin, "show", "1", "-d", dbf, "--output",
			    tag, (char *)NULL);
			_exit(127);
		}
		if (show == -1 || waitpid(show, &st, 0) != show ||
		    !WIFEXITED(st) || WEXITSTATUS(st) != 0 ||
		    getrusage(RUSAGE_CHILDREN, &ru) == -1)
			_exit(1);
		kib = ru.ru_maxrss;
		_exit(write(pfd[1], &kib, sizeof(kib)) == sizeof(kib) ? 0 : 1);
	}
	close(pfd[1]);
	if (read(pfd[0], &kib, sizeof(kib)) != sizeof(kib))
		kib = -1;
	close(pfd[0]);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) ||
	    WEXITSTATUS(st) != 0)
		kib = -1;
	return kib;
}

/* What show --output prints of p: show_sanitized() in cmd_show.c. */
static char *
sanitized(const char *p, size_t len, size_t *outlen)
{
	char *out = malloc(len * 4 + 1), *safe;
	size_t n, o = 0, slen;

	if (out == NULL)
		abort();
	while (len > 0) {
		for (n = 0; n < len && p[n] != '\n' && p[n] != '\t'; n++)
			continue;
		safe = textsafe_display(p, n, 0, &slen);
		memcpy(out + o, safe, slen);
		o += slen;
		free(safe);
		if (n < len)
			out[o++] = p[n++];
		p += n;
		len -= n;
	}
	*outlen = o;
	return out;
}

/* len bytes of unit again and again, a newline every 4 KiB. */
static char *
big_output(const char *unit, size_t ulen, size_t len)
{
	char *big;
	size_t i;

	if ((big = malloc(len)) == NULL)
		abort();
	for (i = 0; i < len; i++)
		big[i] = unit[i % ulen];
	for (i = 4095; i < len; i += 4096)
		big[i] = '\n';
	return big;
}

/*
 * A big stored output is shown a piece at a time: exactly as it would
 * be whole (UTF-8 characters and escapes cut at the pieces' ends
 * included), with the memory of a small one, not the output's size.
 */
static void
test_big_output(void)
{
	/* 13 bytes: the reads' 64 KiB ends fall in every one of them. */
	static const char unit[] = "a\xe2\x82\xac\x1b[1m\tc\xf0\x9f\x98";
	char bigdb[1100], outf[1100], *big, *want, *got;
	size_t len = 15u * 1024 * 1024, wlen, glen;
	struct store *st;
	struct diaglist dl;
	long judge, small, rss;
	int64_t run;
	pid_t pid;
	int wst;

	snprintf(bigdb, sizeof(bigdb), "%s/big.db", tap_tmpdir());
	snprintf(outf, sizeof(outf), "%s/big.out", tap_tmpdir());
	/*
	 * Stored by a child: a show's peak counts what the process it was
	 * forked from held, which must stay small.
	 */
	if ((pid = fork()) == 0) {
		big = big_output(unit, sizeof(unit) - 1, len);
		diag_init(&dl);
		if (store_open(&st, bigdb, STORE_CREATE, &dl) != STORE_OK) {
			diag_print(&dl, stdout, "# open");
			_exit(1);
		}
		run = add_run(st, "big", 2);
		add_result(st, run, "abort01", 0, TS_PASS, "small\n", 6);
		add_result(st, run, "access01", 1, TS_PASS, big, len);
		store_close(st);
		_exit(0);
	}
	if (!ok(pid > 0 && waitpid(pid, &wst, 0) == pid && WIFEXITED(wst) &&
	    WEXITSTATUS(wst) == 0, "a 15 MiB output stored"))
		return;
	/* The first open judges the new results: each output read whole. */
	judge = show_rss(bigdb, "abort01", outf);
	small = show_rss(bigdb, "abort01", outf);
	rss = show_rss(bigdb, "access01", outf);
	big = big_output(unit, sizeof(unit) - 1, len);
	want = sanitized(big, len, &wlen);
	got = tap_slurp(outf, &glen);
	ok(got != NULL && glen == wlen && memcmp(got, want, wlen) == 0,
	    "a 15 MiB output is shown exactly as whole (%zu bytes, %zu "
	    "expected)", got != NULL ? glen : 0, wlen);
	ok(judge > 0 && small > 0 && rss > 0, "show --output ran (peak %ld "
	    "KiB, %ld KiB for a small output, %ld KiB judging both)", rss,
	    small, judge);
	/* ASan's shadow and quarantine make any figure meaningless. */
	if (getenv("LTPSCOPE_ASAN") != NULL) {
		ok(1, "# SKIP peak memory under ASan");
		ok(1, "# SKIP peak memory under ASan");
	} else {
		ok(rss - small < 4 * 1024, "its peak memory is a small "
		    "output's + %ld KiB, not the output's %zu KiB", rss - small,
		    len / 1024);
		ok(judge - small < (long)(len / 1024) + 4 * 1024, "judging "
		    "it holds the output once: + %ld KiB", judge - small);
	}
	free(got);
	free(want);
	free(big);
}

int
main(void)
{
	static const char nasty[] = "tst_test.c:1: TINFO: start\n"
	    "\x1b[1;31mTFAIL\x1b[0m: bad\r\tNUL\0here bell\a del\x7f"
	    " bad \xff\xc3 utf8 caf\xc3\xa9 c1 \xc2\x9b end\n";
	struct diaglist dl;
	struct store *st;
	char *out;
	int64_t r1, r2;
	int status;

	snprintf(db, sizeof(db), "%s/cli.db", tap_tmpdir());

	out = tap_cli(&status, 1, "runs -d %s", db);
	is_int(status, 0, "runs on a missing database succeeds");
	has_str(out, "no runs yet", "and says there are none");
	free(out);

	diag_init(&dl);
	if (store_open(&st, db, STORE_CREATE, &dl) != STORE_OK) {
		diag_print(&dl, stdout, "# open");
		return tap_done();
	}
	r1 = add_run(st, "nightly", 3);
	add_result(st, r1, "abort01", 0, TS_PASS, "all good\n", 9);
	add_result(st, r1, "access01", 1, TS_FAIL, nasty, sizeof(nasty) - 1);
	add_result(st, r1, "brk01", 2, TS_CONF, "", 0);
	store_run_end(st, r1, RUN_FINISHED, &dl);
	r2 = add_run(st, "second \"quoted\"", 1);
	add_result(st, r2, "abort01", 0, TS_TIMEOUT, "slow\n", 5);
	store_run_end(st, r2, RUN_FINISHED, &dl);
	store_close(st);
	diag_free(&dl);

	out = tap_cli(&status, 0, "runs -d %s", db);
	is_int(status, 0, "runs exits 0");
	has_str(out, "STARTED (UTC)", "text header");
	ok(out != NULL && strstr(out, "second") != NULL &&
	    strstr(out, "nightly") != NULL &&
	    strstr(out, "second") < strstr(out, "nightly"), "newest first");
	has_str(out, "   1  ", "run 1 listed");
	has_str(out, "finished", "state shown");
	has_str(out, "    1     1     0     1     0     0         3/3  nightly"
	    " / vm-netbsd amd64 NetBSD 11.0", "counts, progress and where");
	free(out);

	out = tap_cli(&status, 0, "runs -d %s --format json", db);
	is_int(status, 0, "runs --format json exits 0");
	has_str(out, "\"label\": \"second \\\"quoted\\\"\"", "JSON escapes");
	has_str(out, "\"counts\": {\"pass\": 1, \"fail\": 1, \"broken\": 0, "
	    "\"conf\": 1", "JSON counts");
	has_str(out, "\"planned\": 3, \"done\": 3", "JSON progress");
	ok(out != NULL && out[0] == '[', "JSON array");
	free(out);

	out = tap_cli(&status, 0, "show %lld -d %s", (long long)r1, db);
	is_int(status, 0, "show exits 0");
	has_str(out, "run 1 \"nightly\":", "run header");
	has_str(out, "access01", "test listed");
	has_str(out, "fail", "status shown");
	has_str(out, "1234", "duration shown");
	free(out);

	out = tap_cli(&status, 0, "show last -d %s --format json", db);
	is_int(status, 0, "show last --format json");
	has_str(out, "\"run\": 2", "last is the newest run");
	has_str(out, "\"status\": \"timeout\"", "JSON status");
	free(out);

	out = tap_cli(&status, 0, "show 1 -d %s --output access01", db);
	is_int(status, 0, "show --output exits 0");
	has_str(out, "^[[1;31mTFAIL^[[0m: bad^M\tNUL^@here bell^G del^?",
	    "control bytes shown as ^X, tab kept");
	has_str(out, " bad \\xff\\xc3 utf8 caf\xc3\xa9 c1 \\u009b end\n",
	    "invalid UTF-8 as \\xNN, C1 as \\uNNNN, valid UTF-8 kept, as "
	    "in the explorer");
	ok(out != NULL && strchr(out, '\x1b') == NULL, "no raw escape left");
	free(out);

	out = tap_cli(&status, 0, "show 1 -d %s --output access01 "
	    "--format json", db);
	has_str(out, "\\u001b[1;31mTFAIL\\u001b[0m: bad\\r\\tNUL\\u0000here",
	    "JSON output escapes control bytes");
	has_str(out, "bad \\ufffd\\ufffd utf8 caf\xc3\xa9", "and bad UTF-8");
	free(out);

	out = tap_cli(&status, 1, "show 99 -d %s", db);
	is_int(status, 1, "unknown run exits 1");
	has_str(out, "ltpscope: ", "error prefixed");
	has_str(out, "cli.db: error: no run 99", "names the file and run");
	free(out);

	out = tap_cli(&status, 1, "show 1 -d %s --output nosuch", db);
	is_int(status, 1, "unknown test exits 1");
	has_str(out, "run 1 has no result for nosuch", "says which");
	free(out);

	out = tap_cli(&status, 1, "show");
	is_int(status, 2, "show without a run is a usage error");
	has_str(out, "usage: ltpscope show", "usage printed");
	free(out);
	out = tap_cli(&status, 1, "show 3abc -d /nonexistent/x.db");
	is_int(status, 2, "show with a bad run number is a usage error");
	free(out);
	out = tap_cli(&status, 1, "runs --format xml");
	is_int(status, 2, "unknown format is a usage error");
	free(out);
	out = tap_cli(&status, 1, "runs -d /etc/passwd");
	is_int(status, 1, "a file that is not a database fails");
	has_str(out, "ltpscope: /etc/passwd: error: ", "naming it");
	has_str(out, "not a database", "saying what is wrong");
	free(out);

	crashed_run();
	out = tap_cli(&status, 1, "runs -d %s", db);
	is_int(status, 0, "runs with an interrupted run exits 0");
	has_str(out, "run 3 was interrupted while brk01 was running; resume "
	    "with ltpscope run --resume", "interrupted run warned about");
	has_str(out, "interrupted", "and listed as interrupted");
	has_str(out, "crashed?[2J / vm-netbsd", "control bytes in a label "
	    "are not sent to the terminal");
	ok(out != NULL && strchr(out, '\x1b') == NULL, "no raw escape");
	free(out);

	setenv("XDG_DATA_HOME", tap_tmpdir(), 1);
	out = tap_cli(&status, 1, "runs");
	is_int(status, 0, "default database under XDG_DATA_HOME");
	has_str(out, "/ltpscope/ltpscope.db: no such database; no runs yet",
	    "names the default path");
	free(out);
	test_big_output();
	return tap_done();
}
