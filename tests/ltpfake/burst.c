/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Writes a burst of LTP-like lines, one write(2) each, and exits at once:
 * its last line, "burst: END", is what a runner that stops reading too
 * early loses.  "burst N" writes N lines (default 40); "burst N fork"
 * has a child write them and the leader exit right after the child.
 */
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
burst(int n)
{
	char line[128];
	int i, len;

	for (i = 0; i < n; i++) {
		len = snprintf(line, sizeof(line), "burst.c:%d: TINFO: line %d "
		    "of a burst written just before the exit\n", 20 + i, i);
		(void)write(STDOUT_FILENO, line, (size_t)len);
	}
	(void)write(STDOUT_FILENO, "burst: END\n", 11);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 40;
	pid_t pid;

	if (argc > 2 && strcmp(argv[2], "fork") == 0) {
		if ((pid = fork()) == 0) {
			burst(n);
			_exit(0);
		}
		(void)waitpid(pid, NULL, 0);
		return 0;
	}
	burst(n);
	return 0;
}
