/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The multi-arch matrix: made-up runs of eight tests on amd64, i386 and
 * evbarm (tests/fixtures/arches, see its README), beside an older and a
 * newer unfinished amd64 run and a Linux reference, none of which may
 * make a column.  The core's cells, scopes and counts first; then
 * compare --arch as text (80 columns) and JSON, the shopping list's
 * per-arch columns in every export format, and the explorer's C view.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/archmatrix.h"
#include "ltpscope/export.h"
#include "ltpscope/import.h"
#include "ltpscope/linuxref.h"
#include "fixture_store.h"
#include "tap.h"
#include "tmux.h"

static char	db[1200];
static char	cwd[1024];
/* The runs as made by mkstore(). */
static int64_t	run_old, run_amd64, run_i386, run_evbarm, run_live, run_linux;

/* A run of arch with every test of tags in status st. */
static int64_t
made_run(struct store *st, const char *arch, const char *const *tags,
    enum test_status status, int finish)
{
	struct store_result r;
	struct store_run run;
	struct diaglist dl;
	int64_t id;
	size_t i;

	fixture_run_init(&run);
	run.uname = (char *)"NetBSD h 10.1 GENERIC";
	run.os_version = (char *)"10.1";
	run.arch = (char *)arch;
	run.label = (char *)"made up";
	diag_init(&dl);
	if (store_run_begin(st, &run, NULL, 0, &dl) != STORE_OK)
		tap_diag("run_begin: %s", tap_first_diag(&dl));
	for (i = 0; tags[i] != NULL; i++) {
		memset(&r, 0, sizeof(r));
		r.tag = (char *)tags[i];
		r.status = status;
		r.nfail = status == TS_FAIL;
		r.npass = status == TS_PASS;
		r.exit_code = status == TS_PASS ? 0 : 1;
		if (store_test_start(st, run.id, tags[i], "", (int64_t)i, &id,
		    &dl) != STORE_OK || store_test_finish(st, id, &r, "x\n",
		    2, &dl) != STORE_OK)
			tap_diag("store: %s", tap_first_diag(&dl));
	}
	if (finish && store_run_end(st, run.id, RUN_FINISHED, &dl) !=
	    STORE_OK)
		tap_diag("run_end: %s", tap_first_diag(&dl));
	diag_free(&dl);
	return run.id;
}

static int64_t
import_fixture(struct store *st, const char *name)
{
	struct import_stats stats;
	struct diaglist dl;
	char path[1400];

	snprintf(path, sizeof(path), "%s/tests/fixtures/arches/%s.json", cwd,
	    name);
	diag_init(&dl);
	memset(&stats, 0, sizeof(stats));
	if (import_kirk(st, path, NULL, &stats, &dl) != 0)
		tap_diag("import %s: %s", name, tap_first_diag(&dl));
	diag_free(&dl);
	return stats.run_id;
}

/*
 * Runs 1 old amd64 (all fail), 2-4 the fixtures, 5 amd64 unfinished
 * (all fail), 6 the Linux x86_64 reference (only open02 fails).
 */
static void
mkstore(void)
{
	static const char *const all[] = { "open01", "open02", "clone301",
	    "mmap01", "statx01", "pause01", "read01", "ptrace01", NULL };
	struct store *st;
	struct diaglist dl;

	diag_init(&dl);
	if (store_open(&st, db, STORE_CREATE, &dl) != STORE_OK)
		abort();
	run_old = made_run(st, "amd64", all, TS_FAIL, 1);
	run_amd64 = import_fixture(st, "amd64");
	run_i386 = import_fixture(st, "i386");
	run_evbarm = import_fixture(st, "evbarm");
	run_live = made_run(st, "amd64", all, TS_FAIL, 0);
	run_linux = import_fixture(st, "linux-x86_64");
	if (linuxref_set(st, run_linux, &dl) != STORE_OK)
		tap_diag("linuxref_set: %s", tap_first_diag(&dl));
	store_close(st);
	diag_free(&dl);
	is_int(run_linux, 6, "six runs made");
}

