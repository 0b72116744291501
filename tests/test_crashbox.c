/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Crashes of a box, end to end against the tests' private sshd
 * (tests/sshd.c) and a console log the test writes as a serial console
 * would (tests/fixtures/console): a panic line on the console is the
 * crash at once, the box still answering ssh; under -j the task the
 * console names is the crash, the test beside it interrupted and run
 * again; a box back with a new boot id is not reset; --reboot-cmd's
 * output goes with the crash, never raw to the terminal; --box-wait
 * ends with a last try at its limit; run --resume keeps --console,
 * --reboot-cmd and --box-wait; the closing summary counts the whole
 * run across its crashes; --skip-culprit's entry holds on the arch it
 * crashed, not on another arch's box sharing the skip list.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sshd.h"
#include "tap.h"

static struct sshd_box box;
static char root[1024];
static char bin[2048];
static char cwd[1024];

static long long
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void
write_file(const char *path, const char *text, int mode)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL) {
		tap_diag("cannot write %s", path);
		return;
	}
	fputs(text, fp);
	fclose(fp);
	if (mode != 0)
		chmod(path, (mode_t)mode);
}

/*
 * Appends a fixture console log to file, as the serial line logs it;
 * cut, when not NULL, ends it before that text (a box that stays down
 * says nothing more).
 */
static void
console_add_cut(const char *file, const char *fixture, const char *cut)
{
	char path[1200], *text, *end;
	size_t len;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/tests/fixtures/console/%s", cwd,
	    fixture);
	if ((text = tap_slurp(path, &len)) == NULL ||
	    (fp = fopen(file, "a")) == NULL) {
		tap_diag("cannot add %s to %s", path, file);
		free(text);
		return;
	}
	if (cut != NULL && (end = strstr(text, cut)) != NULL)
		len = (size_t)(end - text);
	fwrite(text, 1, len, fp);
	fclose(fp);
	free(text);
}

static void
console_add(const char *file, const char *fixture)
{
	console_add_cut(file, fixture, NULL);
}

/*
 * The box's own programs (first in its PATH): a dmesg with nothing of
 * a crash in it (the box booted since), and a sysctl that tells the
 * boot id the test writes in box.dir/boot_id.
 */
static void
box_programs(void)
{
	char path[1200], text[2048];

	snprintf(path, sizeof(path), "%s/bin/dmesg", box.dir);
	write_file(path, "#!/bin/sh\necho '[     1.000000] a calm boot'\n",
	    0755);
	snprintf(path, sizeof(path), "%s/bin/sysctl", box.dir);
	snprintf(text, sizeof(text), "#!/bin/sh\ncase \"$2\" in\n"
	    "kernel.random.boot_id) cat '%s/boot_id';;\n*) exit 1;;\nesac\n",
	    box.dir);
	write_file(path, text, 0755);
	snprintf(path, sizeof(path), "%s/boot_id", box.dir);
	write_file(path, "0b5e9d1c-0001\n", 0);
}

static void
mkroot(const char *dir)
{
	static const char *const fakes[] = { "pass", "fail", "hang", NULL };

	tap_fake_ltproot(dir, fakes);
}

static long
db_number(const char *db, const char *sql)
{
	char cmd[2048], *out;
	long v = -1;
	int st;

	snprintf(cmd, sizeof(cmd), "sqlite3 %s \"%s\" 2>/dev/null", db, sql);
	out = tap_run(cmd, &st, 0);
	if (st == 0 && out != NULL && out[0] >= '0' && out[0] <= '9')
		v = atol(out);
	free(out);
	return v;
}

static char *
db_text(const char *db, const char *sql)
{
	char cmd[2048];
	int st;

	snprintf(cmd, sizeof(cmd), "sqlite3 %s \"%s\" 2>/dev/null", db, sql);
	return tap_run(cmd, &st, 0);
}

