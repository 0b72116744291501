/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Crashes of a box (crashlog.h, the crash status, the store): which
 * kernel lines tell of a panic, which panic of a log is the crash's
 * (the last, told with the trap before it, not an older one), what
 * is kept around it, the marker found again in a stored output with
 * binary bytes before it, and an output appended to once the box is
 * back.  The whole path over ssh is in test_remote.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/crashlog.h"
#include "ltpscope/status.h"
#include "ltpscope/store.h"
#include "tap.h"

/* Two crashes and the boots after them, as NetBSD's dmesg shows them. */
static const char two_crashes[] =
    "[     1.000000] NetBSD 10.1 (GENERIC) #0: Mon Dec 16 13:08:11 UTC\n"
    "[   100.100000] panic: an older crash\n"
    "[   100.100000] cpu0: Begin traceback...\n"
    "[     1.000000] NetBSD 10.1 (GENERIC) #0: Mon Dec 16 13:08:11 UTC\n"
    "[     2.000000] wd0 at atabus0 drive 0\n"
    "[   812.345678] fatal page fault in supervisor mode\r\n"
    "[   812.345678] trap type 6 code 0x2 rip 0xffffffff80a0b1c2\n"
    "[   812.345678] curlwp 0xffff8000 pid 812.1 lowest kstack 0x0\n"
    "[   812.345678] panic: trap\n"
    "[   812.345678] cpu0: Begin traceback...\n"
    "[   812.345678] vpanic() at netbsd:vpanic+0x183\n"
    "[     1.000000] NetBSD 10.1 (GENERIC) #0: Mon Dec 16 13:08:11 UTC\n";

static void
test_words(void)
{
	static const char *const yes[] = {
		"[ 1.0] panic: kernel diagnostic assertion \"x\" failed",
		"fatal page fault in supervisor mode",
		"uvm_fault(0xffffffff81, 0x0, 1) -> e",
		"Stopped in pid 812.1 (pause01) at netbsd:breakpoint+0x5",
		"[  9.1] Kernel panic - not syncing: Fatal exception",
		"[  9.1] BUG: unable to handle page fault for address: 0",
	};
	static const char *const no[] = {
		"[ 1.0] wd0 at atabus0 drive 0", "panicked", "",
		"[ 2.0] Copyright (c) 1996, 1997 The NetBSD Foundation",
	};
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		ok(crashlog_is_panic(yes[i], strlen(yes[i])), "a crash: %s",
		    yes[i]);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		ok(!crashlog_is_panic(no[i], strlen(no[i])), "no crash: '%s'",
		    no[i]);
}

