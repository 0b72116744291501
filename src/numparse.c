/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Checked parsing of numbers a person typed; see numparse.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/numparse.h"

/* strtol() and strtod() skip leading blanks; a typed number may not. */
static int
numparse_starts_well(const char *s)
{
	return s[0] != '\0' && !isspace((unsigned char)s[0]);
}

int
numparse_ll(const char *s, long long min, long long max, long long *out,
    char *msg, size_t msgsize)
{
	char *end;
	long long v;

	if (numparse_starts_well(s)) {
		errno = 0;
		v = strtoll(s, &end, 10);
		if (errno == 0 && end != s && *end == '\0' && v >= min &&
		    v <= max) {
			*out = v;
			return 0;
		}
	}
	snprintf(msg, msgsize, "'%.40s%s' is not a whole number from %lld "
	    "to %lld", s, strlen(s) > 40 ? "..." : "", min, max);
	return -1;
}

int
numparse_double(const char *s, double min, double max, double *out,
    char *msg, size_t msgsize)
{
	char *end;
	double v;

	if (numparse_starts_well(s)) {
		errno = 0;
		v = strtod(s, &end);
		/* "inf" and "nan", which strtod() takes, fail the range. */
		if (errno == 0 && end != s && *end == '\0' && v >= min &&
		    v <= max) {
			*out = v;
			return 0;
		}
	}
	snprintf(msg, msgsize, "'%.40s%s' is not a number from %g to %g", s,
	    strlen(s) > 40 ? "..." : "", min, max);
	return -1;
}
