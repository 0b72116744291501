/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Runs every test program named on the command line, echoes its TAP
 * output with the program's name, and ends with the one line CI reads:
 * "N passed, N failed" (", N skipped" when checks were skipped: those
 * of real material that is absent).  A program that crashes, exits
 * non-zero or emits a plan that does not match what it ran counts as a
 * failure too.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	char line[8192], cmd[4096];
	long passed = 0, failed = 0, skipped = 0;
	int i;

	for (i = 1; i < argc; i++) {
		long ran = 0, plan = -1, bad = 0;
		FILE *fp;
		int st;

		/* NAME=value sets the environment of the programs after it. */
		if (strchr(argv[i], '=') != NULL && argv[i][0] != '/' &&
		    argv[i][0] != '.') {
			char *eq = strchr(argv[i], '=');

			*eq = '\0';
			if (setenv(argv[i], eq + 1, 1) != 0)
				return 2;
			*eq = '=';
			continue;
		}
		printf("# %s\n", argv[i]);
		fflush(stdout);
		snprintf(cmd, sizeof(cmd), "%s 2>&1", argv[i]);
		if ((fp = popen(cmd, "r")) == NULL) {
			printf("not ok - %s: cannot run\n", argv[i]);
			failed++;
			continue;
		}
		while (fgets(line, sizeof(line), fp) != NULL) {
			fputs(line, stdout);
			if (strncmp(line, "ok ", 3) == 0) {
				ran++;
				if (strstr(line, " # SKIP") != NULL)
					skipped++;
				else
					passed++;
			} else if (strncmp(line, "not ok ", 7) == 0) {
				ran++;
				failed++;
				bad++;
			} else if (strncmp(line, "1..", 3) == 0)
				plan = strtol(line + 3, NULL, 10);
		}
		st = pclose(fp);
		if (!WIFEXITED(st) || (WEXITSTATUS(st) != 0 && bad == 0)) {
			printf("not ok - %s exited abnormally (status %#x)\n",
			    argv[i], st);
			failed++;
		} else if (plan != ran) {
			printf("not ok - %s planned %ld tests, ran %ld\n",
			    argv[i], plan, ran);
			failed++;
		}
		fflush(stdout);
	}
	printf("%ld passed, %ld failed", passed, failed);
	if (skipped > 0)
		printf(", %ld skipped", skipped);
	printf("\n");
	return failed != 0;
}
