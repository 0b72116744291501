/* SPDX-License-Identifier: BSD-2-Clause */
/* LTP-like test that breaks: new-library output, exit 2. */
#include "ltpfake.h"

int
main(void)
{
	fake_res("tst_tmpdir.c", 135, "TBROK", "You must specify an "
	    "absolute pathname for environment variable TMPDIR");
	return fake_summary();
}
