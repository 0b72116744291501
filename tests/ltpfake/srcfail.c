/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test whose failure names a line of its source, as fcntl35
 * does: tests/fixtures/ltp-src holds a made-up fcntl35.c with that
 * line, for the way from the output to the source.
 */
#include "ltpfake.h"

int
main(void)
{
	fake_header();
	fake_res("fcntl35.c", 85, "TPASS", "an unprivileged user init the "
	    "capacity of a pipe to 4096 successfully");
	fake_res("fcntl35.c", 81, "TFAIL", "a privileged user init the "
	    "capacity of a pipe to 4096 unexpectedly, expected 65536");
	return fake_summary();
}
