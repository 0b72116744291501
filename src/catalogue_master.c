/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Parser for NetBSD syscalls.master files: the native table, compat_linux
 * of every arch and compat_linux32.  It follows what makesyscalls.sh
 * accepts: "number type [options] { rettype|prefix|version|name(args); }
 * [alias]" with backslash continuations, ';' comments, an optional "%%"
 * line, and C preprocessor lines whose #if branch is the default view.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/xmalloc.h"
#include "catalogue_impl.h"

#define CAT_MAX_DEPTH	32

struct cat_frame {
	const char	*cond;		/* guard text of the current branch */
	const char	*text;		/* the condition as written */
	const char	*what;		/* "#ifdef", "#if", ... */
	unsigned long	 line;
	int		 in_else;
};

struct master {
	struct cat_parse	*p;
	struct cat_frame	 frames[CAT_MAX_DEPTH];
	int			 depth;
	int			 overflow;	/* frames past the limit */
	const char		*guard;		/* of the current position */
	int			 alternate;
	char			*buf;		/* the logical line */
	size_t			 cap;
	unsigned long		*seen;		/* number -> first line */
	size_t			 nseen;
};

/* Numbers above this are not checked for duplicates. */
#define CAT_MAX_TRACKED	65536

static const struct {
	const char	*word;
	enum cat_type	 type;
} master_types[] = {
	{ "STD", CT_STD }, { "NOARGS", CT_NOARGS }, { "NODEF", CT_NODEF },
	{ "NOERR", CT_NOERR }, { "INDIR", CT_INDIR }, { "EXTERN", CT_EXTERN },
	{ "UNIMPL", CT_UNIMPL }, { "OBSOL", CT_OBSOL },
	{ "IGNORED", CT_IGNORED }, { "EXCL", CT_EXCL },
};

static int
is_ident_start(int c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static int
is_ident(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static const char *
skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' ||
	    *s == '\v')
		s++;
	return s;
}

static const char *
skip_word(const char *s)
{
	while (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\r' &&
	    *s != '\f' && *s != '\v')
		s++;
	return s;
}

static int
is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
	    c == '\f' || c == '\v';
}