/* The status cells of tag as "pass/fail/-", one per column. */
static const char *
cells(const struct archmatrix *m, const char *tag)
{
	static char buf[256];
	const struct amx_row *r = archmatrix_find(m, tag);
	size_t c, len = 0;

	buf[0] = '\0';
	for (c = 0; r != NULL && c < m->ncols; c++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
		    c > 0 ? "/" : "", r->status[c] < 0 ? "-" :
		    test_status_name((enum test_status)r->status[c]));
	return buf;
}

static int
scope_of(const struct archmatrix *m, const char *tag)
{
	const struct amx_row *r = archmatrix_find(m, tag);

	return r != NULL ? (int)r->scope : -1;
}

static void
test_core(void)
{
	struct archmatrix m;
	struct amx_pick p[2];
	struct diaglist dl;
	struct store *st;

	diag_init(&dl);
	if (store_open(&st, db, 0, &dl) != STORE_OK)
		abort();
	is_int(archmatrix_build(st, 0, NULL, 0, &m, &dl), STORE_OK,
	    "matrix of every arch: %s", tap_first_diag(&dl));
	is_int(m.ncols, 3, "three columns: the unfinished amd64 run, the "
	    "older one and the Linux reference make none");
	if (m.ncols == 3) {
		is_str(m.cols[0].run.arch, "amd64", "by arch: amd64 first");
		is_int(m.cols[0].run.id, run_amd64, "amd64: the newest "
		    "finished run");
		is_str(m.cols[1].run.arch, "evbarm", "then evbarm");
		is_str(m.cols[2].run.arch, "i386", "then i386");
		is_int(m.cols[2].run.id, run_i386, "i386: its run");
	}
	is_int(m.nrows, 8, "eight tests");
	is_str(cells(&m, "clone301"), "pass/pass/fail", "clone301 cells");
	is_int(scope_of(&m, "clone301"), AMX_SPECIFIC, "clone301 is "
	    "arch-specific (i386)");
	is_str(cells(&m, "mmap01"), "broken/fail/pass", "mmap01 cells");
	is_int(scope_of(&m, "mmap01"), AMX_SPECIFIC, "mmap01 is "
	    "arch-specific (amd64, evbarm)");
	is_str(cells(&m, "pause01"), "pass/crash/pass", "pause01 cells");
	is_int(scope_of(&m, "pause01"), AMX_SPECIFIC, "a crash on evbarm "
	    "alone is arch-specific");
	is_str(cells(&m, "open02"), "fail/fail/fail", "open02 cells");
	is_int(scope_of(&m, "open02"), AMX_EVERY, "open02 fails on every "
	    "arch");
	is_int(scope_of(&m, "ptrace01"), AMX_EVERY, "ptrace01 times out on "
	    "every arch");
	is_str(cells(&m, "statx01"), "fail/-/conf", "statx01: no result on "
	    "evbarm, skipped on i386");
	is_int(scope_of(&m, "statx01"), AMX_UNSURE, "statx01 is unsure: it "
	    "passes nowhere, fails not everywhere");
	is_str(cells(&m, "read01"), "pass/pass/warn", "read01 cells");
	is_int(scope_of(&m, "read01"), AMX_GOOD, "a warning is no failure");
	is_int(scope_of(&m, "open01"), AMX_GOOD, "open01 passes");
	ok(m.counts[AMX_GOOD] == 2 && m.counts[AMX_SPECIFIC] == 3 &&
	    m.counts[AMX_EVERY] == 2 && m.counts[AMX_UNSURE] == 1,
	    "counts: 2 ok, 3 arch-specific, 2 every arch, 1 unsure");
	if (m.ncols == 3) {
		ok(m.cols[0].nbad == 4 && m.cols[1].nbad == 4 &&
		    m.cols[2].nbad == 3, "failing per arch: 4 4 3");
		ok(m.cols[0].nonly == 0 && m.cols[1].nonly == 1 &&
		    m.cols[2].nonly == 1, "failing there only: amd64 none, "
		    "evbarm pause01, i386 clone301");
	}
	archmatrix_free(&m);

	/* Picks: in their order; Linux's name finds NetBSD's arch. */
	memset(p, 0, sizeof(p));
	p[0].arch = "i386";
	p[1].arch = "x86_64";
	is_int(archmatrix_build(st, 0, p, 2, &m, &dl), STORE_OK, "picks "
	    "i386, x86_64");
	ok(m.ncols == 2 && m.cols[0].run.id == run_i386 &&
	    m.cols[1].run.id == run_amd64, "in the order picked; x86_64 is "
	    "amd64's newest finished NetBSD run, not the reference");
	is_str(cells(&m, "mmap01"), "pass/broken", "mmap01 there");
	archmatrix_free(&m);

	/*
	 * The first run's results read by the caller (the shopping list
	 * has them): the same matrix as the one that reads them itself.
	 */
	{
		struct store_result *fr = NULL;
		struct store_run *runs = NULL;
		struct archmatrix m2;
		size_t nfr = 0, nruns = 0, i, same = 0, kept = 0;

		is_int(store_run_results(st, run_live, &fr, &nfr, &dl),
		    STORE_OK, "the unfinished run's results read");
		is_int(store_list_runs(st, &runs, &nruns, &dl), STORE_OK,
		    "and the run list");
		is_int(archmatrix_build(st, run_live, NULL, 0, &m, &dl),
		    STORE_OK, "its matrix, read by the matrix");
		is_int(archmatrix_build_first(st, run_live, fr, nfr, runs,
		    nruns, &m2, &dl), STORE_OK, "and with its results and "
		    "the run list given");
		for (i = 0; i < nruns; i++)
			kept += runs[i].id != 0 && runs[i].arch != NULL &&
			    runs[i].arch[0] != '\0';
		is_int(kept, nruns, "the run list given is left whole: the "
		    "columns took copies");
		ok(m.ncols == m2.ncols && m.nrows == m2.nrows &&
		    memcmp(m.counts, m2.counts, sizeof(m.counts)) == 0,
		    "the same columns, rows and counts (%zu/%zu columns, "
		    "%zu/%zu rows)", m.ncols, m2.ncols, m.nrows, m2.nrows);
		for (i = 0; i < m.nrows && i < m2.nrows; i++) {
			char a[256];

			snprintf(a, sizeof(a), "%s", cells(&m, m.rows[i].tag));
			same += strcmp(m.rows[i].tag, m2.rows[i].tag) == 0 &&
			    strcmp(a, cells(&m2, m2.rows[i].tag)) == 0 &&
			    m.rows[i].scope == m2.rows[i].scope;
		}
		is_int(same, m.nrows, "every row's cells and scope alike");
		is_str(cells(&m2, "clone301"), "fail/pass/fail", "clone301 "
		    "from the results given");
		ok(nfr > 0 && fr[0].tag != NULL, "the results given are left "
		    "as they were");
		archmatrix_free(&m);
		archmatrix_free(&m2);
		store_results_free(fr, nfr);
		store_runs_free(runs, nruns);
	}

	/* A run picked by number may be unfinished; first comes first. */
	is_int(archmatrix_build(st, run_live, NULL, 0, &m, &dl), STORE_OK,
	    "first: the unfinished amd64 run");
	ok(m.ncols == 3 && m.cols[0].run.id == run_live &&
	    strcmp(m.cols[1].run.arch, "evbarm") == 0, "it stands for amd64, "
	    "the other arches after it");
	is_str(cells(&m, "clone301"), "fail/pass/fail", "its cells");
	is_int(scope_of(&m, "clone301"), AMX_SPECIFIC, "clone301 passes on "
	    "evbarm still");
	archmatrix_free(&m);

	diag_free(&dl);
	diag_init(&dl);
	p[0].arch = "sparc64";
	is_int(archmatrix_build(st, 0, p, 1, &m, &dl), STORE_ENOTFOUND,
	    "an arch with no run");
	has_str(tap_first_diag(&dl), "no finished run of arch 'sparc64'",
	    "says which");
	diag_free(&dl);
	diag_init(&dl);
	memset(p, 0, sizeof(p));
	p[0].run_id = run_old;
	p[1].arch = "amd64";
	is_int(archmatrix_build(st, 0, p, 2, &m, &dl), STORE_EINVAL,
	    "two picks of one arch");
	has_str(tap_first_diag(&dl), "picked twice", "says so");
	diag_free(&dl);
	store_close(st);
}

