/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Skip list parsing and lookup (see skiplist.h for the format).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ltpscope/linuxref.h"
#include "ltpscope/paths.h"
#include "ltpscope/remote.h"
#include "ltpscope/skiplist.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"

void
skiplist_init(struct skiplist *sl)
{
	memset(sl, 0, sizeof(*sl));
}

void
skiplist_free(struct skiplist *sl)
{
	size_t i;

	for (i = 0; i < sl->n; i++) {
		free(sl->v[i].pattern);
		free(sl->v[i].reason);
		free(sl->v[i].os);
		free(sl->v[i].arch);
		free(sl->v[i].file);
	}
	free(sl->v);
	free(sl->os);
	free(sl->arch);
	xfreev(sl->files);
	skiplist_init(sl);
}

void
skiplist_set_os(struct skiplist *sl, const char *os)
{
	free(sl->os);
	sl->os = os != NULL && *os != '\0' ? xstrdup(os) : NULL;
}

void
skiplist_set_arch(struct skiplist *sl, const char *arch)
{
	free(sl->arch);
	sl->arch = arch != NULL && *arch != '\0' ? xstrdup(arch) : NULL;
}

void
skiplist_set_box(struct skiplist *sl, const struct remote_box *rb)
{
	skiplist_set_os(sl, rb->sysname);
	skiplist_set_arch(sl, remote_box_arch(rb));
}

/*
 * Whether the comma-separated names list name: systems in any case,
 * arches by any of their names (x86_64 is amd64).
 */
static int
skiplist_names(const char *list, const char *name, int isarch)
{
	const char *p, *c;
	char one[64];
	size_t len = strlen(name), n;

	for (p = list; *p != '\0'; p = *c != '\0' ? c + 1 : c) {
		c = strchr(p, ',');
		if (c == NULL)
			c = p + strlen(p);
		n = (size_t)(c - p);
		if (!isarch && n == len && strncasecmp(p, name, len) == 0)
			return 1;
		if (isarch && n < sizeof(one)) {
			memcpy(one, p, n);
			one[n] = '\0';
			if (linuxref_same_arch(one, name))
				return 1;
		}
	}
	return 0;
}

int
skiplist_entry_applies(const struct skiplist *sl, const struct skip_entry *e)
{
	if (e->os != NULL && sl->os != NULL && !skiplist_names(e->os, sl->os,
	    0))
		return 0;
	return e->arch == NULL || sl->arch == NULL ||
	    skiplist_names(e->arch, sl->arch, 1);
}

static struct skip_entry *
skiplist_push(struct skiplist *sl, const char *pattern, size_t plen,
    const char *reason, size_t rlen)
{
	struct skip_entry *e;

	if (sl->n == sl->cap) {
		sl->cap = sl->cap ? sl->cap * 2 : 32;
		sl->v = xreallocarray(sl->v, sl->cap, sizeof(*sl->v));
	}
	e = &sl->v[sl->n++];
	e->pattern = xstrndup(pattern, plen);
	e->reason = xstrndup(reason, rlen);
	e->os = NULL;
	e->arch = NULL;
	e->file = NULL;
	e->line = 0;
	return e;
}

void
skiplist_add(struct skiplist *sl, const char *pattern, const char *reason)
{
	skiplist_push(sl, pattern, strlen(pattern), reason, strlen(reason));
}

/* fnmatch(3) takes anything; catch the bracket typos it would hide. */
static const char *
pattern_problem(const char *p, size_t len)
{
	size_t i;
	int inbr = 0;

	for (i = 0; i < len; i++) {
		if (p[i] == '\\') {
			if (++i == len)
				return "pattern ends with '\\'";
		} else if (!inbr && p[i] == '[') {
			inbr = 1;
			if (i + 1 < len && (p[i + 1] == '!' || p[i + 1] == '^'))
				i++;
			if (i + 1 < len && p[i + 1] == ']')
				i++;	/* "[]...]" holds a ']' */
		} else if (inbr && p[i] == ']')
			inbr = 0;
	}
	return inbr ? "unclosed '[' in pattern" : NULL;
}

/*
 * "os=NetBSD,Linux", "arch=aarch64,x86_64": names as uname -s and -m
 * print them.
 */
