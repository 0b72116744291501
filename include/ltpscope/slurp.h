/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading a whole file into memory, for the parsers that work on a
 * buffer (skip lists, runtest files, the test map, logs, JSON, triage
 * configuration).  Core: slurp_file() says nothing; slurp_file_diag()
 * words the usual error into a diaglist, for the parsers that report
 * there.
 *
 * Ownership: on success *bufp is malloc'd and the caller frees it.
 */
#ifndef LTPSCOPE_SLURP_H
#define LTPSCOPE_SLURP_H

#include <stddef.h>

#define SLURP_OK	0
#define SLURP_EOPEN	(-1)	/* fopen failed; errno says why */
#define SLURP_EREAD	(-2)	/* reading failed; errno says why */

/*
 * Reads the file at path: *bufp gets its bytes with a NUL after the
 * last, *lenp their number.  With max > 0 reading stops once more than
 * max bytes came, so that the caller can refuse the file (*lenp > max)
 * without reading all of it.  On failure nothing is allocated and
 * errno is as the failing call left it.
 */
int	slurp_file(const char *path, size_t max, char **bufp, size_t *lenp);

struct diaglist;
/*
 * slurp_file(), and on failure an error at path in the list, "cannot
 * open: WHY" or "cannot read: WHY".  Returns 0, or -1 on failure.
 */
int	slurp_file_diag(const char *path, size_t max, char **bufp,
	    size_t *lenp, struct diaglist *);

#endif
