/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The LTP output parser against made-up captures of each kind
 * (tests/fixtures/madeup/ltp/outputs) and every real capture in
 * ../shared/ltp/outputs (status and counts worked out by reading each
 * file), chunk-boundary independence, hostile bytes, the line cap, and
 * the verdict's precedence rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/ltpout.h"
#include "ltpscope/textsafe.h"
#include "ltpscope/xmalloc.h"
#include "tap.h"

/* Lines serialised, to compare two parses byte for byte. */
struct trace {
	char	*p;
	size_t	 len;
	size_t	 cap;
	size_t	 nlines;
	size_t	 maxpending;
};

static void
trace_add(struct trace *t, const void *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		while (t->len + n + 1 > t->cap)
			t->cap = t->cap ? t->cap * 2 : 4096;
		t->p = xrealloc(t->p, t->cap);
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
}

static void
trace_line(const struct ltpout_line *l, void *arg)
{
	struct trace *t = arg;
	char head[512];
	int n;

	n = snprintf(head, sizeof(head), "%s|%s|%lu|%s|%lu|%zu|%d|%zu|",
	    line_class_name(l->cls), l->file ? l->file : "-", l->srcline,
	    l->tcid ? l->tcid : "-", l->lineno, l->cut, l->flags,
	    l->msglen);
	trace_add(t, head, (size_t)n);
	trace_add(t, l->text, l->len);
	trace_add(t, "\n", 1);
	t->nlines++;
}

/* strstr() for a trace that may hold NUL bytes. */
static int
trace_has(const struct trace *t, const char *needle)
{
	size_t i, k = strlen(needle);

	for (i = 0; i + k <= t->len; i++)
		if (memcmp(t->p + i, needle, k) == 0)
			return 1;
	return 0;
}

static void
tally_str(const struct ltpout_tally *t, char *buf, size_t len)
{
	int i, n;

	n = snprintf(buf, len, "total %lu marks %u sig %s tmo %ld cut %lu/%llu"
	    " sum %d %u %ld/%ld/%ld/%ld/%ld lines", t->total, t->marks,
	    t->killsig, t->timeout_secs, t->cut_lines, t->cut_bytes,
	    t->summary.present, t->summary.fields, t->summary.passed,
	    t->summary.failed, t->summary.broken, t->summary.skipped,
	    t->summary.warnings);
	for (i = 0; i < LC__COUNT && n > 0 && (size_t)n < len; i++)
		n += snprintf(buf + n, len - (size_t)n, " %lu", t->lines[i]);
}

/*
 * Parses buf in chunks of `chunk` bytes (0: random sizes from a fixed
 * seed), recording lines in *tr and the tally as text in tstr.
 */
static void
parse_chunked(const char *buf, size_t len, size_t chunk, struct trace *tr,
    char *tstr, size_t tlen, struct ltpout_tally *tally)
{
	struct ltpout *p = ltpout_new();
	struct ltpout_line l;
	unsigned long seed = 12345;
	size_t off = 0, n, left, pend;
	const char *cur;

	memset(tr, 0, sizeof(*tr));
	while (off < len) {
		if (chunk == 0) {
			seed = seed * 1103515245 + 12345;
			n = 1 + (seed >> 16) % 97;
		} else
			n = chunk;
		if (n > len - off)
			n = len - off;
		cur = buf + off;
		left = n;
		while (ltpout_scan(p, &cur, &left, &l))
			trace_line(&l, tr);
		(void)ltpout_pending(p, &pend);
		if (pend > tr->maxpending)
			tr->maxpending = pend;
		off += n;
	}
	ltpout_finish(p, trace_line, tr);
	if (tstr != NULL)
		tally_str(ltpout_tally(p), tstr, tlen);
	if (tally != NULL)
		*tally = *ltpout_tally(p);
	ltpout_free(p);
}

/* Whole buffer at once through the callback API. */
static void
parse_all(const char *buf, size_t len, struct trace *tr,
    struct ltpout_tally *tally)
{
	struct ltpout *p = ltpout_new();

	memset(tr, 0, sizeof(*tr));
	ltpout_feed(p, buf, len, trace_line, tr);
	ltpout_finish(p, trace_line, tr);
	if (tally != NULL)
		*tally = *ltpout_tally(p);
	ltpout_free(p);
}

/*
 * Expected results, worked out by reading each capture: its first line
 * gives the exit code; line counts are of result lines, colour aside.
 */
struct expect {
	const char	*file;
	int		 exitcode;
	enum test_status st;
	int		 sum[5];	/* -1: no Summary block */
	int		 pass, fail, brok, conf, warn, info;
	long		 timeout;	/* last "timeout per run", -1 none */
};

