/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * From a syscall to its NetBSD kernel function in the explorer: K on
 * fcntl in the catalogue (and on fcntl35, a test of it) shows the
 * made-up tree's linux_file.c (tests/fixtures/ksrc) with the line of
 * linux_sys_fcntl marked; F opens it in $VISUAL at that line; the
 * config's kernel-src names the tree as --kernel-src does.  Without a
 * tree, K says where it looked and how to name one.
 *
 * And no test reads the host's /usr/src: the harness pins the default
 * tree (tap.c), which func and the explorer then name.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "tmux.h"

#define KSRC	"tests/fixtures/ksrc"
#define LFILE	"sys/compat/linux/common/linux_file.c"
#define MASTER	KSRC "/linux-amd64-syscalls.master"

static char	cwd[1024];
static char	root[1200];
static char	marked[256];	/* ">78 linux_sys_fcntl(", as drawn */
static unsigned long fline;	/* linux_sys_fcntl's line */

/* The line of path that starts with text, and how many lines it has. */
static unsigned long
line_of(const char *path, const char *text, unsigned long *nlines)
{
	char buf[512];
	unsigned long n = 0, at = 0;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(buf, sizeof(buf), f) != NULL) {
		n++;
		if (at == 0 && strncmp(buf, text, strlen(text)) == 0)
			at = n;
	}
	(void)fclose(f);
	*nlines = n;
	return at;
}

static void
setup(void)
{
	static const char *const fakes[] = { "pass", NULL };
	char path[2048];
	unsigned long n = 0;
	int w = 1;

	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	tap_fake_ltproot(root, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", root);
	tap_write(path, "fcntl35 pass\n");
	fline = line_of(KSRC "/" LFILE, "linux_sys_fcntl(", &n);
	for (; n >= 10; n /= 10)
		w++;
	/* As the source view draws it: the mark, the number, the line. */
	snprintf(marked, sizeof(marked), ">%*lu linux_sys_fcntl(", w, fline);
}

/* The catalogue filtered down to fcntl. */
static void
to_fcntl(void)
{
	tmux_keys("/");
	tmux_keys("-l '^fcntl$'");
	tmux_keys("Enter");
	(void)tmux_wait_for("/^fcntl$", 5000);
}

static void
test_catalogue(void)
{
	char args[4096], title[512];

	snprintf(args, sizeof(args), "-L %s -m %s/%s -d %s/kf.db "
	    "--kernel-src %s/%s", root, cwd, MASTER, tap_tmpdir(), cwd, KSRC);
	if (!ok(tmux_explorer(args, 120, 40) == 0, "opens with a tree")) {
		tap_diag("%s", tmux_screen());
		tmux_stop();
		return;
	}
	to_fcntl();
	tmux_keys("K");
	ok(tmux_wait_for("linux_sys_fcntl(struct lwp", 8000),
	    "K on fcntl shows its kernel function");
	has_str(tmux_line("linux_sys_fcntl(struct lwp"), marked,
	    "the line of its definition marked");
	snprintf(title, sizeof(title), "%s:%lu linux_sys_fcntl (fcntl)",
	    LFILE, fline);
	has_str(tmux_screen(), title, "the title names file, line, function");
	has_str(tmux_screen(), "const struct linux_sys_fcntl_args *uap",
	    "the lines after it in view");
	tmux_keys("/");
	tmux_keys("-l 'retval'");
	tmux_keys("Enter");
	ok(tmux_wait_for("retval)", 5000) &&
	    strstr(tmux_screen(), "linux_sys_fcntl(struct lwp") == NULL,
	    "/ in it shows the lines that match");
	tmux_keys("Escape h");
	ok(tmux_wait_gone("linux_file.c", 5000), "h goes back");
	has_str(tmux_line("linux_sys_fcntl"), "fcntl",
	    "to the catalogue's fcntl");

	/* On a test: the function of the syscall it tests. */
	tmux_keys("Enter");
	ok(tmux_wait_for("tests of fcntl", 5000), "fcntl's tests");
	tmux_keys("K");
	snprintf(title, sizeof(title), "%s:%lu linux_sys_fcntl (fcntl35 "
	    "(fcntl))", LFILE, fline);
	ok(tmux_wait_for(title, 5000), "K on fcntl35: fcntl's function");
	has_str(tmux_line("linux_sys_fcntl(struct lwp"), marked,
	    "its line marked");
	tmux_keys("Q");
	(void)tmux_wait_dead(10000);
	tmux_stop();
}

/* Waits up to ms for path to hold text; its content, or NULL. */
static char *
wait_file(const char *path, const char *text, int ms)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	char *s;

	for (; ms > 0; ms -= 50) {
		if ((s = tap_slurp(path, NULL)) != NULL) {
			if (strstr(s, text) != NULL)
				return s;
			free(s);
		}
		nanosleep(&ts, NULL);
	}
	return tap_slurp(path, NULL);
}

/*
 * F: $VISUAL (a script that notes its arguments) at the definition's
 * line; the tree from the config's kernel-src.
 */
