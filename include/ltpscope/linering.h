/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A bounded ring of output lines for the explorer's output pane: the
 * newest lines of a test's output, each with its class, held within a
 * fixed number of lines and bytes however much the test prints.  The
 * full text is in the store; this is only what the screen can scroll.
 *
 * The ring copies what it is given and owns it; a pointer returned by
 * linering_get() is valid until the next push or clear.
 */
#ifndef LTPSCOPE_LINERING_H
#define LTPSCOPE_LINERING_H

#include <stddef.h>

#include "ltpscope/status.h"

struct linering;

struct linering	*linering_new(size_t maxlines, size_t maxbytes);
void		 linering_free(struct linering *);
void		 linering_clear(struct linering *);
/* Appends a line (len bytes, no line end); evicts the oldest lines. */
void		 linering_push(struct linering *, enum line_class,
		    const char *, size_t);
/* Lines held now. */
size_t		 linering_count(const struct linering *);
/* Lines pushed since the last clear, held or evicted. */
unsigned long long linering_total(const struct linering *);
/* Line i, 0 the oldest held; NULL when i is out of range. */
const char	*linering_get(const struct linering *, size_t,
		    enum line_class *, size_t *);
/* Bytes held now (text only). */
size_t		 linering_bytes(const struct linering *);

#endif
