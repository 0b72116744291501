/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Splitting a runtest command line into argv.
 *
 * LTP's own runners hand every runtest line to /bin/sh.  We would rather
 * exec the test directly (no shell between us and the test's session,
 * exact argv in the store), so we split the line ourselves when it is a
 * simple command and only fall back to "sh -c" when the shell would do
 * something we cannot reproduce exactly: expansions, redirections,
 * pipelines, lists, globbing, assignments, compound commands.
 */
#include <stdlib.h>
#include <string.h>

#include "ltpscope/ltpindex.h"
#include "ltpscope/xmalloc.h"

struct wordbuf {
	char	*s;
	size_t	 len;
	size_t	 cap;
};

static void
wordbuf_put(struct wordbuf *w, char c)
{
	if (w->len + 1 >= w->cap) {
		w->cap = w->cap ? w->cap * 2 : 32;
		w->s = xrealloc(w->s, w->cap);
	}
	w->s[w->len++] = c;
	w->s[w->len] = '\0';
}

static void
argv_push(char ***vp, size_t *np, struct wordbuf *w)
{
	*vp = xreallocarray(*vp, *np + 2, sizeof(**vp));
	(*vp)[(*np)++] = w->s != NULL ? w->s : xstrdup("");
	(*vp)[*np] = NULL;
	w->s = NULL;
	w->len = w->cap = 0;
}

/* Words the shell parses as the start of a compound command. */
static int
is_reserved_word(const char *w)
{
	static const char *const reserved[] = {
		"!", "{", "if", "for", "while", "until", "case", NULL
	};
	size_t i;

	for (i = 0; reserved[i] != NULL; i++)
		if (strcmp(w, reserved[i]) == 0)
			return 1;
	return 0;
}

/* NAME= at the start of the first word makes it an assignment. */
static int
is_assignment(const char *start, const char *eq)
{
	const char *p;

	if (eq == start || (*start >= '0' && *start <= '9'))
		return 0;
	for (p = start; p < eq; p++)
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
			return 0;
	return 1;
}

int
runtest_split(const char *line, char ***argvp, const char **why,
    unsigned int *col)
{
	struct wordbuf w = { NULL, 0, 0 };
	char **v = NULL;
	size_t n = 0;
	const char *p, *q, *wstart = NULL;
	int inword = 0, shell = 0, quoted = 0;

	*argvp = NULL;
	for (p = line;; p++) {
		if (*p == '\0' || *p == ' ' || *p == '\t') {
			if (inword) {
				if (n == 0 && !quoted && w.s != NULL &&
				    is_reserved_word(w.s))
					shell = 1;
				argv_push(&v, &n, &w);
				inword = quoted = 0;
			}
			if (*p == '\0')
				break;
			continue;
		}
		if (!inword) {
			inword = 1;
			wstart = p;
			/* Tilde and comment only count at a word's start. */
			if (*p == '~' || *p == '#')
				shell = 1;
		}
		switch (*p) {
		case '\'':
			quoted = 1;
			if ((q = strchr(p + 1, '\'')) == NULL) {
				*why = "unterminated single quote";
				goto syntax;
			}
			for (p++; p < q; p++)
				wordbuf_put(&w, *p);
			break;
		case '"':
			quoted = 1;
			q = p;
			for (p++; *p != '"'; p++) {
				if (*p == '\0') {
					p = q;
					*why = "unterminated double quote";
					goto syntax;
				}
				if (*p == '$' || *p == '`')
					shell = 1;
				if (*p == '\\' && p[1] != '\0' &&
				    strchr("$`\"\\", p[1]) != NULL)
					p++;
				wordbuf_put(&w, *p);
			}
			break;
		case '\\':
			if (p[1] == '\0') {
				*why = "backslash at end of line";
				goto syntax;
			}
			wordbuf_put(&w, *++p);
			break;
		case '=':
			if (n == 0 && !quoted && !shell &&
			    is_assignment(wstart, p))
				shell = 1;
			wordbuf_put(&w, *p);
			break;
		case ';': case '|': case '&': case '<': case '>':
		case '(': case ')': case '`': case '$':
		case '*': case '?': case '[':
			shell = 1;
			wordbuf_put(&w, *p);
			break;
		default:
			wordbuf_put(&w, *p);
			break;
		}
	}
	if (shell || n == 0) {
		xfreev(v);
		return 0;
	}
	*argvp = v;
	return 1;

syntax:
	*col = (unsigned int)(p - line) + 1;
	free(w.s);
	xfreev(v);
	return -1;
}
