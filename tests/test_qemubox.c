/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Named boxes and QEMU boxes: box blocks of the config file
 * (settings.c), the command line ltpscope adds to the user's qemu
 * (qemubox.c), a QEMU that exits saying why, one that serves its
 * monitor (tests/fakeqemu): reset there, stopped by "quit", and run
 * --box naming the config file when the box is unknown; the explorer's
 * QEMU box, back by itself after a panic, is not reset.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/diag.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/settings.h"
#include "ltpscope/xmalloc.h"
#include "sshd.h"
#include "tap.h"
#include "tmux.h"

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
	/* A QEMU that exits (the guest powered off, killed): started again. */
	snprintf(log, sizeof(log), "%s/box/qemu.pid", tap_tmpdir());
	text = tap_slurp(log, NULL);
	pid = text != NULL ? (pid_t)atoi(text) : 0;
	free(text);
	if (pid > 0)
		(void)kill(pid, SIGTERM);
	for (i = 0; i < 50 && qemubox_running(dir); i++)
		(void)poll(NULL, 0, 100);
	ok(!qemubox_running(dir), "QEMU exits");
	is_int(qemubox_reset(q, &what, &dl), 0, "a reset then");
	is_str(what, "qemu had exited: started again", "... starts it again");
	ok(qemubox_running(dir), "... and it runs");
	text = tap_slurp(log, NULL);
	ok(text != NULL && (pid_t)atoi(text) != pid, "... a new QEMU");
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

static struct sshd_box box;
static char broot[1200];	/* the box's LTP install */

/* The fake QEMU box's guest: the tests' sshd, a fake LTP there. */
static int
make_guest(void)
{
	static const char *const fakes[] = { "pass", "fail", "hang", NULL };
	char why[256], dir[1200], path[1400], text[8000];

	snprintf(dir, sizeof(dir), "%s/guest", tap_tmpdir());
	if (sshd_start(&box, dir, why, sizeof(why)) != 0) {
		ok(1, "# SKIP no test box: %s", why);
		return -1;
	}
	snprintf(broot, sizeof(broot), "%s/guestltp", tap_tmpdir());
	tap_fake_ltproot(broot, fakes);
	snprintf(path, sizeof(path), "%s/runtest/boxed", broot);
	tap_write(path, "boxed01 pass\nboxed02 fail\n");
	snprintf(path, sizeof(path), "%s/runtest/hangs", broot);
	tap_write(path, "boxed03 hang\n");
	/* The guest's boot id, which the test changes as a boot would. */
	snprintf(path, sizeof(path), "%s/bin/sysctl", box.dir);
	snprintf(text, sizeof(text), "#!/bin/sh\ncase \"$2\" in\n"
	    "kernel.random.boot_id) cat '%s/boot_id';;\n*) exit 1;;\n"
	    "esac\n", box.dir);
	tap_write(path, text);
	(void)chmod(path, 0755);
	snprintf(path, sizeof(path), "%s/boot_id", box.dir);
	tap_write(path, "5ee1b007-0001\n");
	snprintf(text, sizeof(text), "%d", box.port);
	setenv("FAKEQEMU_SSH", text, 1);
	setenv("FAKEQEMU_MODE", "box", 1);
	/* Only the qemu line and the user: no --host, port or console. */
	snprintf(path, sizeof(path), "%s/xdg/ltpscope/config", tap_tmpdir());
	snprintf(text, sizeof(text), "host %s\nbox vm\n  qemu %s\n"
	    "  host %s\n  ssh-config %s\n  ltproot %s\n  box-wait 60\n"
	    "box guest\n  host %s\n  ssh-config %s\n  ltproot %s\n"
	    "box mute\n  qemu %s\n  host %s\n  ssh-config %s\n"
	    "  ltproot %s\n  box-wait 2\n",
	    box.spec, fake, box.user, box.config, broot, box.spec,
	    box.config, broot, fake, box.user, box.config, broot);
	tap_write(path, text);
	return 0;
}

