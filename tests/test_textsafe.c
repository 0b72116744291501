/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The display sanitizer never lets a control byte, escape sequence or
 * broken UTF-8 through (checked over every byte pair and random
 * garbage), shows what it replaced in a readable form, strips ANSI
 * sequences, and measures width in the C locale and a UTF-8 one.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/textsafe.h"
#include "tap.h"

/*
 * Safe for a terminal: well-formed UTF-8 with no C0, DEL, C1, or
 * reordering characters.
 */
static int
screen_safe(const char *s, size_t len)
{
	unsigned long cp;
	size_t i = 0, k;

	while (i < len) {
		if ((k = textsafe_utf8_decode(s + i, len - i, &cp)) == 0)
			return 0;
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) ||
		    (cp >= 0x202a && cp <= 0x202e) ||
		    (cp >= 0x2066 && cp <= 0x2069) ||
		    cp == 0x2028 || cp == 0x2029)
			return 0;
		i += k;
	}
	return 1;
}

static void
show(const char *in, size_t len, int flags, const char *want,
    const char *what)
{
	size_t n;
	char *out = textsafe_display(in, len, flags, &n);

	is_str(out, want, "display: %s", what);
	ok(strlen(out) == n, "display: %s: length agrees", what);
	free(out);
}

#define SHOW(lit, flags, want, what)	show((lit), sizeof(lit) - 1, \
					    (flags), (want), (what))

static void
check_placeholders(void)
{
	SHOW("plain text", 0, "plain text", "ASCII unchanged");
	SHOW("\x1b[31mred\x1b[0m", 0, "^[[31mred^[[0m", "ESC as ^[");
	SHOW("\x1b[31mred\x1b[0m", TEXTSAFE_STRIP_ANSI, "red",
	    "sequences stripped on request");
	SHOW("a\0b", 0, "a^@b", "NUL as ^@");
	SHOW("a\rb\nc\bd\a", 0, "a^Mb^Jc^Hd^G", "CR LF BS BEL");
	SHOW("\x7f", 0, "^?", "DEL as ^?");
	SHOW("\x1f", 0, "^_", "US as ^_");
	SHOW("\t", 0, "        ", "tab to column 8");
	SHOW("ab\tc", 0, "ab      c", "tab to the next stop");
	SHOW("^[\t", 0, "^[      ", "tab counts placeholder width");
	SHOW("\xe6\x97\xa5\t", 0, "\xe6\x97\xa5      ",
	    "tab after a wide character");
	SHOW("a\tb", TEXTSAFE_TAB_CARET, "a^Ib", "tab as ^I on request");
	SHOW("\xc2\x9b" "2J", 0, "\\u009b2J", "C1 CSI as \\u009b");
	SHOW("\xc2\x85", 0, "\\u0085", "C1 NEL");
	SHOW("\x9b" "2J", 0, "\\x9b2J", "raw 0x9b is invalid UTF-8");
	SHOW("\xff\xfe", 0, "\\xff\\xfe", "invalid bytes as \\xNN");
	SHOW("\xc0\xaf", 0, "\\xc0\\xaf", "overlong refused");
	SHOW("\xed\xa0\x80", 0, "\\xed\\xa0\\x80", "surrogate refused");
	SHOW("\xe2\x82", 0, "\\xe2\\x82", "truncated character");
	SHOW("caf\xc3\xa9 \xe2\x82\xac", 0, "caf\xc3\xa9 \xe2\x82\xac",
	    "valid UTF-8 kept");
	SHOW("a\xe2\x80\xae" "b", 0, "a\\u202eb", "bidi override shown");
	SHOW("a\xe2\x80\xa8" "b", 0, "a\\u2028b", "line separator shown");
}

