/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The vocabulary shared by the parser, runner, store and UI: what a
 * line of LTP output is, and what became of a test.
 */
#ifndef LTPSCOPE_STATUS_H
#define LTPSCOPE_STATUS_H

/* Semantic class of one output line; the theme maps these to colours. */
enum line_class {
	LC_PLAIN,
	LC_TPASS,
	LC_TFAIL,
	LC_TBROK,
	LC_TCONF,
	LC_TWARN,
	LC_TINFO,
	LC_TDEBUG,
	LC_SUMMARY,	/* the "Summary:" block of new-library tests */
	LC_META,	/* lines ltpscope itself adds (timeouts, kills) */
	LC__COUNT
};

/* What became of one test. Values are stored in the database: append only. */
enum test_status {
	TS_PASS = 0,
	TS_FAIL = 1,
	TS_BROKEN = 2,
	TS_CONF = 3,		/* the test skipped itself (TCONF) */
	TS_WARN = 4,
	TS_TIMEOUT = 5,
	TS_SIGNALLED = 6,
	TS_NOTRUN = 7,		/* on the skip list */
	TS_INTERRUPTED = 8,	/* the run died while it ran */
	TS_RUNNING = 9,		/* committed before start; not a result */
	TS_UNKNOWN = 10,	/* no result line and no exit status: an
				   old-library test that only says TINFO */
	TS_CRASH = 11,		/* the box stopped answering while it ran:
				   the likely cause of a kernel panic */
	TS__COUNT
};

const char	*line_class_name(enum line_class);
const char	*test_status_name(enum test_status);
/* -1 when the name is unknown. */
int		 test_status_from_name(const char *);
/* Failed, broken, timed out, signalled, interrupted or crashed. */
int		 test_status_is_bad(enum test_status);
/*
 * Whether a result carries the "env warning" mark: it passed or skipped
 * and nenvwarn TWARN lines were the environment's (see rules.h).
 */
int		 test_status_env_marked(enum test_status, unsigned nenvwarn);

#endif