static const struct expect expects[] = {
	{ "copy_file_range01.txt", 0, TS_PASS, { 12, 0, 0, 12, 0 },
	    12, 0, 0, 12, 0, 91, 140 },
	{ "copy_file_range02.txt", 0, TS_PASS, { 18, 0, 0, 10, 0 },
	    18, 0, 0, 10, 0, 43, 120 },
	{ "epoll_pwait03-slow.txt", 0, TS_PASS, { 14, 0, 0, 0, 0 },
	    14, 0, 0, 0, 0, 57, 129 },
	{ "epoll_pwait03-timeout-mul-0.1-still-passes.txt", 0, TS_PASS,
	    { 14, 0, 0, 0, 0 }, 14, 0, 0, 0, 0, 57, 21 },
	{ "fcntl01-oldlib.txt", 0, TS_PASS, { -1 }, 0, 0, 0, 0, 0, 1, -1 },
	/* exec of itself fails without PATH: four TBROK, exit 2. */
	{ "fcntl07-oldlib-tbrok-no-PATH.txt", 2, TS_BROKEN, { -1 },
	    0, 0, 4, 0, 0, 1, -1 },
	{ "fcntl07-oldlib.txt", 0, TS_PASS, { -1 }, 4, 0, 0, 0, 0, 1, -1 },
	{ "fcntl18-oldlib-tconf-nonroot.txt", 32, TS_CONF, { -1 },
	    0, 0, 0, 2, 0, 0, -1 },
	{ "fcntl35-tfail.txt", 1, TS_FAIL, { 1, 1, 0, 0, 0 },
	    1, 1, 0, 0, 0, 5, 120 },
	/* LTP's own timer fired ("Test timeouted"), then TBROK. */
	{ "fcntl36-timeout.txt", 2, TS_TIMEOUT, { 1, 0, 1, 0, 0 },
	    1, 0, 1, 0, 0, 9, 15 },
	{ "getpid01.txt", 0, TS_PASS, { 100, 0, 0, 0, 0 },
	    100, 0, 0, 0, 0, 5, 124 },
	/* kill -TERM from outside: LTP kills the child, TBROK, exit 2. */
	{ "inotify09-sigterm.txt", 2, TS_SIGNALLED, { 0, 0, 1, 0, 0 },
	    0, 0, 1, 0, 0, 22, 270 },
	{ "inotify09-slow.txt", 0, TS_PASS, { 1, 0, 0, 0, 0 },
	    1, 0, 0, 0, 0, 22, 270 },
	{ "kill02-oldlib-slow.txt", 0, TS_PASS, { -1 }, 2, 0, 0, 0, 0, 0, -1 },
	{ "kill13-tconf.txt", 32, TS_CONF, { 0, 0, 0, 1, 0 },
	    0, 0, 0, 1, 0, 4, -1 },
	/* exit 36 = TCONF|TWARN: the warning outranks the skip. */
	{ "kill13-twarn-kconfig-path.txt", 36, TS_WARN, { 0, 0, 0, 1, 1 },
	    0, 0, 0, 1, 1, 4, -1 },
	{ "lseek07.txt", 0, TS_PASS, { 2, 0, 0, 0, 0 }, 2, 0, 0, 0, 0, 6, 120 },
	{ "open01-color.txt", 0, TS_PASS, { 2, 0, 0, 0, 0 },
	    2, 0, 0, 0, 0, 6, 120 },
	/* -h prints help and exits 0: nothing failed. */
	{ "open01-help.txt", 0, TS_PASS, { -1 }, 0, 0, 0, 0, 0, 2, -1 },
	{ "open01-iterations.txt", 0, TS_PASS, { 6, 0, 0, 0, 0 },
	    6, 0, 0, 0, 0, 6, 120 },
	{ "open01-reproducible.txt", 0, TS_PASS, { 2, 0, 0, 0, 0 },
	    2, 0, 0, 0, 0, 0, -1 },
	{ "open01.txt", 0, TS_PASS, { 2, 0, 0, 0, 0 }, 2, 0, 0, 0, 0, 6, 120 },
	{ "open02-tconf-nonroot.txt", 32, TS_CONF, { 0, 0, 0, 1, 0 },
	    0, 0, 0, 1, 0, 0, -1 },
	{ "pipeio_1-runtest-args.txt", 0, TS_PASS, { -1 },
	    1, 0, 0, 0, 0, 1, -1 },
	{ "statx07-tconf.txt", 32, TS_CONF, { 0, 0, 0, 1, 0 },
	    0, 0, 0, 1, 0, 0, -1 },
	{ "tmpdir-relative-tbrok.txt", 2, TS_BROKEN, { 0, 0, 1, 0, 0 },
	    0, 0, 1, 0, 0, 0, -1 },
	{ "writev01.txt", 0, TS_PASS, { 6, 0, 0, 0, 0 },
	    6, 0, 0, 0, 0, 6, 120 },
	{ "writev02.txt", 0, TS_PASS, { -1 }, 1, 0, 0, 0, 0, 1, -1 },
	{ "writev03-slow-single-fs.txt", 0, TS_PASS, { 1, 0, 0, 0, 0 },
	    1, 0, 0, 0, 0, 29, 195 },
	{ "writev05.txt", 0, TS_PASS, { -1 }, 1, 0, 0, 0, 0, 1, -1 },
	{ "writev06.txt", 0, TS_PASS, { -1 }, 1, 0, 0, 0, 0, 1, -1 },
	{ "writev07.txt", 0, TS_PASS, { 8, 0, 0, 0, 0 },
	    8, 0, 0, 0, 0, 14, 120 },
};

