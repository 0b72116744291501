/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The command line as a user types it: the global options -d, -L and
 * -m before the subcommand (as git and tig take theirs), numbers that
 * options take checked whole with an error naming the option, and run
 * honouring every item of a list however long, and every kind of
 * option error said in one form by every subcommand.  The synopses of
 * help and -h are checked against the manual in test_man.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

/* More than the 256 items run once kept of each list, dropping the rest. */
#define MANY	300

static char	root[1100];
static char	table[2048];
static char	db[1200];

/* The first word of the line of out whose second word is tag. */
static const char *
status_of(const char *out, const char *tag)
{
	static char word[32];
	const char *p;
	char w1[32], w2[64];

	word[0] = '\0';
	for (p = out; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL)
		if (sscanf(p, "%31s %63s", w1, w2) == 2 &&
		    strcmp(w2, tag) == 0) {
			snprintf(word, sizeof(word), "%s", w1);
			break;
		}
	return word;
}

static void
mkroot(void)
{
	static const char *const fakes[] = { "pass", "fail", NULL };
	char path[1200];
	FILE *fp;

	tap_fake_ltproot(root, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", root);
	if ((fp = fopen(path, "w")) == NULL)
		abort();
	fprintf(fp, "open01 pass\nclose01 pass\nread01 fail\n");
	fclose(fp);
}

static void
test_globals_first(void)
{
	struct tap_cmd r = TAP_CMD_INIT;

	/* What used to start the explorer and fail without a terminal. */
	tap_cmd(&r, "-d %s -L %s -m %s run open01 close01", db, root, table);
	is_int(r.status, 0, "ltpscope -d db -L dir -m table run ...: exit 0");
	ok(strstr(r.err, "needs a terminal") == NULL, "run, not the explorer");
	is_str(status_of(r.out, "open01"), "PASS", "open01 ran and passed");
	is_str(status_of(r.out, "close01"), "PASS", "close01 ran and passed");

	tap_cmd(&r, "-d %s show last", db);
	is_int(r.status, 0, "ltpscope -d db show last: exit 0");
	has_str(r.out, "open01", "show last, in the database -d named, lists "
	    "open01");

	tap_cmd(&r, "--db=%s show last --format json", db);
	is_int(r.status, 0, "ltpscope --db=db show last: exit 0");
	has_str(r.out, "\"tag\": \"close01\"", "--db=db before show works");

	tap_cmd(&r, "-d%s runs", db);
	is_int(r.status, 0, "ltpscope -ddb runs: exit 0");
	ok(strstr(r.err, "no such database") == NULL,
	    "-ddb names the database");

	tap_cmd(&r, "--master=%s catalogue --summary", table);
	is_int(r.status, 0,
	    "ltpscope --master=table catalogue --summary: exit 0");
	has_str(r.out, "8 numbers in Linux's table", "the table given first "
	    "is the one summed up");

	tap_cmd(&r, "--ltproot %s -m %s tests close01", root, table);
	is_int(r.status, 0, "ltpscope --ltproot dir -m table tests: exit 0");
	has_str(r.out, "close01", "the tests of the install given first");

	/* The same option after the subcommand wins. */
	tap_cmd(&r, "-d %s show -d %s/other.db last", db, tap_tmpdir());
	is_int(r.status, 1, "show -d other.db after a global -d: exit 1");
	has_str(r.err, "other.db: no such database", "the later -d wins");

	/* Before the name, -L and -m mean an install and a table. */
	tap_cmd(&r, "-L %s show last", root);
	is_int(r.status, 2, "-L before show (which takes no -L): exit 2");
	has_str(r.err, "-L means an LTP install, which show does not take",
	    "the error names -L and show");
	is_str(r.out, "", "nothing on stdout");

	tap_cmd(&r, "-m %s tag open01 bug", table);
	is_int(r.status, 2, "-m before tag (whose -m is a note): exit 2");
	has_str(r.err, "-m means a syscall table, which tag does not take",
	    "the error names -m and tag");

	tap_cmd(&r, "-d %s bogus", db);
	is_int(r.status, 2, "an unknown subcommand after -d: exit 2");
	has_str(r.err, "unknown subcommand 'bogus'", "and says which");

	/* With no subcommand the options stay the explorer's. */
	tap_cmd(&r, "-d %s", db);
	is_int(r.status, 1,
	    "ltpscope -d db alone is the explorer: exit 1 here");
	has_str(r.err, "the explorer needs a terminal", "it wants a terminal");
	tap_cmd_free(&r);
}

static void
test_numbers(void)
{
	static const struct {
		const char	*args;
		const char	*opt;
		const char	*bad;
	} bad[] = {
		{ "ui --timeout abc", "--timeout", "'abc'" },
		{ "ui --timeout -5", "--timeout", "'-5'" },
		{ "ui --timeout=' 7'", "--timeout", "' 7'" },
		{ "ui -j 65", "-j", "'65'" },
		{ "ui --jobs 2x", "-j", "'2x'" },
		{ "run --timeout 5x", "--timeout", "'5x'" },
		{ "run --timeout 99999999999999999999", "--timeout",
		    "'99999999999999999999'" },
		{ "run --timeout 3000000", "--timeout", "'3000000'" },
		{ "run -j 0", "-j", "'0'" },
		{ "run --grace ms", "--grace", "'ms'" },
		{ "run --grace ''", "--grace", "''" },
		{ "run --timeout-mul 0", "--timeout-mul", "'0'" },
		{ "run --timeout-mul inf", "--timeout-mul", "'inf'" },
		{ "run --timeout-mul 2x", "--timeout-mul", "'2x'" },
		{ "run --resume 1x", "--resume", "'1x'" },
		{ "compare --flaky 2/x", "--flaky", "N/M" },
		{ "compare --flaky 5/2", "--flaky", "N/M" },
	};
	struct tap_cmd r = TAP_CMD_INIT;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tap_cmd(&r, "%s", bad[i].args);
		is_int(r.status, 2, "ltpscope %s: exit 2", bad[i].args);
		has_str(r.err, bad[i].opt, "ltpscope %s: the error names %s",
		    bad[i].args, bad[i].opt);
		has_str(r.err, bad[i].bad, "ltpscope %s: and quotes %s",
		    bad[i].args, bad[i].bad);
		is_str(r.out, "", "ltpscope %s: nothing on stdout",
		    bad[i].args);
	}

	/* Good numbers at the ends of their ranges pass. */
	tap_cmd(&r, "ui --timeout 0 -j 64");
	is_int(r.status, 1, "ui --timeout 0 -j 64 is accepted (then wants a "
	    "terminal)");
	has_str(r.err, "needs a terminal", "past the options");
	tap_cmd(&r, "run -L %s -m %s --timeout 0 -j 64 --grace 1 "
	    "--timeout-mul 2.5 --dry-run open01", root, table);
	is_int(r.status, 0, "run --timeout 0 -j 64 --grace 1 --timeout-mul 2.5 "
	    "--dry-run: exit 0");
	has_str(r.out, "open01", "and lists open01");
	tap_cmd_free(&r);
}