static pid_t
start_bg(const char *args, const char *log)
{
	char cmd[8192];
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "exec %s %s </dev/null >%s 2>&1", bin,
	    args, log);
	if ((pid = fork()) == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

static int
wait_bg(pid_t pid, int ms)
{
	long long deadline = now_ms() + ms;
	int st;

	while (now_ms() < deadline)
		if (waitpid(pid, &st, WNOHANG) == pid)
			return st;
		else
			(void)poll(NULL, 0, 50);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

/* Waits until tag runs on the box and has said its first line. */
static int
wait_running(const char *db, const char *tag, const char *log)
{
	char sql[256], *out = NULL;
	long long deadline = now_ms() + 30000;
	int seen = 0;

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM results WHERE "
	    "tag = '%s' AND status = 9", tag);
	while (now_ms() < deadline && db_number(db, sql) != 1)
		(void)poll(NULL, 0, 50);
	while (now_ms() < deadline && !seen) {
		out = tap_slurp(log, NULL);
		seen = out != NULL && strstr(strstr(out, tag) != NULL ?
		    strstr(out, tag) : out, "waiting for a signal") != NULL;
		free(out);
		if (!seen)
			(void)poll(NULL, 0, 50);
	}
	return seen;
}

static char *
show_output(const char *db, const char *tag)
{
	char cmd[4096];
	int st;

	snprintf(cmd, sizeof(cmd), "%s show last -d %s --output %s 2>&1", bin,
	    db, tag);
	return tap_run(cmd, &st, 0);
}

static void
write_runtest(const char *path, const char *text)
{
	write_file(path, text, 0);
}

/*
 * --console: the panic line appears there while pause01 hangs on a box
 * whose sshd never stops (ssh could not tell the crash for as long as
 * it lives): the run takes it for the crash at once.  With panic=1 the
 * console says the kernel reboots by itself, and the box answers with
 * a new boot id: --reboot-cmd is not run.  With panic=0 the kernel
 * says it stays down: the box is reset at once.
 */
static void
test_console_watch(int panic0)
{
	const char *t = tap_tmpdir();
	char db[1200], rt[1200], log[1200], con[1200], flag[1200];
	char args[8192], reset[1400], line[1400], kmsg[1200], *out;
	pid_t pid, sshd = box.pid;
	int st;

	snprintf(db, sizeof(db), "%s/watch%d.db", t, panic0);
	snprintf(rt, sizeof(rt), "%s/watch%d.runtest", t, panic0);
	snprintf(log, sizeof(log), "%s/watch%d.log", t, panic0);
	snprintf(con, sizeof(con), "%s/watch%d.console", t, panic0);
	snprintf(flag, sizeof(flag), "%s/watch%d.reset", t, panic0);
	snprintf(kmsg, sizeof(kmsg), "%s/watch%d.kmsg", t, panic0);
	/* open01, before the crash, makes the box's kernel warn. */
	snprintf(line, sizeof(line), "open01 printf '4,1,9000000,-;WARNING: "
	    "CPU: 0 PID: 1 at x.c:1\\n' >>'%s'; pass\npause01 hang\n"
	    "open02 fail\n", kmsg);
	write_runtest(rt, line);
	write_file(kmsg, "", 0);
	setenv("LTPSCOPE_KMSG", kmsg, 1);
	write_file(con, "[    0.000000] Linux version 6.1.0-27-amd64\r\n", 0);
	snprintf(reset, sizeof(reset), "touch '%s'", flag);
	setenv("R", reset, 1);
	/* A timeout far off: the test's own end cannot be taken for it. */
	snprintf(args, sizeof(args), "run -v -d %s -L %s -f %s --timeout 600 "
	    "--host %s --ssh-config %s --box-wait 60 --console %s "
	    "--reboot-cmd \"$R\"", db, root, rt, box.spec, box.config, con);
	pid = start_bg(args, log);
	setenv("LTPSCOPE_KMSG", "/dev/null", 1);
	if (!ok(wait_running(db, "pause01", log), "pause01 hangs on the box")) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return;
	}
	snprintf(line, sizeof(line), "%s/boot_id", box.dir);
	write_file(line, panic0 ? "0b5e9d1c-0003\n" : "0b5e9d1c-0002\n", 0);
	if (panic0)
		console_add_cut(con, "linux-6.1-panic0.log", "SeaBIOS");
	else
		console_add(con, "linux-6.1-panic1.log");
	st = wait_bg(pid, 90000);
	out = tap_slurp(log, NULL);
	if (!ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1, "the run "
	    "ends, with the crash (status %#x)", st))
		tap_diag("%s", out != NULL ? out : "");
	ok(box.pid == sshd && kill(box.pid, 0) == 0, "the box's sshd never "
	    "stopped: ssh had nothing to notice");
	snprintf(line, sizeof(line), "ltpscope: the console of %s told of a "
	    "panic while running pause01: Kernel panic - not syncing: sysrq "
	    "triggered crash\n", box.spec);
	has_str(out, line, "the console's panic line is the crash");
	if (panic0) {
		has_str(out, "ltpscope: running --reboot-cmd\n", "the kernel "
		    "stays down (panic=0): the box is reset");
		ok(access(flag, F_OK) == 0, "... --reboot-cmd ran");
		ok(out != NULL && strstr(out, "try 1 failed") == NULL &&
		    strstr(out, "not reset") == NULL, "... at once, with no "
		    "try before");
	} else {
		has_str(out, "says its kernel reboots by itself: waiting up "
		    "to 60 s for it before --reboot-cmd\n", "the console says "
		    "the kernel reboots by itself (panic=1)");
		has_str(out, "has booted since the crash (a new boot id): "
		    "not reset", "a box back with a new boot id is not reset");
		ok(access(flag, F_OK) != 0, "... --reboot-cmd did not run");
	}
	has_str(out, "pause01 crashed ", "the kernel's words are read");
	has_str(out, "FAIL        open02", "the rest runs");
	has_str(out, "run 1: 3 of 3 tests done: 1 pass, 1 fail, 0 broken, "
	    "1 crash (1 after which the kernel warned or was tainted)\n",
	    "the summary counts the whole run, the kernel's mark before "
	    "the crash too");
	free(out);
	is_int(db_number(db, "SELECT status FROM results WHERE "
	    "tag = 'pause01'"), 11, "pause01 is a crash");
	is_int(db_number(db, "SELECT count(*) FROM results"), 3, "each test "
	    "ran once");
	out = show_output(db, "pause01");
	has_str(out, "console told of a panic after", "its output says how "
	    "the crash was told");
	has_str(out, "ltpscope: kernel (console ", "the console's words go "
	    "with it");
	has_str(out, "] Call Trace:\n", "... with the trace");
	has_str(out, panic0 ? "] ---[ end Kernel panic - not syncing: sysrq "
	    "triggered crash ]---\nltpscope: end of the kernel's messages\n" :
	    "] Rebooting in 1 seconds..\nltpscope: end of the kernel's "
	    "messages\n", "... up to the kernel's last words");
	ok(out != NULL && strstr(out, "SeaBIOS") == NULL, "... and nothing "
	    "of the next boot");
	free(out);
}

