/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP output parser: bytes of a test's stdout/stderr in, classified
 * lines out, plus the tallies that decide what became of the test.
 *
 * The parser is incremental.  Feed it chunks of any size (one byte at
 * a time gives the same lines as the whole buffer at once); a line is
 * complete at LF, CR LF, or a bare CR (a run of CRs before LF counts
 * as one terminator).  A line not yet terminated stays inside until
 * more bytes come or ltpout_flush() is called.
 *
 * ANSI escape sequences (LTP_COLORIZE_OUTPUT=1) are removed as bytes
 * arrive, before classification.  Every other byte is kept, NUL and
 * control bytes included: run text through textsafe_display() before
 * putting it on a screen.
 *
 * A line longer than LTPOUT_LINE_MAX bytes keeps its first
 * LTPOUT_LINE_MAX bytes (less an incomplete UTF-8 tail); the line
 * reports how many bytes were cut, and an LC_META line saying so
 * follows it.  Memory stays bounded whatever the input.
 *
 * Ownership: the parser owns everything.  The pointers in a struct
 * ltpout_line are valid until the next call on the same parser.
 */
#ifndef LTPSCOPE_LTPOUT_H
#define LTPSCOPE_LTPOUT_H

#include <stddef.h>

#include "ltpscope/status.h"

#define LTPOUT_LINE_MAX		(64 * 1024)
#define LTPOUT_FILE_MAX		256	/* longer "file" fields: plain */

/* ltpout_line.flags */
#define LTPOUT_CUT		0x01	/* bytes past LTPOUT_LINE_MAX dropped */
#define LTPOUT_NUL		0x02	/* contains NUL bytes */
#define LTPOUT_BADUTF8		0x04	/* not well-formed UTF-8 */
#define LTPOUT_CTRL		0x08	/* other control bytes (not TAB) */
#define LTPOUT_UNTERMINATED	0x10	/* emitted by flush, no line end */
#define LTPOUT_OLDLIB		0x20	/* "name  N  TPASS  :  msg" form */
#define LTPOUT_NEWLIB		0x40	/* "file.c:N: TPASS: msg" form */

struct ltpout_line {
	enum line_class	 cls;
	const char	*text;		/* whole line, escapes and line end
					   removed; NUL-terminated, but may
					   hold NULs: use len */
	size_t		 len;
	const char	*msg;		/* message: a suffix of text (all of
					   it for plain lines) */
	size_t		 msglen;
	const char	*file;		/* source file, or NULL */
	unsigned long	 srcline;	/* its line, 0 when none */
	const char	*tcid;		/* old library: test id, else NULL */
	unsigned long	 lineno;	/* 1-based line in the stream */
	size_t		 cut;		/* bytes dropped from this line */
	int		 flags;
};

/* The "Summary:" block of new-library tests. */
#define LTPOUT_SUM_PASSED	0x01
#define LTPOUT_SUM_FAILED	0x02
#define LTPOUT_SUM_BROKEN	0x04
#define LTPOUT_SUM_SKIPPED	0x08
#define LTPOUT_SUM_WARNINGS	0x10

struct ltpout_summary {
	int		 present;	/* a "Summary:" line was seen */
	unsigned	 fields;	/* LTPOUT_SUM_* that were read */
	long		 passed;
	long		 failed;
	long		 broken;
	long		 skipped;
	long		 warnings;
};

/* Lines of the LTP library that say how a test was stopped. */
#define LTPOUT_MARK_LTP_TIMEOUT	0x01	/* "Test timeouted, sending SIGKILL!" */
#define LTPOUT_MARK_EXT_KILL	0x02	/* "Sending SIGKILL to test process"
					   (LTP got SIGINT/SIGTERM) */
#define LTPOUT_MARK_KILLED	0x04	/* TBROK "Test killed! (timeout?)" */
#define LTPOUT_MARK_SIGNAL	0x08	/* TBROK "Test killed by SIGxxx!" */

/* Everything the verdict needs; plain data, so it can be stored. */
struct ltpout_tally {
	unsigned long		 lines[LC__COUNT];	/* per class, cut
							   notes in LC_META */
	unsigned long		 total;			/* stream lines, no
							   notes */
	struct ltpout_summary	 summary;
	unsigned		 marks;			/* LTPOUT_MARK_* */
	char			 killsig[16];		/* "SIGSEGV" with
							   LTPOUT_MARK_SIGNAL */
	long			 timeout_secs;		/* last "timeout per
							   run", -1: none */
	unsigned long		 cut_lines;
	unsigned long long	 cut_bytes;
	unsigned long		 env_warn;		/* TWARN lines the
							   rules call the
							   environment's: set
							   by the caller, the
							   parser leaves 0 */
};

