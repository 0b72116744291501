/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The command line as a user types it: the global options -d, -L and
 * -m before the subcommand (as git and tig take theirs), numbers that
 * options take checked whole with an error naming the option, and run
 * honouring every item of a list however long.  The synopses of help
 * and -h are checked against the manual in test_man.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

/* More than the 256 items run once kept of each list, dropping the rest. */
#define MANY	300

static char	bin[2048];
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
	char args[8192], *out, *err;
	int st;

	/* What used to start the explorer and fail without a terminal. */
	snprintf(args, sizeof(args), "-d %s -L %s -m %s run open01 close01",
	    db, root, table);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 0, "ltpscope -d db -L dir -m table run ...: exit 0");
	ok(strstr(err, "needs a terminal") == NULL, "run, not the explorer");
	is_str(status_of(out, "open01"), "PASS", "open01 ran and passed");
	is_str(status_of(out, "close01"), "PASS", "close01 ran and passed");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "-d %s show last", db);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 0, "ltpscope -d db show last: exit 0");
	has_str(out, "open01", "show last, in the database -d named, lists "
	    "open01");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "--db=%s show last --format json", db);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 0, "ltpscope --db=db show last: exit 0");
	has_str(out, "\"tag\": \"close01\"", "--db=db before show works");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "-d%s runs", db);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 0, "ltpscope -ddb runs: exit 0");
	ok(strstr(err, "no such database") == NULL, "-ddb names the database");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "--master=%s catalogue --summary",
	    table);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 0, "ltpscope --master=table catalogue --summary: exit 0");
	has_str(out, "8 numbers in Linux's table", "the table given first "
	    "is the one summed up");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "--ltproot %s -m %s tests close01",
	    root, table);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 0, "ltpscope --ltproot dir -m table tests: exit 0");
	has_str(out, "close01", "the tests of the install given first");
	free(out);
	free(err);

	/* The same option after the subcommand wins. */
	snprintf(args, sizeof(args), "-d %s show -d %s/other.db last", db,
	    tap_tmpdir());
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 1, "show -d other.db after a global -d: exit 1");
	has_str(err, "other.db: no such database", "the later -d wins");
	free(out);
	free(err);

	/* Before the name, -L and -m mean an install and a table. */
	snprintf(args, sizeof(args), "-L %s show last", root);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 2, "-L before show (which takes no -L): exit 2");
	has_str(err, "-L means an LTP install, which show does not take",
	    "the error names -L and show");
	is_str(out, "", "nothing on stdout");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "-m %s tag open01 bug", table);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 2, "-m before tag (whose -m is a note): exit 2");
	has_str(err, "-m means a syscall table, which tag does not take",
	    "the error names -m and tag");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "-d %s bogus", db);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 2, "an unknown subcommand after -d: exit 2");
	has_str(err, "unknown subcommand 'bogus'", "and says which");
	free(out);
	free(err);

	/* With no subcommand the options stay the explorer's. */
	snprintf(args, sizeof(args), "-d %s", db);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 1, "ltpscope -d db alone is the explorer: exit 1 here");
	has_str(err, "the explorer needs a terminal", "it wants a terminal");
	free(out);
	free(err);
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
	char args[8192], *out, *err;
	size_t i;
	int st;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		st = tap_run3(bin, bad[i].args, &out, &err);
		is_int(st, 2, "ltpscope %s: exit 2", bad[i].args);
		has_str(err, bad[i].opt, "ltpscope %s: the error names %s",
		    bad[i].args, bad[i].opt);
		has_str(err, bad[i].bad, "ltpscope %s: and quotes %s",
		    bad[i].args, bad[i].bad);
		is_str(out, "", "ltpscope %s: nothing on stdout",
		    bad[i].args);
		free(out);
		free(err);
	}

	/* Good numbers at the ends of their ranges pass. */
	st = tap_run3(bin, "ui --timeout 0 -j 64", &out, &err);
	is_int(st, 1, "ui --timeout 0 -j 64 is accepted (then wants a "
	    "terminal)");
	has_str(err, "needs a terminal", "past the options");
	free(out);
	free(err);
	snprintf(args, sizeof(args), "run -L %s -m %s --timeout 0 -j 64 "
	    "--grace 1 --timeout-mul 2.5 --dry-run open01", root, table);
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 0, "run --timeout 0 -j 64 --grace 1 --timeout-mul 2.5 "
	    "--dry-run: exit 0");
	has_str(out, "open01", "and lists open01");
	free(out);
	free(err);
}

/* More items than run once kept, in each of its lists. */
static void
test_long_lists(void)
{
	char *args, path[1300], *out, *err;
	size_t len, cap = 64 * 1024;
	FILE *fp;
	int i, st;

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
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 0, "run with %d -f files: exit 0", MANY);
	has_str(out, "open000", "the first file's test is listed");
	has_str(out, "open299", "the test of file %d is listed", MANY);
	free(out);
	free(err);

	/* -s: the syscall that selects anything comes after MANY others. */
	len = (size_t)snprintf(args, cap, "run -L %s -m %s --dry-run -s ",
	    root, table);
	for (i = 0; i < MANY; i++)
		len += (size_t)snprintf(args + len, cap - len, "nosuch%d,", i);
	snprintf(args + len, cap - len, "close");
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 0, "run -s with %d names before close: exit 0", MANY);
	has_str(out, "close01", "close, item %d of -s, selects close01",
	    MANY + 1);
	free(out);
	free(err);

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
	st = tap_run3(bin, args, &out, &err);
	is_int(st, 0, "run with %d --skip files: exit 0", MANY + 1);
	has_str(out, "skip: skipped by the last list", "skip list %d holds",
	    MANY + 1);
	free(out);
	free(err);
	free(args);
}

int
main(void)
{
	static const char *const unset[] = { "LTPSCOPE_DB",
	    "LTPSCOPE_MASTER", "LTPSCOPE_TESTMAP", "LTPSCOPE_EXTRA",
	    "LTPSCOPE_AUTHOR", "LTPSCOPE_LINUX_RELEASE", "LTPROOT", NULL };
	const char *b = getenv("LTPSCOPE_BIN");
	char cwd[1024];
	size_t i;

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(bin, sizeof(bin), "%s/%s", cwd, b ? b : "ltpscope");
	snprintf(table, sizeof(table), "%s/tests/fixtures/catalogue/"
	    "fixture_64.tbl", cwd);
	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/cli.db", tap_tmpdir());
	/* Nothing of the host: its home, its settings, its LTP. */
	setenv("HOME", tap_tmpdir(), 1);
	setenv("XDG_CONFIG_HOME", tap_tmpdir(), 1);
	setenv("XDG_DATA_HOME", tap_tmpdir(), 1);
	setenv("XDG_CACHE_HOME", tap_tmpdir(), 1);
	for (i = 0; unset[i] != NULL; i++)
		unsetenv(unset[i]);
	mkroot();

	test_globals_first();
	test_numbers();
	test_long_lists();
	return tap_done();
}
