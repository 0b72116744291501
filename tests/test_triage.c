/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Triage end to end: tags carry forward and turn "resolved?", notes of
 * any bytes survive the store and every export, compare sorts the
 * shell tool's example (../shared/ctp/examples/comparing.txt) into
 * regressed/fixed/new/removed, flaky tests are found, CSV round-trips
 * through a reader written here, JSON's escapes reverse, the HTML is
 * well formed with its charts, and the subcommands do the same.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/compare.h"
#include "ltpscope/ctplog.h"
#include "ltpscope/export.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/store_triage.h"
#include "ltpscope/triage.h"
#include "fixture_store.h"
#include "tap.h"

/* Made-up logs and table of the real ones' kind: triage needs no more. */
#define MADEUP	"tests/fixtures/madeup/"
#define REFDIR	MADEUP "ctp/reference_logs_sample/NetBSD11-reference"

static const char *const reflogs[] = {
	"abort/abort01", "capget/capget01", "close/close01", "close/close02",
	"open/open01", "readv/readv01", "readv/readv02", "writev/writev01",
	"writev/writev02"
};

static char	 dbfile[1024];
static char	*bignote;

static void
ignore_line(const struct ltpout_line *l, void *arg)
{
}

static int64_t
new_run(struct store *st, const char *osver)
{
	struct store_run run;
	struct diaglist dl;

	fixture_run_init(&run);
	run.uname = (char *)"NetBSD h 11.0 GENERIC amd64";
	run.os_version = (char *)osver;
	diag_init(&dl);
	if (store_run_begin(st, &run, NULL, 0, &dl) != STORE_OK)
		tap_diag("run_begin: %s", tap_first_diag(&dl));
	diag_free(&dl);
	return run.id;
}

/* Stores one result whose verdict comes from its output, as ltpscope
   import would from a shell tool log. */
static void
add_result(struct store *st, int64_t run, const char *tag,
    const char *syscall, const char *out, size_t len, int64_t seq)
{
	struct test_end end = { TEST_NOEXIT, 0 };
	struct store_result r;
	struct diaglist dl;
	struct ltpout *p = ltpout_new();
	const struct ltpout_tally *t;
	int64_t id;

	ltpout_feed(p, out, len, ignore_line, NULL);
	ltpout_finish(p, ignore_line, NULL);
	t = ltpout_tally(p);
	memset(&r, 0, sizeof(r));
	r.tag = (char *)tag;
	r.syscall = (char *)syscall;
	r.status = ltpout_status(t, &end, NULL, 0);
	r.npass = (unsigned)t->lines[LC_TPASS];
	r.nfail = (unsigned)t->lines[LC_TFAIL];
	r.nbroken = (unsigned)t->lines[LC_TBROK];
	r.nconf = (unsigned)t->lines[LC_TCONF];
	r.nwarn = (unsigned)t->lines[LC_TWARN];
	diag_init(&dl);
	if (store_test_start(st, run, tag, syscall, seq, &id, &dl) !=
	    STORE_OK || store_test_finish(st, id, &r, out, len, &dl) !=
	    STORE_OK)
		tap_diag("store: %s", tap_first_diag(&dl));
	diag_free(&dl);
	ltpout_free(p);
}

/* Adds the reference logs but those in skip (by index bit). */
static void
add_reflogs(struct store *st, int64_t run, unsigned skip)
{
	struct ctplog lg;
	struct diaglist dl;
	char rel[256], sys[64], *slash;
	size_t i;

	for (i = 0; i < sizeof(reflogs) / sizeof(reflogs[0]); i++) {
		if (skip & (1u << i))
			continue;
		(void)snprintf(rel, sizeof(rel), "%s/%s.log", REFDIR,
		    reflogs[i]);
		(void)snprintf(sys, sizeof(sys), "%s", reflogs[i]);
		slash = strchr(sys, '/');
		*slash = '\0';
		ctplog_init(&lg);
		diag_init(&dl);
		if (ctplog_read(&lg, rel, &dl) == 0)
			add_result(st, run, slash + 1, sys, lg.body,
			    lg.bodylen, (int64_t)i);
		else
			tap_diag("%s: %s", rel, tap_first_diag(&dl));
		diag_free(&dl);
		ctplog_free(&lg);
	}
}

static void
end_run(struct store *st, int64_t run)
{
	struct diaglist dl;

	diag_init(&dl);
	(void)store_run_end(st, run, RUN_FINISHED, &dl);
	diag_free(&dl);
}

#define PASS_OUT	"t.c:1: TPASS: fine\n\nSummary:\npassed   1\n" \
			"failed   0\nbroken   0\nskipped  0\nwarnings 0\n"
#define FAIL_OUT	"t.c:9: TFAIL: writev(iovcnt=0) failed: EINVAL\n" \
			"\nSummary:\npassed   0\nfailed   1\nbroken   0\n" \
			"skipped  0\nwarnings 0\n"

#define CONF_OUT	"t.c:1: TPASS: fine\nt.c:2: TCONF: no such flag\n"

static const char tricky[] = "say \"hi\", 'there'\n'; DROP TABLE tags; --"
    "\r\nbad utf-8: \xff\xfe\xc3 end";

