/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A box's own files in the explorer, and the arch a box is filed
 * under.  The box is the tests' private sshd (sshd.h) with a fake LTP
 * install and a made-up syscalls.master of its own, and a uname of its
 * own in its PATH that plays a NetBSD evbarm board: uname -m says
 * evbarm for a 32- and a 64-bit arm alike, uname -p tells them apart.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sshd.h"
#include "tap.h"
#include "tmux.h"

static struct sshd_box box;
static char broot[1200];	/* the box's LTP install */
static char master[1300];	/* --box-master, %m in it */

/* The processor the box's uname -p names from now on. */
static void
set_processor(const char *proc)
{
	char path[1200];

	snprintf(path, sizeof(path), "%s/processor", box.dir);
	tap_write(path, proc);
}

static void
make_box(void)
{
	static const char *const fakes[] = { "pass", "fail", NULL };
	const char *t = tap_tmpdir();
	char path[1400];

	snprintf(broot, sizeof(broot), "%s/boxltp", t);
	tap_fake_ltproot(broot, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", broot);
	tap_write(path, "frobnicate01 pass\nfrobnicate02 fail\n");
	snprintf(path, sizeof(path), "%s/boxsrc", t);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/boxsrc/evbarm", t);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/boxsrc/evbarm/syscalls.master", t);
	tap_write(path, "\t$made-up evbarm table $\n%%\n"
	    "0\tSTD\t\t{ int|linux_sys||frobnicate(int fd); }\n"
	    "1\tUNIMPL\t\tfrobnicate2\n");
	snprintf(master, sizeof(master), "%s/boxsrc/%%m/syscalls.master", t);
	/* The box's sessions find box.dir/bin first (sshd.h). */
	snprintf(path, sizeof(path), "%s/bin", box.dir);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/bin/uname", box.dir);
	tap_write(path, "#!/bin/sh\n"
	    "case \"$1\" in\n"
	    "-m) echo evbarm ;;\n"
	    "-p) cat \"$HOME/processor\" ;;\n"
	    "*) exec /bin/uname \"$@\" ;;\n"
	    "esac\n");
	(void)chmod(path, 0755);
	set_processor("aarch64\n");
}

/* run --host on the box as a board whose uname -p says proc. */
static void
run_on_board(const char *db, const char *proc, const char *what)
{
	char *out;
	int st;

	set_processor(proc);
	out = tap_cli(&st, 1, "run -d %s -L %s --host %s --ssh-config %s "
	    "--box-master %s -s frobnicate --timeout 20 </dev/null", db,
	    broot, box.spec, box.config, master);
	if (!is_int(st, 1, "%s", what))
		tap_diag("%s", out != NULL ? out : "");
	free(out);
}

/*
 * run --host on an evbarm board: the run is filed under the processor,
 * so a 64- and a 32-bit board are two columns of the arch matrix.
 */
static void
test_arch(const char *db)
{
	char *out;
	int st;

	run_on_board(db, "aarch64\n", "a run on the 64-bit board (one test "
	    "fails)");
	run_on_board(db, "earmv7hf\n", "the same on the 32-bit one");
	out = tap_cli(&st, 0, "runs -d %s --format json", db);
	has_str(out, "\"arch\": \"aarch64\"", "the first run is aarch64's, "
	    "not evbarm's");
	has_str(out, "\"arch\": \"earmv7hf\"", "the second earmv7hf's");
	free(out);
	out = tap_cli(&st, 1, "compare -d %s --arch", db);
	is_int(st, 0, "compare --arch");
	if (!has_str(tap_line_of(out, "TEST "), "aarch64  earmv7hf", "... one "
	    "column for each board"))
		tap_diag("%s", out != NULL ? out : "");
	ok(out != NULL && strstr(out, "evbarm") == NULL, "... and none for "
	    "evbarm");
	free(out);
	set_processor("aarch64\n");
}

/*
 * ui with a host and neither -m nor -f: the catalogue and the tests
 * are the box's, read over ssh at start-up, and a run goes there.
 */
static void
test_ui(const char *db)
{
	const char *t = tap_tmpdir();
	char cfg[1300], cmd[8192], want[2048];
	FILE *fp;

	snprintf(cfg, sizeof(cfg), "%s/config", t);
	(void)mkdir(cfg, 0755);
	snprintf(cfg, sizeof(cfg), "%s/config/ltpscope", t);
	(void)mkdir(cfg, 0755);
	snprintf(cfg, sizeof(cfg), "%s/config/ltpscope/config", t);
	fp = fopen(cfg, "w");
	fprintf(fp, "host %s\nssh-config %s\nbox-master %s\n", box.spec,
	    box.config, master);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "env HOME=%s XDG_CONFIG_HOME=%s/config "
	    "XDG_DATA_HOME=%s/data XDG_STATE_HOME=%s/state %s ui -d %s -L %s",
	    t, t, t, t, tap_bin(), db, broot);
	if (!ok(tmux_start(cmd, 120, 30) == 0 && tmux_wait_for("syscalls,",
	    20000), "the explorer starts on a box")) {
		tap_diag("screen:\n%s", tmux_screen());
		tmux_stop();
		return;
	}
	snprintf(want, sizeof(want), "%s:%s/boxsrc/evbarm/syscalls.master",
	    box.spec, t);
	ok(tmux_wait_for(want, 5000), "the header names the box's table, "
	    "box-master from the config file");
	has_str(tmux_screen(), "frobnicate2", "the box's calls are listed");
	has_str(tmux_screen(), "2 syscalls,", "... only those");
	tmux_keys("T");
	if (!ok(tmux_wait_for("all tests of the LTP install: 2", 5000),
	    "T: the tests of the box's runtest file"))
		tap_diag("screen:\n%s", tmux_screen());
	tmux_keys("q g");
	tmux_keys("r");
	if (!ok(tmux_wait_for("finished: 1 pass, 1 fail", 30000), "r runs "
	    "frobnicate's tests on the box"))
		tap_diag("screen:\n%s", tmux_screen());
	tmux_keys("q");
	ok(tmux_wait_dead(5000), "q quits");
	tmux_stop();
}

int
main(void)
{
	char why[256], dir[1200], db[1300];

	snprintf(dir, sizeof(dir), "%s/box", tap_tmpdir());
	if (sshd_start(&box, dir, why, sizeof(why)) != 0) {
		ok(1, "# SKIP no test box: %s", why);
		return tap_done();
	}
	make_box();
	snprintf(db, sizeof(db), "%s/box.db", tap_tmpdir());
	test_arch(db);
	test_ui(db);
	sshd_stop(&box);
	return tap_done();
}
