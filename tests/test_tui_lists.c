/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The "/" filter in every list of the explorer, in a real terminal
 * (tmux): the tests, a run's results, the runs, the comparison, a
 * profile and the category picker narrow to the rows a regular
 * expression matches, say the pattern on the status line and come back
 * whole on Esc; a bad pattern is said and changes nothing; no key typed
 * after "/" acts as a command.  And t on marked tests leaves those that
 * passed untagged, saying how many, or asks when all of them passed.
 * On a store of two runs of the demo's tests and one profile.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tmux.h"

#define DEMO_MASTER	"data/demo/linux-amd64-syscalls.master"

static char	cwd[1024];
static char	db[1200];

/* Run 1 (alpha): open and close; run 2 (beta) adds read, write, writev. */
static int
make_store(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	int st;

	snprintf(db, sizeof(db), "%s/lists.db", tap_tmpdir());
	/* A run with failures exits 1: what it says is what counts. */
	(void)tap_cmd(&r, "run -d %s -L %s/build/demo-ltp -m %s/" DEMO_MASTER
	    " -s open,close --label alpha", db, cwd, cwd);
	st = strstr(r.out, "run 1: 4 of 4 tests done") == NULL;
	(void)tap_cmd(&r, "run -d %s -L %s/build/demo-ltp -m %s/" DEMO_MASTER
	    " -s open,close,read,write,writev --label beta", db, cwd, cwd);
	st |= strstr(r.out, "run 2: 8 of 8 tests done") == NULL;
	st |= tap_cmd(&r, "profile import -d %s --name plain %s/tests/"
	    "fixtures/profile/strace-plain.txt", db, cwd);
	if (st != 0)
		tap_diag("%s%s", r.out, r.err);
	tap_cmd_free(&r);
	return st;
}

static int
start(void)
{
	char args[1300];

	snprintf(args, sizeof(args), "--demo -d %s", db);
	if (tmux_explorer(args, 120, 40) == 0)
		return 0;
	tap_diag("%s", tmux_screen());
	tmux_stop();
	return -1;
}

static void
quit(void)
{
	tmux_keys("Q");
	(void)tmux_wait_dead(3000);
	tmux_stop();
}

/* Types keys; 1 when text then shows within 3 s (a check named what). */
static int
step(const char *keys, const char *text, const char *what)
{
	tmux_keys(keys);
	return ok(tmux_wait_for(text, 3000), "%s", what);
}

/* The status line (the one ending in "? help"). */
static const char *
status_line(void)
{
	return tmux_line("? help");
}

static int
on_screen(const char *text)
{
	return strstr(tmux_screen(), text) != NULL;
}

/*
 * In the list on screen (view): "/", pat and Enter hide the row holding
 * gone, keep the one holding stays, leave count (" 1/2") of the rows and
 * put /pat on the status line.
 */
static void
filter_check(const char *view, const char *pat, const char *gone,
    const char *stays, const char *count)
{
	char keys[300], shown[300];

	ok(on_screen(gone) && on_screen(stays), "%s: %s and %s are listed",
	    view, gone, stays);
	tmux_keys("/");
	snprintf(keys, sizeof(keys), "-l '%s'", pat);
	tmux_keys(keys);
	ok(tmux_wait_gone(gone, 2000), "%s: typing /%s hides %s at once",
	    view, pat, gone);
	tmux_keys("Enter");
	ok(tmux_wait_for("? help", 2000), "%s: Enter keeps the filter", view);
	has_str(tmux_screen(), stays, "%s: %s stays", view, stays);
	snprintf(shown, sizeof(shown), "%s  /%s  ? help", count, pat);
	has_str(status_line(), shown, "%s: the status line says the rows "
	    "and the pattern", view);
}

/* After filter_check(): Esc brings gone back, and pat leaves. */
static void
filter_clear(const char *view, const char *pat, const char *gone)
{
	char shown[300];

	tmux_keys("Escape");
	ok(tmux_wait_for(gone, 2000), "%s: Esc brings %s back", view, gone);
	snprintf(shown, sizeof(shown), "/%s  ? help", pat);
	ok(strstr(status_line(), shown) == NULL, "%s: the pattern is gone "
	    "from the status line", view);
}

