/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Exporting the shopping list (shoplist.h) as CSV, Markdown, JSON or
 * HTML.
 *
 * Formats (export_write()):
 *  csv	RFC 4180: CRLF line ends, every field quoted, quotes doubled;
 *	bytes are written exactly as stored (notes may hold newlines).
 *	Made with a kernel tree (shoplist.kindexed), each record ends
 *	with the call's function, its file and line.
 *  md	Markdown for a mailing list: a section per syscall, a list item
 *	per test, notes as indented text; bytes exact.
 *  json	UTF-8 JSON.  Valid UTF-8 is written as is (with the escapes
 *	JSON needs); each byte that is not part of valid UTF-8 becomes
 *	the lone surrogate \udcXX (XX its value, 80-FF), as Python's
 *	"surrogateescape" does: reversible, since valid UTF-8 never
 *	encodes a surrogate (decode with surrogateescape to get the
 *	bytes back).
 *  html	the report for a mailing list, one self-contained file:
 *	inline CSS, inline SVG charts (failing tests per category, per
 *	status; tests passed in the last runs as a line), a table per
 *	syscall (passed/run in this run, in the newest finished run of
 *	every other arch and on the Linux reference) and one per failing
 *	test (with its status on each arch), both
 *	sortable by an inline script; nothing fetched, no fonts; invalid
 *	UTF-8 bytes show as U+FFFD.
 */
#ifndef LTPSCOPE_EXPORT_H
#define LTPSCOPE_EXPORT_H

#include <stdio.h>

#include "ltpscope/shoplist.h"

enum export_format {
	EXPORT_CSV,
	EXPORT_MD,
	EXPORT_JSON,
	EXPORT_HTML
};

/* -1 for an unknown name. */
int	export_format_from_name(const char *);
/* The format a file name's extension (.csv .md .json .html) says; -1. */
int	export_format_from_path(const char *);
/* Writes the list; returns 0, or -1 on a write error (errno set). */
int	export_write(const struct shoplist *, enum export_format, FILE *);

#endif