static void
check_all_pairs(void)
{
	char in[2], *out;
	size_t n;
	int a, b, bad = 0, flags;

	for (flags = 0; flags <= 3; flags++)
		for (a = 0; a < 256; a++)
			for (b = 0; b < 256; b++) {
				in[0] = (char)a;
				in[1] = (char)b;
				out = textsafe_display(in, 2, flags, &n);
				if (!screen_safe(out, n) && bad++ == 0)
					tap_diag("unsafe: %02x %02x", a, b);
				free(out);
			}
	is_int(bad, 0, "every byte pair, every flag: output is safe");
}

static void
check_random(void)
{
	static const unsigned char pick[] = {
		0x1b, '[', ']', ';', '0', '1', 'm', 0x07, '\\', 0x9b, 0xc2,
		0xe2, 0x80, 0xae, 0x00, '\r', '\n', '\t', 0x7f, 0xff, 'a'
	};
	unsigned long seed = 42;
	char buf[400], *out;
	size_t len, i, n;
	int round, bad = 0, bads = 0;

	for (round = 0; round < 3000; round++) {
		seed = seed * 1103515245 + 12345;
		len = (seed >> 16) % sizeof(buf);
		for (i = 0; i < len; i++) {
			seed = seed * 1103515245 + 12345;
			buf[i] = (seed >> 20) & 1 ?
			    (char)pick[(seed >> 8) % sizeof(pick)] :
			    (char)((seed >> 8) & 0xff);
		}
		out = textsafe_display(buf, len, round & 3, &n);
		if (!screen_safe(out, n))
			bad++;
		free(out);
		out = textsafe_strip_ansi(buf, len, &n);
		if (memchr(out, 0x1b, n) != NULL && len < ANSI_SEQ_MAX)
			bads++;
		free(out);
	}
	is_int(bad, 0, "3000 random buffers: output is safe");
	is_int(bads, 0, "random buffers: strip leaves no ESC");
}

static void
strip(const char *in, size_t len, const char *want, size_t wantlen,
    const char *what)
{
	size_t n;
	char *out = textsafe_strip_ansi(in, len, &n);

	ok(n == wantlen && memcmp(out, want, n) == 0, "strip: %s", what);
	free(out);
}

#define STRIP(in, want, what)	strip((in), sizeof(in) - 1, (want), \
				    sizeof(want) - 1, (what))

static void
check_strip(void)
{
	char big[300 + 3], *out;
	struct ansi_state a = { 0, 0 };
	const char *s = "x\x1b[1;3";
	size_t n;
	int i, text = 0;

	STRIP("a\x1b[1;31mb\x1b[0m", "ab", "SGR");
	STRIP("a\x1b[?25lb", "ab", "private CSI");
	STRIP("a\x1b]0;title\x07" "b", "ab", "OSC ended by BEL");
	STRIP("a\x1b]0;title\x1b\\b", "ab", "OSC ended by ST");
	STRIP("a\x1bPdata\x1b\\b", "ab", "DCS");
	STRIP("a\x1b(Bb", "ab", "charset designation");
	STRIP("a\x1b" "7b\x1b" "8", "ab", "two-byte sequences");
	STRIP("a\x1b", "a", "lone ESC at the end");
	STRIP("\x1b[12\nx", "\nx", "line end ends a broken sequence");
	STRIP("a\rb\0c\x7f", "a\rb\0c\x7f", "other bytes kept");
	STRIP("\x1b\x1b[1mx", "x", "ESC ESC");

	big[0] = 0x1b;
	big[1] = ']';
	memset(big + 2, 'x', 300);
	big[302] = 'y';
	out = textsafe_strip_ansi(big, 303, &n);
	ok(n > 0 && n < 303 && out[n - 1] == 'y',
	    "an endless OSC gives up after %d bytes (%zu kept)",
	    ANSI_SEQ_MAX, n);
	free(out);

	/* The state machine across calls, as the parser uses it. */
	for (i = 0; s[i] != '\0'; i++)
		text += ansi_feed(&a, (unsigned char)s[i]);
	text += ansi_feed(&a, 'm');
	text += ansi_feed(&a, 'z');
	is_int(text, 2, "split SGR: only x and z are text");
}

