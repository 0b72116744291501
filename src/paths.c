/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Locating ltpscope's own files (see paths.h).
 */
#include <sys/stat.h>
#include <sys/utsname.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/paths.h"
#include "ltpscope/xmalloc.h"

#ifndef LTPSCOPE_DATADIR
#define LTPSCOPE_DATADIR "/usr/local/share/ltpscope"
#endif

#if COMPAT_HAVE_LINUX_UNISTD
static const char *const paths_unistd[] = {
	"/usr/include/x86_64-linux-gnu/asm/unistd_64.h",
	"/usr/include/asm/unistd_64.h",
	NULL
};
#endif

static char	paths_bindir[1024];
static char	paths_argv0[1024];

const char *
paths_ltproot(const char *dir)
{
	const char *env;

	if (dir != NULL)
		return dir;
	if ((env = getenv("LTPROOT")) != NULL && *env != '\0')
		return env;
	return PATHS_LTPROOT;
}

void
paths_init(const char *argv0)
{
	const char *slash;

	compat_strlcpy(paths_argv0, argv0 != NULL ? argv0 : "ltpscope",
	    sizeof(paths_argv0));
	if (argv0 == NULL || (slash = strrchr(argv0, '/')) == NULL) {
		paths_bindir[0] = '\0';
		return;
	}
	if (slash == argv0)
		compat_strlcpy(paths_bindir, "/", sizeof(paths_bindir));
	else
		snprintf(paths_bindir, sizeof(paths_bindir), "%.*s",
		    (int)(slash - argv0), argv0);
}

static int
is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

void
paths_datadir(char *buf, size_t len)
{
	const char *env;
	char cand[1100];

	if ((env = getenv("LTPSCOPE_DATA")) != NULL && *env != '\0') {
		compat_strlcpy(buf, env, len);
		return;
	}
	snprintf(cand, sizeof(cand), "%s/data/demo", paths_bindir);
	if (paths_bindir[0] != '\0' && is_dir(cand))
		snprintf(buf, len, "%s/data", paths_bindir);
	else
		compat_strlcpy(buf, LTPSCOPE_DATADIR, len);
}

const char *
paths_config(const char *rel, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");

	if (xdg != NULL && xdg[0] == '/')
		snprintf(buf, len, "%s/ltpscope/%s", xdg, rel);
	else if (home != NULL && home[0] != '\0')
		snprintf(buf, len, "%s/.config/ltpscope/%s", home, rel);
	else {
		buf[0] = '\0';
		return NULL;
	}
	return buf;
}

void
paths_themedirs(char *buf, size_t len)
{
	char user[1100], data[1100];

	(void)paths_config("themes", user, sizeof(user));
	paths_datadir(data, sizeof(data));
	/* A source tree keeps themes/ beside data/, an install inside it. */
	snprintf(buf, len, "%s%s%s/../themes:%s/themes", user,
	    user[0] ? ":" : "", data, data);
}

void
paths_data(const char *rel, char *buf, size_t len)
{
	char data[1100];

	paths_datadir(data, sizeof(data));
	snprintf(buf, len, "%s/%s", data, rel);
}

const char *
paths_program(void)
{
	return paths_argv0[0] != '\0' ? paths_argv0 : "ltpscope";
}

const char *
paths_kconfig(char *buf, size_t len)
{
	paths_data("kconfig", buf, len);
	return access(buf, R_OK) == 0 ? buf : NULL;
}

const char *
paths_syscall_table(char *buf, size_t size)
{
	struct utsname u;
	const char *env = getenv("LTPSCOPE_MASTER");
#if COMPAT_HAVE_LINUX_UNISTD
	size_t i;
#endif

	if (env != NULL && *env != '\0') {
		compat_strlcpy(buf, env, size);
		return buf;
	}
	if (uname(&u) == 0) {
		snprintf(buf, size,
		    "/usr/src/sys/compat/linux/arch/%s/syscalls.master",
		    u.machine);
		if (access(buf, R_OK) == 0)
			return buf;
	}
#if COMPAT_HAVE_LINUX_UNISTD
	for (i = 0; paths_unistd[i] != NULL; i++)
		if (access(paths_unistd[i], R_OK) == 0) {
			compat_strlcpy(buf, paths_unistd[i], size);
			return buf;
		}
#endif
	return NULL;
}

char *
paths_absolute(const char *path)
{
	char cwd[PATH_MAX], *abs;

	if (path[0] == '/' || getcwd(cwd, sizeof(cwd)) == NULL)
		return xstrdup(path);
	xasprintf(&abs, "%s/%s", cwd, path);
	return abs;
}
