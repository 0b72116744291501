/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * data/fundamental: the ranked list of the Linux calls programs use
 * most, which weighs syscalls on the shopping list (see fundamental.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/categories.h"
#include "ltpscope/fundamental.h"
#include "ltpscope/paths.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"

/* Past the blanks from p, stopping at end (the buffer has no NUL). */
static const char *
fundamental_blanks(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
		p++;
	return p;
}

int
fundamental_parse(struct fundamental *f, const char *name, const char *buf,
    size_t len, struct diaglist *dl)
{
	const char *p = buf, *end = buf + len, *nl, *w, *we;
	unsigned long lineno = 0;
	int nerr = 0;

	memset(f, 0, sizeof(*f));
	while (p < end) {
		lineno++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		w = p;
		while (w < nl && (*w == ' ' || *w == '\t'))
			w++;
		we = w;
		while (we < nl && *we != ' ' && *we != '\t' && *we != '\r')
			we++;
		if (we > w && *w != '#') {
			if (memchr(w, '\0', (size_t)(nl - w)) != NULL) {
				diag_error(dl, name, lineno, "NUL byte in line");
				nerr++;
			} else if (memchr(we, '#', (size_t)(nl - we)) == NULL &&
			    fundamental_blanks(we, nl) < nl) {
				diag_error(dl, name, lineno, "one call name "
				    "a line");
				nerr++;
			} else {
				f->names = xreallocarray(f->names, f->n + 1,
				    sizeof(*f->names));
				f->names[f->n++] = xstrndup(w,
				    (size_t)(we - w));
			}
		}
		p = nl + 1;
	}
	return nerr;
}

int
fundamental_load_default(struct fundamental *f, struct diaglist *dl)
{
	char path[1024], *buf;
	size_t len;
	int n;

	memset(f, 0, sizeof(*f));
	paths_data("fundamental", path, sizeof(path));
	if (slurp_file_diag(path, 0, &buf, &len, dl) == -1)
		return -1;
	n = fundamental_parse(f, path, buf, len, dl);
	free(buf);
	return n;
}

size_t
fundamental_rank(const struct fundamental *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (strcmp(f->names[i], name) == 0)
			return i + 1;
	return 0;
}

void
fundamental_free(struct fundamental *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->names[i]);
	free(f->names);
	memset(f, 0, sizeof(*f));
}