/* Waits for QEMU's pid (its pid file in dir) to be gone; 1 if it is. */
static int
qemu_gone(const char *piddir)
{
	char path[1400], *text;
	pid_t pid;
	int i;

	snprintf(path, sizeof(path), "%s/qemu.pid", piddir);
	if ((text = tap_slurp(path, NULL)) == NULL)
		return 1;
	pid = (pid_t)atoi(text);
	free(text);
	for (i = 0; i < 100 && pid > 0 && kill(pid, 0) == 0; i++)
		(void)poll(NULL, 0, 100);
	return pid > 0 && kill(pid, 0) == -1;
}

/*
 * run --box on a QEMU box, end to end: started, its forwarded port
 * found, the run there, the box named in the run, QEMU stopped.
 */
/* The names in dir, sorted, each followed by a blank. */
static char *
box_dirs(const char *dir)
{
	struct dirent **v;
	char *out = xstrdup(""), *t;
	int i, n;

	if ((n = scandir(dir, &v, NULL, alphasort)) < 0)
		return out;
	for (i = 0; i < n; i++) {
		if (v[i]->d_name[0] != '.') {
			xasprintf(&t, "%s%s ", out, v[i]->d_name);
			free(out);
			out = t;
		}
		free(v[i]);
	}
	free(v);
	return out;
}

static void
test_run_box(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char db[800], dir[900], log[800], *text;

	snprintf(db, sizeof(db), "%s/runbox/results.db", tap_tmpdir());
	snprintf(dir, sizeof(dir), "%s/runbox/boxes/vm.qemu", tap_tmpdir());
	snprintf(log, sizeof(log), "%s/fake.log", tap_tmpdir());
	(void)unlink(log);
	tap_cmd(&r, "run -d '%s' --box vm -f boxed --timeout 20", db);
	if (!is_int(r.status, 1, "run --box vm: the run ends (one test "
	    "fails)"))
		tap_diag("%s", r.err != NULL ? r.err : "");
	has_str(r.err, "ltpscope: box vm: qemu started, ssh on ", "QEMU "
	    "started for it");
	has_str(tap_line_of(r.err, "ssh on"), box.user, "... ssh as the "
	    "box's user");
	has_str(r.out, "2 of 2 tests done: 1 pass, 1 fail", "both tests ran "
	    "on the box");
	text = tap_slurp(log, NULL);
	has_str(text, "quit\n", "QEMU told to quit at the end");
	free(text);
	ok(qemu_gone(dir), "no QEMU left running");
	snprintf(dir, sizeof(dir), "%s/runbox/boxes", tap_tmpdir());
	text = box_dirs(dir);
	/* Not by its host: 127.0.0.1 on a new port each time. */
	is_str(text, "vm.box vm.qemu ", "the box's files kept by its name "
	    "(boxes/vm.box), not by its host and port");
	free(text);
	/* boxes finds a box's runs by the box they name. */
	tap_cmd(&r, "boxes -d '%s'", db);
	if (!has_str(tap_line_of(r.out, "vm "), "(qemu)", "boxes: vm, a QEMU "
	    "box") || !has_str(tap_line_of(r.out, "vm "), "x86_64   Linux"
	    "        1", "... its newest run, run 1: the run says its box"))
		tap_diag("%s", r.out != NULL ? r.out : "");
	tap_cmd_free(&r);
}

/*
 * run --resume of a run on a QEMU box whose ltpscope was killed: the
 * run says its box, so --resume alone finds it, takes over the QEMU
 * left running, and leaves it running.
 */
