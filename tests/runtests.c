/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Runs every test program named on the command line, echoes its TAP
 * output with the program's name, and ends with the one line CI reads:
 * "N passed, N failed" (", N skipped" when checks were skipped: those
 * of real material that is absent).  A program that crashes, exits
 * non-zero or emits a plan that does not match what it ran counts as a
 * failure too.
 *
 * -j N runs up to N programs at once.  Each one's output goes to a
 * file of its own and is echoed whole, in the order of the command
 * line, so the log reads the same however they interleaved.  Tests
 * keep to their own directories, tmux sockets and ports, and wait for
 * events rather than for time, so they may share the machine.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct prog {
	const char	*name;
	char		 out[256];	/* its output, a file */
	pid_t		 pid;
	int		 status;
	int		 done;
	time_t		 start, end;
};

static long passed, failed, skipped;

static pid_t
start(struct prog *p)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(p->out, sizeof(p->out), "%s/runtests.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if ((fd = mkstemp(p->out)) == -1)
		return -1;
	fflush(stdout);
	p->start = time(NULL);
	switch ((p->pid = fork())) {
	case -1:
		(void)close(fd);
		return -1;
	case 0:
		(void)dup2(fd, 1);
		(void)dup2(fd, 2);
		(void)close(fd);
		execl("/bin/sh", "sh", "-c", p->name, (char *)NULL);
		_exit(127);
	}
	(void)close(fd);
	return p->pid;
}

/* Echo one finished program's output and count its tests. */
static void
report(struct prog *p)
{
	char line[8192];
	long ran = 0, plan = -1, bad = 0;
	FILE *fp;

	printf("# %s\n", p->name);
	if ((fp = fopen(p->out, "r")) == NULL) {
		printf("not ok - %s: its output is lost: %s\n", p->name,
		    strerror(errno));
		failed++;
		return;
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
	fclose(fp);
	(void)unlink(p->out);
	if (!WIFEXITED(p->status) ||
	    (WEXITSTATUS(p->status) != 0 && bad == 0)) {
		printf("not ok - %s exited abnormally (status %#x)\n",
		    p->name, p->status);
		failed++;
	} else if (plan != ran) {
		printf("not ok - %s planned %ld tests, ran %ld\n",
		    p->name, plan, ran);
		failed++;
	}
	/* Where check's minutes go; information, never a verdict. */
	printf("# %s: %lld s\n", p->name, (long long)(p->end - p->start));
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	struct prog *progs;
	size_t nprogs = 0, next = 0, shown = 0, running = 0, i;
	long jobs = 1;
	int a = 1;

	if (argc > 2 && strcmp(argv[1], "-j") == 0) {
		if ((jobs = strtol(argv[2], NULL, 10)) < 1)
			jobs = 1;
		a = 3;
	}
	if ((progs = calloc((size_t)argc, sizeof(*progs))) == NULL)
		return 2;
	while (shown < nprogs || a < argc || running > 0) {
		/* Start what may start; NAME=value sets the environment. */
		while (a < argc && running < (size_t)jobs) {
			char *eq = strchr(argv[a], '=');

			if (eq != NULL && eq > argv[a] &&
			    strspn(argv[a], "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "abcdefghijklmnopqrstuvwxyz0123456789_") ==
			    (size_t)(eq - argv[a])) {
				*eq = '\0';
				if (setenv(argv[a], eq + 1, 1) != 0)
					return 2;
				*eq = '=';
				a++;
				continue;
			}
			progs[nprogs].name = argv[a++];
			if (start(&progs[nprogs]) == -1) {
				progs[nprogs].done = 1;
				progs[nprogs].status = 127 << 8;
			} else
				running++;
			nprogs++;
		}
		/* Echo, in order, every one that has ended. */
		while (shown < nprogs && progs[shown].done)
			report(&progs[shown++]);
		if (running == 0)
			continue;
		{
			pid_t pid;
			int st;

			while ((pid = wait(&st)) == -1 && errno == EINTR)
				;
			if (pid == -1)
				return 2;
			for (i = next; i < nprogs; i++)
				if (progs[i].pid == pid && !progs[i].done) {
					progs[i].status = st;
					progs[i].done = 1;
					progs[i].end = time(NULL);
					running--;
					break;
				}
			while (next < nprogs && progs[next].done)
				next++;
		}
	}
	printf("%ld passed, %ld failed", passed, failed);
	if (skipped > 0)
		printf(", %ld skipped", skipped);
	printf("\n");
	free(progs);
	return failed != 0;
}
