/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Writing the shopping list: CSV (RFC 4180), Markdown, JSON and one
 * self-contained HTML report with SVG charts and tables sorted in the
 * page (see export.h for the byte-exactness each format promises).
 * The caller owns the stream.  Picks the format's writer: each is in a
 * file of its own (export_csv.c, export_md.c, export_json.c,
 * export_html.c), above what they say alike (export_row.c).
 */
#include <stdio.h>
#include <string.h>

#include "export_impl.h"

int
export_format_from_name(const char *s)
{
	if (strcmp(s, "csv") == 0)
		return EXPORT_CSV;
	if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0)
		return EXPORT_MD;
	if (strcmp(s, "json") == 0)
		return EXPORT_JSON;
	if (strcmp(s, "html") == 0)
		return EXPORT_HTML;
	return -1;
}

int
export_format_from_path(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (dot == NULL || strchr(dot, '/') != NULL)
		return -1;
	return export_format_from_name(dot + 1);
}

int
export_write(const struct shoplist *l, enum export_format f, FILE *fp)
{
	switch (f) {
	case EXPORT_CSV:
		export_csv(l, fp);
		break;
	case EXPORT_MD:
		export_md(l, fp);
		break;
	case EXPORT_JSON:
		export_json(l, fp);
		break;
	case EXPORT_HTML:
		export_html(l, fp);
		break;
	}
	if (fflush(fp) != 0 || ferror(fp))
		return -1;
	return 0;
}