static void
test_tags(struct store *st)
{
	struct triage_tag t, *v;
	struct diaglist dl;
	size_t n, nr;
	int64_t r1, r2, r3;

	diag_init(&dl);
	r1 = new_run(st, "11.0");
	add_reflogs(st, r1, 0);
	end_run(st, r1);

	memset(&t, 0, sizeof(t));
	t.tag = (char *)"writev01";
	t.category = (char *)"bug-compat";
	t.note = (char *)tricky;
	t.author = (char *)"tester";
	t.run_id = r1;
	t.status_at = TS_FAIL;
	is_int(store_tag_set(st, &t, &dl), STORE_OK, "tag set: %s",
	    tap_first_diag(&dl));
	t.tag = (char *)"readv01";
	t.category = (char *)"bug-compat";
	t.note = bignote;
	is_int(store_tag_set(st, &t, &dl), STORE_OK, "100 KB note");
	t.line = (char *)"readv01.c:61: TFAIL: ";
	t.note = (char *)"the line";
	is_int(store_tag_set(st, &t, &dl), STORE_OK, "tag on one line");
	/* What suggest --accept does: it never replaces a tag. */
	{
		struct triage_tag a = t;
		int added = -1;

		a.category = (char *)"unsupported-flag";
		a.note = (char *)"";
		a.author = (char *)"rules";
		is_int(store_tag_add(st, &a, &added, &dl), STORE_OK,
		    "tag add on a tagged line");
		is_int(added, 0, "leaves the tag there alone");
	}
	t.line = NULL;
	t.category = (char *)"";
	is_int(store_tag_set(st, &t, &dl), STORE_EINVAL, "no category");

	is_int(store_tags_list(st, r1, NULL, &v, &n, &dl), STORE_OK,
	    "list tags");
	is_int(n, 3, "three tags");
	if (n == 3) {
		is_str(v[0].tag, "readv01", "sorted by test");
		is_str(v[0].line, "", "whole-test tag first");
		ok(strcmp(v[0].note, bignote) == 0, "100 KB note exact");
		is_str(v[1].line, "readv01.c:61: TFAIL: ", "line tag");
		ok(memcmp(v[2].note, tricky, sizeof(tricky)) == 0,
		    "quotes, SQL and invalid UTF-8 exact");
		is_str(v[2].author, "tester", "author kept");
		is_int(v[2].run_id, r1, "made on run 1");
		is_int(v[2].state, TAG_FAILING, "failing on run 1");
	}
	store_tags_free(v, n);

	/* Run 2: writev01 passes -> "resolved?"; readv01 still fails. */
	r2 = new_run(st, "11.0");
	add_result(st, r2, "writev01", "writev", PASS_OUT,
	    sizeof(PASS_OUT) - 1, 0);
	add_result(st, r2, "readv01", "readv", FAIL_OUT,
	    sizeof(FAIL_OUT) - 1, 1);
	end_run(st, r2);
	store_tags_list(st, 0, "writev01", &v, &n, &dl);
	ok(n == 1 && v[0].state == TAG_RESOLVED_Q && v[0].seen_run == r2,
	    "now passing: resolved?");
	store_tags_free(v, n);
	store_tags_list(st, 0, "readv01", &v, &n, &dl);
	ok(n == 2 && v[0].state == TAG_FAILING && v[0].seen_run == r2,
	    "still failing in run 2: tag carried forward");
	store_tags_free(v, n);
	is_int(store_tag_resolve(st, "writev01", "", 1, &dl), STORE_OK,
	    "confirm resolved");
	store_tags_list(st, 0, "writev01", &v, &n, &dl);
	ok(n == 1 && v[0].state == TAG_RESOLVED, "resolved");
	store_tags_free(v, n);
	/* Read against run 1 it still failed there. */
	store_tags_list(st, r1, "writev01", &v, &n, &dl);
	ok(n == 1 && v[0].state == TAG_FAILING, "failing as of run 1");
	store_tags_free(v, n);

	/* Run 3: it fails again: the tag shows as failing. */
	r3 = new_run(st, "11.0");
	add_result(st, r3, "writev01", "writev", FAIL_OUT,
	    sizeof(FAIL_OUT) - 1, 0);
	end_run(st, r3);
	store_tags_list(st, 0, "writev01", &v, &n, &dl);
	ok(n == 1 && v[0].state == TAG_FAILING, "fails again: failing");
	store_tags_free(v, n);

	is_int(store_tag_remove(st, "readv01", "readv01.c:61: TFAIL: ", &nr,
	    &dl), STORE_OK, "untag one line");
	is_int(nr, 1, "one removed");
	is_int(store_tag_resolve(st, "nosuch", "", 1, &dl), STORE_ENOTFOUND,
	    "resolving no tag");
	diag_free(&dl);
}

/*
 * Counts the rows store_recent_history() gives, the running ones, and
 * those out of its order (a run older than the row before's, a length
 * not the tag's); n[4] is the last run seen.
 */
static int
count_row(void *arg, const char *tag, size_t len, int64_t run, int64_t id,
    enum test_status status)
{
	int64_t *n = arg;

