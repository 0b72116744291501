/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The strict JSON reader of json.h: a recursive descent parser whose
 * recursion is bounded by the depth limit, building a tree of nodes.
 * Every error names the line and byte column where the offending
 * token starts, so a user can find it in an editor.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/json.h"
#include "ltpscope/slurp.h"
#include "ltpscope/textsafe.h"
#include "ltpscope/xmalloc.h"

struct jparser {
	const char	*buf;
	const char	*p;
	const char	*end;
	const char	*name;
	unsigned long	 line;
	const char	*linestart;
	unsigned	 depth;
	unsigned	 max_depth;
	unsigned	 flags;
	struct diaglist	*dl;
	int		 failed;
};

/* A growing byte buffer for strings being decoded. */
struct jbuf {
	char	*s;
	size_t	 len;
	size_t	 cap;
};

static struct json	*jp_value(struct jparser *);
static void		 jp_error(struct jparser *, const char *,
			    const char *, ...)
			    __attribute__((__format__(__printf__, 3, 4)));

/* Column of at on the line starting at ls: bytes, or characters. */
static unsigned
jp_col(const struct jparser *jp, const char *ls, const char *at)
{
	const char *s;
	unsigned col = 1;

	if (!(jp->flags & JSON_COL_CHARS))
		return (unsigned)(at - ls) + 1;
	for (s = ls; s < at; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			col++;
	return col;
}

static void
jp_error(struct jparser *jp, const char *at, const char *fmt, ...)
{
	char msg[256];
	const char *q, *ls = jp->linestart;
	unsigned long line = jp->line;
	va_list ap;

	if (jp->failed)
		return;
	jp->failed = 1;
	/* at may lie on an earlier line than p (a string's start). */
	if (at < ls) {
		line = 1;
		ls = jp->buf;
		for (q = jp->buf; q < at; q++)
			if (*q == '\n') {
				line++;
				ls = q + 1;
			}
	}
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_add(jp->dl, DIAG_ERROR, jp->name, line, jp_col(jp, ls, at),
	    "%s", msg);
}

static void
jbuf_put(struct jbuf *b, const char *s, size_t n)
{
	if (b->cap - b->len < n + 1) {
		while (b->cap - b->len < n + 1)
			b->cap = b->cap ? b->cap * 2 : 64;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void
jbuf_utf8(struct jbuf *b, unsigned long c)
{
	char u[4];
	size_t n;

	if (c < 0x80) {
		u[0] = (char)c;
		n = 1;
	} else if (c < 0x800) {
		u[0] = (char)(0xc0 | (c >> 6));
		u[1] = (char)(0x80 | (c & 0x3f));
		n = 2;
	} else if (c < 0x10000) {
		u[0] = (char)(0xe0 | (c >> 12));
		u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[2] = (char)(0x80 | (c & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (c >> 18));
		u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
		u[3] = (char)(0x80 | (c & 0x3f));
		n = 4;
	}
	jbuf_put(b, u, n);
}

static void
jp_skip_ws(struct jparser *jp)
{
	while (jp->p < jp->end) {
		switch (*jp->p) {
		case '\n':
			jp->line++;
			jp->linestart = jp->p + 1;
			/* FALLTHROUGH */
		case ' ':
		case '\t':
		case '\r':
			jp->p++;
			break;
		default:
			return;
		}
	}
}

static struct json *
jp_node(struct jparser *jp, enum json_type t)
{
	struct json *v = xcalloc(1, sizeof(*v));

	v->type = t;
	v->line = jp->line;
	v->col = jp_col(jp, jp->linestart, jp->p);
	return v;
}

/* Four hex digits at p; -1 if they are not. */
static long
jp_hex4(const char *p, const char *end)
{
	long v = 0;
	int i;

	if (end - p < 4)
		return -1;
	for (i = 0; i < 4; i++) {
		v <<= 4;
		if (p[i] >= '0' && p[i] <= '9')
			v |= p[i] - '0';
		else if (p[i] >= 'a' && p[i] <= 'f')
			v |= p[i] - 'a' + 10;
		else if (p[i] >= 'A' && p[i] <= 'F')
			v |= p[i] - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/*
 * At "\uXXXX": appends the character (a surrogate pair makes one)
 * and moves p on so that the caller's "p += 2", made for two-character
 * escapes, lands past it.
 */
static int
jp_escape_u(struct jparser *jp, struct jbuf *b)
{
	long hi, lo;

	if ((hi = jp_hex4(jp->p + 2, jp->end)) < 0) {
		jp_error(jp, jp->p, "\\u needs four hex digits");
		return -1;
	}
	if (hi >= 0xdc00 && hi <= 0xdfff) {
		jp_error(jp, jp->p, "lone low surrogate \\u%04lx", hi);
		return -1;
	}
	if (hi == 0 && (jp->flags & JSON_NO_NUL)) {
		jp_error(jp, jp->p, "\\u0000 in string");
		return -1;
	}
	if (hi < 0xd800 || hi > 0xdbff) {
		jbuf_utf8(b, (unsigned long)hi);
		jp->p += 4;
		return 0;
	}
	lo = jp->end - jp->p >= 12 && jp->p[6] == '\\' && jp->p[7] == 'u' ?
	    jp_hex4(jp->p + 8, jp->end) : -1;
	if (lo < 0xdc00 || lo > 0xdfff) {
		jp_error(jp, jp->p, "high surrogate \\u%04lx not followed by "
		    "a low one", hi);
		return -1;
	}
	jbuf_utf8(b, 0x10000 + ((unsigned long)(hi - 0xd800) << 10) +
	    (unsigned long)(lo - 0xdc00));
	jp->p += 10;
	return 0;
}

/* At the opening quote; on success p is past the closing one. */
static int
jp_string(struct jparser *jp, struct jbuf *b)
{
	const char *start = jp->p, *run;
	unsigned long cp;
	size_t n;

	jp->p++;
	for (;;) {
		run = jp->p;
		while (jp->p < jp->end && *jp->p != '"' && *jp->p != '\\' &&
		    (unsigned char)*jp->p >= 0x20 &&
		    (unsigned char)*jp->p < 0x80)
			jp->p++;
		if (jp->p > run)
			jbuf_put(b, run, (size_t)(jp->p - run));
		if (jp->p >= jp->end) {
			jp_error(jp, start, "unterminated string");
			return -1;
		}
		if (*jp->p == '"') {
			jp->p++;
			if (b->s == NULL)
				jbuf_put(b, "", 0);
			return 0;
		}
		if ((unsigned char)*jp->p < 0x20) {
			jp_error(jp, jp->p, "control character 0x%02x in "
			    "string (escape it)", (unsigned char)*jp->p);
			return -1;
		}
		if ((unsigned char)*jp->p >= 0x80) {
			n = textsafe_utf8_decode(jp->p,
			    (size_t)(jp->end - jp->p), &cp);
			if (n == 0) {
				jp_error(jp, jp->p, "invalid UTF-8 in string");
				return -1;
			}
			jbuf_put(b, jp->p, n);
			jp->p += n;
			continue;
		}
		/* A backslash. */
		if (jp->end - jp->p < 2) {
			jp_error(jp, start, "unterminated string");
			return -1;
		}
		switch (jp->p[1]) {
		case '"':	jbuf_put(b, "\"", 1); break;
		case '\\':	jbuf_put(b, "\\", 1); break;
		case '/':	jbuf_put(b, "/", 1); break;
		case 'b':	jbuf_put(b, "\b", 1); break;
		case 'f':	jbuf_put(b, "\f", 1); break;
		case 'n':	jbuf_put(b, "\n", 1); break;
		case 'r':	jbuf_put(b, "\r", 1); break;
		case 't':	jbuf_put(b, "\t", 1); break;
		case 'u':
			if (jp_escape_u(jp, b) != 0)
				return -1;
			break;
		default:
			jp_error(jp, jp->p, "unknown escape '\\%c'",
			    (unsigned char)jp->p[1] >= 0x20 &&
			    (unsigned char)jp->p[1] < 0x7f ? jp->p[1] : '?');
			return -1;
		}
		jp->p += 2;
	}
}

static int
is_digit(const char *p, const char *end)
{
	return p < end && *p >= '0' && *p <= '9';
}

static struct json *
jp_number(struct jparser *jp)
{
	const char *start = jp->p, *p = jp->p, *end = jp->end;
	struct json *v;

	if (p < end && *p == '-')
		p++;
	if (!is_digit(p, end)) {
		jp_error(jp, start, "invalid number");
		return NULL;
	}
	if (*p == '0') {
		p++;
		if (is_digit(p, end)) {
			jp_error(jp, start, "leading zero in number");
			return NULL;
		}
	} else
		while (is_digit(p, end))
			p++;
	if (p < end && *p == '.') {
		p++;
		if (!is_digit(p, end)) {
			jp_error(jp, p, "digit expected after '.'");
			return NULL;
		}
		while (is_digit(p, end))
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (!is_digit(p, end)) {
			jp_error(jp, p, "digit expected in exponent");
			return NULL;
		}
		while (is_digit(p, end))
			p++;
	}
	v = jp_node(jp, JSON_NUMBER);
	v->str = xstrndup(start, (size_t)(p - start));
	v->len = (size_t)(p - start);
	/* strtod() may say ERANGE: the literal keeps the exact value. */
	v->num = strtod(v->str, NULL);
	jp->p = p;
	return v;
}

static int
jp_word(struct jparser *jp, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(jp->end - jp->p) < n || memcmp(jp->p, w, n) != 0)
		return 0;
	jp->p += n;
	return 1;
}

static int
key_seen(const struct json *obj, const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < obj->n; i++)
		if (obj->members[i].keylen == len &&
		    memcmp(obj->members[i].key, key, len) == 0)
			return 1;
	return 0;
}

static void
jp_member_add(struct json *v, size_t *cap, struct jbuf *key, struct json *val)
{
	if (v->n == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		v->members = xreallocarray(v->members, *cap,
		    sizeof(*v->members));
	}
	v->members[v->n].key = key->s;
	v->members[v->n].keylen = key->len;
	v->members[v->n].value = val;
	v->n++;
}

static struct json *
jp_object(struct jparser *jp)
{
	struct json *v = jp_node(jp, JSON_OBJECT), *val;
	struct jbuf key;
	const char *kat;
	size_t cap = 0;
	int dup;

	jp->p++;
	jp_skip_ws(jp);
	if (jp->p < jp->end && *jp->p == '}') {
		jp->p++;
		return v;
	}
	for (;;) {
		jp_skip_ws(jp);
		if (jp->p >= jp->end || *jp->p != '"') {
			jp_error(jp, jp->p, jp->p >= jp->end ?
			    "unexpected end of input in object" :
			    "object key (a string) expected");
			goto fail;
		}
		kat = jp->p;
		memset(&key, 0, sizeof(key));
		if (jp_string(jp, &key) != 0) {
			free(key.s);
			goto fail;
		}
		/* Linear: objects in real files are small. */
		dup = key_seen(v, key.s, key.len);
		if (dup && !(jp->flags & JSON_DUPKEY_WARN)) {
			jp_error(jp, kat, "duplicate key \"%.60s\"", key.s);
			free(key.s);
			goto fail;
		}
		if (dup)
			diag_add(jp->dl, DIAG_WARNING, jp->name, jp->line,
			    jp_col(jp, jp->linestart, kat), "duplicate key "
			    "\"%.60s\"; the first one counts", key.s);
		jp_skip_ws(jp);
		if (jp->p >= jp->end || *jp->p != ':') {
			jp_error(jp, jp->p, "':' expected after object key");
			free(key.s);
			goto fail;
		}
		jp->p++;
		if ((val = jp_value(jp)) == NULL) {
			free(key.s);
			goto fail;
		}
		if (dup) {
			free(key.s);
			json_free(val);
		} else
			jp_member_add(v, &cap, &key, val);
		jp_skip_ws(jp);
		if (jp->p < jp->end && *jp->p == ',') {
			jp->p++;
			continue;
		}
		if (jp->p < jp->end && *jp->p == '}') {
			jp->p++;
			return v;
		}
		jp_error(jp, jp->p, jp->p >= jp->end ?
		    "unexpected end of input in object" :
		    "',' or '}' expected in object");
		goto fail;
	}
fail:
	json_free(v);
	return NULL;
}

static struct json *
jp_array(struct jparser *jp)
{
	struct json *v = jp_node(jp, JSON_ARRAY), *item;
	size_t cap = 0;

	jp->p++;
	jp_skip_ws(jp);
	if (jp->p < jp->end && *jp->p == ']') {
		jp->p++;
		return v;
	}
	for (;;) {
		if ((item = jp_value(jp)) == NULL)
			goto fail;
		if (v->n == cap) {
			cap = cap ? cap * 2 : 8;
			v->items = xreallocarray(v->items, cap,
			    sizeof(*v->items));
		}
		v->items[v->n++] = item;
		jp_skip_ws(jp);
		if (jp->p < jp->end && *jp->p == ',') {
			jp->p++;
			continue;
		}
		if (jp->p < jp->end && *jp->p == ']') {
			jp->p++;
			return v;
		}
		jp_error(jp, jp->p, jp->p >= jp->end ?
		    "unexpected end of input in array" :
		    "',' or ']' expected in array");
		goto fail;
	}
fail:
	json_free(v);
	return NULL;
}

static struct json *
jp_value(struct jparser *jp)
{
	struct json *v;
	struct jbuf b;
	const char *at;

	jp_skip_ws(jp);
	if (jp->p >= jp->end) {
		jp_error(jp, jp->p, "unexpected end of input, value "
		    "expected");
		return NULL;
	}
	at = jp->p;
	switch (*jp->p) {
	case '{':
	case '[':
		if (jp->depth >= jp->max_depth) {
			jp_error(jp, at, "nesting deeper than %u levels",
			    jp->max_depth);
			return NULL;
		}
		jp->depth++;
		v = *jp->p == '{' ? jp_object(jp) : jp_array(jp);
		jp->depth--;
		return v;
	case '"':
		v = jp_node(jp, JSON_STRING);
		memset(&b, 0, sizeof(b));
		if (jp_string(jp, &b) != 0) {
			free(b.s);
			json_free(v);
			return NULL;
		}
		v->str = b.s;
		v->len = b.len;
		return v;
	case 't':
	case 'f':
	case 'n':
		v = jp_node(jp, *at == 't' ? JSON_TRUE :
		    *at == 'f' ? JSON_FALSE : JSON_NULL);
		if (jp_word(jp, *at == 't' ? "true" : *at == 'f' ? "false" :
		    "null"))
			return v;
		json_free(v);
		break;
	default:
		if (*at == '-' || (*at >= '0' && *at <= '9'))
			return jp_number(jp);
		break;
	}
	if ((unsigned char)*at >= 0x21 && (unsigned char)*at < 0x7f)
		jp_error(jp, at, "unexpected '%c', value expected", *at);
	else
		jp_error(jp, at, "unexpected byte 0x%02x, value expected",
		    (unsigned char)*at);
	return NULL;
}

int
json_parse(struct json **rootp, const char *buf, size_t len,
    const char *name, const struct json_limits *lim, struct diaglist *dl)
{
	struct jparser jp;
	struct json *v;
	size_t max_size;

	*rootp = NULL;
	memset(&jp, 0, sizeof(jp));
	jp.buf = jp.p = jp.linestart = buf;
	jp.end = buf + len;
	jp.name = name;
	jp.line = 1;
	jp.dl = dl;
	jp.max_depth = lim != NULL && lim->max_depth != 0 ? lim->max_depth :
	    JSON_DEPTH_MAX;
	jp.flags = lim != NULL ? lim->flags : 0;
	max_size = lim != NULL && lim->max_size != 0 ? lim->max_size :
	    JSON_SIZE_MAX;
	if (len > max_size) {
		diag_add(dl, DIAG_ERROR, name, 1, 1, "document of %zu bytes "
		    "is larger than the limit of %zu", len, max_size);
		return -1;
	}
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		jp.p = jp.linestart = buf + 3;
	if ((v = jp_value(&jp)) == NULL)
		return -1;
	jp_skip_ws(&jp);
	if (jp.p < jp.end) {
		jp_error(&jp, jp.p, "unexpected data after the value");
		json_free(v);
		return -1;
	}
	*rootp = v;
	return 0;
}

int
json_parse_file(struct json **rootp, const char *path,
    const struct json_limits *lim, struct diaglist *dl)
{
	size_t len, max_size;
	char *buf;
	int rc;

	*rootp = NULL;
	max_size = lim != NULL && lim->max_size != 0 ? lim->max_size :
	    JSON_SIZE_MAX;
	/* Reading stops early past the limit: json_parse() reports it. */
	if (slurp_file_diag(path, max_size, &buf, &len, dl) == -1)
		return -1;
	rc = json_parse(rootp, buf, len, path, lim, dl);
	free(buf);
	return rc;
}

void
json_free(struct json *v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; v->type == JSON_ARRAY && i < v->n; i++)
		json_free(v->items[i]);
	for (i = 0; v->type == JSON_OBJECT && i < v->n; i++) {
		free(v->members[i].key);
		json_free(v->members[i].value);
	}
	free(v->items);
	free(v->members);
	free(v->str);
	free(v);
}

const char *
json_type_name(enum json_type t)
{
	static const char *const names[] = { "null", "false", "true",
	    "number", "string", "array", "object" };

	if ((unsigned)t >= sizeof(names) / sizeof(names[0]))
		return "?";
	return names[t];
}

const struct json *
json_get(const struct json *v, const char *key)
{
	size_t i, len;

	if (v == NULL || v->type != JSON_OBJECT)
		return NULL;
	len = strlen(key);
	for (i = 0; i < v->n; i++)
		if (v->members[i].keylen == len &&
		    memcmp(v->members[i].key, key, len) == 0)
			return v->members[i].value;
	return NULL;
}

const struct json *
json_at(const struct json *v, size_t i)
{
	if (v == NULL || v->type != JSON_ARRAY || i >= v->n)
		return NULL;
	return v->items[i];
}

size_t
json_count(const struct json *v)
{
	if (v == NULL || (v->type != JSON_ARRAY && v->type != JSON_OBJECT))
		return 0;
	return v->n;
}

const char *
json_string(const struct json *v, const char *dflt)
{
	if (v == NULL || v->type != JSON_STRING)
		return dflt;
	return v->str;
}

int
json_int64(const struct json *v, int64_t *out)
{
	long long ll;
	char *ep;

	if (v == NULL || v->type != JSON_NUMBER)
		return -1;
	if (strpbrk(v->str, ".eE") == NULL) {
		errno = 0;
		ll = strtoll(v->str, &ep, 10);
		if (errno != 0 || *ep != '\0')
			return -1;
		*out = (int64_t)ll;
		return 0;
	}
	/* Fraction or exponent: exact only up to 2^53 through a double. */
	if (!(v->num >= -9007199254740992.0 && v->num <= 9007199254740992.0))
		return -1;
	ll = (long long)v->num;
	if ((double)ll != v->num)
		return -1;
	*out = (int64_t)ll;
	return 0;
}

double
json_number(const struct json *v, double dflt)
{
	if (v == NULL || v->type != JSON_NUMBER)
		return dflt;
	return v->num;
}

int
json_bool(const struct json *v, int dflt)
{
	if (v == NULL)
		return dflt;
	if (v->type == JSON_TRUE)
		return 1;
	if (v->type == JSON_FALSE)
		return 0;
	return dflt;
}