static int
names_field_ok(const char *p, size_t len)
{
	size_t i;

	if (len == 0 || p[0] == ',' || p[len - 1] == ',')
		return 0;
	for (i = 0; i < len; i++)
		if (!((p[i] >= 'A' && p[i] <= 'Z') || (p[i] >= 'a' &&
		    p[i] <= 'z') || (p[i] >= '0' && p[i] <= '9') ||
		    p[i] == '_' || p[i] == '-' || p[i] == '.' ||
		    (p[i] == ',' && p[i + 1] != ',')))
			return 0;
	return 1;
}

/* The fields between the pattern and the reason, in skip_entry's order. */
static const struct {
	const char	*key;
	size_t		 keylen;
	const char	*what;
	const char	*example;
} skip_fields[] = {
	{ "os", 3, "system names as uname -s prints them", "NetBSD" },
	{ "arch", 5, "architectures as uname -m prints them", "aarch64" },
};

/* Which field begins at p ("os=", "arch="), or -1: the reason does. */
static int
skiplist_field(const char *p, const char *end)
{
	size_t i, n;

	for (i = 0; i < sizeof(skip_fields) / sizeof(skip_fields[0]); i++) {
		n = skip_fields[i].keylen;
		if ((size_t)(end - p) >= n && strncmp(p, skip_fields[i].key,
		    n - 1) == 0 && p[n - 1] == '=')
			return (int)i;
	}
	return -1;
}

int
skiplist_parse(struct skiplist *sl, const char *name, const char *text,
    size_t len, struct diaglist *dl)
{
	const char *p = text, *end = text + len, *eol, *pat, *rs, *re;
	const char *why;
	unsigned long lineno = 0;
	struct skip_entry *e;
	struct {
		const char *at;
		size_t	    len;
	} f[2];
	size_t plen;
	int errors = 0, k;

	if (name != NULL) {
		sl->files = xreallocarray(sl->files, sl->nfiles + 2,
		    sizeof(*sl->files));
		sl->files[sl->nfiles++] = xstrdup(name);
		sl->files[sl->nfiles] = NULL;
	}
	for (; p < end; p = eol + 1) {
		lineno++;
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		re = eol;
		if (re > p && re[-1] == '\r')
			re--;
		while (p < re && (*p == ' ' || *p == '\t'))
			p++;
		if (p == re || *p == '#')
			continue;
		if (memchr(p, '\0', (size_t)(re - p)) != NULL) {
			diag_error(dl, name, lineno, "NUL byte in line");
			errors++;
			continue;
		}
		pat = p;
		while (p < re && *p != ' ' && *p != '\t')
			p++;
		plen = (size_t)(p - pat);
		while (p < re && (*p == ' ' || *p == '\t'))
			p++;
		memset(f, 0, sizeof(f));
		while ((k = skiplist_field(p, re)) >= 0) {
			if (f[k].at != NULL) {
				diag_error(dl, name, lineno, "'%.*s': %s= "
				    "given twice", (int)plen, pat,
				    skip_fields[k].key);
				break;
			}
			f[k].at = p + skip_fields[k].keylen;
			while (p < re && *p != ' ' && *p != '\t')
				p++;
			f[k].len = (size_t)(p - f[k].at);
			while (p < re && (*p == ' ' || *p == '\t'))
				p++;
			if (!names_field_ok(f[k].at, f[k].len)) {
				diag_error(dl, name, lineno, "'%.*s': %s= "
				    "wants %s, comma-separated (%s=%s), not "
				    "'%.*s'", (int)plen, pat,
				    skip_fields[k].key, skip_fields[k].what,
				    skip_fields[k].key,
				    skip_fields[k].example, (int)f[k].len,
				    f[k].at);
				break;
			}
		}
		if (k >= 0) {
			errors++;
			continue;
		}
		rs = p;
		while (re > rs && (re[-1] == ' ' || re[-1] == '\t'))
			re--;
		if (rs == re) {
			diag_error(dl, name, lineno,
			    "'%.*s' has no reason: write why it is skipped",
			    (int)plen, pat);
			errors++;
			continue;
		}
		if ((why = pattern_problem(pat, plen)) != NULL) {
			diag_error(dl, name, lineno, "%s '%.*s'", why,
			    (int)plen, pat);
			errors++;
			continue;
		}
		e = skiplist_push(sl, pat, plen, rs, (size_t)(re - rs));
		e->os = f[0].at != NULL ? xstrndup(f[0].at, f[0].len) : NULL;
		e->arch = f[1].at != NULL ? xstrndup(f[1].at, f[1].len) : NULL;
		e->file = name != NULL ? xstrdup(name) : NULL;
		e->line = lineno;
	}
	return errors;
}