/* Skips the capture's two header lines; returns the exit code or -1. */
static int
capture_body(const char *buf, const char **body)
{
	const char *p = strstr(buf, "# exit code: "), *nl;
	int code = -1;

	if (p != NULL)
		code = atoi(p + strlen("# exit code: "));
	*body = buf;
	if ((nl = strchr(buf, '\n')) != NULL &&
	    (nl = strchr(nl + 1, '\n')) != NULL)
		*body = nl + 1;
	return code;
}

static void
check_capture(const struct expect *e)
{
	struct ltpout_tally t;
	struct trace whole, bytes, rnd;
	struct test_end end;
	char rel[256], why[256], tw[512], tb[512];
	const char *body;
	char *buf;
	size_t len, blen;
	int code;

	(void)snprintf(rel, sizeof(rel), "ltp/outputs/%s", e->file);
	/* The made-up layer has a few of the kinds, not every capture. */
	if (!tap_layer_real() && access(tap_shared_path(rel), F_OK) == -1)
		return;
	if (!ok((buf = tap_slurp(tap_shared_path(rel), &len)) != NULL,
	    "%s: read", e->file))
		return;
	code = capture_body(buf, &body);
	blen = len - (size_t)(body - buf);
	is_int(code, e->exitcode, "%s: exit code in the header", e->file);

	parse_all(body, blen, &whole, &t);
	end.how = TEST_EXITED;
	end.code = code;
	is_str(test_status_name(ltpout_status(&t, &end, why, sizeof(why))),
	    test_status_name(e->st), "%s: status (%s)", e->file, why);
	is_int(t.summary.present, e->sum[0] >= 0, "%s: summary present",
	    e->file);
	if (e->sum[0] >= 0) {
		ok(t.summary.passed == e->sum[0] &&
		    t.summary.failed == e->sum[1] &&
		    t.summary.broken == e->sum[2] &&
		    t.summary.skipped == e->sum[3] &&
		    t.summary.warnings == e->sum[4] && t.summary.fields == 0x1f,
		    "%s: summary %ld/%ld/%ld/%ld/%ld", e->file,
		    t.summary.passed, t.summary.failed, t.summary.broken,
		    t.summary.skipped, t.summary.warnings);
	}
	ok(t.lines[LC_TPASS] == (unsigned long)e->pass &&
	    t.lines[LC_TFAIL] == (unsigned long)e->fail &&
	    t.lines[LC_TBROK] == (unsigned long)e->brok &&
	    t.lines[LC_TCONF] == (unsigned long)e->conf &&
	    t.lines[LC_TWARN] == (unsigned long)e->warn &&
	    t.lines[LC_TINFO] == (unsigned long)e->info,
	    "%s: lines P%lu F%lu B%lu C%lu W%lu I%lu", e->file,
	    t.lines[LC_TPASS], t.lines[LC_TFAIL], t.lines[LC_TBROK],
	    t.lines[LC_TCONF], t.lines[LC_TWARN], t.lines[LC_TINFO]);
	is_int(t.timeout_secs, e->timeout, "%s: timeout per run", e->file);
	is_int(t.summary.present ? 6 : 0, (long long)t.lines[LC_SUMMARY],
	    "%s: summary block lines", e->file);

	/* Chunk boundaries must not matter. */
	tally_str(&t, tw, sizeof(tw));
	parse_chunked(body, blen, 1, &bytes, tb, sizeof(tb), NULL);
	ok(bytes.len == whole.len && memcmp(bytes.p, whole.p, whole.len) == 0,
	    "%s: byte at a time gives the same lines", e->file);
	is_str(tb, tw, "%s: byte at a time gives the same tally", e->file);
	parse_chunked(body, blen, 0, &rnd, tb, sizeof(tb), NULL);
	ok(rnd.len == whole.len && memcmp(rnd.p, whole.p, whole.len) == 0,
	    "%s: random chunks give the same lines", e->file);
	free(whole.p);
	free(bytes.p);
	free(rnd.p);
	free(buf);
}

