/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Finding the first byte of a kind eight bytes at a time, as memchr()
 * does: the parsers look at every byte a test prints, nearly all of it
 * plain ASCII, and a loop over single bytes cost them several times
 * what finding the line ends does.  Each function returns how many
 * bytes at the start of s (n of them) are NOT of the kind: the index
 * of the first that is, or n.
 */
#ifndef LTPSCOPE_WORDSCAN_H
#define LTPSCOPE_WORDSCAN_H

#include <stddef.h>

/* Printable ASCII, 0x20-0x7e: stops at controls, DEL and 0x80-0xff. */
size_t	wordscan_plain(const char *, size_t);

/* Stops at ':' or a byte up to 0x20 (blanks, controls, NUL). */
size_t	wordscan_field(const char *, size_t);

/*
 * wordscan_plain(), and in *field what wordscan_field() gives for the
 * bytes it passed: a line and its first field in one pass.
 */
size_t	wordscan_line(const char *, size_t, size_t *);

#endif
