/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The shell tool's log files: every reference log (made-up ones in
 * tests/fixtures/madeup, then the real ones in ../shared) parses,
 * gives the status its Summary and lines call for (worked out by
 * reading each file), and formats back to the same bytes; what
 * ctplog_write() writes, ctplog_read() reads back unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/ctplog.h"
#include "ltpscope/diag.h"
#include "tap.h"

struct refexpect {
	const char	*path;
	enum test_status st;
	long		 sum[5];
	const char	*date;
};

#define REF	"ctp/reference_logs_sample/NetBSD11-reference/"

/*
 * Every one ran on NetBSD without KCONFIG_PATH, hence a TWARN each:
 * with nothing failed, the warning decides (LTP would exit with bit 4).
 */
static const struct refexpect refs[] = {
	{ REF "abort/abort01.log", TS_WARN, { 2, 0, 0, 0, 1 },
	    "Wed, 26 Aug 2026 03:23:42 +0000" },
	{ REF "capget/capget01.log", TS_WARN, { 0, 0, 0, 1, 1 },
	    "Wed, 26 Aug 2026 03:23:55 +0000" },
	{ REF "close/close01.log", TS_WARN, { 3, 0, 0, 0, 1 },
	    "Thu, 27 Aug 2026 00:01:29 +0000" },
	{ REF "close/close02.log", TS_WARN, { 2, 0, 0, 0, 1 },
	    "Thu, 27 Aug 2026 00:01:29 +0000" },
	{ REF "open/open01.log", TS_FAIL, { 1, 1, 0, 0, 1 },
	    "Thu, 27 Aug 2026 00:11:30 +0000" },
	{ REF "readv/readv01.log", TS_FAIL, { 8, 1, 0, 0, 1 },
	    "Thu, 27 Aug 2026 00:13:16 +0000" },
	{ REF "readv/readv02.log", TS_WARN, { 5, 0, 0, 0, 1 },
	    "Thu, 27 Aug 2026 00:13:16 +0000" },
	/* Old library: no Summary, one TPASS. */
	{ REF "writev/writev01.log", TS_FAIL, { 5, 1, 0, 0, 1 },
	    "Thu, 27 Aug 2026 00:20:44 +0000" },
	{ REF "writev/writev02.log", TS_PASS, { -1 },
	    "Thu, 27 Aug 2026 00:20:44 +0000" },
};

static void
check_reference(const struct refexpect *e)
{
	struct ctplog log;
	struct ltpout_tally t;
	struct diaglist dl;
	const char *path = tap_shared_path(e->path);
	char *raw, *again, why[200], want_sys[64];
	const char *slash;
	size_t rawlen, len;

	ctplog_init(&log);
	diag_init(&dl);
	if (!ok(ctplog_read(&log, path, &dl) == 0 && dl.n == 0,
	    "%s: parses cleanly", e->path))
		diag_print(&dl, stdout, "# ");
	is_int(log.npairs, 8, "%s: eight header pairs", e->path);
	is_str(ctplog_get(&log, "date"), e->date, "%s: date", e->path);
	is_str(ctplog_get(&log, "netbsd_version"), "11.0", "%s: version",
	    e->path);
	has_str(ctplog_get(&log, "netbsd_build"),
	    "2026  mkrepro@mkrepro.NetBSD.org:/usr/src/sys/arch/amd64",
	    "%s: value with colons kept whole", e->path);
	is_str(ctplog_get(&log, "script_invocation"),
	    "\"/usr/pkg/bin/compat_linux_test_project '-r'\"",
	    "%s: quoted value kept", e->path);
	slash = strchr(e->path + strlen(REF), '/');
	(void)snprintf(want_sys, sizeof(want_sys), "%.*s",
	    (int)(slash - (e->path + strlen(REF))), e->path + strlen(REF));
	is_str(ctplog_get(&log, "syscall_tested"), want_sys,
	    "%s: syscall_tested", e->path);
	ok(log.bodylen > 0 && log.body[0] != '\n' && log.body[0] != '-',
	    "%s: body starts with LTP output", e->path);

	is_str(test_status_name(ctplog_status(&log, &t, why, sizeof(why))),
	    test_status_name(e->st), "%s: status (%s)", e->path, why);
	is_int(t.summary.present, e->sum[0] >= 0, "%s: summary present",
	    e->path);
	if (e->sum[0] >= 0)
		ok(t.summary.passed == e->sum[0] &&
		    t.summary.failed == e->sum[1] &&
		    t.summary.broken == e->sum[2] &&
		    t.summary.skipped == e->sum[3] &&
		    t.summary.warnings == e->sum[4],
		    "%s: summary counts", e->path);

	/* Our writer's layout is the tool's: same bytes back. */
	raw = tap_slurp(path, &rawlen);
	again = ctplog_format(&log, &len);
	ok(raw != NULL && len == rawlen && memcmp(raw, again, len) == 0,
	    "%s: formats back to the same bytes", e->path);
	free(raw);
	free(again);
	ctplog_free(&log);
	diag_free(&dl);
}