/* Colour is gone before classification and from the text. */
static void
check_colour(void)
{
	struct trace tr;
	char *buf;
	const char *body;
	size_t len;

	if ((buf = tap_slurp(tap_shared_path("ltp/outputs/open01-color.txt"),
	    &len)) == NULL)
		return;
	(void)capture_body(buf, &body);
	parse_all(body, len - (size_t)(body - buf), &tr, NULL);
	ok(strchr(tr.p, 0x1b) == NULL, "colour capture: no ESC left");
	has_str(tr.p, "TPASS|open01.c|56|-|7|0|64|29|open01.c:56: TPASS: "
	    "sticky bit is set as expected\n", "colour capture: TPASS line");
	free(tr.p);
	free(buf);
}

/* streams.txt holds six runs: each "$ cmd" up to "# exit code: N". */
static void
check_streams(void)
{
	static const enum test_status want[] = {
		TS_PASS, TS_PASS, TS_PASS, TS_PASS, TS_CONF, TS_CONF
	};
	static const unsigned long want_results[] = { 0, 2, 4, 0, 0, 1 };
	struct ltpout *p = ltpout_new();
	struct ltpout_line l;
	struct test_end end;
	const struct ltpout_tally *t;
	char *buf, *line, *next, why[256];
	size_t len, nsec = 0, k;
	int in = 0;
	unsigned long results;

	if (!ok((buf = tap_slurp(tap_shared_path("ltp/outputs/streams.txt"),
	    &len)) != NULL, "streams: read"))
		return;
	for (line = buf; line != NULL && *line != '\0'; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (strncmp(line, "$ ", 2) == 0) {
			ltpout_reset(p);
			in = 1;
		} else if (in && strncmp(line, "# exit code: ", 13) == 0) {
			while (ltpout_flush(p, &l))
				continue;
			t = ltpout_tally(p);
			end.how = TEST_EXITED;
			end.code = atoi(line + 13);
			results = 0;
			for (k = LC_TPASS; k <= LC_TWARN; k++)
				results += t->lines[k];
			if (nsec < 6) {
				is_str(test_status_name(ltpout_status(t, &end,
				    why, sizeof(why))),
				    test_status_name(want[nsec]),
				    "streams run %zu: status (%s)", nsec + 1,
				    why);
				is_int(results, want_results[nsec],
				    "streams run %zu: result lines", nsec + 1);
			}
			nsec++;
			in = 0;
		} else if (in) {
			const char *cur = line;
			size_t n = strlen(line);

			while (ltpout_scan(p, &cur, &n, &l))
				continue;
			cur = "\n";
			n = 1;
			while (ltpout_scan(p, &cur, &n, &l))
				continue;
		}
	}
	is_int(nsec, 6, "streams: six runs");
	ltpout_free(p);
	free(buf);
}

/* Parses a literal and returns the trace; the caller frees tr->p. */
static void
parse_lit(const char *s, size_t len, struct trace *tr,
    struct ltpout_tally *t)
{
	struct trace b;

	parse_all(s, len, tr, t);
	parse_chunked(s, len, 1, &b, NULL, 0, NULL);
	ok(b.len == tr->len && memcmp(b.p, tr->p, tr->len) == 0,
	    "same lines byte by byte (%zu lines)", tr->nlines);
	free(b.p);
}

#define LIT(s)	(s), sizeof(s) - 1