/* T lists every test: "/" narrows it, Esc brings it back. */
static void
test_tests_view(void)
{
	if (start() != 0)
		return;
	step("T", "all tests of the LTP install: 25",
	    "tests: T lists the demo's 25 tests");
	filter_check("tests", "^open", "close01", "open02", " 1/2");
	filter_clear("tests", "^open", "close01");
	ok(!on_screen("Tab then /"), "tests: no word that / only filters "
	    "the catalogue");
	has_str(tmux_screen(), "all tests of the LTP install: 25",
	    "tests: Esc did not leave the view");

	/* A bad pattern: said, and nothing else happens. */
	tmux_keys("/");
	step("-l '(clo'", "bad pattern", "tests: a bad pattern is said");
	has_str(tmux_screen(), "missing closing parenthesis",
	    "tests: with pcre2's reason");
	ok(on_screen("open01") && on_screen("writev07"),
	    "tests: the rows stay as they were");
	step("Enter", "pattern not applied",
	    "tests: Enter on it keeps the list whole");
	ok(on_screen("open01") && on_screen("writev07"),
	    "tests: every row still there");

	/* In a run's results too: its two failures. */
	step("q R", "runs: 2 in", "runs: R lists two runs");
	step("g Enter", "run 2: 8 results", "results: Enter opens run 2");
	filter_check("results", "fail", "close01", "writev07", " 1/2");
	filter_clear("results", "fail", "close01");
	quit();
}

/* The runs, the comparison and a profile: the same "/". */
static void
test_other_lists(void)
{
	if (start() != 0)
		return;
	step("R", "runs: 2 in", "runs: R lists two runs");
	filter_check("runs", "alp", "beta", "alpha", " 1/1");
	filter_clear("runs", "alp", "beta");
	step("q C", "compare run 1 with run 2",
	    "compare: C compares the two runs");
	filter_check("compare", "writev", "read01", "writev07", " 1/2");
	filter_clear("compare", "writev", "read01");
	step("q P", "profile plain:", "profile: P shows plain");
	filter_check("profile", "^close", " getpid ", " close ", " 1/1");
	filter_clear("profile", "^close", " getpid ");

	step("?", "ltpscope help", "help opens");
	has_str(tmux_screen(), "filter the list by a regular expression",
	    "help: / filters any list");
	ok(strncmp(tmux_line("clear the list's filter"), "Esc ", 4) == 0,
	    "help: Esc clears it");
	quit();
}

/*
 * The issue's report: / in a list of tests, then t and Enter, tagged
 * the marked tests.  The keys now go into the pattern.
 */
static void
test_no_leak(void)
{
	struct tap_cmd r = TAP_CMD_INIT;

	if (start() != 0)
		return;
	step("T", "all tests of the LTP install: 25", "leak: the tests");
	/* close01, close02, read01, write01: four that passed. */
	tmux_keys("g j j Space Space Space Space");
	tmux_keys("/");
	tmux_keys("t");
	step("Enter", "? help", "leak: Enter ended the prompt");
	has_str(status_line(), "/t  ", "leak: t went into the pattern");
	ok(!on_screen("category for"), "leak: t opened no picker");
	ok(!on_screen("tagged"), "leak: Enter tagged nothing");
	tap_cmd(&r, "tags -d %s", db);
	ok(strstr(r.out, "missing-syscall") == NULL && strstr(r.out,
	    "close01") == NULL, "leak: the store has no tag");
	tap_cmd_free(&r);
	quit();
}

/* t on marked tests that include passing ones. */
static void
test_tag_passed(void)
{
	const char *line;

	if (start() != 0)
		return;
	step("T", "all tests of the LTP install: 25", "tag: the tests");
	/* open01 passed, open02 failed. */
	step("g Space Space t", "category for open02",
	    "tag: the picker names the failing test");
	step("Enter", "open02 tagged unsupported-flag",
	    "tag: Enter tags the failing one");
	has_str(tmux_screen(), "1 that passed left untagged",
	    "tag: and says how many it left");
	line = tmux_line("open01");
	ok(strstr(line, "-flag") == NULL && strstr(line, "-syscall") ==
	    NULL, "tag: open01, which passed, is not tagged (%s)", line);
	has_str(tmux_line("open02"), "unsupported-flag",
	    "tag: open02 is tagged");

	/* Only passing ones marked: asked first. */
	step("g Space Space Space Space t", "passed: tag them anyway? (y/n)",
	    "tag: two that passed: asked first");
	ok(!on_screen("category for"), "tag: no picker yet");
	tmux_keys("Enter");
	ok(!on_screen("category for"), "tag: Enter is no answer");
	step("n", "not tagged", "tag: n tags nothing");
	ok(strstr(tmux_line("close01"), "missing-syscall") == NULL,
	    "tag: close01 untagged");
	step("t", "tag them anyway?", "tag: asked again");
	step("y", "category for close01", "tag: y opens the picker");

	/* The picker has its "/" too; Enter then picks the row shown. */
	filter_check("picker", "wont", "missing-syscall", "wont-fix", " 1/1");
	step("Enter", "close01 tagged wont-fix",
	    "picker: Enter tags with the category shown");
	has_str(tmux_line("close02"), "wont-fix", "tag: close02 too");
	quit();
}

int
main(void)
{
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	if (!ok(make_store() == 0, "two runs of the demo and a profile"))
		return tap_done();
	test_tests_view();
	test_other_lists();
	test_no_leak();
	test_tag_passed();
	return tap_done();
}
