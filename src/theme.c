/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Theme files: parse "element fg [bg] [attr...]" lines into plain data
 * the UI maps onto curses.  Nothing here draws, so themes are testable
 * and a broken theme is reported before the screen is taken over.
 */
#include <sys/types.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/theme.h"

/* Longer lines are an error: no theme needs them. */
#define THEME_LINE_MAX	1023

static const char *const theme_elem_names[TE__COUNT] = {
	"normal", "header", "status", "selection", "mark", "title", "prompt",
	"error", "help-key", "dim", "pass", "fail", "broken", "conf", "warn",
	"info", "meta", "implemented", "compat", "unimplemented", "obsolete",
	"absent"
};

static const char *const theme_colour_names[8] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"
};

static const struct {
	const char	*name;
	int		 bit;
} theme_attr_names[] = {
	{ "bold", TA_BOLD }, { "dim", TA_DIM }, { "underline", TA_UNDERLINE },
	{ "reverse", TA_REVERSE }, { "standout", TA_STANDOUT },
	{ "blink", TA_BLINK }, { "normal", 0 }
};

const char *
theme_elem_name(enum theme_elem e)
{
	return (unsigned)e < TE__COUNT ? theme_elem_names[e] : "?";
}

int
theme_elem_from_name(const char *name)
{
	int i;

	for (i = 0; i < TE__COUNT; i++)
		if (strcmp(name, theme_elem_names[i]) == 0)
			return i;
	return -1;
}

static void
theme_set(struct theme *t, enum theme_elem e, short fg, short bg, int attrs)
{
	t->style[e].fg = fg;
	t->style[e].bg = bg;
	t->style[e].attrs = attrs;
}

void
theme_default(struct theme *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	compat_strlcpy(t->name, "default", sizeof(t->name));
	for (i = 0; i < TE__COUNT; i++)
		theme_set(t, i, THEME_DEFAULT_COLOUR, THEME_DEFAULT_COLOUR, 0);
	theme_set(t, TE_HEADER, 7, 4, TA_BOLD);
	theme_set(t, TE_STATUS, 0, 6, 0);
	theme_set(t, TE_SELECTION, 0, 7, 0);
	theme_set(t, TE_MARK, 3, THEME_DEFAULT_COLOUR, TA_BOLD);
	theme_set(t, TE_TITLE, 6, THEME_DEFAULT_COLOUR, TA_BOLD);
	theme_set(t, TE_PROMPT, THEME_DEFAULT_COLOUR, THEME_DEFAULT_COLOUR,
	    TA_BOLD);
	theme_set(t, TE_ERROR, 7, 1, TA_BOLD);
	theme_set(t, TE_HELP_KEY, 3, THEME_DEFAULT_COLOUR, TA_BOLD);
	theme_set(t, TE_DIM, THEME_DEFAULT_COLOUR, THEME_DEFAULT_COLOUR,
	    TA_DIM);
	theme_set(t, TE_PASS, 2, THEME_DEFAULT_COLOUR, 0);
	theme_set(t, TE_FAIL, 1, THEME_DEFAULT_COLOUR, TA_BOLD);
	theme_set(t, TE_BROKEN, 5, THEME_DEFAULT_COLOUR, TA_BOLD);
	theme_set(t, TE_CONF, 3, THEME_DEFAULT_COLOUR, 0);
	theme_set(t, TE_WARN, 3, THEME_DEFAULT_COLOUR, TA_BOLD);
	theme_set(t, TE_INFO, 4, THEME_DEFAULT_COLOUR, 0);
	theme_set(t, TE_META, 6, THEME_DEFAULT_COLOUR, 0);
	theme_set(t, TE_IMPLEMENTED, 2, THEME_DEFAULT_COLOUR, 0);
	theme_set(t, TE_COMPAT, 6, THEME_DEFAULT_COLOUR, 0);
	theme_set(t, TE_UNIMPLEMENTED, 1, THEME_DEFAULT_COLOUR, 0);
	theme_set(t, TE_OBSOLETE, THEME_DEFAULT_COLOUR, THEME_DEFAULT_COLOUR,
	    TA_DIM);
	theme_set(t, TE_ABSENT, 5, THEME_DEFAULT_COLOUR, 0);
}

void
theme_mono(struct theme *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	compat_strlcpy(t->name, "mono", sizeof(t->name));
	t->mono = 1;
	for (i = 0; i < TE__COUNT; i++)
		theme_set(t, i, THEME_DEFAULT_COLOUR, THEME_DEFAULT_COLOUR, 0);
	t->style[TE_HEADER].attrs = TA_REVERSE | TA_BOLD;
	t->style[TE_STATUS].attrs = TA_REVERSE;
	t->style[TE_SELECTION].attrs = TA_REVERSE;
	t->style[TE_MARK].attrs = TA_BOLD;
	t->style[TE_TITLE].attrs = TA_BOLD;
	t->style[TE_PROMPT].attrs = TA_BOLD;
	t->style[TE_ERROR].attrs = TA_BOLD | TA_REVERSE;
	t->style[TE_HELP_KEY].attrs = TA_BOLD;
	t->style[TE_DIM].attrs = TA_DIM;
	t->style[TE_FAIL].attrs = TA_BOLD;
	t->style[TE_BROKEN].attrs = TA_BOLD | TA_UNDERLINE;
	t->style[TE_WARN].attrs = TA_UNDERLINE;
	t->style[TE_UNIMPLEMENTED].attrs = TA_BOLD;
	t->style[TE_OBSOLETE].attrs = TA_DIM;
	t->style[TE_ABSENT].attrs = TA_UNDERLINE;
}

