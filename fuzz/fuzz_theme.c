/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: theme files (theme_load_stream over the built-in
 * theme, the bytes read through fmemopen(3)).
 */
#include "ltpscope/theme.h"
#include "fuzz.h"

FUZZ_TARGET(theme)
{
	struct diaglist dl;
	struct theme t;
	char *buf;
	FILE *fp;
	int i;

	/* fmemopen(3) of zero bytes is an error on some systems. */
	buf = fuzz_cstr(data, size);
	fp = size > 0 ? fmemopen(buf, size, "r") : fopen("/dev/null", "r");
	if (fp == NULL)
		abort();
	diag_init(&dl);
	theme_default(&t);
	(void)theme_load_stream(&t, fp, "x.theme", &dl);
	for (i = 0; i < TE__COUNT; i++) {
		FUZZ_CHECK(t.style[i].fg >= THEME_DEFAULT_COLOUR &&
		    t.style[i].fg <= 255);
		FUZZ_CHECK(t.style[i].bg >= THEME_DEFAULT_COLOUR &&
		    t.style[i].bg <= 255);
	}
	fclose(fp);
	diag_free(&dl);
	free(buf);
	return 0;
}