	n[0]++;
	n[1] += status == TS_RUNNING;
	n[2] += strcmp(tag, "pipe05") == 0;
	n[3] += run < n[4] || len != strlen(tag) || id <= 0;
	n[4] = run;
	return 0;
}

/*
 * What compare reads from the store: the run before one of its arch,
 * and the recent history without the test still running.
 */
static void
test_history(struct store *st, int64_t last)
{
	struct store_run r;
	struct diaglist dl;
	int64_t run, id, prev;
	int64_t n[5] = { 0, 0, 0, 0, 0 };

	diag_init(&dl);
	run = new_run(st, "12.0");
	add_result(st, run, "pipe06", "pipe", PASS_OUT, sizeof(PASS_OUT) - 1,
	    0);
	if (store_test_start(st, run, "pipe05", "pipe", 1, &id, &dl) !=
	    STORE_OK)
		tap_diag("store: %s", tap_first_diag(&dl));
	is_int(store_get_run(st, run, &r, &dl), STORE_OK, "the new run");
	is_int(store_previous_run(st, r.arch, run, &prev, &dl), STORE_OK,
	    "previous run");
	is_int(prev, last, "is the one before, of its arch");
	is_int(store_previous_run(st, "no-such-arch", run, &prev, &dl),
	    STORE_OK, "previous run of an arch with none");
	is_int(prev, 0, "is none");
	store_run_clear(&r);
	is_int(store_recent_history(st, run, 2, 1, count_row, n, &dl), STORE_OK,
	    "recent history");
	is_int(n[0], 3, "two runs: pipe05 and pipe06, then pipe06 alone");
	is_int(n[1], 0, "no row still running");
	is_int(n[2], 1, "pipe05 once: its run's row is still running");
	is_int(n[3], 0, "run by run, the oldest first, each with its id and "
	    "the tag's length");
	memset(n, 0, sizeof(n));
	is_int(store_recent_history(st, run, 2, 0, count_row, n, &dl),
	    STORE_OK, "the history before the run");
	is_int(n[0], 4, "two runs before it: pipe05 and pipe06 in each");
	ok(n[4] > 0 && n[4] < run && n[3] == 0, "in order, none of the "
	    "run's own");
	end_run(st, run);
	diag_free(&dl);
}

