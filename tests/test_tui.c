/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer in a real terminal (tmux), on the demo data and on a
 * fake LTP install of our own: moving, filtering with a regular
 * expression, marking and running syscalls, watching output stream in
 * while the cursor still moves, stopping a hanging test with x, escape
 * sequences shown as placeholders, help, resize, the ":" command line,
 * and quitting with a run in progress.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tmux.h"

static char	cwd[1024];

static void
test_demo(void)
{
	char buf[512];
	const char *s, *line;

	if (!ok(tmux_explorer("--demo", 80, 24) == 0, "80x24: the demo opens")) {
		tap_diag("%s", tmux_screen());
		tmux_stop();
		return;
	}
	s = tmux_screen();
	/* The demo's 50 numbers and 22 more of tests/fixtures' header. */
	has_str(s, "ltpscope  72 syscalls, 0 marked  demo:",
	    "header: counts, then the demo source");
	has_str(s, "NR  NAME", "column header");
	has_str(tmux_line("  open "), "compat",
	    "open is implemented by a compat shim");
	has_str(tmux_line(" close "), "native",
	    "close is native");
	has_str(tmux_line("  open "), "      2  -",
	    "open has two LTP tests and no result yet");
	has_str(s, "linux-amd64 0 read: native", "status describes read");

	tmux_keys("j j");
	ok(tmux_wait_for("linux-amd64 2 open: compat", 2000),
	    "j twice moves to open");
	tmux_keys("k");
	ok(tmux_wait_for("linux-amd64 1 write", 2000), "k moves back up");

	tmux_keys("/");
	tmux_keys("-l 'shm(get|at)$'");
	ok(tmux_wait_for("/shm(get|at)$", 2000), "prompt echoes the pattern");
	s = tmux_screen();
	has_str(s, "shmget", "incremental filter shows shmget");
	ok(strstr(s, " close ") == NULL, "close filtered out while typing");
	tmux_keys("Enter");
	ok(tmux_wait_for("show:all  /shm(get|at)$", 2000),
	    "filter kept after Enter");
	has_str(tmux_screen(), "/2  sort:", "two syscalls match");

	tmux_keys("/ C-u");
	tmux_keys("-l '(unclosed'");
	ok(tmux_wait_for("bad pattern", 2000), "bad regex reported");
	has_str(tmux_screen(), "missing closing parenthesis",
	    "pcre2's reason is shown");
	tmux_keys("Enter");
	ok(tmux_wait_for("pattern not applied", 2000),
	    "Enter on a bad pattern keeps the old one");
	tmux_keys("/ C-u Enter");
	ok(tmux_wait_gone("/shm", 2000), "empty pattern clears the filter");

	tmux_keys("3");
	ok(tmux_wait_for("show:unimplemented", 2000), "3 shows unimplemented");
	s = tmux_screen();
	has_str(s, "sendfile", "sendfile is unimplemented");
	ok(strstr(s, " native ") == NULL && strstr(s, " compat ") == NULL,
	    "no implemented rows remain");
	tmux_keys("1");
	ok(tmux_wait_for("show:all", 2000), "1 shows all again");

	tmux_keys("/");
	tmux_keys("-l '^(open|close)$'");
	tmux_keys("Enter g d");
	ok(tmux_wait_for("function  linux_sys_open", 2000),
	    "d opens the detail pane with the function");
	has_str(tmux_screen(), "prototype int linux_sys_open(const char "
	    "*path", "detail shows the prototype");
	tmux_keys("d");

	tmux_keys("?");
	ok(tmux_wait_for("ltpscope help", 2000), "? opens help");
	has_str(tmux_screen(), "filter the list by a regular expression",
	    "help lists the filter key");
	/* Help wider than the terminal wraps between words. */
	is_str(tmux_line("filter the list"),
	    "/             filter the list by a regular expression "
	    "(pcre2, any case); in the", "80 columns: help breaks after a "
	    "word");
	has_str(tmux_screen(), "any case); in the\n              output, "
	    "search\n", "... and goes on below, under the text");
	has_str(tmux_screen(), "r             run the LTP tests of the marked "
	    "syscalls or tests (or the one\n              under the cursor)\n",
	    "a word that does not fit moves down whole");
	tmux_resize(120, 40);
	ok(tmux_wait_for("any case); in the output, search", 2000),
	    "120 columns: the same help on one line");
	tmux_resize(80, 24);
	ok(tmux_wait_for("              output, search", 2000),
	    "80 columns again: wrapped again");
	tmux_keys("q");
	ok(tmux_wait_gone("ltpscope help", 2000), "q closes help");

	/* Mark open and close, run their tests. */
	tmux_keys("g Space Space");
	ok(tmux_wait_for("2 marked", 2000), "Space marks two syscalls");
	tmux_keys("r");
	ok(tmux_wait_for("finished: 3 pass, 1 fail", 10000),
	    "r runs their four tests");
	s = tmux_screen();
	has_str(tmux_line("  open "), "fail 1/2",
	    "open's last run: one of two failed");
	has_str(tmux_line(" close "), "pass 2/2",
	    "close's last run: both passed");
	has_str(s, "close02 (4/4) pass", "pane titled with the last test");
	has_str(s, "== close02: pass", "pane shows its verdict");

	tmux_keys("g Enter");
	ok(tmux_wait_for("tests of 2 syscalls: 4", 2000),
	    "Enter lists the marked syscalls' tests");
	has_str(tmux_line("open02"), "fail", "open02 failed");
	tmux_keys("j Enter");
	ok(tmux_wait_for("open02: fail (stored output)", 2000),
	    "Enter shows a test's stored output");
	has_str(tmux_screen(), "TFAIL: open(O_TMPFILE) failed: EINVAL",
	    "the failing line is there");

	/* Triage: a rule's suggestion, a tag, a note, the shopping list. */
	has_str(tmux_line("open02"), "unsupported-flag?",
	    "a rule suggests unsupported-flag");
	tmux_keys("t");
	ok(tmux_wait_for("category for open02", 2000), "t opens the picker");
	has_str(tmux_screen(), "missing-syscall", "it lists the categories");
	tmux_keys("Enter");
	ok(tmux_wait_for("open02 tagged unsupported-flag", 2000),
	    "Enter tags the test with the suggested category");
	line = tmux_line("open02");
	has_str(line, "unsupported-flag", "the tag shows in the list");
	ok(strstr(line, "?") == NULL, "no longer a mere suggestion");
	tmux_keys("n");
	tmux_keys("-l 'needs O_TMPFILE in the vfs, \"quoted\"'");
	tmux_keys("Enter");
	ok(tmux_wait_for("note saved on open02", 3000), "n saves a note");
	tmux_keys("S");
	ok(tmux_wait_for("shopping list of run 1", 2000),
	    "S shows the shopping list");
	s = tmux_screen();
	has_str(s, "unsupported-flag (1)", "grouped by category");
	has_str(s, "needs O_TMPFILE in the vfs", "with the note");
	tmux_keys("E");
	snprintf(buf, sizeof(buf), "-l '%s/shop.csv'", tap_tmpdir());
	tmux_keys(buf);
	tmux_keys("Enter");
	ok(tmux_wait_for("shopping list written to", 3000), "E exports");
	{
		char path[1200], *csv;

		snprintf(path, sizeof(path), "%s/shop.csv", tap_tmpdir());
		csv = tap_slurp(path, NULL);
		has_str(csv, "open02", "the CSV lists open02");
		has_str(csv, "\"needs O_TMPFILE in the vfs, \"\"quoted\"\"\"",
		    "the note, quoted as RFC 4180 says");
		free(csv);
	}
	tmux_keys("q");

	/* A failing line of the output gets a tag of its own. */
	tmux_keys("Enter Tab /");
	tmux_keys("-l 'TFAIL'");
	tmux_keys("Enter t");
	ok(tmux_wait_for("category for this line of open02", 2000),
	    "t in the output tags the line the search found");
	has_str(tmux_screen(), "TFAIL: open(O_TMPFILE)", "that line");
	/* Keys sent right after the note and export prompts above. */
	ok(strstr(tmux_screen(), "^M") == NULL, "keys typed after a prompt "
	    "are not echoed by the tty behind curses' back");
	tmux_keys("Enter");
	ok(tmux_wait_for("(that line)", 2000), "the line is tagged");
	tmux_keys("Tab");

	tmux_keys("q R");
	ok(tmux_wait_for("runs: 1 in", 2000), "R lists the runs");
	has_str(tmux_line("finished"), "3    1",
	    "run 1 with its counts");
	tmux_keys("Enter");
	ok(tmux_wait_for("run 1: 4 results", 2000), "Enter opens a run");
	/*
	 * A full view stack: each push replaces the view on top, and what
	 * the new view shows must not come from the one it freed.
	 */
	tmux_keys("R");
	ok(tmux_wait_for("runs: 1 in", 2000), "R on top of a run's results");
	tmux_keys("Enter");
	ok(tmux_wait_for("run 1: 4 results", 2000),
	    "Enter on the run with the stack full");
	/* open01 passed: t asks before it tags. */
	tmux_keys("t");
	ok(tmux_wait_for("open01 passed: tag it anyway? (y/n)", 2000),
	    "t on a test that passed asks first");
	/* The title compared whole: nothing the tty echoed in it. */
	tmux_keys("y");
	ok(tmux_wait_for("ltpscope  category for open01 (Enter picks", 2000),
	    "y: with the stack full, the picker, named by its test");
	tmux_keys("q");
	ok(tmux_wait_for("run 1: 4 results", 2000), "q leaves the picker");
	tmux_keys("q q");
	tmux_keys("T");
	ok(tmux_wait_for("all tests of the LTP install: ", 2000),
	    "T lists every test, titled so");
	tmux_keys("q");

	tmux_keys(":");
	tmux_keys("-l 'runs'");
	tmux_keys("Enter");
	ok(tmux_wait_for(":runs", 3000), "the : command line runs runs");
	has_str(tmux_line("  1  "), "finished",
	    "its output is in the pane");

	tmux_resize(120, 40);
	ok(tmux_wait_for("? help", 2000), "status line after resize");
	line = tmux_line("? help");
	ok(strlen(line) >= 100, "status line spans the wider terminal (%zu)",
	    strlen(line));
	tmux_resize(80, 24);
	ok(tmux_wait_for("? help", 2000), "status line after shrinking");
	ok(strlen(tmux_line("? help")) <= 80,
	    "status line fits 80 columns again");

	tmux_keys("q");
	ok(tmux_wait_dead(3000), "q quits");
	ok(strstr(tmux_screen(), "? help") == NULL,
	    "the terminal is given back (no explorer on screen)");
	tmux_stop();
}

