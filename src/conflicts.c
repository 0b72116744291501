/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Conflict groups (see conflicts.h): reading the files, and which
 * groups a test is in.  The engine keeps only the group names per test
 * (they go with a run's queue, so --resume keeps them apart too).
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/conflicts.h"
#include "ltpscope/paths.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"

void
conflicts_init(struct conflicts *c)
{
	memset(c, 0, sizeof(*c));
}

void
conflicts_free(struct conflicts *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].group);
		free(c->v[i].pattern);
		free(c->v[i].reason);
		free(c->v[i].file);
	}
	free(c->v);
	for (i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	conflicts_init(c);
}

static int
group_char(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	    (ch >= '0' && ch <= '9') || ch == '-' || ch == '_' || ch == '.';
}

/* The next blank-separated field of [*p, end); its length. */
static size_t
field(const char **p, const char *end, const char **start)
{
	const char *s;

	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
	s = *p;
	while (*p < end && **p != ' ' && **p != '\t')
		(*p)++;
	*start = s;
	return (size_t)(*p - s);
}

static void
conflicts_push(struct conflicts *c, const char *group, size_t glen,
    const char *pat, size_t plen, const char *why, size_t wlen,
    const char *name, unsigned long lineno)
{
	struct conflict_line *l;

	c->v = xreallocarray(c->v, c->n + 1, sizeof(*c->v));
	l = &c->v[c->n++];
	l->group = xstrndup(group, glen);
	l->pattern = xstrndup(pat, plen);
	l->reason = xstrndup(why, wlen);
	l->file = name != NULL ? xstrdup(name) : NULL;
	l->line = lineno;
}

/* One line past its comment test: 0, or -1 after an error in dl. */
static int
conflicts_line(struct conflicts *c, const char *name, unsigned long lineno,
    const char *p, const char *end, struct diaglist *dl)
{
	const char *g, *pats, *why, *q, *comma;
	size_t glen, plen, i;

	glen = field(&p, end, &g);
	plen = field(&p, end, &pats);
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	why = p;
	for (i = 0; i < glen; i++)
		if (!group_char((unsigned char)g[i])) {
			diag_error(dl, name, lineno, "group name '%.*s': only "
			    "letters, digits, '-', '_' and '.'", (int)glen,
			    g);
			return -1;
		}
	if (plen == 0 || why == end) {
		diag_error(dl, name, lineno, "'%.*s': want GROUP "
		    "PATTERN[,PATTERN]... REASON", (int)glen, g);
		return -1;
	}
	for (q = pats; q < pats + plen; q = comma + 1) {
		if ((comma = memchr(q, ',', (size_t)(pats + plen - q))) ==
		    NULL)
			comma = pats + plen;
		if (comma == q) {
			diag_error(dl, name, lineno, "group %.*s: an empty "
			    "pattern in '%.*s'", (int)glen, g, (int)plen,
			    pats);
			return -1;
		}
		conflicts_push(c, g, glen, q, (size_t)(comma - q), why,
		    (size_t)(end - why), name, lineno);
	}
	return 0;
}

int
conflicts_parse(struct conflicts *c, const char *name, const char *text,
    size_t len, struct diaglist *dl)
{
	const char *p = text, *end = text + len, *eol, *re;
	unsigned long lineno = 0;
	int errors = 0;

	if (name != NULL) {
		c->files = xreallocarray(c->files, c->nfiles + 1,
		    sizeof(*c->files));
		c->files[c->nfiles++] = xstrdup(name);
	}
	for (; p < end; p = eol + 1) {
		lineno++;
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		re = eol;
		while (re > p && (re[-1] == '\r' || re[-1] == ' ' ||
		    re[-1] == '\t'))
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
		if (conflicts_line(c, name, lineno, p, re, dl) != 0)
			errors++;
	}
	return errors;
}

int
conflicts_load(struct conflicts *c, const char *path, struct diaglist *dl)
{
	char *buf;
	size_t len;
	int rc;

	if ((rc = slurp_file(path, 0, &buf, &len)) != SLURP_OK) {
		diag_error(dl, path, 0, "cannot %s conflict groups: %s",
		    rc == SLURP_EOPEN ? "open" : "read", strerror(errno));
		return -1;
	}
	rc = conflicts_parse(c, path, buf, len, dl);
	free(buf);
	return rc;
}

int
conflicts_load_default(struct conflicts *c, struct diaglist *dl)
{
	char path[2048];
	size_t before = dl->nerrors;

	paths_data("conflicts", path, sizeof(path));
	if (access(path, R_OK) == 0)
		(void)conflicts_load(c, path, dl);
	if (paths_config("conflicts", path, sizeof(path)) != NULL &&
	    access(path, R_OK) == 0)
		(void)conflicts_load(c, path, dl);
	return (int)(dl->nerrors - before);
}

/* Whether name is one of the comma-separated list's items. */
static int
list_has(const char *list, const char *name, size_t nlen)
{
	const char *p, *comma;

	for (p = list; *p != '\0'; p = *comma ? comma + 1 : comma) {
		comma = p + strcspn(p, ",");
		if ((size_t)(comma - p) == nlen && strncmp(p, name, nlen) == 0)
			return 1;
	}
	return 0;
}

size_t
conflicts_of(const struct conflicts *c, const char *tag, char *buf,
    size_t len)
{
	size_t i, n = 0, o = 0, glen;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < c->n; i++) {
		glen = strlen(c->v[i].group);
		if (fnmatch(c->v[i].pattern, tag, 0) != 0 ||
		    list_has(buf, c->v[i].group, glen) || o + glen + 2 > len)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s",
		    n > 0 ? "," : "", c->v[i].group);
		n++;
	}
	return n;
}

const char *
conflicts_reason(const struct conflicts *c, const char *group)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->v[i].group, group) == 0)
			return c->v[i].reason;
	return NULL;
}

void
conflicts_describe(const struct conflicts *c, char *buf, size_t len)
{
	size_t f, i, j, o = 0, ng;
	int w;

	snprintf(buf, len, "none");
	for (f = 0; f < c->nfiles; f++) {
		ng = 0;
		for (i = 0; i < c->n; i++) {
			if (c->v[i].file == NULL ||
			    strcmp(c->v[i].file, c->files[f]) != 0)
				continue;
			for (j = 0; j < i; j++)
				if (c->v[j].file != NULL && strcmp(c->v[j].file,
				    c->files[f]) == 0 && strcmp(c->v[j].group,
				    c->v[i].group) == 0)
					break;
			ng += j == i;
		}
		w = snprintf(buf + o, len - o, "%s%s (%zu group%s)",
		    o > 0 ? "; " : "", c->files[f], ng, ng == 1 ? "" : "s");
		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
	}
}

int
conflicts_share(const char *a, const char *b)
{
	const char *p, *comma;

	if (a == NULL || b == NULL)
		return 0;
	for (p = a; *p != '\0'; p = *comma ? comma + 1 : comma) {
		comma = p + strcspn(p, ",");
		if (comma > p && list_has(b, p, (size_t)(comma - p)))
			return 1;
	}
	return 0;
}