/*
 * The option loop every subcommand shares (cmd_entry.c) says each kind
 * of mistake in one form: "ltpscope: CMD: ...", the synopsis after an
 * unknown option or a bad --format, exit 2 and nothing on stdout; and
 * without a subcommand (the explorer's options) "ltpscope: ..." alone.
 */
static void
test_option_errors(void)
{
	static const struct {
		const char	*args;
		const char	*first;		/* the whole first line */
		const char	*usage;		/* the synopsis after it */
	} bad[] = {
		{ "runs --bogus", "ltpscope: runs: unknown option '--bogus'",
		    "usage: ltpscope runs" },
		{ "show -q last", "ltpscope: show: unknown option '-q'",
		    "usage: ltpscope show" },
		{ "run --bogus", "ltpscope: run: unknown option '--bogus'",
		    "usage: ltpscope run" },
		{ "profile show --bogus x",
		    "ltpscope: profile show: unknown option '--bogus'",
		    "usage: ltpscope profile import" },
		{ "help --bogus", "ltpscope: help: unknown option '--bogus'",
		    "usage: ltpscope help" },
		{ "--bogus", "ltpscope: unknown option '--bogus'",
		    "usage: ltpscope [ui]" },
		{ "ui --bogus", "ltpscope: ui: unknown option '--bogus'",
		    "usage: ltpscope [ui]" },
		{ "runs --format x",
		    "ltpscope: runs: unknown format 'x' (text or json)",
		    "usage: ltpscope runs" },
		{ "compare --format x",
		    "ltpscope: compare: unknown format 'x' (text or json)",
		    "usage: ltpscope compare" },
		{ "tags --format=yaml",
		    "ltpscope: tags: unknown format 'yaml' (text, csv or json)",
		    "usage: ltpscope tags" },
		{ "catalogue --format x", "ltpscope: catalogue: unknown "
		    "format 'x' (text, csv or json)", "usage: ltpscope "
		    "catalogue" },
		{ "export --format x", "ltpscope: export: unknown format 'x' "
		    "(csv, md, markdown, json or html)", "usage: ltpscope "
		    "export" },
		{ "profile show --format x y", "ltpscope: profile show: "
		    "unknown format 'x' (text or json)", "usage: ltpscope "
		    "profile" },
		{ "run -j", "ltpscope: run: -j needs an argument",
		    "usage: ltpscope run" },
		{ "run --label", "ltpscope: run: --label needs an argument",
		    "usage: ltpscope run" },
		{ "run --dry-run=yes", "ltpscope: run: --dry-run takes no "
		    "argument", "usage: ltpscope run" },
		{ "run --time 5", "ltpscope: run: ambiguous option '--time'",
		    "usage: ltpscope run" },
		{ "profile frob", "ltpscope: profile: unknown action 'frob'",
		    "usage: ltpscope profile" },
		{ "help frob", "ltpscope: help: unknown subcommand 'frob'",
		    NULL },
		{ "--timeout x", "ltpscope: --timeout: 'x' is not a whole "
		    "number from 0 to 2147483", NULL },
		{ "-j 0", "ltpscope: -j: '0' is not a whole number from 1 to "
		    "64", NULL },
		{ "ui --timeout x", "ltpscope: ui: --timeout: 'x' is not a "
		    "whole number from 0 to 2147483", NULL },
		{ "run --timeout x", "ltpscope: run: --timeout: 'x' is not a "
		    "whole number from 0 to 2147483", NULL },
		{ "run --timeout-mul 0", "ltpscope: run: --timeout-mul: '0' "
		    "is not a number from 0.1 to 10000", NULL },
		{ "run --resume x", "ltpscope: run: --resume: 'x' is not a "
		    "whole number from 1 to 9223372036854775807", NULL },
		{ "compare --flaky 5/2", "ltpscope: compare: --flaky: '5/2' "
		    "is not N/M with 0 < N < M <= 1000, e.g. 2/5", NULL },
		{ "compare --arch --flaky 2/5", "ltpscope: compare: --arch "
		    "sets arches side by side: no --fail-on-regression or "
		    "--flaky with it", NULL },
		{ "run --box-master x", "ltpscope: run: --box-master is the "
		    "path of a box's syscalls.master: it goes with --host",
		    NULL },
	};
	struct tap_cmd r = TAP_CMD_INIT;
	char first[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		tap_cmd(&r, "%s", bad[i].args);
		is_int(r.status, 2, "ltpscope %s: exit 2", bad[i].args);
		snprintf(first, sizeof(first), "%.*s",
		    (int)strcspn(r.err, "\n"), r.err);
		is_str(first, bad[i].first, "ltpscope %s: the message",
		    bad[i].args);
		if (bad[i].usage != NULL)
			has_str(r.err + strcspn(r.err, "\n"), bad[i].usage,
			    "ltpscope %s: then the synopsis", bad[i].args);
		else
			ok(strstr(r.err, "usage:") == NULL, "ltpscope %s: the "
			    "message alone", bad[i].args);
		is_str(r.out, "", "ltpscope %s: nothing on stdout",
		    bad[i].args);
	}
	tap_cmd_free(&r);
}