static void
check_bytes(void)
{
	struct ltpout_tally t;
	struct ltpout *p;
	struct ltpout_line l;
	struct trace tr;
	const char *cur, *pend;
	size_t n;

	parse_lit(LIT("a.c:1: TPASS: x\r\nb\r\n"), &tr, &t);
	is_str(tr.p, "TPASS|a.c|1|-|1|0|64|1|a.c:1: TPASS: x\n"
	    "plain|-|0|-|2|0|0|1|b\n", "CRLF: two lines, no CR left");
	free(tr.p);

	parse_lit(LIT("step 1\rstep 2\r\r\nend"), &tr, &t);
	is_str(tr.p, "plain|-|0|-|1|0|0|6|step 1\n"
	    "plain|-|0|-|2|0|0|6|step 2\n"
	    "plain|-|0|-|3|0|16|3|end\n",
	    "bare CR breaks a line; CR CR LF is one end; tail unterminated");
	free(tr.p);

	parse_lit(LIT("x.c:3: TFAIL: a\0b\n\xff\xfe bad\nbell\a\n"), &tr, &t);
	is_int(tr.nlines, 3, "NUL, bad UTF-8, BEL: three lines");
	ok(memcmp(tr.p, "TFAIL|x.c|3|-|1|0|66|3|x.c:3: TFAIL: a\0b\n", 37)
	    == 0, "NUL kept in the line, flagged, still a TFAIL");
	ok(trace_has(&tr, "plain|-|0|-|2|0|4|"), "invalid UTF-8 flagged");
	ok(trace_has(&tr, "plain|-|0|-|3|0|8|"), "BEL flagged as control");
	is_int(t.lines[LC_TFAIL], 1, "TFAIL with NUL counted");
	free(tr.p);

	/* Escapes split anywhere, OSC titles, and broken sequences. */
	parse_lit(LIT("a\x1b]0;title\x07" "b\x1b[1;31mc\x1b[0m\n"
	    "x\x1b[12\ny\x1b(Bz\n\x1b]2;never ended\nafter\n"), &tr, &t);
	is_str(tr.p, "plain|-|0|-|1|0|0|3|abc\nplain|-|0|-|2|0|0|1|x\n"
	    "plain|-|0|-|3|0|0|2|yz\nplain|-|0|-|4|0|0|0|\n"
	    "plain|-|0|-|5|0|0|5|after\n",
	    "escape sequences removed; a line end ends a broken one");
	free(tr.p);

	/* Summary counts only inside the block. */
	parse_lit(LIT("passed 9\nSummary:\npassed   3\nfailed   1\n"
	    "broken   0\nskipped  2\nwarnings 0\nlater\npassed 7\n"), &tr, &t);
	ok(t.summary.present && t.summary.passed == 3 &&
	    t.summary.failed == 1 && t.summary.skipped == 2 &&
	    t.summary.fields == 0x1f, "summary block counts");
	is_int(t.lines[LC_SUMMARY], 6, "six summary lines");
	is_int(t.lines[LC_PLAIN], 3, "counts outside the block are plain");
	free(tr.p);

	/* Old library: tcid, number, and the file:line tst_brkm adds. */
	parse_lit(LIT("fcntl07     1  TBROK  :  fcntl07.c:128: exec failed\n"
	    "pipeio_1    1  TPASS  :  501 pipe reads\n"
	    "x 1 TPASS : short spacing\n"
	    "name TPASS : no number\n"), &tr, &t);
	has_str(tr.p, "TBROK|fcntl07.c|128|fcntl07|1|0|32|11|",
	    "old-library TBROK with file, line, tcid, message");
	has_str(tr.p, "TPASS|-|0|pipeio_1|2|0|32|14|", "runtest tcid");
	has_str(tr.p, "TPASS|-|0|x|3|0|32|", "single spaces accepted");
	has_str(tr.p, "plain|-|0|-|4|", "no test number: plain");
	free(tr.p);

	/* New library edge cases. */
	parse_lit(LIT("../../include/tst_fuzzy_sync.h:451: TINFO: x\n"
	    "open01.c:56: TPASS: \nopen01.c:56: TPASS:\n"
	    "t.c:1: TDEBUG: d\nt.c:1: TNOPE: n\nt.c: 1: TPASS: s\n"
	    "HINT: You _MAY_ be missing kernel fixes:\n"
	    "Test timeouted, sending SIGKILL!\n"), &tr, &t);
	has_str(tr.p, "TINFO|../../include/tst_fuzzy_sync.h|451|",
	    "relative path as file");
	has_str(tr.p, "TPASS|open01.c|56|-|2|0|64|0|", "empty message");
	has_str(tr.p, "TPASS|open01.c|56|-|3|0|64|0|", "no space at end");
	has_str(tr.p, "TDEBUG|t.c|1|", "TDEBUG");
	has_str(tr.p, "plain|-|0|-|5|", "unknown tag is plain");
	has_str(tr.p, "plain|-|0|-|6|", "space before the line: plain");
	has_str(tr.p, "plain|-|0|-|7|0|0|40|HINT:", "HINT is plain");
	ok(t.marks == LTPOUT_MARK_LTP_TIMEOUT, "LTP timeout marked");
	free(tr.p);

	/* Older LTP's wording; hint and kernel-tag lines stay plain. */
	parse_lit(LIT("tst_test.c:1690: TINFO: Timeout per run is 0h 00m 30s\n"
	    "HINT: You _MAY_ be vulnerable to CVE(s):\n\n"
	    "https://cve.mitre.org/cgi-bin/cvename.cgi?name=CVE-2017-2671\n"
	    "linux-git:086e774a57fb\nhalf a lineSending SIGKILL to test "
	    "process...\n"), &tr, &t);
	is_int(t.timeout_secs, 30, "old 'Timeout per run' wording");
	is_int(t.lines[LC_TINFO], 1, "one TINFO");
	is_int(t.lines[LC_PLAIN], 5, "HINT, blank, URL, tag, kill: plain");
	ok(t.marks == LTPOUT_MARK_EXT_KILL, "kill line found mid-line");
	free(tr.p);

	/* Found by make fuzz: hours that overflow a long are no timeout. */
	parse_lit(LIT("tst_test.c:1876: TINFO: Overall timeout per run is "
	    "9223372036854775807h 00m 00s\n"), &tr, &t);
	is_int(t.timeout_secs, -1, "an hour count no long holds: no timeout");
	free(tr.p);
	parse_lit(LIT("tst_test.c:1876: TINFO: Overall timeout per run is "
	    "27h 46m 40s\n"), &tr, &t);
	is_int(t.timeout_secs, 100000, "27h 46m 40s is 100000 s");
	free(tr.p);
	parse_lit(LIT("tst_test.c:1876: TINFO: Overall timeout per run is "
	    "0h 75m 00s\n"), &tr, &t);
	is_int(t.timeout_secs, -1, "75 minutes is not LTP's shape");
	free(tr.p);
	/* LTP ends the message with the time: only then is it one. */
	parse_lit(LIT("tst_test.c:1876: TINFO: Overall timeout per run is "
	    "0h 02m 00s\ntst_test.c:1876: TINFO: Overall timeout per run is "
	    "0h 00m 30s, or so\n"), &tr, &t);
	is_int(t.timeout_secs, 120, "a time with more text after it: no "
	    "timeout");
	free(tr.p);

	/* The kill lines, wherever the word falls in a plain line. */
	parse_lit(LIT("SIGKILL\n"), &tr, &t);
	ok(t.marks == 0, "the word alone marks nothing");
	free(tr.p);
	parse_lit(LIT("KKKKKKKSending SIGKILL to test process\n"), &tr, &t);
	ok(t.marks == LTPOUT_MARK_EXT_KILL, "kill line after a run of K");
	free(tr.p);
	parse_lit(LIT("SIGKIL\nSIGKILx\nKILL SIG\n"
	    "Test timeouted, sending SIGKILL"), &tr, &t);
	ok(t.marks == LTPOUT_MARK_LTP_TIMEOUT, "timeout line at the "
	    "input's end, no near misses");
	free(tr.p);
	parse_lit(LIT("xSending SIGKILL to test proces\n"), &tr, &t);
	ok(t.marks == 0, "a kill line cut short is none");
	free(tr.p);

	/* A partial line is only given at flush, and can be peeked. */
	p = ltpout_new();
	cur = "abc";
	n = 3;
	ok(!ltpout_scan(p, &cur, &n, &l) && n == 0, "partial: no line yet");
	pend = ltpout_pending(p, &n);
	ok(n == 3 && memcmp(pend, "abc", 3) == 0, "partial: peek");
	ok(ltpout_flush(p, &l) && l.len == 3 &&
	    (l.flags & LTPOUT_UNTERMINATED), "partial: flushed");
	ok(!ltpout_flush(p, &l), "flush: nothing more");
	ltpout_free(p);
}

