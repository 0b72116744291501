/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the kernel said while a test ran (see kmsg.h): the log's new
 * lines, read through compat.h, counted, the warnings among them told
 * apart, and the taint flags before and after.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/compat.h"
#include "ltpscope/crashlog.h"
#include "ltpscope/kmsg.h"
#include "ltpscope/xmalloc.h"

_Static_assert(KMSG_RECORDS == COMPAT_KMSG_RECORDS &&
    KMSG_LINES == COMPAT_KMSG_LINES, "kmsg formats are compat's");

/* A line of the log longer than this is cut (a record is 1 KiB). */
#define KMSG_LINE_MAX	8192
/* What one read takes: room for a few /dev/kmsg records. */
#define KMSG_READ	(64u * 1024)

struct kmsg {
	struct compat_kmsg	*src;
	int			 fmt;
	long long		 taint;		/* at the last collect */
	uint64_t		 lastseq;	/* carried from take to take */
	char			*buf;
};

struct kmsg *
kmsg_open(char *why, size_t whylen)
{
	struct compat_kmsg *src;
	struct kmsg *k;
	int fmt;

	if ((src = compat_kmsg_open(&fmt)) == NULL) {
		const char *e = getenv("LTPSCOPE_KMSG");

		snprintf(why, whylen, "%s: %s", e != NULL && *e != '\0' ? e :
#ifdef __NetBSD__
		    "sysctl kern.msgbuf",
#else
		    "/dev/kmsg",
#endif
		    strerror(errno));
		return NULL;
	}
	k = xcalloc(1, sizeof(*k));
	k->src = src;
	k->fmt = fmt;
	k->taint = compat_kernel_tainted();
	k->buf = xmalloc(KMSG_READ);
	return k;
}

void
kmsg_collect(struct kmsg *k, struct kmsg_take *t)
{
	long n;
	int lost;

	kmsg_take_init(t);
	t->lastseq = k->lastseq;
	for (;;) {
		n = compat_kmsg_read(k->src, k->buf, KMSG_READ, &lost);
		/* Without a number to count the gap by, one loss is said. */
		if (lost && t->lastseq == 0)
			t->nlost++;
		if (n <= 0)
			break;
		kmsg_take_add(t, k->fmt, k->buf, (size_t)n);
	}
	kmsg_take_end(t, k->fmt);
	k->lastseq = t->lastseq;
	t->taint_before = k->taint;
	t->taint_after = k->taint = compat_kernel_tainted();
}

void
kmsg_close(struct kmsg *k)
{
	if (k == NULL)
		return;
	compat_kmsg_close(k->src);
	free(k->buf);
	free(k);
}

void
kmsg_take_init(struct kmsg_take *t)
{
	memset(t, 0, sizeof(*t));
	t->taint_before = t->taint_after = -1;
}

void
kmsg_take_clear(struct kmsg_take *t)
{
	free(t->text);
	free(t->part);
	kmsg_take_init(t);
}

int
kmsg_take_marked(const struct kmsg_take *t)
{
	return t->nwarn > 0 || (t->taint_after != t->taint_before &&
	    t->taint_before != -1 && t->taint_after != -1);
}

static int
kmsg_has(const char *s, size_t len, const char *w)
{
	size_t wl = strlen(w), i;

	for (i = 0; i + wl <= len; i++)
		if (s[i] == w[0] && memcmp(s + i, w, wl) == 0)
			return 1;
	return 0;
}

int
kmsg_is_warning(int prio, const char *text, size_t len)
{
	/* LOG_WARNING is 4; the facility sits above the low three bits. */
	if (prio >= 0 && (prio & 7) <= 4)
		return 1;
	return kmsg_has(text, len, "WARNING:") || kmsg_has(text, len,
	    "WARNING ") || kmsg_has(text, len, "Call Trace") ||
	    crashlog_is_panic(text, len);
}

static void
kmsg_keep(struct kmsg_take *t, const char *s, size_t len)
{
	if (t->capped || len == 0)
		return;
	if (t->len + len > KMSG_TEXT_CAP) {
		t->capped = 1;
		return;
	}
	t->text = xrealloc(t->text, t->len + len + 1);
	memcpy(t->text + t->len, s, len);
	t->len += len;
	t->text[t->len] = '\0';
}