/* What getopt_long took, the shared loop takes. */
static void
test_option_forms(void)
{
	struct tap_cmd r = TAP_CMD_INIT;

	/* A long name cut short, an option after the operands, -f. */
	tap_cmd(&r, "runs --form json --d=%s", db);
	is_int(r.status, 0, "runs --form json --d=db: exit 0");
	ok(r.out[0] == '[', "--form is --format, --d is --db: JSON");
	tap_cmd(&r, "show last -fjson -d%s", db);
	is_int(r.status, 0, "show last -fjson -ddb: exit 0");
	has_str(r.out, "\"tag\": \"open01\"", "-f is --format where nothing "
	    "else takes -f, the operand first");
	/* "--" ends the options: "-x" is then a test's name. */
	tap_cmd(&r, "tests -L %s -m %s -- -x", root, table);
	is_int(r.status, 1, "tests -- -x: -x is a tag (none such): exit 1");
	ok(strstr(r.err, "unknown option") == NULL, "not an option after --");
	/* -vh: flags together; -h in them prints the synopsis. */
	tap_cmd(&r, "import -vh");
	is_int(r.status, 0, "import -vh: exit 0");
	has_str(r.out, "usage: ltpscope import", "the synopsis on stdout");
	/* Too many operands: the synopsis alone. */
	tap_cmd(&r, "runs extra");
	is_int(r.status, 2, "runs extra: exit 2");
	ok(strncmp(r.err, "usage: ltpscope runs", 20) == 0, "the synopsis");
	tap_cmd_free(&r);
}