/*
 * -j 2: pause01 and kill11 run side by side when the console tells of
 * a panic in kill11 ("Comm: kill11"): kill11 is the crash, whatever
 * was missed first; pause01 is interrupted and, the box back, run
 * again (it passes the second time: its mark is there).
 */
static void
test_console_blame(void)
{
	const char *t = tap_tmpdir();
	char db[1200], rt[1200], log[1200], con[1200], flag[1200];
	char mark[1200], jroot[1200], args[8192], reset[1400], line[2800];
	char *out;
	long long deadline;
	pid_t pid;
	int st;

	snprintf(db, sizeof(db), "%s/blame.db", t);
	snprintf(rt, sizeof(rt), "%s/blame.runtest", t);
	snprintf(log, sizeof(log), "%s/blame.log", t);
	snprintf(con, sizeof(con), "%s/blame.console", t);
	snprintf(flag, sizeof(flag), "%s/blame.reset", t);
	snprintf(mark, sizeof(mark), "%s/blame.mark", t);
	(void)unlink(mark);
	snprintf(line, sizeof(line), "pause01 if [ -e '%s' ]; then exec pass;"
	    " fi; : > '%s'; exec hang\nkill11 hang\n", mark, mark);
	write_runtest(rt, line);
	/* Metadata that lets both run beside another. */
	snprintf(jroot, sizeof(jroot), "%s/ltpj", t);
	mkroot(jroot);
	snprintf(line, sizeof(line), "%s/metadata", jroot);
	(void)mkdir(line, 0755);
	snprintf(line, sizeof(line), "%s/metadata/ltp.json", jroot);
	write_file(line, "{\n \"testsuite\": {\"version\": \"fake\"},\n"
	    " \"tests\": {\n  \"pause01\": {\"doc\": [\"a fake\"]},\n"
	    "  \"kill11\": {\"doc\": [\"a fake\"]}\n }\n}\n", 0);
	write_file(con, "[    0.000000] Linux version 6.1.0-27-amd64\r\n", 0);
	snprintf(reset, sizeof(reset), "touch '%s'", flag);
	setenv("R", reset, 1);
	snprintf(args, sizeof(args), "run -v -j 2 -d %s -L %s -f %s "
	    "--timeout 600 --host %s --ssh-config %s --box-wait 60 "
	    "--console %s --reboot-cmd \"$R\"", db, jroot, rt, box.spec,
	    box.config, con);
	pid = start_bg(args, log);
	deadline = now_ms() + 30000;
	while (now_ms() < deadline && (access(mark, F_OK) != 0 ||
	    db_number(db, "SELECT count(*) FROM results WHERE status = 9 "
	    "AND tag IN ('pause01', 'kill11')") != 2))
		(void)poll(NULL, 0, 50);
	if (!ok(access(mark, F_OK) == 0 && db_number(db, "SELECT count(*) "
	    "FROM results WHERE status = 9") == 2, "pause01 and kill11 run "
	    "side by side on the box")) {
		out = tap_slurp(log, NULL);
		tap_diag("%s", out != NULL ? out : "");
		free(out);
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return;
	}
	snprintf(line, sizeof(line), "%s/boot_id", box.dir);
	write_file(line, "0b5e9d1c-0004\n", 0);
	console_add(con, "linux-6.1-panic1.log");
	st = wait_bg(pid, 90000);
	out = tap_slurp(log, NULL);
	if (!ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1, "the run "
	    "ends, with the crash (status %#x)", st))
		tap_diag("%s", out != NULL ? out : "");
	free(out);
	is_int(db_number(db, "SELECT status FROM results WHERE "
	    "tag = 'kill11'"), 11, "kill11, the task the console names, is "
	    "the crash");
	out = db_text(db, "SELECT group_concat(status, ' ') FROM (SELECT "
	    "status FROM results WHERE tag = 'pause01' ORDER BY id)");
	is_str(out, "8 0\n", "pause01, running beside it, is interrupted, "
	    "then run again and passes");
	free(out);
	ok(access(flag, F_OK) != 0, "the box rebooted by itself: not reset");
	out = show_output(db, "kill11");
	has_str(out, "Comm: kill11 ", "kill11's output has the console's "
	    "words of its crash");
	free(out);
}

