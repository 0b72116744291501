/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Display sanitizer, ANSI stripper and width measure (see textsafe.h).
 *
 * Child output is hostile in the plain sense: a test that writes a
 * clear-screen sequence or a bare CR must not repaint our screen, and
 * a stray byte must show up as something a developer can read and
 * report.  Everything here works on (pointer, length) so NUL bytes are
 * data, not terminators.
 */
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ltpscope/textsafe.h"
#include "ltpscope/wordscan.h"
#include "ltpscope/xmalloc.h"

#define ESC	0x1b
#define BEL	0x07

enum ansi_st {
	ST_GROUND,
	ST_ESC,		/* after ESC */
	ST_ESCINT,	/* ESC then intermediates, e.g. ESC ( B */
	ST_CSI,		/* ESC [ params intermediates final */
	ST_STR,		/* OSC, DCS, SOS, PM, APC: up to BEL or ST */
	ST_STR_ESC	/* ESC inside a string: ST is ESC \ */
};

/* A growing output buffer; always room for the final NUL. */
struct obuf {
	char	*p;
	size_t	 len;
	size_t	 cap;
};

static void
obuf_need(struct obuf *b, size_t n)
{
	if (b->len + n + 1 <= b->cap)
		return;
	while (b->len + n + 1 > b->cap)
		b->cap = b->cap ? b->cap * 2 : 64;
	b->p = xrealloc(b->p, b->cap);
}

