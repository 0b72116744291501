/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Log files of the earlier shell tool, compat_linux_test_project: one
 * file per test, <dir>/<syscall>/<test>.log, laid out as
 *
 *	---- compat_linux_test_project log header ----
 *	key: value
 *	...
 *	--------------------------------------------------
 *	(an empty line)
 *	raw LTP output
 *
 * We read them (reference results, older runs) and write them, so that
 * a run exported by ltpscope can be compared by that tool.  The logs
 * carry no exit status; the verdict comes from the output alone unless
 * an "exit_code" key is present.
 *
 * Ownership: a struct ctplog owns its pairs and body; ctplog_free()
 * releases them.  Strings passed in are copied.
 */
#ifndef LTPSCOPE_CTPLOG_H
#define LTPSCOPE_CTPLOG_H

#include <stddef.h>
#include <stdio.h>

#include "ltpscope/diag.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/status.h"

#define CTPLOG_START	"---- compat_linux_test_project log header ----"
#define CTPLOG_DASHES	50	/* length of the closing line */

struct ctplog_pair {
	char	*key;
	char	*value;
};

struct ctplog {
	struct ctplog_pair	*pairs;		/* in file order */
	size_t			 npairs;
	size_t			 cap;
	char			*body;		/* NUL-terminated; may hold
						   NULs: use bodylen */
	size_t			 bodylen;
};

void	ctplog_init(struct ctplog *);
void	ctplog_free(struct ctplog *);

/*
 * Parses a whole log held in memory.  name is used in diagnostics
 * ("name:line: ...").  Header lines that are not "key: value" are
 * reported and skipped; a missing start or closing line is an error.
 * Returns 0, or -1 when the text is not such a log.
 */
int	ctplog_parse(struct ctplog *, const char *, size_t, const char *,
	    struct diaglist *);
/* The same for a file. */
int	ctplog_read(struct ctplog *, const char *, struct diaglist *);

/* First value for key, or NULL. */
const char *ctplog_get(const struct ctplog *, const char *);
/*
 * Appends a pair.  Returns -1 (and adds nothing) when the key is empty
 * or holds ':' or white space, or the value holds CR or LF.
 */
int	ctplog_add(struct ctplog *, const char *, const char *);
/* Replaces the body with a copy of the bytes given. */
void	ctplog_set_body(struct ctplog *, const char *, size_t);

/* The file's bytes, NUL-terminated; caller frees. */
char	*ctplog_format(const struct ctplog *, size_t *);
/*
 * Writes the log to path (via a temporary file renamed into place, so
 * a crash leaves the old file or the new one); the directory must
 * exist.  Refuses pairs ctplog_add() would refuse.  Returns 0 or -1.
 */
int	ctplog_write(const struct ctplog *, const char *, struct diaglist *);

/*
 * Runs the body through the LTP output parser and gives the verdict.
 * tally (may be NULL) receives the counts.  See ltpout_status().
 */
enum test_status ctplog_status(const struct ctplog *, struct ltpout_tally *,
	    char *, size_t);
/* How the test ended: its exit_code header, else TEST_NOEXIT. */
void	ctplog_end(const struct ctplog *, struct test_end *);

#endif
