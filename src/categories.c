/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Triage categories: the data/categories parser and the user's
 * overrides (see categories.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/categories.h"
#include "ltpscope/paths.h"
#include "ltpscope/slurp.h"
#include "ltpscope/theme.h"
#include "ltpscope/xmalloc.h"

static const char *const colour_words[] = {
	"default", "black", "red", "green", "yellow", "blue", "magenta",
	"cyan", "white", NULL
};

void
categories_init(struct categories *c)
{
	memset(c, 0, sizeof(*c));
}

void
categories_free(struct categories *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].colour);
		free(c->v[i].meaning);
		free(c->v[i].file);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

const struct category *
categories_find(const struct categories *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->v[i].name, name) == 0)
			return &c->v[i];
	return NULL;
}

static int
colour_ok(const char *s)
{
	size_t i;

	if (theme_elem_from_name(s) >= 0)
		return 1;
	if (strncmp(s, "bright-", 7) == 0)
		s += 7;
	for (i = 0; colour_words[i] != NULL; i++)
		if (strcmp(s, colour_words[i]) == 0)
			return 1;
	return 0;
}

static int
name_ok(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '-' || *s == '_'))
			return 0;
	return 1;
}

/* Next white-space separated word of *p, NUL-terminated in place. */
static char *
next_word(char **p)
{
	char *s = *p, *w;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0')
		return NULL;
	w = s;
	while (*s != '\0' && *s != ' ' && *s != '\t')
		s++;
	if (*s != '\0')
		*s++ = '\0';
	*p = s;
	return w;
}

static int
categories_line(struct categories *c, const char *file, unsigned long lineno,
    char *text, struct diaglist *dl)
{
	struct category *cat;
	char *p = text, *name, *colour, *list, *end;
	int shopping;

	if ((name = next_word(&p)) == NULL || name[0] == '#')
		return 0;
	colour = next_word(&p);
	list = next_word(&p);
	if (colour == NULL || list == NULL) {
		diag_error(dl, file, lineno, "expected 'name colour yes|no "
		    "meaning', got '%s'", name);
		return 1;
	}
	if (!name_ok(name)) {
		diag_error(dl, file, lineno, "bad category name '%s' (use "
		    "a-z, 0-9, '-' and '_')", name);
		return 1;
	}
	if (!colour_ok(colour)) {
		diag_error(dl, file, lineno, "unknown colour '%s' (a theme "
		    "element or a curses colour word)", colour);
		return 1;
	}
	if (strcmp(list, "yes") == 0)
		shopping = 1;
	else if (strcmp(list, "no") == 0)
		shopping = 0;
	else {
		diag_error(dl, file, lineno, "'%s': the shopping-list field "
		    "must be yes or no", list);
		return 1;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	if ((cat = (struct category *)categories_find(c, name)) != NULL) {
		free(cat->colour);
		free(cat->meaning);
		free(cat->file);
	} else {
		if (c->n == c->cap) {
			c->cap = c->cap ? c->cap * 2 : 16;
			c->v = xreallocarray(c->v, c->cap, sizeof(*c->v));
		}
		cat = &c->v[c->n++];
		cat->name = xstrdup(name);
	}
	cat->colour = xstrdup(colour);
	cat->shopping = shopping;
	cat->meaning = xstrdup(p);
	cat->file = xstrdup(file);
	cat->line = lineno;
	return 0;
}

int
categories_parse(struct categories *c, const char *name, const char *buf,
    size_t len, struct diaglist *dl)
{
	const char *p = buf, *end = buf + len, *nl;
	unsigned long lineno = 0;
	char *line;
	int nerr = 0;

	while (p < end) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		line = xstrndup(p, (size_t)(nl - p));
		if (strlen(line) != (size_t)(nl - p)) {
			diag_error(dl, name, lineno, "NUL byte in line");
			nerr++;
		} else {
			if (*line != '\0' && line[strlen(line) - 1] == '\r')
				line[strlen(line) - 1] = '\0';
			nerr += categories_line(c, name, lineno, line, dl);
		}
		free(line);
		p = nl + 1;
	}
	return nerr;
}

char *
triage_slurp(const char *path, size_t *lenp)
{
	char *buf;
	size_t len;

	if (slurp_file(path, 0, &buf, &len) != SLURP_OK)
		return NULL;
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

int
categories_load_file(struct categories *c, const char *path,
    struct diaglist *dl)
{
	char *buf;
	size_t len;
	int n;

	if (slurp_file_diag(path, 0, &buf, &len, dl) == -1)
		return -1;
	n = categories_parse(c, path, buf, len, dl);
	free(buf);
	return n;
}

int
categories_load_default(struct categories *c, struct diaglist *dl)
{
	char path[1024];
	int n, m;

	paths_data("categories", path, sizeof(path));
	if ((n = categories_load_file(c, path, dl)) < 0)
		return -1;
	/* No user file is the usual case, not an error. */
	if (paths_config("categories", path, sizeof(path)) != NULL &&
	    access(path, F_OK) == 0) {
		m = categories_load_file(c, path, dl);
		n += m < 0 ? 1 : m;
	}
	return n;
}