/* The shopping list of amd64's run: its columns and each test's. */
static void
test_shoplist(void)
{
	struct shop_opts o;
	struct shoplist l;
	struct diaglist dl;
	struct store *st;
	const struct shop_test *t;
	char path[1300], *buf;
	size_t i, j;
	FILE *fp;

	diag_init(&dl);
	if (store_open(&st, db, 0, &dl) != STORE_OK)
		abort();
	memset(&o, 0, sizeof(o));
	o.run_id = run_amd64;
	is_int(shoplist_build(st, &o, &l, &dl), STORE_OK, "shopping list: %s",
	    tap_first_diag(&dl));
	ok(l.arches.ncols == 3 && l.arches.cols[0].run.id == run_amd64,
	    "the run's column first, then the other arches");
	for (i = 0, t = NULL; i < l.n; i++)
		for (j = 0; j < l.v[i].ntests; j++)
			if (strcmp(l.v[i].tests[j].tag, "mmap01") == 0)
				t = &l.v[i].tests[j];
	ok(t != NULL && t->arch != NULL && t->arch->scope == AMX_SPECIFIC,
	    "mmap01 on the list, arch-specific");
	/* The HTML report's columns come from the same matrix. */
	ok(l.ncols == 4 && l.cols[0].run_id == run_amd64 &&
	    l.cols[1].run_id == run_evbarm && l.cols[2].run_id == run_i386 &&
	    l.cols[3].linux_ref && l.cols[3].run_id == run_linux,
	    "HTML columns: the arches' runs, then the Linux reference");

	snprintf(path, sizeof(path), "%s/list.html", tap_tmpdir());
	if ((fp = fopen(path, "w")) == NULL)
		abort();
	is_int(export_write(&l, EXPORT_HTML, fp), 0, "HTML written");
	fclose(fp);
	buf = tap_slurp(path, NULL);
	has_str(buf, "<th>Linux</th><th class=\"col-arch\">amd64</th><th "
	    "class=\"col-arch\">evbarm</th><th class=\"col-arch\">i386</th>"
	    "<th>arches</th>", "HTML: a column per arch in the test table");
	has_str(tap_line_of(buf, "<td>mmap01</td>"), "<td class=\"somefail\">"
	    "broken</td><td class=\"somefail\">fail</td><td class=\"allpass\">"
	    "pass</td><td class=\"scope-arch-specific\">arch-specific</td>",
	    "HTML: mmap01's cells and scope");
	has_str(tap_line_of(buf, "<tr><td>mmap</td>"), "class=\"somefail\">0/1"
	    "</td><td data-v=\"0.0000\" class=\"somefail\">0/1</td><td "
	    "data-v=\"1.0000\" class=\"allpass\">1/1</td><td data-v=\"1.0000\" "
	    "class=\"allpass\">1/1</td>", "HTML: the per-syscall table counts "
	    "mmap on each arch and on Linux");
	free(buf);
	shoplist_free(&l);
	diag_free(&dl);
	store_close(st);
}

