/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's words about a crash (see crashlog.h): a panic picked out
 * of a kernel log, and the block of it kept with the crash result.
 * What one line says is in crashlog_line.c, below this file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/crashlog.h"
#include "ltpscope/xmalloc.h"

struct cl_line {
	const char	*s;
	size_t		 len;
};

/* The log's lines, without their "\r\n" or "\n". */
static struct cl_line *
cl_split(const char *log, size_t len, size_t *np)
{
	struct cl_line *v = NULL;
	const char *p = log, *end = log + len, *nl;
	size_t n = 0, cap = 0;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n].s = p;
		v[n].len = (size_t)((nl != NULL ? nl : end) - p);
		while (v[n].len > 0 && v[n].s[v[n].len - 1] == '\r')
			v[n].len--;
		n++;
		p = nl != NULL ? nl + 1 : end;
	}
	*np = n;
	return v;
}

/*
 * Where a crash's telling ends, the line kept: Linux's last words with
 * panic=0, its own reboot with panic=N, NetBSD's reboot without ddb.
 */
static const char *const crashlog_ends[] = {
	"---[ end Kernel panic", "Rebooting in ", "rebooting..."
};

/* The next boot's first words: firmware, boot loaders, kernels. */
static const char *const crashlog_boots[] = {
	"Linux version ", "SeaBIOS ", ">> NetBSD", "Copyright (c) 1996",
	"Booting from ", "U-Boot ", "OpenBIOS "
};

static int
cl_any(const struct cl_line *l, const char *const *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (crashlog_has(l->s, l->len, w[i]))
			return 1;
	return 0;
}

#define CL_ANY(l, w)	cl_any((l), (w), sizeof(w) / sizeof((w)[0]))

/* The line's text after its "[ 12.345678] " timestamp, if any. */
static const char *
cl_text(const struct cl_line *l, double *ts)
{
	const char *rb, *e = l->s + l->len;
	char num[40];
	size_t n;

	*ts = -1;
	if (l->len < 3 || l->s[0] != '[' || (rb = memchr(l->s, ']',
	    l->len)) == NULL)
		return l->s;
	n = (size_t)(rb - l->s - 1);
	if (n < sizeof(num)) {
		memcpy(num, l->s + 1, n);
		num[n] = '\0';
		*ts = strtod(num, NULL);
	}
	for (rb++; rb < e && *rb == ' '; rb++)
		;
	return rb;
}

/*
 * Whether line l begins a boot: its first words, or a timestamp back
 * near zero after a later one (the kernel's clock started again).
 */
static int
cl_boot(const struct cl_line *l, double later)
{
	const char *t;
	double ts;

	t = cl_text(l, &ts);
	if (CL_ANY(l, crashlog_boots))
		return 1;
	/* NetBSD's first line: "NetBSD 10.1 (GENERIC) #0: ...". */
	if ((size_t)(l->s + l->len - t) > 7 && memcmp(t, "NetBSD ", 7) == 0 &&
	    crashlog_has(t, (size_t)(l->s + l->len - t), " #"))
		return 1;
	return ts >= 0 && later >= 0 && ts + 1.0 < later;
}

/* A panic line that is not the closing one of a panic told above it. */
static int
cl_panic(const struct cl_line *l)
{
	return crashlog_is_panic(l->s, l->len) &&
	    !crashlog_has(l->s, l->len, "---[ end ");
}

/*
 * The crash of lines [*lop, *hip): its last panic line, back to its
 * first one (lines telling of one crash stand close together; a boot
 * or an older crash's end stands between two), a few lines before
 * that, and on to where the kernel stopped talking: its closing line,
 * or the next boot's first.  *headp: its "panic: " line.  0 when the
 * log tells of no crash.
 */
static int
cl_crash(const struct cl_line *v, size_t n, size_t *lop, size_t *hip,
    size_t *headp)
{
	size_t i, last = n, start, stop = 0;
	double ts, later;

	for (i = n; i-- > 0 && last == n;)
		if (cl_panic(&v[i]))
			last = i;
	/* Only the closing line is left (the log began after the rest). */
	for (i = n; i-- > 0 && last == n;)
		if (crashlog_is_panic(v[i].s, v[i].len))
			last = i;
	if (last == n)
		return 0;
	start = last;
	(void)cl_text(&v[last], &later);
	for (i = last; i-- > 0 && last - i <= CRASHLOG_SPAN;) {
		if (cl_boot(&v[i + 1], -1) || CL_ANY(&v[i], crashlog_ends)) {
			stop = i + 1;
			break;
		}
		(void)cl_text(&v[i], &ts);
		if (ts >= 0 && later >= 0 && ts > later + 1.0) {
			stop = i + 1;
			break;
		}
		if (ts >= 0)
			later = ts;
		if (cl_panic(&v[i]))
			start = i;
	}
	*lop = start > stop + CRASHLOG_BEFORE ? start - CRASHLOG_BEFORE :
	    stop;
	(void)cl_text(&v[last], &later);
	for (i = last + 1; i < n && i - last <= CRASHLOG_AFTER; i++) {
		if (cl_boot(&v[i], later))
			break;
		(void)cl_text(&v[i], &ts);
		if (ts >= 0)
			later = ts;
		if (CL_ANY(&v[i], crashlog_ends)) {
			i++;
			break;
		}
	}
	*hip = i;
	/* "panic: why" says more than the trap that led to it. */
	for (i = start; i <= last; i++)
		if (cl_panic(&v[i]) && (crashlog_has(v[i].s, v[i].len, "panic: ") ||
		    crashlog_has(v[i].s, v[i].len, "Kernel panic")))
			break;
	*headp = i <= last ? i : start;
	return 1;
}