/* Returns the colour number, or -2 when the word is not a colour. */
static int
theme_parse_colour(const char *w)
{
	int i, bright = 0;

	if (strcmp(w, "default") == 0)
		return THEME_DEFAULT_COLOUR;
	if (strncmp(w, "bright-", 7) == 0) {
		bright = 8;
		w += 7;
	}
	for (i = 0; i < 8; i++)
		if (strcmp(w, theme_colour_names[i]) == 0)
			return i + bright;
	if (isdigit((unsigned char)w[0]) && !bright) {
		char *end;
		long n;

		errno = 0;
		n = strtol(w, &end, 10);
		if (*end == '\0' && errno == 0 && n >= 0 && n <= 255)
			return (int)n;
	}
	return -2;
}

static int
theme_parse_attr(const char *w)
{
	size_t i;

	for (i = 0; i < sizeof(theme_attr_names) / sizeof(theme_attr_names[0]);
	    i++)
		if (strcmp(w, theme_attr_names[i].name) == 0)
			return theme_attr_names[i].bit;
	return -1;
}

/* Parses one line (already without comment); 0 or -1 with a diag. */
static int
theme_parse_line(struct theme *t, char *line, const char *path,
    unsigned long lineno, struct diaglist *dl)
{
	char *words[16], *p, *save = NULL;
	int nw = 0, e, c, a, i, attrs = 0;
	short fg, bg = THEME_DEFAULT_COLOUR;

	for (p = strtok_r(line, " \t\r", &save); p != NULL && nw < 16;
	    p = strtok_r(NULL, " \t\r", &save))
		words[nw++] = p;
	if (nw == 0)
		return 0;
	if ((e = theme_elem_from_name(words[0])) < 0) {
		diag_error(dl, path, lineno, "unknown element '%s'", words[0]);
		return -1;
	}
	if (nw < 2) {
		diag_error(dl, path, lineno, "element '%s' has no colour",
		    words[0]);
		return -1;
	}
	if ((c = theme_parse_colour(words[1])) == -2) {
		diag_error(dl, path, lineno, "unknown colour '%s'", words[1]);
		return -1;
	}
	fg = (short)c;
	i = 2;
	if (nw > 2 && (c = theme_parse_colour(words[2])) != -2) {
		bg = (short)c;
		i = 3;
	}
	for (; i < nw; i++) {
		if ((a = theme_parse_attr(words[i])) < 0) {
			diag_error(dl, path, lineno,
			    "unknown colour or attribute '%s'", words[i]);
			return -1;
		}
		attrs |= a;
	}
	theme_set(t, e, fg, bg, attrs);
	return 0;
}

int
theme_load_stream(struct theme *t, FILE *fp, const char *path,
    struct diaglist *dl)
{
	char *buf = NULL, *hash;
	size_t cap = 0;
	ssize_t len;
	unsigned long lineno = 0;
	int rv = 0;

	/* getline(), not fgets(): a NUL in a line must not hide its end. */
	while ((len = getline(&buf, &cap, fp)) != -1) {
		lineno++;
		if (len > 0 && buf[len - 1] == '\n')
			buf[--len] = '\0';
		if (len >= THEME_LINE_MAX) {
			diag_error(dl, path, lineno, "line too long");
			rv = -1;
			continue;
		}
		if (memchr(buf, '\0', (size_t)len) != NULL) {
			diag_error(dl, path, lineno, "binary data");
			rv = -1;
			continue;
		}
		if ((hash = strchr(buf, '#')) != NULL)
			*hash = '\0';
		if (theme_parse_line(t, buf, path, lineno, dl) != 0)
			rv = -1;
	}
	if (ferror(fp)) {
		diag_error(dl, path, lineno, "read error: %s", strerror(errno));
		rv = -1;
	}
	free(buf);
	return rv;
}

int
theme_load_file(struct theme *t, const char *path, struct diaglist *dl)
{
	FILE *fp;
	int rv;

	if ((fp = fopen(path, "r")) == NULL) {
		diag_error(dl, path, 0, "%s", strerror(errno));
		return -1;
	}
	rv = theme_load_stream(t, fp, path, dl);
	fclose(fp);
	return rv;
}

int
theme_load(struct theme *t, const char *name, const char *dirs,
    struct diaglist *dl)
{
	char path[4096];
	const char *d, *colon;
	size_t len;

	if (strcmp(name, "mono") == 0)
		theme_mono(t);
	else
		theme_default(t);
	if (strchr(name, '/') != NULL) {
		compat_strlcpy(t->name, name, sizeof(t->name));
		return theme_load_file(t, name, dl);
	}
	for (d = dirs; d != NULL && *d != '\0'; d = colon ? colon + 1 : NULL) {
		colon = strchr(d, ':');
		len = colon ? (size_t)(colon - d) : strlen(d);
		if (len == 0)
			continue;
		snprintf(path, sizeof(path), "%.*s/%s.theme", (int)len, d,
		    name);
		if (access(path, R_OK) == 0) {
			compat_strlcpy(t->name, name, sizeof(t->name));
			return theme_load_file(t, path, dl);
		}
	}
	if (strcmp(name, "default") == 0 || strcmp(name, "mono") == 0)
		return 0;
	diag_error(dl, NULL, 0, "no theme named '%s' (looked in %s)", name,
	    dirs != NULL ? dirs : "nowhere");
	return -1;
}
