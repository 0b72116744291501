/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linux reference runs: a reference run of fake LTP tests on this
 * machine (ltpscope run --reference), compat runs made up as the shell
 * tool's logs from NetBSD (amd64, where Linux says x86_64), then
 * compare, the shopping list, suggest and the HTML report, which must
 * mark the failures Linux shares and put them last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "ltpscope/linuxref.h"
#include "ltpscope/rules.h"
#include "tap.h"
#include "tmux.h"

static char	root[1100];
static char	db[1200];
static char	cwd[1024];

static void
mkroot(void)
{
	static const char *const fakes[] = { "pass", "fail", "broken", NULL };
	char path[1200];
	FILE *fp;

	tap_fake_ltproot(root, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", root);
	if ((fp = fopen(path, "w")) == NULL)
		abort();
	fprintf(fp, "open01 pass\nclose01 pass\nread01 fail\nwrite01 pass\n"
	    "mmap01 broken\n");
	fclose(fp);
}

/* One log of the shell tool: a NetBSD amd64 header, then the output. */
static void
mklog(const char *dir, const char *sys, const char *tag, const char *line,
    int failed)
{
	char path[1400];
	FILE *fp;

	(void)mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/%s", dir, sys);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/%s.log", dir, sys, tag);
	if ((fp = fopen(path, "w")) == NULL)
		abort();
	fprintf(fp, "---- compat_linux_test_project log header ----\n"
	    "date: Thu, 03 Dec 2026 10:00:00 +0000\nnetbsd_version: 11.0\n"
	    "arch: amd64\nltp_version: 20260529\nsyscall_tested: %s\n"
	    "--------------------------------------------------\n\n"
	    "%s\n\nSummary:\npassed   %d\nfailed   %d\nbroken   0\n"
	    "skipped  0\nwarnings 0\n", sys, line, !failed, failed);
	fclose(fp);
}

/*
 * Two compat runs: c1 where all pass, c2 where four fail: close01 and
 * write01 (they pass on Linux: the real shopping), read01 the way the
 * fake fails on Linux (a linux-bug-test), mmap01 otherwise than on
 * Linux (broken there).
 */
static void
mkcompat(void)
{
	static const char *const tags[][2] = { { "open", "open01" },
	    { "close", "close01" }, { "read", "read01" },
	    { "write", "write01" }, { "mmap", "mmap01" } };
	char c1[1200], c2[1200], line[256];
	size_t i;

	snprintf(c1, sizeof(c1), "%s/c1", tap_tmpdir());
	snprintf(c2, sizeof(c2), "%s/c2", tap_tmpdir());
	for (i = 0; i < 5; i++) {
		snprintf(line, sizeof(line), "%s.c:5: TPASS: fine", tags[i][1]);
		mklog(c1, tags[i][0], tags[i][1], line, 0);
	}
	mklog(c2, "open", "open01", "open01.c:5: TPASS: fine", 0);
	mklog(c2, "close", "close01", "close01.c:9: TFAIL: close(-1) "
	    "succeeded", 1);
	/* fail.c says this at line 81; our build's line differs. */
	mklog(c2, "read", "read01", "read01.c:90: TFAIL: a privileged user "
	    "init the capacity of a pipe to 4096 unexpectedly, expected "
	    "65536", 1);
	mklog(c2, "write", "write01", "write01.c:7: TFAIL: write() gave "
	    "EFAULT", 1);
	mklog(c2, "mmap", "mmap01", "mmap01.c:7: TFAIL: mmap failed: EINVAL",
	    1);
}

static void
test_arch(void)
{
	is_str(linuxref_arch("x86_64"), "amd64", "x86_64 is amd64");
	is_str(linuxref_arch("i686"), "i386", "i686 is i386");
	is_str(linuxref_arch("sparc64"), "sparc64", "others stay");
	ok(linuxref_same_arch("amd64", "x86_64"), "amd64 = x86_64");
	ok(!linuxref_same_arch("amd64", "i386"), "amd64 != i386");
}

