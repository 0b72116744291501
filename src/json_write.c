/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The JSON string writer of json.h, shared by every JSON output
 * (export, runs, show, tags, suggest, compare, tests, catalogue).  The
 * flags keep each output's long-standing bytes for what is not plain
 * UTF-8 text, so that scripts reading them see no change.
 */
#include <stdio.h>

#include "ltpscope/json.h"
#include "ltpscope/textsafe.h"

void
json_write_str(FILE *fp, const char *s, size_t len, unsigned flags)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned long cp;
	size_t i = 0, n;

	putc('"', fp);
	while (i < len) {
		if (flags & JSON_W_BYTES) {
			if (p[i] == '"' || p[i] == '\\')
				fprintf(fp, "\\%c", p[i]);
			else if (p[i] < 0x20)
				fprintf(fp, "\\u%04x", p[i]);
			else
				putc(p[i], fp);
			i++;
			continue;
		}
		switch (p[i]) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		default:
			if (p[i] < 0x20 ||
			    (p[i] == 0x7f && !(flags & JSON_W_DEL_RAW))) {
				fprintf(fp, "\\u%04x", p[i]);
				break;
			}
			n = textsafe_utf8_decode(s + i, len - i, &cp);
			if (n == 0 && (flags & JSON_W_LONE_DC))
				fprintf(fp, "\\udc%02x", p[i]);
			else if (n == 0)
				fputs("\\ufffd", fp);
			else {
				fwrite(p + i, 1, n, fp);
				i += n;
				continue;
			}
			break;
		}
		i++;
	}
	putc('"', fp);
}
