/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Theme files: the shipped themes load cleanly, and a bad theme names
 * the file and line of each mistake while good lines still apply.
 */
#include <string.h>

#include "ltpscope/diag.h"
#include "ltpscope/theme.h"
#include "tap.h"

int
main(void)
{
	struct theme t;
	struct diaglist dl;
	char buf[512];
	const char *names[] = { "default", "light", "mono" };
	size_t i;

	for (i = 0; i < 3; i++) {
		diag_init(&dl);
		is_int(theme_load(&t, names[i], "themes", &dl), 0,
		    "themes/%s.theme loads", names[i]);
		is_int(dl.n, 0, "no diagnostics for %s", names[i]);
		is_str(t.name, names[i], "name recorded");
		diag_free(&dl);
	}
	theme_load(&t, "mono", "themes", NULL);
	ok(t.mono, "mono theme is monochrome");

	diag_init(&dl);
	theme_load(&t, "default", "themes", &dl);
	is_int(t.style[TE_FAIL].fg, 1, "fail is red");
	is_int(t.style[TE_HEADER].bg, 4, "header background blue");
	diag_free(&dl);

	diag_init(&dl);
	is_int(theme_load(&t, "tests/fixtures/theme/bad.theme", NULL, &dl),
	    -1, "bad theme fails");
	is_int(dl.nerrors, 4, "four errors");
	if (dl.n >= 4) {
		diag_format(&dl.v[0], buf, sizeof(buf));
		is_str(buf, "tests/fixtures/theme/bad.theme:2: error: "
		    "unknown colour 'purple'", "bad colour named with line");
		diag_format(&dl.v[1], buf, sizeof(buf));
		has_str(buf, "bad.theme:3: error: unknown element 'bogus'",
		    "bad element");
		diag_format(&dl.v[2], buf, sizeof(buf));
		has_str(buf, ":4: error: unknown colour or attribute 'sparkly'",
		    "bad attribute");
		diag_format(&dl.v[3], buf, sizeof(buf));
		has_str(buf, ":6: error: element 'header' has no colour",
		    "missing colour");
	}
	is_int(t.style[TE_PASS].fg, 2, "good line still applied");
	diag_free(&dl);

	diag_init(&dl);
	is_int(theme_load(&t, "nosuch", "themes", &dl), -1, "unknown theme");
	ok(dl.n == 1 && strstr(dl.v[0].msg, "nosuch") != NULL,
	    "error names the theme");
	diag_free(&dl);
	return tap_done();
}