/* Kills the ssh master connections whose parent is pid: the link drops. */
static int
kill_masters(pid_t pid)
{
	char *out, *line, *save = NULL;
	long p, pp;
	int off, n = 0, st;

	out = tap_run("ps -eo pid=,ppid=,args=", &st, 0);
	for (line = out != NULL ? strtok_r(out, "\n", &save) : NULL;
	    line != NULL; line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%ld %ld %n", &p, &pp, &off) == 2 &&
		    pp == (long)pid && strstr(line + off,
		    "-oControlMaster=yes") != NULL && kill((pid_t)p,
		    SIGKILL) == 0)
			n++;
	free(out);
	return n;
}

/*
 * The link to the box drops (its ssh master killed) while the box
 * stays up: the test is a crash, as far as ltpscope can tell, but the
 * box answers the first try with the boot id it had: not reset.
 */
static void
test_same_boot(void)
{
	const char *t = tap_tmpdir();
	char db[1200], rt[1200], log[1200], flag[1200], reset[1400];
	char args[8192], *out;
	pid_t pid;
	int st;

	snprintf(db, sizeof(db), "%s/drop.db", t);
	snprintf(rt, sizeof(rt), "%s/drop.runtest", t);
	snprintf(log, sizeof(log), "%s/drop.log", t);
	snprintf(flag, sizeof(flag), "%s/drop.reset", t);
	write_runtest(rt, "open01 pass\npause01 hang\nopen02 fail\n");
	snprintf(reset, sizeof(reset), "touch '%s'", flag);
	setenv("R", reset, 1);
	snprintf(args, sizeof(args), "run -v -d %s -L %s -f %s --timeout 600 "
	    "--host %s --ssh-config %s --box-wait 60 --reboot-cmd \"$R\"",
	    db, root, rt, box.spec, box.config);
	pid = start_bg(args, log);
	if (!ok(wait_running(db, "pause01", log), "pause01 hangs on the box")) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return;
	}
	ok(kill_masters(pid) == 1, "the link to the box is cut");
	st = wait_bg(pid, 90000);
	out = tap_slurp(log, NULL);
	if (!ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1, "the run "
	    "ends (status %#x)", st))
		tap_diag("%s", out != NULL ? out : "");
	has_str(out, "answers and has not booted since (the same boot id): "
	    "not reset\n", "a box that answers with the boot id it had is "
	    "not reset");
	ok(access(flag, F_OK) != 0, "... --reboot-cmd did not run");
	has_str(out, "run 1: 3 of 3 tests done: 1 pass, 1 fail, 0 broken, "
	    "1 crash\n", "the rest ran");
	free(out);
}