static void
test_block(void)
{
	char *out, first[300], found[300];
	size_t len, i;
	int nl = 0;

	ok(crashlog_block("dmesg on box", two_crashes, strlen(two_crashes),
	    &out, &len, first, sizeof(first)) == 1, "a crash is found");
	is_str(first, "panic: trap", "the panic line names it, without "
	    "its timestamp");
	is_int((long long)strlen(out), (long long)len, "its length");
	has_str(out, "ltpscope: kernel (dmesg on box): panic: trap\n",
	    "the marker comes first");
	has_str(out, "fatal page fault in supervisor mode\n", "the trap "
	    "before the panic is kept, its \\r dropped");
	has_str(out, "vpanic() at netbsd:vpanic+0x183\n", "... and the "
	    "traceback after it");
	ok(strstr(out, "an older crash") == NULL, "an older crash is not "
	    "this one");
	has_str(out, "ltpscope: end of the kernel's messages\n", "the end is "
	    "marked");
	ok(crashlog_find(out, len, found, sizeof(found)) &&
	    strcmp(found, "panic: trap") == 0, "the marker is found again");
	free(out);

	ok(crashlog_block("console /a (b)", "[ 1.0] booting\nlogin: \n", 22,
	    &out, &len, first, sizeof(first)) == 0, "no crash in a calm log");
	has_str(out, "ltpscope: kernel (console /a (b)): no panic message "
	    "(its last 2 lines are kept with the crash)\n[ 1.0] booting\n"
	    "login: \n", "its last lines are kept instead");
	ok(crashlog_find(out, len, found, sizeof(found)) && strcmp(found,
	    first) == 0, "a source with parentheses does not hide the "
	    "marker");
	ok(first[0] != '\0' && first[strlen(first) - 1] != ':', "what the "
	    "summary says of it does not end in a bare colon: %s", first);
	free(out);

	(void)crashlog_block("dmesg", "", 0, &out, &len, first,
	    sizeof(first));
	is_str(first, "no panic message (the log was empty)", "an empty log");
	free(out);

	/* A flood of kernel lines: the block stays short. */
	{
		size_t big = 200000;
		char *log = malloc(big + 64);

		memset(log, 'x', big);
		for (i = 100; i < big; i += 101)
			log[i] = '\n';
		strcpy(log + big, "\npanic: at the end\n");
		(void)crashlog_block("dmesg", log, strlen(log), &out, &len,
		    first, sizeof(first));
		ok(len < CRASHLOG_MAX + 1024, "at most %d bytes of the "
		    "kernel's (%zu)", CRASHLOG_MAX, len);
		for (i = 0; i < len; i++)
			nl += out[i] == '\n';
		ok(nl <= CRASHLOG_BEFORE + CRASHLOG_AFTER + 3, "a few lines "
		    "(%d)", nl);
		is_str(first, "panic: at the end", "the panic is found");
		free(out);
		free(log);
	}
	ok(!crashlog_find("ltpscope: kernel (x) no colon\n", 29, found,
	    sizeof(found)), "a line like the marker but not it");
	{
		static const char bin[] = "\0\001\377ltpscope: kernel (x\n"
		    "ltpscope: kernel (dmesg): panic: y\nrest";

		ok(crashlog_find(bin, sizeof(bin) - 1, found, sizeof(found)) &&
		    strcmp(found, "panic: y") == 0, "found after binary "
		    "bytes and a broken marker");
	}
}

/*
 * A console log made up as the kernels write it (tests/fixtures/
 * console): the crash's words are the panic line, what the kernel
 * said just before it, its whole trace up to where the kernel stopped
 * talking, and nothing of the boot after it.
 */
static void
check_console(const char *name, const char *headline,
    const char *const *has, const char *const *hasnot)
{
	char path[1200], *log, *out = NULL, first[300];
	size_t len = 0, olen = 0, i;

	snprintf(path, sizeof(path), "tests/fixtures/console/%s", name);
	if (!ok((log = tap_slurp(path, &len)) != NULL, "%s is there", path))
		return;
	ok(crashlog_block("console c", log, len, &out, &olen, first,
	    sizeof(first)) == 1, "%s: a crash is found", name);
	is_str(first, headline, "%s: the panic line heads it", name);
	for (i = 0; has[i] != NULL; i++)
		has_str(out, has[i], "%s: it keeps line %zu of %s", name, i,
		    "what it must");
	for (; *hasnot != NULL; hasnot++)
		ok(out != NULL && strstr(out, *hasnot) == NULL, "%s: nothing "
		    "of the next boot: %s", name, *hasnot);
	free(out);
	free(log);
}

