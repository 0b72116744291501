/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A test's verdict from its tallies and how it ended (see ltpout.h):
 * a pure function of the counts, so that the store can judge a result
 * again from what it saved, under new rules.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/ltpout.h"

/* Appends to the explanation, keeping it NUL-terminated. */
static void
why_add(char *why, size_t whylen, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

static void
why_add(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (why == NULL || whylen == 0)
		return;
	n = strlen(why);
	if (n >= whylen - 1)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(why + n, whylen - n, fmt, ap);
	va_end(ap);
}

static enum test_status
verdict(enum test_status st, const char *reason, char *why, size_t whylen)
{
	if (why != NULL && whylen > 0) {
		why[0] = '\0';
		why_add(why, whylen, "%s", reason);
	}
	return st;
}

#define LTP_EXIT_MASK	(1 | 2 | 4 | 32)

enum test_status
ltpout_status(const struct ltpout_tally *t, const struct test_end *end,
    char *why, size_t whylen)
{
	const struct ltpout_summary *s = &t->summary;
	enum test_status st;
	char reason[96];
	int haveexit = end->how == TEST_EXITED;
	int code = haveexit ? end->code : 0;
	int oddexit, failed, broken, warned, passed, skipped, envonly;

	switch (end->how) {
	case TEST_NOTRUN:
		return verdict(TS_NOTRUN, "not run", why, whylen);
	case TEST_INTERRUPTED:
		return verdict(TS_INTERRUPTED, "interrupted while running",
		    why, whylen);
	case TEST_TIMEDOUT:
		return verdict(TS_TIMEOUT, "killed at its deadline", why,
		    whylen);
	case TEST_SIGNALLED:
		(void)snprintf(reason, sizeof(reason), "killed by signal %d",
		    end->code);
		return verdict(TS_SIGNALLED, reason, why, whylen);
	default:
		break;
	}
	/* Outside LTP's mask (127: not found) the bits mean nothing. */
	oddexit = haveexit && (code < 0 || (code & ~LTP_EXIT_MASK) != 0);
	if (oddexit)
		code = 0;
	failed = (code & 1) || s->failed > 0 || t->lines[LC_TFAIL] > 0;
	broken = (code & 2) || oddexit || s->broken > 0 ||
	    t->lines[LC_TBROK] > 0;
	warned = (code & 4) || s->warnings > 0 || t->lines[LC_TWARN] > 0;
	/*
	 * A warning about the box (no kernel config), not the test: the
	 * test is judged on the rest; bit 4 may only stand for these.
	 */
	envonly = warned && t->env_warn > 0 &&
	    t->env_warn >= t->lines[LC_TWARN] &&
	    (s->warnings < 0 || (unsigned long)s->warnings <= t->env_warn);
	if (envonly)
		warned = 0;
	passed = s->passed > 0 || t->lines[LC_TPASS] > 0;
	skipped = (code & 32) || s->skipped > 0 || t->lines[LC_TCONF] > 0;

	if (t->marks & LTPOUT_MARK_LTP_TIMEOUT) {
		st = TS_TIMEOUT;
		(void)snprintf(reason, sizeof(reason), "LTP's timeout fired");
	} else if (t->marks & LTPOUT_MARK_SIGNAL) {
		st = TS_SIGNALLED;
		(void)snprintf(reason, sizeof(reason), "test killed by %s",
		    t->killsig);
	} else if (t->marks & LTPOUT_MARK_EXT_KILL) {
		st = TS_SIGNALLED;
		(void)snprintf(reason, sizeof(reason),
		    "stopped by SIGINT/SIGTERM from outside");
	} else if (t->marks & LTPOUT_MARK_KILLED) {
		st = TS_SIGNALLED;
		(void)snprintf(reason, sizeof(reason),
		    "test killed by SIGKILL");
	} else if (failed) {
		st = TS_FAIL;
		(void)snprintf(reason, sizeof(reason), "failed");
	} else if (broken) {
		st = TS_BROKEN;
		(void)snprintf(reason, sizeof(reason), oddexit ?
		    "broken: exit status is not an LTP result" : "broken");
	} else if (warned) {
		st = TS_WARN;
		(void)snprintf(reason, sizeof(reason), "warnings");
	} else if (!passed && skipped) {
		st = TS_CONF;
		(void)snprintf(reason, sizeof(reason), "skipped (TCONF)");
	} else if (haveexit || passed) {
		st = TS_PASS;
		(void)snprintf(reason, sizeof(reason), "passed");
	} else {
		st = TS_UNKNOWN;
		(void)snprintf(reason, sizeof(reason),
		    "no result and no exit status");
	}
	(void)verdict(st, reason, why, whylen);
	if (envonly && (st == TS_PASS || st == TS_CONF))
		why_add(why, whylen, "; env warning x%lu", t->env_warn);
	if (haveexit)
		why_add(why, whylen, "; exit %d", end->code);
	if (s->present)
		why_add(why, whylen, "; summary %ld/%ld/%ld/%ld/%ld",
		    s->passed, s->failed, s->broken, s->skipped, s->warnings);
	why_add(why, whylen, "; lines P%lu F%lu B%lu C%lu W%lu",
	    t->lines[LC_TPASS], t->lines[LC_TFAIL], t->lines[LC_TBROK],
	    t->lines[LC_TCONF], t->lines[LC_TWARN]);
	return st;
}

int
ltpout_raw_format(const struct ltpout_tally *t, const struct test_end *end,
    char *buf, size_t len)
{
	const struct ltpout_summary *s = &t->summary;
	const char *sig = t->killsig;
	int n;

	/* The signal name is the parser's own: "SIG" and letters. */
	if (strspn(sig, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-") !=
	    strlen(sig) || *sig == '\0')
		sig = "-";
	n = snprintf(buf, len, "r1 end=%d:%d lines=%lu,%lu,%lu,%lu,%lu,%lu "
	    "sum=%d:%u:%ld,%ld,%ld,%ld,%ld marks=%u sig=%s tmo=%ld",
	    (int)end->how, end->code, t->lines[LC_TPASS], t->lines[LC_TFAIL],
	    t->lines[LC_TBROK], t->lines[LC_TCONF], t->lines[LC_TWARN],
	    t->lines[LC_TINFO], s->present, s->fields, s->passed, s->failed,
	    s->broken, s->skipped, s->warnings, t->marks, sig,
	    t->timeout_secs);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int
ltpout_raw_parse(const char *str, struct ltpout_tally *t,
    struct test_end *end)
{
	struct ltpout_summary *s = &t->summary;
	char sig[sizeof(t->killsig)];
	int how, n = 0;

	memset(t, 0, sizeof(*t));
	memset(end, 0, sizeof(*end));
	if (sscanf(str, "r1 end=%d:%d lines=%lu,%lu,%lu,%lu,%lu,%lu "
	    "sum=%d:%u:%ld,%ld,%ld,%ld,%ld marks=%u sig=%15s tmo=%ld%n",
	    &how, &end->code, &t->lines[LC_TPASS], &t->lines[LC_TFAIL],
	    &t->lines[LC_TBROK], &t->lines[LC_TCONF], &t->lines[LC_TWARN],
	    &t->lines[LC_TINFO], &s->present, &s->fields, &s->passed,
	    &s->failed, &s->broken, &s->skipped, &s->warnings, &t->marks,
	    sig, &t->timeout_secs, &n) != 18 || str[n] != '\0' ||
	    how < TEST_EXITED || how > TEST_NOEXIT) {
		memset(t, 0, sizeof(*t));
		memset(end, 0, sizeof(*end));
		return -1;
	}
	end->how = (enum test_end_how)how;
	if (strcmp(sig, "-") != 0)
		(void)snprintf(t->killsig, sizeof(t->killsig), "%s", sig);
	return 0;
}