static void
obuf_add(struct obuf *b, const char *s, size_t n)
{
	obuf_need(b, n);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static char *
obuf_finish(struct obuf *b, size_t *outlen)
{
	obuf_need(b, 0);
	b->p[b->len] = '\0';
	if (outlen != NULL)
		*outlen = b->len;
	return b->p;
}

int
ansi_feed(struct ansi_state *a, unsigned char c)
{
	if (a->st == ST_GROUND) {
		if (c != ESC)
			return 1;
		a->st = ST_ESC;
		a->n = 1;
		return 0;
	}
	/* Line ends always win: a broken sequence must not eat lines. */
	if (c == '\n' || c == '\r') {
		a->st = ST_GROUND;
		return 1;
	}
	if (++a->n > ANSI_SEQ_MAX) {
		a->st = ST_GROUND;
		return 1;
	}
	/* ESC inside a sequence abandons it and starts another. */
	if (c == ESC && a->st != ST_STR) {
		a->st = ST_ESC;
		a->n = 1;
		return 0;
	}
	switch (a->st) {
	case ST_ESC:
		if (c == '[')
			a->st = ST_CSI;
		else if (c == ']' || c == 'P' || c == 'X' || c == '^' ||
		    c == '_')
			a->st = ST_STR;
		else if (c >= 0x20 && c <= 0x2f)
			a->st = ST_ESCINT;
		else if (c >= 0x30 && c <= 0x7e)
			a->st = ST_GROUND;	/* two-byte sequence */
		else {
			/* ESC before a control or non-ASCII: drop the ESC. */
			a->st = ST_GROUND;
			return 1;
		}
		return 0;
	case ST_ESCINT:
		if (c >= 0x20 && c <= 0x2f)
			return 0;
		a->st = ST_GROUND;
		return c >= 0x30 && c <= 0x7e ? 0 : 1;
	case ST_CSI:
		if (c >= 0x20 && c <= 0x3f)
			return 0;
		a->st = ST_GROUND;
		return c >= 0x40 && c <= 0x7e ? 0 : 1;
	case ST_STR:
		if (c == BEL)
			a->st = ST_GROUND;
		else if (c == ESC)
			a->st = ST_STR_ESC;
		return 0;
	case ST_STR_ESC:
		if (c == '\\') {
			a->st = ST_GROUND;
			return 0;
		}
		/* Not ST: the ESC started a new sequence. */
		a->st = ST_ESC;
		a->n = 1;
		return ansi_feed(a, c);
	default:
		a->st = ST_GROUND;
		return 1;
	}
}

size_t
ansi_csi_len(const char *s, size_t n)
{
	size_t i, max = n < ANSI_SEQ_MAX ? n : ANSI_SEQ_MAX;
	unsigned char c;

	if (max < 3 || s[0] != ESC || s[1] != '[')
		return 0;
	for (i = 2; i < max; i++) {
		c = (unsigned char)s[i];
		if (c >= 0x40 && c <= 0x7e)
			return i + 1;	/* the final byte */
		if (c < 0x20 || c > 0x3f)
			return 0;	/* ansi_feed() decides */
	}
	return 0;
}

char *
textsafe_strip_ansi(const char *s, size_t len, size_t *outlen)
{
	struct ansi_state a = { 0, 0 };
	char *out = xmalloc(len + 1);
	size_t i, n = 0;

	for (i = 0; i < len; i++)
		if (ansi_feed(&a, (unsigned char)s[i]))
			out[n++] = s[i];
	out[n] = '\0';
	if (outlen != NULL)
		*outlen = n;
	return out;
}

size_t
textsafe_utf8_decode(const char *s, size_t n, unsigned long *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned long c, min;
	size_t len, i;

	if (n == 0)
		return 0;
	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if (u[0] >= 0xc2 && u[0] <= 0xdf) {
		len = 2;
		c = u[0] & 0x1f;
		min = 0x80;
	} else if (u[0] >= 0xe0 && u[0] <= 0xef) {
		len = 3;
		c = u[0] & 0x0f;
		min = 0x800;
	} else if (u[0] >= 0xf0 && u[0] <= 0xf4) {
		len = 4;
		c = u[0] & 0x07;
		min = 0x10000;
	} else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

int
textsafe_utf8_valid(const char *s, size_t len)
{
	unsigned long cp;
	size_t i = 0, k;

	while (i < len) {
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		if ((k = textsafe_utf8_decode(s + i, len - i, &cp)) == 0)
			return 0;
		i += k;
	}
	return 1;
}

/* Characters that reorder or break lines on screen: show them escaped. */
static int
cp_is_unsafe(unsigned long cp)
{
	return (cp >= 0x80 && cp <= 0x9f) ||
	    (cp >= 0x202a && cp <= 0x202e) ||
	    (cp >= 0x2066 && cp <= 0x2069) ||
	    cp == 0x2028 || cp == 0x2029 || cp == 0x200e || cp == 0x200f ||
	    cp == 0x061c;
}

/* Used when the locale cannot tell us: enough for LTP's output. */
static int
cp_width_builtin(unsigned long cp)
{
	static const unsigned long zero[][2] = {
		{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd },
		{ 0x1ab0, 0x1aff }, { 0x1dc0, 0x1dff }, { 0x200b, 0x200f },
		{ 0x20d0, 0x20ff }, { 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f },
	};
	static const unsigned long wide[][2] = {
		{ 0x1100, 0x115f }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff },
		{ 0x3400, 0x4dbf }, { 0x4e00, 0x9fff }, { 0xa000, 0xa4cf },
		{ 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe30, 0xfe4f },
		{ 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x1f300, 0x1f64f },
		{ 0x1f900, 0x1f9ff }, { 0x20000, 0x2fffd },
		{ 0x30000, 0x3fffd },
	};
	size_t i;

	for (i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		if (cp >= zero[i][0] && cp <= zero[i][1])
			return 0;
	for (i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (cp >= wide[i][0] && cp <= wide[i][1])
			return 2;
	return 1;
}

static int
locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs != NULL && (strcmp(cs, "UTF-8") == 0 ||
	    strcmp(cs, "utf-8") == 0 || strcmp(cs, "utf8") == 0 ||
	    strcmp(cs, "UTF8") == 0);
}

/* Width of the k-byte character cp at s. */
static int
char_width(const char *s, size_t k, unsigned long cp, int utf8)
{
	mbstate_t mbs;
	wchar_t wc;
	int w;

	if (cp < 0x80)
		return 1;
	if (utf8) {
		memset(&mbs, 0, sizeof(mbs));
		if (mbrtowc(&wc, s, k, &mbs) == k) {
			w = wcwidth(wc);
			return w < 0 ? 1 : w;
		}
	}
	return cp_width_builtin(cp);
}

size_t
textsafe_width(const char *s, size_t len)
{
	unsigned long cp;
	size_t i = 0, k, w = 0;
	int utf8 = locale_is_utf8();

	while (i < len) {
		if ((unsigned char)s[i] < 0x80) {
			w++;
			i++;
			continue;
		}
		if ((k = textsafe_utf8_decode(s + i, len - i, &cp)) == 0) {
			w++;
			i++;
			continue;
		}
		w += (size_t)char_width(s + i, k, cp, utf8);
		i += k;
	}
	return w;
}

size_t
textsafe_break(const char *s, size_t width)
{
	size_t n = strlen(s), i, fit = 0;

	if (textsafe_width(s, n) <= width)
		return n;
	for (i = 1; i < n; i++)
		if (s[i] == ' ' && textsafe_width(s, i) <= width)
			fit = i;
	if (fit > 0)
		return fit;
	/* One word wider than the line: cut it between characters. */
	for (i = 1; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (textsafe_width(s, i) > width)
				break;
			fit = i;
		}
	return fit > 0 ? fit : i;
}

char *
textsafe_display(const char *s, size_t len, int flags, size_t *outlen)
{
	struct obuf b = { NULL, 0, 0 };
	char *stripped = NULL, tmp[16];
	unsigned long cp;
	size_t i = 0, k, col = 0, sp;
	unsigned char c;
	int utf8 = -1;		/* asked only for a non-ASCII character */

	if (flags & TEXTSAFE_STRIP_ANSI) {
		stripped = textsafe_strip_ansi(s, len, &len);
		s = stripped;
	}
	obuf_need(&b, len);
	while (i < len) {
		c = (unsigned char)s[i];
		if (c == '\t' && !(flags & TEXTSAFE_TAB_CARET)) {
			sp = 8 - col % 8;
			obuf_add(&b, "        ", sp);
			col += sp;
			i++;
		} else if (c < 0x20 || c == 0x7f) {
			tmp[0] = '^';
			tmp[1] = c == 0x7f ? '?' : (char)(c + 0x40);
			obuf_add(&b, tmp, 2);
			col += 2;
			i++;
		} else if (c < 0x80) {
			/* Printable ASCII, the common case: a whole run. */
			k = i + 1 + wordscan_plain(s + i + 1, len - i - 1);
			obuf_add(&b, s + i, k - i);
			col += k - i;
			i = k;
		} else if ((k = textsafe_utf8_decode(s + i, len - i,
		    &cp)) == 0) {
			(void)snprintf(tmp, sizeof(tmp), "\\x%02x", c);
			obuf_add(&b, tmp, 4);
			col += 4;
			i++;
		} else if (cp_is_unsafe(cp)) {
			(void)snprintf(tmp, sizeof(tmp), "\\u%04lx", cp);
			obuf_add(&b, tmp, 6);
			col += 6;
			i += k;
		} else {
			obuf_add(&b, s + i, k);
			if (utf8 < 0)
				utf8 = locale_is_utf8();
			col += (size_t)char_width(s + i, k, cp, utf8);
			i += k;
		}
	}
	free(stripped);
	return obuf_finish(&b, outlen);
}
