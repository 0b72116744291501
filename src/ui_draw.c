/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Putting untrusted text on the screen.  Test output and table files can
 * hold any byte; none of them may reach the terminal raw, so every
 * control byte becomes a visible placeholder (^X, or <XX> for bytes that
 * are not valid UTF-8) before curses sees it.  The theme's attributes
 * are turned on and off here too.
 */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ltpscope/ui.h"
#include "ui_priv.h"

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	cp = len == 2 ? ((s[0] & 0x1fu) << 6) | (s[1] & 0x3fu) :
	    len == 3 ? ((s[0] & 0x0fu) << 12) | ((s[1] & 0x3fu) << 6) |
	    (s[2] & 0x3fu) :
	    ((s[0] & 0x07u) << 18) | ((s[1] & 0x3fu) << 12) |
	    ((s[2] & 0x3fu) << 6) | (s[3] & 0x3fu);
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
	    (cp >= 0x80 && cp < 0xa0))
		return 0;
	return len;
}

int
ui_put(int y, int x, const char *str, int width, int pad)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = str ? strlen(str) : 0, i = 0, len;
	char ph[8];
	int used = 0, w;

	if (width <= 0)
		return 0;
	move(y, x);
	while (i < n && used < width) {
		if (s[i] >= 0x20 && s[i] < 0x7f) {
			addch(s[i]);
			used++;
			i++;
			continue;
		}
		if (s[i] == '\t') {
			w = 8 - (used % 8);
			while (w-- > 0 && used < width) {
				addch(' ');
				used++;
			}
			i++;
			continue;
		}
		len = utf8_len(s + i, n - i);
		if (len > 1) {
			wchar_t wc;
			mbstate_t mbs;

			memset(&mbs, 0, sizeof(mbs));
			if (mbrtowc(&wc, (const char *)s + i, len, &mbs) ==
			    len && (w = wcwidth(wc)) >= 0 &&
			    used + w <= width) {
				addnstr((const char *)s + i, (int)len);
				used += w;
				i += len;
				continue;
			}
		}
		/* A placeholder, shown dimmed-free but unmistakable. */
		if (s[i] < 0x20)
			snprintf(ph, sizeof(ph), "^%c", s[i] + '@');
		else if (s[i] == 0x7f)
			snprintf(ph, sizeof(ph), "^?");
		else
			snprintf(ph, sizeof(ph), "\\x%02x", s[i]);
		w = (int)strlen(ph);
		if (used + w > width)
			break;
		addstr(ph);
		used += w;
		i++;
	}
	if (pad)
		while (used < width) {
			addch(' ');
			used++;
		}
	return used;
}

int
ui_col(int y, int x, const char *s, int w, int width)
{
	if (x >= width)
		return x;
	if (w > width - x)
		w = width - x;
	ui_put(y, x, s, w, 1);
	return x + w;
}

int
ui_col_name(int y, int x, const char *s, int w, int width)
{
	char buf[256];

	if (w < 3 || w > (int)sizeof(buf))
		return ui_col(y, x, s, w, width);
	/* Names are what a syscall table or runtest file holds: ASCII. */
	if (strlen(s) > (size_t)w - 1) {
		(void)snprintf(buf, sizeof(buf), "%.*s~", w - 2, s);
		s = buf;
	}
	x = ui_col(y, x, s, w - 1, width);
	return ui_col(y, x, "", 1, width);
}

int
ui_putf(int y, int x, int width, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ui_put(y, x, buf, width, 1);
}

enum theme_elem
ui_status_elem(enum test_status s)
{
	switch (s) {
	case TS_PASS:
		return TE_PASS;
	case TS_FAIL:
		return TE_FAIL;
	case TS_BROKEN:
	case TS_TIMEOUT:
	case TS_SIGNALLED:
	case TS_INTERRUPTED:
	case TS_CRASH:
		return TE_BROKEN;
	case TS_CONF:
		return TE_CONF;
	case TS_WARN:
		return TE_WARN;
	case TS_RUNNING:
		return TE_META;
	default:
		return TE_DIM;
	}
}

char
ui_status_char(enum test_status s)
{
	static const char chars[TS__COUNT] = {
		[TS_PASS] = '.', [TS_FAIL] = 'F', [TS_BROKEN] = 'B',
		[TS_CONF] = 'c', [TS_WARN] = 'w', [TS_TIMEOUT] = 'T',
		[TS_SIGNALLED] = 'S', [TS_NOTRUN] = '-',
		[TS_INTERRUPTED] = 'I', [TS_RUNNING] = '>',
		[TS_UNKNOWN] = '?', [TS_CRASH] = 'X'
	};

	return (unsigned)s < TS__COUNT ? chars[s] : '?';
}

void
ui_attr_on(struct ui *ui, enum theme_elem e)
{
	attron(ui->attr[e]);
}

void
ui_attr_off(struct ui *ui, enum theme_elem e)
{
	attroff(ui->attr[e]);
}