static void
check_long_line(void)
{
	const size_t big = 1024 * 1024;
	struct ltpout_tally t;
	struct trace tr, whole;
	char *buf, note[256], msg[128];
	size_t i, len;

	/* 1 MB of a 3-byte character: the cap falls inside one. */
	len = big * 3 + 6;
	buf = xmalloc(len);
	for (i = 0; i < big; i++)
		memcpy(buf + i * 3, "\xe2\x82\xac", 3);
	memcpy(buf + big * 3, "\nnext\n", 6);
	parse_chunked(buf, len, 1, &tr, NULL, 0, &t);
	ok(tr.maxpending <= LTPOUT_LINE_MAX,
	    "1 MB line byte by byte: held at most %zu bytes", tr.maxpending);
	parse_chunked(buf, len, 65536, &whole, NULL, 0, NULL);
	ok(whole.maxpending <= LTPOUT_LINE_MAX, "64 KiB chunks: bounded");
	ok(tr.len == whole.len && memcmp(tr.p, whole.p, tr.len) == 0,
	    "cut line is the same whatever the chunks");
	is_int(tr.nlines, 3, "cut line, note, next line");
	is_int(t.cut_lines, 1, "one line cut");
	is_int((long long)t.cut_bytes, (long long)(big * 3 - 65535),
	    "bytes cut, incomplete character included");
	(void)snprintf(msg, sizeof(msg),
	    "ltpscope: line 1 cut at 65536 bytes, %zu bytes dropped",
	    big * 3 - 65535);
	(void)snprintf(note, sizeof(note), "meta|-|0|-|1|0|0|%zu|%s\n",
	    strlen(msg), msg);
	has_str(tr.p, note, "the cut is reported, never silent");
	has_str(tr.p, "plain|-|0|-|2|0|0|4|next\n", "next line intact");
	ok(strncmp(tr.p, "plain|-|0|-|1|", 14) == 0 &&
	    strstr(tr.p, "|65535|") != NULL, "kept 65535 bytes");
	{
		char *nl = strchr(tr.p, '\n');
		const char *text = strstr(tr.p, "|65535|") + 7;

		ok(nl != NULL && textsafe_utf8_valid(text,
		    (size_t)(nl - text)), "cut line is valid UTF-8");
	}
	free(tr.p);
	free(whole.p);
	free(buf);
}