static void
test_rules(void)
{
	static const char rules[] =
	    "linux-bug-test\tlinux:^fail same$\n"
	    "missing-syscall\tENOSYS\n";
	static const char out[] = "x.c:1: TFAIL: open() failed: ENOSYS\n";
	struct rules_suggestion sg;
	struct diaglist dl;
	struct rules *r = rules_new();

	diag_init(&dl);
	is_int(rules_parse(r, "r", rules, strlen(rules), &dl), 0,
	    "a linux: rule parses");
	is_int(rules_get(r, 0)->field, RF_LINUX, "as a linux rule");
	ok(rules_suggest_ref(r, "x01", "x", "fail same", out,
	    strlen(out), &sg, &dl) && strcmp(sg.rule->category,
	    "linux-bug-test") == 0, "failing the same way on Linux: "
	    "linux-bug-test, before the output's line");
	rules_suggestion_clear(&sg);
	ok(rules_suggest_ref(r, "x01", "x", "fail other", out,
	    strlen(out), &sg, &dl) && strcmp(sg.rule->category,
	    "missing-syscall") == 0, "failing otherwise: the line decides");
	rules_suggestion_clear(&sg);
	ok(rules_suggest(r, "x01", "x", out, strlen(out), &sg, &dl) &&
	    strcmp(sg.rule->category, "missing-syscall") == 0,
	    "without a reference no linux rule matches");
	rules_suggestion_clear(&sg);
	rules_free(r);
	diag_free(&dl);
}

static void
test_reference_run(void)
{
	struct tap_cmd r = TAP_CMD_INIT;

	/* Not on Linux (as LTPSCOPE_OS makes it look): refused up front. */
	setenv("LTPSCOPE_OS", "NetBSD", 1);
	tap_cmd(&r, "-d %s -L %s run --reference open01", db, root);
	unsetenv("LTPSCOPE_OS");
	ok(r.status != 0, "run --reference off Linux fails");
	has_str(r.err, "made on Linux", "and says where a reference is made");

	tap_cmd(&r, "-d %s -L %s run --reference", db, root);
	is_int(r.status, 1, "the reference run ends with failures (exit 1)");
	has_str(r.out, "run 1 is the Linux reference", "run 1 is marked");
	tap_cmd_free(&r);
}

static void
test_imports(void)
{
	struct tap_cmd r = TAP_CMD_INIT;

	tap_cmd(&r, "-d %s import %s/c1", db, tap_tmpdir());
	is_int(r.status, 0, "compat run 2 imported");
	tap_cmd(&r, "-d %s import %s/c2", db, tap_tmpdir());
	is_int(r.status, 0, "compat run 3 imported");

	tap_cmd(&r, "-d %s baseline --reference 2", db);
	is_int(r.status, 1, "a NetBSD run cannot be the Linux reference");
	has_str(r.err, "ran on NetBSD, not Linux", "and says why");
	/* Refused whole: nothing of it is kept. */
	tap_cmd(&r, "-d %s/other.db import --reference %s/c2", tap_tmpdir(),
	    tap_tmpdir());
	is_int(r.status, 1, "import --reference of NetBSD logs fails");
	has_str(r.err, "c2: error: a run made on NetBSD, not Linux: not a "
	    "Linux reference; nothing imported", "names the file, says why");
	ok(strstr(r.out, "imported from") == NULL, "no run said imported");
	tap_cmd(&r, "-d %s/other.db runs --format json", tap_tmpdir());
	ok(strstr(r.out, "\"id\"") == NULL, "and none kept in the store");

	tap_cmd(&r, "-d %s runs", db);
	is_int(r.status, 0, "runs");
	{
		const char *r1 = strstr(r.out, "\n   1  "), *r2 =
		    strstr(r.out, "\n   2  ");

		ok(r1 != NULL && strncmp(r1 + 1 + strcspn(r1 + 1, "\n") - 17,
		    "[Linux reference]", 17) == 0,
		    "runs: run 1 marked the Linux reference");
		ok(r2 != NULL && strstr(tap_line_of(r2 + 1, "   2  "),
		    "Linux reference") == NULL, "runs: run 2 not");
	}
	tap_cmd(&r, "-d %s runs --format json", db);
	has_str(r.out, "\"linux_reference\": true}", "runs json: marked");
	has_str(r.out, "\"linux_reference\": false}", "runs json: others not");
	tap_cmd_free(&r);
}

