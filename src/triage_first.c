/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The first failing line of a test's output (triage.h): what triage
 * and the Linux reference (linuxref.c) both start from, so it sits
 * below both.
 */
#include <stdlib.h>

#include "ltpscope/ltpout.h"
#include "ltpscope/triage.h"
#include "ltpscope/xmalloc.h"

char *
triage_first_failure(const char *output, size_t len, unsigned long *linenop)
{
	static const enum line_class order[] = { LC_TFAIL, LC_TBROK, LC_META };
	struct ltpout_line l;
	struct ltpout *p;
	char *best[3] = { NULL, NULL, NULL }, *found = NULL;
	unsigned long bestno[3] = { 0, 0, 0 };
	const char *buf = output;
	size_t left = len, i;

	p = ltpout_new();
	while (best[0] == NULL) {
		if (!ltpout_scan(p, &buf, &left, &l) && !ltpout_flush(p, &l))
			break;
		for (i = 0; i < 3; i++)
			if (l.cls == order[i] && best[i] == NULL) {
				best[i] = xstrndup(l.text, l.len);
				bestno[i] = l.lineno;
			}
	}
	ltpout_free(p);
	for (i = 0; i < 3; i++) {
		if (best[i] != NULL && found == NULL) {
			found = best[i];
			if (linenop != NULL)
				*linenop = bestno[i];
		} else
			free(best[i]);
	}
	return found;
}
