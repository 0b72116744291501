/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the kernel said during each test (kmsg.h): /dev/kmsg records
 * read apart, their warnings counted, gaps taken for lost records; and
 * a whole run whose kernel log is a file the tests write records to
 * ($LTPSCOPE_KMSG, $LTPSCOPE_TAINTED), its lines stored with the test
 * that wrote them and shown by show, its JSON, --output behind the
 * marker (made safe) and the shopping list in each format.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/compat.h"
#include "ltpscope/kmsg.h"
#include "tap.h"
#include "tmux.h"

static void
test_records(void)
{
	struct kmsg_take t;
	static const char log[] =
	    "6,10,1500000,-;usb 1-1: new device\n"
	    " SUBSYSTEM=usb\n"
	    " DEVICE=c189:1\n"
	    "4,11,1600000,-;lowmem warning\n"
	    "6,12,1700000,-;WARNING: CPU: 0 PID: 7 at mm/x.c:3\n"
	    "6,15,1800000,c;after a gap\n";

	kmsg_take_init(&t);
	/* Cut in the middle of a record, as a read of a file may. */
	kmsg_take_add(&t, KMSG_RECORDS, log, 50);
	kmsg_take_add(&t, KMSG_RECORDS, log + 50, sizeof(log) - 1 - 50);
	kmsg_take_end(&t, KMSG_RECORDS);
	is_int(t.nlines, 4, "four records; their KEY=VALUE lines are not");
	is_int(t.nwarn, 2, "prio 4 and WARNING: are warnings, info is not");
	is_int(t.nlost, 2, "records 13 and 14 are missing: two lost");
	is_str(t.text, "[    1.500000] usb 1-1: new device\n"
	    "[    1.600000] lowmem warning\n"
	    "[    1.700000] WARNING: CPU: 0 PID: 7 at mm/x.c:3\n"
	    "[    1.800000] after a gap\n",
	    "lines as dmesg shows them, a record cut in two joined");
	ok(kmsg_take_marked(&t), "a warning marks the test");
	kmsg_take_clear(&t);

	kmsg_take_init(&t);
	kmsg_take_add(&t, KMSG_LINES, "[ 12.5] wd0: fine\n"
	    "panic: kernel diagnostic assertion failed", 59);
	kmsg_take_end(&t, KMSG_LINES);
	is_int(t.nlines, 2, "plain lines (NetBSD's buffer), the last unended");
	is_int(t.nwarn, 1, "a panic is a warning, a plain line is not");
	kmsg_take_clear(&t);

	kmsg_take_init(&t);
	t.taint_before = 0;
	t.taint_after = 0;
	ok(!kmsg_take_marked(&t), "no line, no new taint: no mark");
	t.taint_after = 512;
	ok(kmsg_take_marked(&t), "a new taint flag marks the test");
	t.taint_before = -1;
	ok(!kmsg_take_marked(&t), "an unknown taint marks nothing");
	kmsg_take_clear(&t);
}

static void
test_cap(void)
{
	struct kmsg_take t;
	char line[200];
	unsigned i, n = 2 * KMSG_TEXT_CAP / 100;

	kmsg_take_init(&t);
	for (i = 0; i < n; i++) {
		snprintf(line, sizeof(line), "6,%u,0,-;%090u\n", i + 1, i);
		kmsg_take_add(&t, KMSG_RECORDS, line, strlen(line));
	}
	is_int(t.nlines, n, "every line counted past the cap");
	ok(t.capped && t.len <= KMSG_TEXT_CAP, "the text stops at the cap");
	kmsg_take_clear(&t);
}