/* More items than run once kept, in each of its lists. */
static void
test_long_lists(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char *args, path[1300];
	size_t len, cap = 64 * 1024;
	FILE *fp;
	int i;

	if ((args = malloc(cap)) == NULL)
		abort();

	/* -f: MANY runtest files of a test each; the last one counts too. */
	len = (size_t)snprintf(args, cap, "run -L %s -m %s --dry-run", root,
	    table);
	for (i = 0; i < MANY; i++) {
		snprintf(path, sizeof(path), "%s/runtest/rt%03d", root, i);
		if ((fp = fopen(path, "w")) == NULL)
			abort();
		fprintf(fp, "open%03d pass\n", i);
		fclose(fp);
		len += (size_t)snprintf(args + len, cap - len, " -f rt%03d", i);
	}
	tap_cmd(&r, "%s", args);
	is_int(r.status, 0, "run with %d -f files: exit 0", MANY);
	has_str(r.out, "open000", "the first file's test is listed");
	has_str(r.out, "open299", "the test of file %d is listed", MANY);

	/* -s: the syscall that selects anything comes after MANY others. */
	len = (size_t)snprintf(args, cap, "run -L %s -m %s --dry-run -s ",
	    root, table);
	for (i = 0; i < MANY; i++)
		len += (size_t)snprintf(args + len, cap - len, "nosuch%d,", i);
	snprintf(args + len, cap - len, "close");
	tap_cmd(&r, "%s", args);
	is_int(r.status, 0, "run -s with %d names before close: exit 0", MANY);
	has_str(r.out, "close01", "close, item %d of -s, selects close01",
	    MANY + 1);

	/* --skip: MANY files; only the last skips anything. */
	len = (size_t)snprintf(args, cap, "run -L %s -m %s --dry-run -s "
	    "open,close", root, table);
	for (i = 0; i <= MANY; i++) {
		snprintf(path, sizeof(path), "%s/skip%03d", tap_tmpdir(), i);
		if ((fp = fopen(path, "w")) == NULL)
			abort();
		if (i == MANY)
			fprintf(fp, "close01\tskipped by the last list\n");
		else
			fprintf(fp, "nosuch%d\tnever matches\n", i);
		fclose(fp);
		len += (size_t)snprintf(args + len, cap - len, " --skip %s",
		    path);
	}
	tap_cmd(&r, "%s", args);
	is_int(r.status, 0, "run with %d --skip files: exit 0", MANY + 1);
	has_str(r.out, "skip: skipped by the last list", "skip list %d holds",
	    MANY + 1);
	free(args);
	tap_cmd_free(&r);
}

