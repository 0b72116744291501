/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The word-at-a-time scans find the same first byte as a loop over
 * single bytes: every byte value at every position of buffers of each
 * length up to several vectors (the turns of thirty-two and sixteen
 * bytes, the word, the tail), several bytes of the kind after the
 * first (a borrow marks bytes above it falsely), and random buffers.
 */
#include <stdlib.h>
#include <string.h>

#include "ltpscope/wordscan.h"
#include "tap.h"

static size_t
slow_plain(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (unsigned char)s[i] >= 0x20 &&
	    (unsigned char)s[i] < 0x7f)
		i++;
	return i;
}

static size_t
slow_field(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (unsigned char)s[i] > 0x20 && s[i] != ':')
		i++;
	return i;
}

/*
 * 1 when the scans agree with the slow ones on s, n bytes: the line
 * scan with both, its field within the plain bytes.
 */
static int
agree(const char *s, size_t n)
{
	size_t f = n + 1, k = slow_plain(s, n);

	return wordscan_plain(s, n) == k &&
	    wordscan_field(s, n) == slow_field(s, n) &&
	    wordscan_line(s, n, &f) == k && f == slow_field(s, k);
}

int
main(void)
{
	char buf[80];
	size_t n, pos, bad = 0, badr = 0, stops = 0;
	int c, r, k;

	/* Every byte at every position, every length: one stop each. */
	for (n = 0; n <= 72; n++)
		for (pos = 0; pos < n; pos++)
			for (c = 0; c < 256; c++) {
				memset(buf, 'a', sizeof(buf));
				buf[pos] = (char)c;
				if (!agree(buf, n))
					bad++;
				if (wordscan_plain(buf, n) < n)
					stops++;
			}
	is_int(bad, 0, "one byte of any value anywhere: the same first stop");
	ok(stops > 0, "... and the scans do stop (%zu times)", stops);

	/* A stop, then others above it in the same word. */
	for (pos = 0; pos < 16; pos++)
		for (c = 0; c < 256; c++) {
			memset(buf, 'b', sizeof(buf));
			buf[pos] = (char)c;
			for (k = 1; pos + k < 24; k += 3)
				buf[pos + k] = (char)((c * 7 + k) & 0xff);
			if (!agree(buf, 24))
				bad++;
		}
	is_int(bad, 0, "stops followed by more of them: the first is found");

	srand(25);
	for (r = 0; r < 200000; r++) {
		n = (size_t)(rand() % 73);
		for (pos = 0; pos < n; pos++)
			buf[pos] = (char)(rand() % 4 ? ' ' + rand() % 95 :
			    rand() % 256);
		if (!agree(buf + r % 7, n))
			badr++;
	}
	is_int(badr, 0, "random buffers at every alignment: the same stops");
	is_int(wordscan_plain("tst_test.c:12: TINFO: x\n", 24), 23,
	    "a line's text runs up to its newline");
	is_int(wordscan_field("tst_test.c:12: TINFO: x\n", 24), 10,
	    "its first field up to the colon");
	is_int(wordscan_line("a line with no colon, all of it plain ASCII\n",
	    44, &n), 43, "the line scan: up to the newline");
	is_int(n, 1, "... its field up to the first blank");
	return tap_done();
}