/* Pairs ctplog_add() takes (0) and those it refuses (-1). */
static const struct {
	const char	*key;
	const char	*value;
	int		 ret;
	const char	*what;
} pairs[] = {
	{ "date", "Thu, 03 Dec 2026 07:00:00 +0000", 0, "add date" },
	{ "netbsd_build", "a: b: c", 0, "add colons" },
	{ "empty", "", 0, "add empty value" },
	{ "lead", "  two spaces", 0, "add leading blanks" },
	{ "bad:key", "x", -1, "key with ':' refused" },
	{ "bad key", "x", -1, "key with space refused" },
	{ "", "x", -1, "empty key refused" },
	{ "k", "two\nlines", -1, "newline refused" },
};

static void
check_roundtrip(void)
{
	static const char body[] = "\nfirst line after a blank\n"
	    "t.c:1: TPASS: \xe2\x82\xac ok\nnul\0inside\nno newline at end";
	struct ctplog w, r;
	struct diaglist dl;
	char path[512];
	size_t i;
	int same;

	ctplog_init(&w);
	ctplog_init(&r);
	diag_init(&dl);
	for (i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		ok(ctplog_add(&w, pairs[i].key, pairs[i].value) ==
		    pairs[i].ret, "%s", pairs[i].what);
	ctplog_set_body(&w, body, sizeof(body) - 1);

	(void)snprintf(path, sizeof(path), "%s/t.log", tap_tmpdir());
	is_int(ctplog_write(&w, path, &dl), 0, "write");
	is_int(ctplog_read(&r, path, &dl), 0, "read back");
	is_int(dl.n, 0, "no diagnostics");
	is_int(r.npairs, w.npairs, "same number of pairs");
	same = r.npairs == w.npairs;
	for (i = 0; same && i < r.npairs; i++)
		same = strcmp(r.pairs[i].key, w.pairs[i].key) == 0 &&
		    strcmp(r.pairs[i].value, w.pairs[i].value) == 0;
	ok(same, "pairs round-trip in order");
	ok(r.bodylen == w.bodylen &&
	    memcmp(r.body, w.body, w.bodylen) == 0,
	    "body round-trips (leading blank, NUL, no final newline)");
	ctplog_free(&r);

	/* An exit_code pair, when present, takes part in the verdict. */
	ctplog_set_body(&w, "t.c:1: TPASS: ok\n", 17);
	is_str(test_status_name(ctplog_status(&w, NULL, NULL, 0)), "pass",
	    "passes and no exit code: pass");
	ok(ctplog_add(&w, "exit_code", "1") == 0, "add exit_code");
	is_str(test_status_name(ctplog_status(&w, NULL, NULL, 0)), "fail",
	    "exit_code 1 makes it a failure");

	/* The writer refuses what it could not read back. */
	free(w.pairs[0].value);
	w.pairs[0].value = strdup("multi\nline");
	ok(ctplog_write(&w, path, &dl) == -1 && dl.nerrors == 1,
	    "write refuses a value with a newline");
	ctplog_free(&w);
	diag_free(&dl);
}

static void
check_errors(void)
{
	static const char notlog[] = "tst_test.c:1: TPASS: x\n";
	static const char unclosed[] = CTPLOG_START "\ndate: x\n";
	static const char badline[] = CTPLOG_START "\r\ndate: x\r\n"
	    "garbage line\r\n-----------\r\n\r\nbody\r\n";
	struct ctplog log;
	struct diaglist dl;
	char buf[256];

	ctplog_init(&log);
	diag_init(&dl);
	is_int(ctplog_parse(&log, notlog, sizeof(notlog) - 1, "n.log", &dl),
	    -1, "not a log");
	diag_format(&dl.v[0], buf, sizeof(buf));
	has_str(buf, "n.log:1: error: not a compat_linux_test_project log",
	    "says where");
	diag_free(&dl);
	ctplog_free(&log);

	is_int(ctplog_parse(&log, unclosed, sizeof(unclosed) - 1, "u.log",
	    &dl), -1, "unclosed header");
	diag_format(&dl.v[0], buf, sizeof(buf));
	is_str(buf, "u.log:2: error: header not closed by a line of dashes",
	    "unclosed header reported at its last line");
	diag_free(&dl);
	ctplog_free(&log);

	is_int(ctplog_parse(&log, badline, sizeof(badline) - 1, "b.log",
	    &dl), 0, "bad header line: parse goes on");
	ok(dl.nerrors == 1, "one error");
	diag_format(&dl.v[0], buf, sizeof(buf));
	is_str(buf, "b.log:3: error: header line is not 'key: value'",
	    "bad line reported with its number");
	is_str(ctplog_get(&log, "date"), "x", "CRLF header read");
	is_str(log.body, "body\r\n", "CRLF body kept as is");
	diag_free(&dl);
	ctplog_free(&log);

	is_int(ctplog_read(&log, "/nonexistent/x.log", &dl), -1,
	    "missing file");
	has_str(dl.n ? dl.v[0].msg : "", "cannot open", "missing file said");
	diag_free(&dl);
	ctplog_free(&log);
}

int
main(void)
{
	size_t i;
	int l;

	for (l = 0; tap_layer(l); l++)
		for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++)
			check_reference(&refs[i]);
	check_roundtrip();
	check_errors();
	return tap_done();
}