static void
test_compare(struct store *st)
{
	struct cmp_result c;
	struct diaglist dl;
	int64_t a, b, x = 0, y = 0;
	size_t i;
	char **fl;
	size_t nfl;

	diag_init(&dl);
	/* The reference, plus pipe02 failing. */
	a = new_run(st, "11.0");
	add_reflogs(st, a, 0);
	add_result(st, a, "pipe02", "pipe", FAIL_OUT, sizeof(FAIL_OUT) - 1,
	    20);
	add_result(st, a, "pipe04", "pipe", PASS_OUT, sizeof(PASS_OUT) - 1,
	    21);
	end_run(st, a);
	/*
	 * The new run: five logs and pipe04 gone (removed), readv02 regressed,
	 * pipe02 fixed, pipe01 and pipe03 new; on another NetBSD.
	 */
	b = new_run(st, "11.99");
	add_reflogs(st, b, 0x1f | 1u << 6 | 1u << 8);
	add_result(st, b, "readv02", "readv", FAIL_OUT,
	    sizeof(FAIL_OUT) - 1, 1);
	add_result(st, b, "pipe02", "pipe", PASS_OUT, sizeof(PASS_OUT) - 1,
	    2);
	add_result(st, b, "pipe01", "pipe", PASS_OUT, sizeof(PASS_OUT) - 1,
	    3);
	add_result(st, b, "pipe03", "pipe", FAIL_OUT, sizeof(FAIL_OUT) - 1,
	    4);
	add_result(st, b, "writev02", "writev", CONF_OUT,
	    sizeof(CONF_OUT) - 1, 5);
	end_run(st, b);
	is_int(compare_runs(st, a, b, 0, 0, &c, &dl), STORE_OK, "compare: %s",
	    tap_first_diag(&dl));
	is_int(c.counts[CMP_REGRESSED], 1, "regressed: 1");
	is_int(c.counts[CMP_FIXED], 1, "fixed: 1");
	is_int(c.counts[CMP_NEW], 2, "new: 2");
	is_int(c.counts[CMP_REMOVED], 6, "removed: 6");
	is_int(c.counts[CMP_CHANGED], 1, "changed: writev02 skipped a case");
	for (i = 0; i < c.n; i++) {
		if (strcmp(c.v[i].tag, "readv02") == 0)
			is_int(c.v[i].kind, CMP_REGRESSED, "readv02 regressed");
		if (strcmp(c.v[i].tag, "pipe02") == 0)
			is_int(c.v[i].kind, CMP_FIXED, "pipe02 fixed");
		if (strcmp(c.v[i].tag, "readv01") == 0)
			is_int(c.v[i].kind, CMP_SAME, "readv01 the same");
	}
	ok(c.nwarnings == 1 && strstr(c.warnings[0], "OS version") != NULL,
	    "warns that the NetBSD versions differ");
	compare_free(&c);

	/* Default: newest against the baseline of its arch. */
	is_int(store_baseline_set(st, a, &dl), STORE_OK, "baseline set");
	is_int(compare_default_runs(st, &x, &y, &dl), STORE_OK, "defaults");
	is_int(x, a, "A is the baseline");
	is_int(y, b, "B is the newest");

	/* Flaky: pipe05 flips on the same system (runs 6-10). */
	for (i = 0; i < 5; i++) {
		x = new_run(st, "12.0");
		add_result(st, x, "pipe05", "pipe", i % 2 ? PASS_OUT : FAIL_OUT,
		    i % 2 ? sizeof(PASS_OUT) - 1 : sizeof(FAIL_OUT) - 1, 0);
		add_result(st, x, "pipe06", "pipe", PASS_OUT,
		    sizeof(PASS_OUT) - 1, 1);
		end_run(st, x);
	}
	is_int(flaky_tests(st, x, NULL, 0, 2, 5, &fl, &nfl, &dl), STORE_OK,
	    "flaky");
	ok(nfl == 1 && strcmp(fl[0], "pipe05") == 0, "pipe05 is flaky, "
	    "pipe06 is not");
	flaky_free(fl, nfl);
	is_int(flaky_tests(st, x, NULL, 0, 5, 5, &fl, &nfl, &dl), STORE_OK,
	    "5 of 5");
	is_int(nfl, 0, "four changes are not five");
	flaky_free(fl, nfl);
	is_int(flaky_tests(st, 4, NULL, 0, 2, 5, &fl, &nfl, &dl), STORE_OK,
	    "run 4");
	/* Runs 1-4 (11.0): writev01 failed, passed, failed, failed. */
	ok(nfl == 1 && strcmp(fl[0], "writev01") == 0, "writev01 flaky on "
	    "11.0; pipe05's flips on 12.0 do not count there");
	flaky_free(fl, nfl);

	/*
	 * On 13.0, read in the order run by run: mm01 and aa01 flip
	 * three times, seen mm01 first yet listed by name; zz01 fails in
	 * every run by its last result, the rerun in run 2 that came
	 * later (a larger id) with a smaller seq than the pass it undoes.
	 */
	for (i = 0; i < 4; i++) {
		x = new_run(st, "13.0");
		add_result(st, x, "mm01", "mmap", i % 2 ? PASS_OUT : FAIL_OUT,
		    i % 2 ? sizeof(PASS_OUT) - 1 : sizeof(FAIL_OUT) - 1, 1);
		add_result(st, x, "aa01", "access", i % 2 ? FAIL_OUT :
		    PASS_OUT, i % 2 ? sizeof(FAIL_OUT) - 1 :
		    sizeof(PASS_OUT) - 1, 2);
		if (i == 1)
			add_result(st, x, "zz01", "zz", PASS_OUT,
			    sizeof(PASS_OUT) - 1, 5);
		add_result(st, x, "zz01", "zz", FAIL_OUT, sizeof(FAIL_OUT) - 1,
		    0);
		end_run(st, x);
	}
	is_int(flaky_tests(st, x, NULL, 0, 2, 5, &fl, &nfl, &dl), STORE_OK,
	    "flaky on 13.0");
	ok(nfl == 2 && strcmp(fl[0], "aa01") == 0 &&
	    strcmp(fl[1], "mm01") == 0, "aa01 and mm01, sorted by name "
	    "(%zu: %s)", nfl, nfl > 0 ? fl[0] : "none");
	ok(flaky_has(fl, nfl, "aa01") && flaky_has(fl, nfl, "mm01") &&
	    !flaky_has(fl, nfl, "zz01"), "zz01 is not: its rerun's fail "
	    "counts, not the pass it followed");
	flaky_free(fl, nfl);
	is_int(flaky_tests(st, x, NULL, 0, 4, 5, &fl, &nfl, &dl), STORE_OK,
	    "4 of 5");
	is_int(nfl, 0, "three changes are not four");
	flaky_free(fl, nfl);
	/* The run's own results given, as compare and the list have them. */
	{
		struct store_result *res = NULL;
		size_t nres = 0;

		is_int(store_run_results(st, x, &res, &nres, &dl), STORE_OK,
		    "the last 13.0 run's results");
		is_int(flaky_tests(st, x, res, nres, 2, 5, &fl, &nfl, &dl),
		    STORE_OK, "flaky with them given");
		ok(nfl == 2 && strcmp(fl[0], "aa01") == 0 &&
		    strcmp(fl[1], "mm01") == 0, "the same two (%zu)", nfl);
		flaky_free(fl, nfl);
		/* Given empty: the run adds nothing; mm01/aa01 flip twice. */
		is_int(flaky_tests(st, x, res, 0, 3, 5, &fl, &nfl, &dl),
		    STORE_OK, "with none of its results given");
		is_int(nfl, 0, "only the runs before it count: two changes "
		    "are not three");
		flaky_free(fl, nfl);
		is_int(flaky_tests(st, x, res, nres, 3, 5, &fl, &nfl, &dl),
		    STORE_OK, "with all given");
		is_int(nfl, 2, "its results make the third change");
		flaky_free(fl, nfl);
		store_results_free(res, nres);
	}
	test_history(st, x);
	diag_free(&dl);
}

