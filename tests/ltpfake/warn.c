/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test that passes with a warning: exit 4 (TWARN).  The
 * warning is tst_kconfig's, the box's (no kernel config); "warn own"
 * adds one of the test's own, as a close() that failed in cleanup.
 */
#include <string.h>

#include "ltpfake.h"

int
main(int argc, char **argv)
{
	fake_res("tst_kconfig.c", 42, "TWARN",
	    "KCONFIG_PATH='/nonexistent/config' does not exist");
	fake_header();
	fake_res("warn01.c", 56, "TPASS", "sticky bit is set as expected");
	if (argc > 1 && strcmp(argv[1], "own") == 0)
		fake_res("warn01.c", 71, "TWARN", "close(3) failed: EBADF");
	return fake_summary();
}
