/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Imports and exports: the shell tool's reference logs (made-up ones
 * in tests/fixtures/madeup, then the real ones in ../shared) become
 * one run with the statuses worked out by reading each log (the
 * missing KCONFIG_PATH left a TWARN in every new-library test, and a
 * warning outranks passes and TCONF in ltpout_status), bad files are
 * reported and skipped, an export gives the original files back byte
 * for byte, and kirk's results.json imports.  kirk's file is our own
 * fixture (tests/fixtures/kirk/results.json), written from kirk's
 * JSON exporter's layout since no real one was at hand.  The CLI is
 * driven through $LTPSCOPE_BIN with -d in a temporary directory.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <signal.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/ctplog.h"
#include "ltpscope/import.h"
#include "ltpscope/store.h"
#include "ltpscope/xmalloc.h"
#include "fixture_store.h"
#include "tap.h"

#define REFDIR	"ctp/reference_logs_sample/NetBSD11-reference"

static const struct {
	const char	*syscall;
	const char	*tag;
	enum test_status st;
	unsigned	 pass, fail, conf, warn;
} refs[] = {
	{ "abort", "abort01", TS_WARN, 2, 0, 0, 1 },
	/* TCONF and a TWARN: the warning wins. */
	{ "capget", "capget01", TS_WARN, 0, 0, 1, 1 },
	{ "close", "close01", TS_WARN, 3, 0, 0, 1 },
	{ "close", "close02", TS_WARN, 2, 0, 0, 1 },
	{ "open", "open01", TS_FAIL, 1, 1, 0, 1 },
	{ "readv", "readv01", TS_FAIL, 8, 1, 0, 1 },
	{ "readv", "readv02", TS_WARN, 5, 0, 0, 1 },
	{ "writev", "writev01", TS_FAIL, 5, 1, 0, 1 },
	/* Old library: no Summary, no TWARN; counts from its lines. */
	{ "writev", "writev02", TS_PASS, 1, 0, 0, 0 },
};
#define NREFS	(sizeof(refs) / sizeof(refs[0]))

static struct store *
open_db(const char *name)
{
	char path[1024];
	struct diaglist dl;
	struct store *st;

	snprintf(path, sizeof(path), "%s/%s", tap_tmpdir(), name);
	diag_init(&dl);
	if (store_open(&st, path, STORE_CREATE, &dl) != STORE_OK) {
		diag_print(&dl, stdout, "# ");
		st = NULL;
	}
	diag_free(&dl);
	return st;
}

static void
write_file(const char *path, const char *data, size_t len)
{
	FILE *fp = fopen(path, "wb");

	if (fp == NULL) {
		tap_diag("cannot write %s", path);
		return;
	}
	fwrite(data, 1, len, fp);
	fclose(fp);
}

static void
write_str(const char *path, const char *s)
{
	write_file(path, s, strlen(s));
}

static int
diag_has(const struct diaglist *dl, const char *file_part,
    unsigned long line, const char *msg)
{
	size_t i;

	for (i = 0; i < dl->n; i++)
		if (dl->v[i].file != NULL &&
		    strstr(dl->v[i].file, file_part) != NULL &&
		    dl->v[i].line == line && strstr(dl->v[i].msg, msg) != NULL)
			return 1;
	return 0;
}

static void
check_dates(void)
{
	char buf[64];
	char *s;

	is_int(import_parse_date("Wed, 26 Aug 2026 03:23:42 +0000"),
	    1787714622, "the logs' date form parses");
	is_int(import_parse_date("26 Aug 2026 05:23:42 +0200"), 1787714622,
	    "no weekday, an offset");
	is_int(import_parse_date("Wed, 26 Aug 2026 03:23:42 UTC"),
	    1787714622, "UTC zone name");
	is_int(import_parse_date("Wed, 26 Foo 2026 03:23:42 +0000"), -1,
	    "bad month refused");
	is_int(import_parse_date("yesterday"), -1, "junk refused");
	import_format_date(1787714622, buf, sizeof(buf));
	is_str(buf, "Wed, 26 Aug 2026 03:23:42 +0000", "formats back");
	import_format_date(0, buf, sizeof(buf));
	is_str(buf, "Thu, 01 Jan 1970 00:00:00 +0000", "the epoch");

	s = import_tag_syscall("abort01");
	is_str(s, "abort", "abort01 -> abort");
	free(s);
	s = import_tag_syscall("accept4_01");
	is_str(s, "accept4", "accept4_01 -> accept4");
	free(s);
	s = import_tag_syscall("fcntl36_64");
	is_str(s, "fcntl36", "fcntl36_64 -> fcntl36 (a guess, documented)");
	free(s);
	s = import_tag_syscall("42");
	is_str(s, "42", "all digits: kept");
	free(s);
	s = import_config_get("a=1\nctp.keys=x y\nb=", "ctp.keys");
	is_str(s, "x y", "config value");
	free(s);
	s = import_config_get("a=1\nb=", "b");
	is_str(s, "", "empty config value at the end");
	free(s);
	ok(import_config_get("a=1\n", "c") == NULL, "missing config key");
}

