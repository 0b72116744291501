/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP output parser (see ltpout.h); the verdict is ltpout_status.c's.
 *
 * Bytes go through three layers: the ANSI stripper (LTP colours the
 * result tag), line assembly (LF, CR LF, bare CR; capped length), and
 * the classifier, which knows the two LTP library formats and the
 * Summary block.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/ltpout.h"
#include "ltpscope/textsafe.h"
#include "ltpscope/wordscan.h"
#include "ltpscope/xmalloc.h"

#define ESC	0x1b

/*
 * Not <ctype.h>: LTP's format is ASCII whatever the locale, and the
 * UI runs under a UTF-8 one where isspace() may accept other bytes.
 */
#define IS_DIGIT(c)	((c) >= '0' && (c) <= '9')
#define IS_UPPER(c)	((c) >= 'A' && (c) <= 'Z')

struct ltpout {
	char			*buf;		/* the line being built */
	size_t			 len;
	size_t			 cap;		/* <= LTPOUT_LINE_MAX + 1 */
	size_t			 cut;		/* bytes past the cap */
	int			 pending_cr;	/* saw CR, want the next byte */
	int			 emitted;	/* buf was handed out */
	int			 note_pending;	/* cut note still to give */
	unsigned long		 note_lineno;
	size_t			 note_cut;
	char			 note[128];
	struct ansi_state	 ansi;
	int			 in_summary;
	int			 bytes_seen;	/* LTPOUT_NUL etc., BC_HIGH */
	unsigned long		 lineno;
	char			 file[LTPOUT_FILE_MAX];
	char			 tcid[LTPOUT_FILE_MAX];
	struct ltpout_tally	 tally;
};

/*
 * What each byte means to the copy loop: BC_STOP ends a run of
 * ordinary bytes; the others become line flags as the bytes go by,
 * so no second pass over the line is needed.
 */
#define BC_STOP		0x80
#define BC_HIGH		0x40
static unsigned char bytecls[256];
/* Where a "file" or "tcid" field ends: ':', NUL, a blank. */
static unsigned char fieldend[256];
/* The result tags, by class, and the class by the tag's second byte. */
static const char tagname[LC_TDEBUG + 1][8] = {
	[LC_TPASS] = "TPASS", [LC_TFAIL] = "TFAIL", [LC_TBROK] = "TBROK",
	[LC_TCONF] = "TCONF", [LC_TWARN] = "TWARN", [LC_TINFO] = "TINFO",
	[LC_TDEBUG] = "TDEBUG"
};
static unsigned char tagcls[256];

static void
bytecls_init(void)
{
	int c;

	if (bytecls['\n'] != 0)
		return;
	for (c = 0; c < 256; c++) {
		if (c == 0)
			bytecls[c] = LTPOUT_NUL;
		else if ((c < 0x20 && c != '\t') || c == 0x7f)
			bytecls[c] = LTPOUT_CTRL;
		else if (c >= 0x80)
			bytecls[c] = BC_HIGH;
	}
	bytecls['\n'] = bytecls['\r'] = BC_STOP | LTPOUT_CTRL;
	bytecls[ESC] = BC_STOP | LTPOUT_CTRL;
	fieldend[':'] = fieldend['\0'] = 1;
	fieldend[' '] = fieldend['\t'] = fieldend['\v'] = fieldend['\f'] = 1;
	for (c = LC_TPASS; c <= LC_TDEBUG; c++)
		tagcls[(unsigned char)tagname[c][1]] = (unsigned char)c;
}

struct ltpout *
ltpout_new(void)
{
	struct ltpout *p = xcalloc(1, sizeof(*p));

	bytecls_init();
	ltpout_reset(p);
	return p;
}

void
ltpout_free(struct ltpout *p)
{
	if (p == NULL)
		return;
	free(p->buf);
	free(p);
}

void
ltpout_reset(struct ltpout *p)
{
	char *buf = p->buf;
	size_t cap = p->cap;

	memset(p, 0, sizeof(*p));
	p->buf = buf;
	p->cap = cap;
	p->tally.timeout_secs = -1;
}

const struct ltpout_tally *
ltpout_tally(const struct ltpout *p)
{
	return &p->tally;
}

const char *
ltpout_pending(const struct ltpout *p, size_t *len)
{
	if (p->emitted || p->buf == NULL) {
		*len = 0;
		return "";
	}
	*len = p->len;
	return p->buf;
}

