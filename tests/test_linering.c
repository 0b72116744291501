/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The output pane's ring: bounded by lines and by bytes whatever is
 * pushed, oldest out first, exact text kept.
 */
#include <stdio.h>
#include <string.h>

#include "ltpscope/linering.h"
#include "tap.h"

int
main(void)
{
	struct linering *r;
	enum line_class c;
	char buf[64], big[5000];
	const char *s;
	size_t len, i;

	r = linering_new(3, 0);
	is_int(linering_count(r), 0, "empty ring");
	ok(linering_get(r, 0, NULL, NULL) == NULL, "nothing to get");
	for (i = 0; i < 5; i++) {
		snprintf(buf, sizeof(buf), "line %zu", i);
		linering_push(r, i == 4 ? LC_TFAIL : LC_TPASS, buf,
		    strlen(buf));
	}
	is_int(linering_count(r), 3, "held at most 3 lines");
	is_int((long long)linering_total(r), 5, "total counts evicted lines");
	is_str(linering_get(r, 0, NULL, NULL), "line 2", "oldest held");
	s = linering_get(r, 2, &c, &len);
	is_str(s, "line 4", "newest");
	is_int(c, LC_TFAIL, "class kept");
	is_int(len, 6, "length kept");
	linering_push(r, LC_PLAIN, "a\0b", 3);
	s = linering_get(r, 2, NULL, &len);
	ok(len == 3 && memcmp(s, "a\0b", 3) == 0, "NUL bytes kept");
	linering_clear(r);
	is_int(linering_count(r), 0, "clear empties");
	is_int((long long)linering_total(r), 0, "clear resets the total");
	linering_free(r);

	r = linering_new(100000, 10000);
	memset(big, 'x', sizeof(big));
	for (i = 0; i < 1000; i++)
		linering_push(r, LC_PLAIN, big, 1000);
	ok(linering_bytes(r) <= 10000, "bytes bounded (%zu)",
	    linering_bytes(r));
	is_int(linering_count(r), 10, "ten 1000-byte lines fit");
	linering_push(r, LC_PLAIN, big, sizeof(big) * 3 > 20000 ? 5000 : 0);
	ok(linering_bytes(r) <= 10000, "still bounded after a big line");
	linering_free(r);

	r = linering_new(4, 100);
	linering_push(r, LC_PLAIN, big, 500);
	is_int(linering_count(r), 1, "a line over the budget is kept");
	s = linering_get(r, 0, NULL, &len);
	is_int(len, 100, "cut to the budget");
	linering_free(r);
	return tap_done();
}
