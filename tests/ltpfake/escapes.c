/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test whose output is hostile to a terminal: colour escape
 * sequences (as LTP_COLORIZE_OUTPUT=1 prints), a cursor movement,
 * carriage return, backspace, a bell, NUL bytes and invalid UTF-8.
 * Writes exactly the bytes below to stdout, then exits 0.
 */
#include <unistd.h>

static const char out[] =
    "escapes01.c:10: \033[1;32mTPASS: \033[0mcoloured pass\n"
    "escapes01.c:11: TINFO: cursor \033[2J\033[H home\r\b\a\n"
    "escapes01.c:12: TINFO: nul \0 byte \0\0 here\n"
    "escapes01.c:13: TINFO: bad utf-8 \xff\xfe \xc3 \xc0\xaf \xed\xa0\x80\n"
    "escapes01.c:14: TINFO: good utf-8 \xc3\xa9\xe2\x82\xac\n";

int
main(void)
{
	/* sizeof - 1: every byte, embedded NULs too, not the final one. */
	return write(STDOUT_FILENO, out, sizeof(out) - 1) ==
	    (ssize_t)(sizeof(out) - 1) ? 0 : 2;
}
