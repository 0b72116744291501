/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A console log watched while a test runs on a box (see crashlog.h):
 * the panic line is there within a second of the panic, long before
 * ssh's keepalives give the box up, so a crash is told from it.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/crashlog.h"
#include "ltpscope/xmalloc.h"

/* A line longer than this is looked at in pieces. */
#define CRASHLOG_WATCH_LINE	1024

struct crashlog_watch {
	char	*path;
	off_t	 off;		/* read up to here */
	char	 part[CRASHLOG_WATCH_LINE];	/* a line not ended */
	size_t	 plen;
};

static int
cw_has(const char *s, size_t len, const char *w)
{
	size_t wl = strlen(w), i;

	for (i = 0; i + wl <= len; i++)
		if (s[i] == w[0] && memcmp(s + i, w, wl) == 0)
			return 1;
	return 0;
}

/*
 * The words that tell a box is dead, not only unwell: a Linux oops or
 * a BUG may leave it running (panic_on_oops=0), a panic does not.
 */
int
crashlog_is_fatal(const char *s, size_t len)
{
	const char *rb, *e = s + len;

	/* NetBSD's "panic: " begins the line, after the timestamp. */
	if (len > 0 && s[0] == '[' && (rb = memchr(s, ']', len)) != NULL)
		for (s = rb + 1; s < e && *s == ' '; s++)
			;
	len = (size_t)(e - s);
	return (len >= 7 && memcmp(s, "panic: ", 7) == 0) ||
	    cw_has(s, len, "Kernel panic - not syncing") ||
	    cw_has(s, len, "Stopped in pid ");
}

struct crashlog_watch *
crashlog_watch_new(const char *path, off_t from)
{
	struct crashlog_watch *w = xcalloc(1, sizeof(*w));

	w->path = xstrdup(path);
	w->off = from;
	return w;
}

void
crashlog_watch_seek(struct crashlog_watch *w, off_t to)
{
	w->off = to;
	w->plen = 0;
}

/* One line (or a long line's piece): 1 and first filled when fatal. */
static int
cw_line(const char *s, size_t len, char *first, size_t flen)
{
	while (len > 0 && (s[len - 1] == '\r' || s[len - 1] == '\n'))
		len--;
	if (!crashlog_is_fatal(s, len))
		return 0;
	crashlog_clean(s, len, first, flen);
	return 1;
}

int
crashlog_watch_poll(struct crashlog_watch *w, char *first, size_t flen)
{
	struct stat sb;
	char buf[8192], *nl, *p;
	size_t n, take;
	FILE *fp;
	int hit = 0;

	if (stat(w->path, &sb) != 0)
		return 0;
	/* Made again or cut short: what is there now is new. */
	if (sb.st_size < w->off)
		crashlog_watch_seek(w, 0);
	if (sb.st_size == w->off || (fp = fopen(w->path, "r")) == NULL)
		return 0;
	if (fseeko(fp, w->off, SEEK_SET) != 0) {
		fclose(fp);
		return 0;
	}
	while (!hit && (n = fread(buf, 1, sizeof(buf), fp)) > 0) {
		for (p = buf; !hit && p < buf + n; p += take) {
			nl = memchr(p, '\n', (size_t)(buf + n - p));
			take = (size_t)((nl != NULL ? nl + 1 : buf + n) - p);
			if (w->plen + take > sizeof(w->part))
				take = sizeof(w->part) - w->plen;
			memcpy(w->part + w->plen, p, take);
			w->plen += take;
			w->off += (off_t)take;
			if (w->part[w->plen - 1] != '\n' &&
			    w->plen < sizeof(w->part))
				continue;
			hit = cw_line(w->part, w->plen, first, flen);
			w->plen = 0;
		}
	}
	fclose(fp);
	return hit;
}

void
crashlog_watch_free(struct crashlog_watch *w)
{
	if (w == NULL)
		return;
	free(w->path);
	free(w);
}
