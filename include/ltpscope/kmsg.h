/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the kernel said while a test ran: the lines its message log
 * gained and whether its taint flags changed.  kirk only looks at the
 * taint; a warning the kernel printed and went on from is as much a
 * finding of the test as a TFAIL.
 *
 * kmsg_open() follows this machine's log (compat.h); a box's agent
 * sends its lines over and kmsg_take_add() reads them the same way.
 * Lines are kept as the kernel wrote them (Linux records become
 * "[seconds] text", as dmesg shows them); like test output they are
 * made safe only where shown.
 *
 * Ownership: a take's text is malloc'd and freed by kmsg_take_clear().
 */
#ifndef LTPSCOPE_KMSG_H
#define LTPSCOPE_KMSG_H

#include <stddef.h>
#include <stdint.h>

/* Kernel text kept per test; beyond it lines are only counted. */
#define KMSG_TEXT_CAP	(64u * 1024)

/* What one test's end found in the log. */
struct kmsg_take {
	char		*text;		/* lines, each '\n'-ended; NULL: none */
	size_t		 len;
	unsigned	 nlines;	/* all of them, kept or not */
	unsigned	 nwarn;		/* of them, warnings (kmsg_is_warning) */
	unsigned	 nlost;		/* records overwritten unread */
	int		 capped;	/* text stops at KMSG_TEXT_CAP */
	long long	 taint_before;	/* -1: unknown */
	long long	 taint_after;
	/* Kept between kmsg_take_add() calls: a line cut in two. */
	char		*part;
	size_t		 npart;
	uint64_t	 lastseq;	/* of the last record, +1; 0: none */
};

/* The formats kmsg_take_add() reads (= COMPAT_KMSG_*). */
#define KMSG_RECORDS	1	/* "prio,seq,usec,flags;text" */
#define KMSG_LINES	2	/* plain lines */

struct kmsg;

/*
 * Follows this machine's log from now.  NULL when it cannot be read,
 * with why ("/dev/kmsg: Permission denied") for the caller to say once.
 */
struct kmsg	*kmsg_open(char *why, size_t whylen);
/*
 * Fills *t (cleared first) with what was logged since the last call
 * (or kmsg_open) and the taint flags now and at the last call.
 */
void		 kmsg_collect(struct kmsg *, struct kmsg_take *t);
void		 kmsg_close(struct kmsg *);

void		 kmsg_take_init(struct kmsg_take *);
/* Adds len bytes of the log in format fmt; a cut line waits. */
void		 kmsg_take_add(struct kmsg_take *, int fmt, const char *buf,
		    size_t len);
/* The last line, if it had no newline, counts now. */
void		 kmsg_take_end(struct kmsg_take *, int fmt);
void		 kmsg_take_clear(struct kmsg_take *);
/* 1 if the test gets the kernel mark: a warning, or a new taint flag. */
int		 kmsg_take_marked(const struct kmsg_take *);
/*
 * 1 if a line is a warning: a record of priority LOG_WARNING or worse
 * (prio -1: unknown), or text a kernel writes when something is wrong
 * (WARNING:, BUG:, Oops, panic, a failed assertion).
 */
int		 kmsg_is_warning(int prio, const char *text, size_t len);

/*
 * The marker the output pane and `show --output` print before a test's
 * kernel lines, and its first words, which the TUI tests look for.
 */
#define KMSG_MARKER	"--- kernel messages"
int		 kmsg_marker(char *buf, size_t len, unsigned nlines,
		    unsigned nwarn, long long taint_before,
		    long long taint_after);

#endif
