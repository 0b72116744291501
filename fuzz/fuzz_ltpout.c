/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: LTP output (ltpout), fed whole, in chunks of random
 * sizes (so splits fall inside UTF-8 sequences, escape sequences and
 * CR LF pairs) and a byte at a time.  The parser promises the same
 * lines and counts whatever the chunking: any difference aborts.
 */
#include "ltpscope/ltpout.h"
#include "ltpscope/status.h"
#include "fuzz.h"

/* Every line serialised, to compare two parses byte for byte. */
struct fz_ltpout_trace {
	char	*p;
	size_t	 len;
	size_t	 cap;
};

static void
fz_ltpout_add(struct fz_ltpout_trace *t, const void *s, size_t n)
{
	while (t->len + n > t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		if ((t->p = realloc(t->p, t->cap)) == NULL)
			abort();
	}
	if (n > 0)
		memcpy(t->p + t->len, s, n);
	t->len += n;
}

static void
fz_ltpout_line(const struct ltpout_line *l, struct fz_ltpout_trace *t)
{
	unsigned long v[7];

	FUZZ_CHECK(l->text != NULL && l->text[l->len] == '\0');
	FUZZ_CHECK(l->msg >= l->text && l->msg + l->msglen <=
	    l->text + l->len);
	FUZZ_CHECK(l->len <= LTPOUT_LINE_MAX);
	v[0] = (unsigned long)l->cls;
	v[1] = l->len;
	v[2] = (unsigned long)(l->msg - l->text);
	v[3] = l->msglen;
	v[4] = l->srcline;
	v[5] = l->lineno;
	v[6] = (unsigned long)l->flags;
	fz_ltpout_add(t, v, sizeof(v));
	fz_ltpout_add(t, &l->cut, sizeof(l->cut));
	fz_ltpout_add(t, l->text, l->len);
	if (l->file != NULL)
		fz_ltpout_add(t, l->file, strlen(l->file) + 1);
	if (l->tcid != NULL)
		fz_ltpout_add(t, l->tcid, strlen(l->tcid) + 1);
	fz_ltpout_add(t, "|", 1);
}

static int
fz_ltpout_same(const struct fz_ltpout_trace *a,
    const struct fz_ltpout_trace *b)
{
	return a->len == b->len && (a->len == 0 ||
	    memcmp(a->p, b->p, a->len) == 0);
}

/* Parses data in chunks of at most max bytes (0: random sizes). */
static void
fz_ltpout_run(struct ltpout *p, const uint8_t *data, size_t size,
    size_t max, uint32_t seed, struct fz_ltpout_trace *t)
{
	const char *buf;
	struct ltpout_line l;
	size_t off = 0, n, len, plen;

	ltpout_reset(p);
	while (off < size) {
		if (max == 0)
			n = 1 + fuzz_rand(&seed) % (fuzz_rand(&seed) % 4 ? 8 :
			    300);
		else
			n = max;
		if (n > size - off)
			n = size - off;
		buf = (const char *)data + off;
		len = n;
		while (ltpout_scan(p, &buf, &len, &l))
			fz_ltpout_line(&l, t);
		FUZZ_CHECK(len == 0);
		(void)ltpout_pending(p, &plen);
		FUZZ_CHECK(plen <= LTPOUT_LINE_MAX);
		off += n;
	}
	while (ltpout_flush(p, &l))
		fz_ltpout_line(&l, t);
}

static void
fz_ltpout_tally_check(const struct ltpout_tally *a,
    const struct ltpout_tally *b)
{
	FUZZ_CHECK(memcmp(a->lines, b->lines, sizeof(a->lines)) == 0);
	FUZZ_CHECK(a->total == b->total);
	FUZZ_CHECK(a->summary.present == b->summary.present &&
	    a->summary.fields == b->summary.fields &&
	    a->summary.passed == b->summary.passed &&
	    a->summary.failed == b->summary.failed &&
	    a->summary.broken == b->summary.broken &&
	    a->summary.skipped == b->summary.skipped &&
	    a->summary.warnings == b->summary.warnings);
	FUZZ_CHECK(a->marks == b->marks);
	FUZZ_CHECK(strcmp(a->killsig, b->killsig) == 0);
	FUZZ_CHECK(a->timeout_secs == b->timeout_secs);
	FUZZ_CHECK(a->cut_lines == b->cut_lines &&
	    a->cut_bytes == b->cut_bytes);
}

FUZZ_TARGET(ltpout)
{
	static const struct test_end ends[] = {
		{ TEST_EXITED, 0 }, { TEST_EXITED, 1 }, { TEST_EXITED, 32 },
		{ TEST_EXITED, 127 }, { TEST_SIGNALLED, 9 },
		{ TEST_TIMEDOUT, 0 }, { TEST_NOEXIT, 0 }
	};
	struct fz_ltpout_trace whole, chunks, bytes;
	struct ltpout_tally tw;
	struct ltpout *p;
	char why[256];
	size_t i;

	memset(&whole, 0, sizeof(whole));
	memset(&chunks, 0, sizeof(chunks));
	memset(&bytes, 0, sizeof(bytes));
	p = ltpout_new();
	fz_ltpout_run(p, data, size, size ? size : 1, 0, &whole);
	tw = *ltpout_tally(p);
	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		FUZZ_CHECK(ltpout_status(&tw, &ends[i], why, sizeof(why)) <
		    TS__COUNT);
		FUZZ_CHECK(strlen(why) < sizeof(why));
	}
	fz_ltpout_run(p, data, size, 0, fuzz_seed(data, size), &chunks);
	fz_ltpout_tally_check(&tw, ltpout_tally(p));
	FUZZ_CHECK(fz_ltpout_same(&whole, &chunks));
	if (size <= 8192) {
		fz_ltpout_run(p, data, size, 1, 0, &bytes);
		fz_ltpout_tally_check(&tw, ltpout_tally(p));
		FUZZ_CHECK(fz_ltpout_same(&whole, &bytes));
	}
	ltpout_free(p);
	free(whole.p);
	free(chunks.p);
	free(bytes.p);
	return 0;
}
