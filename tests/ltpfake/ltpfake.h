/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the LTP-like test programs share: the new library's line format
 * ("file.c:LINE: TYPE: message" on stderr), its Summary block and its
 * exit status bit mask, copied from real runs in ../shared/ltp/outputs.
 * Header-only so that each fake stays one standalone program.
 */
#ifndef LTPFAKE_H
#define LTPFAKE_H

#include <stdarg.h>
#include <stdio.h>

#define TFAIL_BIT	1
#define TBROK_BIT	2
#define TWARN_BIT	4
#define TCONF_BIT	32

struct fake_counts {
	int	passed, failed, broken, skipped, warnings;
};

static struct fake_counts fake_n;

static inline void
fake_res(const char *file, int line, const char *type, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: %s: ", file, line, type);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	switch (type[1]) {
	case 'P':
		fake_n.passed++;
		break;
	case 'F':
		fake_n.failed++;
		break;
	case 'B':
		fake_n.broken++;
		break;
	case 'C':
		fake_n.skipped++;
		break;
	case 'W':
		fake_n.warnings++;
		break;
	default:
		break;
	}
}

/* The lines every new-library test starts with. */
static inline void
fake_header(void)
{
	fake_res("tst_test.c", 2048, "TINFO", "LTP version: 20260529");
	fake_res("tst_test.c", 1876, "TINFO",
	    "Overall timeout per run is 0h 00m 30s");
}

/* The Summary block and the exit status LTP's library computes. */
static inline int
fake_summary(void)
{
	int rc = 0;

	fprintf(stderr, "\nSummary:\npassed   %d\nfailed   %d\n"
	    "broken   %d\nskipped  %d\nwarnings %d\n", fake_n.passed,
	    fake_n.failed, fake_n.broken, fake_n.skipped, fake_n.warnings);
	if (fake_n.failed)
		rc |= TFAIL_BIT;
	if (fake_n.broken)
		rc |= TBROK_BIT;
	if (fake_n.warnings)
		rc |= TWARN_BIT;
	if (fake_n.skipped && !fake_n.passed)
		rc |= TCONF_BIT;
	return rc;
}

#endif