/* A fake LTP whose tests write to the kernel log file the run reads. */
static void
mkroot(const char *dir, const char *kmsg, const char *taint)
{
	static const char *const fakes[] = { "pass", "fail", NULL };
	char path[2048];
	FILE *fp;

	tap_fake_ltproot(dir, fakes);
	snprintf(path, sizeof(path), "%s/Version", dir);
	tap_write(path, "20260529-fake\n");
	snprintf(path, sizeof(path), "%s/runtest/syscalls", dir);
	fp = fopen(path, "w");
	fprintf(fp, "open01 pass\n");
	/* A warning with the device's KEY=VALUE, an escape in the text. */
	fprintf(fp, "open02 printf '4,100,5000000,-;WARNING: CPU: 1 PID: 9 "
	    "at fs/open.c:42\\n SUBSYSTEM=x\\n6,101,5000100,-;evil "
	    "\\033[2J\\033]0;title\\007 end\\n' >>%s; fail\n", kmsg);
	fprintf(fp, "close01 echo 4096 >%s; pass\n", taint);
	fprintf(fp, "close02 printf '6,102,6000000,-;eth0: link up\\n' >>%s; "
	    "pass\n", kmsg);
	fprintf(fp, "read01 pass\n");
	fclose(fp);
}

static void
test_run_kmsg(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char root[1200], db[1200], kmsg[1200], taint[1200], cmd[8000];
	char *out;
	const char *line;
	int st;

	snprintf(root, sizeof(root), "%s/ltp2", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/k2.db", tap_tmpdir());
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg2", tap_tmpdir());
	snprintf(taint, sizeof(taint), "%s/tainted2", tap_tmpdir());
	tap_write(kmsg, "3,1,100,-;BUG: from before the run\n");
	tap_write(taint, "0\n");
	mkroot(root, kmsg, taint);

	snprintf(cmd, sizeof(cmd), "LTPSCOPE_KMSG=%s LTPSCOPE_TAINTED=%s "
	    "%s run -d %s -L %s -f syscalls 2>&1", kmsg, taint, tap_bin(), db,
	    root);
	out = tap_run(cmd, &st, 1);
	is_int(st, 1, "the run ends with a failure");
	has_str(tap_line_of(out, " open02 "), "kernel warned",
	    "run: the test that made the kernel warn is marked");
	has_str(tap_line_of(out, " close01 "), "kernel tainted",
	    "run: the test that tainted it is marked");
	ok(strstr(tap_line_of(out, " close02 "), "kernel") == NULL,
	    "run: an info line alone is no mark");
	ok(strstr(tap_line_of(out, " open01 "), "kernel") == NULL,
	    "run: what the log held before the run is not the first test's");
	has_str(out, "(2 after which the kernel warned or was tainted)",
	    "run: the summary counts them");
	free(out);

	tap_cmd(&r, "show last -d %s", db);
	is_int(r.status, 0, "show");
	has_str(tap_line_of(r.out, " open02 "), "kernel warned",
	    "show marks the warned test");
	has_str(tap_line_of(r.out, " close01 "), "kernel tainted",
	    "show marks the tainted test");
	has_str(r.out, "(2 after which the kernel warned or was tainted)",
	    "show counts them");

	tap_cmd(&r, "show last -d %s --output open02", db);
	line = strstr(r.out, KMSG_MARKER);
	ok(line != NULL && tap_pos(r.out, "TFAIL") >= 0 && tap_pos(r.out,
	    "TFAIL") < tap_pos(r.out, KMSG_MARKER),
	    "--output: the kernel's lines after the output");
	has_str(r.out, "--- kernel messages (2 lines, 1 warning) ---\n"
	    "[    5.000000] WARNING: CPU: 1 PID: 9 at fs/open.c:42\n"
	    "[    5.000100] evil ", "--output: the marker and the lines");
	ok(strchr(r.out, '\033') == NULL && strchr(r.out, '\007') == NULL,
	    "--output: the kernel's escapes do not reach the terminal");
	ok(strstr(r.out, "SUBSYSTEM") == NULL, "--output: no KEY=VALUE");
	ok(strstr(r.out, "from before the run") == NULL,
	    "--output: nothing from before the run");

	tap_cmd(&r, "show last -d %s --output close01", db);
	has_str(r.out, "--- kernel messages (0 lines, tainted 0 -> 4096) ---",
	    "--output: the new taint in the marker");
	tap_cmd(&r, "show last -d %s --output read01", db);
	ok(strstr(r.out, KMSG_MARKER) == NULL,
	    "--output: no marker when the kernel said nothing");

	tap_cmd(&r, "show last -d %s --format json", db);
	has_str(r.out, "\"kernel_marked\": 2, \"results\"",
	    "JSON: the run's count");
	has_str(tap_line_of(r.out, "\"open02\""), "\"kernel_lines\": 2, "
	    "\"kernel_warnings\": 1, \"kernel_tainted\": false, "
	    "\"kernel_marked\": true", "JSON: open02's kernel fields");
	has_str(tap_line_of(r.out, "\"close01\""), "\"kernel_tainted\": true",
	    "JSON: close01 tainted");
	tap_cmd(&r, "show last -d %s --format json --with-outputs", db);
	has_str(tap_line_of(r.out, "\"open02\""), "\"kernel\": \"[    "
	    "5.000000] WARNING: CPU: 1", "JSON with outputs: the kernel text");
	tap_cmd(&r, "show last -d %s --format json --output open02", db);
	has_str(r.out, "\"kernel\": \"[    5.000000] WARNING",
	    "JSON --output: the kernel text");

	tap_cmd(&r, "export -d %s --format json", db);
	has_str(r.out, "\"kernel_marked\": 2,", "shopping list JSON: the "
	    "run's count, passes included");
	has_str(r.out, "\"test\": \"open02\"", "open02 is on the list");
	has_str(tap_line_of(r.out, "\"open02\""), "\"kernel_lines\": 2, "
	    "\"kernel_marked\": true", "shopping list JSON: its mark");
	tap_cmd(&r, "export -d %s --format md", db);
	has_str(r.out, "The kernel warned or was tainted after 2 tests",
	    "shopping list Markdown: the count");
	has_str(tap_line_of(r.out, "**open02**"), "(the kernel warned)",
	    "shopping list Markdown: the mark");
	tap_cmd(&r, "export -d %s --format csv", db);
	has_str(r.out, "\"first_failing_line\",\"kernel_lines\","
	    "\"kernel_marked\",\"flaky\"", "CSV: the kernel's columns");
	has_str(tap_line_of(r.out, "\"open02\""), "\",\"2\",\"yes\",\"no\","
	    "\"\"\r", "CSV: open02's lines and mark");
	tap_cmd(&r, "export -d %s --format html", db);
	has_str(r.out, "The kernel warned or was tainted after <span "
	    "id=\"kernel-marked\">2</span> tests of the run.",
	    "HTML: the run's count, passes included");
	has_str(tap_line_of(r.out, ">open02<"), "<td>fail <span "
	    "class=\"kernel\">(the kernel warned)</span></td>",
	    "HTML: open02's mark");
	tap_cmd_free(&r);
}

static void
test_no_log(void)
{
	char cmd[8000], root[1200], db[1200], kmsg[1200];
	const char *p;
	char *out;
	int st;

	snprintf(root, sizeof(root), "%s/ltp3", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/k3.db", tap_tmpdir());
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg3", tap_tmpdir());
	mkroot(root, kmsg, "/dev/null");
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_KMSG=%s/none %s run -d %s -L %s "
	    "-f syscalls 2>&1", tap_tmpdir(), tap_bin(), db, root);
	out = tap_run(cmd, &st, 1);
	is_int(st, 1, "no kernel log: the run runs all the same");
	has_str(out, "ltpscope: note: no kernel messages with the results: ",
	    "it says there are no kernel messages");
	p = strstr(out, "no kernel messages");
	ok(p != NULL && strstr(p + 1, "no kernel messages") == NULL,
	    "... once");
	ok(strstr(tap_line_of(out, " open02 "), "kernel") == NULL,
	    "and marks nothing");
	free(out);
}

/*
 * The explorer's output pane: a test's run shows the kernel's lines
 * behind the marker after its output, and so does its stored output.
 */
static void
test_pane(void)
{
	char root[1200], db[1200], kmsg[1200], taint[1200], cmd[8000];

	if (!tap_have("tmux")) {
		ok(1, "# SKIP no tmux");
		return;
	}
	snprintf(root, sizeof(root), "%s/ltp4", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/k4.db", tap_tmpdir());
	snprintf(kmsg, sizeof(kmsg), "%s/kmsg4", tap_tmpdir());
	snprintf(taint, sizeof(taint), "%s/tainted4", tap_tmpdir());
	tap_write(kmsg, "");
	tap_write(taint, "0\n");
	mkroot(root, kmsg, taint);
	snprintf(cmd, sizeof(cmd), "env LTPSCOPE_KMSG=%s LTPSCOPE_TAINTED=%s "
	    "%s ui -m data/demo/linux-amd64-syscalls.master -L %s "
	    "-f syscalls -d %s", kmsg, taint, tap_bin(), root, db);
	if (!ok(tmux_start(cmd, 120, 40) == 0 && tmux_wait_for("syscalls,",
	    8000), "the explorer starts")) {
		tap_diag("screen:\n%s", tmux_screen());
		tmux_stop();
		return;
	}
	tmux_keys(":");
	tmux_keys("-l 'run open02'");
	tmux_keys("Enter");
	if (!ok(tmux_wait_for("--- kernel messages (2 lines, 1 warning) ---",
	    30000), "pane: the marker after the test's output"))
		tap_diag("screen:\n%s", tmux_screen());
	has_str(tmux_screen(), "WARNING: CPU: 1 PID: 9 at fs/open.c:42",
	    "pane: the kernel's line");
	/* The pane follows the end: the output's last lines show. */
	ok(tap_pos(tmux_screen(), "Summary:") >= 0 && tap_pos(tmux_screen(),
	    "Summary:") < tap_pos(tmux_screen(), KMSG_MARKER),
	    "pane: after the output");
	has_str(tmux_screen(), "evil ^[[2J^[]0;title^G end",
	    "pane: the kernel's escapes made safe");
	tmux_keys("q q q");
	(void)tmux_wait_dead(5000);
	tmux_stop();
}

/*
 * NetBSD's message buffer, copied whole each time: what is new is what
 * follows the last place the end of the copy before appears.
 */
static void
test_msgbuf(void)
{
	static const char before[] = "[ 1.0] boot\n[ 2.0] wd0 at atabus0\n";
	static const char grown[] = "[ 1.0] boot\n[ 2.0] wd0 at atabus0\n"
	    "[ 9.0] panic: not yet\n";
	/* Full, gone round: the oldest bytes overwritten. */
	static const char round[] = "0 at atabus0\n[ 9.0] panic: not yet\n"
	    "[ 9.5] more\n";
	/* The end seen last, logged again since. */
	static const char again[] = "[ 2.0] wd0 at atabus0\n[ 3.0] x\n"
	    "[ 2.0] wd0 at atabus0\n[ 4.0] y\n";
	const char *tail = before + sizeof(before) - 1 - 10;
	int lost = 0;
	size_t at;

	at = compat_msgbuf_new_from(before, sizeof(before) - 1, tail, 10,
	    &lost);
	ok(at == sizeof(before) - 1 && !lost, "msgbuf: nothing new when the "
	    "end is where it was");
	at = compat_msgbuf_new_from(grown, sizeof(grown) - 1, tail, 10,
	    &lost);
	is_str(grown + at, "[ 9.0] panic: not yet\n", "msgbuf: the new "
	    "lines follow the old end");
	ok(!lost, "... none lost");
	at = compat_msgbuf_new_from(round, sizeof(round) - 1, tail, 10,
	    &lost);
	is_str(round + at, "[ 9.0] panic: not yet\n[ 9.5] more\n",
	    "msgbuf: found again after the buffer went round");
	at = compat_msgbuf_new_from(again, sizeof(again) - 1, tail, 10,
	    &lost);
	is_str(again + at, "[ 4.0] y\n", "msgbuf: after the end's last "
	    "place");
	ok(!lost, "... none lost");
	at = compat_msgbuf_new_from("[ 9.9] all new\n", 15, tail, 10,
	    &lost);
	ok(at == 0 && lost, "msgbuf: the old end gone: all of it, a loss "
	    "said");
	lost = 0;
	ok(compat_msgbuf_new_from(before, sizeof(before) - 1, NULL, 0,
	    &lost) == 0 && !lost, "msgbuf: no end seen yet: all of it");
}

int
main(void)
{
	test_records();
	test_msgbuf();
	test_cap();
	test_run_kmsg();
	test_no_log();
	test_pane();
	return tap_done();
}
