/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The test-to-syscall override file (data/testmap): for the tests whose
 * tag does not start with the syscall they exercise (libc wrappers such
 * as pread or signal, 16- and 64-bit variants, families such as
 * ioctl_* or futex_wait*).  Format in ltpindex.h and the file's header.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/ltpindex.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"

void
testmap_init(struct testmap *tm)
{
	memset(tm, 0, sizeof(*tm));
}

void
testmap_free(struct testmap *tm)
{
	size_t i, j;

	for (i = 0; i < tm->nrules; i++) {
		free(tm->rules[i].pattern);
		for (j = 0; j < tm->rules[i].nitems; j++)
			free(tm->rules[i].items[j]);
		free(tm->rules[i].items);
	}
	free(tm->rules);
	free(tm->file);
	testmap_init(tm);
}

static int
name_char_ok(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

static void
testmap_line(struct testmap *tm, const char *name, unsigned long lineno,
    char *line, struct diaglist *dl)
{
	struct testmap_rule r;
	char *p, *pat, *list, *item, *q;

	if ((p = strchr(line, '#')) != NULL)
		*p = '\0';
	for (p = line; *p == ' ' || *p == '\t'; p++)
		continue;
	if (*p == '\0')
		return;
	pat = p;
	while (*p != '\0' && *p != ' ' && *p != '\t')
		p++;
	if (*p != '\0')
		*p++ = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	list = p;
	while (*p != '\0' && *p != ' ' && *p != '\t')
		p++;
	if (*p != '\0')
		*p++ = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	if (*list == '\0') {
		diag_error(dl, name, lineno, "'%s' maps to no syscall", pat);
		return;
	}
	if (*p != '\0') {
		diag_add(dl, DIAG_ERROR, name, lineno,
		    (unsigned int)(p - line) + 1,
		    "unexpected '%s' (syscalls are separated by commas, "
		    "without blanks)", p);
		return;
	}
	for (q = list; *q != '\0'; q++) {
		if (!name_char_ok(*q) && *q != ',' && *q != '|') {
			diag_add(dl, DIAG_ERROR, name, lineno,
			    (unsigned int)(q - line) + 1,
			    "character '%c' not allowed in a syscall name",
			    *q);
			return;
		}
		if ((*q == ',' || *q == '|') && (q == list ||
		    !name_char_ok(q[-1]) || !name_char_ok(q[1]))) {
			diag_add(dl, DIAG_ERROR, name, lineno,
			    (unsigned int)(q - line) + 1,
			    "empty syscall name in '%s'", list);
			return;
		}
	}
	memset(&r, 0, sizeof(r));
	r.pattern = xstrdup(pat);
	r.line = lineno;
	for (item = list; item != NULL; item = q) {
		if ((q = strchr(item, ',')) != NULL)
			*q++ = '\0';
		r.items = xreallocarray(r.items, r.nitems + 1,
		    sizeof(*r.items));
		r.items[r.nitems++] = xstrdup(item);
	}
	tm->rules = xreallocarray(tm->rules, tm->nrules + 1,
	    sizeof(*tm->rules));
	tm->rules[tm->nrules++] = r;
}

int
testmap_load_buf(struct testmap *tm, const char *name, const char *buf,
    size_t len, struct diaglist *dl)
{
	const char *p = buf, *end = buf + len, *nl;
	unsigned long lineno = 0;
	char *line;

	free(tm->file);
	tm->file = xstrdup(name);
	while (p < end) {
		lineno++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		line = xstrndup(p, (size_t)(nl - p));
		if (memchr(p, '\0', (size_t)(nl - p)) != NULL)
			diag_error(dl, name, lineno, "binary junk (NUL byte)");
		else
			testmap_line(tm, name, lineno, line, dl);
		free(line);
		p = nl + 1;
	}
	return 0;
}

int
testmap_load_file(struct testmap *tm, const char *path, struct diaglist *dl)
{
	char *buf;
	size_t len;
	int rv;

	if (slurp_file_diag(path, 0, &buf, &len, dl) == -1)
		return -1;
	rv = testmap_load_buf(tm, path, buf, len, dl);
	free(buf);
	return rv;
}
