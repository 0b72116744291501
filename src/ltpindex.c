/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The LTP test index: reading runtest files into a list of tests with a
 * tag lookup, and mapping each test to the syscalls it exercises.
 * Selection lives in ltpindex_select.c, the override file in testmap.c
 * and command-line splitting in runtest.c.
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/ltpindex.h"
#include "ltpscope/slurp.h"
#include "ltpscope/strmap.h"
#include "ltpscope/xmalloc.h"

/* A file this full of binary junk is not a runtest file at all. */
#define RUNTEST_MAX_JUNK	10

void
ltpindex_init(struct ltpindex *idx)
{
	memset(idx, 0, sizeof(*idx));
}

static void
ltptest_free_syscalls(struct ltptest *t)
{
	size_t i;

	for (i = 0; i < t->nsyscalls; i++)
		free(t->syscalls[i]);
	free(t->syscalls);
	t->syscalls = NULL;
	t->nsyscalls = 0;
	t->mapline = 0;
}

void
ltpindex_free(struct ltpindex *idx)
{
	size_t i;

	for (i = 0; i < idx->ntests; i++) {
		struct ltptest *t = &idx->tests[i];

		free(t->tag);
		free(t->cmdline);
		xfreev(t->argv);
		ltptest_free_syscalls(t);
	}
	free(idx->tests);
	for (i = 0; i < idx->nfiles; i++)
		free(idx->files[i]);
	free(idx->files);
	free(idx->hash);
	ltpindex_init(idx);
}

char *
ltpindex_runtest_path(const char *root, const char *name)
{
	char *path;
	FILE *fp;

	if (name[0] == '/')
		return xstrdup(name);
	(void)xasprintf(&path, "%s/runtest/%s", root, name);
	if (strchr(name, '/') == NULL)
		return path;
	/* A relative path with a '/' may also mean the current directory. */
	if ((fp = fopen(path, "r")) != NULL) {
		(void)fclose(fp);
		return path;
	}
	free(path);
	return xstrdup(name);
}

static void
hash_insert(struct ltpindex *idx, size_t i)
{
	size_t mask = idx->hashcap - 1;
	size_t h = strmap_hash(idx->tests[i].tag, strlen(idx->tests[i].tag));

	while (idx->hash[h & mask] != 0)
		h++;
	idx->hash[h & mask] = i + 1;
}

static void
hash_grow(struct ltpindex *idx)
{
	size_t i;

	free(idx->hash);
	idx->hashcap = idx->hashcap ? idx->hashcap * 2 : 256;
	idx->hash = xcalloc(idx->hashcap, sizeof(*idx->hash));
	for (i = 0; i < idx->ntests; i++)
		hash_insert(idx, i);
}

const struct ltptest *
ltpindex_find(const struct ltpindex *idx, const char *tag)
{
	size_t mask, h, slot;

	if (idx->hashcap == 0)
		return NULL;
	mask = idx->hashcap - 1;
	for (h = strmap_hash(tag, strlen(tag));; h++) {
		if ((slot = idx->hash[h & mask]) == 0)
			return NULL;
		if (strcmp(idx->tests[slot - 1].tag, tag) == 0)
			return &idx->tests[slot - 1];
	}
}

/* Tags name log files and database rows: keep them to a safe alphabet. */
static int
tag_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.' ||
	    c == '+';
}

/* Two runtest entries that run the same thing, however written. */
static int
same_command(const struct ltptest *t, const char *cmd, char *const *argv)
{
	size_t i;

	if (strcmp(t->cmdline, cmd) == 0)
		return 1;
	if (t->argv == NULL || argv == NULL)
		return 0;
	for (i = 0; t->argv[i] != NULL && argv[i] != NULL; i++)
		if (strcmp(t->argv[i], argv[i]) != 0)
			return 0;
	return t->argv[i] == NULL && argv[i] == NULL;
}

/*
 * A tag seen again with another command, kept for one warning per file:
 * runtest/syscalls-ipc repeats dozens of runtest/syscalls' entries.
 */
struct dupstat {
	unsigned long		 n;
	unsigned long		 line;	/* of the first one */
	char			*tag;
	size_t			 first;	/* index: tests may move */
};

