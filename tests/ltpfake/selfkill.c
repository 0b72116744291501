/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test that dies of a signal: "selfkill segv" (the default)
 * or "selfkill abrt".  No core file: it would only slow the run.
 */
#include <sys/resource.h>

#include <signal.h>
#include <string.h>

#include "ltpfake.h"

int
main(int argc, char **argv)
{
	struct rlimit rl = { 0, 0 };
	int sig = SIGSEGV;

	if (argc > 1 && strcmp(argv[1], "abrt") == 0)
		sig = SIGABRT;
	(void)setrlimit(RLIMIT_CORE, &rl);
	fake_header();
	fake_res("selfkill01.c", 20, "TINFO", "about to die of signal %d",
	    sig);
	signal(sig, SIG_DFL);
	raise(sig);
	return 99;
}
