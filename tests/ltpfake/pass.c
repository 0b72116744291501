/* SPDX-License-Identifier: BSD-2-Clause */
/* LTP-like test that passes: new-library output, exit 0. */
#include "ltpfake.h"

int
main(void)
{
	fake_header();
	fake_res("pass01.c", 33, "TPASS", "getpid() returns %d", 3807);
	fake_res("pass01.c", 33, "TPASS", "getpid() returns %d", 3808);
	return fake_summary();
}