static void
load_line(struct ltpindex *idx, const char *file, unsigned long lineno,
    char *line, struct dupstat *ds, struct diaglist *dl)
{
	const struct ltptest *dup;
	struct ltptest *t;
	const char *why = NULL;
	char *p, *tag, *cmd, *end, **argv;
	unsigned int col = 0;
	int simple;

	for (p = line; *p == ' ' || *p == '\t'; p++)
		continue;
	if (*p == '\0' || *p == '#')
		return;
	tag = p;
	while (*p != '\0' && *p != ' ' && *p != '\t')
		p++;
	if (*p != '\0')
		*p++ = '\0';
	for (cmd = p; *cmd == ' ' || *cmd == '\t'; cmd++)
		continue;
	for (end = cmd + strlen(cmd); end > cmd &&
	    (end[-1] == ' ' || end[-1] == '\t'); end--)
		continue;
	*end = '\0';
	for (p = tag; *p != '\0'; p++) {
		if (!tag_char_ok(*p) || (p == tag && (*p == '.' ||
		    *p == '-'))) {
			diag_add(dl, DIAG_ERROR, file, lineno,
			    (unsigned int)(p - line) + 1,
			    "character '%c' not allowed in test tag '%s'",
			    *p, tag);
			return;
		}
	}
	if (*cmd == '\0') {
		diag_error(dl, file, lineno, "test '%s' has no command", tag);
		return;
	}
	if ((simple = runtest_split(cmd, &argv, &why, &col)) < 0) {
		diag_add(dl, DIAG_ERROR, file, lineno,
		    (unsigned int)(cmd - line) + col, "%s in test '%s'", why,
		    tag);
		return;
	}
	/* The first entry wins: a tag names results and logs. */
	if ((dup = ltpindex_find(idx, tag)) != NULL) {
		if (!same_command(dup, cmd, argv) && ds->n++ == 0) {
			ds->line = lineno;
			ds->tag = xstrdup(tag);
			ds->first = (size_t)(dup - idx->tests);
		}
		xfreev(argv);
		return;
	}
	if (idx->ntests == idx->cap) {
		idx->cap = idx->cap ? idx->cap * 2 : 256;
		idx->tests = xreallocarray(idx->tests, idx->cap,
		    sizeof(*idx->tests));
	}
	t = &idx->tests[idx->ntests++];
	memset(t, 0, sizeof(*t));
	t->tag = xstrdup(tag);
	t->cmdline = xstrdup(cmd);
	t->argv = argv;
	t->needs_shell = !simple;
	t->file = idx->files[idx->nfiles - 1];
	t->line = lineno;
	if (idx->ntests * 2 > idx->hashcap)
		hash_grow(idx);
	else
		hash_insert(idx, idx->ntests - 1);
}

int
ltpindex_load_buf(struct ltpindex *idx, const char *name, const char *buf,
    size_t len, struct diaglist *dl)
{
	const char *p = buf, *end = buf + len, *nl, *q;
	unsigned long lineno = 0;
	unsigned int junk = 0;
	struct dupstat ds;
	char *line;
	size_t ll;

	memset(&ds, 0, sizeof(ds));

	idx->files = xreallocarray(idx->files, idx->nfiles + 1,
	    sizeof(*idx->files));
	idx->files[idx->nfiles++] = xstrdup(name);
	while (p < end) {
		lineno++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		ll = (size_t)(nl - p);
		if (ll > 0 && p[ll - 1] == '\r')
			ll--;	/* written on Windows; harmless */
		for (q = p; q < p + ll; q++)
			if (((unsigned char)*q < 0x20 && *q != '\t') ||
			    *q == 0x7f)
				break;
		if (q < p + ll) {
			diag_add(dl, DIAG_ERROR, name, lineno,
			    (unsigned int)(q - p) + 1,
			    "binary junk (byte 0x%02x); line ignored",
			    (unsigned char)*q);
			if (++junk >= RUNTEST_MAX_JUNK) {
				diag_error(dl, name, lineno,
				    "too much binary junk: not a runtest "
				    "file; rest ignored");
				break;
			}
		} else {
			line = xstrndup(p, ll);
			load_line(idx, name, lineno, line, &ds, dl);
			free(line);
		}
		p = nl + 1;
	}
	if (ds.n == 1)
		diag_add(dl, DIAG_WARNING, name, ds.line, 0, "test '%s' "
		    "repeats an earlier tag with another command; ignored "
		    "(first at %s:%lu)", ds.tag, idx->tests[ds.first].file,
		    idx->tests[ds.first].line);
	else if (ds.n > 1)
		diag_add(dl, DIAG_WARNING, name, ds.line, 0, "%lu tests "
		    "repeat an earlier tag with another command; ignored "
		    "(the first, '%s', is at %s:%lu)", ds.n, ds.tag,
		    idx->tests[ds.first].file, idx->tests[ds.first].line);
	free(ds.tag);
	return 0;
}

