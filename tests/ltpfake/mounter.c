/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test that mounts in its TMPDIR and hangs, as dirtyc0w_shmem
 * did when killed at the timeout before its cleanup: a tmpfs with a
 * file in it and a tmpfs mounted inside that one, and a bind mount of
 * the directory argv[1] (null mount on the BSDs).  The runner must
 * unmount them and never delete what argv[1] holds.  "mounter -"
 * mounts an empty tmpfs on TMPDIR itself instead.  Uses mount(8),
 * since mount(2) differs between the systems; without it (not root,
 * or mounting refused) the test ends with TCONF and the reason.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpfake.h"

/* Runs mount(8) with args (NULL-terminated); 0 if it succeeded. */
static int
run_mount(char *const args[])
{
	static const char *const where[] = { "/sbin/mount", "/bin/mount",
	    "/usr/sbin/mount", "/usr/bin/mount" };
	size_t i;
	pid_t pid;
	int st, fd;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		if ((fd = open("/dev/null", O_WRONLY)) >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		for (i = 0; i < sizeof(where) / sizeof(where[0]); i++)
			execv(where[i], args);
		execvp("mount", args);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) == -1)
		return -1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

static int
conf(const char *why)
{
	fake_res("mounter.c", 40, "TCONF", "%s", why);
	return fake_summary();
}

int
main(int argc, char **argv)
{
	char *tmpfs[] = { "mount", "-t", "tmpfs", "tmpfs", "tmpfs", NULL };
	char *nested[] = { "mount", "-t", "tmpfs", "tmpfs", "tmpfs/nested",
	    NULL };
	char *bind[] = { "mount", "--bind", argv[1], "bind", NULL };
	char *null[] = { "mount", "-t", "null", argv[1], "bind", NULL };
	const char *tmp = getenv("TMPDIR");
	FILE *fp;

	printf("TMPDIR=%s\n", tmp != NULL ? tmp : "(unset)");
	fflush(stdout);
	fake_header();
	if (argc < 2)
		return conf("usage: mounter directory-to-bind-mount");
	if (geteuid() != 0)
		return conf("mounting needs root");
	if (strcmp(argv[1], "-") == 0) {
		char *top[] = { "mount", "-t", "tmpfs", "tmpfs", (char *)tmp,
		    NULL };

		if (tmp == NULL || run_mount(top) == -1)
			return conf("mount -t tmpfs on TMPDIR refused");
		fake_res("mounter.c", 60, "TINFO", "mounted a tmpfs on "
		    "TMPDIR; waiting for a signal that never comes");
		for (;;)
			pause();
	}
	if (mkdir("tmpfs", 0755) == -1 || mkdir("bind", 0755) == -1)
		return conf("mkdir failed");
	if (run_mount(tmpfs) == -1)
		return conf("mount -t tmpfs refused");
	if ((fp = fopen("tmpfs/inside", "w")) != NULL) {
		fputs("on the tmpfs\n", fp);
		fclose(fp);
	}
	if (mkdir("tmpfs/nested", 0755) == -1 || run_mount(nested) == -1)
		return conf("mount of a tmpfs on a tmpfs refused");
	if (run_mount(bind) == -1 && run_mount(null) == -1)
		return conf("bind mount refused");
	fake_res("mounter.c", 70, "TINFO", "mounted tmpfs, tmpfs/nested "
	    "and bind; waiting for a signal that never comes");
	for (;;)
		pause();
}