static void
test_compare(void)
{
	struct tap_cmd r = TAP_CMD_INIT;

	tap_cmd(&r, "-d %s compare 2 3", db);
	is_int(r.status, 0, "compare 2 3");
	has_str(r.out, "Linux reference: run 1", "names the amd64 reference "
	    "(made on x86_64)");
	has_str(tap_line_of(r.out, "read01"), "(fails on Linux too)",
	    "read01 fails on Linux too");
	has_str(tap_line_of(r.out, "mmap01"), "(fails on Linux too)",
	    "mmap01 fails on Linux too (broken there)");
	ok(strstr(tap_line_of(r.out, "close01"), "Linux") == NULL,
	    "close01 passes on Linux: not marked");
	ok(strstr(tap_line_of(r.out, "write01"), "Linux") == NULL,
	    "write01 passes on Linux: not marked");
	ok(tap_pos(r.out, "write01") >= 0 &&
	    tap_pos(r.out, "close01") < tap_pos(r.out, "mmap01") &&
	    tap_pos(r.out, "write01") < tap_pos(r.out, "mmap01") &&
	    tap_pos(r.out, "write01") < tap_pos(r.out, "read01"),
	    "Linux's failures come last among the regressed");
	has_str(r.out, "fails on Linux    2", "counted");

	tap_cmd(&r, "-d %s compare --format json 2 3", db);
	is_int(r.status, 0, "compare --format json");
	has_str(r.out, "\"linux_run\": 1, \"fails_on_linux\": 2", "json: the "
	    "reference and the count");
	has_str(r.out, "\"test\": \"read01\", \"syscall\": \"read\", \"kind\": "
	    "\"regressed\", \"a\": \"pass\", \"b\": \"fail\", \"bad\": [0, 1], "
	    "\"skipped\": [0, 0], \"warnings\": [0, 0], \"flaky\": false, "
	    "\"linux\": \"fail\", \"fails_on_linux\": true",
	    "json: read01 with its Linux status");
	has_str(r.out, "\"linux\": \"pass\", \"fails_on_linux\": false",
	    "json: a test passing on Linux");
	tap_cmd_free(&r);
}

static void
test_shopping(void)
{
	struct tap_cmd r = TAP_CMD_INIT;

	tap_cmd(&r, "-d %s export --run 3 --format json", db);
	is_int(r.status, 0, "export json");
	has_str(r.out, "\"linux_run\": 1", "the list names the reference");
	ok(tap_pos(r.out, "\"name\": \"close\"") >= 0 &&
	    tap_pos(r.out, "\"name\": \"write\"") >= 0 &&
	    tap_pos(r.out, "\"name\": \"close\"") <
	    tap_pos(r.out, "\"name\": \"mmap\"") &&
	    tap_pos(r.out, "\"name\": \"write\"") <
	    tap_pos(r.out, "\"name\": \"mmap\"") &&
	    tap_pos(r.out, "\"name\": \"write\"") <
	    tap_pos(r.out, "\"name\": \"read\""),
	    "syscalls failing on Linux too come last");
	has_str(tap_line_of(r.out, "\"name\": \"read\""), "\"priority\": 0, "
	    "\"fails_on_linux\": 1", "read: priority 0, one Linux failure");
	has_str(r.out, "\"test\": \"read01\", \"status\": \"fail\", "
	    "\"category\": \"linux-bug-test\", \"source\": \"suggested\"",
	    "read01, failing the same way on Linux: linux-bug-test");
	ok(strstr(r.out, "\"test\": \"mmap01\", \"status\": \"fail\", "
	    "\"category\": \"linux-bug-test\"") == NULL,
	    "mmap01 fails otherwise on Linux: no linux-bug-test");

	tap_cmd(&r, "-d %s export --run 3 --format md", db);
	is_int(r.status, 0, "export md");
	has_str(r.out, "2 of the failing tests fail there too, listed last",
	    "md: says how many fail on Linux");
	has_str(tap_line_of(r.out, "**read01**"), "(fails on Linux too)",
	    "md: read01 marked");

	tap_cmd(&r, "-d %s export --run 3 --format csv", db);
	has_str(r.out, "\"flaky\",\"linux\"\r\n", "csv: a linux column");
	has_str(tap_line_of(r.out, "\"read01\""), "\"no\",\"fail\"",
	    "csv: read01 fails on Linux");

	tap_cmd(&r, "-d %s suggest 3", db);
	is_int(r.status, 0, "suggest 3");
	has_str(tap_line_of(r.out, "read01"), "linux-bug-test",
	    "suggest: read01 is a linux-bug-test");
	tap_cmd_free(&r);
}