static void
test_resume_box(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char db[800], dir[900], cmd[2400], pf[1000], *text;
	pid_t pid, qpid;
	int i;

	snprintf(db, sizeof(db), "%s/resbox/results.db", tap_tmpdir());
	snprintf(dir, sizeof(dir), "%s/resbox/boxes/vm.qemu", tap_tmpdir());
	snprintf(cmd, sizeof(cmd), "%s run -d '%s' --box vm -f hangs "
	    "--timeout 10 </dev/null >/dev/null 2>&1 & echo $!", tap_bin(),
	    db);
	text = tap_run(cmd, NULL, 0);
	pid = text != NULL ? (pid_t)atoi(text) : 0;
	free(text);
	for (i = 0; i < 300; i++) {
		text = tap_cli(NULL, 1, "runs -d '%s'", db);
		if (text != NULL && strstr(text, "running") != NULL) {
			free(text);
			break;
		}
		free(text);
		(void)poll(NULL, 0, 100);
	}
	/* The hanging test under way on the box, then ltpscope killed. */
	(void)poll(NULL, 0, 1000);
	if (!ok(pid > 0 && kill(pid, SIGKILL) == 0, "run --box vm killed "
	    "mid-run")) {
		tap_cmd_free(&r);
		return;
	}
	for (i = 0; i < 50 && kill(pid, 0) == 0; i++)
		(void)poll(NULL, 0, 100);
	ok(qemubox_running(dir), "its QEMU left running");
	tap_cmd(&r, "run -d '%s' --resume", db);
	has_str(r.err, "box vm: qemu running already", "run --resume alone "
	    "goes back to the box, its QEMU taken over");
	if (!has_str(r.out, "1 of 1 tests done", "the run ends there"))
		tap_diag("%s%s", r.out != NULL ? r.out : "", r.err != NULL ?
		    r.err : "");
	ok(qemubox_running(dir), "QEMU, not started by it, left running");
	snprintf(pf, sizeof(pf), "%s/qemu.pid", dir);
	text = tap_slurp(pf, NULL);
	qpid = text != NULL ? (pid_t)atoi(text) : 0;
	free(text);
	if (qpid > 0)
		(void)kill(qpid, SIGTERM);
	ok(qemu_gone(dir), "(stopped by the test)");
	tap_cmd_free(&r);
}

/*
 * A QEMU box whose ssh never answers (no guest behind its port): the
 * run gives up after box-wait and says what the console said since
 * QEMU started -- made safe, CR LF ends dropped, an earlier start's
 * words not -- or that it said nothing, as a guest that never ran
 * (KVM taking the vCPU and not running it) leaves it.
 */
static void
test_box_silent(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char db[800], dir[900], con[1000], *ssh;

	snprintf(db, sizeof(db), "%s/mute/results.db", tap_tmpdir());
	snprintf(dir, sizeof(dir), "%s/mute/boxes/mute.qemu", tap_tmpdir());
	snprintf(con, sizeof(con), "%s/console", dir);
	ssh = getenv("FAKEQEMU_SSH") != NULL ?
	    xstrdup(getenv("FAKEQEMU_SSH")) : NULL;
	unsetenv("FAKEQEMU_SSH");
	setenv("FAKEQEMU_CONSOLE", "Booting the kernel\\r\\n\\033[31m"
	    "Kernel panic - not syncing: no init found\\033[0m\\r\\n", 1);
	{
		char cmd[1000];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
		free(tap_run(cmd, NULL, 0));
	}
	tap_write(con, "an earlier boot: login:\r\n");
	tap_cmd(&r, "run -d '%s' --box mute -f boxed", db);
	ok(r.status != 0, "run --box mute: no ssh, the run fails");
	has_str(r.err, "did not come back in 2 s", "after box-wait");
	has_str(r.err, "its console, ", "what its console said is shown");
	has_str(r.err, "ltpscope:   Kernel panic - not syncing: no init "
	    "found\n", "its last line, without its colours or CR");
	has_str(r.err, "ltpscope:   Booting the kernel\n", "the line before");
	ok(r.err != NULL && strstr(r.err, "an earlier boot") == NULL &&
	    strchr(r.err, '\033') == NULL && strchr(r.err, '\r') == NULL,
	    "nothing of an earlier start, no escape or CR on the terminal");
	ok(qemu_gone(dir), "no QEMU left running");

	unsetenv("FAKEQEMU_CONSOLE");
	tap_cmd(&r, "run -d '%s' --box mute -f boxed", db);
	ok(r.status != 0, "again, its console silent: the run fails");
	has_str(r.err, "has nothing since QEMU started", "the console said "
	    "nothing: so told");
	has_str(r.err, "try accel=tcg", "with what to try");
	ok(qemu_gone(dir), "no QEMU left running");
	if (ssh != NULL)
		setenv("FAKEQEMU_SSH", ssh, 1);
	free(ssh);
	tap_cmd_free(&r);
}

