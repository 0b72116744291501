/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Names of line classes and test statuses, as shown and as stored.
 */
#include <string.h>

#include "ltpscope/status.h"

static const char *const line_class_names[LC__COUNT] = {
	"plain", "TPASS", "TFAIL", "TBROK", "TCONF", "TWARN", "TINFO",
	"TDEBUG", "summary", "meta"
};

static const char *const test_status_names[TS__COUNT] = {
	"pass", "fail", "broken", "conf", "warn", "timeout", "signalled",
	"not-run", "interrupted", "running", "unknown", "crash"
};

const char *
line_class_name(enum line_class c)
{
	return (unsigned)c < LC__COUNT ? line_class_names[c] : "?";
}

const char *
test_status_name(enum test_status s)
{
	return (unsigned)s < TS__COUNT ? test_status_names[s] : "?";
}

int
test_status_from_name(const char *name)
{
	int i;

	for (i = 0; i < TS__COUNT; i++)
		if (strcmp(name, test_status_names[i]) == 0)
			return i;
	return -1;
}

int
test_status_is_bad(enum test_status s)
{
	return s == TS_FAIL || s == TS_BROKEN || s == TS_TIMEOUT ||
	    s == TS_SIGNALLED || s == TS_INTERRUPTED || s == TS_CRASH;
}

int
test_status_env_marked(enum test_status s, unsigned nenvwarn)
{
	return nenvwarn > 0 && (s == TS_PASS || s == TS_CONF);
}
