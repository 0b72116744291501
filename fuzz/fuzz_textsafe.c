/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: what stands between a test's bytes and the terminal
 * (textsafe_display, textsafe_strip_ansi, the ANSI state machine):
 * whatever comes in, what goes out is well-formed UTF-8 with no
 * control byte, and stripping escape sequences a byte at a time keeps
 * the same bytes as stripping them all at once.
 */
#include "ltpscope/textsafe.h"
#include "fuzz.h"

/* No C0 control, DEL or C1 control (U+0080-U+009F is C2 80-9F). */
static void
fz_textsafe_check(const char *s, size_t len)
{
	size_t i;

	FUZZ_CHECK(s[len] == '\0');
	FUZZ_CHECK(textsafe_utf8_valid(s, len));
	for (i = 0; i < len; i++) {
		FUZZ_CHECK((unsigned char)s[i] >= 0x20 &&
		    (unsigned char)s[i] != 0x7f);
		if ((unsigned char)s[i] == 0xc2 && i + 1 < len)
			FUZZ_CHECK((unsigned char)s[i + 1] < 0x80 ||
			    (unsigned char)s[i + 1] > 0x9f);
	}
	(void)textsafe_width(s, len);
}

FUZZ_TARGET(textsafe)
{
	static const int flags[] = {
		0, TEXTSAFE_STRIP_ANSI, TEXTSAFE_TAB_CARET,
		TEXTSAFE_STRIP_ANSI | TEXTSAFE_TAB_CARET
	};
	struct ansi_state st;
	unsigned long cp;
	char *out;
	size_t i, len, n;

	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		out = textsafe_display((const char *)data, size, flags[i],
		    &len);
		fz_textsafe_check(out, len);
		free(out);
	}
	/* Bytes ansi_feed() calls text are what strip_ansi keeps. */
	out = textsafe_strip_ansi((const char *)data, size, &len);
	memset(&st, 0, sizeof(st));
	for (i = 0, n = 0; i < size; i++)
		if (ansi_feed(&st, data[i])) {
			FUZZ_CHECK(n < len && (unsigned char)out[n] ==
			    data[i]);
			n++;
		}
	FUZZ_CHECK(n == len);
	free(out);
	for (i = 0; i < size; i += n) {
		n = textsafe_utf8_decode((const char *)data + i, size - i,
		    &cp);
		if (n == 0)
			n = 1;
		else
			FUZZ_CHECK(cp <= 0x10ffff);
	}
	return 0;
}