static void
test_consoles(void)
{
	static const char *const linux_has[] = {
		"ltpscope: kernel (console c): Kernel panic - not syncing: "
		    "sysrq triggered crash\n",
		"] sysrq: Trigger a crash\n",
		"] Kernel panic - not syncing: sysrq triggered crash\n",
		"CPU: 0 PID: 123 Comm: kill11 Not tainted",
		"] Call Trace:\n", "]  panic+0x118/0x2ed\n",
		"]  entry_SYSCALL_64_after_hwframe+0x64/0xce\n",
		"R13: 00007f3c2dabe6a0", "]  </TASK>\n", "] Kernel Offset: ",
		NULL
	};
	static const char *const linux_not[] = {
		"SeaBIOS", "Booting from ROM", "Linux version",
		"BIOS-e820", "login", NULL
	};
	static const char *const panic0[] = {
		"] ---[ end Kernel panic - not syncing: sysrq triggered "
		    "crash ]---\nltpscope: end of the kernel's messages\n",
		NULL
	};
	static const char *const panic1[] = {
		"] Rebooting in 1 seconds..\nltpscope: end of the kernel's "
		    "messages\n", NULL
	};
	static const char *const nb_has[] = {
		"] pid 122 (kill10): compat_linux", "] cpu0: Begin traceback",
		"] linux_sys_kill() at netbsd:linux_sys_kill+0x8c\n",
		"] cpu0: End traceback...\n", NULL
	};
	static const char *const nb_not[] = {
		">> NetBSD/x86 BIOS Boot", "Copyright (c)", "avail memory",
		"Starting sshd", "login", NULL
	};
	static const char *const ddb[] = {
		"\nStopped in pid 123.1 (kill11) at netbsd:breakpoint+0x5: "
		    "leave\ndb{0}> bt\nbreakpoint() at netbsd:breakpoint+0x5\n",
		"\nnetbsd:syscall+0x196:\ndb{0}> \nltpscope: end", NULL
	};
	static const char *const reboot[] = {
		"\ndump device not ready\n\nrebooting...\nltpscope: end", NULL
	};
	const char *nb_head = "panic: kernel diagnostic assertion "
	    "\"l->l_stat == LSONPROC\" failed: file "
	    "\"/usr/src/sys/kern/kern_sig.c\", line 2117";
	const char *lx_head = "Kernel panic - not syncing: sysrq triggered "
	    "crash";

	check_console("linux-6.1-panic0.log", lx_head, linux_has, linux_not);
	check_console("linux-6.1-panic0.log", lx_head, panic0, linux_not);
	check_console("linux-6.1-panic1.log", lx_head, linux_has, linux_not);
	check_console("linux-6.1-panic1.log", lx_head, panic1, linux_not);
	check_console("netbsd-10-ddb.log", nb_head, nb_has, nb_not);
	check_console("netbsd-10-ddb.log", nb_head, ddb, nb_not);
	check_console("netbsd-10-rebooting.log", nb_head, nb_has, nb_not);
	check_console("netbsd-10-rebooting.log", nb_head, reboot, nb_not);
}

/* What a console says became of the box, from the fixtures, cut or not. */
static void
check_fate(const char *name, const char *cut, int want, const char *what)
{
	char path[1200], *log, *end;
	size_t len = 0;

	snprintf(path, sizeof(path), "tests/fixtures/console/%s", name);
	if ((log = tap_slurp(path, &len)) == NULL) {
		ok(0, "%s is there", path);
		return;
	}
	if (cut != NULL && (end = strstr(log, cut)) != NULL)
		len = (size_t)(end - log);
	is_int(crashlog_fate(log, len), want, "%s: %s", name, what);
	free(log);
}