int
ltpindex_load_file(struct ltpindex *idx, const char *path,
    struct diaglist *dl)
{
	char *buf;
	size_t len;
	int rv;

	if (slurp_file_diag(path, 0, &buf, &len, dl) == -1)
		return -1;
	rv = ltpindex_load_buf(idx, path, buf, len, dl);
	free(buf);
	return rv;
}

int
ltpindex_load_default(struct ltpindex *idx, const char *root,
    struct diaglist *dl)
{
	char *path;
	int rv;
	FILE *fp;

	path = ltpindex_runtest_path(root, "syscalls");
	rv = ltpindex_load_file(idx, path, dl);
	free(path);
	if (rv < 0)
		return -1;
	path = ltpindex_runtest_path(root, "syscalls-ipc");
	if ((fp = fopen(path, "r")) != NULL) {
		(void)fclose(fp);
		rv = ltpindex_load_file(idx, path, dl);
	}
	free(path);
	return rv;
}

/*
 * Syscall names, hashed for lookup by (pointer, length) so that tag
 * prefixes need no copying.  Borrows the caller's strings.
 */
struct nameset {
	const char	**slot;
	size_t		  cap;
};

static void
nameset_build(struct nameset *ns, const char *const *names, size_t n)
{
	size_t i, h, mask;

	for (ns->cap = 64; ns->cap < n * 2; ns->cap *= 2)
		continue;
	ns->slot = xcalloc(ns->cap, sizeof(*ns->slot));
	mask = ns->cap - 1;
	for (i = 0; i < n; i++) {
		for (h = strmap_hash(names[i], strlen(names[i]));
		    ns->slot[h & mask] != NULL; h++)
			if (strcmp(ns->slot[h & mask], names[i]) == 0)
				break;
		ns->slot[h & mask] = names[i];
	}
}

static int
nameset_has(const struct nameset *ns, const char *s, size_t len)
{
	size_t h, mask = ns->cap - 1;
	const char *e;

	for (h = strmap_hash(s, len); (e = ns->slot[h & mask]) != NULL; h++)
		if (strncmp(e, s, len) == 0 && e[len] == '\0')
			return 1;
	return 0;
}

static void
add_unique(char ***vp, size_t *np, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < *np; i++)
		if (strncmp((*vp)[i], s, len) == 0 && (*vp)[i][len] == '\0')
			return;
	*vp = xreallocarray(*vp, *np + 2, sizeof(**vp));
	(*vp)[(*np)++] = xstrndup(s, len);
	(*vp)[*np] = NULL;
}

/*
 * Whether tag starts with the plain characters pattern starts with (up
 * to its first wildcard): checked first, fnmatch(3) runs for one or
 * two rules of each test, not for all of them (the explorer maps every
 * LTP test before its first frame).
 */
static int
plain_prefix_matches(const char *pattern, const char *tag)
{
	for (; *pattern != '\0'; pattern++, tag++) {
		if (*pattern == '*' || *pattern == '?' || *pattern == '[' ||
		    *pattern == '\\')
			return 1;
		if (*pattern != *tag)
			return 0;
	}
	return *tag == '\0';
}

/*
 * The testmap's rules by the first character a tag needs to match them
 * (a rule starting with a wildcard is in every list), each list in the
 * map's order: mapping every LTP test, each tries the few rules of its
 * letter instead of all of them.
 */
struct rule_lists {
	size_t	*v[UCHAR_MAX + 1];
	size_t	 n[UCHAR_MAX + 1];
};

static void
rule_lists_add(struct rule_lists *rl, unsigned c, size_t i)
{
	rl->v[c] = xreallocarray(rl->v[c], rl->n[c] + 1, sizeof(*rl->v[c]));
	rl->v[c][rl->n[c]++] = i;
}

