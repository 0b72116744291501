/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The test's environment and where its command is: LTP's variables on
 * top of the caller's, and argv[0] looked up in the test's PATH (with
 * why, when a file by that name is there but cannot be run).  The
 * bottom of the runner (runner_impl.h): plain strings, no process.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/paths.h"
#include "ltpscope/xmalloc.h"
#include "runner_impl.h"

extern char **environ;

void
runner_env_push(struct envbuild *e, char *s)
{
	if (e->n + 2 > e->cap) {
		e->cap = e->cap ? e->cap * 2 : 64;
		e->v = xreallocarray(e->v, e->cap, sizeof(*e->v));
	}
	e->v[e->n++] = s;
	e->v[e->n] = NULL;
}

static int
env_is_set_by(char *const *ours, size_t nours, const char *entry)
{
	size_t i, len;

	for (i = 0; i < nours; i++) {
		len = strcspn(ours[i], "=");
		if (strncmp(ours[i], entry, len) == 0 && entry[len] == '=')
			return 1;
	}
	return 0;
}

/*
 * KCONFIG_PATH: the test runs in its TMPDIR, so it must be absolute.
 * The default is the data directory's, never one in the user's cwd.
 */
char *
runner_kconfig_path(const struct runner_opts *o)
{
	char buf[PATH_MAX];

	if (o->kconfig != NULL)
		return o->kconfig[0] == '\0' ? NULL : paths_absolute(o->kconfig);
	if (paths_kconfig(buf, sizeof(buf)) != NULL)
		return paths_absolute(buf);
	return NULL;
}

/*
 * The test's environment: the caller's entries are shared with environ
 * (the first *nshared, not to be freed: runner_env_free), ours follow.
 */
char **
runner_build_env(const struct runner_opts *o, const char *ltproot,
    const char *tmpdir, const char *path, size_t *nshared)
{
	struct envbuild ours = { NULL, 0, 0 }, all = { NULL, 0, 0 };
	char *s, *kconfig, **ep;
	size_t i;

	xasprintf(&s, "LTPROOT=%s", ltproot);
	runner_env_push(&ours, s);
	xasprintf(&s, "PATH=%s", path);
	runner_env_push(&ours, s);
	xasprintf(&s, "TMPDIR=%s", tmpdir);
	runner_env_push(&ours, s);
	runner_env_push(&ours, xstrdup("LTP_COLORIZE_OUTPUT=0"));
	if ((kconfig = runner_kconfig_path(o)) != NULL) {
		xasprintf(&s, "KCONFIG_PATH=%s", kconfig);
		runner_env_push(&ours, s);
		free(kconfig);
	}
	if (o->timeout_mul != NULL) {
		xasprintf(&s, "LTP_TIMEOUT_MUL=%s", o->timeout_mul);
		runner_env_push(&ours, s);
	}
	if (o->ltp_dev != NULL) {
		xasprintf(&s, "LTP_DEV=%s", o->ltp_dev);
		runner_env_push(&ours, s);
	}
	if (o->reproducible)
		runner_env_push(&ours, xstrdup("LTP_REPRODUCIBLE_OUTPUT=1"));
	for (i = 0; o->env_extra != NULL && o->env_extra[i] != NULL; i++)
		if (strchr(o->env_extra[i], '=') != NULL)
			runner_env_push(&ours, xstrdup(o->env_extra[i]));

	for (ep = environ; ep != NULL && *ep != NULL; ep++)
		if (!env_is_set_by(ours.v, ours.n, *ep))
			runner_env_push(&all, *ep);
	*nshared = all.n;
	for (i = 0; i < ours.n; i++)
		runner_env_push(&all, ours.v[i]);
	free(ours.v);
	return all.v;
}

void
runner_env_free(char **envp, size_t nshared)
{
	size_t i;

	if (envp == NULL)
		return;
	for (i = nshared; envp[i] != NULL; i++)
		free(envp[i]);
	free(envp);
}

/* Where execve() will find argv0 in the test's PATH; NULL: nowhere. */
char *
runner_resolve_command(const char *argv0, const char *path)
{
	const char *p, *end;
	struct stat st;
	char *cand;
	size_t len;

	if (strchr(argv0, '/') != NULL)
		return paths_absolute(argv0);
	for (p = path; *p != '\0'; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ":");
		len = (size_t)(end - p);
		if (len == 0)
			continue;
		xasprintf(&cand, "%.*s/%s", (int)len, p, argv0);
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(cand, X_OK) == 0) {
			if (cand[0] != '/') {
				char *abs = paths_absolute(cand);

				free(cand);
				cand = abs;
			}
			return cand;
		}
		free(cand);
	}
	return NULL;
}

/*
 * Why argv0 was not found, when a file by that name is in path but is
 * not an executable regular file (a test binary left mode 0644 by a
 * half-done install); NULL otherwise, else malloc'd.
 */
char *
runner_why_not_runnable(const char *argv0, const char *path)
{
	const char *p, *end;
	struct stat st;
	char *cand, *why = NULL;
	size_t len;

	for (p = path; why == NULL && *p != '\0'; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ":");
		if ((len = (size_t)(end - p)) == 0)
			continue;
		xasprintf(&cand, "%.*s/%s", (int)len, p, argv0);
		if (stat(cand, &st) == 0)
			xasprintf(&why, "%s is %s (mode %04o)", cand,
			    S_ISREG(st.st_mode) ? "not executable" :
			    "not a regular file", (unsigned)(st.st_mode & 07777));
		free(cand);
	}
	return why;
}