/* RFC 4180 reader: fields of every record; returns the record count. */
static size_t
csv_read(const char *s, size_t len, char ***fields, size_t *nfields)
{
	size_t i = 0, nrec = 0, n = 0, cap = 0, blen;
	char *buf = malloc(len + 1);
	char **v = NULL;
	int quoted;

	while (i < len) {
		blen = 0;
		quoted = s[i] == '"';
		if (quoted)
			i++;
		for (; i < len; i++) {
			if (quoted && s[i] == '"') {
				if (i + 1 < len && s[i + 1] == '"') {
					buf[blen++] = '"';
					i++;
					continue;
				}
				quoted = 0;
				continue;
			}
			if (!quoted && (s[i] == ',' || s[i] == '\r' ||
			    s[i] == '\n'))
				break;
			buf[blen++] = s[i];
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = realloc(v, cap * sizeof(*v));
		}
		v[n] = malloc(blen + 1);
		memcpy(v[n], buf, blen);
		v[n++][blen] = '\0';
		if (i < len && s[i] == ',')
			i++;
		else {
			if (i < len && s[i] == '\r')
				i++;
			if (i < len && s[i] == '\n')
				i++;
			nrec++;
		}
	}
	free(buf);
	*fields = v;
	*nfields = n;
	return nrec;
}

/*
 * Checks that every element opened is closed in order (void elements
 * and "/>" aside): the HTML is well formed as XML would want it.
 */
static int
html_balanced(const char *s)
{
	static const char *const voids[] = { "meta", "br", "img", "hr",
	    "link", "input", "rect", NULL };
	char stack[64][16], name[16];
	const char *p = s, *e;
	size_t depth = 0, n, k;
	int closing, isvoid;

	while ((p = strchr(p, '<')) != NULL) {
		if (p[1] == '!') {
			p++;
			continue;
		}
		closing = p[1] == '/';
		e = p + 1 + closing;
		for (n = 0; n < sizeof(name) - 1 && ((*e >= 'a' && *e <= 'z') ||
		    (*e >= '0' && *e <= '9')); e++)
			name[n++] = *e;
		name[n] = '\0';
		if (n == 0 || (e = strchr(e, '>')) == NULL)
			return 0;
		isvoid = e[-1] == '/';
		for (k = 0; voids[k] != NULL; k++)
			if (strcmp(name, voids[k]) == 0)
				isvoid = 1;
		if (closing) {
			if (depth == 0 || strcmp(stack[--depth], name) != 0)
				return 0;
		} else if (!isvoid) {
			if (depth == 64)
				return 0;
			(void)snprintf(stack[depth++], sizeof(stack[0]), "%s",
			    name);
		}
		p = e + 1;
	}
	return depth == 0;
}

/* Decodes one JSON string starting at the quote; \udcXX gives byte XX. */
static char *
json_unstring(const char *p)
{
	char *out = malloc(strlen(p) + 1), *o = out;
	unsigned long cp;

	for (p++; *p != '"' && *p != '\0'; p++) {
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		switch (*++p) {
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			cp = strtoul((char[5]){ p[1], p[2], p[3], p[4], 0 },
			    NULL, 16);
			p += 4;
			if (cp >= 0xdc80 && cp <= 0xdcff)
				*o++ = (char)(cp & 0xff);
			else
				*o++ = (char)cp;	/* ASCII controls */
			break;
		default: *o++ = *p; break;
		}
	}
	*o = '\0';
	return out;
}

