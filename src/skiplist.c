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

#include "ltpscope/paths.h"
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
		free(sl->v[i].file);
	}
	free(sl->v);
	free(sl->os);
	xfreev(sl->files);
	skiplist_init(sl);
}

void
skiplist_set_os(struct skiplist *sl, const char *os)
{
	free(sl->os);
	sl->os = os != NULL && *os != '\0' ? xstrdup(os) : NULL;
}

int
skiplist_entry_applies(const struct skiplist *sl, const struct skip_entry *e)
{
	const char *p, *c;
	size_t len;

	if (e->os == NULL || sl->os == NULL)
		return 1;
	len = strlen(sl->os);
	for (p = e->os; *p != '\0'; p = *c != '\0' ? c + 1 : c) {
		c = strchr(p, ',');
		if (c == NULL)
			c = p + strlen(p);
		if ((size_t)(c - p) == len && strncasecmp(p, sl->os, len) == 0)
			return 1;
	}
	return 0;
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

/* "os=NetBSD,Linux": system names, as uname -s prints them. */
static int
os_field_ok(const char *p, size_t len)
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

int
skiplist_parse(struct skiplist *sl, const char *name, const char *text,
    size_t len, struct diaglist *dl)
{
	const char *p = text, *end = text + len, *eol, *pat, *rs, *re;
	const char *why, *os;
	unsigned long lineno = 0;
	struct skip_entry *e;
	size_t plen, oslen;
	int errors = 0;

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
		os = NULL;
		oslen = 0;
		if (re - p >= 3 && strncmp(p, "os=", 3) == 0) {
			os = p + 3;
			while (p < re && *p != ' ' && *p != '\t')
				p++;
			oslen = (size_t)(p - os);
			while (p < re && (*p == ' ' || *p == '\t'))
				p++;
			if (!os_field_ok(os, oslen)) {
				diag_error(dl, name, lineno, "'%.*s': os= "
				    "wants system names as uname -s prints "
				    "them, comma-separated (os=NetBSD), not "
				    "'%.*s'", (int)plen, pat, (int)oslen, os);
				errors++;
				continue;
			}
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
		e->os = os != NULL ? xstrndup(os, oslen) : NULL;
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
	int w;

	for (i = 0; i < sl->n; i++) {
		if ((file == NULL) != (sl->v[i].file == NULL) ||
		    (file != NULL && strcmp(file, sl->v[i].file) != 0))
			continue;
		n++;
		k += (size_t)skiplist_entry_applies(sl, &sl->v[i]);
	}
	if (file == NULL && n == 0)
		return;
	if (k == n)
		w = snprintf(buf + *o, len - *o, "%s%s (%zu entr%s)",
		    *o > 0 ? "; " : "", file != NULL ? file : "added here", n,
		    n == 1 ? "y" : "ies");
	else
		w = snprintf(buf + *o, len - *o, "%s%s (%zu of %zu entries "
		    "hold on %s)", *o > 0 ? "; " : "", file, k, n, sl->os);
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
