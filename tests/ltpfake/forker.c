/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test that leaves a crowd behind: "forker N" forks N children
 * that sleep (an hour, or until killed) and exits at once, passing; the
 * runner must kill them all and end the test promptly.
 */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "ltpfake.h"

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 500, i, made = 0;

	fake_header();
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			(void)sleep(3600);
			_exit(0);
		}
		made += pid > 0;
	}
	fake_res("forker01.c", 21, made == n ? "TPASS" : "TBROK",
	    "forked %d of %d children", made, n);
	return fake_summary();
}