/* How many whole lines of s are wider than cols. */
static int
wider(const char *s, int cols)
{
	const char *e;
	int n = 0;

	for (; (e = strchr(s, '\n')) != NULL; s = e + 1)
		if (e - s > cols)
			n++;
	return n;
}

static void
test_cli_compare(void)
{
	struct tap_cmd r = TAP_CMD_INIT;

	tap_cmd(&r, "-d %s compare --arch", db);
	is_int(r.status, 0, "compare --arch: exit 0 (%s)", r.err);
	has_str(r.out, "The newest finished run of each arch:", "its heading");
	has_str(tap_line_of(r.out, "  amd64 "), "run 2 ", "amd64 is run 2");
	has_str(r.out, "  TEST     SYSCALL amd64   evbarm  i386\n",
	    "a column per arch");
	has_str(r.out, "  clone301 clone3  pass    pass    fail\n",
	    "clone301: fails on i386 only");
	has_str(r.out, "  mmap01   mmap    broken  fail    pass\n", "mmap01");
	has_str(r.out, "  statx01  statx   fail    -       conf\n",
	    "statx01: - where it has no result");
	ok(tap_pos(r.out, "arch-specific (") >= 0 &&
	    tap_pos(r.out, "arch-specific (") < tap_pos(r.out, "clone301") &&
	    tap_pos(r.out, "pause01") <
	    tap_pos(r.out, "failing on every arch:") &&
	    tap_pos(r.out, "failing on every arch:") <
	    tap_pos(r.out, "open02") &&
	    tap_pos(r.out, "ptrace01") < tap_pos(r.out, "unsure (") &&
	    tap_pos(r.out, "unsure (") < tap_pos(r.out, "statx01"),
	    "grouped: arch-specific, every arch, unsure");
	ok(strstr(r.out, "open01") == NULL && strstr(r.out, "read01") == NULL,
	    "tests passing everywhere left out");
	has_str(r.out, "  failing          4       4       3\n",
	    "failing per arch");
	has_str(r.out, "  only here        0       1       1\n",
	    "failing there only, per arch");
	has_str(r.out, "arch-specific     3\nevery-arch        2\n"
	    "unsure            1\nok                2\n", "the counts");

	tap_cmd(&r, "-d %s compare --arch --all i386 2", db);
	is_int(r.status, 0, "compare --arch --all i386 2");
	has_str(r.out, "Runs compared:", "picked runs");
	has_str(r.out, "  TEST     SYSCALL i386    amd64\n", "in their order");
	has_str(r.out, "passing everywhere:\n  open01   open    pass    pass\n",
	    "--all lists the passing ones too");
	has_str(r.out, "  read01   read    warn    pass\n", "read01 warns");

	tap_cmd(&r, "-d %s compare --arch --format json evbarm,amd64", db);
	is_int(r.status, 0, "compare --arch --format json evbarm,amd64");
	has_str(r.out, "{\"test\": \"mmap01\", \"syscall\": \"mmap\", "
	    "\"scope\": \"every-arch\", \"status\": {\"evbarm\": \"fail\", "
	    "\"amd64\": \"broken\"}, \"failing_on\": [\"evbarm\", \"amd64\"]}",
	    "json: mmap01 fails on both picked");
	has_str(r.out, "{\"test\": \"pause01\", \"syscall\": \"pause\", "
	    "\"scope\": \"arch-specific\", \"status\": {\"evbarm\": \"crash\", "
	    "\"amd64\": \"pass\"}, \"failing_on\": [\"evbarm\"]}",
	    "json: pause01 is evbarm's");
	has_str(r.out, "{\"arch\": \"evbarm\", \"run\": 4, ", "json: columns");
	has_str(r.out, "\"failing\": 4, \"failing_here_only\": 1}",
	    "json: per-arch counts");
	has_str(r.out, "\"counts\": {\"ok\": 3, \"arch-specific\": 1, "
	    "\"every-arch\": 3, \"unsure\": 1}", "json: counts");

	tap_cmd(&r, "-d %s compare --arch=i386,evbarm amd64", db);
	is_int(r.status, 0, "compare --arch=i386,evbarm amd64");
	has_str(r.out, "  TEST     SYSCALL i386    evbarm  amd64\n",
	    "--arch=LIST picks first, then the operands");

	tap_cmd(&r, "-d %s compare --arch sparc64", db);
	is_int(r.status, 1, "compare --arch sparc64: exit 1");
	has_str(r.err, "no finished run of arch 'sparc64'", "says why");
	tap_cmd(&r, "-d %s compare --arch amd64", db);
	is_int(r.status, 1, "one arch: exit 1");
	has_str(r.err, "one arch picked", "says why");
	tap_cmd(&r, "-d %s compare --arch --flaky 2/5", db);
	is_int(r.status, 2, "--arch with --flaky: a usage error");

	/* Many arches and long names still fit 80 columns. */
	{
		static const char *const arches[] = { "sparc64", "evbmips",
		    "alpha", "hppa", "macppc", "vax" };
		static const char *const t1[] = {
		    "fanotify_mark_sysctl_max_user_marks01", NULL };
		static const char *const more[] = { "amiga", "atari", "cobalt",
		    "evbppc", "evbsh3", "sgimips" };
		static const char *const t2[] = { "mmap01", NULL };
		char wdb[1300];
		struct store *s;
		struct diaglist dl;
		size_t i;

		snprintf(wdb, sizeof(wdb), "%s/wide.db", tap_tmpdir());
		diag_init(&dl);
		if (store_open(&s, wdb, STORE_CREATE, &dl) != STORE_OK)
			abort();
		for (i = 0; i < 6; i++)
			(void)made_run(s, arches[i], t1, i == 2 ? TS_PASS :
			    TS_SIGNALLED, 1);
		store_close(s);
		diag_free(&dl);
		tap_cmd(&r, "-d %s compare --arch", wdb);
		is_int(r.status, 0, "six arches");
		is_int(wider(r.out, 80), 0, "no line wider than 80 columns");
		has_str(r.out, "  fanotify_mark_sys~ fanotify~ pass    signal",
		    "the long tag and syscall cut with a ~");
		has_str(r.out, "signal  signal  signal  signal  signal\n",
		    "\"signalled\" shortened to fit");
		has_str(r.out, "  TEST", "heading");
		has_str(tap_line_of(r.out, "  TEST"), "alpha   evbmips hppa    "
		    "macppc  sparc64 vax", "every arch, by name");

		/* Twelve: the cells narrow, "broken" is cut. */
		diag_init(&dl);
		if (store_open(&s, wdb, 0, &dl) != STORE_OK)
			abort();
		for (i = 0; i < 6; i++)
			(void)made_run(s, more[i], t2, i == 0 ? TS_PASS :
			    TS_BROKEN, 1);
		store_close(s);
		diag_free(&dl);
		tap_cmd(&r, "-d %s compare --arch", wdb);
		is_int(r.status, 0, "twelve arches");
		is_int(wider(r.out, 80), 0,
		    "still no line wider than 80 columns");
		has_str(tap_line_of(r.out, "  mmap01"), "   -    pass bro~ "
		    "bro~ -    bro~ bro~ -    -    bro~ -    -",
		    "cells cut to four columns");
	}
	tap_cmd_free(&r);
}