/* Where a line wraps: at a space that fits, else inside the word. */
static const struct {
	const char	*s;
	size_t		 width;
	size_t		 len;
	const char	*what;
} breaks[] = {
	{ "fits whole", 10, 10, "all of it fits" },
	{ "fits whole", 80, 10, "a wide line" },
	{ "one two three", 9, 7, "at the last space that fits" },
	{ "one two three", 7, 7, "a word that ends at the edge stays" },
	{ "one two three", 6, 3, "a word that does not fit moves on" },
	{ "unbreakable words", 5, 5, "a word wider than the line is cut" },
	{ "x", 0, 1, "at least one character" },
	{ "caf\xc3\xa9 au lait", 6, 5, "columns, not bytes" },
	{ "\xc3\xa9\xc3\xa9\xc3\xa9", 2, 4,
	    "a cut falls between characters" },
	{ "", 4, 0, "empty" },
};

static void
check_break(void)
{
	size_t i;

	for (i = 0; i < sizeof(breaks) / sizeof(breaks[0]); i++)
		is_int((long long)textsafe_break(breaks[i].s, breaks[i].width),
		    (long long)breaks[i].len, "break: %s", breaks[i].what);
}

static void
check_width(void)
{
	const char *loc;

	is_int(textsafe_width("abc", 3), 3, "C locale: ASCII");
	is_int(textsafe_width("caf\xc3\xa9", 5), 4, "C locale: accent");
	is_int(textsafe_width("\xe6\x97\xa5\xe6\x9c\xac", 6), 4,
	    "C locale: CJK is wide");
	is_int(textsafe_width("e\xcc\x81", 3), 1, "C locale: combining");
	is_int(textsafe_width("\xff", 1), 1, "invalid byte counts 1");
	is_int(textsafe_width("", 0), 0, "empty");
	ok(textsafe_utf8_valid("caf\xc3\xa9", 5), "valid UTF-8");
	ok(!textsafe_utf8_valid("\xc3", 1), "truncated is invalid");

	if ((loc = setlocale(LC_CTYPE, "C.UTF-8")) == NULL &&
	    (loc = setlocale(LC_CTYPE, "en_US.UTF-8")) == NULL) {
		ok(1, "# SKIP no UTF-8 locale");
		return;
	}
	is_int(textsafe_width("caf\xc3\xa9", 5), 4, "%s: accent", loc);
	is_int(textsafe_width("\xe6\x97\xa5\xe6\x9c\xac", 6), 4,
	    "%s: CJK is wide", loc);
	is_int(textsafe_width("e\xcc\x81", 3), 1, "%s: combining", loc);
	(void)setlocale(LC_CTYPE, "C");
}

/* The colour capture, line by line, comes out without escapes. */
static void
check_colour_capture(void)
{
	char *buf, *out;
	size_t len, n;

	if (!ok((buf = tap_slurp(tap_shared_path(
	    "ltp/outputs/open01-color.txt"), &len)) != NULL, "colour: read"))
		return;
	ok(memchr(buf, 0x1b, len) != NULL, "colour capture has ESC");
	out = textsafe_display(buf, len, TEXTSAFE_STRIP_ANSI, &n);
	ok(strstr(out, "^[") == NULL && screen_safe(out, n),
	    "stripped display: no escapes, safe");
	has_str(out, "open01.c:56: TPASS: sticky bit", "text kept");
	free(out);
	out = textsafe_display(buf, len, 0, &n);
	has_str(out, "^[[1;32mTPASS: ^[[0m", "unstripped display shows ^[");
	free(out);
	free(buf);
}

int
main(void)
{
	int i;

	check_placeholders();
	check_all_pairs();
	check_random();
	check_strip();
	check_width();
	check_break();
	for (i = 0; tap_layer(i); i++)
		check_colour_capture();
	return tap_done();
}