static void
cl_add(char **out, size_t *len, size_t *cap, const char *s, size_t n)
{
	if (*len + n + 1 > *cap) {
		*cap = (*len + n + 1) * 2;
		*out = xrealloc(*out, *cap);
	}
	memcpy(*out + *len, s, n);
	*len += n;
	(*out)[*len] = '\0';
}

int
crashlog_block(const char *source, const char *log, size_t len,
    char **out, size_t *outlen, char *first, size_t flen)
{
	struct cl_line *v;
	char head[512], line1[300];
	size_t n, i, lo, hi, at, kept = 0, cap = 0;
	int found;

	v = cl_split(log, len, &n);
	if ((found = cl_crash(v, n, &lo, &hi, &at)) != 0)
		crashlog_clean(v[at].s, v[at].len, line1, sizeof(line1));
	else {
		lo = n > CRASHLOG_TAIL ? n - CRASHLOG_TAIL : 0;
		at = hi = n;
		/* Said after a test's name: never a bare colon. */
		if (n > 0)
			snprintf(line1, sizeof(line1), "no panic message (its "
			    "last %zu line%s %s kept with the crash)", n - lo,
			    n - lo == 1 ? "" : "s", n - lo == 1 ? "is" :
			    "are");
		else
			snprintf(line1, sizeof(line1), "no panic message "
			    "(the log was empty)");
	}
	*out = NULL;
	*outlen = 0;
	snprintf(head, sizeof(head), CRASHLOG_MARK "%s): %s\n", source,
	    line1);
	cl_add(out, outlen, &cap, head, strlen(head));
	/* Too long: what led to the crash goes first, then the trace's end. */
	for (i = lo; i < hi; i++)
		kept += v[i].len + 1;
	while (kept > CRASHLOG_MAX && lo < at)
		kept -= v[lo++].len + 1;
	while (kept > CRASHLOG_MAX && hi > lo + 1)
		kept -= v[--hi].len + 1;
	for (i = lo; i < hi; i++) {
		cl_add(out, outlen, &cap, v[i].s, v[i].len);
		cl_add(out, outlen, &cap, "\n", 1);
	}
	snprintf(head, sizeof(head), "ltpscope: end of the kernel's "
	    "messages\n");
	cl_add(out, outlen, &cap, head, strlen(head));
	if (first != NULL && flen > 0)
		snprintf(first, flen, "%s", line1);
	free(v);
	return found;
}

int
crashlog_fate(const char *log, size_t len)
{
	struct cl_line *v;
	size_t n, i, last = 0;
	int found = 0, fate = CRASHLOG_UNKNOWN;

	v = cl_split(log, len, &n);
	for (i = n; i-- > 0 && !found;)
		if (crashlog_is_fatal(v[i].s, v[i].len)) {
			last = i;
			found = 1;
		}
	if (!found)
		fate = CRASHLOG_SILENT;
	/* The fatal line may be the closing one ("---[ end Kernel ..."). */
	for (i = last; found && i < n; i++) {
		/* A reboot after ddb (a "reboot" typed there) wins. */
		if (cl_boot(&v[i], -1) || crashlog_has(v[i].s, v[i].len,
		    "Rebooting in ") || crashlog_has(v[i].s, v[i].len,
		    "rebooting...")) {
			fate = CRASHLOG_REBOOTING;
			break;
		}
		if (crashlog_has(v[i].s, v[i].len, "---[ end Kernel panic") ||
		    (v[i].len >= 3 && memcmp(v[i].s, "db{", 3) == 0))
			fate = CRASHLOG_STOPPED;
	}
	free(v);
	return fate;
}

int
crashlog_find(const char *output, size_t len, char *buf, size_t buflen)
{
	const char *p = output, *end = output + len, *nl, *q;
	size_t ml = strlen(CRASHLOG_MARK), n;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = (size_t)((nl != NULL ? nl : end) - p);
		q = NULL;
		if (n > ml && memcmp(p, CRASHLOG_MARK, ml) == 0)
			for (q = p + ml; q + 3 <= p + n && memcmp(q, "): ",
			    3) != 0; q++)
				;
		if (q != NULL && q + 3 <= p + n) {
			q += 3;
			n = (size_t)(p + n - q);
			if (buflen > 0) {
				if (n >= buflen)
					n = buflen - 1;
				memcpy(buf, q, n);
				buf[n] = '\0';
			}
			return 1;
		}
		p = nl != NULL ? nl + 1 : end;
	}
	return 0;
}
