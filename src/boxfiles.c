/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A box's own syscalls.master, runtest files and LTP metadata (see
 * boxfiles.h), copied into a local cache for the suite to load.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/boxfiles.h"
#include "ltpscope/paths.h"
#include "ltpscope/remote.h"
#include "ltpscope/store.h"
#include "ltpscope/xmalloc.h"

/* A file of a few MiB over a slow link still comes in this. */
#define BOXFILES_TIMEOUT_S	120

/* mkdir -p; 0, or -1 with errno set. */
static int
boxfiles_mkdirs(const char *path)
{
	char *buf = xstrdup(path), *p;
	int rv = 0, end;

	for (p = buf + 1; rv == 0; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		end = *p == '\0';
		*p = '\0';
		if (mkdir(buf, 0755) == -1 && errno != EEXIST)
			rv = -1;
		if (end)
			break;
		*p = '/';
	}
	free(buf);
	return rv;
}

/*
 * Writes data to path through a temporary file renamed over it, so
 * that a reader (another run from the same box) never sees half of it.
 */
static int
boxfiles_store(const char *path, const char *data, size_t len,
    struct diaglist *dl)
{
	char *tmp;
	ssize_t n;
	size_t off = 0;
	int fd, en;

	xasprintf(&tmp, "%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		diag_error(dl, path, 0, "cannot write the box's copy: %s",
		    strerror(errno));
		free(tmp);
		return -1;
	}
	while (off < len) {
		if ((n = write(fd, data + off, len - off)) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		off += (size_t)n;
	}
	en = errno;
	if (off < len || fchmod(fd, 0644) == -1 || close(fd) == -1 ||
	    rename(tmp, path) == -1) {
		if (off == len)
			en = errno;
		diag_error(dl, path, 0, "cannot write the box's copy: %s",
		    strerror(en));
		if (off < len)
			(void)close(fd);
		(void)unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

/*
 * The file at boxpath into the cache as name: 0 with *local set; 1
 * when the box has nothing there (an error unless optional); -1.
 */
static int
boxfiles_get(const struct remote *rm, const char *cachedir,
    const char *boxpath, const char *name, int optional, char **local,
    struct diaglist *dl)
{
	char *data, *path;
	size_t len;
	int rc;

	*local = NULL;
	rc = remote_fetch(rm, boxpath, BOXFILES_TIMEOUT_S, &data, &len, dl);
	xasprintf(&path, "%s/%s", cachedir, name);
	if (rc == 1 && !optional)
		diag_error(dl, NULL, 0, "%s: %s: no such file on the box",
		    remote_spec(rm), boxpath);
	/* A copy from before would stand for what the box no longer has. */
	if (rc == 1)
		(void)unlink(path);
	if (rc != 0) {
		free(path);
		return rc;
	}
	if (strchr(name, '/') != NULL) {
		char *dir = xstrdup(path);

		*strrchr(dir, '/') = '\0';
		if (boxfiles_mkdirs(dir) == -1) {
			diag_error(dl, dir, 0, "cannot make the directory "
			    "for the box's files: %s", strerror(errno));
			free(dir);
			free(path);
			free(data);
			return -1;
		}
		free(dir);
	}
	rc = boxfiles_store(path, data, len, dl);
	free(data);
	if (rc != 0) {
		free(path);
		return -1;
	}
	*local = path;
	return 0;
}

/* pattern with each %m replaced by machine. */
static char *
boxfiles_expand(const char *pattern, const char *machine)
{
	size_t n = strlen(pattern) + 1, mlen = strlen(machine);
	const char *p;
	char *out, *o;

	for (p = pattern; (p = strstr(p, "%m")) != NULL; p += 2)
		n += mlen;
	out = o = xmalloc(n);
	for (p = pattern; *p != '\0'; p++) {
		if (p[0] == '%' && p[1] == 'm') {
			memcpy(o, machine, mlen);
			o += mlen;
			p++;
		} else
			*o++ = *p;
	}
	*o = '\0';
	return out;
}

/*
 * compat_linux's directory for a processor (uname -p): one for each
 * family, whatever the ABI's suffixes (earmv7hf and armeb are arm's).
 */
static const char *
boxfiles_family(const char *proc)
{
	static const char *const fam[] = { "arm", "mips", "powerpc" };
	size_t i;

	if (strncmp(proc, "aarch64", 7) == 0)
		return "aarch64";
	if (strncmp(proc, "earm", 4) == 0)
		return "arm";
	for (i = 0; i < sizeof(fam) / sizeof(fam[0]); i++)
		if (strncmp(proc, fam[i], strlen(fam[i])) == 0)
			return fam[i];
	return proc;
}

/*
 * The default syscalls.master: the compat_linux directory is named
 * after uname -m on amd64 and i386, after the processor's family
 * (uname -p) on the ports whose machine is a board family (evbarm:
 * aarch64 or arm).
 */
static int
boxfiles_master(struct boxfiles *bf, const struct remote *rm,
    const struct boxfiles_req *req, struct diaglist *dl)
{
	const char *machine = remote_box(rm)->machine;
	const char *proc = boxfiles_family(remote_box(rm)->processor);
	char *alt;
	int rc;

	bf->master_box = boxfiles_expand(req->master != NULL ? req->master :
	    BOXFILES_MASTER, machine);
	rc = boxfiles_get(rm, req->cachedir, bf->master_box,
	    "syscalls.master", req->master == NULL, &bf->master, dl);
	if (rc != 1 || req->master != NULL)
		return rc;
	if (proc[0] != '\0' && strchr(proc, '/') == NULL &&
	    strcmp(proc, machine) != 0) {
		alt = boxfiles_expand(BOXFILES_MASTER, proc);
		rc = boxfiles_get(rm, req->cachedir, alt, "syscalls.master", 1,
		    &bf->master, dl);
		if (rc == 0) {
			free(bf->master_box);
			bf->master_box = alt;
		} else
			free(alt);
	}
	/* Not a NetBSD with sources there (a Linux box): the caller's. */
	if (rc == 1) {
		free(bf->master_box);
		bf->master_box = NULL;
		return 0;
	}
	return rc == 0 ? 0 : -1;
}

static void
boxfiles_add_runtest(struct boxfiles *bf, char *local, char *boxpath)
{
	bf->runtests = xreallocarray(bf->runtests, bf->nruntests + 1,
	    sizeof(*bf->runtests));
	bf->runtests_box = xreallocarray(bf->runtests_box,
	    bf->nruntests + 1, sizeof(*bf->runtests_box));
	bf->runtests[bf->nruntests] = local;
	bf->runtests_box[bf->nruntests++] = boxpath;
}

static int
boxfiles_runtests(struct boxfiles *bf, const struct remote *rm,
    const struct boxfiles_req *req, struct diaglist *dl)
{
	static const char *const defaults[] = { "syscalls", "syscalls-ipc" };
	const char *const *names = req->runtests;
	size_t n = req->nruntests, i;
	char *boxpath, *name, *local;
	int rc;

	if (n == 0) {
		names = defaults;
		n = 2;
	}
	for (i = 0; i < n; i++) {
		if (names[i][0] == '\0' || strchr(names[i], '/') != NULL ||
		    strcmp(names[i], ".") == 0 ||
		    strcmp(names[i], "..") == 0) {
			diag_error(dl, NULL, 0, "%s: runtest '%s': a name in "
			    "$LTPROOT/runtest on the box, or a local path",
			    remote_spec(rm), names[i]);
			return -1;
		}
		xasprintf(&boxpath, "%s/runtest/%s", remote_ltproot(rm),
		    names[i]);
		xasprintf(&name, "runtest/%s", names[i]);
		/* syscalls-ipc is optional, as for a local install. */
		rc = boxfiles_get(rm, req->cachedir, boxpath, name,
		    req->nruntests == 0 && i > 0, &local, dl);
		free(name);
		if (rc == 0)
			boxfiles_add_runtest(bf, local, boxpath);
		else
			free(boxpath);
		if (rc == -1 || (rc == 1 && (req->nruntests > 0 || i == 0)))
			return -1;
	}
	return 0;
}

int
boxfiles_fetch(struct boxfiles *bf, const struct remote *rm,
    const struct boxfiles_req *req, struct diaglist *dl)
{
	memset(bf, 0, sizeof(*bf));
	if (boxfiles_mkdirs(req->cachedir) == -1) {
		diag_error(dl, req->cachedir, 0, "cannot make the directory "
		    "for the box's files: %s", strerror(errno));
		return -1;
	}
	if (req->want_master && boxfiles_master(bf, rm, req, dl) != 0)
		return -1;
	if (req->want_runtests && boxfiles_runtests(bf, rm, req, dl) != 0)
		return -1;
	if (req->want_metadata) {
		xasprintf(&bf->metadata_box, "%s/metadata/ltp.json",
		    remote_ltproot(rm));
		/* An LTP older than its metadata has none: names map. */
		if (boxfiles_get(rm, req->cachedir, bf->metadata_box,
		    "ltp.json", 1, &bf->metadata, dl) == -1)
			return -1;
	}
	return 0;
}

void
boxfiles_free(struct boxfiles *bf)
{
	size_t i;

	free(bf->master);
	free(bf->master_box);
	for (i = 0; i < bf->nruntests; i++) {
		free(bf->runtests[i]);
		free(bf->runtests_box[i]);
	}
	free(bf->runtests);
	free(bf->runtests_box);
	free(bf->metadata);
	free(bf->metadata_box);
	memset(bf, 0, sizeof(*bf));
}

const char *
boxfiles_key(const char *box, const char *host, char *buf, size_t len)
{
	if (box == NULL || box[0] == '\0')
		return host;
	(void)snprintf(buf, len, "%s.box", box);
	return buf;
}

char *
boxfiles_cachedir(const char *dbpath, const char *host, struct diaglist *dl)
{
	char *db = NULL, *dir, *slash, *h, *p;

	if (dbpath != NULL)
		db = paths_absolute(dbpath);
	else if (store_default_path(&p, dl) != STORE_OK)
		return NULL;
	else {
		db = paths_absolute(p);
		free(p);
	}
	if ((slash = strrchr(db, '/')) != NULL)
		*slash = '\0';
	/* A name, not a path: remote_parse() lets '/' through. */
	h = xstrdup(host);
	for (p = h; *p != '\0'; p++)
		if (*p == '/')
			*p = '_';
	xasprintf(&dir, "%s/boxes/%s", db, h);
	free(h);
	free(db);
	return dir;
}

int
boxfiles_suite(struct boxfiles *bf, const struct remote *rm,
    struct suite_opts *so, const char *box_master, const char *cachedir,
    const char ***rtallp, const char *const **localrt, size_t *nlocalrt,
    struct diaglist *dl)
{
	struct boxfiles_req req;
	const char **names, **rt;
	size_t i, nnames = 0, nlocal = 0;
	int rv = -1;

	memset(bf, 0, sizeof(*bf));
	*rtallp = NULL;
	names = xcalloc(so->nruntests + 1, sizeof(*names));
	rt = xcalloc(so->nruntests + 1, sizeof(*rt));
	for (i = 0; i < so->nruntests; i++)
		if (strchr(so->runtests[i], '/') == NULL)
			names[nnames++] = so->runtests[i];
		else
			rt[nlocal++] = so->runtests[i];
	memset(&req, 0, sizeof(req));
	req.cachedir = cachedir;
	req.want_master = so->ntables == 0;
	req.master = box_master;
	req.want_runtests = so->nruntests == 0 || nnames > 0;
	req.runtests = names;
	req.nruntests = nnames;
	req.want_metadata = so->metadata == NULL && !so->no_metadata;
	if (!req.want_master && !req.want_runtests && !req.want_metadata) {
		rv = 0;
		goto done;
	}
	if (boxfiles_fetch(bf, rm, &req, dl) != 0)
		goto done;
	if (bf->master != NULL) {
		so->tables = (const char *const *)&bf->master;
		so->ntables = 1;
	}
	if (req.want_runtests) {
		/* The box's first, then the local files, as given. */
		*rtallp = xcalloc(bf->nruntests + nlocal + 1,
		    sizeof(**rtallp));
		for (i = 0; i < bf->nruntests; i++)
			(*rtallp)[i] = bf->runtests[i];
		for (i = 0; i < nlocal; i++)
			(*rtallp)[bf->nruntests + i] = rt[i];
		so->runtests = *rtallp;
		so->nruntests = bf->nruntests + nlocal;
		*localrt = *rtallp + bf->nruntests;
		*nlocalrt = nlocal;
	}
	if (req.want_metadata) {
		/* None on the box: names map, nothing local stands in. */
		so->metadata = bf->metadata;
		so->no_metadata = bf->metadata == NULL;
	}
	rv = 0;
done:
	if (*rtallp == NULL && rv == 0) {
		*localrt = so->runtests;
		*nlocalrt = so->nruntests;
	}
	free(names);
	free(rt);
	return rv;
}