/* The shopping list's formats on the command line. */
static void
test_cli_export(void)
{
	struct tap_cmd r = TAP_CMD_INIT;

	tap_cmd(&r, "-d %s export --run 3 --format csv", db);
	is_int(r.status, 0, "export csv of i386's run");
	has_str(r.out, "\"flaky\",\"linux\",\"i386\",\"amd64\",\"evbarm\","
	    "\"arch_scope\"\r\n", "csv: a column per arch, the run's own "
	    "first, then the scope");
	has_str(tap_line_of(r.out, "\"clone301\""), "\"fail\",\"pass\","
	    "\"pass\",\"arch-specific\"\r", "csv: clone301 fails on i386 only");
	has_str(tap_line_of(r.out, "\"open02\""), "\"no\",\"\",\"fail\","
	    "\"fail\",\"fail\",\"every-arch\"\r", "csv: open02 on every arch "
	    "(no Linux reference for i386)");
	ok(strstr(r.out, "statx01") == NULL, "csv: statx01, skipped on i386, "
	    "is not on i386's list");

	tap_cmd(&r, "-d %s export --run 4 --format md", db);
	is_int(r.status, 0, "export md of evbarm's run");
	has_str(r.out, "Beside the newest finished run of every other arch: "
	    "amd64 (run 2), i386 (run 3); arch-specific (passing on another "
	    "arch): 2 of the failing tests; failing on every arch: 2.",
	    "md: which runs, how many arch-specific");
	has_str(tap_line_of(r.out, "**pause01**"), "crash (arch-specific: "
	    "evbarm crash, amd64 pass, i386 pass)", "md: pause01 is evbarm's");
	has_str(tap_line_of(r.out, "**open02**"), "(every-arch: evbarm fail, "
	    "amd64 fail, i386 fail)", "md: open02 everywhere");

	tap_cmd(&r, "-d %s export --run 2 --format json", db);
	is_int(r.status, 0, "export json of amd64's run");
	has_str(r.out, "\"arches\": [{\"arch\": \"amd64\", \"run\": 2, ",
	    "json: the arch columns' runs");
	has_str(tap_line_of(r.out, "\"mmap01\""), "\"arches\": {\"amd64\": "
	    "\"broken\", \"evbarm\": \"fail\", \"i386\": \"pass\"}, "
	    "\"arch_scope\": \"arch-specific\"}", "json: mmap01 per arch");
	has_str(tap_line_of(r.out, "\"statx01\""), "\"evbarm\": null",
	    "json: null where it has no result");

	/* --arch by Linux's name of an arch the runs give NetBSD's. */
	tap_cmd(&r, "-d %s export --arch i686 --format md", db);
	is_int(r.status, 0, "export --arch i686 (%s)", r.err);
	has_str(r.out, "# Shopping list: run 3 ", "i686: i386's run 3");
	tap_cmd(&r, "-d %s export --arch x86_64 --format md", db);
	has_str(r.out, "# Shopping list: run 6 ", "x86_64: its own name "
	    "first, the Linux reference's run 6, not amd64's");
	tap_cmd(&r, "-d %s export --arch arm64 --format md", db);
	is_int(r.status, 1, "export --arch arm64: no run of aarch64");
	has_str(r.err, "no runs for arm64 in the database", "says so, by the "
	    "name asked");
	tap_cmd_free(&r);
}

