/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Text that is safe to show: what a test printed may contain anything
 * (escape sequences, NUL, stray CR, half a UTF-8 character), and none
 * of it may reach the terminal raw.  This module turns bytes into
 * printable UTF-8, strips ANSI sequences, and measures display width.
 *
 * Every function returning char * returns a new NUL-terminated string
 * from xmalloc(3); the caller frees it.  Inputs are (pointer, length)
 * pairs and may contain NUL bytes.
 */
#ifndef LTPSCOPE_TEXTSAFE_H
#define LTPSCOPE_TEXTSAFE_H

#include <stddef.h>

/*
 * How textsafe_display() shows what it must not pass through:
 *   C0 controls and DEL	caret notation: ^@ ^A ... ^[ ... ^_ and ^?
 *   C1 controls U+0080-U+009F	\u0080 ... \u009f
 *   bidi overrides, U+2028/9	\u202e etc. (they reorder or break lines)
 *   bytes that are not UTF-8	\xNN, one per byte
 *   ESC sequences		^[ followed by the rest, printable
 *				(or removed with TEXTSAFE_STRIP_ANSI)
 *   TAB			spaces up to the next multiple of 8
 *				columns (or ^I with TEXTSAFE_TAB_CARET)
 * The result never contains a byte below 0x20, 0x7f, or a C1 control.
 */
#define TEXTSAFE_STRIP_ANSI	0x01	/* drop ESC sequences first */
#define TEXTSAFE_TAB_CARET	0x02	/* show TAB as ^I, not spaces */

char	*textsafe_display(const char *, size_t, int, size_t *);

/*
 * Removes ANSI escape sequences (CSI such as SGR colours, OSC up to BEL
 * or ST, and two- and three-byte ESC sequences).  Other bytes, controls
 * included, are kept: the result is for classification and plain-text
 * export, not for the screen.  outlen may be NULL.
 */
char	*textsafe_strip_ansi(const char *, size_t, size_t *);

/*
 * The same as a byte-at-a-time state machine, for streams whose escape
 * sequences may be split across reads.  Start from a zeroed struct.
 * ansi_feed() returns 1 when the byte is text and 0 when it belongs to
 * a sequence.  A CR or LF always ends a sequence and counts as text,
 * so a broken sequence cannot swallow the following lines; so does a
 * sequence longer than ANSI_SEQ_MAX, whose bytes from then on are text.
 */
#define ANSI_SEQ_MAX	256

struct ansi_state {
	int		st;
	unsigned	n;	/* bytes in the current sequence */
};

int	ansi_feed(struct ansi_state *, unsigned char);

/*
 * The length of the whole CSI sequence (ESC [ parameters final, at
 * most ANSI_SEQ_MAX bytes) at the start of s, n bytes, that
 * ansi_feed() from its ground state would take byte by byte; 0 for
 * anything else, which is left to ansi_feed().  LTP colours every
 * result tag: a scanner skips each colour in one step.
 */
size_t	ansi_csi_len(const char *, size_t);

/* 1 when the bytes are well-formed UTF-8 (no overlongs, surrogates). */
int	textsafe_utf8_valid(const char *, size_t);

/*
 * Decodes one UTF-8 character at s (n bytes available) into *cp and
 * returns its length, or returns 0 when the bytes there are not a
 * well-formed character (the caller treats one byte as invalid).
 */
size_t	textsafe_utf8_decode(const char *, size_t, unsigned long *);

/*
 * Display columns of valid UTF-8 text (run it through textsafe_display
 * first).  Uses wcwidth(3) when the locale's character set is UTF-8
 * and a built-in approximation otherwise (the C locale, say), so it
 * is always safe to call.  Non-printable characters count as 1.
 */
size_t	textsafe_width(const char *, size_t);

/*
 * Bytes of s (valid UTF-8, NUL-terminated) that go on the first line
 * when it is wrapped at width columns: up to the last space that fits,
 * or, when a word alone is wider, as much of it as fits (at least one
 * character); all of s when it fits.  The caller skips the spaces after
 * the break and asks again for the next line.
 */
size_t	textsafe_break(const char *, size_t width);

#endif