static void
test_fate(void)
{
	static const char *const fatal[] = {
		"[ 42.107689] Kernel panic - not syncing: sysrq triggered crash",
		"[  812.345678] panic: kernel diagnostic assertion",
		"Stopped in pid 123.1 (kill11) at netbsd:breakpoint+0x5: leave",
	};
	static const char *const unwell[] = {
		"[    9.1] BUG: sleeping function called from invalid context",
		"[    9.1] Oops: 0000 [#1] PREEMPT SMP NOPTI",
		"[    9.1] vpanic() at netbsd:vpanic+0x183",
		"[    9.1] kill11: writes panic: to its output",
	};
	size_t i;

	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		ok(crashlog_is_fatal(fatal[i], strlen(fatal[i])), "the box is "
		    "dead: %s", fatal[i]);
	for (i = 0; i < sizeof(unwell) / sizeof(unwell[0]); i++)
		ok(!crashlog_is_fatal(unwell[i], strlen(unwell[i])), "not "
		    "dead for that: %s", unwell[i]);
	check_fate("linux-6.1-panic0.log", "SeaBIOS", CRASHLOG_STOPPED,
	    "panic=0 stays down");
	check_fate("linux-6.1-panic0.log", NULL, CRASHLOG_REBOOTING, "... "
	    "until reset: a boot follows");
	check_fate("linux-6.1-panic0.log", "[   42.108241]", CRASHLOG_UNKNOWN,
	    "not said yet, the trace on its way");
	check_fate("linux-6.1-panic1.log", "SeaBIOS", CRASHLOG_REBOOTING,
	    "panic=1 reboots by itself");
	check_fate("netbsd-10-ddb.log", ">> NetBSD", CRASHLOG_STOPPED,
	    "ddb waits at its prompt");
	check_fate("netbsd-10-rebooting.log", ">> NetBSD", CRASHLOG_REBOOTING,
	    "ddb.onpanic=0 reboots");
	is_int(crashlog_fate("[ 1.0] booting\nlogin: \n", 22), CRASHLOG_SILENT,
	    "a calm log says nothing of a crash");
}

static void
test_store_append(void)
{
	struct store *st = NULL;
	struct store_run run;
	struct store_queue_item q;
	struct store_result r;
	struct store_output o;
	struct diaglist dl;
	char path[1200];
	int64_t id = 0;
	static const char part[] = "TINFO: waiting\n\0binary\n";

	diag_init(&dl);
	snprintf(path, sizeof(path), "%s/crash.db", tap_tmpdir());
	if (!ok(store_open(&st, path, STORE_CREATE, &dl) == STORE_OK,
	    "a store: %s", tap_first_diag(&dl)))
		return;
	memset(&run, 0, sizeof(run));
	memset(&q, 0, sizeof(q));
	q.tag = (char *)"pause01";
	q.syscall = q.cmdline = (char *)"";
	ok(store_run_begin(st, &run, &q, 1, &dl) == STORE_OK &&
	    store_test_start(st, run.id, "pause01", "pause", 0, &id, &dl) ==
	    STORE_OK, "a running test");
	memset(&r, 0, sizeof(r));
	r.tag = (char *)"pause01";
	r.status = TS_CRASH;
	r.exit_code = -1;
	is_int(store_test_finish(st, id, &r, part, sizeof(part) - 1, &dl),
	    STORE_OK, "a crash is stored with its output");
	is_int(store_output_append(st, id, "ltpscope: kernel (d): panic: z\n",
	    31, &dl), STORE_OK, "the kernel's words are appended");
	memset(&o, 0, sizeof(o));
	if (ok(store_get_output(st, id, &o, &dl) == STORE_OK, "read back")) {
		is_int((long long)o.stored_size, (long long)sizeof(part) - 1 +
		    31, "every byte is there");
		is_int(o.original_size, (long long)sizeof(part) - 1 + 31,
		    "the original size counts them");
		ok(memcmp(o.data, part, sizeof(part) - 1) == 0 &&
		    memcmp(o.data + sizeof(part) - 1, "ltpscope: kernel (d)",
		    20) == 0, "the test's bytes, then the kernel's");
	}
	store_output_clear(&o);
	memset(&r, 0, sizeof(r));
	ok(store_find_result(st, run.id, "pause01", &r, &dl) == STORE_OK &&
	    r.status == TS_CRASH, "the status reads back as crash");
	store_result_clear(&r);
	store_run_clear(&run);
	is_str(test_status_name(TS_CRASH), "crash", "its name");
	is_int(test_status_from_name("crash"), TS_CRASH, "... and back");
	is_int(TS_CRASH, 11, "stored as 11, after unknown");
	ok(test_status_is_bad(TS_CRASH), "a crash is bad");
	store_close(st);
	diag_free(&dl);
}

