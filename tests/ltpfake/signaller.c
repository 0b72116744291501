/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test that signals its children and exits without reaping
 * them, as kill06, kill08, kill10 and setrlimit01 do: "signaller MODE
 * N" forks N children that wait in pause(), then
 *	kill	sends each SIGKILL,
 *	term	sends each SIGTERM (default action),
 *	catch	sends each SIGUSR1, which they catch and exit from after
 *		a few milliseconds' work,
 *	leave	sends nothing: they stay, really left behind,
 * and exits at once, passing.  Only "leave" leaves anything running.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpfake.h"

static void
on_usr1(int sig)
{
	struct timespec t0, t;

	(void)sig;
	/* Busy, not asleep: on its way out, yet still running. */
	(void)clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		(void)clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 +
	    (t.tv_nsec - t0.tv_nsec) / 1000000 < 20);
	_exit(0);
}

int
main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "kill";
	int n = argc > 2 ? atoi(argv[2]) : 3, i, sig = 0;
	pid_t pid[64];
	struct sigaction sa;
	struct timespec nap;

	fake_header();
	if (n < 1 || n > 64)
		n = 3;
	if (strcmp(mode, "kill") == 0)
		sig = SIGKILL;
	else if (strcmp(mode, "term") == 0)
		sig = SIGTERM;
	else if (strcmp(mode, "catch") == 0)
		sig = SIGUSR1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	(void)sigaction(SIGUSR1, &sa, NULL);
	for (i = 0; i < n; i++)
		if ((pid[i] = fork()) == 0) {
			for (;;)
				(void)pause();
		}
	/* Each child in pause() before it is signalled, as LTP waits. */
	nap.tv_sec = 0;
	nap.tv_nsec = 50 * 1000 * 1000;
	(void)nanosleep(&nap, NULL);
	for (i = 0; i < n; i++)
		if (pid[i] > 0 && sig != 0)
			(void)kill(pid[i], sig);
	fake_res("kill06.c", 61, "TPASS", "%s: signalled %d children, "
	    "not reaped", mode, sig != 0 ? n : 0);
	for (i = 0; i < n; i++)
		fake_res("kill06.c", 64, "TINFO", "child %ld", (long)pid[i]);
	return fake_summary();
}