static void
rule_lists_build(struct rule_lists *rl, const struct testmap *tm)
{
	unsigned char c;
	unsigned k;
	size_t i;

	memset(rl, 0, sizeof(*rl));
	for (i = 0; tm != NULL && i < tm->nrules; i++) {
		c = (unsigned char)tm->rules[i].pattern[0];
		if (c == '*' || c == '?' || c == '[' || c == '\\')
			for (k = 0; k <= UCHAR_MAX; k++)
				rule_lists_add(rl, k, i);
		else
			rule_lists_add(rl, c, i);
	}
}

static void
rule_lists_free(struct rule_lists *rl)
{
	unsigned k;

	for (k = 0; k <= UCHAR_MAX; k++)
		free(rl->v[k]);
}

/*
 * The testmap's verdict; 1 when a rule matched, even to nothing.  Tries
 * the rules numbered in cand (all of them when cand is NULL).
 */
static int
map_by_testmap(const char *tag, const struct testmap *tm,
    const size_t *cand, size_t ncand, const struct nameset *ns, char ***vp,
    size_t *np, unsigned long *line)
{
	const struct testmap_rule *r;
	const char *a, *bar;
	size_t i, j;

	if (cand == NULL)
		ncand = tm->nrules;
	for (i = 0; i < ncand; i++) {
		r = &tm->rules[cand != NULL ? cand[i] : i];
		if (!plain_prefix_matches(r->pattern, tag) ||
		    fnmatch(r->pattern, tag, 0) != 0)
			continue;
		*line = r->line;
		for (j = 0; j < r->nitems; j++) {
			for (a = r->items[j];; a = bar + 1) {
				bar = strchr(a, '|');
				if (bar == NULL)
					bar = a + strlen(a);
				if (nameset_has(ns, a, (size_t)(bar - a))) {
					add_unique(vp, np, a,
					    (size_t)(bar - a));
					break;
				}
				if (*bar == '\0')
					break;
			}
		}
		return 1;
	}
	return 0;
}

/* The longest name followed by nothing but digits and underscores. */
static void
map_by_prefix(const char *tag, const struct nameset *ns, char ***vp,
    size_t *np)
{
	size_t len = strlen(tag), start, k;

	for (start = len; start > 0 && ((tag[start - 1] >= '0' &&
	    tag[start - 1] <= '9') || tag[start - 1] == '_'); start--)
		continue;
	for (k = len - (len > 0); k > 0 && k >= start; k--) {
		if (nameset_has(ns, tag, k)) {
			add_unique(vp, np, tag, k);
			return;
		}
	}
}

/* rl: the map's rule lists, or NULL to try every rule. */
static char **
map_tag(const char *tag, const struct testmap *tm,
    const struct rule_lists *rl, const struct nameset *ns, size_t *np,
    unsigned long *mapline)
{
	unsigned char c = (unsigned char)tag[0];
	char **v = NULL;

	*np = 0;
	*mapline = 0;
	if (tm == NULL || !map_by_testmap(tag, tm, rl != NULL ? rl->v[c] :
	    NULL, rl != NULL ? rl->n[c] : 0, ns, &v, np, mapline))
		map_by_prefix(tag, ns, &v, np);
	return v;
}

char **
ltpindex_map_tag(const char *tag, const struct testmap *tm,
    const char *const *names, size_t n, unsigned long *mapline)
{
	struct nameset ns;
	unsigned long line;
	size_t count;
	char **v;

	nameset_build(&ns, names, n);
	v = map_tag(tag, tm, NULL, &ns, &count, &line);
	free(ns.slot);
	if (mapline != NULL)
		*mapline = line;
	return v;
}

size_t
ltpindex_map(struct ltpindex *idx, const struct testmap *tm,
    const char *const *names, size_t n)
{
	struct rule_lists rl;
	struct nameset ns;
	size_t i, unmapped = 0;

	nameset_build(&ns, names, n);
	rule_lists_build(&rl, tm);
	for (i = 0; i < idx->ntests; i++) {
		struct ltptest *t = &idx->tests[i];

		ltptest_free_syscalls(t);
		t->syscalls = map_tag(t->tag, tm, &rl, &ns, &t->nsyscalls,
		    &t->mapline);
		if (t->nsyscalls == 0)
			unmapped++;
	}
	rule_lists_free(&rl);
	free(ns.slot);
	return unmapped;
}
