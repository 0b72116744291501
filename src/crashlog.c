/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's words about a crash (see crashlog.h): a panic picked out
 * of a kernel log, and the block of it kept with the crash result.
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

/* How kernels say they died: NetBSD's first, then Linux's. */
static const char *const crashlog_words[] = {
	"panic: ", "kernel diagnostic assertion", "fatal page fault",
	"fatal protection fault", "fatal trap", "uvm_fault(", "trap type ",
	"Stopped in pid", "Kernel panic", "Oops:", "BUG: ",
	"general protection fault", "Unable to handle kernel"
};

static int
cl_has(const char *s, size_t len, const char *w)
{
	size_t wl = strlen(w), i;

	for (i = 0; i + wl <= len; i++)
		if (s[i] == w[0] && memcmp(s + i, w, wl) == 0)
			return 1;
	return 0;
}

int
crashlog_is_panic(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(crashlog_words) / sizeof(crashlog_words[0]);
	    i++)
		if (cl_has(line, len, crashlog_words[i]))
			return 1;
	return 0;
}

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
 * A line for the marker: no timestamp ("[ 12.3456] "), no control
 * bytes, so that it reads on one line anywhere it is shown.
 */
static void
cl_clean(const struct cl_line *l, char *buf, size_t buflen)
{
	const char *s = l->s, *e = l->s + l->len, *rb;
	size_t o = 0;

	if (buflen == 0)
		return;
	if (s < e && *s == '[' && (rb = memchr(s, ']', (size_t)(e - s))) !=
	    NULL) {
		s = rb + 1;
		while (s < e && *s == ' ')
			s++;
	}
	for (; s < e && o + 1 < buflen; s++)
		buf[o++] = (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s;
	buf[o] = '\0';
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
	size_t n, i, last = 0, start = 0, lo, hi, kept = 0, cap = 0;
	int found = 0;

	v = cl_split(log, len, &n);
	for (i = n; i-- > 0;)
		if (crashlog_is_panic(v[i].s, v[i].len)) {
			last = i;
			found = 1;
			break;
		}
	if (found) {
		/*
		 * The crash's first line: the earliest of the lines told
		 * together (a trap, then "panic: ..."), not an older
		 * crash's, which a boot's lines stand between.
		 */
		start = last;
		for (i = last; i-- > 0 && start - i <= CRASHLOG_GAP + 1;)
			if (crashlog_is_panic(v[i].s, v[i].len))
				start = i;
		lo = start > CRASHLOG_BEFORE ? start - CRASHLOG_BEFORE : 0;
		hi = last + CRASHLOG_AFTER < n ? last + CRASHLOG_AFTER + 1 : n;
		/* "panic: why" says more than the trap that led to it. */
		for (i = start; i <= last; i++)
			if (cl_has(v[i].s, v[i].len, "panic: ") ||
			    cl_has(v[i].s, v[i].len, "Kernel panic"))
				break;
		cl_clean(&v[i <= last ? i : start], line1, sizeof(line1));
	} else {
		lo = n > CRASHLOG_TAIL ? n - CRASHLOG_TAIL : 0;
		hi = n;
		snprintf(line1, sizeof(line1), "no panic message%s", n > 0 ?
		    "; its last lines:" : "; it said nothing");
	}
	*out = NULL;
	*outlen = 0;
	snprintf(head, sizeof(head), CRASHLOG_MARK "%s): %s\n", source,
	    line1);
	cl_add(out, outlen, &cap, head, strlen(head));
	for (i = lo; i < hi && kept + v[i].len < CRASHLOG_MAX; i++) {
		cl_add(out, outlen, &cap, v[i].s, v[i].len);
		cl_add(out, outlen, &cap, "\n", 1);
		kept += v[i].len + 1;
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