static void
test_export(struct store *st, int64_t run)
{
	struct shop_opts o;
	struct shoplist l;
	struct categories cats;
	struct fundamental fund;
	struct rules *rules = rules_new();
	struct diaglist dl;
	char path[1100], **f, *buf, *p, *note;
	size_t nf, nrec, len, i;
	int found = 0;
	FILE *fp;

	diag_init(&dl);
	categories_init(&cats);
	(void)categories_load_default(&cats, &dl);
	(void)rules_load_default(rules, &dl);
	(void)fundamental_load_default(&fund, &dl);
	memset(&o, 0, sizeof(o));
	o.run_id = run;
	o.cats = &cats;
	o.rules = rules;
	o.fund = &fund;
	is_int(shoplist_build(st, &o, &l, &dl), STORE_OK, "shopping list: %s",
	    tap_first_diag(&dl));
	ok(l.n >= 2, "failures in several syscalls");
	if (l.n >= 2) {
		is_str(l.v[0].name, "open", "open first: it ranks highest");
		ok(l.v[0].priority >= l.v[1].priority, "by priority");
	}

	/* CSV round trip. */
	(void)snprintf(path, sizeof(path), "%s/list.csv", tap_tmpdir());
	fp = fopen(path, "w");
	is_int(export_write(&l, EXPORT_CSV, fp), 0, "CSV written");
	fclose(fp);
	buf = tap_slurp(path, &len);
	nrec = csv_read(buf, len, &f, &nf);
	is_int(nf, nrec * 14, "fourteen fields a record");
	for (i = 0; i + 13 < nf; i += 14)
		if (strcmp(f[i + 3], "writev01") == 0) {
			found = 1;
			ok(memcmp(f[i + 7], tricky, sizeof(tricky)) == 0,
			    "note with commas, quotes, newlines, invalid "
			    "UTF-8 round-trips through CSV");
			is_str(f[i + 5], "bug-compat", "its category");
			is_str(f[i + 6], "tagged", "confirmed, not suggested");
			has_str(f[i + 9], "TFAIL", "first failing line");
			is_str(f[i + 10], "0", "no kernel lines");
			is_str(f[i + 11], "no", "no kernel mark");
			is_str(f[i + 12], "no", "not flaky");
			is_str(f[i + 13], "", "no Linux reference");
		} else if (strcmp(f[i + 3], "readv01") == 0)
			ok(strcmp(f[i + 7], bignote) == 0, "100 KB note "
			    "round-trips through CSV");
	ok(found, "writev01 in the CSV");
	for (i = 0; i < nf; i++)
		free(f[i]);
	free(f);
	free(buf);

	/* JSON: the escapes reverse to the stored bytes. */
	(void)snprintf(path, sizeof(path), "%s/list.json", tap_tmpdir());
	fp = fopen(path, "w");
	export_write(&l, EXPORT_JSON, fp);
	fclose(fp);
	buf = tap_slurp(path, &len);
	has_str(buf, "\\udcff\\udcfe\\udcc3 end", "invalid bytes as \\udcXX");
	if ((p = strstr(buf, "\"note\": \"say")) != NULL) {
		note = json_unstring(p + 8);
		ok(strcmp(note, tricky) == 0, "JSON note decodes to the bytes");
		free(note);
	} else
		ok(0, "JSON note found");
	free(buf);

	/* HTML: self-contained, charts and data. */
	(void)snprintf(path, sizeof(path), "%s/list.html", tap_tmpdir());
	fp = fopen(path, "w");
	export_write(&l, EXPORT_HTML, fp);
	fclose(fp);
	buf = tap_slurp(path, &len);
	has_str(buf, "<svg xmlns=\"http://www.w3.org/2000/svg\" "
	    "id=\"chart-category\"", "category chart");
	has_str(buf, "id=\"chart-status\"", "status chart");
	has_str(buf, ">bug-compat</text>", "category bar label");
	has_str(buf, "&#39;; DROP TABLE tags; --", "note escaped in HTML");
	ok(strstr(buf, "src=") == NULL && strstr(buf, "href=") == NULL &&
	    strstr(buf, "url(") == NULL && strstr(buf, "@import") == NULL,
	    "nothing fetched");
	ok((p = strstr(buf, "<script")) != NULL && strncmp(p, "<script>",
	    8) == 0 && strstr(p + 1, "<script") == NULL,
	    "one script, in the page (it sorts the tables)");
	has_str(buf, "<table id=\"syscalls\" class=\"sortable\">",
	    "the per-syscall table");
	has_str(buf, "id=\"chart-history\"", "the history chart");
	ok(html_balanced(buf), "every element closed, in order");
	ok(!html_balanced("<html><body><p>x</body></html>"),
	    "(the check can fail)");
	free(buf);
	if (tap_have("chromium")) {
		char opt[1200], png[1100];

		(void)snprintf(png, sizeof(png), "%s/list.png", tap_tmpdir());
		(void)snprintf(opt, sizeof(opt), "--screenshot=%s", png);
		free(tap_chromium(opt, path));
		buf = tap_slurp(png, &len);
		ok(buf != NULL && len > 1000 && memcmp(buf, "\x89PNG", 4) == 0,
		    "chromium renders the HTML to a PNG (%zu bytes)",
		    buf != NULL ? len : 0);
		free(buf);
		buf = tap_chromium("--dump-dom", path);
		has_str(buf, "id=\"chart-category\"", "the rendered page "
		    "holds the category chart");
		free(buf);
	} else
		tap_diag("chromium not on PATH: HTML checked structurally");

	/* Markdown: a section per syscall. */
	(void)snprintf(path, sizeof(path), "%s/list.md", tap_tmpdir());
	fp = fopen(path, "w");
	export_write(&l, EXPORT_MD, fp);
	fclose(fp);
	buf = tap_slurp(path, &len);
	has_str(buf, "## 1. open\n\npriority ", "Markdown section");
	has_str(buf, "- **writev01** fail, bug-compat", "Markdown item");
	free(buf);

	shoplist_free(&l);
	fundamental_free(&fund);
	rules_free(rules);
	categories_free(&cats);
	diag_free(&dl);
}

