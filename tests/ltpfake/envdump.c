/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Prints what a test sees of the runner's setup: LTPROOT, PATH,
 * TMPDIR, KCONFIG_PATH, LTP_COLORIZE_OUTPUT, the working directory,
 * whether stdout is a tty, and the session/group ids.  "envdump mess"
 * also leaves a hard-to-remove tree in TMPDIR, as careless tests do:
 * directories without permissions, a read-only file, a link to /.
 * "envdump kconfig" also prints the first line of the KCONFIG_PATH
 * file, as the test reads it where it runs.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
show(const char *name)
{
	const char *v = getenv(name);

	printf("%s=%s\n", name, v != NULL ? v : "(unset)");
}

static int
mess(void)
{
	FILE *fp;

	if (mkdir("mess", 0755) == -1 || mkdir("mess/a", 0755) == -1 ||
	    mkdir("mess/a/b", 0755) == -1 || mkdir("mess/a/b/c", 0755) == -1)
		return -1;
	if ((fp = fopen("mess/a/b/c/file", "w")) == NULL)
		return -1;
	fputs("data\n", fp);
	fclose(fp);
	if (symlink("/", "mess/root") == -1)
		return -1;
	chmod("mess/a/b/c/file", 0400);
	chmod("mess/a/b/c", 0500);
	chmod("mess/a/b", 0);
	chmod("mess/a", 0500);
	return 0;
}

static void
kconfig_first(void)
{
	const char *path = getenv("KCONFIG_PATH");
	char line[256] = "(unreadable)";
	FILE *fp;

	if (path != NULL && (fp = fopen(path, "r")) != NULL) {
		if (fgets(line, sizeof(line), fp) == NULL)
			snprintf(line, sizeof(line), "(empty)");
		line[strcspn(line, "\n")] = '\0';
		fclose(fp);
	}
	printf("kconfig_first=%s\n", line);
}

int
main(int argc, char **argv)
{
	char cwd[PATH_MAX];

	show("LTPROOT");
	show("PATH");
	show("TMPDIR");
	show("KCONFIG_PATH");
	show("LTP_COLORIZE_OUTPUT");
	show("LTP_TIMEOUT_MUL");
	show("LTP_DEV");
	show("LTP_REPRODUCIBLE_OUTPUT");
	show("LTPSCOPE_EXTRA");		/* runner_opts.env_extra */
	printf("cwd=%s\n", getcwd(cwd, sizeof(cwd)) ? cwd : "(unknown)");
	printf("isatty=%d\n", isatty(STDOUT_FILENO));
	printf("stdin_isatty=%d\n", isatty(STDIN_FILENO));
	printf("pid=%ld sid=%ld\n", (long)getpid(), (long)getsid(0));
	if (argc > 1 && strcmp(argv[1], "mess") == 0)
		printf("mess=%s\n", mess() == 0 ? "made" : "failed");
	if (argc > 1 && strcmp(argv[1], "kconfig") == 0)
		kconfig_first();
	return 0;
}