/*
 * One record of /dev/kmsg: "prio,seq,usec,flags;text".  Its " KEY=VALUE"
 * lines say which device spoke; they are not the message and are left.
 */
static void
kmsg_record(struct kmsg_take *t, const char *s, size_t len)
{
	unsigned long long prio, seq, usec;
	const char *semi = memchr(s, ';', len);
	char head[96], stamp[48];
	size_t hl;
	int n;

	if (len > 0 && s[0] == ' ')
		return;
	hl = semi != NULL ? (size_t)(semi - s) : 0;
	if (semi == NULL || hl >= sizeof(head)) {
		/* Not a record: kept as a line, its words judged. */
		t->nlines++;
		t->nwarn += (unsigned)kmsg_is_warning(-1, s, len);
		kmsg_keep(t, s, len);
		kmsg_keep(t, "\n", 1);
		return;
	}
	memcpy(head, s, hl);
	head[hl] = '\0';
	n = sscanf(head, "%llu,%llu,%llu", &prio, &seq, &usec);
	if (n < 3)
		prio = (unsigned long long)-1, usec = 0;
	if (n >= 2) {
		/* A gap in the numbers: the kernel overwrote what is missing. */
		if (t->lastseq != 0 && seq > t->lastseq)
			t->nlost += seq - t->lastseq > 0xffff ? 0xffff :
			    (unsigned)(seq - t->lastseq);
		t->lastseq = seq + 1;
	}
	s = semi + 1;
	len -= hl + 1;
	t->nlines++;
	t->nwarn += (unsigned)kmsg_is_warning(n >= 1 ? (int)(prio & 0xff) :
	    -1, s, len);
	(void)snprintf(stamp, sizeof(stamp), "[%5llu.%06llu] ", usec / 1000000,
	    usec % 1000000);
	kmsg_keep(t, stamp, strlen(stamp));
	kmsg_keep(t, s, len);
	kmsg_keep(t, "\n", 1);
}

static void
kmsg_line(struct kmsg_take *t, int fmt, const char *s, size_t len)
{
	if (len > 0 && s[len - 1] == '\r')
		len--;
	if (fmt == KMSG_RECORDS) {
		kmsg_record(t, s, len);
		return;
	}
	if (len == 0)
		return;
	t->nlines++;
	t->nwarn += (unsigned)kmsg_is_warning(-1, s, len);
	kmsg_keep(t, s, len);
	kmsg_keep(t, "\n", 1);
}

void
kmsg_take_add(struct kmsg_take *t, int fmt, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *nl;
	size_t n;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		if (nl == NULL || t->npart > 0) {
			/* A line cut by the read, joined to its rest. */
			size_t room = KMSG_LINE_MAX - t->npart;

			if (n > room)
				n = room;
			t->part = xrealloc(t->part, t->npart + n + 1);
			memcpy(t->part + t->npart, p, n);
			t->npart += n;
			if (nl == NULL)
				return;
			kmsg_line(t, fmt, t->part, t->npart);
			t->npart = 0;
		} else
			kmsg_line(t, fmt, p, n);
		p = nl + 1;
	}
}

void
kmsg_take_end(struct kmsg_take *t, int fmt)
{
	if (t->npart > 0)
		kmsg_line(t, fmt, t->part, t->npart);
	t->npart = 0;
	free(t->part);
	t->part = NULL;
}

int
kmsg_marker(char *buf, size_t len, unsigned nlines, unsigned nwarn,
    long long taint_before, long long taint_after)
{
	int n;

	n = snprintf(buf, len, KMSG_MARKER " (%u line%s", nlines,
	    nlines == 1 ? "" : "s");
	if (n >= 0 && (size_t)n < len && nwarn > 0)
		n += snprintf(buf + n, len - (size_t)n, ", %u warning%s",
		    nwarn, nwarn == 1 ? "" : "s");
	if (n >= 0 && (size_t)n < len && taint_before != taint_after &&
	    taint_before != -1 && taint_after != -1)
		n += snprintf(buf + n, len - (size_t)n, ", tainted %lld -> "
		    "%lld", taint_before, taint_after);
	if (n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, ") ---");
	return n;
}