/*
 * memcpy() of a line or a file name, a few dozen bytes: inline, in
 * sixteen-byte moves (the last overlapping), as a call costs more than
 * the copy.  d and s do not overlap.
 */
static inline void
copy_short(char *d, const char *s, size_t n)
{
	size_t k;

	if (n >= 16) {
		for (k = 0; k + 16 < n; k += 16)
			memcpy(d + k, s + k, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n >= 8) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else if (n > 0) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

static void
line_grow(struct ltpout *p, size_t need)
{
	size_t cap = p->cap ? p->cap : 256;

	if (need <= p->cap)
		return;
	while (cap < need)
		cap *= 2;
	if (cap > LTPOUT_LINE_MAX + 1)
		cap = LTPOUT_LINE_MAX + 1;
	p->buf = xrealloc(p->buf, cap);
	/*
	 * pcre2's JIT reads a subject (this line, for the rules) a word at
	 * a time, past its end: those bytes must be defined, or valgrind
	 * sees their garbage decide a jump the match does not depend on.
	 */
	memset(p->buf + p->cap, 0, cap - p->cap);
	p->cap = cap;
}

static void
line_append(struct ltpout *p, const char *s, size_t n)
{
	size_t room = LTPOUT_LINE_MAX - p->len;

	if (n > room) {
		p->cut += n - room;
		n = room;
	}
	if (n == 0)
		return;
	if (p->len + n + 1 > p->cap)
		line_grow(p, p->len + n + 1);
	copy_short(p->buf + p->len, s, n);
	p->len += n;
}

/* A cut line must not end in half a character. */
static void
trim_partial_utf8(struct ltpout *p)
{
	const unsigned char *u = (const unsigned char *)p->buf;
	size_t i = p->len, back = 0, need;

	while (i > 0 && back < 3 && (u[i - 1] & 0xc0) == 0x80) {
		i--;
		back++;
	}
	if (i == 0 || u[i - 1] < 0xc0)
		return;
	need = u[i - 1] >= 0xf0 ? 4 : u[i - 1] >= 0xe0 ? 3 : 2;
	if (back + 1 < need) {
		p->cut += back + 1;
		p->len = i - 1;
	}
}

/* pfx: a string literal (sizeof counts its NUL). */
#define HAS_PREFIX(s, n, pfx) \
	((n) >= sizeof(pfx) - 1 && memcmp((s), (pfx), sizeof(pfx) - 1) == 0)

/* Matches a result tag at s; returns its length and sets *cls. */
static size_t
match_tag(const char *s, size_t n, enum line_class *cls)
{
	unsigned c;

	/*
	 * Called on every line: the second byte tells the tags apart,
	 * and the four after the 'T' are compared as one word.
	 */
	if (n < 5 || s[0] != 'T' || (c = tagcls[(unsigned char)s[1]]) == 0 ||
	    memcmp(s + 1, tagname[c] + 1, 4) != 0)
		return 0;
	if (c == LC_TDEBUG && (n < 6 || s[5] != 'G'))
		return 0;
	*cls = (enum line_class)c;
	return c == LC_TDEBUG ? 6 : 5;
}

/*
 * The length of the first field of s, n bytes ("file" or "tcid"): up
 * to ':', NUL or a blank, or LTPOUT_FILE_MAX when longer, which is no
 * field.  Both formats look at it: it is measured once a line (by
 * wordscan_line() as most lines are found).
 */
static size_t
field_len(const char *s, size_t n)
{
	size_t i = 0;

	if (n > LTPOUT_FILE_MAX)
		n = LTPOUT_FILE_MAX;
	/* The scan stops at every control; most do not end the field. */
	while ((i += wordscan_field(s + i, n - i)) < n &&
	    !fieldend[(unsigned char)s[i]])
		i++;
	return i;
}

/*
 * "file:LINE: " at s, whose first field is i bytes long: copies file
 * into out and returns the length of the whole prefix, 0 when there is
 * none.
 */
static size_t
match_fileline(const char *s, size_t n, size_t i, char *out,
    unsigned long *line)
{
	size_t d;
	unsigned long v = 0;

	if (i == 0 || i >= LTPOUT_FILE_MAX || i >= n || s[i] != ':')
		return 0;
	d = ++i;
	while (i < n && IS_DIGIT(s[i]) && i - d < 9)
		v = v * 10 + (unsigned long)(s[i++] - '0');
	if (i == d || i + 1 >= n || s[i] != ':' || s[i + 1] != ' ')
		return 0;
	copy_short(out, s, d - 1);
	out[d - 1] = '\0';
	*line = v;
	return i + 2;
}

/*
 * New library: "file.c:LINE: TPASS: message"; f: the length of the
 * line's first field.
 */
static int
parse_newlib(struct ltpout *p, struct ltpout_line *l, size_t f)
{
	const char *s = l->text;
	size_t n = l->len, i, k;
	unsigned long srcline;
	enum line_class cls;

	if ((i = match_fileline(s, n, f, p->file, &srcline)) == 0)
		return 0;
	if ((k = match_tag(s + i, n - i, &cls)) == 0)
		return 0;
	i += k;
	if (i >= n || s[i] != ':')
		return 0;
	i++;
	if (i < n && s[i] == ' ')
		i++;
	else if (i < n)
		return 0;
	l->cls = cls;
	l->file = p->file;
	l->srcline = srcline;
	l->msg = s + i;
	l->msglen = n - i;
	l->flags |= LTPOUT_NEWLIB;
	return 1;
}

/* Old library: "tcid  N  TPASS  :  message" (tst_res.c's layout). */
static int
parse_oldlib(struct ltpout *p, struct ltpout_line *l, size_t f)
{
	const char *s = l->text;
	size_t n = l->len, i = f, k, d;
	unsigned long srcline;
	enum line_class cls;

	if (i == 0 || i >= LTPOUT_FILE_MAX || i >= n || s[i] != ' ')
		return 0;
	k = i;
	while (i < n && s[i] == ' ')
		i++;
	if (i < n && s[i] == '-')
		i++;
	d = i;
	while (i < n && IS_DIGIT(s[i]))
		i++;
	if (i == d || i >= n || s[i] != ' ')
		return 0;
	while (i < n && s[i] == ' ')
		i++;
	if ((d = match_tag(s + i, n - i, &cls)) == 0 || cls == LC_TDEBUG)
		return 0;
	i += d;
	if (i >= n || s[i] != ' ')
		return 0;
	while (i < n && s[i] == ' ')
		i++;
	if (i >= n || s[i] != ':')
		return 0;
	i++;
	for (d = 0; d < 2 && i < n && s[i] == ' '; d++)
		i++;
	memcpy(p->tcid, s, k);
	p->tcid[k] = '\0';
	l->tcid = p->tcid;
	l->cls = cls;
	l->msg = s + i;
	l->msglen = n - i;
	l->flags |= LTPOUT_OLDLIB;
	/* tst_brkm() and friends put "file.c:LINE: " before the text. */
	if ((k = match_fileline(l->msg, l->msglen, field_len(l->msg,
	    l->msglen), p->file, &srcline)) > 0) {
		l->file = p->file;
		l->srcline = srcline;
		l->msg += k;
		l->msglen -= k;
	}
	return 1;
}

/* "Summary:" alone on its line, trailing blanks allowed. */
static int
is_summary_head(const char *s, size_t n)
{
	if (n < 8 || s[0] != 'S')
		return 0;
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n == 8 && memcmp(s, "Summary:", 8) == 0;
}

/* One "passed   3" line of the Summary block. */
static int
summary_count(struct ltpout_summary *sum, const char *s, size_t n)
{
	long *field;
	size_t i, j, k, d;
	long v = 0;

	/* Their first letters differ: one comparison, of a literal. */
	if (n == 0)
		return 0;
	switch (s[0]) {
	case 'p':
		j = 0, k = HAS_PREFIX(s, n, "passed") ? 6 : 0;
		field = &sum->passed;
		break;
	case 'f':
		j = 1, k = HAS_PREFIX(s, n, "failed") ? 6 : 0;
		field = &sum->failed;
		break;
	case 'b':
		j = 2, k = HAS_PREFIX(s, n, "broken") ? 6 : 0;
		field = &sum->broken;
		break;
	case 's':
		j = 3, k = HAS_PREFIX(s, n, "skipped") ? 7 : 0;
		field = &sum->skipped;
		break;
	case 'w':
		j = 4, k = HAS_PREFIX(s, n, "warnings") ? 8 : 0;
		field = &sum->warnings;
		break;
	default:
		return 0;
	}
	if (k == 0 || n == k || (s[k] != ' ' && s[k] != '\t'))
		return 0;
	i = k;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	d = i;
	while (i < n && IS_DIGIT(s[i]) && i - d < 12)
		v = v * 10 + (s[i++] - '0');
	if (i == d)
		return 0;
	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i != n)
		return 0;
	*field = v;
	sum->fields |= 1u << j;
	return 1;
}

/* What the LTP library says about how the test was stopped. */
/*
 * LTP's "%uh %02um %02us"; -1 for anything else.  Not sscanf(): an
 * out-of-range %ld is undefined, and the product must fit a 32-bit
 * long (i386).
 */
static long
parse_hms(const char *p)
{
	static const char unit[] = "hms";
	static const long max[] = { 99999, 59, 59 }, mul[] = { 3600, 60, 1 };
	long v, secs = 0;
	int i, nd;

	for (i = 0; i < 3; i++) {
		if (i > 0 && *p++ != ' ')
			return -1;
		for (v = 0, nd = 0; IS_DIGIT(*p) && nd < 6; p++, nd++)
			v = v * 10 + (*p - '0');
		if (nd == 0 || *p++ != unit[i] || v > max[i])
			return -1;
		secs += v * mul[i];
	}
	return secs;
}

/*
 * LTP's "Timeout per run is 0h 00m 30s" (and "Overall timeout ...");
 * a shorter message cannot hold it: no search.
 */
#define TMO_SAYS	"imeout per run is "
#define TMO_HMS_MIN	8		/* "0h 0m 0s" */

/*
 * Whether s holds "SIGKILL": the rare 'K' found by memchr(), which
 * reads a vector at a time, then the word around it.  strstr() cost
 * each plain line a tenth of the parse.
 */
static int
has_sigkill(const char *s, size_t n)
{
	const char *k, *end = s + n;

	if (n < 7)
		return 0;
	for (k = s + 3; end - k >= 4 &&
	    (k = memchr(k, 'K', (size_t)(end - k - 3))) != NULL; k++)
		if (memcmp(k - 3, "SIGKILL", 7) == 0)
			return 1;
	return 0;
}

/*
 * Whether message m ends as LTP's "... 0h 00m 30s" does: only then is
 * it searched for TMO_SAYS.  Most TINFO lines end otherwise, and each
 * search cost as much as the rest of the line's classification.
 */
static int
ends_hms(const char *m, size_t n)
{
	return n >= TMO_HMS_MIN && m[n - 1] == 's' && IS_DIGIT(m[n - 2]);
}

static void
note_marks(struct ltpout *p, const struct ltpout_line *l)
{
	struct ltpout_tally *t = &p->tally;
	const char *m = l->msg, *q;
	size_t k;
	long secs;

	if (l->cls == LC_PLAIN) {
		/*
		 * Written by LTP's signal handlers with write(2), so on a
		 * pty they may land after half a line of the child's.
		 */
		if (!has_sigkill(l->text, l->len))
			return;		/* both lines say it: one look */
		if (strstr(l->text, "Test timeouted, sending SIGKILL") != NULL)
			t->marks |= LTPOUT_MARK_LTP_TIMEOUT;
		else if (strstr(l->text, "Sending SIGKILL to test process") !=
		    NULL)
			t->marks |= LTPOUT_MARK_EXT_KILL;
	} else if (l->cls == LC_TBROK) {
		if (HAS_PREFIX(m, l->msglen, "Test killed!"))
			t->marks |= LTPOUT_MARK_KILLED;
		else if (HAS_PREFIX(m, l->msglen, "Test killed by SIG")) {
			t->marks |= LTPOUT_MARK_SIGNAL;
			m += strlen("Test killed by ");
			for (k = 0; k + 1 < sizeof(t->killsig) &&
			    (IS_DIGIT(m[k]) || IS_UPPER(m[k])); k++)
				t->killsig[k] = m[k];
			t->killsig[k] = '\0';
		}
	} else if (l->cls == LC_TINFO && l->msglen >= sizeof(TMO_SAYS) - 1 +
	    TMO_HMS_MIN && ends_hms(m, l->msglen) &&
	    (q = strstr(m, TMO_SAYS)) != NULL &&
	    (secs = parse_hms(q + sizeof(TMO_SAYS) - 1)) >= 0)
		t->timeout_secs = secs;
}

/* f: the length of the line's first field, NOFIELD when not known. */
#define NOFIELD	((size_t)-1)

static void
classify(struct ltpout *p, struct ltpout_line *l, size_t f)
{
	struct ltpout_summary *sum = &p->tally.summary;

	if (p->in_summary) {
		if (summary_count(sum, l->text, l->len)) {
			l->cls = LC_SUMMARY;
			return;
		}
		p->in_summary = 0;
	}
	if (is_summary_head(l->text, l->len)) {
		memset(sum, 0, sizeof(*sum));
		sum->present = 1;
		p->in_summary = 1;
		l->cls = LC_SUMMARY;
		return;
	}
	if (f == NOFIELD)
		f = field_len(l->text, l->len);
	else if (f > LTPOUT_FILE_MAX)
		f = LTPOUT_FILE_MAX;
	if (!parse_newlib(p, l, f))
		(void)parse_oldlib(p, l, f);
	note_marks(p, l);
}

/* seen: what the copy loop noticed, covering cut bytes too. */
static void
line_flags(struct ltpout_line *l, int seen)
{
	const unsigned char *u = (const unsigned char *)l->text;
	size_t i;

	if (l->cut > 0) {
		/* Only what was kept counts: look again. */
		seen = 0;
		for (i = 0; i < l->len; i++)
			seen |= bytecls[u[i]] & ~BC_STOP;
	}
	l->flags |= seen & (LTPOUT_NUL | LTPOUT_CTRL);
	if ((seen & BC_HIGH) && !textsafe_utf8_valid(l->text, l->len))
		l->flags |= LTPOUT_BADUTF8;
}

static void
finish_line(struct ltpout *p, struct ltpout_line *l, int flags, size_t f)
{
	struct ltpout_tally *t = &p->tally;

	if (p->cut > 0)
		trim_partial_utf8(p);
	if (p->len + 1 > p->cap)
		line_grow(p, p->len + 1);
	p->buf[p->len] = '\0';
	/* Every field, not memset(): this runs for each line. */
	l->cls = LC_PLAIN;
	l->text = l->msg = p->buf;
	l->len = l->msglen = p->len;
	l->file = l->tcid = NULL;
	l->srcline = 0;
	l->lineno = ++p->lineno;
	l->cut = p->cut;
	l->flags = flags;
	line_flags(l, p->bytes_seen);
	classify(p, l, f);
	t->lines[l->cls]++;
	t->total++;
	if (p->cut > 0) {
		l->flags |= LTPOUT_CUT;
		t->cut_lines++;
		t->cut_bytes += p->cut;
		p->note_pending = 1;
		p->note_lineno = l->lineno;
		p->note_cut = p->cut;
	}
	p->emitted = 1;
}

static void
give_note(struct ltpout *p, struct ltpout_line *l)
{
	int n;

	n = snprintf(p->note, sizeof(p->note),
	    "ltpscope: line %lu cut at %d bytes, %zu bytes dropped",
	    p->note_lineno, LTPOUT_LINE_MAX, p->note_cut);
	if (n < 0 || (size_t)n >= sizeof(p->note))
		n = (int)strlen(p->note);
	memset(l, 0, sizeof(*l));
	l->cls = LC_META;
	l->text = l->msg = p->note;
	l->len = l->msglen = (size_t)n;
	l->lineno = p->note_lineno;
	p->tally.lines[LC_META]++;
	p->note_pending = 0;
}

/*
 * Where the run of ordinary bytes from j ends (at a line end, an ESC
 * or n), noting in *seen what the bytes were.  Plain ASCII, nearly all
 * of LTP's output, is skipped a word at a time.
 */
static size_t
run_end(const unsigned char *s, size_t j, size_t n, int *seen)
{
	unsigned char b;

	for (;;) {
		j += wordscan_plain((const char *)s + j, n - j);
		if (j == n || ((b = bytecls[s[j]]) & BC_STOP))
			return j;
		*seen |= b;
		j++;
	}
}

/* Drops the line handed out by the previous call. */
static void
line_release(struct ltpout *p)
{
	if (p->emitted) {
		p->len = 0;
		p->cut = 0;
		p->bytes_seen = 0;
		p->emitted = 0;
	}
}

/*
 * ltpout_scan(), inlined into ltpout_feed()'s loop, which the runner and
 * the explorer feed every byte through: a call per line, with the
 * cursor passed through memory, was a tenth of the parse.  GCC does not
 * inline a function this size of its own accord.
 */
#ifdef __GNUC__
#define SCAN_INLINE	inline __attribute__((__always_inline__))
#else
#define SCAN_INLINE	inline
#endif

static SCAN_INLINE int
scan_line(struct ltpout *p, const char **bufp, size_t *lenp,
    struct ltpout_line *l)
{
	const unsigned char *s = (const unsigned char *)*bufp;
	size_t n = *lenp, i = 0, j, f;
	unsigned char c;
	int seen;

	line_release(p);
	if (p->note_pending) {
		give_note(p, l);
		return 1;
	}
	/*
	 * Nearly every line starts afresh and is plain ASCII up to its
	 * LF: one scan finds the LF, one copy takes the line.  Otherwise
	 * the plain start is taken alike and the loop goes on from where
	 * the scan stopped.
	 */
	if (p->len == 0 && !p->pending_cr && p->ansi.st == 0 && n > 0) {
		i = wordscan_line(*bufp, n, &f);
		if (i < p->cap && i < n && s[i] == '\n') {
			/*
			 * No call to line_append(): it fits.  The field
			 * is measured here, in the input: a load from the
			 * copy just made would wait for the stores.
			 */
			copy_short(p->buf, (const char *)s, i);
			p->len = i++;
			finish_line(p, l, 0, f);
			goto done;
		}
		line_append(p, *bufp, i);
		if (i < n && s[i] == '\n') {
			i++;
			finish_line(p, l, 0, NOFIELD);
			goto done;
		}
	}
	while (i < n) {
		c = s[i];
		if (p->pending_cr) {
			if (c == '\r') {
				i++;
				continue;
			}
			p->pending_cr = 0;
			if (c == '\n')
				i++;
			finish_line(p, l, 0, NOFIELD);
			goto done;
		}
		if (p->ansi.st != 0 || c == ESC) {
			if (p->ansi.st == 0 &&
			    (j = ansi_csi_len((const char *)s + i, n - i)) > 0) {
				i += j;
				continue;
			}
			if (!ansi_feed(&p->ansi, c)) {
				i++;
				continue;
			}
		}
		if (c == '\n') {
			i++;
			finish_line(p, l, 0, NOFIELD);
			goto done;
		}
		if (c == '\r') {
			i++;
			p->pending_cr = 1;
			continue;
		}
		/* An ordinary run: copy it in one go. */
		seen = bytecls[c] & ~BC_STOP;
		j = run_end(s, i + 1, n, &seen);
		p->bytes_seen |= seen;
		line_append(p, (const char *)s + i, j - i);
		i = j;
		/* Most lines are one run: no second turn to find the LF. */
		if (i < n && s[i] == '\n') {
			i++;
			finish_line(p, l, 0, NOFIELD);
			goto done;
		}
	}
	*bufp += n;
	*lenp = 0;
	return 0;
done:
	*bufp += i;
	*lenp -= i;
	return 1;
}

int
ltpout_scan(struct ltpout *p, const char **bufp, size_t *lenp,
    struct ltpout_line *l)
{
	return scan_line(p, bufp, lenp, l);
}

int
ltpout_flush(struct ltpout *p, struct ltpout_line *l)
{
	line_release(p);
	if (p->note_pending) {
		give_note(p, l);
		return 1;
	}
	if (p->pending_cr) {
		p->pending_cr = 0;
		finish_line(p, l, 0, NOFIELD);
		return 1;
	}
	if (p->len > 0 || p->cut > 0) {
		finish_line(p, l, LTPOUT_UNTERMINATED, NOFIELD);
		return 1;
	}
	/* A sequence cut short by the end of input is dropped. */
	memset(&p->ansi, 0, sizeof(p->ansi));
	return 0;
}

void
ltpout_feed(struct ltpout *p, const char *buf, size_t len, ltpout_cb cb,
    void *arg)
{
	struct ltpout_line l;

	while (scan_line(p, &buf, &len, &l))
		cb(&l, arg);
}

void
ltpout_finish(struct ltpout *p, ltpout_cb cb, void *arg)
{
	struct ltpout_line l;

	while (ltpout_flush(p, &l))
		cb(&l, arg);
}