/*
 * --skip-culprit on boxes of two arches sharing the user's skip list
 * (a run of several --box): pause01 crashes this box (its link cut);
 * the box then answers as another arch (a uname of its own, first in
 * its PATH), where pause01 still runs; on its own arch again it is
 * skipped.
 */
static void
test_culprit_arch(void)
{
	const char *t = tap_tmpdir();
	char db[1200], rt[1200], rt2[1200], log[1200], flag[1200];
	char cfg[1200], skip[1300], fake[1200], want[256], text[512];
	char args[8192], reset[1400], arch[64], other[64], *out;
	pid_t pid;
	int st;

	out = tap_run("uname -m", &st, 0);
	snprintf(arch, sizeof(arch), "%s", out != NULL ? out : "");
	arch[strcspn(arch, "\n")] = '\0';
	free(out);
	snprintf(other, sizeof(other), "%s", strcmp(arch, "aarch64") == 0 ?
	    "x86_64" : "aarch64");
	snprintf(db, sizeof(db), "%s/arch.db", t);
	snprintf(rt, sizeof(rt), "%s/arch.runtest", t);
	snprintf(rt2, sizeof(rt2), "%s/arch2.runtest", t);
	snprintf(log, sizeof(log), "%s/arch.log", t);
	snprintf(flag, sizeof(flag), "%s/arch.reset", t);
	snprintf(cfg, sizeof(cfg), "%s/archcfg", t);
	snprintf(skip, sizeof(skip), "%s/ltpscope/skiplist", cfg);
	snprintf(fake, sizeof(fake), "%s/bin/uname", box.dir);
	write_runtest(rt, "open01 pass\npause01 hang\nopen02 fail\n");
	/* pause01 does not hang where it runs again. */
	write_runtest(rt2, "open01 pass\npause01 pass\n");
	snprintf(reset, sizeof(reset), "touch '%s'", flag);
	setenv("R", reset, 1);
	setenv("XDG_CONFIG_HOME", cfg, 1);
	snprintf(args, sizeof(args), "run -v -d %s -L %s -f %s --timeout 600 "
	    "--host %s --ssh-config %s --box-wait 60 --reboot-cmd \"$R\" "
	    "--skip-culprit", db, root, rt, box.spec, box.config);
	pid = start_bg(args, log);
	if (!ok(wait_running(db, "pause01", log), "pause01 hangs on the %s "
	    "box", arch)) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		setenv("XDG_CONFIG_HOME", t, 1);
		return;
	}
	ok(kill_masters(pid) == 1, "the link to the box is cut");
	st = wait_bg(pid, 90000);
	out = tap_slurp(log, NULL);
	if (!ok(st != -1 && WIFEXITED(st), "the run ends (status %#x)", st))
		tap_diag("%s", out != NULL ? out : "");
	free(out);
	out = tap_slurp(skip, NULL);
	snprintf(want, sizeof(want), "pause01\tos=Linux\tarch=%s\tcrashed "
	    "%s (Linux ", arch, box.spec);
	has_str(out, want, "--skip-culprit: pause01 on the skip list, for "
	    "the system and arch it crashed");
	free(out);

	snprintf(text, sizeof(text), "#!/bin/sh\ncase \"$1\" in\n-m|-p) "
	    "echo %s;;\n*) PATH=/usr/bin:/bin exec uname \"$@\";;\nesac\n",
	    other);
	write_file(fake, text, 0755);
	snprintf(args, sizeof(args), "run -d %s -L %s -f %s --host %s "
	    "--ssh-config %s --skip-culprit", db, root, rt2, box.spec,
	    box.config);
	pid = start_bg(args, log);
	st = wait_bg(pid, 60000);
	out = tap_slurp(log, NULL);
	if (!ok(st == 0, "a run on the box as %s (status %#x)", other, st))
		tap_diag("%s", out != NULL ? out : "");
	has_str(out, "PASS        pause01", "pause01, which crashed the box "
	    "as another arch, runs");
	ok(out != NULL && strstr(out, "NOT-RUN") == NULL, "... nothing is "
	    "skipped");
	free(out);
	unlink(fake);

	pid = start_bg(args, log);
	st = wait_bg(pid, 60000);
	out = tap_slurp(log, NULL);
	has_str(out, "NOT-RUN     pause01", "on its own arch again, pause01 "
	    "is skipped");
	snprintf(want, sizeof(want), "(skip list: crashed %s (Linux ",
	    box.spec);
	has_str(out, want, "... by the skip list's entry");
	free(out);
	setenv("XDG_CONFIG_HOME", t, 1);
}

