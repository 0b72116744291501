/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the kernel said about a crash: the panic message picked out of
 * a kernel log (dmesg on a box back from a reboot, or a serial console
 * logged to a file), written after the crashed test's output, and
 * found there again by show, the exports and the run's summary.
 *
 * The block goes into the stored output of the crash result, not into
 * a column of its own: the explorer's output pane, show --output and
 * any export that prints output show it next to the test with no
 * schema change, and one marker line, ours, names its first line:
 *
 *	ltpscope: kernel (SOURCE): panic: kernel diagnostic assertion ...
 *	[the kernel's lines around it, as it wrote them]
 *	ltpscope: end of the kernel's messages
 *
 * Nothing here prints; crashlog_collect() (crashlog_collect.c) talks
 * to the store and the box.
 */
#ifndef LTPSCOPE_CRASHLOG_H
#define LTPSCOPE_CRASHLOG_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/diag.h"

/* The marker line's start; SOURCE and "): " follow. */
#define CRASHLOG_MARK		"ltpscope: kernel ("
/*
 * A block stays short: lines kept before the crash's first line, at
 * most after its last (its trace; the kernel's closing line or the
 * next boot ends it sooner), and how far back its first line may be.
 */
#define CRASHLOG_BEFORE		5
#define CRASHLOG_AFTER		100
#define CRASHLOG_SPAN		64
#define CRASHLOG_TAIL		20	/* no panic found: the log's end */
#define CRASHLOG_MAX		16384	/* bytes of kernel text kept */

/*
 * Whether a kernel log line tells of a panic or a fatal trap (NetBSD's
 * and Linux's wordings).
 */
int	crashlog_is_panic(const char *line, size_t len);
/* Whether s[0..len) holds w: memmem(3) is not POSIX. */
int	crashlog_has(const char *s, size_t len, const char *w);

/*
 * Whether a console line tells the box is dead, not only unwell: a
 * panic (Linux's "Kernel panic - not syncing", NetBSD's "panic: ",
 * ddb's "Stopped in pid"), not an oops the box may live through.
 */
int	crashlog_is_fatal(const char *line, size_t len);

/*
 * A kernel line for one line of text: no timestamp ("[ 12.3456] "),
 * control bytes as spaces; at most buflen - 1 bytes of it.
 */
void	crashlog_clean(const char *line, size_t len, char *buf,
	    size_t buflen);

/*
 * The block to append to a crash's output for a kernel log of len
 * bytes from source ("dmesg on HOST", "console FILE"): the last crash
 * in it (from the first line telling of it, a few lines before, to
 * the end of its trace: the kernel's closing line, "---[ end Kernel
 * panic", "Rebooting in", "rebooting...", or the next boot's first),
 * or its last lines when it has none.
 * Sets *outlen; malloc'd.  first (may be NULL) gets the line the
 * marker names: the "panic: " line, else the crash's first.  Returns 1
 * when a crash was found, else 0.
 */
int	crashlog_block(const char *source, const char *log, size_t len,
	    char **out, size_t *outlen, char *first, size_t flen);

/*
 * What a kernel log says became of the box after its last fatal line
 * (crashlog_is_fatal()): CRASHLOG_REBOOTING when the kernel reboots by
 * itself ("Rebooting in", "rebooting...", a boot's first words),
 * CRASHLOG_STOPPED when it stays down (Linux's closing "---[ end
 * Kernel panic" with panic=0, ddb's prompt), CRASHLOG_UNKNOWN when it
 * has not said yet, CRASHLOG_SILENT when it has no fatal line.
 */
#define CRASHLOG_UNKNOWN	0
#define CRASHLOG_REBOOTING	1
#define CRASHLOG_STOPPED	2
#define CRASHLOG_SILENT		3
int	crashlog_fate(const char *log, size_t len);

/*
 * The first line of the kernel's words in a stored output (what the
 * marker names): 1 and buf filled, or 0 when the output has no block
 * (the box has not come back yet, or the result is no crash).
 */
int	crashlog_find(const char *output, size_t len, char *buf,
	    size_t buflen);

struct remote;
struct store;

/*
 * A console log watched while tests run on a box: each
 * crashlog_watch_poll() reads what was added since the last (from
 * "from" at first) and returns 1 when a line of it is fatal
 * (crashlog_is_fatal()), that line, cleaned, in first; else 0.  A log
 * cut short or made again is read from its start.  Never blocks on
 * more than a local file read.
 */
struct crashlog_watch;
struct crashlog_watch *crashlog_watch_new(const char *path, off_t from);
int	crashlog_watch_poll(struct crashlog_watch *, char *first,
	    size_t flen);
/*
 * After crashlog_watch_poll() told of a fatal line: the task Linux
 * names with the crash ("Comm: NAME", in panic()'s dump after its
 * line, or in the oops just before it; at most 15 bytes, as the
 * kernel cuts it) in comm, "" when none.  Returns 1 once the kernel
 * has said it (or closed the crash's words without it), 0 while it
 * may still come: poll again.
 */
#define CRASHLOG_COMM		32
int	crashlog_watch_culprit(struct crashlog_watch *, char *comm,
	    size_t len);
/* Goes on from offset to (the end, once the crash's words are read). */
void	crashlog_watch_seek(struct crashlog_watch *, off_t to);
void	crashlog_watch_free(struct crashlog_watch *);

/* Where a console log ends now, to read from later; 0 when none yet. */
off_t	crashlog_console_end(const char *path);
/* crashlog_fate() of a console log from offset from on. */
int	crashlog_console_fate(const char *path, off_t from);

/* Told of each crash given the kernel's words: the marker's line. */
typedef void	crashlog_told_fn(void *arg, const char *tag, const char *first);

/*
 * The box is back: each crash of run_id whose output has no kernel
 * words yet gets them, from console (a local file, read from
 * *console_off, which is then moved to its end; console_off may be
 * NULL: from the start) when given, else from dmesg on box (blocks up
 * to a minute).  told (may be NULL) hears of each.  Returns how many
 * crashes got words, -1 on a store error (dl).
 */
int	crashlog_collect(struct store *, int64_t run_id,
	    const struct remote *box, const char *console, off_t *console_off,
	    crashlog_told_fn *told, void *arg, struct diaglist *);

#endif