/* Appends s to the file at path. */
static void
add(const char *path, const char *s)
{
	FILE *fp = fopen(path, "a");

	if (fp == NULL)
		return;
	fputs(s, fp);
	fclose(fp);
}

/*
 * The task a crash happened in, from a watched console: named by
 * panic() after its line (not yet there when the line is: "wait"), or
 * by an oops before it; not from a warning long before.
 */
static void
test_culprit(void)
{
	struct crashlog_watch *w;
	char path[1024], line[200], comm[CRASHLOG_COMM];
	int i;

	snprintf(path, sizeof(path), "%s/console.log", tap_tmpdir());
	add(path, "[   26.1] ltpfake: start slow01\n"
	    "[   26.9] ltpfake: start kill11\n"
	    "[   27.3] sysrq: Trigger a crash\n"
	    "[   27.3] Kernel panic - not syncing: sysrq triggered crash\n");
	w = crashlog_watch_new(path, 0);
	ok(crashlog_watch_poll(w, line, sizeof(line)) && strcmp(line,
	    "Kernel panic - not syncing: sysrq triggered crash") == 0,
	    "the panic line: %s", line);
	ok(!crashlog_watch_culprit(w, comm, sizeof(comm)) && comm[0] == '\0',
	    "its task not named yet: wait");
	add(path, "[   27.3] CPU: 0 PID: 97 Comm: kill11 Not tainted "
	    "6.1.0-57-amd64 #1  Debian 6.1.158-1\n"
	    "[   27.3] Hardware name: QEMU Standard PC\n");
	ok(crashlog_watch_culprit(w, comm, sizeof(comm)) &&
	    strcmp(comm, "kill11") == 0, "then named: %s", comm);
	crashlog_watch_free(w);

	/* An oops names it before; the panic's end closes the words. */
	(void)remove(path);
	add(path, "[    5.0] CPU: 0 PID: 40 Comm: old_warning Not tainted\n");
	for (i = 0; i < CRASHLOG_SPAN + 2; i++)
		add(path, "[    6.0] ltpfake: start something\n");
	add(path, "[    9.0] BUG: kernel NULL pointer dereference\n"
	    "[    9.0] CPU: 0 PID: 51 Comm: averyverylongna Tainted: G\n"
	    "[    9.0] Kernel panic - not syncing: Fatal exception\n"
	    "[    9.0] ---[ end Kernel panic - not syncing: Fatal exception "
	    "]---\n");
	w = crashlog_watch_new(path, 0);
	ok(crashlog_watch_poll(w, line, sizeof(line)), "an oops's panic");
	ok(crashlog_watch_culprit(w, comm, sizeof(comm)) &&
	    strcmp(comm, "averyverylongna") == 0,
	    "the oops's task, named before: %s", comm);
	crashlog_watch_free(w);

	(void)remove(path);
	add(path, "[    5.0] CPU: 0 PID: 40 Comm: old_warning Not tainted\n");
	for (i = 0; i < CRASHLOG_SPAN + 2; i++)
		add(path, "[    6.0] ltpfake: start something\n");
	add(path, "[    9.0] Kernel panic - not syncing: VFS: no root\n"
	    "[    9.0] ---[ end Kernel panic - not syncing: VFS ]---\n");
	w = crashlog_watch_new(path, 0);
	ok(crashlog_watch_poll(w, line, sizeof(line)) &&
	    crashlog_watch_culprit(w, comm, sizeof(comm)) && comm[0] == '\0',
	    "no task named near the panic: none ('%s')", comm);
	crashlog_watch_free(w);
}

int
main(void)
{
	test_words();
	test_culprit();
	test_block();
	test_consoles();
	test_fate();
	test_store_append();
	return tap_done();
}