/* Imports the reference logs and checks every result against refs. */
static int64_t
check_reference_import(struct store *st)
{
	struct import_stats stats;
	struct store_result *v = NULL;
	struct store_output out;
	struct store_run run;
	struct diaglist dl;
	struct ctplog log;
	char path[1024];
	size_t n = 0, i;

	diag_init(&dl);
	is_int(import_ctp_dir(st, tap_shared_path(REFDIR), NULL, &stats, &dl),
	    0, "reference logs import");
	is_int(dl.n, 0, "... without a word");
	diag_print(&dl, stdout, "# ");
	is_int(stats.ntests, NREFS, "nine results");
	is_int(stats.nbad, 0, "nothing skipped");
	is_int(stats.counts[TS_WARN], 5, "five warn");
	is_int(stats.counts[TS_FAIL], 3, "three fail");
	is_int(stats.counts[TS_PASS], 1, "one pass");

	memset(&run, 0, sizeof(run));
	is_int(store_get_run(st, stats.run_id, &run, &dl), STORE_OK,
	    "the run is in the store");
	is_str(run.label, "NetBSD11-reference", "label: the directory");
	is_str(run.os_name, "NetBSD", "os");
	is_str(run.os_version, "11.0", "os version from netbsd_version");
	is_str(run.arch, "amd64", "arch");
	is_str(run.ltp_version, "20260529", "ltp version");
	has_str(run.uname, "NetBSD 11.0 (GENERIC) #0", "uname from the build");
	is_int(run.started, 1787714622, "started: the earliest log date");
	is_str(store_run_state_name(run.state), "finished", "finished");
	is_int(run.nqueued, NREFS, "the queue is the imported tests");
	has_str(run.config, "source=ctp-logs\n", "config says where from");
	has_str(run.config, "ctp@open/open01:date=Thu, 27 Aug 2026 00:11:30",
	    "config keeps each log's date");
	store_run_clear(&run);

	is_int(store_run_results(st, stats.run_id, &v, &n, &dl), STORE_OK,
	    "results read back");
	is_int(n, NREFS, "nine of them");
	for (i = 0; i < n && i < NREFS; i++) {
		is_str(v[i].tag, refs[i].tag, "result %zu: tag", i);
		is_str(v[i].syscall, refs[i].syscall, "%s: syscall from its "
		    "directory", refs[i].tag);
		is_str(test_status_name(v[i].status),
		    test_status_name(refs[i].st), "%s: status", refs[i].tag);
		ok(v[i].npass == refs[i].pass && v[i].nfail == refs[i].fail &&
		    v[i].nconf == refs[i].conf && v[i].nwarn == refs[i].warn &&
		    v[i].nbroken == 0, "%s: counts", refs[i].tag);
		is_int(v[i].exit_code, -1, "%s: no exit status known",
		    refs[i].tag);
		/* The output is the log's body, to the byte. */
		snprintf(path, sizeof(path), "%s/%s/%s.log",
		    tap_shared_path(REFDIR), refs[i].syscall, refs[i].tag);
		ctplog_init(&log);
		memset(&out, 0, sizeof(out));
		if (ctplog_read(&log, path, &dl) == 0 &&
		    store_get_output(st, v[i].id, &out, &dl) == STORE_OK)
			ok(out.stored_size == log.bodylen &&
			    memcmp(out.data, log.body, log.bodylen) == 0,
			    "%s: output stored exactly", refs[i].tag);
		else
			ok(0, "%s: output readable", refs[i].tag);
		store_output_clear(&out);
		ctplog_free(&log);
	}
	store_results_free(v, n);
	diag_free(&dl);
	return stats.run_id;
}