/* Every option that takes a list splits it the same way (listparse.h). */
static void
test_lists(void)
{
	static const char *const lists[] = { "tests -s 'open, close'",
	    "tests -s 'open close'", "tests -s ,open,,close,",
	    "run --dry-run -s 'open, close'", "run --dry-run -s 'open close'" };
	struct tap_cmd r = TAP_CMD_INIT;
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		tap_cmd(&r, "-L %s -m %s %s", root, table, lists[i]);
		is_int(r.status, 0, "%s: exit 0", lists[i]);
		has_str(r.out, "open01", "%s: open01", lists[i]);
		has_str(r.out, "close01", "%s: close01", lists[i]);
		ok(strstr(r.out, "read01") == NULL, "%s: not read01", lists[i]);
	}
	tap_cmd_free(&r);
}

/*
 * Every subcommand says a missing database and a bad run argument in the
 * same words, and the explorer's option errors name ltpscope, not "ui".
 */
static void
test_messages(void)
{
	static const struct {
		const char	*args;
		int		 status;
	} missing[] = {
		{ "show last", 1 }, { "compare", 1 }, { "tags", 1 },
		{ "export", 1 }, { "runs", 0 }, { "runs --format json", 0 },
		{ "untag open01", 1 }, { "suggest", 1 }, { "baseline 1", 1 },
		{ "export-logs last out", 1 }, { "profile list", 1 },
	};
	static const char *const badrun[] = { "show x", "compare x",
	    "tags --run x", "export --run x", "export-logs x out",
	    "baseline x", "suggest x" };
	struct tap_cmd r = TAP_CMD_INIT;
	char want[4096], none[1200], *first = NULL;
	size_t i;

	snprintf(none, sizeof(none), "%s/none.db", tap_tmpdir());
	snprintf(want, sizeof(want), "ltpscope: %s: no such database; "
	    "no runs yet\n", none);
	for (i = 0; i < sizeof(missing) / sizeof(missing[0]); i++) {
		tap_cmd(&r, "-d %s %s", none, missing[i].args);
		is_int(r.status, missing[i].status, "%s on a missing database: "
		    "exit %d", missing[i].args, missing[i].status);
		is_str(r.err, want, "%s: the one missing-database message",
		    missing[i].args);
	}
	ok(access(none, F_OK) != 0, "and none of them created it");

	/* A run argument that is no run: the same words, its own name. */
	for (i = 0; i < sizeof(badrun) / sizeof(badrun[0]); i++) {
		tap_cmd(&r, "-d %s %s", db, badrun[i]);
		snprintf(want, sizeof(want), "ltpscope: %.*s: 'x' is not a "
		    "run number (see ltpscope runs)\n",
		    (int)strcspn(badrun[i], " "), badrun[i]);
		ok(r.status != 0, "%s: fails", badrun[i]);
		is_str(r.err, want, "%s: says it names no run", badrun[i]);
	}

	/* The explorer's options: ltpscope is the program, ui or not. */
	tap_cmd(&r, "--bogus");
	is_int(r.status, 2, "ltpscope --bogus: exit 2");
	ok(strncmp(r.err, "ltpscope: ", 10) == 0, "the error names ltpscope");
	has_str(r.err, "--bogus", "and the option");
	ok(strstr(r.err, "ui:") == NULL, "not ui:");
	first = strndup(r.err, strcspn(r.err, "\n"));
	tap_cmd(&r, "-d x.db --bogus");
	is_int(r.status, 2, "ltpscope -d x.db --bogus: exit 2");
	ok(first != NULL && strncmp(r.err, first, strlen(first)) == 0,
	    "the same message after a global option");
	free(first);
	tap_cmd_free(&r);
}

int
main(void)
{
	char cwd[1024];

	/* tap.c gave the program its own HOME, XDG dirs and no LTPSCOPE_*. */
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(table, sizeof(table), "%s/tests/fixtures/catalogue/"
	    "fixture_64.tbl", cwd);
	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/cli.db", tap_tmpdir());
	mkroot();

	test_globals_first();
	test_numbers();
	test_long_lists();
	test_messages();
	test_option_errors();
	test_option_forms();
	test_lists();
	return tap_done();
}
