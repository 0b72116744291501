/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "make check" from a clone in a directory no other user may enter, as
 * root's home is (0700) on NetBSD and many other systems: the checks
 * that run ltpscope as another user must pass there as anywhere else.
 * A whole nested "make check" would take minutes, so a copy of what
 * those checks need of the built tree (ltpscope, its data, the fake LTP
 * tests, the fixtures, test_faults itself) goes into such a directory
 * and runs test_faults' read-only checks, the ones that run as nobody.
 * They need root to switch users: without it this SKIPs.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

#define NOBODY		65534
/* test_faults' first check, which nobody's ltpscope must get to. */
#define PASSED		"ok 1 - a database nobody may write: run fails"

int
main(void)
{
	char priv[512], tree[600], cmd[8192], *out;
	const char *faults, *bin;
	struct stat st;
	int status;

	if (geteuid() != 0) {
		ok(1, "# SKIP a private clone: switching to nobody needs root");
		return tap_done();
	}
	faults = getenv("LTPSCOPE_ASAN") != NULL ? "test_faults.asan" :
	    "test_faults";
	bin = strrchr(tap_bin(), '/') + 1;	/* tap_bin() is absolute */
	snprintf(priv, sizeof(priv), "%s/private", tap_tmpdir());
	snprintf(tree, sizeof(tree), "%s/ltpscope", priv);
	snprintf(cmd, sizeof(cmd), "mkdir -m 0700 '%s' && "
	    "mkdir -p '%s/tests/fixtures' '%s/tests/ltpfake' && "
	    "cp '%s' '%s' && cp -R data themes '%s' && "
	    "cp tests/%s '%s/tests' && "
	    "cp -R tests/fixtures/linux '%s/tests/fixtures' && "
	    "cp -R tests/ltpfake/bin '%s/tests/ltpfake'", priv, tree, tree,
	    tap_bin(), tree, tree, faults, tree, tree, tree);
	if (!ok(system(cmd) == 0, "the built tree copied into %s", priv))
		return tap_done();
	ok(stat(priv, &st) == 0 && (st.st_mode & 0777) == 0700 &&
	    tap_user_access(NOBODY, NOBODY, tree, X_OK) == 1,
	    "  which is 0700: nobody cannot enter it");

	/* Its own temporary directory where others may enter, as usual. */
	snprintf(cmd, sizeof(cmd), "cd '%s' && TMPDIR='%s' LTPSCOPE_BIN=./%s "
	    "tests/%s readonly", tree, tap_tmpbase(), bin, faults);
	out = tap_run(cmd, &status, 1);
	is_int(status, 0, "%s readonly passes from there", faults);
	ok(out != NULL && strstr(out, "not ok ") == NULL &&
	    strstr(out, "\n1..") != NULL, "  every check of it");
	ok(out != NULL && (strncmp(out, PASSED, strlen(PASSED)) == 0 ||
	    (strstr(out, "\n" PASSED) != NULL)), "  nobody ran ltpscope, "
	    "not skipped");
	has_str(out, "  the database is unchanged", "  to the end");
	if (status != 0 || strstr(out, "not ok ") != NULL)
		tap_diag("%s", out != NULL ? out : "(no output)");
	free(out);
	return tap_done();
}