static void
test_html(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char path[1200], *buf;

	snprintf(path, sizeof(path), "%s/report.html", tap_tmpdir());
	tap_cmd(&r, "-d %s export --run 3 -o %s", db, path);
	is_int(r.status, 0, "export -o report.html");
	if ((buf = tap_slurp(path, NULL)) == NULL)
		buf = strdup("");
	has_str(buf, "id=\"chart-category\"", "html: category chart");
	has_str(buf, "id=\"chart-status\"", "html: status chart");
	has_str(buf, "id=\"chart-history\"", "html: history chart");
	has_str(buf, "data-run=\"2\" data-passed=\"5\"", "html: run 2 passed "
	    "5 in the history");
	has_str(buf, "data-run=\"3\" data-passed=\"1\"", "html: run 3 passed "
	    "1");
	ok(strstr(buf, "data-run=\"1\"") == NULL, "html: the Linux run is "
	    "not in the compat history");
	has_str(buf, "<table id=\"syscalls\" class=\"sortable\">",
	    "html: the per-syscall table, sortable");
	has_str(buf, "<th class=\"col-run\">run 3<br>NetBSD amd64</th>",
	    "html: the run's column");
	has_str(buf, "<th class=\"col-linux\">Linux reference<br>run 1<br>"
	    "Linux x86_64</th>", "html: the Linux reference column");
	has_str(tap_line_of(buf, "<tr><td>read</td>"), "<td data-v=\"0.0000\" "
	    "class=\"somefail\">0/1</td><td data-v=\"0.0000\" "
	    "class=\"somefail\">0/1</td>", "html: read fails here and on "
	    "Linux");
	has_str(tap_line_of(buf, "<tr><td>close</td>"), "class=\"somefail\">0/1"
	    "</td><td data-v=\"1.0000\" class=\"allpass\">1/1</td>",
	    "html: close fails here and passes on Linux");
	has_str(buf, "<tr class=\"linux-too\">", "html: Linux's failures "
	    "marked in the test table");
	has_str(buf, "addEventListener('click'", "html: sorting in the page");
	ok(strstr(buf, "<script src") == NULL && strstr(buf, "<link") ==
	    NULL && strstr(buf, "@import") == NULL && strstr(buf, "url(") ==
	    NULL && strstr(buf, "@font-face") == NULL,
	    "html: one file: no external script, style or font");
	ok(tap_pos(buf, "<td>close01</td>") <
	    tap_pos(buf, "<td>read01</td>") &&
	    tap_pos(buf, "<td>write01</td>") <
	    tap_pos(buf, "<td>mmap01</td>"),
	    "html: Linux's failures last in the test table");
	free(buf);

	if ((buf = tap_chromium("--dump-dom", path)) != NULL) {
		has_str(buf, "Linux reference<br>run 1", "chromium: the "
		    "rendered page holds the Linux column");
		free(buf);
	} else
		tap_diag("chromium not on PATH: HTML checked structurally");
	tap_cmd_free(&r);
}

