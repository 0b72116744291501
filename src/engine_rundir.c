/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The run's directory of TMPDIRs (see engine.h): every TMPDIR of a run
 * (and the spare made ahead) goes below one directory of the run's
 * own, named in its config, so that --resume after a kill -9 finds
 * all it left, and nothing else.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/rmtree.h"
#include "ltpscope/xmalloc.h"
#include "engine_impl.h"

/*
 * Makes the run's directory below the TMPDIR base the runner would use
 * and points the runner there.  -1 with an error naming the base (a
 * TMPDIR that is not writable stops the run before it starts).
 */
int
engine_rundir_make(struct engine *e, struct diaglist *dl)
{
	const char *base = e->opts.runner.tmpbase;
	char *dir, *abs;
	int en;

	if (base == NULL && ((base = getenv("TMPDIR")) == NULL ||
	    base[0] != '/'))
		base = "/tmp";
	xasprintf(&dir, "%s/" ENGINE_RUNDIR_PREFIX "XXXXXX", base);
	if (mkdtemp(dir) == NULL || chmod(dir, ENGINE_RUNDIR_MODE) == -1) {
		en = errno;
		(void)rmdir(dir);
		diag_error(dl, NULL, 0, "cannot create a directory for the "
		    "tests in %s: %s (set TMPDIR to a writable directory "
		    "with room)", base, strerror(en));
		free(dir);
		return -1;
	}
	/* --resume removes it by the name recorded: absolute. */
	if (dir[0] != '/' && (abs = realpath(dir, NULL)) != NULL) {
		free(dir);
		dir = abs;
	}
	e->rundir = dir;
	e->opts.runner.tmpbase = dir;
	return 0;
}

/* The run's directory named in config, or NULL; malloc'd. */
char *
engine_rundir_of(const char *config)
{
	const char *p, *nl;
	size_t klen = strlen(ENGINE_RUNDIR_KEY);
	char *v;

	for (p = config; p != NULL && *p != '\0'; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (strncmp(p, ENGINE_RUNDIR_KEY, klen) != 0)
			continue;
		p += klen;
		v = nl != NULL ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
		return v;
	}
	return NULL;
}

/*
 * Removes what a dead run left below its directory: only a directory
 * of ours by that name pattern (the database is input, and root must
 * not remove what it names blindly); mounts are unmounted, never
 * crossed.  What stays becomes a leftover.
 */
void
engine_rundir_clean(struct engine *e, const char *dir)
{
	const char *base = strrchr(dir, '/');
	char why[256], what[sizeof(why) + 32];
	struct stat st;

	if (dir[0] != '/' || base == NULL || strncmp(base + 1,
	    ENGINE_RUNDIR_PREFIX, strlen(ENGINE_RUNDIR_PREFIX)) != 0 ||
	    lstat(dir, &st) == -1 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid())
		return;
	if (rmtree_unmount(dir, why, sizeof(why)) == 0)
		return;
	snprintf(what, sizeof(what), "tmpdir_left: %s", why[0] != '\0' ?
	    why : dir);
	snprintf(why, sizeof(why), "run %lld", (long long)e->run_id);
	engine_leftover(e, why, what);
}

/* config with its tmpdirs line (if any) replaced by dir; malloc'd. */
char *
engine_config_with_rundir(const char *config, const char *dir)
{
	const char *p, *nl;
	size_t klen = strlen(ENGINE_RUNDIR_KEY), n;
	char *out, *o;

	out = o = xmalloc(strlen(config) + klen + strlen(dir) + 2);
	for (p = config; *p != '\0'; p = nl != NULL ? nl + 1 : p + n) {
		nl = strchr(p, '\n');
		n = nl != NULL ? (size_t)(nl - p) + 1 : strlen(p);
		if (strncmp(p, ENGINE_RUNDIR_KEY, klen) == 0)
			continue;
		memcpy(o, p, n);
		o += n;
		if (nl == NULL)
			break;
	}
	if (o > out && o[-1] != '\n')
		*o++ = '\n';
	o += sprintf(o, "%s%s\n", ENGINE_RUNDIR_KEY, dir);
	return out;
}