/*
 * The QEMU box crashes in the explorer (its sshd gone while a test
 * hangs): reset on the monitor, no reboot-cmd, and the run resumed
 * there once the guest's sshd is back (the fake QEMU's reset starts
 * it again).
 */
static void
test_ui_crash(const char *log)
{
	char path[900], up[2048], *text;

	snprintf(path, sizeof(path), "%s.reset", log);
	sshd_reboot_command(&box, 1, up, sizeof(up));
	tap_write(path, up);
	tmux_keys(":");
	tmux_keys("-l 'run boxed03'");
	tmux_keys("Enter");
	if (!ok(tmux_wait_for("boxed03 (1/1)", 20000), "a test that hangs "
	    "on the QEMU box"))
		tap_diag("screen:\n%s", tmux_screen());
	sshd_stop(&box);
	if (!ok(tmux_wait_for("system_reset on its monitor", 30000), "the "
	    "box lost: reset on its monitor"))
		tap_diag("screen:\n%s", tmux_screen());
	if (!ok(tmux_wait_for("finished: 0 pass", 60000), "the guest back, "
	    "the run went on there by itself"))
		tap_diag("screen:\n%s", tmux_screen());
	text = tap_slurp(log, NULL);
	has_str(text, "system_reset\n", "system_reset reached the monitor");
	free(text);
	(void)unlink(path);
}

/* How many times the fake QEMU's monitor was told to reset. */
static int
resets(const char *log)
{
	char *text = tap_slurp(log, NULL), *p;
	int n = 0;

	for (p = text; p != NULL && (p = strstr(p, "system_reset\n")) !=
	    NULL; p++)
		n++;
	free(text);
	return n;
}

/*
 * The QEMU box crashes again, its console saying the kernel reboots by
 * itself (panic=1), and it is back with a new boot id before long: as
 * run does, the explorer waits for it and does not reset it.
 */
static void
test_ui_back(const char *log, const char *dir)
{
	char con[1000], path[1000], up[2048], *text;
	int n0 = resets(log);
	FILE *fp;

	snprintf(con, sizeof(con), "%s/console", dir);
	tmux_keys(":");
	tmux_keys("-l 'run boxed03'");
	tmux_keys("Enter");
	if (!ok(tmux_wait_for("boxed03 (1/1)", 20000), "a test that hangs "
	    "on the QEMU box again"))
		tap_diag("screen:\n%s", tmux_screen());
	/* The panic on the serial console, the kernel rebooting itself. */
	text = tap_slurp("tests/fixtures/console/linux-6.1-panic1.log", NULL);
	if ((fp = fopen(con, "a")) != NULL) {
		fputs(text != NULL ? text : "", fp);
		fclose(fp);
	}
	free(text);
	snprintf(path, sizeof(path), "%s/boot_id", box.dir);
	tap_write(path, "5ee1b007-0002\n");
	sshd_stop(&box);
	sshd_reboot_command(&box, 2, up, sizeof(up));
	(void)system(up);
	if (!ok(tmux_wait_for("(a new boot id): not reset", 60000), "the box "
	    "back by itself with a new boot id: not reset"))
		tap_diag("screen:\n%s", tmux_screen());
	has_str(tmux_screen(), "says its kernel reboots by itself: waiting",
	    "... its console said the kernel reboots by itself");
	if (!ok(tmux_wait_for("finished: 0 pass", 60000), "the run went on "
	    "there by itself"))
		tap_diag("screen:\n%s", tmux_screen());
	is_int(resets(log), n0, "no system_reset reached the monitor");
}