/* A tag longer than its column widens it: nothing runs together. */
static void
test_wide_columns(void)
{
	static const char tag[] = "fanotify_mark_sysctl_max_user_marks01";
	char db[1100], want[128], *out;
	struct store *st;
	struct diaglist dl;
	int64_t a, b;
	int rc;

	(void)snprintf(db, sizeof(db), "%s/wide.db", tap_tmpdir());
	diag_init(&dl);
	if (!ok(store_open(&st, db, STORE_CREATE, &dl) == STORE_OK,
	    "wide.db: %s", tap_first_diag(&dl))) {
		diag_free(&dl);
		return;
	}
	a = new_run(st, "11.0");
	add_result(st, a, tag, "fanotify_mark", PASS_OUT,
	    sizeof(PASS_OUT) - 1, 1);
	add_result(st, a, "pipe01", "pipe", PASS_OUT, sizeof(PASS_OUT) - 1, 2);
	end_run(st, a);
	b = new_run(st, "11.0");
	add_result(st, b, tag, "fanotify_mark", FAIL_OUT,
	    sizeof(FAIL_OUT) - 1, 1);
	add_result(st, b, "pipe01", "pipe", FAIL_OUT, sizeof(FAIL_OUT) - 1, 2);
	end_run(st, b);
	store_close(st);
	diag_free(&dl);
	out = tap_cli(&rc, 1, "compare -d %s 1 2", db);
	(void)snprintf(want, sizeof(want), "  %s fanotify_mark  pass -> fail",
	    tag);
	has_str(out, want, "compare: a long tag");
	(void)snprintf(want, sizeof(want), "  %-*s pipe           pass -> fail",
	    (int)strlen(tag), "pipe01");
	has_str(out, want, "widens its column for the other rows");
	free(out);
	out = tap_cli(&rc, 1, "suggest -d %s 2", db);
	(void)snprintf(want, sizeof(want), "%-*s STATUS", (int)strlen(tag),
	    "TEST");
	has_str(out, want, "suggest: the header follows the widened column");
	(void)snprintf(want, sizeof(want), "\n%s fail       ", tag);
	has_str(out, want, "and so does the row");
	free(out);
}

static void
test_cli(void)
{
	char *out;
	int rc;

	free(tap_cli(&rc, 1, "tag -d %s -m 'O_TMPFILE, \"x\"' "
	    "open01 unsupported-flag", dbfile));
	is_int(rc, 0, "ltpscope tag");
	out = tap_cli(&rc, 1, "tag -d %s open01 no-such", dbfile);
	is_int(rc, 2, "unknown category is a usage error");
	has_str(out, "unknown category 'no-such'", "says which");
	free(out);
	out = tap_cli(&rc, 0, "tags -d %s --format json open01", dbfile);
	has_str(out, "\"category\": \"unsupported-flag\"", "tags json");
	has_str(out, "\"note\": \"O_TMPFILE, \\\"x\\\"\"", "note in json");
	free(out);
	free(tap_cli(&rc, 1, "untag -d %s open01", dbfile));
	is_int(rc, 0, "ltpscope untag");
	free(tap_cli(&rc, 1, "untag -d %s open01", dbfile));
	is_int(rc, 1, "untag twice fails");

	out = tap_cli(&rc, 1, "compare -d %s "
	    "--fail-on-regression 4 5", dbfile);
	is_int(rc, 3, "regression: exit 3");
	has_str(out, "regressed         1", "counts printed");
	has_str(out, "removed           6", "removed count");
	has_str(out, "writev02                 writev         pass -> pass  "
	    "skipped 0 -> 1", "what changed is said");
	/* readv02's one TWARN is tst_kconfig's: the box's, so a pass. */
	has_str(out, "readv02                  readv          pass -> fail  "
	    "failed+broken 0 -> 1", "and what regressed");
	has_str(out, "warning: the runs differ in OS version", "warning");
	free(out);
	out = tap_cli(&rc, 0, "compare -d %s --format json 4 5", dbfile);
	is_int(rc, 0, "without --fail-on-regression: 0");
	has_str(out, "\"counts\": {\"regressed\": 1, \"fixed\": 1, "
	    "\"changed\": 1, \"new\": 2, \"removed\": 6}", "JSON counts");
	has_str(out, "{\"test\": \"readv02\", \"syscall\": \"readv\", "
	    "\"kind\": \"regressed\", \"a\": \"pass\", \"b\": \"fail\", "
	    "\"bad\": [0, 1]", "JSON item");
	free(out);

	out = tap_cli(&rc, 1, "suggest -d %s 1", dbfile);
	is_int(rc, 0, "ltpscope suggest");
	has_str(out, "readv01              fail       bug-compat",
	    "suggestion shown");
	free(out);
	out = tap_cli(&rc, 1, "baseline -d %s 1", dbfile);
	has_str(out, "run 1 is the baseline for arch 'amd64'", "baseline");
	free(out);
	out = tap_cli(&rc, 1, "export -d %s --run 1 "
	    "--format html -o %s/e.html && grep -c '<svg' %s/e.html",
	    dbfile, tap_tmpdir(), tap_tmpdir());
	is_str(out, "3\n", "export -o writes the HTML with three charts "
	    "(category, status, history)");
	free(out);
	out = tap_cli(&rc, 1, "export -d %s --run 1 -o %s/f.html"
	    " && head -c 15 %s/f.html", dbfile, tap_tmpdir(),
	    tap_tmpdir());
	is_str(out, "<!DOCTYPE html>", "without --format, -o f.html: HTML");
	free(out);
	out = tap_cli(&rc, 1, "export -d %s --run 1 -o %s/f.md "
	    "&& head -c 2 %s/f.md", dbfile, tap_tmpdir(), tap_tmpdir());
	is_str(out, "# ", "-o f.md: Markdown");
	free(out);
	out = tap_cli(&rc, 1, "export -d %s --run 1 --format "
	    "csv -o %s/g.html && head -c 10 %s/g.html", dbfile,
	    tap_tmpdir(), tap_tmpdir());
	is_str(out, "\"priority\"", "--format wins over the name");
	free(out);
	out = tap_cli(&rc, 1, "export -d %s --run 1 -m %s", dbfile,
	    MADEUP "netbsd/linux-amd64-syscalls.master");
	has_str(out, "\"readv\",\"implemented-native\",\"readv01\"",
	    "catalogue state of readv from the table");
	has_str(out, "\"open\",\"implemented-compat\",\"open01\"",
	    "and of open");
	free(out);
	out = tap_cli(&rc, 1, "export -d %s --run 10 "
	    "--format json", dbfile);
	has_str(out, "\"test\": \"pipe05\", \"status\": \"fail\"",
	    "pipe05 fails in run 10");
	has_str(out, "\"flaky\": true", "and is marked flaky");
	free(out);
	free(tap_cli(&rc, 1, "export -d %s --format xls", dbfile));
	is_int(rc, 2, "bad format: usage error");
}

