/*
 * Skip list parsing and lookup (see skiplist.h for the format).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/paths.h"
#include "ltpscope/skiplist.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"

void
skiplist_init(struct skiplist *sl)
{
	sl->v = NULL;
	sl->n = sl->cap = 0;
}

void
skiplist_free(struct skiplist *sl)
{
	size_t i;

	for (i = 0; i < sl->n; i++) {
		free(sl->v[i].pattern);
		free(sl->v[i].reason);
		free(sl->v[i].file);
	}
	free(sl->v);
	skiplist_init(sl);
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

int
skiplist_parse(struct skiplist *sl, const char *name, const char *text,
    size_t len, struct diaglist *dl)
{
	const char *p = text, *end = text + len, *eol, *pat, *rs, *re;
	const char *why;
	unsigned long lineno = 0;
	struct skip_entry *e;
	size_t plen;
	int errors = 0;

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
		if (fnmatch(sl->v[i].pattern, tag, 0) == 0)
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
