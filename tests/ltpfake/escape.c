/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test whose child escapes: "escape [pgrp|setsid|nest]
 * [exit|hang] [seconds]".  The child moves to a process group of its
 * own (pgrp, the default, as LTP tests do) or a session of its own
 * (setsid), says so, and sleeps (60 s by default).  With nest, the
 * child (in its own group) also starts a grandchild that leaves the
 * session; only its parent links it to the test.  The parent exits at once (exit, the
 * default) or hangs.  Killing the child's process group misses it.
 */
#include <sys/types.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpfake.h"

int
main(int argc, char **argv)
{
	int use_setsid = argc > 1 && strcmp(argv[1], "setsid") == 0;
	int nest = argc > 1 && strcmp(argv[1], "nest") == 0;
	int hang = argc > 2 && strcmp(argv[2], "hang") == 0;
	unsigned int secs = argc > 3 ? (unsigned int)atoi(argv[3]) : 60;
	int sync[2];
	pid_t pid;
	char c;

	fake_header();
	if (pipe(sync) == -1)
		return 2;
	if ((pid = fork()) == -1)
		return 2;
	if (pid == 0) {
		if (use_setsid)
			(void)setsid();
		else
			(void)setpgid(0, 0);
		fake_res("escape01.c", 40, "TINFO",
		    "child %ld in group %ld session %ld", (long)getpid(),
		    (long)getpgrp(), (long)getsid(0));
		if (nest && fork() == 0) {
			(void)setsid();
			fake_res("escape01.c", 46, "TINFO",
			    "grandchild %ld in session %ld", (long)getpid(),
			    (long)getsid(0));
			(void)write(sync[1], "x", 1);
			while (secs > 0)
				secs = sleep(secs);
			_exit(0);
		}
		if (!nest)
			(void)write(sync[1], "x", 1);
		close(sync[1]);
		/* sleep() may end early on a stray signal: keep sleeping. */
		while (secs > 0)
			secs = sleep(secs);
		_exit(0);
	}
	close(sync[1]);
	(void)read(sync[0], &c, 1);	/* it has left the group */
	fake_res("escape01.c", 52, "TPASS", "parent %ld done",
	    (long)getpid());
	if (hang)
		for (;;)
			pause();
	return fake_summary();
}