/*
 * --reboot-cmd talks like QEMU's monitor (escape sequences, carriage
 * returns, a prompt without a line end) and does not bring the box
 * back: its words go with the crash, cleaned, and none reach the
 * terminal; --box-wait 5 ends with a last try at 5 s.
 */
static void
test_reboot_output(void)
{
	const char *t = tap_tmpdir();
	char db[1200], rt[1200], log[1200], args[8192], *out;
	pid_t pid;
	int st;

	snprintf(db, sizeof(db), "%s/qemu.db", t);
	snprintf(rt, sizeof(rt), "%s/qemu.runtest", t);
	snprintf(log, sizeof(log), "%s/qemu.log", t);
	write_runtest(rt, "open01 pass\npause01 hang\nopen02 fail\n");
	setenv("R", "printf 'QEMU 7.2.0 monitor - type help\\r\\n(qemu) "
	    "\\033[K\\033[Dsystem_reset\\r\\n(qemu) '", 1);
	snprintf(args, sizeof(args), "run -v -d %s -L %s -f %s --timeout 600 "
	    "--host %s --ssh-config %s --box-wait 5 --reboot-cmd \"$R\"", db,
	    root, rt, box.spec, box.config);
	pid = start_bg(args, log);
	if (!ok(wait_running(db, "pause01", log), "pause01 hangs on the box")) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return;
	}
	sshd_stop(&box);
	st = wait_bg(pid, 90000);
	out = tap_slurp(log, NULL);
	if (!ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1, "the run "
	    "is left when the box does not come back (status %#x)", st))
		tap_diag("%s", out != NULL ? out : "");
	if (!ok(out != NULL && strchr(out, '\033') == NULL &&
	    strchr(out, '\r') == NULL, "no escape sequence nor carriage "
	    "return of --reboot-cmd reaches the terminal"))
		tap_diag("%s", out != NULL ? out : "");
	ok(out != NULL && strstr(out, "(qemu)") == NULL, "... nor its "
	    "words");
	has_str(out, "its output (3 lines) is kept with the crash of "
	    "pause01\n", "it says where they went");
	has_str(out, "; last try in ", "the wait ends with a last try at "
	    "its limit");
	has_str(out, " did not come back in 5 s (", "... and says so");
	has_str(out, "is left for later", "the run is left for --resume");
	free(out);
	out = show_output(db, "pause01");
	has_str(out, "ltpscope: --reboot-cmd (exit status 0) said:\n"
	    "  QEMU 7.2.0 monitor - type help\n  (qemu) system_reset\n"
	    "  (qemu) \n", "the crash's output has them, cleaned");
	ok(out != NULL && strchr(out, '\033') == NULL, "... with no escape "
	    "sequence");
	free(out);
	ok(sshd_restart(&box) == 0, "the box comes back");
}

