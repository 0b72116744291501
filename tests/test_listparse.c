/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The two parsers of what a person types (listparse.h, numparse.h):
 * lists split at commas and blanks alike, whatever the option, with
 * empty items dropped; numbers taken whole and within their range, the
 * message quoting what was typed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/listparse.h"
#include "ltpscope/numparse.h"
#include "ltpscope/xmalloc.h"
#include "tap.h"

/* The items of s joined by '|', to compare in one string. */
static const char *
joined(const char *s, size_t *np)
{
	static char buf[256];
	char **v;
	size_t i, len = 0;

	v = listparse_split(s, np);
	buf[0] = '\0';
	for (i = 0; v[i] != NULL; i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
		    i > 0 ? "|" : "", v[i]);
	xfreev(v);
	return buf;
}

static void
test_lists(void)
{
	static const struct {
		const char	*in;
		const char	*want;
		size_t		 n;
	} cases[] = {
		{ "open", "open", 1 },
		{ "open,close", "open|close", 2 },
		{ "open, close", "open|close", 2 },
		{ "open close\tread", "open|close|read", 3 },
		{ ",,open,,close,", "open|close", 2 },
		{ " , ", "", 0 },
		{ "", "", 0 },
		{ "@vim,@make", "@vim|@make", 2 },
		{ "amd64,i386 evbarm", "amd64|i386|evbarm", 3 },
	};
	char **v;
	size_t i, n;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		is_str(joined(cases[i].in, &n), cases[i].want, "'%s'",
		    cases[i].in);
		is_int((long long)n, (long long)cases[i].n, "'%s': %zu items",
		    cases[i].in, cases[i].n);
	}
	v = listparse_split("", NULL);
	ok(v != NULL && v[0] == NULL, "an empty list is an empty vector");
	xfreev(v);
}

static void
test_numbers(void)
{
	static const char *const bad[] = { "", "abc", "5x", " 7", "7 ",
	    "0", "65", "99999999999999999999", "1.5" };
	char msg[160];
	long long v;
	double d;
	size_t i;

	is_int(numparse_ll("64", 1, 64, &v, msg, sizeof(msg)), 0, "64 in "
	    "1..64");
	is_int(v, 64, "is 64");
	is_int(numparse_ll("-3", -5, 5, &v, msg, sizeof(msg)), 0, "signed");
	is_int(v, -3, "is -3");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = 42;
		is_int(numparse_ll(bad[i], 1, 64, &v, msg, sizeof(msg)), -1,
		    "'%s' refused", bad[i]);
		is_int(v, 42, "'%s': the number untouched", bad[i]);
	}
	numparse_ll("abc", 1, 64, &v, msg, sizeof(msg));
	is_str(msg, "'abc' is not a whole number from 1 to 64", "the "
	    "message quotes what was typed and the range");
	is_int(numparse_double("2.5", 0.1, 10, &d, msg, sizeof(msg)), 0,
	    "2.5 a fraction");
	is_int(numparse_double("inf", 0.1, 10, &d, msg, sizeof(msg)), -1,
	    "inf refused");
}

int
main(void)
{
	test_lists();
	test_numbers();
	return tap_done();
}