/*
 * ui --box on a QEMU box: started before the screen, the header names
 * the box, a run goes there and says its box, q stops QEMU.
 */
static void
test_ui_box(void)
{
	char db[800], dir[900], cmd[4000], log[800], *text;

	/* The default database: tests --box finds the QEMU beside it. */
	snprintf(db, sizeof(db), "%s/uidata", tap_tmpdir());
	setenv("XDG_DATA_HOME", db, 1);
	snprintf(db, sizeof(db), "%s/uidata/ltpscope/ltpscope.db",
	    tap_tmpdir());
	snprintf(dir, sizeof(dir), "%s/uidata/ltpscope/boxes/vm.qemu",
	    tap_tmpdir());
	snprintf(log, sizeof(log), "%s/fake.log", tap_tmpdir());
	(void)unlink(log);
	snprintf(cmd, sizeof(cmd), "env HOME=%s XDG_CONFIG_HOME=%s/xdg "
	    "XDG_DATA_HOME=%s/uidata XDG_STATE_HOME=%s/state %s ui "
	    "--box vm -f boxed -f hangs", tap_tmpdir(), tap_tmpdir(),
	    tap_tmpdir(), tap_tmpdir(), tap_bin());
	if (!ok(tmux_start(cmd, 120, 30) == 0 && tmux_wait_for("syscalls,",
	    30000), "ui --box vm: the explorer starts on the QEMU box")) {
		tap_diag("screen:\n%s", tmux_screen());
		tmux_stop();
		return;
	}
	has_str(tmux_line("ltpscope"), "ltpscope  box vm  ", "the header "
	    "names the box");
	tmux_keys("T");
	if (!ok(tmux_wait_for("boxed02", 5000), "T: the tests of the box's "
	    "runtest file"))
		tap_diag("screen:\n%s", tmux_screen());
	tmux_keys("r");
	if (!ok(tmux_wait_for("finished: 1 pass, 0 fail", 30000), "r: a "
	    "run on the box"))
		tap_diag("screen:\n%s", tmux_screen());
	/* The QEMU the explorer started, taken over and left running. */
	text = tap_cli(NULL, 1, "tests --box vm -f boxed");
	if (!has_str(text, "boxed02\t-\tfail\n", "tests --box on a running "
	    "QEMU box: the tests of its LTP install"))
		tap_diag("%s", text != NULL ? text : "");
	free(text);
	ok(qemubox_running(dir), "... and its QEMU left running");
	test_ui_crash(log);
	test_ui_back(log, dir);
	tmux_keys("q");
	tmux_keys("q");
	ok(tmux_wait_dead(15000), "q quits");
	tmux_stop();
	text = tap_slurp(log, NULL);
	has_str(text, "quit\n", "QEMU told to quit when the explorer ends");
	free(text);
	ok(qemu_gone(dir), "no QEMU left running");
	text = tap_cli(NULL, 1, "tests --box vm");
	has_str(text, "box vm: its QEMU is not running (run --box or ui "
	    "--box starts it)", "tests --box on a QEMU box not running: "
	    "said, nothing started");
	free(text);
	ok(!qemubox_running(dir), "... none");
	text = tap_cli(NULL, 1, "tests --box guest -f boxed");
	if (!has_str(text, "boxed01\t-\tpass\n", "tests --box on a box "
	    "over ssh: the box's LTP install"))
		tap_diag("%s", text != NULL ? text : "");
	free(text);
	text = tap_cli(NULL, 1, "boxes -d %s", db);
	if (!has_str(tap_line_of(text, "vm "), "Linux        3", "the "
	    "explorer's runs say their box (boxes lists the newest)"))
		tap_diag("%s", text != NULL ? text : "");
	free(text);
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
	if (tap_have("socat") && make_guest() == 0) {
		test_run_box();
		test_resume_box();
		test_box_silent();
		test_ui_box();
		sshd_stop(&box);
	}
	return tap_done();
}