/* Copy of s[0..n) with runs of blanks made one space and ends trimmed. */
static const char *
squeeze(struct catalogue *cat, const char *s, size_t n)
{
	const char *end = s + n;
	char *out, *o;
	int space = 0;

	while (s < end && is_blank(*s))
		s++;
	while (end > s && is_blank(end[-1]))
		end--;
	if (s == end)
		return "";
	o = out = cat_alloc(cat, (size_t)(end - s) + 1);
	for (; s < end; s++) {
		if (is_blank(*s)) {
			space = 1;
			continue;
		}
		/* No blank just inside parentheses: "( int" -> "(int". */
		if (space && o[-1] != '(' && *s != ')')
			*o++ = ' ';
		space = 0;
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

/*
 * "defined(X)" and "!defined(X)" are written the way #ifdef would
 * write them, so guards read alike whichever form the file used.
 */
static const char *
simplify_cond(struct catalogue *cat, const char *s, size_t n)
{
	const char *q, *e;
	int neg = 0;
	char tmp[256];

	if (n > 0 && *s == '!') {
		neg = 1;
		s++;
		n--;
	}
	if (n > 9 && memcmp(s, "defined(", 8) == 0 && s[n - 1] == ')') {
		q = s + 8;
		e = s + n - 1;
		while (q < e && isspace((unsigned char)*q))
			q++;
		while (e > q && isspace((unsigned char)e[-1]))
			e--;
		if (e > q && (size_t)(e - q) < sizeof(tmp) - 2) {
			const char *r;

			for (r = q; r < e && is_ident(*r); r++)
				continue;
			if (r == e) {
				(void)snprintf(tmp, sizeof(tmp), "%s%.*s",
				    neg ? "!" : "", (int)(e - q), q);
				return cat_strdup(cat, tmp);
			}
		}
	}
	if (neg) {
		s--;
		n++;
	}
	return squeeze(cat, s, n);
}

/* The guard of the #else branch of cond. */
static const char *
negate_cond(struct catalogue *cat, const char *cond)
{
	const char *s;
	char *out;
	size_t n = strlen(cond);

	if (cond[0] == '!') {
		for (s = cond + 1; is_ident(*s); s++)
			continue;
		if (*s == '\0')
			return cond + 1;
	} else {
		for (s = cond; is_ident(*s); s++)
			continue;
		if (*s == '\0') {
			out = cat_alloc(cat, n + 2);
			out[0] = '!';
			memcpy(out + 1, cond, n + 1);
			return out;
		}
	}
	out = cat_alloc(cat, n + 4);
	(void)snprintf(out, n + 4, "!(%s)", cond);
	return out;
}

static void
recompute_guard(struct master *m)
{
	struct catalogue *cat = m->p->cat;
	size_t len = 0;
	char *g;
	int i;

	m->alternate = 0;
	for (i = 0; i < m->depth; i++) {
		len += strlen(m->frames[i].cond) + 4;
		if (m->frames[i].in_else)
			m->alternate = 1;
	}
	if (m->depth == 0) {
		m->guard = "";
		return;
	}
	g = cat_alloc(cat, len + 1);
	g[0] = '\0';
	for (i = 0; i < m->depth; i++) {
		if (i > 0)
			strcat(g, " && ");
		strcat(g, m->frames[i].cond);
	}
	m->guard = g;
}

static void
directive(struct master *m, unsigned long line, const char *s)
{
	struct cat_parse *p = m->p;
	struct catalogue *cat = p->cat;
	const char *w, *we, *arg;
	size_t wlen, alen;
	struct cat_frame *f;

	w = skip_space(s + 1);
	for (we = w; is_ident(*we); we++)
		continue;
	wlen = (size_t)(we - w);
	arg = skip_space(we);
	alen = strlen(arg);
	while (alen > 0 && isspace((unsigned char)arg[alen - 1]))
		alen--;
	/* A trailing C comment is not part of the condition. */
	if (alen > 0) {
		const char *c = strstr(arg, "/*");

		if (c != NULL && (size_t)(c - arg) < alen) {
			alen = (size_t)(c - arg);
			while (alen > 0 &&
			    isspace((unsigned char)arg[alen - 1]))
				alen--;
		}
	}

#define IS(x)	(wlen == sizeof(x) - 1 && memcmp(w, x, wlen) == 0)
	if (IS("if") || IS("ifdef") || IS("ifndef")) {
		if (alen == 0) {
			cat_error(p, line, "#%.*s without a condition",
			    (int)wlen, w);
		}
		if (m->depth == CAT_MAX_DEPTH) {
			if (m->overflow++ == 0)
				cat_error(p, line, "#if nested more than %d "
				    "deep", CAT_MAX_DEPTH);
			return;
		}
		f = &m->frames[m->depth++];
		f->line = line;
		f->in_else = 0;
		f->text = squeeze(cat, arg, alen);
		if (IS("if")) {
			f->what = "#if";
			f->cond = simplify_cond(cat, arg, alen);
		} else if (IS("ifdef")) {
			f->what = "#ifdef";
			f->cond = squeeze(cat, arg, alen);
		} else {
			f->what = "#ifndef";
			f->cond = negate_cond(cat, squeeze(cat, arg, alen));
		}
		if (f->cond[0] == '\0')
			f->cond = "?";
		recompute_guard(m);
	} else if (IS("else") || IS("elif")) {
		if (m->overflow > 0)
			return;
		if (m->depth == 0) {
			cat_error(p, line, "#%.*s without #if", (int)wlen, w);
			return;
		}
		f = &m->frames[m->depth - 1];
		if (f->in_else && IS("else")) {
			cat_error(p, line, "second #else for the %s %s at "
			    "line %lu", f->what, f->text, f->line);
			return;
		}
		if (IS("elif")) {
			/* Only the first branch is the default view. */
			f->cond = simplify_cond(cat, arg, alen);
		} else
			f->cond = negate_cond(cat, f->cond);
		f->in_else = 1;
		recompute_guard(m);
	} else if (IS("endif")) {
		if (m->overflow > 0) {
			m->overflow--;
			return;
		}
		if (m->depth == 0) {
			cat_error(p, line, "#endif without #if");
			return;
		}
		m->depth--;
		recompute_guard(m);
	} else if (IS("include") || IS("define") || IS("undef") ||
	    IS("error") || IS("warning") || IS("pragma") || IS("line") ||
	    wlen == 0) {
		/* Copied to the generated C files; nothing for us. */
	} else
		cat_error(p, line, "unknown preprocessor directive '#%.*s'",
		    (int)wlen, w);
#undef IS
}

static const char *const name_prefixes[] = {
	"linux32_sys_", "linux_sys_", "linux32_", "linux_", "sys_"
};

/* "linux_setuid16" names the call setuid16. */
static const char *
strip_prefix(const char *s)
{
	size_t i, n;

	for (i = 0; i < sizeof(name_prefixes) / sizeof(name_prefixes[0]);
	    i++) {
		n = strlen(name_prefixes[i]);
		if (strncmp(s, name_prefixes[i], n) == 0 && s[n] != '\0')
			return s + n;
	}
	return s;
}

/* The Linux-looking name in an UNIMPL comment, or "". */
static const char *
comment_name(struct catalogue *cat, const char *c)
{
	const char *s, *best = NULL;
	size_t bestlen = 0;

	/* A C comment ("unused") is prose, not a name. */
	if (c[0] == '/' && c[1] == '*')
		return "";
	for (s = c; *s != '\0';) {
		const char *w = s, *e;

		e = skip_word(w);
		if (is_ident_start(*w)) {
			const char *q;

			for (q = w; q < e && is_ident(*q); q++)
				continue;
			if (q == e) {
				best = w;
				bestlen = (size_t)(e - w);
			}
		}
		s = skip_space(e);
	}
	if (best == NULL)
		return "";
	return strip_prefix(cat_strndup(cat, best, bestlen));
}

static int
parse_type(struct cat_parse *p, struct cat_entry *e, const char *w,
    size_t n, unsigned long line)
{
	size_t i;

	for (i = 0; i < sizeof(master_types) / sizeof(master_types[0]);
	    i++) {
		if (strlen(master_types[i].word) == n &&
		    memcmp(master_types[i].word, w, n) == 0) {
			e->type = master_types[i].type;
			e->type_name = master_types[i].word;
			return 0;
		}
	}
	if (n > 7 && memcmp(w, "COMPAT_", 7) == 0) {
		for (i = 7; i < n; i++)
			if (!isupper((unsigned char)w[i]) &&
			    !isdigit((unsigned char)w[i]) && w[i] != '_')
				break;
		if (i == n) {
			e->type = CT_COMPAT;
			e->type_name = cat_strndup(p->cat, w, n);
			return 0;
		}
	}
	cat_error(p, line, "unknown type '%.*s'", (int)(n > 64 ? 64 : n), w);
	return -1;
}

/* Appends s to buf (of size bytes, *len used), cutting it if need be. */
static void
append(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s);

	if (n > size - 1 - *len)
		n = size - 1 - *len;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

/*
 * "{ rettype|prefix|version|name(args); } [alias]" starting at s (the
 * '{').  Fills function, prototype, own name and alias.
 */
static int
parse_proto(struct cat_parse *p, struct cat_entry *e, const char *s,
    unsigned long line)
{
	struct catalogue *cat = p->cat;
	const char *close, *bar[3], *q, *name, *nend, *args, *aend, *after;
	const char *rettype, *prefix, *version, *basename;
	char fn[512], *proto;
	int nbar = 0;
	size_t plen, size;

	if ((close = strchr(s, '}')) == NULL) {
		cat_error(p, line, "missing '}' after the prototype of %ld",
		    e->number);
		return -1;
	}
	for (q = s + 1; q < close && nbar < 3; q++)
		if (*q == '|')
			bar[nbar++] = q;
	if (nbar < 3) {
		cat_error(p, line, "prototype of %ld is not "
		    "'rettype|prefix|version|name(args)'", e->number);
		return -1;
	}
	name = skip_space(bar[2] + 1);
	for (nend = name; nend < close && is_ident(*nend); nend++)
		continue;
	args = skip_space(nend);
	if (nend == name || *args != '(') {
		cat_error(p, line, "prototype of %ld has no 'name(args)'",
		    e->number);
		return -1;
	}
	for (aend = close; aend > args && aend[-1] != ')'; aend--)
		continue;
	if (aend <= args) {
		cat_error(p, line, "prototype of %ld lacks ')'", e->number);
		return -1;
	}
	rettype = squeeze(cat, s + 1, (size_t)(bar[0] - s - 1));
	prefix = squeeze(cat, bar[0] + 1, (size_t)(bar[1] - bar[0] - 1));
	version = squeeze(cat, bar[1] + 1, (size_t)(bar[2] - bar[1] - 1));
	basename = cat_strndup(cat, name, (size_t)(nend - name));

	/* makesyscalls: compat_NN_ + prefix_ + name, or ___nameVER. */
	plen = 0;
	if (e->type == CT_COMPAT) {
		size_t i;

		append(fn, sizeof(fn), &plen, "compat_");
		for (i = 7; e->type_name[i] != '\0' && plen < 60; i++)
			fn[plen++] = (char)tolower(
			    (unsigned char)e->type_name[i]);
		fn[plen++] = '_';
		fn[plen] = '\0';
	}
	append(fn, sizeof(fn), &plen, prefix);
	if (prefix[0] != '\0')
		append(fn, sizeof(fn), &plen, "_");
	if (version[0] != '\0')
		append(fn, sizeof(fn), &plen, "__");
	append(fn, sizeof(fn), &plen, basename);
	append(fn, sizeof(fn), &plen, version);
	e->function = cat_strndup(cat, fn, plen);
	args = squeeze(cat, args, (size_t)(aend - args));
	size = strlen(rettype) + plen + strlen(args) + 2;
	proto = cat_alloc(cat, size);
	plen = 0;
	append(proto, size, &plen, rettype);
	/* "int f(...)" but "void *f(...)", as the kernel sources write. */
	if (rettype[0] != '\0' && rettype[strlen(rettype) - 1] != '*')
		append(proto, size, &plen, " ");
	append(proto, size, &plen, e->function);
	append(proto, size, &plen, args);
	e->prototype = proto;
	e->state = strncmp(prefix, "linux", 5) == 0 ? CS_COMPAT : CS_NATIVE;

	after = skip_space(close + 1);
	if (*after != '\0') {
		const char *ae = skip_word(after);

		for (q = after; q < ae && is_ident(*q); q++)
			continue;
		if (q != ae) {
			cat_error(p, line, "bad alias '%.*s' after the "
			    "prototype of %ld", (int)(ae - after > 64 ? 64 :
			    ae - after), after, e->number);
			return -1;
		}
		e->alias = cat_strndup(cat, after, (size_t)(ae - after));
		if (*skip_space(ae) != '\0') {
			cat_error(p, line, "unexpected text after the alias "
			    "of %ld", e->number);
			return -1;
		}
	}
	e->basename = basename;
	e->own_name = e->alias[0] != '\0' ? e->alias : basename;
	return 0;
}

static void
entry_line(struct master *m, unsigned long line, const char *s)
{
	struct cat_parse *p = m->p;
	struct cat_entry *e, tmp;
	const char *w, *we, *rest, *pre_alias = NULL;
	char *end;
	long num;

	w = s;
	we = skip_word(w);
	num = strtol(w, &end, 10);
	if (end != we || !isdigit((unsigned char)*w) || we - w > 6) {
		cat_error(p, line, "bad syscall number '%.*s'",
		    (int)(we - w > 32 ? 32 : we - w), w);
		return;
	}
	memset(&tmp, 0, sizeof(tmp));
	tmp.number = num;
	w = skip_space(we);
	if (*w == '\0') {
		cat_error(p, line, "no type after syscall number %ld", num);
		return;
	}
	we = skip_word(w);
	if (parse_type(p, &tmp, w, (size_t)(we - w), line) != 0)
		return;
	rest = skip_space(we);

	/* Each number once in the default view; #else branches repeat. */
	if (!m->alternate && num < CAT_MAX_TRACKED) {
		if ((size_t)num >= m->nseen) {
			size_t nn = m->nseen ? m->nseen : 512;

			while (nn <= (size_t)num)
				nn *= 2;
			m->seen = xreallocarray(m->seen, nn, sizeof(*m->seen));
			memset(m->seen + m->nseen, 0,
			    (nn - m->nseen) * sizeof(*m->seen));
			m->nseen = nn;
		}
		if (m->seen[num] != 0) {
			cat_error(p, line, "duplicate syscall number %ld "
			    "(first at line %lu)", num, m->seen[num]);
			return;
		}
		m->seen[num] = line;
	}

	e = cat_new_entry(p);
	e->number = num;
	e->type = tmp.type;
	e->type_name = tmp.type_name;
	e->line = line;
	e->guard = m->guard;
	e->alternate = m->alternate;
	e->format = CF_MASTER;

	switch (e->type) {
	case CT_UNIMPL:
	case CT_OBSOL:
	case CT_EXCL:
	case CT_IGNORED:
		e->state = e->type == CT_UNIMPL ? CS_UNIMPL : CS_OBSOLETE;
		e->comment = squeeze(p->cat, rest, strlen(rest));
		e->own_name = comment_name(p->cat, e->comment);
		return;
	default:
		break;
	}

	/*
	 * Before the prototype: "MODULAR name", "RUMP", and in old tables
	 * the syscall's own name ("23 NOARGS linux_setuid16 { ...").
	 */
	w = rest;
	while (*w != '\0' && *w != '{') {
		we = skip_word(w);
		if (we - w == 7 && memcmp(w, "MODULAR", 7) == 0)
			we = skip_word(skip_space(we));
		else if (!(we - w == 4 && memcmp(w, "RUMP", 4) == 0))
			pre_alias = cat_strndup(p->cat, w, (size_t)(we - w));
		w = skip_space(we);
	}
	if (w > rest)
		e->modifiers = squeeze(p->cat, rest, (size_t)(w - rest));
	if (*w != '{') {
		cat_error(p, line, "missing '{' before the prototype of %ld "
		    "(type %s)", num, e->type_name);
		cat_drop_last(p);
		return;
	}
	/* A half-understood entry would mislead: leave the slot out. */
	if (parse_proto(p, e, w, line) != 0) {
		cat_drop_last(p);
		return;
	}
	if (pre_alias != NULL && e->alias[0] == '\0') {
		e->alias = pre_alias;
		e->own_name = strip_prefix(pre_alias);
	}
}

/* One line after continuations are joined. */
static void
logical_line(struct master *m, unsigned long line, const char *buf)
{
	const char *s = skip_space(buf);

	if (*s == '\0' || *s == ';')
		return;
	if (*s == '#')
		directive(m, line, s);
	else if (s[0] == '%' && s[1] == '%')
		return;
	else if (s[0] == '$')
		return;		/* the RCS id that heads every file */
	else
		entry_line(m, line, s);
}

void
cat_parse_master(struct cat_parse *p, const char *buf, size_t len)
{
	struct master m;
	const char *pos = buf, *end = buf + len, *nl;
	unsigned long lineno = 0, start = 0;
	size_t used = 0;
	int bad = 0, pending = 0, i;

	memset(&m, 0, sizeof(m));
	m.p = p;
	m.guard = "";
	m.cap = 4096;
	m.buf = xmalloc(m.cap);

	for (; pos < end && !p->gave_up; pos = nl + 1) {
		size_t n;
		int cont;

		if ((nl = memchr(pos, '\n', (size_t)(end - pos))) == NULL)
			nl = end;
		n = (size_t)(nl - pos);
		lineno++;
		if (!pending) {
			start = lineno;
			bad = 0;
		}
		if (memchr(pos, '\0', n) != NULL) {
			cat_error(p, lineno, "binary data (NUL byte)");
			bad = 1;
		} else if (used + n >= CAT_MAX_LINE) {
			if (!bad)
				cat_error(p, start, "line longer than %d "
				    "bytes", CAT_MAX_LINE);
			bad = 1;
		}
		cont = n > 0 && pos[n - 1] == '\\';
		if (!cont && n > 1 && pos[n - 1] == '\r' && pos[n - 2] == '\\')
			cont = 1;
		if (!bad) {
			size_t take = n;

			if (take > 0 && pos[take - 1] == '\r')
				take--;
			if (cont)
				take--;
			if (used + take + 2 > m.cap) {
				while (used + take + 2 > m.cap)
					m.cap *= 2;
				m.buf = xrealloc(m.buf, m.cap);
			}
			memcpy(m.buf + used, pos, take);
			used += take;
			if (cont)
				m.buf[used++] = ' ';
		}
		if ((pending = cont && nl < end))
			continue;
		m.buf[used] = '\0';
		used = 0;
		if (!bad)
			logical_line(&m, start, m.buf);
	}
	for (i = m.depth - 1; i >= 0; i--)
		cat_error(p, m.frames[i].line, "unterminated %s %s at end of "
		    "file", m.frames[i].what, m.frames[i].text);
	free(m.buf);
	free(m.seen);
}
