/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test that closes its output and goes on: "closer MS" prints
 * one line, closes stdout and stderr, sleeps MS (default 1000) and
 * exits 0; the runner must not take the closed output for the end.
 * The file named by a second argument, if any, is created at the end.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ltpfake.h"

int
main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 1000;
	struct timespec ts;

	fake_header();
	fake_res("closer01.c", 19, "TINFO", "closing stdout and stderr");
	fflush(NULL);
	(void)close(STDOUT_FILENO);
	(void)close(STDERR_FILENO);
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1)
		;
	if (argc > 2)
		(void)close(open(argv[2], O_WRONLY | O_CREAT, 0644));
	return 0;
}
