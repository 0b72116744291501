/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named boxes and QEMU boxes: box blocks of the config file
 * (settings.c), the command line ltpscope adds to the user's qemu
 * (qemubox.c), a QEMU that exits saying why, one that serves its
 * monitor (tests/fakeqemu): reset there, stopped by "quit", and run
 * --box naming the config file when the box is unknown.
 */
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/diag.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/settings.h"
#include "tap.h"

static const char conf[] =
    "theme light\n"
    "box vm\n"
    "  qemu qemu-system-x86_64 -m 256 -kernel k   -initrd i\n"
    "  host root\n"
    "  box-wait 60\n"
    "  skip-culprit\n"
    "  qemu-snapshot no\n"
    "box real\n"
    "  host root@netbsd:2222\n"
    "  reboot-cmd echo system_reset | socat - UNIX:/tmp/m\n"
    "  reset-on-taint no\n"
    "  colour red\n"
    "box\n"
    "  host lost\n"
    "box vm\n"
    "box bad/name\n";

static void
test_parse(void)
{
	static const char *const want[] = {
		"config:12: error: unknown box setting 'colour' (box 'real', "
		"line 8)",
		"config:13: error: 'box' wants a name",
		"config:15: error: box 'vm' again (line 2)",
		"config:16: error: box name: letters, digits, '.', '_' and "
		"'-', at most 63",
	};
	struct settings s;
	struct diaglist dl;
	const struct settings_box *b;
	char msg[300];
	size_t i;

	settings_init(&s);
	diag_init(&dl);
	is_int(settings_parse(&s, "config", conf, strlen(conf), &dl), 4,
	    "four errors");
	for (i = 0; i < 4 && i < dl.n; i++) {
		diag_format(&dl.v[i], msg, sizeof(msg));
		is_str(msg, want[i], "error %zu names file and line", i);
	}
	is_str(s.theme, "light", "top-level settings still read");
	is_int((long long)s.nboxes, 2, "two boxes");
	b = settings_box(&s, "vm");
	if (ok(b != NULL, "box vm")) {
		is_str(b->qemu, "qemu-system-x86_64 -m 256 -kernel k   "
		    "-initrd i", "qemu: the rest of the line");
		is_str(b->host, "root", "host");
		is_int(b->box_wait, 60, "box-wait");
		is_int(b->skip_culprit, 1, "skip-culprit alone is yes");
		is_int(b->qemu_snapshot, 0, "qemu-snapshot no");
		is_int(b->reset_on_taint, -1, "not given: -1");
	}
	b = settings_box(&s, "real");
	if (ok(b != NULL, "box real")) {
		is_str(b->reboot_cmd, "echo system_reset | socat - "
		    "UNIX:/tmp/m", "reboot-cmd: the rest of the line");
		is_int(b->reset_on_taint, 0, "reset-on-taint no");
		is_int(b->qemu_snapshot, 1, "qemu-snapshot: yes unless told");
	}
	ok(settings_box(&s, "lost") == NULL, "no box without a name");
	diag_free(&dl);
	settings_free(&s);
}

static int
argv_has(char **v, const char *want)
{
	for (; *v != NULL; v++)
		if (strcmp(*v, want) == 0)
			return 1;
	return 0;
}

static void
test_argv(void)
{
	struct qemubox_conf c;
	char **v;

	memset(&c, 0, sizeof(c));
	c.name = "vm";
	c.command = "qemu-system-x86_64";
	c.dir = "/db/boxes/a,b";
	c.snapshot = 1;
	v = qemubox_argv(&c, 2222);
	ok(argv_has(v, "-snapshot"), "-snapshot");
	ok(argv_has(v, "user,id=ltpscope-net,restrict=on,"
	    "hostfwd=tcp:127.0.0.1:2222-:22"), "ssh forwarded from 127.0.0.1");
	ok(argv_has(v, "unix:/db/boxes/a,,b/monitor,server=on,wait=off"),
	    "the monitor on a unix socket, its ',' escaped");
	ok(argv_has(v, "file,id=ltpscope-console,path=/db/boxes/a,,b/"
	    "console,append=on"), "the console appended to a file");
	qemubox_argv_free(v);
	c.snapshot = 0;
	v = qemubox_argv(&c, 2222);
	ok(!argv_has(v, "-snapshot"), "qemu-snapshot no: no -snapshot");
	qemubox_argv_free(v);
}

static char fake[1024];

static void
test_qemu_fails(void)
{
	struct qemubox_conf c;
	struct qemubox *q;
	struct diaglist dl;
	char dir[600], msg[1000];

	snprintf(dir, sizeof(dir), "%s/fail", tap_tmpdir());
	setenv("FAKEQEMU_MODE", "fail", 1);
	memset(&c, 0, sizeof(c));
	c.name = "vm";
	c.command = fake;
	c.dir = dir;
	diag_init(&dl);
	is_int(qemubox_up(&q, &c, &dl), -1, "a QEMU that exits: an error");
	msg[0] = '\0';
	if (dl.n > 0)
		diag_format(&dl.v[0], msg, sizeof(msg));
	has_str(msg, "qemu exited (status 1): qemu-system-x86_64: -m 99T: "
	    "cannot set up guest memory", "it says what QEMU said");
	ok(strchr(msg, '\033') == NULL, "and no escape reaches the terminal");
	qemubox_close(q);
	diag_free(&dl);
}

