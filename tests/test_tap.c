/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The harness itself: every test program starts in a clean environment
 * (tap.c), a layer loop visits the made-up material and then ../shared
 * or a SKIP, and tests/runtests counts a SKIP as neither pass nor fail.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

extern char **environ;

static int
below(const char *var, const char *dir)
{
	const char *v = getenv(var);

	return v != NULL && strncmp(v, dir, strlen(dir)) == 0 &&
	    v[strlen(dir)] == '/';
}

static void
check_env(void)
{
	static const char *const xdg[] = { "HOME", "XDG_CONFIG_HOME",
	    "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME" };
	const char *t = tap_tmpdir();
	struct stat st;
	size_t i;
	int stray = 0;

	for (i = 0; i < sizeof(xdg) / sizeof(xdg[0]); i++)
		ok(below(xdg[i], t) && stat(getenv(xdg[i]), &st) == 0 &&
		    S_ISDIR(st.st_mode), "%s is a directory of the test's own",
		    xdg[i]);
	ok(below("LTPROOT", t) && stat(getenv("LTPROOT"), &st) == -1,
	    "LTPROOT is pinned where no LTP is");
	for (i = 0; environ[i] != NULL; i++)
		if (strncmp(environ[i], "LTPSCOPE_", 9) == 0 &&
		    strncmp(environ[i], "LTPSCOPE_BIN=", 13) != 0 &&
		    strncmp(environ[i], "LTPSCOPE_ASAN=", 14) != 0 &&
		    strncmp(environ[i], "LTPSCOPE_SHARED=", 16) != 0 &&
		    strncmp(environ[i], "LTPSCOPE_MAN=", 13) != 0 &&
		    strncmp(environ[i], "LTPSCOPE_MEMCHECK=", 18) != 0 &&
		    strcmp(environ[i], "LTPSCOPE_KMSG=/dev/null") != 0 &&
		    strcmp(environ[i], "LTPSCOPE_TAINTED=/dev/null") != 0 &&
		    strncmp(environ[i], "LTPSCOPE_KERNEL_SRC=", 20) != 0) {
			tap_diag("stray %s", environ[i]);
			stray++;
		}
	is_int(stray, 0, "no LTPSCOPE_* setting of the user's");
	/* The host's kernel says nothing to a test: the harness pins it. */
	ok(getenv("LTPSCOPE_KMSG") != NULL &&
	    strcmp(getenv("LTPSCOPE_KMSG"), "/dev/null") == 0 &&
	    getenv("LTPSCOPE_TAINTED") != NULL &&
	    strcmp(getenv("LTPSCOPE_TAINTED"), "/dev/null") == 0,
	    "the kernel's messages and taint are pinned to /dev/null");
	/* Nor is the host's /usr/src a test's kernel tree (kindex.h). */
	ok(below("LTPSCOPE_KERNEL_SRC", t) &&
	    stat(getenv("LTPSCOPE_KERNEL_SRC"), &st) == -1,
	    "the default kernel tree is pinned where no tree is");
	ok(getenv("LTP_DEV") == NULL && getenv("KCONFIG_PATH") == NULL &&
	    getenv("NO_COLOR") == NULL, "no LTP_DEV, KCONFIG_PATH, NO_COLOR");
	ok(getenv("TMPDIR") != NULL && strcmp(getenv("TMPDIR"), t) == 0,
	    "TMPDIR is the test's directory");
}

/* A program run by the harness in a clean environment: it sees none. */
static void
check_child_env(const char *self)
{
	char cmd[2048], *out;
	int st;

	snprintf(cmd, sizeof(cmd), "LTPSCOPE_DB=/x.db LTPROOT=/opt/ltp "
	    "LTPSCOPE_KERNEL_SRC=/usr/src HOME=/root NO_COLOR=1 %s "
	    "--env-only", self);
	out = tap_run(cmd, &st, 1);
	is_int(st, 0, "a test program started with the user's settings");
	ok(strstr(out, "not ok") == NULL && strstr(out, "ok 1 ") != NULL,
	    "still sees a clean environment");
	if (strstr(out, "not ok") != NULL)
		tap_diag("%s", out);
	free(out);
}

static void
check_layers(void)
{
	int i, n = 0, real = 0;

	for (i = 0; tap_layer(i); i++) {
		n++;
		if (i == 0)
			ok(!tap_layer_real() && access(tap_shared_path(
			    "ltp/outputs/open01.txt"), R_OK) == 0,
			    "layer 0: the made-up material");
		else
			real = tap_layer_real();
	}
	is_int(n, tap_have_shared() ? 2 : 1, "layers visited");
	is_int(real, tap_have_shared(), "layer 1 is ../shared when there");
	ok(tap_layer_real(), "after the loop, ../shared is selected again");
}

/*
 * -j 2: the first program waits for a file only the second makes, so
 * it passes only when both run at once; the log keeps their order.
 */
static void
check_runtests_jobs(void)
{
	char cmd[2048], *out, *a, *b;
	int st;

	snprintf(cmd, sizeof(cmd), "tests/runtests -j 2 "
	    "\"for i in \\$(seq 1200); do [ -e %s/go ] && break; "
	    "sleep 0.1; done; [ -e %s/go ] && echo 'ok 1 - A' || "
	    "echo 'not ok 1 - A'; echo 1..1\" "
	    "\"touch %s/go; echo 'ok 1 - B'; echo 1..1\"",
	    tap_tmpdir(), tap_tmpdir(), tap_tmpdir());
	out = tap_run(cmd, &st, 1);
	is_int(st, 0, "runtests -j 2: two programs at once");
	has_str(out, "\n2 passed, 0 failed\n", "... both counted");
	a = strstr(out, "\nok 1 - A\n");
	b = strstr(out, "\nok 1 - B\n");
	ok(a != NULL && b != NULL && a < b,
	    "... and echoed in the command line's order");
	free(out);
}

static void
check_runtests(void)
{
	char *out;
	int st;

	out = tap_run("tests/runtests \"printf 'ok 1 - a\\nok 2 - b # SKIP "
	    "why\\nnot ok 3 - c\\n1..3\\n'\" \"printf 'ok 1 - d\\n1..1\\n'\"",
	    &st, 1);
	is_int(st, 1, "runtests: a failure fails the run");
	has_str(out, "\n2 passed, 1 failed, 1 skipped\n",
	    "a SKIP is counted apart, as neither");
	free(out);
	out = tap_run("tests/runtests \"printf 'ok 1 - a\\n1..1\\n'\"", &st, 1);
	is_int(st, 0, "runtests: passes");
	has_str(out, "\n1 passed, 0 failed\n", "no skip: the plain line");
	free(out);
	check_runtests_jobs();
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--env-only") == 0) {
		check_env();
		return tap_done();
	}
	check_env();
	check_child_env(argv[0]);
	check_layers();
	check_runtests();
	return tap_done();
}
