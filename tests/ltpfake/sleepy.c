/* SPDX-License-Identifier: BSD-2-Clause */
/* LTP-like test that takes its time: "sleepy MS" sleeps, then passes. */
#include <stdlib.h>
#include <time.h>

#include "ltpfake.h"

int
main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 100;
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1)
		;
	fake_header();
	fake_res("sleepy01.c", 17, "TPASS", "slept %ld ms", ms);
	return fake_summary();
}