/* C in the explorer: with no earlier run to compare, the arches. */
static void
test_explorer(void)
{
	char cmd[8192], sdb[1300];
	const char *s;
	struct store *st;
	struct diaglist dl;
	int64_t id;

	/* One run of each arch: nothing for the pairwise compare. */
	snprintf(sdb, sizeof(sdb), "%s/three.db", tap_tmpdir());
	diag_init(&dl);
	if (store_open(&st, sdb, STORE_CREATE, &dl) != STORE_OK)
		abort();
	id = import_fixture(st, "amd64");
	id += import_fixture(st, "i386");
	id += import_fixture(st, "evbarm");
	store_close(st);
	diag_free(&dl);
	is_int(id, 6, "three runs");
	snprintf(cmd, sizeof(cmd), "env HOME=%s XDG_CONFIG_HOME=%s "
	    "XDG_DATA_HOME=%s %s -L %s/tests/fixtures/ltproot -d %s",
	    tap_tmpdir(), tap_tmpdir(), tap_tmpdir(), tap_bin(), cwd, sdb);
	if (tmux_start(cmd, 100, 30) != 0 || !tmux_wait_for("? help",
	    8000)) {
		ok(0, "the explorer opens");
		tap_diag("%s", tmux_screen());
		tmux_stop();
		return;
	}
	tmux_keys("C");
	ok(tmux_wait_for("compare the arches: 3 side by side", 3000),
	    "C: the arches side by side");
	s = tmux_screen();
	has_str(s, "3 arch-specific, 2 on every arch, 1 unsure",
	    "the view counts them");
	has_str(tap_line_of(s, "clone301"), "arch-specific clone301",
	    "clone301 marked");
	has_str(tap_line_of(s, "clone301"), "pass     pass     fail",
	    "its cells: amd64 evbarm i386");
	has_str(tap_line_of(s, "WHERE"), "amd64    evbarm   i386",
	    "the heading");
	tmux_keys("q");
	tmux_keys("S");
	ok(tmux_wait_for("shopping list of run 3", 3000), "S: evbarm's "
	    "shopping list");
	s = tmux_screen();
	has_str(tap_line_of(s, "pause01"), "crash     (arch-specific)",
	    "pause01 is evbarm's alone");
	ok(strstr(tap_line_of(s, "open02"), "arch-specific") == NULL,
	    "open02, failing on every arch, is not");
	tmux_keys("q");
	tmux_keys("q");
	(void)tmux_wait_dead(3000);
	tmux_stop();
}

int
main(void)
{
	/* tap.c gave the program its own HOME, XDG dirs and no LTPSCOPE_*. */
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(db, sizeof(db), "%s/arches.db", tap_tmpdir());
	mkstore();
	test_core();
	test_shoplist();
	test_cli_compare();
	test_cli_export();
	if (tap_have("tmux"))
		test_explorer();
	else
		tap_diag("tmux not on PATH: the explorer is not checked");
	return tap_done();
}