/* 4 MiB with no line end at all: bounded, then given at flush. */
static void
check_unterminated_flood(void)
{
	struct ltpout *p = ltpout_new();
	struct ltpout_line l;
	char *chunk = xmalloc(65536);
	const char *cur;
	size_t n, pend, maxpend = 0;
	int i, lines = 0;

	memset(chunk, 'x', 65536);
	for (i = 0; i < 64; i++) {
		cur = chunk;
		n = 65536;
		while (ltpout_scan(p, &cur, &n, &l))
			lines++;
		(void)ltpout_pending(p, &pend);
		if (pend > maxpend)
			maxpend = pend;
	}
	is_int(lines, 0, "flood: no line before flush");
	ok(maxpend <= LTPOUT_LINE_MAX, "flood: held at most %zu bytes",
	    maxpend);
	ok(ltpout_flush(p, &l) && l.len == LTPOUT_LINE_MAX &&
	    l.cut == 64 * 65536 - LTPOUT_LINE_MAX &&
	    (l.flags & (LTPOUT_CUT | LTPOUT_UNTERMINATED)) ==
	    (LTPOUT_CUT | LTPOUT_UNTERMINATED), "flood: capped line at flush");
	ok(ltpout_flush(p, &l) && l.cls == LC_META &&
	    strstr(l.text, "4128768 bytes dropped") != NULL,
	    "flood: then the note (%s)", l.text);
	ok(!ltpout_flush(p, &l), "flood: then nothing");
	cur = "t.c:1: TPASS: after\n";
	n = strlen(cur);
	ok(ltpout_scan(p, &cur, &n, &l) && l.cls == LC_TPASS &&
	    l.lineno == 2, "flood: parsing goes on after flush");
	is_int(ltpout_tally(p)->cut_bytes, 4128768, "flood: tally of cut");
	ltpout_free(p);
	free(chunk);
}

/* Random hostile input: the chunking never changes the result. */
static void
check_random_equivalence(void)
{
	static const char *const bits[] = {
		"\r", "\n", "\r\n", "\x1b", "\x1b[1;32m", "\x1b]0;t", "\x07",
		"t.c:1: TPASS: ", "x 1 TFAIL : ", "Summary:\n", "passed 1\n",
		"\xe2\x82", "\xac", "\0", "abc", " ", "Test timeouted"
	};
	struct trace a, b, c;
	char buf[2048], ta[512], tb[512], tc[512];
	unsigned long seed = 7;
	size_t len, k;
	int round, same = 0;

	for (round = 0; round < 200; round++) {
		len = 0;
		for (;;) {
			seed = seed * 1103515245 + 12345;
			k = (seed >> 16) % (sizeof(bits) / sizeof(bits[0]));
			if (len + 20 > sizeof(buf) || (seed >> 8) % 97 == 0)
				break;
			/* bits[13] is a NUL: strlen() would miss it. */
			if (k == 13)
				buf[len++] = '\0';
			else {
				memcpy(buf + len, bits[k], strlen(bits[k]));
				len += strlen(bits[k]);
			}
		}
		parse_chunked(buf, len, len > 0 ? len : 1, &a, ta, sizeof(ta),
		    NULL);
		parse_chunked(buf, len, 1, &b, tb, sizeof(tb), NULL);
		parse_chunked(buf, len, 0, &c, tc, sizeof(tc), NULL);
		if (a.len == 0 && b.len == 0 && c.len == 0)
			same += strcmp(ta, tb) == 0 && strcmp(ta, tc) == 0;
		else if (a.len == b.len && a.len == c.len &&
		    memcmp(a.p, b.p, a.len) == 0 &&
		    memcmp(a.p, c.p, a.len) == 0 && strcmp(ta, tb) == 0 &&
		    strcmp(ta, tc) == 0 && memchr(a.p, 0x1b, a.len) == NULL &&
		    memchr(a.p, '\r', a.len) == NULL)
			same++;
		free(a.p);
		free(b.p);
		free(c.p);
	}
	is_int(same, 200, "200 random streams: same lines whatever the "
	    "chunks, no ESC or CR left");
}

