/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Finding function definitions in KNF C without ctags (kindex.h).
 *
 * A candidate is a line that starts at column 0 with an identifier
 * directly followed by "(", outside comments and preprocessor lines.
 * It is a definition when, after its parameter list (which may span
 * lines, carry comments or #ifdefs), a "{" comes: at once (ANSI), or
 * after indented declarations (K&R).  A ";" on the line that closes the
 * list (a prototype, attributes and all), or a line at column 0 before
 * any "{", means it is not.  Names without a lower-case letter are
 * macro invocations (SYSCTL_SETUP, MODULE) and are left out.
 *
 * Most lines hold no "/" and are skipped with memchr(): the whole scan
 * of a 4 M-line tree stays within a few times the cost of reading it.
 */
#include <string.h>

#include "ltpscope/kindex.h"

/* Lines a parameter list and K&R declarations may take, at most. */
#define KS_MAXLINES	64

static int
ks_id0(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
ks_id(int c)
{
	return ks_id0(c) || (c >= '0' && c <= '9');
}

static int
ks_has_lower(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] >= 'a' && s[i] <= 'z')
			return 1;
	return 0;
}

/* Past a string or character literal starting at p (on *p). */
static const char *
ks_skip_quoted(const char *p, const char *end)
{
	char q = *p++;

	while (p < end && *p != q && *p != '\n') {
		if (*p == '\\' && p + 1 < end)
			p++;
		p++;
	}
	return p < end && *p == q ? p + 1 : p;
}

/*
 * The comment state after line [p, eol), starting in a comment when
 * incomment is set.  Only lines that hold a "/" (or continue a comment)
 * need a look at each byte.
 */
static int
ks_comment_after(const char *p, const char *eol, int incomment)
{
	const char *s;

	if (!incomment && memchr(p, '/', (size_t)(eol - p)) == NULL)
		return 0;
	while (p < eol) {
		if (incomment) {
			if ((s = memchr(p, '*', (size_t)(eol - p))) == NULL)
				return 1;
			if (s + 1 < eol && s[1] == '/') {
				incomment = 0;
				p = s + 2;
			} else
				p = s + 1;
			continue;
		}
		if (*p == '"' || *p == '\'')
			p = ks_skip_quoted(p, eol);
		else if (*p == '/' && p + 1 < eol && p[1] == '/')
			return 0;
		else if (*p == '/' && p + 1 < eol && p[1] == '*') {
			incomment = 1;
			p += 2;
		} else
			p++;
	}
	return incomment;
}

/* Whether the line starting at p is a preprocessor line. */
static int
ks_is_cpp(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return p < end && *p == '#';
}

/* Past the preprocessor line at p, its continuations included. */
static const char *
ks_skip_cpp(const char *p, const char *end, unsigned *nlp)
{
	const char *eol;

	for (;;) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return end;
		(*nlp)++;
		if (eol == p || eol[-1] != '\\')
			return eol + 1;
		p = eol + 1;
	}
}

/*
 * Whether the "(" at p opens the parameter list of a definition: walks
 * the list and what follows it, byte by byte, for at most KS_MAXLINES.
 */
static int
ks_is_def(const char *p, const char *end)
{
	unsigned nl = 0;
	int depth = 0, closed = 0, closed_nl = 0, bol = 0;

	while (p < end && nl < KS_MAXLINES) {
		if (bol) {
			bol = 0;
			if (ks_is_cpp(p, end)) {
				p = ks_skip_cpp(p, end, &nl);
				bol = 1;
				continue;
			}
			/* A new top-level line before any body: no body. */
			if (closed && *p != ' ' && *p != '\t' && *p != '{' &&
			    *p != '\n' && *p != '/')
				return 0;
		}
		switch (*p) {
		case '\n':
			nl++;
			bol = 1;
			if (closed)
				closed_nl = 1;
			p++;
			break;
		case '"':
		case '\'':
			p = ks_skip_quoted(p, end);
			break;
		case '/':
			if (p + 1 < end && p[1] == '*') {
				const char *c = p + 2;

				for (; c + 1 < end && (c[0] != '*' ||
				    c[1] != '/'); c++)
					if (*c == '\n')
						nl++;
				p = c + 2;
			} else if (p + 1 < end && p[1] == '/') {
				while (p < end && *p != '\n')
					p++;
			} else
				p++;
			break;
		case '(':
			depth++;
			p++;
			break;
		case ')':
			if (--depth == 0)
				closed = 1;
			if (depth < 0)
				return 0;
			p++;
			break;
		case '{':
			return closed && depth == 0;
		case ';':
			/* K&R declarations sit on the lines after the list. */
			if (depth == 0 && (!closed || !closed_nl))
				return 0;
			p++;
			break;
		case '=':
		case ',':
			if (depth == 0 && !closed_nl)
				return 0;
			p++;
			break;
		default:
			p++;
			break;
		}
	}
	return 0;
}

int
kindex_scan(const char *text, size_t len,
    int (*found)(void *, const char *, size_t, unsigned long), void *arg)
{
	const char *p = text, *end = text + len, *eol, *q;
	unsigned long line = 1;
	int incomment = 0, incpp = 0, rc;

	while (p < end) {
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if (!incomment && !incpp && ks_id0((unsigned char)*p)) {
			for (q = p + 1; q < eol && ks_id((unsigned char)*q);
			    q++)
				continue;
			if (q < eol && *q == '(' &&
			    ks_has_lower(p, (size_t)(q - p)) &&
			    ks_is_def(q, end) &&
			    (rc = found(arg, p, (size_t)(q - p), line)) != 0)
				return rc;
		}
		if (incpp || (!incomment && *p == '#') ||
		    (!incomment && ks_is_cpp(p, eol)))
			incpp = eol > p && eol[-1] == '\\';
		else
			incomment = ks_comment_after(p, eol, incomment);
		p = eol + 1;
		line++;
	}
	return 0;
}
