/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * From a line of LTP output to the test's source: which file and line
 * a result line names ("fcntl35.c:81: TFAIL: ..."), and where that file
 * sits in an LTP source tree.  LTP's metadata names each test's source
 * ("fname": "testcases/kernel/syscalls/fcntl/fcntl35.c"); a line may
 * name another file of the test's directory, or of LTP's library
 * (tst_test.c).  The answer is a list of paths to try in order, so
 * that the caller reads them where the tree is: here, or on a box.
 *
 * Nothing here prints; only ltpsrc_read() allocates (the text).
 */
#ifndef LTPSCOPE_LTPSRC_H
#define LTPSCOPE_LTPSRC_H

#include <stddef.h>

struct diaglist;

/* The setting and option that name the tree, for messages. */
#define LTPSRC_HINT	"--ltp-src DIR, or \"ltp-src DIR\" in the config"

#define LTPSRC_MAXCAND	4
#define LTPSRC_PATHLEN	1024

/*
 * The first "NAME.c:LINE:" (or .h) of line (len bytes): NAME.c into
 * file, LINE into *linep; 1.  0 when the line names none (an old
 * library's "tag 1 TFAIL : ..."), file "" and *linep 0.
 */
int	ltpsrc_line_ref(const char *line, size_t len, char *file,
	    size_t filelen, long *linep);

/*
 * The paths, below root, where the source may be, best first: base (a
 * file the line named, or NULL for the test's own) in the directory of
 * fname (the metadata's, or NULL when there is none), fname itself,
 * LTP's lib/ for a library file, and without metadata the syscalls
 * directory named after tag (fcntl35: testcases/kernel/syscalls/
 * fcntl).  Returns how many went into cand.
 */
size_t	ltpsrc_candidates(const char *root, const char *fname,
	    const char *tag, const char *base,
	    char cand[][LTPSRC_PATHLEN], size_t max);

/*
 * Reads the first of the candidates that is there into *textp (NUL
 * after it, *lenp bytes) and its path into path; 0.  Else -1 and an
 * error saying what was looked for, where, and how to name a tree.
 * want names the file in it (the line's, else the test's).
 */
int	ltpsrc_read(const char *root, const char *fname, const char *tag,
	    const char *base, char **textp, size_t *lenp, char *path,
	    size_t pathlen, struct diaglist *);

/*
 * The start and length of line lineno (1-based) of text; -1 when text
 * has fewer lines.
 */
int	ltpsrc_line(const char *text, size_t len, long lineno,
	    const char **startp, size_t *lenp);

#endif
