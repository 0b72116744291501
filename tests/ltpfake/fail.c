/* SPDX-License-Identifier: BSD-2-Clause */
/* LTP-like test with a failure: new-library output, exit 1. */
#include "ltpfake.h"

int
main(void)
{
	fake_header();
	fake_res("fail01.c", 85, "TPASS",
	    "an unprivileged user init the capacity of a pipe to 4096 "
	    "successfully");
	fake_res("fail01.c", 81, "TFAIL",
	    "a privileged user init the capacity of a pipe to 4096 "
	    "unexpectedly, expected 65536");
	fprintf(stderr, "\nHINT: You _MAY_ be missing kernel fixes:\n\n"
	    "https://git.kernel.org/pub/scm/linux/kernel/git/torvalds/"
	    "linux.git/commit/?id=086e774a57fba4695f14383c0818994c0b31da7c\n");
	return fake_summary();
}