struct ltpout;

struct ltpout	*ltpout_new(void);
void		 ltpout_free(struct ltpout *);
/* Forgets everything, ready for the next test's output. */
void		 ltpout_reset(struct ltpout *);

/*
 * Pull interface.  Consumes bytes from *buf (*len of them) until a line
 * is complete: then fills *line, advances *buf and *len past what was
 * used, and returns 1.  Returns 0 once every byte is consumed (a
 * partial line is kept for the next call).  Loop until 0:
 *
 *	while (ltpout_scan(p, &buf, &len, &line))
 *		show(&line);
 */
int		 ltpout_scan(struct ltpout *, const char **, size_t *,
		    struct ltpout_line *);

/*
 * End of input (or the caller wants the partial line now): returns 1
 * with the pending partial line, or a pending note, until none is left.
 * Bytes fed afterwards start a new line.
 */
int		 ltpout_flush(struct ltpout *, struct ltpout_line *);

/* Callback interface: the same lines, pushed. */
typedef void	(*ltpout_cb)(const struct ltpout_line *, void *);
void		 ltpout_feed(struct ltpout *, const char *, size_t,
		    ltpout_cb, void *);
void		 ltpout_finish(struct ltpout *, ltpout_cb, void *);

/* The partial line so far (not classified), for a live display. */
const char	*ltpout_pending(const struct ltpout *, size_t *);

const struct ltpout_tally *ltpout_tally(const struct ltpout *);

/*
 * How the test process ended, as the runner saw it.
 */
enum test_end_how {
	TEST_EXITED,		/* code: exit status */
	TEST_SIGNALLED,		/* code: signal number; not sent by us */
	TEST_TIMEDOUT,		/* we killed it at its deadline */
	TEST_NOTRUN,		/* skipped before it started */
	TEST_INTERRUPTED,	/* the run stopped while it ran */
	TEST_NOEXIT		/* exit status unknown (shell tool logs) */
};

struct test_end {
	enum test_end_how	 how;
	int			 code;
};

/*
 * The verdict, combining how the test ended, the exit status (LTP's bit
 * mask: 1 TFAIL, 2 TBROK, 4 TWARN, 32 TCONF), the Summary block and the
 * per-line counts.  Precedence, first match wins:
 *
 *  1. not run, interrupted, timed out by us, killed by a signal (as the
 *     runner saw it): not-run, interrupted, timeout, signalled.
 *  2. LTP's own timeout fired ("Test timeouted, sending SIGKILL!"):
 *     timeout.  LTP reported the test killed by a signal ("Test killed
 *     by SIGSEGV!"), stopped it on SIGINT/SIGTERM from outside ("Sending
 *     SIGKILL to test process..."), or saw it die of SIGKILL with no
 *     timeout ("Test killed! (timeout?)" alone): signalled.
 *  3. Any failure: exit bit 1, Summary failed > 0 or a TFAIL line: fail.
 *  4. Any breakage: exit bit 2, an exit status that is not an LTP mask
 *     (e.g. 127), Summary broken > 0 or a TBROK line: broken.
 *  5. Any warning: exit bit 4, Summary warnings > 0, a TWARN line: warn.
 *     Not when every TWARN line is the environment's (env_warn covers
 *     all TWARN lines and the Summary's warnings): the test goes on to
 *     6 or 7, and test_status_env_marked() says it carries the mark.
 *  6. Nothing passed (no TPASS line, Summary passed 0) and something
 *     was skipped (exit bit 32, Summary skipped, a TCONF line): conf.
 *     As in LTP, TCONF does not count once anything passed.
 *  7. Exit status 0, or passes seen with no exit status: pass.
 *  8. No exit status and no result at all: unknown (an old-library
 *     test that prints only TINFO when it passes; nothing says it
 *     failed).
 *
 * why (may be NULL) receives a short explanation ("exit 1; TFAIL x1").
 */
enum test_status ltpout_status(const struct ltpout_tally *,
		    const struct test_end *, char *, size_t);

/*
 * The verdict's inputs as one line of text, to be stored with a result
 * and judged again when the rules change: how the test ended, the
 * per-class line counts, the Summary block, the marks.  env_warn and
 * the cut counts are not part of it.  Returns 0, or -1 if buf is too
 * small (LTPOUT_RAW_MAX is always enough).
 */
#define LTPOUT_RAW_MAX	256
int		 ltpout_raw_format(const struct ltpout_tally *,
		    const struct test_end *, char *buf, size_t len);
/* The reverse: 0, or -1 when s is not such a line (t, end zeroed). */
int		 ltpout_raw_parse(const char *s, struct ltpout_tally *,
		    struct test_end *);

#endif