static void
test_qemu_box(void)
{
	struct qemubox_conf c;
	struct qemubox *q;
	struct diaglist dl;
	const char *what = "";
	char dir[600], log[700], want[100], *text, *argv;
	pid_t pid;
	int i;

	snprintf(dir, sizeof(dir), "%s/box", tap_tmpdir());
	snprintf(log, sizeof(log), "%s/fake.log", tap_tmpdir());
	setenv("FAKEQEMU_MODE", "box", 1);
	memset(&c, 0, sizeof(c));
	c.name = "vm";
	c.command = fake;
	c.dir = dir;
	c.snapshot = 1;
	diag_init(&dl);
	if (!ok(qemubox_up(&q, &c, &dl) == 0, "the QEMU box is up")) {
		diag_print(&dl, stderr, "# ");
		qemubox_close(q);
		diag_free(&dl);
		return;
	}
	ok(!qemubox_was_running(q), "started here");
	ok(qemubox_port(q) > 0, "on a port");
	ok(qemubox_running(dir), "running, as its pid file and monitor say");
	snprintf(log, sizeof(log), "%s/fake.log.argv", tap_tmpdir());
	argv = tap_slurp(log, NULL);
	snprintf(want, sizeof(want), "hostfwd=tcp:127.0.0.1:%d-:22\n",
	    qemubox_port(q));
	has_str(argv, want, "QEMU got the forward to that port");
	has_str(argv, "-m\n99G\n-snapshot\n", "the user's words first, "
	    "ours after");
	free(argv);
	is_int(qemubox_reset(q, &what, &dl), 0, "reset");
	is_str(what, "system_reset on its monitor", "by the monitor");
	snprintf(log, sizeof(log), "%s/box/qemu.pid", tap_tmpdir());
	text = tap_slurp(log, NULL);
	pid = text != NULL ? (pid_t)atoi(text) : 0;
	free(text);
	qemubox_close(q);
	snprintf(log, sizeof(log), "%s/fake.log", tap_tmpdir());
	text = tap_slurp(log, NULL);
	has_str(text, "system_reset\n", "system_reset reached the monitor");
	has_str(text, "quit\n", "the end: quit on the monitor");
	free(text);
	for (i = 0; i < 50 && pid > 0 && kill(pid, 0) == 0; i++)
		(void)poll(NULL, 0, 100);
	ok(pid > 0 && kill(pid, 0) == -1, "nothing left running");
	ok(!qemubox_running(dir), "not running any more");
	diag_free(&dl);
}

static void
test_cli(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char cfg[700];

	snprintf(cfg, sizeof(cfg), "%s/xdg", tap_tmpdir());
	setenv("XDG_CONFIG_HOME", cfg, 1);
	snprintf(cfg, sizeof(cfg), "mkdir -p %s/xdg/ltpscope", tap_tmpdir());
	if (system(cfg) != 0)
		return;
	snprintf(cfg, sizeof(cfg), "%s/xdg/ltpscope/config", tap_tmpdir());
	tap_write(cfg, "box one\n  host root@a\nbox two\n  frobnicate 1\n");
	tap_cmd(&r, "run -d '%s/db' --box three", tap_tmpdir());
	ok(r.status != 0, "run --box with a bad config fails");
	has_str(r.err, "config:4: error: unknown box setting 'frobnicate'",
	    "a bad line: file and line");
	tap_write(cfg, "box one\n  host root@a\nbox two\n  host b\n");
	tap_cmd(&r, "run -d '%s/db' --box three", tap_tmpdir());
	has_str(r.err, "config: no box 'three' (boxes: one, two)",
	    "an unknown box: the file and its boxes");
	snprintf(cfg, sizeof(cfg), "%s/xdg/ltpscope/config", tap_tmpdir());
	{
		char text[1400];

		snprintf(text, sizeof(text), "box vm\n  qemu %s\n", fake);
		tap_write(cfg, text);
	}
	setenv("FAKEQEMU_MODE", "fail", 1);
	tap_cmd(&r, "run -d '%s/db' --box vm", tap_tmpdir());
	ok(r.status != 0, "run --box on a QEMU that fails: fails");
	has_str(r.err, "qemu exited (status 1): qemu-system-x86_64: -m 99T: "
	    "cannot set up guest memory", "and says what QEMU said");
	tap_cmd_free(&r);
}

int
main(void)
{
	char cwd[512];

	test_parse();
	test_argv();
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(fake, sizeof(fake), "%s/tests/fakeqemu -m 99G", cwd);
	snprintf(cwd, sizeof(cwd), "%s/fake.log", tap_tmpdir());
	setenv("FAKEQEMU_LOG", cwd, 1);
	test_qemu_fails();
	if (!tap_have("socat"))
		tap_diag("SKIP a QEMU box that runs: no socat");
	else
		test_qemu_box();
	test_cli();
	return tap_done();
}