/* The explorer: C (compare) and S (shopping list) on the same runs. */
static void
test_explorer(void)
{
	char cmd[8192];
	const char *s;

	snprintf(cmd, sizeof(cmd), "env HOME=%s XDG_CONFIG_HOME=%s "
	    "XDG_DATA_HOME=%s %s -L %s -m %s/tests/fixtures/linux/"
	    "syscall_64.tbl -d %s", tap_tmpdir(), tap_tmpdir(), tap_tmpdir(),
	    tap_bin(), root, cwd, db);
	if (tmux_start(cmd, 160, 40) != 0 || !tmux_wait_for("? help",
	    8000)) {
		ok(0, "the explorer opens");
		tap_diag("%s", tmux_screen());
		tmux_stop();
		return;
	}
	tmux_keys("C");
	ok(tmux_wait_for("compare run 2 with run 3", 3000),
	    "C compares run 3 with run 2");
	s = tmux_screen();
	has_str(s, "Linux reference: run 1; 2 failing here fail on Linux "
	    "too", "the compare view names the reference");
	/* The rest of read01's line, from its name on. */
	has_str(strstr(tap_line_of(s, "read01"), "read01"),
	    "fails on Linux too", "read01 is marked");
	ok(tap_pos(s, "close01") >= 0 &&
	    tap_pos(s, "close01") < tap_pos(s, "read01") &&
	    tap_pos(s, "write01") < tap_pos(s, "mmap01"),
	    "and listed after compat_linux's own");
	tmux_keys("q");
	tmux_keys("S");
	ok(tmux_wait_for("shopping list of run 3", 3000), "S: the shopping "
	    "list of run 3");
	s = tmux_screen();
	has_str(strstr(tap_line_of(s, "read01"), "read01"),
	    "(fails on Linux too)", "read01 marked there too");
	tmux_keys("q");
	tmux_keys("q");
	(void)tmux_wait_dead(3000);
	tmux_stop();
}

static void
test_clear_and_kirk(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char kdb[1200];

	tap_cmd(&r, "-d %s baseline --clear-reference x86_64", db);
	is_int(r.status, 0, "baseline --clear-reference x86_64");
	tap_cmd(&r, "-d %s compare 2 3", db);
	ok(strstr(r.out, "Linux") == NULL, "without a reference nothing is "
	    "marked");

	/* ltpscope's own JSON of the Linux run, brought to another db. */
	tap_cmd(&r, "-d %s show 1 --with-outputs", db);
	is_int(r.status, 2, "show --with-outputs wants --format json");
	tap_cmd(&r, "-d %s show 1 --format json --with-outputs >%s/linux.json",
	    db, tap_tmpdir());
	is_int(r.status, 0, "show 1 --format json --with-outputs");
	snprintf(kdb, sizeof(kdb), "%s/own.db", tap_tmpdir());
	tap_cmd(&r, "-d %s import --reference %s/linux.json", kdb,
	    tap_tmpdir());
	is_int(r.status, 0, "import --reference of ltpscope's own JSON: %s",
	    r.err);
	has_str(r.out, "run 1: 5 tests imported", "every test of it");
	has_str(r.out, "(pass 3, fail 1, broken 1)", "with its verdicts");
	has_str(r.out, "run 1 is the Linux reference", "the reference there");
	tap_cmd(&r, "-d %s import %s/c2", kdb, tap_tmpdir());
	tap_cmd(&r, "-d %s export --format json", kdb);
	is_int(r.status, 0, "export from the other db");
	has_str(r.out, "\"test\": \"read01\", \"status\": \"fail\", "
	    "\"category\": \"linux-bug-test\"", "the outputs came along: "
	    "read01 fails on Linux the same way");
	has_str(tap_line_of(r.out, "\"name\": \"read\""), "\"priority\": 0",
	    "and ranks last");

	snprintf(kdb, sizeof(kdb), "%s/kirk.db", tap_tmpdir());
	tap_cmd(&r, "-d %s import --reference "
	    "%s/tests/fixtures/kirk/results.json", kdb, cwd);
	is_int(r.status, 0, "import --reference of kirk's results.json");
	has_str(r.out, "run 1 is the Linux reference", "kirk's run is the "
	    "reference");
	tap_cmd_free(&r);
}

int
main(void)
{
	struct utsname u;

	/* tap.c gave the program its own HOME, XDG dirs and no LTPSCOPE_*. */
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/ref.db", tap_tmpdir());
	mkroot();
	mkcompat();

	test_arch();
	test_rules();
	/* A reference run is made on Linux; elsewhere only the above. */
	if (uname(&u) != 0 || strcmp(u.sysname, "Linux") != 0) {
		tap_diag("# SKIP not on Linux: no reference run here");
		return tap_done();
	}
	test_reference_run();
	test_imports();
	test_compare();
	test_shopping();
	test_html();
	if (tap_have("tmux"))
		test_explorer();
	else
		tap_diag("tmux not on PATH: the explorer is not checked");
	test_clear_and_kirk();
	return tap_done();
}
