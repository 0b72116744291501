/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A console log watched while a test runs on a box (see crashlog.h):
 * the panic line is there within a second of the panic, long before
 * ssh's keepalives give the box up, so a crash is told from it.  What
 * one line says is in crashlog_line.c, below this file.
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
	int	 fired;		/* the fatal line was read */
	int	 ended;		/* ... and the crash's words after it */
	char	 comm[CRASHLOG_COMM];	/* the last "Comm: " task */
	int	 comm_age;	/* lines read since it */
	int	 after;		/* lines read since the fatal one */
};

struct crashlog_watch *
crashlog_watch_new(const char *path, off_t from)
{
	struct crashlog_watch *w = xcalloc(1, sizeof(*w));

	w->path = xstrdup(path);
	crashlog_watch_seek(w, from);
	return w;
}

void
crashlog_watch_seek(struct crashlog_watch *w, off_t to)
{
	w->off = to;
	w->plen = 0;
	w->fired = w->ended = 0;
	w->comm[0] = '\0';
	w->comm_age = CRASHLOG_SPAN + 1;
}

/*
 * Linux names the task it was in when it panicked or oopsed:
 * "CPU: 0 PID: 97 Comm: kill11 Not tainted ...".  The name (at most
 * 15 bytes, the kernel's TASK_COMM_LEN) goes to w->comm.
 */
static int
cw_comm(struct crashlog_watch *w, const char *s, size_t len)
{
	const char *e = s + len, *p;
	char name[CRASHLOG_COMM];
	size_t n;

	for (p = s; p + 6 <= e; p++)
		if (memcmp(p, "Comm: ", 6) == 0)
			break;
	if (p + 6 > e)
		return 0;
	for (p += 6, n = 0; p + n < e && p[n] != ' ' && p[n] != '\r' &&
	    p[n] != '\n' && n < sizeof(name) - 1; n++)
		;
	if (n == 0)
		return 0;
	crashlog_clean(p, n, name, sizeof(name));
	memcpy(w->comm, name, sizeof(w->comm));
	w->comm_age = 0;
	return 1;
}

/* Whether the kernel is done telling of its crash. */
static int
cw_closing(const char *s, size_t len)
{
	return crashlog_has(s, len, "---[ end ") ||
	    crashlog_has(s, len, "Rebooting in") ||
	    crashlog_has(s, len, "rebooting...") ||
	    crashlog_has(s, len, "Linux version ");
}

/* One line (or a long line's piece): 1 and first filled when fatal. */
static int
cw_line(struct crashlog_watch *w, const char *s, size_t len, char *first,
    size_t flen)
{
	while (len > 0 && (s[len - 1] == '\r' || s[len - 1] == '\n'))
		len--;
	if (w->fired) {
		/* panic() names its task after its line; an oops, before. */
		w->after++;
		if (cw_comm(w, s, len) || cw_closing(s, len) ||
		    w->after >= CRASHLOG_AFTER)
			w->ended = 1;
		return 0;
	}
	if (cw_comm(w, s, len) == 0)
		w->comm_age++;
	if (!crashlog_is_fatal(s, len))
		return 0;
	crashlog_clean(s, len, first, flen);
	/* An oops's task, told just before, unless another follows. */
	if (w->comm_age > CRASHLOG_SPAN)
		w->comm[0] = '\0';
	w->fired = 1;
	w->after = 0;
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
	while (!hit && !w->ended && (n = fread(buf, 1, sizeof(buf), fp)) >
	    0) {
		for (p = buf; !hit && !w->ended && p < buf + n; p += take) {
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
			hit = cw_line(w, w->part, w->plen, first, flen);
			w->plen = 0;
		}
	}
	fclose(fp);
	return hit;
}

int
crashlog_watch_culprit(struct crashlog_watch *w, char *comm, size_t len)
{
	char line[8];

	if (!w->ended)
		(void)crashlog_watch_poll(w, line, sizeof(line));
	snprintf(comm, len, "%s", w->comm);
	return w->ended;
}

void
crashlog_watch_free(struct crashlog_watch *w)
{
	if (w == NULL)
		return;
	free(w->path);
	free(w);
}
