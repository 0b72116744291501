/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * From a failure to the test's source: a fake test (srcfail) fails at
 * "fcntl35.c:81", LTP's metadata names its file, and a made-up LTP
 * source tree (tests/fixtures/ltp-src) holds it.  In the explorer, v on
 * the failing line of the output shows the file with line 81 marked;
 * h goes back.  Without a tree, v says how to name one.  "show
 * --source" prints the lines around each failing line.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "tmux.h"

static char	cwd[1024];
static char	root[1200];

static void
mkroot(void)
{
	static const char *const fakes[] = { "srcfail", NULL };
	char path[2048];

	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	tap_fake_ltproot(root, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", root);
	tap_write(path, "fcntl35 srcfail\nfcntl35_64 srcfail\n");
	snprintf(path, sizeof(path), "%s/metadata", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/metadata/ltp.json", root);
	tap_write(path, "{\"testsuite\": {}, \"defaults\": {}, \"tests\": {"
	    "\"fcntl35\": {\"fname\": \"testcases/kernel/syscalls/fcntl/"
	    "fcntl35.c\", \"groups\": [\"fcntl\"], \"tags\": [[\"linux-git\","
	    " \"086e774a57fb\"], [\"CVE\", \"2017-1000380\"]]}}}\n");
}

/* Waits up to ms for path to hold text; its content, or NULL. */
static char *
wait_file(const char *path, const char *text, int ms)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	char *s;

	for (; ms > 0; ms -= 50) {
		if ((s = tap_slurp(path, NULL)) != NULL) {
			if (strstr(s, text) != NULL)
				return s;
			free(s);
		}
		nanosleep(&ts, NULL);
	}
	return tap_slurp(path, NULL);
}

/* Waits for the pane's run of fcntl35 to end, the failure at its top. */
static int
run_to_failure(void)
{
	tmux_keys("T");
	if (!tmux_wait_for("all tests of the LTP install", 5000))
		return -1;
	tmux_keys("r");
	if (!tmux_wait_for("run 1 finished", 30000))
		return -1;
	tmux_keys("k Enter Tab /");
	tmux_keys("-l 'TFAIL'");
	tmux_keys("Enter");
	return 0;
}

static void
test_tui(void)
{
	char args[4096];
	const char *l;

	snprintf(args, sizeof(args), "-L %s -m %s/tests/fixtures/linux/"
	    "syscall_64.tbl -d %s/src.db --ltp-src %s/tests/fixtures/ltp-src",
	    root, cwd, tap_tmpdir(), cwd);
	if (!ok(tmux_explorer(args, 120, 40) == 0, "opens on a fake LTP")) {
		tap_diag("%s", tmux_screen());
		tmux_stop();
		return;
	}
	ok(run_to_failure() == 0, "fcntl35 ran and failed");
	tmux_keys("v");
	ok(tmux_wait_for("MARKED81", 5000), "v shows the source");
	l = tmux_line("MARKED81");
	has_str(l, "> 81", "line 81 is the one marked");
	has_str(tmux_screen(), "fcntl/fcntl35.c:81 (fcntl35)",
	    "the title names the file and line");
	tmux_keys("h");
	ok(tmux_wait_gone("MARKED81", 5000), "h goes back");
	has_str(tmux_screen(), "fcntl35.c:81: TFAIL",
	    "to the output, as it was");
	tmux_keys("v /");
	tmux_keys("-l 'SAFE_PIPE'");
	tmux_keys("Enter");
	ok(tmux_wait_for("1/1", 5000), "/ in the source shows the match");
	tmux_keys("Enter");
	ok(tmux_wait_for("line 76 of 100", 5000), "Enter: its line among all");
	/* On the test itself, not a line: its file from the top. */
	tmux_keys("h");
	(void)tmux_wait_gone("line 76 of 100", 5000);
	tmux_keys("Tab v");
	ok(tmux_wait_for("fcntl/fcntl35.c (fcntl35)", 5000),
	    "v on a test: its file");
	ok(strstr(tmux_screen(), "> 81") == NULL, "no line marked");
	tmux_keys("h");
	tmux_keys("Q");
	(void)tmux_wait_dead(10000);
	tmux_stop();
}

/*
 * e: $VISUAL (a script that notes its arguments) at the line, the
 * explorer's screen back after it.
 */
static void
test_editor(void)
{
	char cmd[8192], ed[1300], note[1300], want[1300];
	const char *t = tap_tmpdir();
	char *s;

	snprintf(ed, sizeof(ed), "%s/editor", t);
	snprintf(note, sizeof(note), "%s/edited", t);
	snprintf(cmd, sizeof(cmd), "#!/bin/sh\necho \"$@\" > %s\n", note);
	tap_write(ed, cmd);
	chmod(ed, 0755);
	snprintf(cmd, sizeof(cmd), "env HOME=%s XDG_DATA_HOME=%s/data "
	    "XDG_CONFIG_HOME=%s/config XDG_STATE_HOME=%s/state VISUAL=%s "
	    "%s -L %s -m %s/tests/fixtures/linux/syscall_64.tbl -d %s/src.db "
	    "--ltp-src %s/tests/fixtures/ltp-src", t, t, t, t, ed, tap_bin(),
	    root, cwd, t, cwd);
	if (!ok(tmux_start(cmd, 120, 40) == 0 && tmux_wait_for("? help",
	    8000), "opens with VISUAL set")) {
		tmux_stop();
		return;
	}
	tmux_keys("T k Enter Tab /");
	tmux_keys("-l 'TFAIL'");
	tmux_keys("Enter");
	(void)tmux_wait_for("fcntl35.c:81: TFAIL", 5000);
	tmux_keys("e");
	snprintf(want, sizeof(want), "+81 %s/tests/fixtures/ltp-src/"
	    "testcases/kernel/syscalls/fcntl/fcntl35.c", cwd);
	s = wait_file(note, want, 5000);
	has_str(s != NULL ? s : "", want, "e: the editor at line 81");
	free(s);
	ok(tmux_wait_for("fcntl35.c:81: TFAIL", 5000),
	    "the explorer's screen is back");
	tmux_keys("Q");
	(void)tmux_wait_dead(10000);
	tmux_stop();
}

static void
test_notree(void)
{
	char args[4096];

	/* No tree: v says where to point. */
	snprintf(args, sizeof(args), "-L %s -m %s/tests/fixtures/linux/"
	    "syscall_64.tbl -d %s/src.db", root, cwd, tap_tmpdir());
	if (!ok(tmux_explorer(args, 200, 40) == 0, "opens without a tree")) {
		tmux_stop();
		return;
	}
	tmux_keys("T k Enter Tab /");
	tmux_keys("-l 'TFAIL'");
	tmux_keys("Enter v");
	ok(tmux_wait_for("--ltp-src DIR", 5000), "v says how to name a tree");
	has_str(tmux_screen(), "no LTP source tree to find fcntl35.c",
	    "and what it looked for");
	tmux_keys("Tab d");
	ok(tmux_wait_for("linux-git 086e774a57fb  https://git.kernel.org/",
	    5000), "d: the Linux commit the test checks, its link");
	has_str(tmux_screen(), "CVE-2017-1000380  https://www.cve.org/"
	    "CVERecord?id=CVE-2017-1000380", "and its CVE");
	has_str(tmux_screen(), "source   testcases/kernel/syscalls/fcntl/"
	    "fcntl35.c", "and its source file");
	tmux_keys("Q");
	(void)tmux_wait_dead(10000);
	tmux_stop();
}

/*
 * export: each failing test with the Linux commit and CVE it checks, a
 * link to each (linux-git-url from the config for commits).
 */
static void
test_export(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char db[1300], path[1300];
	const char *t = tap_tmpdir();

	snprintf(db, sizeof(db), "%s/cli.db", t);
	tap_cmd(&r, "export -d %s -L %s --format md", db, root);
	is_int(r.status, 0, "export md");
	has_str(r.out, "- **fcntl35** fail",
	    "fcntl35 on the list");
	has_str(r.out, "\n  - checks [linux-git 086e774a57fb](<https://"
	    "git.kernel.org/pub/scm/linux/kernel/git/torvalds/linux.git/"
	    "commit/?id=086e774a57fb>), [CVE-2017-1000380](<https://"
	    "www.cve.org/CVERecord?id=CVE-2017-1000380>)\n",
	    "under it the commit and CVE it checks, linked");
	snprintf(path, sizeof(path), "%s/config/ltpscope", t);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/config/ltpscope/config", t);
	tap_write(path, "linux-git-url https://example.org/linux/%c?x=%%\n");
	tap_cmd(&r, "export -d %s -L %s --format md", db, root);
	has_str(r.out, "[linux-git 086e774a57fb](<https://example.org/linux/"
	    "086e774a57fb?x=%>)", "linux-git-url: the commit's link");
	tap_cmd(&r, "export -d %s -L %s --format json", db, root);
	has_str(r.out, "\"tags\": [{\"kind\": \"linux-git\", \"value\": "
	    "\"086e774a57fb\", \"url\": \"https://example.org/linux/"
	    "086e774a57fb?x=%\"}, {\"kind\": \"CVE\"", "json: the tags");
	tap_cmd(&r, "export -d %s -L %s --format html", db, root);
	has_str(r.out, "fcntl35<br><small><a href=\"https://example.org/"
	    "linux/086e774a57fb?x=%\">linux-git 086e774a57fb</a>, ",
	    "html: the links under the test");
	unlink(path);
	tap_cmd(&r, "export -d %s --format md", db);
	ok(strstr(r.out, "checks") == NULL, "no metadata: no tags");
	tap_cmd_free(&r);
}

/* show --source: the lines around line 81, from the option or config. */
static void
test_show(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char db[1300], path[1300], text[1500], noltp[1300];
	const char *t = tap_tmpdir();

	snprintf(db, sizeof(db), "%s/cli.db", t);
	tap_cmd(&r, "run -L %s -d %s -m %s/tests/fixtures/linux/"
	    "syscall_64.tbl fcntl35", root, db, cwd);
	is_int(r.status, 1, "run: fcntl35 fails");
	/* show takes the install from $LTPROOT, as run does without -L. */
	snprintf(noltp, sizeof(noltp), "%s", getenv("LTPROOT"));
	setenv("LTPROOT", root, 1);
	tap_cmd(&r, "show last -d %s --source fcntl35 --ltp-src "
	    "%s/tests/fixtures/ltp-src", db, cwd);
	is_int(r.status, 0, "show --source: exit 0");
	has_str(r.out, "fcntl35.c:81: TFAIL: a privileged user",
	    "the failing line");
	has_str(r.out, "tests/fixtures/ltp-src/testcases/kernel/syscalls/"
	    "fcntl/fcntl35.c:81\n", "where its source is");
	has_str(tap_line_of(r.out, "MARKED81"), ">    81  ",
	    "line 81, marked");
	has_str(r.out, "    78  ", "three lines before it");
	has_str(r.out, "    84  ", "three after");
	ok(strstr(r.out, "    77  ") == NULL && strstr(r.out, "    85  ") ==
	    NULL, "and no more");
	ok(strstr(r.out, "fcntl35.c:85: TPASS") == NULL,
	    "a passing line is not shown");

	/* From the config, without the metadata: the name says where. */
	setenv("LTPROOT", noltp, 1);
	snprintf(path, sizeof(path), "%s/config/ltpscope", t);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/config/ltpscope/config", t);
	snprintf(text, sizeof(text), "ltp-src %s/tests/fixtures/ltp-src\n",
	    cwd);
	tap_write(path, text);
	tap_cmd(&r, "show last -d %s --source fcntl35", db);
	is_int(r.status, 0, "ltp-src from the config");
	has_str(tap_line_of(r.out, "MARKED81"), ">    81  ",
	    "line 81, marked, found by the test's name");
	unlink(path);

	setenv("LTPROOT", root, 1);
	tap_cmd(&r, "show last -d %s --source fcntl35", db);
	is_int(r.status, 1, "no tree: exit 1");
	has_str(r.err, "no LTP source tree to find fcntl35.c in: --ltp-src "
	    "DIR", "no tree: says how to name one");
	tap_cmd(&r, "show last -d %s --source fcntl35 --ltp-src %s", db, t);
	is_int(r.status, 1, "a tree without the file: exit 1");
	has_str(r.err, "fcntl35.c not found in the LTP source tree: looked "
	    "at", "says so");
	has_str(r.err, "/testcases/kernel/syscalls/fcntl/fcntl35.c",
	    "and where it looked");
	setenv("LTPROOT", noltp, 1);
	tap_cmd(&r, "show last -d %s --source fcntl35 --format json", db);
	is_int(r.status, 2, "--source is text only");
	tap_cmd_free(&r);
}

int
main(void)
{
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	mkroot();
	test_tui();
	test_editor();
	test_notree();
	test_show();
	test_export();
	return tap_done();
}