/* A fake LTP install: a slow test, a hang, a flood, escapes. */
static void
mkroot(const char *dir)
{
	static const char *const fakes[] = { "sleepy", "hang", "flood",
	    "escapes", "pass", NULL };
	char path[2048];
	FILE *fp;

	tap_fake_ltproot(dir, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", dir);
	fp = fopen(path, "w");
	/* The flood goes on until the test has seen it run. */
	fprintf(fp, "read01 flood 50 %s/flood.stop\nread02 pass\n"
	    "read03 pass\npause01 hang\nmmap01 escapes\n", dir);
	fclose(fp);
	/* LTP's metadata: what read02 checks, the arch read03 needs. */
	snprintf(path, sizeof(path), "%s/metadata", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/metadata/ltp.json", dir);
	fp = fopen(path, "w");
	fprintf(fp, "{\"testsuite\": {}, \"defaults\": {}, \"tests\": {"
	    "\"read02\": {\"doc\": [\"Verify that read(2) returns what "
	    "was written.\", \"\", \"Also a second paragraph.\"], "
	    "\"groups\": [\"read\"], \"needs_root\": \"1\"}, "
	    "\"read03\": {\"groups\": [\"read\"], \"supported_archs\": "
	    "[\"s390x\"]}}}\n");
	fclose(fp);
}

static void
test_fake(void)
{
	char args[4096], root[1200], stop[1300];
	const char *s;
	FILE *fp;
	int i, moved;

	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	mkroot(root);
	snprintf(args, sizeof(args), "-L %s -m %s/tests/fixtures/linux/"
	    "syscall_64.tbl -d %s/fake.db --timeout 60", root, cwd,
	    tap_tmpdir());
	if (!ok(tmux_explorer(args, 200, 50) == 0, "200x50: opens on a fake LTP")) {
		tap_diag("%s", tmux_screen());
		tmux_stop();
		return;
	}
	tmux_keys("/");
	tmux_keys("-l '^read$'");
	tmux_keys("Enter Enter");
	ok(tmux_wait_for("tests of read: 3", 3000), "the tests of read");
	tmux_keys("j d");
	ok(tmux_wait_for("checks   Verify that read(2) returns what was "
	    "written.", 2000), "d shows what read02 checks (LTP's doc)");
	has_str(tmux_screen(), "Also a second paragraph", "all of it");
	tmux_keys("j");
	ok(tmux_wait_for("here     not runnable: runs only on s390x", 2000),
	    "read03: why a run would not start it, beforehand");
	tmux_keys("d k k");

	/* 50 MB of output: the pane fills while the cursor still moves. */
	tmux_keys("r");
	/* Deadlines, not delays: a loaded machine only makes them later. */
	ok(tmux_wait_for("of the flood, as long as", 30000),
	    "flood output streams in");
	ok(tmux_wait_for("running read01", 30000), "status says what runs");
	for (i = 0, moved = 0; i < 3; i++) {
		tmux_keys("j");
		if (tmux_wait_for(" 2/3  ? help", 15000))
			moved++;
		tmux_keys("k");
		if (tmux_wait_for(" 1/3  ? help", 15000))
			moved++;
	}
	is_int(moved, 6, "the cursor answers every key during the flood");
	has_str(tmux_screen(), "running read01", "while the flood still runs");
	snprintf(stop, sizeof(stop), "%s/flood.stop", root);
	if ((fp = fopen(stop, "w")) != NULL)
		fclose(fp);
	ok(tmux_wait_for("== read01: pass", 120000), "the flood finishes");
	has_str(tmux_screen(), "oldest not kept here",
	    "the pane keeps only the newest lines");

	/* A test that hangs: x stops it. */
	tmux_keys("q / C-u");
	tmux_keys("-l '^pause$'");
	tmux_keys("Enter Enter r");
	ok(tmux_wait_for("running pause01", 5000), "the hanging test runs");
	tmux_keys("x");
	ok(tmux_wait_for("stopped by the user", 10000), "x stops it");
	ok(tmux_wait_for("finished", 10000), "and the run ends");
	has_str(tmux_line("pause01"), "interrupted",
	    "the stopped test is interrupted");

	/* Escape sequences become placeholders; the screen stays intact. */
	tmux_keys("q / C-u");
	tmux_keys("-l '^mmap$'");
	tmux_keys("Enter Enter r");
	ok(tmux_wait_for("== mmap01", 8000), "escapes test ran");
	s = tmux_screen();
	has_str(s, "^H^G", "backspace and bell shown as ^H^G");
	has_str(s, "nul ^@ byte", "NUL shown as ^@");
	has_str(s, "bad utf-8 \\xff\\xfe", "bytes that are not UTF-8 as "
	    "\\xNN");
	has_str(s, "ltpscope  tests of mmap", "title line intact");
	has_str(s, "  TEST               SYSCALL", "column header intact");
	has_str(s, "run 3 finished", "status line intact");

	/* Quitting with a run in progress asks first. */
	tmux_keys("q / C-u");
	tmux_keys("-l '^pause$'");
	tmux_keys("Enter Enter r");
	ok(tmux_wait_for("running pause01", 5000), "a hang runs again");
	tmux_keys("Q");
	ok(tmux_wait_for("A run is in progress", 2000), "Q asks first");
	tmux_keys("n");
	ok(tmux_alive(), "n keeps the explorer");
	tmux_keys("Q");
	ok(tmux_wait_for("A run is in progress", 2000), "asked again");
	tmux_keys("y");
	ok(tmux_wait_dead(15000), "y stops the run and quits");
	tmux_stop();
}

int
main(void)
{
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	test_demo();
	test_fake();
	return tap_done();
}
