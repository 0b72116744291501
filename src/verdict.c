/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Verdicts under the rules (see verdict.h): the environment's warnings
 * counted, the verdict's inputs recorded, stored results judged again.
 */
#include <stdio.h>
#include <string.h>

#include "ltpscope/verdict.h"

int
verdict_env_line(struct rules *r, const struct ltpout_line *l)
{
	return r != NULL && l->cls == LC_TWARN &&
	    rules_env_warning(r, l->text, l->len, NULL);
}

unsigned long
verdict_env_count(struct rules *r, const char *out, size_t len)
{
	struct ltpout_line l;
	struct ltpout *p;
	unsigned long n = 0;

	if (r == NULL)
		return 0;
	p = ltpout_new();
	while (ltpout_scan(p, &out, &len, &l) || ltpout_flush(p, &l))
		n += (unsigned long)verdict_env_line(r, &l);
	ltpout_free(p);
	return n;
}

enum test_status
verdict_judge(struct rules *rules, struct store_result *r,
    const struct ltpout_tally *t, const struct test_end *end, char *why,
    size_t whylen)
{
	r->status = ltpout_status(t, end, why, whylen);
	store_result_counts(r, t);
	r->nenvwarn = (unsigned)t->env_warn;
	if (ltpout_raw_format(t, end, r->raw, sizeof(r->raw)) != 0)
		r->raw[0] = '\0';
	(void)rules_env_digest(rules, r->judged, sizeof(r->judged));
	return r->status;
}

/*
 * A row from before the inputs were kept: how did the test end?  -1
 * when its verdict is not the output's to redo: a signal, or lines
 * ltpscope's runner added (could not start, timed out, stopped).
 */
static int
verdict_legacy_end(const struct store_judge *j, struct test_end *end)
{
	static const char meta[] = "ltpscope: ";

	memset(end, 0, sizeof(*end));
	if (j->signal != 0 || strncmp(j->output, meta, sizeof(meta) - 1) ==
	    0 || strstr(j->output, "\nltpscope: ") != NULL)
		return -1;
	if (j->exit_code >= 0) {
		end->how = TEST_EXITED;
		end->code = j->exit_code;
	} else
		end->how = TEST_NOEXIT;	/* a log without exit_code */
	return 0;
}

static void
verdict_judge_cb(void *arg, struct store_judge *j)
{
	struct rules *rules = arg;
	struct ltpout_tally t;
	struct test_end end;
	struct ltpout *p;
	struct ltpout_line l;
	const char *cur;
	size_t left;
	enum test_status st0;

	if (ltpout_raw_parse(j->raw, &t, &end) != 0) {
		if (j->raw[0] != '\0' || verdict_legacy_end(j, &end) != 0)
			return;
		p = ltpout_new();
		cur = j->output;
		left = j->outlen;
		while (ltpout_scan(p, &cur, &left, &l) ||
		    ltpout_flush(p, &l))
			continue;
		t = *ltpout_tally(p);
		ltpout_free(p);
		/*
		 * Only when the output and exit status tell the verdict
		 * stored (broken then is unknown now): else the row holds
		 * something the output does not, leave it.
		 */
		st0 = ltpout_status(&t, &end, NULL, 0);
		if (st0 != j->status && !(st0 == TS_UNKNOWN &&
		    j->status == TS_BROKEN))
			return;
		if (ltpout_raw_format(&t, &end, j->new_raw,
		    sizeof(j->new_raw)) != 0)
			j->new_raw[0] = '\0';
	}
	t.env_warn = t.lines[LC_TWARN] > 0 ?
	    verdict_env_count(rules, j->output, j->outlen) : 0;
	j->new_status = ltpout_status(&t, &end, NULL, 0);
	j->new_nenvwarn = (unsigned)t.env_warn;
}

int
verdict_rejudge(struct store *st, struct rules *rules, unsigned *nchangedp,
    struct diaglist *dl)
{
	char digest[RULES_DIGEST_LEN];

	(void)rules_env_digest(rules, digest, sizeof(digest));
	return store_rejudge(st, digest, verdict_judge_cb, rules, nchangedp,
	    dl);
}