/* The parent directory holds the tree one level down: same run. */
static void
check_parent_dir(struct store *st)
{
	struct import_stats stats;
	struct import_opts opts;
	struct store_run run;
	struct diaglist dl;

	diag_init(&dl);
	memset(&opts, 0, sizeof(opts));
	opts.label = "reference again";
	is_int(import_ctp_dir(st, tap_shared_path("ctp/reference_logs_sample/"),
	    &opts, &stats, &dl), 0, "a directory holding the tree imports");
	is_int(stats.ntests, NREFS, "... the same nine tests");
	memset(&run, 0, sizeof(run));
	store_get_run(st, stats.run_id, &run, &dl);
	is_str(run.label, "reference again", "--label wins");
	store_run_clear(&run);
	diag_free(&dl);
}

static int
files_same(const char *a, const char *b)
{
	size_t la, lb;
	char *x = tap_slurp(a, &la), *y = tap_slurp(b, &lb);
	int same = x != NULL && y != NULL && la == lb &&
	    memcmp(x, y, la) == 0;

	free(x);
	free(y);
	return same;
}

static void
check_roundtrip(struct store *st, int64_t run_id)
{
	static int nth;
	struct export_stats es;
	struct export_opts eo;
	struct diaglist dl;
	char dir[1024], a[1200], b[1200];
	size_t i;

	/* One directory per layer: a second export would not overwrite. */
	snprintf(dir, sizeof(dir), "%s/export%d", tap_tmpdir(), nth++);
	memset(&eo, 0, sizeof(eo));
	diag_init(&dl);
	is_int(export_ctp_logs(st, run_id, dir, &eo, &es, &dl), 0, "export");
	is_int(es.nwritten, NREFS, "nine logs written");
	for (i = 0; i < NREFS; i++) {
		snprintf(a, sizeof(a), "%s/%s/%s.log", dir, refs[i].syscall,
		    refs[i].tag);
		snprintf(b, sizeof(b), "%s/%s/%s.log",
		    tap_shared_path(REFDIR), refs[i].syscall, refs[i].tag);
		ok(files_same(a, b), "%s: exported byte for byte as the "
		    "original", refs[i].tag);
	}
	diag_free(&dl);

	/* Nothing is overwritten without force, and nothing half-done. */
	diag_init(&dl);
	snprintf(a, sizeof(a), "%s/abort/abort01.log", dir);
	write_file(a, "mine\n", 5);
	is_int(export_ctp_logs(st, run_id, dir, &eo, &es, &dl), -1,
	    "a second export refuses");
	ok(dl.nerrors > 0 && strstr(dl.v[0].msg, "--force") != NULL,
	    "... naming --force");
	is_int(es.nwritten, 0, "... and writes nothing");
	ok(!files_same(a, tap_shared_path(REFDIR "/abort/abort01.log")),
	    "... leaving the file there alone");
	diag_free(&dl);
	diag_init(&dl);
	eo.force = 1;
	is_int(export_ctp_logs(st, run_id, dir, &eo, &es, &dl), 0,
	    "--force overwrites");
	ok(files_same(a, tap_shared_path(REFDIR "/abort/abort01.log")),
	    "... with the original bytes");
	diag_free(&dl);
}

static char *
log_text(const char *date, const char *version, const char *syscall,
    const char *extra, const char *body)
{
	char *s;

	if (xasprintf(&s, "---- compat_linux_test_project log header ----\n"
	    "date: %s\nnetbsd_version: %s\narch: amd64\n"
	    "syscall_tested: %s\n%s"
	    "--------------------------------------------------\n\n%s",
	    date, version, syscall, extra, body) < 0)
		abort();
	return s;
}

