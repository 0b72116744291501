/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Numbers a person typed: an option's argument, a setting in a
 * configuration file.  atoi() turns "abc" into 0 and "5x" into 5, which
 * for a timeout silently means "none"; these take the whole string or
 * nothing, within a range the caller gives.  Core: they say why in a
 * buffer and leave the wording around it (which option, which file and
 * line) to the caller.
 */
#ifndef LTPSCOPE_NUMPARSE_H
#define LTPSCOPE_NUMPARSE_H

#include <stddef.h>

/*
 * A whole decimal number from min to max, optionally signed, with
 * nothing before or after it.  Returns 0 and sets *out, or -1 with *out
 * untouched and msg holding, e.g., "'abc' is not a whole number from 1
 * to 64".
 */
int	numparse_ll(const char *s, long long min, long long max,
	    long long *out, char *msg, size_t msgsize);
/* The same for a decimal fraction such as "2.5". */
int	numparse_double(const char *s, double min, double max,
	    double *out, char *msg, size_t msgsize);

#endif