static enum test_status
status_of(const char *out, enum test_end_how how, int code, char *why)
{
	struct ltpout_tally t;
	struct trace tr;
	struct test_end end;

	parse_all(out, strlen(out), &tr, &t);
	free(tr.p);
	end.how = how;
	end.code = code;
	return ltpout_status(&t, &end, why, 200);
}

#define STATUS(out, how, code, want, ...) do {				\
	char why_[200];							\
	is_str(test_status_name(status_of(out, how, code, why_)),	\
	    test_status_name(want), __VA_ARGS__);			\
	tap_diag("  %s", why_);						\
} while (0)

static void
check_precedence(void)
{
	const char *pass = "t.c:1: TPASS: ok\n";
	const char *fail = "t.c:1: TFAIL: no\n";
	const char *brok = "t.c:1: TBROK: no\n";
	const char *conf = "t.c:1: TCONF: skip\n";
	const char *warn = "t.c:1: TWARN: hm\n";

	STATUS(fail, TEST_EXITED, 0, TS_FAIL, "exit 0 but a TFAIL line");
	STATUS(pass, TEST_EXITED, 32, TS_PASS, "exit 32 with a TPASS: pass");
	STATUS(conf, TEST_EXITED, 0, TS_CONF, "TCONF only, exit 0: conf");
	STATUS(brok, TEST_EXITED, 0, TS_BROKEN, "exit 0 but a TBROK line");
	STATUS("t.c:1: TFAIL: x\nt.c:2: TBROK: y\n", TEST_EXITED, 3, TS_FAIL,
	    "fail outranks broken");
	STATUS(warn, TEST_EXITED, 4, TS_WARN, "exit 4: warn");
	STATUS("", TEST_EXITED, 4, TS_WARN, "exit bit 4 alone: warn");
	STATUS("", TEST_EXITED, 0, TS_PASS, "exit 0, silent: pass");
	STATUS("", TEST_EXITED, 127, TS_BROKEN, "exit 127: broken");
	STATUS(pass, TEST_EXITED, 8, TS_BROKEN, "exit 8 is no LTP mask");
	STATUS("", TEST_NOEXIT, 0, TS_UNKNOWN, "no exit, no results: unknown");
	STATUS(pass, TEST_NOEXIT, 0, TS_PASS, "no exit, passes: pass");
	STATUS(pass, TEST_TIMEDOUT, 0, TS_TIMEOUT, "we killed it: timeout");
	STATUS("Sending SIGKILL to test process...\n"
	    "t.c:1: TBROK: Test killed! (timeout?)\n", TEST_TIMEDOUT, 0,
	    TS_TIMEOUT, "our SIGTERM at the deadline: timeout");
	STATUS(pass, TEST_SIGNALLED, 11, TS_SIGNALLED, "SIGSEGV: signalled");
	STATUS(pass, TEST_NOTRUN, 0, TS_NOTRUN, "not run");
	STATUS(pass, TEST_INTERRUPTED, 0, TS_INTERRUPTED, "interrupted");
	STATUS("tst_test.c:1: TBROK: Test killed by SIGSEGV!\n", TEST_EXITED,
	    2, TS_SIGNALLED, "LTP saw the child die of SIGSEGV");
	STATUS("tst_test.c:1: TBROK: Test killed! (timeout?)\n", TEST_EXITED,
	    2, TS_SIGNALLED, "SIGKILL without a timeout line: signalled");
	STATUS("Test timeouted, sending SIGKILL!\n"
	    "tst_test.c:1: TBROK: Test killed! (timeout?)\n", TEST_EXITED,
	    2, TS_TIMEOUT, "LTP's own timeout");
	STATUS("Summary:\npassed   0\nfailed   2\nbroken   0\nskipped  0\n"
	    "warnings 0\n", TEST_NOEXIT, 0, TS_FAIL, "summary alone: fail");
	STATUS("Summary:\npassed   1\nfailed   0\nbroken   0\nskipped  3\n"
	    "warnings 0\n", TEST_NOEXIT, 0, TS_PASS, "skips with a pass: pass");
}

static void
check_signal_name(void)
{
	struct ltpout_tally t;
	struct trace tr;

	parse_all(LIT("tst_test.c:1: TBROK: Test killed by SIGSEGV!\n"),
	    &tr, &t);
	is_str(t.killsig, "SIGSEGV", "signal name kept");
	free(tr.p);
}

int
main(void)
{
	size_t i;
	int l;

	for (l = 0; tap_layer(l); l++) {
		for (i = 0; i < sizeof(expects) / sizeof(expects[0]); i++)
			check_capture(&expects[i]);
		check_colour();
		check_streams();
	}
	check_bytes();
	check_long_line();
	check_unterminated_flood();
	check_random_equivalence();
	check_precedence();
	check_signal_name();
	return tap_done();
}