/* Bad files are skipped with file:line; odd headers round-trip. */
static void
check_bad_and_odd(struct store *st)
{
	static const char bin_data[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0";
	static const char nul_hdr[] =
	    "---- compat_linux_test_project log header ----\n"
	    "date: x\nar\0ch: amd64\n"
	    "--------------------------------------------------\n\nbody\n";
	struct import_stats stats;
	struct export_stats es;
	struct export_opts eo;
	struct store_result *v = NULL;
	struct diaglist dl;
	char root[1024], p[1200], q[1200];
	char *t;
	size_t n = 0;

	snprintf(root, sizeof(root), "%s/odd", tap_tmpdir());
	mkdir(root, 0755);
	snprintf(p, sizeof(p), "%s/fork", root);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/pipe", root);
	mkdir(p, 0755);

	t = log_text("Tue, 01 Dec 2026 10:00:00 +0000", "11.0", "fork", "",
	    "fork01.c:1: TPASS: ok\n");
	snprintf(p, sizeof(p), "%s/fork/fork01.log", root);
	write_file(p, t, strlen(t));
	free(t);
	/* Another version, its own key, syscall_tested not the dir. */
	t = log_text("Tue, 01 Dec 2026 10:00:05 +0000", "11.99", "pipe2",
	    "exit_code: 1\n", "pipe01.c:9: TFAIL: broken pipe\n");
	snprintf(p, sizeof(p), "%s/pipe/pipe01.log", root);
	write_file(p, t, strlen(t));
	free(t);
	snprintf(p, sizeof(p), "%s/pipe/notalog.log", root);
	write_str(p, "hello\n");
	snprintf(p, sizeof(p), "%s/pipe/binary.log", root);
	write_file(p, bin_data, sizeof(bin_data) - 1);
	snprintf(p, sizeof(p), "%s/pipe/nulhdr.log", root);
	write_file(p, nul_hdr, sizeof(nul_hdr) - 1);
	snprintf(p, sizeof(p), "%s/pipe/unclosed.log", root);
	write_str(p, "---- compat_linux_test_project log header ----\n"
	    "date: x\n");
	snprintf(p, sizeof(p), "%s/pipe/README", root);
	write_str(p, "not a log, not looked at\n");
	snprintf(p, sizeof(p), "%s/summary.log", root);
	write_str(p, "top level\n");

	diag_init(&dl);
	is_int(import_ctp_dir(st, root, NULL, &stats, &dl), 0,
	    "a tree with bad files still imports");
	is_int(stats.ntests, 2, "the two good logs");
	is_int(stats.nbad, 5, "five files skipped");
	is_int(dl.nerrors, 0, "skipped files are warnings, not errors");
	ok(diag_has(&dl, "pipe/notalog.log", 1, "not a compat_linux_test"),
	    "no header: file:1");
	ok(diag_has(&dl, "pipe/binary.log", 1, "not a compat_linux_test"),
	    "binary file: file:1");
	ok(diag_has(&dl, "pipe/nulhdr.log", 3, "binary data in the header"),
	    "NUL in the header: file:3");
	ok(diag_has(&dl, "pipe/unclosed.log", 2, "not closed"),
	    "unclosed header: file:2");
	ok(diag_has(&dl, "odd/summary.log", 0, "not in a <syscall>/"),
	    "a log outside a syscall directory");
	if (dl.n != 5)
		diag_print(&dl, stdout, "# ");
	diag_free(&dl);

	diag_init(&dl);
	store_run_results(st, stats.run_id, &v, &n, &dl);
	if (is_int(n, 2, "two results")) {
		is_str(v[0].tag, "fork01", "sorted: fork01 first");
		is_str(test_status_name(v[1].status), "fail", "pipe01 fails");
		is_int(v[1].exit_code, 1, "exit_code header kept as status");
	}
	store_results_free(v, n);

	snprintf(q, sizeof(q), "%s/odd-export", tap_tmpdir());
	memset(&eo, 0, sizeof(eo));
	is_int(export_ctp_logs(st, stats.run_id, q, &eo, &es, &dl), 0,
	    "export of the odd tree");
	snprintf(p, sizeof(p), "%s/fork/fork01.log", root);
	snprintf(q, sizeof(q), "%s/odd-export/fork/fork01.log", tap_tmpdir());
	ok(files_same(p, q), "fork01 round-trips");
	snprintf(p, sizeof(p), "%s/pipe/pipe01.log", root);
	snprintf(q, sizeof(q), "%s/odd-export/pipe/pipe01.log", tap_tmpdir());
	ok(files_same(p, q), "pipe01 round-trips: own version, own key, "
	    "syscall_tested not its directory");
	diag_free(&dl);

	diag_init(&dl);
	snprintf(p, sizeof(p), "%s/empty", tap_tmpdir());
	mkdir(p, 0755);
	is_int(import_ctp_dir(st, p, NULL, &stats, &dl), -1,
	    "an empty directory is an error");
	is_int(stats.run_id, 0, "... and makes no run");
	has_str(dl.n > 0 ? dl.v[dl.n - 1].msg : "", "no compat_linux",
	    "... saying so");
	diag_free(&dl);
}

/* An unreadable log is skipped (root reads anything: no test then). */
static void
check_unreadable(struct store *st)
{
	struct import_stats stats;
	struct diaglist dl;
	char p[1200];
	char *t;

	if (geteuid() == 0) {
		tap_diag("running as root: a mode 000 file is readable, "
		    "unreadable log not tested");
		return;
	}
	snprintf(p, sizeof(p), "%s/locked", tap_tmpdir());
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/locked/brk", tap_tmpdir());
	mkdir(p, 0755);
	t = log_text("Tue, 01 Dec 2026 10:00:00 +0000", "11.0", "brk", "",
	    "brk01.c:1: TPASS: ok\n");
	snprintf(p, sizeof(p), "%s/locked/brk/brk01.log", tap_tmpdir());
	write_str(p, t);
	snprintf(p, sizeof(p), "%s/locked/brk/brk02.log", tap_tmpdir());
	write_str(p, t);
	chmod(p, 0);
	free(t);
	diag_init(&dl);
	snprintf(p, sizeof(p), "%s/locked", tap_tmpdir());
	is_int(import_ctp_dir(st, p, NULL, &stats, &dl), 0,
	    "a tree with an unreadable log imports");
	ok(stats.ntests == 1 && stats.nbad == 1, "one in, one skipped");
	ok(diag_has(&dl, "brk/brk02.log", 0, "cannot open"),
	    "the unreadable file is named");
	diag_free(&dl);
}

/* A run of ltpscope's own gets a header made from run and result. */
static void
check_export_native(struct store *st)
{
	static const char out[] = "t.c:1: TPASS: fine\n";
	struct store_queue_item q[2];
	struct store_result r;
	struct store_run run;
	struct export_stats es;
	struct export_opts eo;
	struct diaglist dl;
	struct ctplog log;
	char dir[1024], p[1200];
	int64_t rid;

	fixture_run_init(&run);
	run.host = (char *)"vm";
	run.uname = (char *)"NetBSD 11.0 (GENERIC) #0";
	run.label = (char *)"native";
	run.config = (char *)"ltproot=/opt/ltp\nreproducible=1\n";
	memset(q, 0, sizeof(q));
	q[0].tag = (char *)"chdir01";
	q[0].syscall = (char *)"chdir";
	q[1].tag = (char *)"skipped01";
	q[1].syscall = (char *)"";
	diag_init(&dl);
	store_run_begin(st, &run, q, 2, &dl);
	store_test_start(st, run.id, "chdir01", "chdir", 0, &rid, &dl);
	memset(&r, 0, sizeof(r));
	r.tag = (char *)"chdir01";
	r.status = TS_PASS;
	r.npass = 1;
	r.ended = 1796281200;
	store_test_finish(st, rid, &r, out, sizeof(out) - 1, &dl);
	store_test_start(st, run.id, "skipped01", "", 1, &rid, &dl);
	r.tag = (char *)"skipped01";
	r.status = TS_NOTRUN;
	store_test_finish(st, rid, &r, "", 0, &dl);
	store_run_end(st, run.id, RUN_FINISHED, &dl);

	snprintf(dir, sizeof(dir), "%s/native", tap_tmpdir());
	memset(&eo, 0, sizeof(eo));
	is_int(export_ctp_logs(st, run.id, dir, &eo, &es, &dl), 0,
	    "a run of our own exports");
	is_int(es.nwritten, 1, "one log");
	is_int(es.nskipped, 1, "the test not run is left out");
	snprintf(p, sizeof(p), "%s/chdir/chdir01.log", dir);
	ctplog_init(&log);
	if (ok(ctplog_read(&log, p, &dl) == 0, "the shell tool's reader "
	    "reads it")) {
		is_str(ctplog_get(&log, "date"),
		    "Thu, 03 Dec 2026 07:00:00 +0000", "date: the test's end");
		is_str(ctplog_get(&log, "netbsd_version"), "11.0", "version");
		is_str(ctplog_get(&log, "netbsd_build"),
		    "NetBSD 11.0 (GENERIC) #0", "build");
		is_str(ctplog_get(&log, "syscall_tested"), "chdir", "syscall");
		is_str(ctplog_get(&log, "reproducible"), "1",
		    "reproducible from the run's config");
		is_str(ctplog_get(&log, "exit_code"), "0", "exit_code known");
		has_str(ctplog_get(&log, "script_invocation"), "ltpscope",
		    "script_invocation names us");
		ok(log.bodylen == sizeof(out) - 1 &&
		    memcmp(log.body, out, log.bodylen) == 0,
		    "body: the output");
		is_str(test_status_name(ctplog_status(&log, NULL, NULL, 0)),
		    "pass", "and reads back as a pass");
	}
	ctplog_free(&log);
	diag_free(&dl);
}

static void
check_kirk(struct store *st)
{
	static const struct {
		const char	*tag, *syscall, *status;
		unsigned	 pass, fail, brok, conf, warn;
		int		 exit_code;
		int64_t		 ms;
	} want[] = {
		{ "abort01", "abort", "pass", 2, 0, 0, 0, 0, 0, 41 },
		{ "accept4_01", "accept4", "fail", 1, 1, 0, 0, 0, 1, 34 },
		{ "capget01", "capget", "conf", 0, 0, 0, 1, 0, 32, 5 },
		{ "fcntl36_64", "fcntl36", "broken", 0, 0, 1, 0, 0, 2, 13 },
		{ "writev02", "writev", "pass", 1, 0, 0, 0, 0, 0, 2 },
		{ "clock_nanosleep01", "clock_nanosleep", "warn", 1, 0, 0, 0,
		    1, 4, 1250 },
	};
	struct import_stats stats;
	struct store_result *v = NULL;
	struct store_output out;
	struct store_run run;
	struct diaglist dl;
	char p[1024];
	size_t n = 0, i;

	diag_init(&dl);
	is_int(import_kirk(st, "tests/fixtures/kirk/results.json", NULL,
	    &stats, &dl), 0, "kirk's results.json imports");
	is_int(dl.n, 0, "... and our verdicts agree with kirk's");
	diag_print(&dl, stdout, "# ");
	is_int(stats.ntests, 6, "six results");
	memset(&run, 0, sizeof(run));
	store_get_run(st, stats.run_id, &run, &dl);
	is_str(run.label, "kirk debian 12", "label from the distribution");
	is_str(run.host, "ltp-vm1", "host");
	is_str(run.os_name, "Linux", "os");
	is_str(run.os_version, "6.1.0-18-amd64", "kernel");
	is_str(run.arch, "x86_64", "arch");
	has_str(run.config, "kirk.RAM=8106892 kB\n", "environment in config");
	store_run_clear(&run);
	store_run_results(st, stats.run_id, &v, &n, &dl);
	is_int(n, 6, "six read back");
	for (i = 0; i < n && i < 6; i++) {
		is_str(v[i].tag, want[i].tag, "kirk %zu: tag", i);
		is_str(v[i].syscall, want[i].syscall, "%s: syscall guessed",
		    want[i].tag);
		is_str(test_status_name(v[i].status), want[i].status,
		    "%s: status", want[i].tag);
		ok(v[i].npass == want[i].pass && v[i].nfail == want[i].fail &&
		    v[i].nbroken == want[i].brok &&
		    v[i].nconf == want[i].conf && v[i].nwarn == want[i].warn,
		    "%s: counts", want[i].tag);
		is_int(v[i].exit_code, want[i].exit_code, "%s: exit code",
		    want[i].tag);
		is_int(v[i].duration_ms, want[i].ms, "%s: duration",
		    want[i].tag);
	}
	memset(&out, 0, sizeof(out));
	if (n >= 5 && store_get_output(st, v[4].id, &out, &dl) == STORE_OK)
		has_str(out.data, "expected \xe2\x80\x94 \xc3\xa9t\xc3\xa9 "
		    "\xf0\x9f\x98\x80\n", "escapes and surrogates decoded");
	else
		ok(0, "writev02 output");
	store_output_clear(&out);
	store_results_free(v, n);
	diag_free(&dl);

	/* A broken entry is skipped; a different verdict is a note. */
	snprintf(p, sizeof(p), "%s/kirk-odd.json", tap_tmpdir());
	write_str(p, "{\"results\": [\n  {\"status\": \"pass\"},\n"
	    "  {\"test_fqn\": \"kill11\", \"status\": \"pass\", \"test\": "
	    "{\"log\": \"k.c:1: TFAIL: no\\n\", \"retval\": [\"1\"]}}\n]}\n");
	diag_init(&dl);
	is_int(import_kirk(st, p, NULL, &stats, &dl), 0, "odd kirk file");
	is_int(stats.ntests, 1, "one usable entry");
	is_int(stats.nbad, 1, "one skipped");
	ok(diag_has(&dl, "kirk-odd.json", 2, "no usable test_fqn"),
	    "the bad entry named by line");
	ok(diag_has(&dl, "kirk-odd.json", 3, "kirk said pass, ltpscope "
	    "judges fail"), "a differing verdict is noted");
	diag_free(&dl);

	snprintf(p, sizeof(p), "%s/notkirk.json", tap_tmpdir());
	write_str(p, "{\"results\": {}}");
	diag_init(&dl);
	is_int(import_kirk(st, p, NULL, &stats, &dl), -1,
	    "no results array: refused");
	diag_free(&dl);
	write_str(p, "{\"results\": [}");
	diag_init(&dl);
	is_int(import_kirk(st, p, NULL, &stats, &dl), -1, "bad JSON: refused");
	ok(dl.n == 1 && dl.v[0].line == 1 && dl.v[0].col == 14,
	    "... at line 1, column 14");
	diag_free(&dl);
}

/* Dies the hard way after the fifth stored test. */
static void
die_after_five(void *arg, size_t done, size_t total)
{
	if (done == 5)
		(void)raise(SIGKILL);
}

/*
 * kill -9 halfway through an import (from the progress callback, so
 * at a known point): the store's protocol leaves an interrupted run
 * holding whole results, never a half-written one.
 */
static void
check_crash(void)
{
	enum { NLOGS = 20 };
	char root[1024], p[1200], db[1200];
	struct store_interrupted *iv = NULL;
	struct store_result *v = NULL;
	struct import_stats stats;
	struct import_opts opts;
	struct store_run run;
	struct diaglist dl;
	struct store *st;
	size_t ni = 0, n = 0, i;
	int status, whole;
	pid_t pid;
	char *t;

	snprintf(root, sizeof(root), "%s/big", tap_tmpdir());
	mkdir(root, 0755);
	snprintf(p, sizeof(p), "%s/big/nanosleep", tap_tmpdir());
	mkdir(p, 0755);
	t = log_text("Tue, 01 Dec 2026 10:00:00 +0000", "11.0", "nanosleep",
	    "", "n.c:1: TPASS: ok\n");
	for (i = 0; i < NLOGS; i++) {
		snprintf(p, sizeof(p), "%s/nanosleep/nanosleep%02zu.log", root,
		    i);
		write_str(p, t);
	}
	free(t);
	snprintf(db, sizeof(db), "%s/crash.db", tap_tmpdir());
	diag_init(&dl);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		memset(&opts, 0, sizeof(opts));
		opts.progress = die_after_five;
		if (store_open(&st, db, STORE_CREATE, &dl) == STORE_OK)
			(void)import_ctp_dir(st, root, &opts, &stats, &dl);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	    "the importer died of SIGKILL");
	if (store_open(&st, db, 0, &dl) != STORE_OK) {
		ok(0, "crash db opens");
		diag_free(&dl);
		return;
	}
	is_int(store_interrupted_runs(st, &iv, &ni, &dl), STORE_OK,
	    "interrupted runs listed");
	is_int(ni, 1, "the import is an interrupted run");
	is_int(ni > 0 ? iv[0].nrunning : 99, 0, "... that died between tests");
	memset(&run, 0, sizeof(run));
	store_get_run(st, ni > 0 ? iv[0].run_id : 0, &run, &dl);
	is_int(run.nqueued, NLOGS, "its queue: every log");
	store_run_clear(&run);
	store_run_results(st, ni > 0 ? iv[0].run_id : 0, &v, &n, &dl);
	is_int(n, 5, "five whole results stored");
	for (i = 0, whole = 1; i < n; i++)
		whole &= v[i].status == TS_PASS && v[i].npass == 1;
	ok(whole, "each a complete pass");
	store_results_free(v, n);
	store_interrupted_free(iv, ni);
	store_close(st);
	diag_free(&dl);
}

