/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Strings for the box: a growing buffer, quoting for sh and csh alike,
 * and ssh's or the shell's words made fit for a message.  The bottom
 * of the remote code (remote_impl.h), shared by the master's code
 * (remote.c) and the agents' (remote_agent.c); it calls neither.
 */
#include <stddef.h>
#include <string.h>

#include "ltpscope/remote.h"
#include "ltpscope/xmalloc.h"
#include "remote_impl.h"

void
remote_buf_addn(struct remote_buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		while (b->len + n + 1 > b->cap)
			b->cap = b->cap ? b->cap * 2 : 256;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
remote_buf_add(struct remote_buf *b, const char *s)
{
	remote_buf_addn(b, s, strlen(s));
}

void
remote_buf_quote(struct remote_buf *b, const char *s)
{
	const char *q;

	remote_buf_add(b, "'");
	while ((q = strchr(s, '\'')) != NULL) {
		remote_buf_addn(b, s, (size_t)(q - s));
		remote_buf_add(b, "'\\''");
		s = q + 1;
	}
	remote_buf_add(b, s);
	remote_buf_add(b, "'");
}

void
remote_quote(char **buf, size_t *len, const char *s)
{
	struct remote_buf b;

	b.s = *buf;
	b.len = *len;
	b.cap = *buf != NULL ? *len + 1 : 0;
	remote_buf_quote(&b, s);
	*buf = b.s;
	*len = b.len;
}

/* ssh's or the shell's first line of words, for a message. */
const char *
remote_first_words(char *out, size_t len)
{
	size_t i;

	if (out == NULL || len == 0)
		return "";
	for (i = 0; i < len && out[i] != '\n' && out[i] != '\0'; i++)
		if ((unsigned char)out[i] < ' ' || out[i] == 0x7f)
			out[i] = '?';
	out[i] = '\0';
	return out;
}
