/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where the line of a failure is in LTP's sources (ltpsrc.h): the
 * reference a result line makes, and the paths of a tree to try.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/diag.h"
#include "ltpscope/ltpsrc.h"
#include "ltpscope/slurp.h"

/* A test's source is a few hundred lines; more is not one. */
#define LTPSRC_MAXBYTES	(16u * 1024 * 1024)

static int
ltpsrc_namech(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/* Is line[dot] the '.' of "NAME.c:DIGITS:"?  Its name and number. */
static int
ltpsrc_ref_at(const char *line, size_t len, size_t dot, char *file,
    size_t filelen, long *linep)
{
	size_t s = dot, e = dot + 2, d;
	long n = 0;

	if (e >= len || line[e] != ':')
		return 0;
	for (d = e + 1; d < len && line[d] >= '0' && line[d] <= '9' &&
	    n < 100000000; d++)
		n = n * 10 + (line[d] - '0');
	if (d == e + 1 || d >= len || line[d] != ':' || n == 0)
		return 0;
	while (s > 0 && ltpsrc_namech(line[s - 1]) && line[s - 1] != '.')
		s--;
	if (s == dot || e - s >= filelen)
		return 0;
	memcpy(file, line + s, e - s);
	file[e - s] = '\0';
	*linep = n;
	return 1;
}

int
ltpsrc_line_ref(const char *line, size_t len, char *file, size_t filelen,
    long *linep)
{
	size_t i;

	if (filelen > 0)
		file[0] = '\0';
	*linep = 0;
	for (i = 0; i + 2 < len; i++)
		if (line[i] == '.' && (line[i + 1] == 'c' ||
		    line[i + 1] == 'h') && ltpsrc_ref_at(line, len, i, file,
		    filelen, linep))
			return 1;
	return 0;
}

static size_t
ltpsrc_add(char cand[][LTPSRC_PATHLEN], size_t n, size_t max,
    const char *root, const char *dir, size_t dirlen, const char *name)
{
	char p[LTPSRC_PATHLEN];
	size_t i;
	int w;

	if (n >= max)
		return n;
	w = snprintf(p, sizeof(p), "%s/%.*s%s%s", root, (int)dirlen, dir,
	    dirlen > 0 ? "/" : "", name);
	if (w < 0 || (size_t)w >= sizeof(p))
		return n;
	for (i = 0; i < n; i++)
		if (strcmp(cand[i], p) == 0)
			return n;
	memcpy(cand[n], p, (size_t)w + 1);
	return n + 1;
}

size_t
ltpsrc_candidates(const char *root, const char *fname, const char *tag,
    const char *base, char cand[][LTPSRC_PATHLEN], size_t max)
{
	const char *slash, *own;
	char dir[256], name[256], sub[300];
	size_t n = 0, k;

	if (root == NULL || *root == '\0')
		return 0;
	if (fname != NULL && *fname != '\0') {
		slash = strrchr(fname, '/');
		own = slash != NULL ? slash + 1 : fname;
		if (base == NULL || strcmp(base, own) == 0)
			return ltpsrc_add(cand, n, max, root, "", 0, fname);
		n = ltpsrc_add(cand, n, max, root, fname, slash != NULL ?
		    (size_t)(slash - fname) : 0, base);
		return ltpsrc_add(cand, n, max, root, "lib", 3, base);
	}
	if (tag == NULL || *tag == '\0')
		return base != NULL ? ltpsrc_add(cand, n, max, root, "lib", 3,
		    base) : 0;
	/* fcntl35, fcntl34_64: the directory is the name without its
	 * number, as LTP names most syscall tests. */
	for (k = 0; tag[k] != '\0' && k + 1 < sizeof(dir); k++)
		dir[k] = tag[k];
	while (k > 0 && ((dir[k - 1] >= '0' && dir[k - 1] <= '9') ||
	    dir[k - 1] == '_'))
		k--;
	dir[k] = '\0';
	if (k == 0 || strchr(dir, '/') != NULL || strstr(tag, "..") != NULL)
		return 0;
	snprintf(name, sizeof(name), "%s", base != NULL ? base : tag);
	if (base == NULL && strlen(name) + 2 < sizeof(name)) {
		/* fcntl34_64 is fcntl34.c built for 64-bit offsets. */
		k = strlen(name);
		if (k > 3 && (strcmp(name + k - 3, "_64") == 0 ||
		    strcmp(name + k - 3, "_16") == 0))
			name[k - 3] = '\0';
		strcat(name, ".c");
	}
	snprintf(sub, sizeof(sub), "testcases/kernel/syscalls/%s", dir);
	n = ltpsrc_add(cand, n, max, root, sub, strlen(sub), name);
	if (base != NULL)
		n = ltpsrc_add(cand, n, max, root, "lib", 3, base);
	return n;
}

int
ltpsrc_read(const char *root, const char *fname, const char *tag,
    const char *base, char **textp, size_t *lenp, char *path,
    size_t pathlen, struct diaglist *dl)
{
	char cand[LTPSRC_MAXCAND][LTPSRC_PATHLEN];
	const char *want;
	size_t n, i;
	int err = ENOENT;

	*textp = NULL;
	*lenp = 0;
	want = base != NULL ? base : fname != NULL ? fname : tag;
	if (root == NULL || *root == '\0') {
		diag_error(dl, NULL, 0, "no LTP source tree to find %s in: %s",
		    want, LTPSRC_HINT);
		return -1;
	}
	n = ltpsrc_candidates(root, fname, tag, base, cand, LTPSRC_MAXCAND);
	for (i = 0; i < n; i++) {
		if (slurp_file(cand[i], LTPSRC_MAXBYTES, textp, lenp) != 0) {
			if (errno != ENOENT)
				err = errno;
			continue;
		}
		if (*lenp > LTPSRC_MAXBYTES) {
			diag_error(dl, cand[i], 0, "more than %u bytes: not a "
			    "test's source", LTPSRC_MAXBYTES);
			free(*textp);
			*textp = NULL;
			return -1;
		}
		snprintf(path, pathlen, "%s", cand[i]);
		return 0;
	}
	if (n == 0)
		diag_error(dl, root, 0, "no path for %s's source in this LTP "
		    "source tree", tag != NULL ? tag : want);
	else if (err != ENOENT)
		diag_error(dl, cand[0], 0, "%s: %s", want, strerror(err));
	else
		diag_error(dl, root, 0, "%s not found in the LTP source tree: "
		    "looked at %s%s%s (%s)", want, cand[0], n > 1 ? " and " :
		    "", n > 1 ? cand[n - 1] : "", LTPSRC_HINT);
	return -1;
}

int
ltpsrc_line(const char *text, size_t len, long lineno, const char **startp,
    size_t *lenp)
{
	const char *p = text, *end = text + len, *nl;
	long i;

	if (lineno < 1)
		return -1;
	for (i = 1; i < lineno; i++) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return -1;
		p = nl + 1;
	}
	if (p >= end)
		return -1;
	nl = memchr(p, '\n', (size_t)(end - p));
	*startp = p;
	*lenp = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
	return 0;
}