static void
check_cli(int layer)
{
	char exported[4096], db[1024], out[1024];
	char *s;
	int status;

	snprintf(db, sizeof(db), "%s/cli%d/sub/cli.db", tap_tmpdir(), layer);
	snprintf(out, sizeof(out), "%s/cli-export%d", tap_tmpdir(), layer);
	s = tap_cli(&status, 1, "import -d %s %s", db, tap_shared_path(REFDIR));
	is_int(status, 0, "ltpscope import: exit 0");
	has_str(s, "run 1: 9 tests imported from ", "... says the run");
	/* tst_kconfig's TWARN is the box's (data/rules envwarn:). */
	has_str(s, "(pass 5, fail 3, conf 1; 5 of them with an env warning)",
	    "... and the counts");
	free(s);
	s = tap_cli(&status, 1, "runs -d %s", db);
	has_str(s, "NetBSD11-reference", "ltpscope runs lists it");
	has_str(s, "finished", "... finished");
	free(s);

	s = tap_cli(&status, 1, "export-logs -d %s last %s", db, out);
	is_int(status, 0, "ltpscope export-logs: exit 0");
	has_str(s, "run 1: 9 logs written to ", "... says so");
	free(s);
	snprintf(exported, sizeof(exported), "%s/readv/readv01.log", out);
	ok(files_same(exported, tap_shared_path(REFDIR "/readv/readv01.log")),
	    "readv01 comes back byte for byte");
	s = tap_cli(&status, 1, "export-logs -d %s 1 %s", db, out);
	is_int(status, 1, "export-logs over existing files: exit 1");
	has_str(s, "abort/abort01.log: error: exists; not overwritten without "
	    "--force", "... naming the file");
	free(s);
	s = tap_cli(&status, 1, "export-logs -d %s --force 1 %s", db, out);
	is_int(status, 0, "--force: exit 0");
	free(s);

	s = tap_cli(&status, 1, "import -d %s --label 'from kirk' "
	    "tests/fixtures/kirk/results.json", db);
	is_int(status, 0, "kirk by its .json name: exit 0");
	has_str(s, "run 2: 6 tests imported from tests/fixtures/kirk/"
	    "results.json (pass 3, fail 1, broken 1, conf 1; 1 of them with "
	    "an env warning)",
	    "... with its counts");
	free(s);
	s = tap_cli(&status, 1, "import -d %s %s/odd", db, tap_tmpdir());
	is_int(status, 0, "a tree with bad files: exit 0");
	has_str(s, "pipe/notalog.log:1: warning: not a compat_linux_test_"
	    "project log", "... each bad file named with its line");
	has_str(s, "run 3: 2 tests imported from ", "... the good ones kept");
	has_str(s, "(pass 1, fail 1); 5 skipped",
	    "... and the skipped counted");
	free(s);
	s = tap_cli(&status, 1, "import -d %s --kirk %s", db,
	    tap_shared_path(REFDIR));
	is_int(status, 1, "--kirk on a directory: exit 1");
	free(s);
	s = tap_cli(&status, 1, "import -d %s %s/nonexistent", db,
	    tap_tmpdir());
	is_int(status, 1, "a missing path: exit 1");
	has_str(s, "nonexistent: No such file", "... saying why");
	free(s);
	s = tap_cli(&status, 1, "import -d %s %s/empty", db, tap_tmpdir());
	is_int(status, 1, "a directory without logs: exit 1");
	has_str(s, "no compat_linux_test_project logs", "... saying why");
	free(s);
	s = tap_cli(&status, 1, "import");
	is_int(status, 2, "import without a path: usage, exit 2");
	has_str(s, "usage: ltpscope import", "... the usage");
	free(s);
	s = tap_cli(&status, 1, "export-logs -d %s one %s", db, out);
	is_int(status, 2, "export-logs with a bad run: exit 2");
	free(s);
	s = tap_cli(&status, 1, "export-logs -d %s 99 %s/x", db, tap_tmpdir());
	is_int(status, 1, "export-logs of a missing run: exit 1");
	free(s);
}

int
main(void)
{
	struct store *st;
	int64_t run_id;
	int l;

	check_dates();
	if ((st = open_db("import.db")) == NULL) {
		ok(0, "store opens");
		return tap_done();
	}
	for (l = 0; tap_layer(l); l++) {
		/* Each layer its own database: the same run numbers. */
		if (l > 0 && (st = open_db("import-real.db")) == NULL) {
			ok(0, "store opens");
			return tap_done();
		}
		run_id = check_reference_import(st);
		check_parent_dir(st);
		check_roundtrip(st, run_id);
		if (l == 0) {
			check_bad_and_odd(st);
			check_unreadable(st);
			check_export_native(st);
			check_kirk(st);
		}
		store_close(st);
	}
	check_crash();
	for (l = 0; tap_layer(l); l++)
		check_cli(l);
	return tap_done();
}
