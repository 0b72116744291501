/*
 * The metadata module's strict JSON parser (see ltpmeta_json.h): a
 * recursive descent over the buffer, building a tree.  It keeps track
 * of line and column so that a broken ltp.json is reported where it
 * breaks, not as "parse error".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ltpmeta_json.h"
#include "ltpscope/xmalloc.h"

struct mj_parser {
	const char	*p;		/* next byte */
	const char	*end;
	const char	*name;
	unsigned long	 line;
	const char	*linestart;
	struct diaglist	*dl;
	int		 failed;
};

/* Column of q, counting characters (UTF-8 continuation bytes are not). */
static unsigned int
mj_col(const struct mj_parser *ps, const char *q)
{
	const char *s;
	unsigned int col = 1;

	for (s = ps->linestart; s < q; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			col++;
	return col;
}

static void
mj_fail(struct mj_parser *ps, const char *at, const char *fmt, ...)
	__attribute__((__format__(__printf__, 3, 4)));

static void
mj_fail(struct mj_parser *ps, const char *at, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (ps->failed)
		return;
	ps->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_add(ps->dl, DIAG_ERROR, ps->name, ps->line, mj_col(ps, at),
	    "%s", msg);
}

static void
mj_skip_ws(struct mj_parser *ps)
{
	while (ps->p < ps->end) {
		switch (*ps->p) {
		case '\n':
			ps->line++;
			ps->linestart = ps->p + 1;
			/* FALLTHROUGH */
		case ' ':
		case '\t':
		case '\r':
			ps->p++;
			break;
		default:
			return;
		}
	}
}

/* What the byte at p looks like in a message. */
static const char *
mj_what(const struct mj_parser *ps, char *buf, size_t len)
{
	unsigned char c;

	if (ps->p >= ps->end)
		return "the end of the file";
	c = (unsigned char)*ps->p;
	if (c >= 0x21 && c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", c);
	return buf;
}

static int	mj_value(struct mj_parser *, struct mj_value *, int);

static void
mj_clear(struct mj_value *v)
{
	size_t i;

	free(v->str);
	for (i = 0; i < v->n; i++) {
		mj_clear(&v->items[i]);
		if (v->keys != NULL)
			free(v->keys[i]);
	}
	free(v->items);
	free(v->keys);
	memset(v, 0, sizeof(*v));
}

void
mj_free(struct mj_value *v)
{
	if (v == NULL)
		return;
	mj_clear(v);
	free(v);
}

static void
mj_put_utf8(char *out, size_t *o, uint32_t cp)
{
	if (cp < 0x80)
		out[(*o)++] = (char)cp;
	else if (cp < 0x800) {
		out[(*o)++] = (char)(0xc0 | (cp >> 6));
		out[(*o)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		out[(*o)++] = (char)(0xe0 | (cp >> 12));
		out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*o)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		out[(*o)++] = (char)(0xf0 | (cp >> 18));
		out[(*o)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		out[(*o)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[(*o)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static int
mj_hex4(struct mj_parser *ps, const char *q, uint32_t *cp)
{
	int i, d;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		if (q + i >= ps->end) {
			mj_fail(ps, q + i, "\\u escape cut short");
			return -1;
		}
		if (q[i] >= '0' && q[i] <= '9')
			d = q[i] - '0';
		else if (q[i] >= 'a' && q[i] <= 'f')
			d = q[i] - 'a' + 10;
		else if (q[i] >= 'A' && q[i] <= 'F')
			d = q[i] - 'A' + 10;
		else {
			mj_fail(ps, q + i, "\\u wants four hex digits");
			return -1;
		}
		*cp = *cp << 4 | (uint32_t)d;
	}
	return 0;
}

/* Length of the valid UTF-8 sequence at q, or 0 when it is not one. */
static size_t
mj_utf8_len(const unsigned char *q, const unsigned char *end)
{
	size_t n, i;
	uint32_t cp;

	if (q[0] < 0x80)
		return 1;
	if (q[0] >= 0xc2 && q[0] <= 0xdf)
		n = 2, cp = q[0] & 0x1f;
	else if (q[0] >= 0xe0 && q[0] <= 0xef)
		n = 3, cp = q[0] & 0x0f;
	else if (q[0] >= 0xf0 && q[0] <= 0xf4)
		n = 4, cp = q[0] & 0x07;
	else
		return 0;
	if ((size_t)(end - q) < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((q[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (q[i] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

static int
mj_string(struct mj_parser *ps, char **outp, size_t *lenp)
{
	const char *start = ps->p, *q;
	char *out;
	size_t o = 0, n;
	uint32_t cp, lo;

	q = ++ps->p;
	/* Decoded text is never longer than the escaped source. */
	while (q < ps->end && *q != '"') {
		if (*q == '\\' && q + 1 < ps->end)
			q++;
		q++;
	}
	if (q >= ps->end) {
		mj_fail(ps, start, "string not closed");
		return -1;
	}
	out = xmalloc((size_t)(q - ps->p) + 1);
	while (*ps->p != '"') {
		unsigned char c = (unsigned char)*ps->p;

		if (c < 0x20) {
			mj_fail(ps, ps->p, "control byte 0x%02x in a string "
			    "(write it as \\u%04x)", c, c);
			goto bad;
		}
		if (c >= 0x80) {
			n = mj_utf8_len((const unsigned char *)ps->p,
			    (const unsigned char *)ps->end);
			if (n == 0) {
				mj_fail(ps, ps->p, "invalid UTF-8 in a string");
				goto bad;
			}
			memcpy(out + o, ps->p, n);
			o += n;
			ps->p += n;
			continue;
		}
		if (c != '\\') {
			out[o++] = (char)c;
			ps->p++;
			continue;
		}
		ps->p++;
		switch (*ps->p) {
		case '"': case '\\': case '/':
			out[o++] = *ps->p;
			break;
		case 'b': out[o++] = '\b'; break;
		case 'f': out[o++] = '\f'; break;
		case 'n': out[o++] = '\n'; break;
		case 'r': out[o++] = '\r'; break;
		case 't': out[o++] = '\t'; break;
		case 'u':
			if (mj_hex4(ps, ps->p + 1, &cp) != 0)
				goto bad;
			if (cp >= 0xdc00 && cp <= 0xdfff) {
				mj_fail(ps, ps->p - 1, "lone low surrogate "
				    "\\u%04x", (unsigned)cp);
				goto bad;
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				if (ps->p + 6 >= ps->end || ps->p[5] != '\\' ||
				    ps->p[6] != 'u' ||
				    mj_hex4(ps, ps->p + 7, &lo) != 0 ||
				    lo < 0xdc00 || lo > 0xdfff) {
					mj_fail(ps, ps->p - 1, "high surrogate "
					    "\\u%04x without its low half",
					    (unsigned)cp);
					goto bad;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				ps->p += 6;
			}
			/* \u0000 cannot live in a C string: refuse it. */
			if (cp == 0) {
				mj_fail(ps, ps->p - 1, "\\u0000 in a string");
				goto bad;
			}
			mj_put_utf8(out, &o, cp);
			ps->p += 4;
			break;
		default:
			mj_fail(ps, ps->p - 1, "unknown escape '\\%c'",
			    *ps->p >= 0x20 && *ps->p < 0x7f ? *ps->p : '?');
			goto bad;
		}
		ps->p++;
	}
	ps->p++;
	out[o] = '\0';
	*outp = out;
	*lenp = o;
	return 0;
bad:
	free(out);
	return -1;
}

static int
mj_digits(struct mj_parser *ps)
{
	const char *s = ps->p;

	while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9')
		ps->p++;
	return ps->p > s;
}

static int
mj_number(struct mj_parser *ps, struct mj_value *v)
{
	const char *s = ps->p;
	char *endp;

	if (*ps->p == '-')
		ps->p++;
	if (ps->p < ps->end && *ps->p == '0') {
		ps->p++;
		if (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9') {
			mj_fail(ps, s, "number with a leading zero");
			return -1;
		}
	} else if (!mj_digits(ps)) {
		mj_fail(ps, s, "'-' without digits");
		return -1;
	}
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		if (!mj_digits(ps)) {
			mj_fail(ps, ps->p, "digits wanted after '.'");
			return -1;
		}
	}
	if (ps->p < ps->end && (*ps->p == 'e' || *ps->p == 'E')) {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		if (!mj_digits(ps)) {
			mj_fail(ps, ps->p, "digits wanted in the exponent");
			return -1;
		}
	}
	v->type = MJ_NUMBER;
	v->str = xstrndup(s, (size_t)(ps->p - s));
	v->len = (size_t)(ps->p - s);
	errno = 0;
	v->num = strtod(v->str, &endp);
	return 0;
}

static int
mj_word(struct mj_parser *ps, const char *word, enum mj_type t,
    struct mj_value *v)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) {
		mj_fail(ps, ps->p, "unexpected '%c' (a value wanted)", *ps->p);
		return -1;
	}
	ps->p += n;
	v->type = t;
	return 0;
}

static int
mj_array(struct mj_parser *ps, struct mj_value *v, int depth)
{
	size_t cap = 0;
	char what[16];

	v->type = MJ_ARRAY;
	ps->p++;
	mj_skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return 0;
	}
	for (;;) {
		if (v->n == cap) {
			cap = cap ? cap * 2 : 4;
			v->items = xreallocarray(v->items, cap,
			    sizeof(*v->items));
		}
		memset(&v->items[v->n], 0, sizeof(*v->items));
		v->n++;
		if (mj_value(ps, &v->items[v->n - 1], depth + 1) != 0)
			return -1;
		mj_skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			mj_skip_ws(ps);
			if (ps->p < ps->end && *ps->p == ']') {
				mj_fail(ps, ps->p, "trailing ',' in an array");
				return -1;
			}
			continue;
		}
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			return 0;
		}
		mj_fail(ps, ps->p, "',' or ']' wanted, not %s",
		    mj_what(ps, what, sizeof(what)));
		return -1;
	}
}

static int
mj_object(struct mj_parser *ps, struct mj_value *v, int depth)
{
	size_t cap = 0, i, klen;
	const char *kat;
	char what[16], *key;

	v->type = MJ_OBJECT;
	ps->p++;
	mj_skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return 0;
	}
	for (;;) {
		if (ps->p >= ps->end || *ps->p != '"') {
			mj_fail(ps, ps->p, "a \"key\" wanted, not %s",
			    mj_what(ps, what, sizeof(what)));
			return -1;
		}
		kat = ps->p;
		if (mj_string(ps, &key, &klen) != 0)
			return -1;
		for (i = 0; i < v->n; i++)
			if (strcmp(v->keys[i], key) == 0) {
				diag_add(ps->dl, DIAG_WARNING, ps->name,
				    ps->line, mj_col(ps, kat), "duplicate key "
				    "\"%s\"; the first one counts", key);
				break;
			}
		if (v->n == cap) {
			cap = cap ? cap * 2 : 8;
			v->items = xreallocarray(v->items, cap,
			    sizeof(*v->items));
			v->keys = xreallocarray(v->keys, cap,
			    sizeof(*v->keys));
		}
		memset(&v->items[v->n], 0, sizeof(*v->items));
		v->keys[v->n++] = key;
		mj_skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ':') {
			mj_fail(ps, ps->p, "':' wanted after a key, not %s",
			    mj_what(ps, what, sizeof(what)));
			return -1;
		}
		ps->p++;
		if (mj_value(ps, &v->items[v->n - 1], depth + 1) != 0)
			return -1;
		mj_skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			mj_skip_ws(ps);
			if (ps->p < ps->end && *ps->p == '}') {
				mj_fail(ps, ps->p, "trailing ',' in an "
				    "object");
				return -1;
			}
			continue;
		}
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			return 0;
		}
		mj_fail(ps, ps->p, "',' or '}' wanted, not %s",
		    mj_what(ps, what, sizeof(what)));
		return -1;
	}
}

static int
mj_value(struct mj_parser *ps, struct mj_value *v, int depth)
{
	char what[16];

	mj_skip_ws(ps);
	v->line = ps->line;
	v->col = mj_col(ps, ps->p);
	if (ps->p >= ps->end) {
		mj_fail(ps, ps->p, "a value wanted, not the end of the file");
		return -1;
	}
	if (depth > MJ_MAX_DEPTH) {
		mj_fail(ps, ps->p, "nested deeper than %d", MJ_MAX_DEPTH);
		return -1;
	}
	switch (*ps->p) {
	case '{':
		return mj_object(ps, v, depth);
	case '[':
		return mj_array(ps, v, depth);
	case '"':
		v->type = MJ_STRING;
		return mj_string(ps, &v->str, &v->len);
	case 't':
		return mj_word(ps, "true", MJ_TRUE, v);
	case 'f':
		return mj_word(ps, "false", MJ_FALSE, v);
	case 'n':
		return mj_word(ps, "null", MJ_NULL, v);
	default:
		if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
			return mj_number(ps, v);
		mj_fail(ps, ps->p, "a value wanted, not %s",
		    mj_what(ps, what, sizeof(what)));
		return -1;
	}
}

struct mj_value *
mj_parse(const char *buf, size_t len, const char *name, struct diaglist *dl)
{
	struct mj_parser ps;
	struct mj_value *v = xcalloc(1, sizeof(*v));
	char what[16];

	memset(&ps, 0, sizeof(ps));
	ps.p = ps.linestart = buf;
	ps.end = buf + len;
	ps.name = name;
	ps.line = 1;
	ps.dl = dl;
	/* A UTF-8 byte order mark is tolerated, as RFC 8259 allows. */
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		ps.p += 3;
	if (mj_value(&ps, v, 0) == 0) {
		mj_skip_ws(&ps);
		if (ps.p < ps.end)
			mj_fail(&ps, ps.p, "%s after the end of the document",
			    mj_what(&ps, what, sizeof(what)));
	}
	if (ps.failed) {
		mj_free(v);
		return NULL;
	}
	return v;
}

const struct mj_value *
mj_get(const struct mj_value *v, const char *key)
{
	size_t i;

	if (v == NULL || v->type != MJ_OBJECT)
		return NULL;
	for (i = 0; i < v->n; i++)
		if (strcmp(v->keys[i], key) == 0)
			return &v->items[i];
	return NULL;
}

const char *
mj_str(const struct mj_value *v)
{
	return v != NULL && v->type == MJ_STRING ? v->str : NULL;
}