static void
test_editor(void)
{
	char cmd[8192], ed[1300], note[1300], want[PATH_MAX + 64], cfg[1300];
	char real[PATH_MAX];
	const char *t = tap_tmpdir();
	char *s;

	snprintf(ed, sizeof(ed), "%s/editor", t);
	snprintf(note, sizeof(note), "%s/edited", t);
	snprintf(cmd, sizeof(cmd), "#!/bin/sh\necho \"$@\" > %s\n", note);
	tap_write(ed, cmd);
	chmod(ed, 0755);
	snprintf(cfg, sizeof(cfg), "%s/config/ltpscope", t);
	mkdir(cfg, 0755);
	snprintf(cfg, sizeof(cfg), "%s/config/ltpscope/config", t);
	snprintf(cmd, sizeof(cmd), "kernel-src %s/%s\n", cwd, KSRC);
	tap_write(cfg, cmd);
	snprintf(cmd, sizeof(cmd), "env HOME=%s XDG_DATA_HOME=%s/data "
	    "XDG_CONFIG_HOME=%s/config XDG_STATE_HOME=%s/state VISUAL=%s "
	    "%s -L %s -m %s/%s -d %s/kf.db", t, t, t, t, ed, tap_bin(), root,
	    cwd, MASTER, t);
	if (!ok(tmux_start(cmd, 120, 40) == 0 && tmux_wait_for("? help",
	    8000), "opens with VISUAL set, kernel-src in the config")) {
		tmux_stop();
		unlink(cfg);
		return;
	}
	to_fcntl();
	tmux_keys("F");
	if (realpath(KSRC "/" LFILE, real) == NULL)
		snprintf(real, sizeof(real), "%s/%s/%s", cwd, KSRC, LFILE);
	snprintf(want, sizeof(want), "+%lu %s", fline, real);
	s = wait_file(note, want, 8000);
	has_str(s != NULL ? s : "", want, "F: the editor at the definition");
	free(s);
	ok(tmux_wait_for("/^fcntl$", 5000), "the explorer's screen is back");
	tmux_keys("K");
	ok(tmux_wait_for("linux_sys_fcntl(struct lwp", 5000),
	    "K: the config's kernel-src names the tree");
	tmux_keys("Q");
	(void)tmux_wait_dead(10000);
	tmux_stop();
	unlink(cfg);
}

static void
test_notree(void)
{
	char args[4096], want[1300], empty[1300];

	/* No tree given: the default, which the harness pins. */
	snprintf(args, sizeof(args), "-L %s -m %s/%s -d %s/kf.db", root, cwd,
	    MASTER, tap_tmpdir());
	if (!ok(tmux_explorer(args, 200, 40) == 0, "opens without a tree")) {
		tmux_stop();
		return;
	}
	to_fcntl();
	tmux_keys("K");
	snprintf(want, sizeof(want), "no NetBSD kernel source in %s/"
	    "no-kernel-src", tap_tmpdir());
	ok(tmux_wait_for(want, 5000), "K says where it looked");
	has_str(tmux_screen(), "--kernel-src DIR or \"kernel-src DIR\" in "
	    "the config", "and how to name a tree");
	ok(tmux_alive(), "and goes on");
	tmux_keys("Q");
	(void)tmux_wait_dead(10000);
	tmux_stop();

	/* A tree without the function. */
	snprintf(empty, sizeof(empty), "%s/emptyk/sys/kern", tap_tmpdir());
	snprintf(args, sizeof(args), "mkdir -p %s", empty);
	ok(system(args) == 0, "a tree with nothing in it");
	snprintf(args, sizeof(args), "-L %s -m %s/%s -d %s/kf.db "
	    "--kernel-src %s/emptyk", root, cwd, MASTER, tap_tmpdir(),
	    tap_tmpdir());
	if (!ok(tmux_explorer(args, 200, 40) == 0, "opens on it")) {
		tmux_stop();
		return;
	}
	to_fcntl();
	tmux_keys("K");
	ok(tmux_wait_for("fcntl: no definition of linux_sys_fcntl in ", 5000),
	    "K says the function is not there");
	has_str(tmux_screen(), "/emptyk/sys/{compat/linux,",
	    "and which directories it looked in");
	tmux_keys("Q");
	(void)tmux_wait_dead(10000);
	tmux_stop();
}

/* func and export without --kernel-src: the pinned tree, not /usr/src. */
static void
test_pinned(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char want[1300];

	snprintf(want, sizeof(want), "%s/no-kernel-src/sys/kern",
	    tap_tmpdir());
	tap_cmd(&r, "func -d %s/kf.db -m %s fcntl", tap_tmpdir(), MASTER);
	is_int(r.status, 1, "func without a tree: exit 1");
	has_str(r.err, want, "it looked in the harness's pinned tree");
	ok(strstr(r.err, "/usr/src") == NULL, "not in /usr/src");
	tap_cmd(&r, "func -d %s/kf.db -m %s --kernel-src %s fcntl",
	    tap_tmpdir(), MASTER, KSRC);
	is_int(r.status, 0, "func with the tree: exit 0");
	tap_cmd_free(&r);
}

int
main(void)
{
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	setup();
	test_pinned();
	test_catalogue();
	test_editor();
	test_notree();
	return tap_done();
}
