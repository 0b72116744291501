/* SPDX-License-Identifier: BSD-2-Clause */
/* LTP-like test that hangs: one line, then sleeps until killed. */
#include <unistd.h>

#include "ltpfake.h"

int
main(void)
{
	fake_header();
	fake_res("hang01.c", 12, "TINFO", "waiting for a signal that "
	    "never comes");
	for (;;)
		pause();
}