int
skiplist_load(struct skiplist *sl, const char *path, struct diaglist *dl)
{
	char *buf;
	size_t len;
	int rc;

	if ((rc = slurp_file(path, 0, &buf, &len)) != SLURP_OK) {
		diag_error(dl, path, 0, "cannot %s skip list: %s",
		    rc == SLURP_EOPEN ? "open" : "read", strerror(errno));
		return -1;
	}
	rc = skiplist_parse(sl, path, buf, len, dl);
	free(buf);
	return rc;
}

const struct skip_entry *
skiplist_match(const struct skiplist *sl, const char *tag)
{
	size_t i;

	for (i = 0; i < sl->n; i++)
		if (skiplist_entry_applies(sl, &sl->v[i]) &&
		    fnmatch(sl->v[i].pattern, tag, 0) == 0)
			return &sl->v[i];
	return NULL;
}

const char *
skiplist_lookup(const struct skiplist *sl, const char *tag)
{
	const struct skip_entry *e = skiplist_match(sl, tag);

	return e != NULL ? e->reason : NULL;
}

int
skiplist_load_default(struct skiplist *sl, struct diaglist *dl)
{
	char path[2048];
	size_t before = dl->nerrors;

	paths_data("skiplist", path, sizeof(path));
	if (access(path, R_OK) == 0)
		(void)skiplist_load(sl, path, dl);
	if (paths_config("skiplist", path, sizeof(path)) != NULL &&
	    access(path, R_OK) == 0)
		(void)skiplist_load(sl, path, dl);
	return (int)(dl->nerrors - before);
}

/* Appends "file (n entries)" or "file (k of n entries hold on OS)". */
static void
describe_source(const struct skiplist *sl, const char *file, char *buf,
    size_t len, size_t *o)
{
	size_t i, n = 0, k = 0;
	int w, byarch = 0;
	char on[160];

	for (i = 0; i < sl->n; i++) {
		if ((file == NULL) != (sl->v[i].file == NULL) ||
		    (file != NULL && strcmp(file, sl->v[i].file) != 0))
			continue;
		n++;
		k += (size_t)skiplist_entry_applies(sl, &sl->v[i]);
		byarch |= sl->v[i].arch != NULL && sl->arch != NULL;
	}
	/* The arch is named where an entry of the file names one. */
	snprintf(on, sizeof(on), "%s%s%s", sl->os != NULL ? sl->os : "",
	    byarch && sl->os != NULL ? " " : "", byarch ? sl->arch : "");
	if (file == NULL && n == 0)
		return;
	if (k == n)
		w = snprintf(buf + *o, len - *o, "%s%s (%zu entr%s)",
		    *o > 0 ? "; " : "", file != NULL ? file : "added here", n,
		    n == 1 ? "y" : "ies");
	else
		w = snprintf(buf + *o, len - *o, "%s%s (%zu of %zu entries "
		    "hold on %s)", *o > 0 ? "; " : "", file, k, n, on);
	if (w > 0)
		*o = *o + (size_t)w < len ? *o + (size_t)w : len - 1;
}

void
skiplist_describe(const struct skiplist *sl, char *buf, size_t len)
{
	size_t i, o = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	for (i = 0; i < sl->nfiles; i++) {
		/* A file read twice is described once. */
		size_t j;

		for (j = 0; j < i; j++)
			if (strcmp(sl->files[j], sl->files[i]) == 0)
				break;
		if (j == i)
			describe_source(sl, sl->files[i], buf, len, &o);
	}
	describe_source(sl, NULL, buf, len, &o);
	if (o == 0)
		snprintf(buf, len, "none");
}