/*
 * run --resume with no options goes on as the run began: its console
 * is read for the first crash's words and watched, its --reboot-cmd
 * brings the box back after a second crash, its --box-wait is kept;
 * the summary counts both crashes and every test.
 */
static void
test_resume_keeps(void)
{
	const char *t = tap_tmpdir();
	char db[1200], rt[1200], log[1200], con[1200], enable[1200];
	char args[8192], reboot[8192], up[2048], fix[1400], *out;
	pid_t pid;
	int st;

	snprintf(db, sizeof(db), "%s/keep.db", t);
	snprintf(rt, sizeof(rt), "%s/keep.runtest", t);
	snprintf(log, sizeof(log), "%s/keep.log", t);
	snprintf(con, sizeof(con), "%s/keep.console", t);
	snprintf(enable, sizeof(enable), "%s/keep.enable", t);
	snprintf(fix, sizeof(fix), "%s/tests/fixtures/console/"
	    "linux-6.1-panic0.log", cwd);
	write_runtest(rt, "open01 pass\npause01 hang\npause02 hang\n"
	    "open02 fail\n");
	write_file(con, "[     1.000000] NetBSD 10.1 (GENERIC) #0\r\n", 0);
	(void)unlink(enable);
	sshd_reboot_command(&box, 1, up, sizeof(up));
	snprintf(reboot, sizeof(reboot), "if [ -e '%s' ]; then cat '%s' >>"
	    "'%s'; %s fi", enable, fix, con, up);
	setenv("R", reboot, 1);
	snprintf(args, sizeof(args), "run -v -d %s -L %s -f %s --timeout 600 "
	    "--host %s --ssh-config %s --box-wait 8 --console %s "
	    "--reboot-cmd \"$R\"", db, root, rt, box.spec, box.config, con);
	pid = start_bg(args, log);
	if (!ok(wait_running(db, "pause01", log), "pause01 hangs on the box")) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return;
	}
	sshd_stop(&box);
	st = wait_bg(pid, 90000);
	ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1, "the box not "
	    "back in 8 s, the run is left (status %#x)", st);
	out = db_text(db, "SELECT config FROM runs WHERE id = 1");
	has_str(out, "\nbox_wait=8\n", "the run keeps --box-wait");
	has_str(out, "\nreboot_cmd=if [ -e ", "... --reboot-cmd");
	snprintf(fix, sizeof(fix), "\nconsole=%s\n", con);
	has_str(out, fix, "... and --console");
	free(out);
	/* What the box's console said of it, the box reset by hand. */
	console_add(con, "netbsd-10-ddb.log");
	if (!ok(sshd_restart(&box) == 0, "the box is back"))
		return;
	write_file(enable, "", 0);
	snprintf(args, sizeof(args), "run --resume -v -d %s", db);
	pid = start_bg(args, log);
	if (!ok(wait_running(db, "pause02", log), "--resume runs pause02")) {
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		return;
	}
	sshd_stop(&box);
	st = wait_bg(pid, 90000);
	out = tap_slurp(log, NULL);
	if (!ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1, "the "
	    "resumed run goes on after its own crash and ends (status %#x)",
	    st))
		tap_diag("%s", out != NULL ? out : "");
	has_str(out, "pause01 crashed ", "the first crash's words are read");
	has_str(out, "running --reboot-cmd", "the kept --reboot-cmd runs");
	has_str(out, "FAIL        open02", "the rest runs");
	has_str(out, "run 1: 4 of 4 tests done: 1 pass, 1 fail, 0 broken, "
	    "2 crash\n", "the summary counts the whole run");
	has_str(out, "2 crashes (the box stopped answering):\n"
	    "  crash pause01: panic: kernel diagnostic assertion "
	    "\"l->l_stat == LSONPROC\" failed: file "
	    "\"/usr/src/sys/kern/kern_sig.c\", line 2117\n"
	    "  crash pause02: Kernel panic - not syncing: sysrq triggered "
	    "crash\n", "... each crash with its panic, from the console");
	free(out);
	is_int(db_number(db, "SELECT count(*) FROM results"), 4, "each test "
	    "ran once");
	snprintf(args, sizeof(args), "%s run --help 2>&1", bin);
	out = tap_run(args, &st, 0);
	has_str(out, "run --resume [run] [-j jobs] [-d db]",
	    "the synopsis of --resume");
	ok(out != NULL && strstr(strstr(out, "run --resume") != NULL ?
	    strstr(out, "run --resume") : out, "[--reset-on-taint]") != NULL,
	    "... offers --reset-on-taint");
	has_str(out, "[--skip-culprit | --no-skip-culprit] [--reboot-cmd "
	    "command]", "... with its culprit and reboot options");
	ok(out != NULL && strstr(strstr(out, "run --resume") != NULL ?
	    strstr(out, "run --resume") : out, "[--console file]") != NULL,
	    "... offers --console");
	free(out);
}

int
main(void)
{
	char why[256], dir[1200];
	const char *b = getenv("LTPSCOPE_BIN");

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(bin, sizeof(bin), "%s/%s", cwd, b ? b : "ltpscope");
	snprintf(dir, sizeof(dir), "%s/box", tap_tmpdir());
	if (sshd_start(&box, dir, why, sizeof(why)) != 0) {
		ok(1, "# SKIP no test box: %s", why);
		return tap_done();
	}
	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	mkroot(root);
	setenv("XDG_CONFIG_HOME", tap_tmpdir(), 1);
	setenv("XDG_DATA_HOME", tap_tmpdir(), 1);
	box_programs();
	test_console_watch(0);
	test_console_watch(1);
	test_console_blame();
	test_same_boot();
	test_culprit_arch();
	test_reboot_output();
	test_resume_keeps();
	sshd_stop(&box);
	return tap_done();
}
