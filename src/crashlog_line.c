/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One line of a kernel's log (see crashlog.h): whether it says the
 * kernel died, or died for sure, and the line cleaned for a marker.
 * Below the log's reading (crashlog.c) and the console's watch
 * (crashlog_watch.c) alike.
 */
#include <string.h>

#include "ltpscope/crashlog.h"

/* How kernels say they died: NetBSD's first, then Linux's. */
static const char *const crashlog_words[] = {
	"panic: ", "kernel diagnostic assertion", "fatal page fault",
	"fatal protection fault", "fatal trap", "uvm_fault(", "trap type ",
	"Stopped in pid", "Kernel panic", "Oops:", "BUG: ",
	"general protection fault", "Unable to handle kernel"
};

int
crashlog_has(const char *s, size_t len, const char *w)
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
		if (crashlog_has(line, len, crashlog_words[i]))
			return 1;
	return 0;
}

/*
 * A line for the marker: no timestamp ("[ 12.3456] "), no control
 * bytes, so that it reads on one line anywhere it is shown.
 */
void
crashlog_clean(const char *s, size_t len, char *buf, size_t buflen)
{
	const char *e = s + len, *rb;
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
	    crashlog_has(s, len, "Kernel panic - not syncing") ||
	    crashlog_has(s, len, "Stopped in pid ");
}