/*
 * A run made on Linux says x86_64 where the tables say amd64: the
 * shopping list still finds the call's slot in compat_linux's table.
 */
static void
test_linux_arch(void)
{
	struct store_run run;
	struct store *st;
	struct diaglist dl;
	char path[1100], *out;
	int rc;

	(void)snprintf(path, sizeof(path), "%s/linux.db", tap_tmpdir());
	diag_init(&dl);
	if (!ok(store_open(&st, path, STORE_CREATE, &dl) == STORE_OK,
	    "linux store: %s", tap_first_diag(&dl))) {
		diag_free(&dl);
		return;
	}
	fixture_run_init(&run);
	run.os_name = (char *)"Linux";
	run.os_version = (char *)"6.1.0";
	run.arch = (char *)"x86_64";
	run.uname = (char *)"Linux h 6.1.0 #1 SMP x86_64";
	if (store_run_begin(st, &run, NULL, 0, &dl) != STORE_OK)
		tap_diag("run_begin: %s", tap_first_diag(&dl));
	add_result(st, run.id, "open01", "open", FAIL_OUT,
	    sizeof(FAIL_OUT) - 1, 0);
	end_run(st, run.id);
	store_close(st);
	diag_free(&dl);
	out = tap_cli(&rc, 1, "export -d %s --run %lld -m %s", path,
	    (long long)run.id, MADEUP "netbsd/linux-amd64-syscalls.master");
	has_str(out, "\"open\",\"implemented-compat\",\"open01\"",
	    "a Linux run's x86_64 finds the amd64 table's slot");
	free(out);
}

/* A schema 1 database (tests/fixtures) gains the triage tables. */
static void
test_migration(void)
{
	struct triage_tag t;
	struct store *st;
	struct diaglist dl;
	sqlite3 *db;
	char path[1100], *sql;
	int64_t id;

	(void)snprintf(path, sizeof(path), "%s/v1.db", tap_tmpdir());
	sql = tap_slurp("tests/fixtures/store-v1.sql", NULL);
	if (!ok(sql != NULL, "v1 fixture"))
		return;
	sqlite3_open(path, &db);
	ok(sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK, "v1 built");
	sqlite3_close(db);
	free(sql);
	diag_init(&dl);
	is_int(store_open(&st, path, 0, &dl), STORE_OK, "v1 opens: %s",
	    tap_first_diag(&dl));
	if (st == NULL) {
		diag_free(&dl);
		return;
	}
	is_int(store_schema_version(st), STORE_SCHEMA_VERSION, "migrated");
	memset(&t, 0, sizeof(t));
	t.tag = (char *)"abort01";
	t.category = (char *)"crash";
	is_int(store_tag_set(st, &t, &dl), STORE_OK, "tags on a migrated "
	    "database");
	is_int(store_latest_run(st, &id, &dl), STORE_OK, "its run");
	is_int(store_baseline_set(st, id, &dl), STORE_OK, "baseline on it");
	is_int(store_baseline_set(st, 999, &dl), STORE_ENOTFOUND,
	    "no baseline for a run that is not there");
	store_close(st);
	diag_free(&dl);
}

int
main(void)
{
	struct store *st;
	struct diaglist dl;
	size_t i;

	setenv("LTPSCOPE_DATA", "data", 1);
	setenv("HOME", tap_tmpdir(), 1);
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("LTPSCOPE_MASTER");
	bignote = malloc(100 * 1024 + 1);
	for (i = 0; i < 100 * 1024; i++)
		bignote[i] = "abc, \"\n"[i % 7];
	bignote[100 * 1024] = '\0';
	(void)snprintf(dbfile, sizeof(dbfile), "%s/t.db", tap_tmpdir());
	diag_init(&dl);
	if (!ok(store_open(&st, dbfile, STORE_CREATE, &dl) == STORE_OK,
	    "store: %s", tap_first_diag(&dl)))
		return tap_done();
	is_int(store_schema_version(st), STORE_SCHEMA_VERSION, "schema now");
	test_tags(st);		/* runs 1-3 */
	test_compare(st);	/* runs 4-9 */
	test_export(st, 1);
	store_close(st);
	test_cli();
	test_wide_columns();
	test_linux_arch();
	test_migration();
	diag_free(&dl);
	free(bignote);
	return tap_done();
}
