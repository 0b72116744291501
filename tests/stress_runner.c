/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Not a unit test: a stress run for the runner's end-of-output logic
 * (make stress).  Runs tests/ltpfake/bin/burst through runner_run()
 * many times from several processes at once, with the CPUs busy, and
 * counts the runs whose output did not end with the burst's last line.
 * The race it hunts (a pty answering EIO before the last bytes a test
 * wrote are readable) showed about once in a thousand runs, so a few
 * thousand runs per mode are needed before "0 lost" means something.
 *
 * Usage: stress_runner [RUNS [WORKERS]]   (default 4000 runs, 4 workers)
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/diag.h"
#include "ltpscope/runner.h"

struct tail {
	char	last[64];
	size_t	len;
};

static void
keep_tail(void *arg, const char *buf, size_t len)
{
	struct tail *t = arg;

	if (len >= sizeof(t->last)) {
		memcpy(t->last, buf + len - sizeof(t->last), sizeof(t->last));
		t->len = sizeof(t->last);
		return;
	}
	if (t->len + len > sizeof(t->last)) {
		size_t drop = t->len + len - sizeof(t->last);

		memmove(t->last, t->last + drop, t->len - drop);
		t->len -= drop;
	}
	memcpy(t->last + t->len, buf, len);
	t->len += len;
}

static int
ends_right(const struct tail *t)
{
	static const char end[] = "burst: END\n";

	return t->len >= sizeof(end) - 1 && memcmp(t->last + t->len -
	    (sizeof(end) - 1), end, sizeof(end) - 1) == 0;
}

/*
 * One worker: n runs of each command; writes to fd, for each command,
 * how many runs lost the end of their output, then how many ran.
 */
static void
worker(int n, int use_pipe, const char *const *cmds, int ncmds, int fd)
{
	int lost[16] = { 0 }, done[16] = { 0 }, counts[32];
	struct runner_spares *sp = runner_spares_new();
	struct runner_opts o;
	struct runner_result res;
	struct diaglist dl;
	struct tail t;
	int i, k;

	diag_init(&dl);
	memset(&o, 0, sizeof(o));
	o.use_pipe = use_pipe;
	o.spares = sp;
	o.output = keep_tail;
	o.output_arg = &t;
	o.kconfig = "";
	for (i = 0; i < n; i++)
		for (k = 0; k < ncmds; k++) {
			memset(&t, 0, sizeof(t));
			if (runner_run(&o, cmds[k], &res, &dl) != 0) {
				diag_print(&dl, stderr, "stress_runner");
				_exit(2);
			}
			lost[k] += !ends_right(&t);
			done[k]++;
		}
	memcpy(counts, lost, sizeof(lost));
	memcpy(counts + 16, done, sizeof(done));
	if (write(fd, counts, sizeof(counts)) != (ssize_t)sizeof(counts))
		_exit(2);
	runner_spares_free(sp);
	diag_free(&dl);
	_exit(0);
}

int
main(int argc, char **argv)
{
	static const char *const cmds[] = {
		"tests/ltpfake/bin/burst 40",
		"tests/ltpfake/bin/burst 400",
		"tests/ltpfake/bin/burst 40 fork",
	};
	enum { NCMDS = sizeof(cmds) / sizeof(cmds[0]) };
	int runs = argc > 1 ? atoi(argv[1]) : 4000;
	int workers = argc > 2 ? atoi(argv[2]) : 4;
	int lost[NCMDS], done[NCMDS], counts[32], pfd[2];
	int w, k, st, bad = 0, mode;
	pid_t hog, pids[64];

	if (runs < 1 || workers < 1 || workers > 64 || pipe(pfd) == -1) {
		fprintf(stderr, "usage: stress_runner [RUNS [WORKERS]]\n");
		return 2;
	}
	/* A CPU hog, so that the kernel's work is delayed now and then. */
	if ((hog = fork()) == 0)
		for (;;)
			;
	for (mode = 0; mode < 2; mode++) {
		memset(lost, 0, sizeof(lost));
		memset(done, 0, sizeof(done));
		for (w = 0; w < workers; w++)
			if ((pids[w] = fork()) == 0)
				worker(runs / workers / NCMDS + 1, mode,
				    cmds, NCMDS, pfd[1]);
		for (w = 0; w < workers; w++) {
			if (waitpid(pids[w], &st, 0) != pids[w] ||
			    !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
				bad = 1;
				continue;
			}
			if (read(pfd[0], counts, sizeof(counts)) !=
			    (ssize_t)sizeof(counts)) {
				bad = 1;
				continue;
			}
			for (k = 0; k < NCMDS; k++) {
				lost[k] += counts[k];
				done[k] += counts[16 + k];
			}
		}
		for (k = 0; k < NCMDS; k++) {
			printf("stress_runner: %s, %-32s %5d runs, %d lost "
			    "the end of their output\n", mode ? "pipe" : "pty ",
			    cmds[k], done[k], lost[k]);
			bad |= lost[k] != 0;
		}
	}
	kill(hog, SIGKILL);
	(void)waitpid(hog, NULL, 0);
	return bad;
}
