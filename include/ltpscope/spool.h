/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A test's output on its way to the store, held without holding it
 * whole: the first SPOOL_MEM bytes in memory (most tests print no
 * more, and never touch a file), then all of it in a spool file that is
 * unlinked as soon as it is made, so that nothing is left on disk
 * whatever happens to the process.  At most limit bytes are kept;
 * beyond them, and beyond a write that failed (a full disk), bytes are
 * only counted.  Lines of ltpscope's own (spool_note()) are kept after
 * such a failure too, in a small trailer, so that the stored output
 * still says what happened.
 *
 * Ownership: the spool owns its buffer, file and the copy of dir.
 */
#ifndef LTPSCOPE_SPOOL_H
#define LTPSCOPE_SPOOL_H

#include <stddef.h>
#include <stdint.h>

/* Kept in memory before a file is made. */
#define SPOOL_MEM	(64u * 1024)
/* ltpscope's own lines kept after the file failed. */
#define SPOOL_TRAILER	4096

struct spool;

/* dir: where the file goes when the output outgrows memory. */
struct spool	*spool_new(const char *dir, uint64_t limit);
void		 spool_free(struct spool *);
/* Empties it for the next test; the file, if any, is closed (gone). */
void		 spool_reset(struct spool *);
/*
 * Appends a test's output.  0, or -1 when this call is the one that
 * found the file unwritable (spool_error() says why): what fitted is
 * kept, the rest of the output only counted from then on.
 */
int		 spool_write(struct spool *, const void *, size_t);
/* Appends a line of ltpscope's own; after a failure, to the trailer. */
void		 spool_note(struct spool *, const void *, size_t);
/* Bytes kept (readable), trailer included. */
uint64_t	 spool_length(const struct spool *);
/* Bytes given, kept or not. */
uint64_t	 spool_total(const struct spool *);
/* Kept bytes [off, off + len) into buf: 0, or -1 with errno set. */
int		 spool_read(struct spool *, void *buf, size_t len,
		    uint64_t off);
/* Why the file failed ("cannot write ... in DIR: ..."), or NULL. */
const char	*spool_error(const struct spool *);

#endif
