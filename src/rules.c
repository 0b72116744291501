/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Triage rules: parse, compile (pcre2, JIT when allowed), and match
 * names and output lines to suggest a category (see rules.h).
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <errno.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/ltpout.h"
#include "ltpscope/paths.h"
#include "ltpscope/rules.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"

struct rules {
	struct rule		*v;
	size_t			 n;
	size_t			 cap;
	pcre2_match_context	*mctx;
	pcre2_match_data	*md;
};

static const struct {
	const char	*prefix;
	enum rule_field	 field;
} rule_fields[] = {
	{ "line:", RF_LINE },
	{ "test:", RF_TEST },
	{ "syscall:", RF_SYSCALL },
	{ "envwarn:", RF_ENVWARN },
	{ "linux:", RF_LINUX }
};

struct rules *
rules_new(void)
{
	struct rules *r = xcalloc(1, sizeof(*r));

	r->mctx = pcre2_match_context_create(NULL);
	r->md = pcre2_match_data_create(1, NULL);
	if (r->mctx == NULL || r->md == NULL) {
		fprintf(stderr, "ltpscope: out of memory\n");
		abort();
	}
	rules_set_match_limit(r, RULES_MATCH_LIMIT);
	return r;
}

void
rules_set_match_limit(struct rules *r, uint32_t limit)
{
	(void)pcre2_set_match_limit(r->mctx, limit);
	/* Depth bounds the backtracking stack the same way. */
	(void)pcre2_set_depth_limit(r->mctx, limit);
}

void
rules_free(struct rules *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->v[i].category);
		free(r->v[i].pattern);
		free(r->v[i].file);
		pcre2_code_free(r->v[i].re);
	}
	free(r->v);
	pcre2_match_data_free(r->md);
	pcre2_match_context_free(r->mctx);
	free(r);
}

size_t
rules_count(const struct rules *r)
{
	return r->n;
}

const struct rule *
rules_get(const struct rules *r, size_t i)
{
	return i < r->n ? &r->v[i] : NULL;
}

/* One line of a rules file; text is the line without its end. */
static int
rules_line(struct rules *r, const char *file, unsigned long lineno,
    const char *text, size_t len, struct diaglist *dl)
{
	const char *p = text, *end = text + len, *cat, *pat;
	enum rule_field field = RF_LINE;
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE erroff;
	pcre2_code *re;
	struct rule *ru;
	size_t catlen, i, plen;
	int errcode;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p == '#')
		return 0;
	cat = p;
	while (p < end && *p != ' ' && *p != '\t')
		p++;
	catlen = (size_t)(p - cat);
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end) {
		diag_error(dl, file, lineno, "expected 'category pattern'");
		return 1;
	}
	for (i = 0; i < sizeof(rule_fields) / sizeof(rule_fields[0]); i++) {
		plen = strlen(rule_fields[i].prefix);
		if ((size_t)(end - p) >= plen &&
		    memcmp(p, rule_fields[i].prefix, plen) == 0) {
			field = rule_fields[i].field;
			p += plen;
			break;
		}
	}
	pat = p;
	while (end > pat && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == pat) {
		diag_error(dl, file, lineno, "empty pattern");
		return 1;
	}
	re = pcre2_compile((PCRE2_SPTR)pat, (PCRE2_SIZE)(end - pat), 0,
	    &errcode, &erroff, NULL);
	if (re == NULL) {
		(void)pcre2_get_error_message(errcode, msg, sizeof(msg));
		diag_add(dl, DIAG_ERROR, file, lineno,
		    (unsigned)(pat - text + erroff + 1), "bad pattern: %s",
		    (const char *)msg);
		return 1;
	}
	/* Faster when the system allows it; PaX may refuse: fine. */
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 32;
		r->v = xreallocarray(r->v, r->cap, sizeof(*r->v));
	}
	ru = &r->v[r->n++];
	ru->field = field;
	ru->category = xstrndup(cat, catlen);
	ru->pattern = xstrndup(pat, (size_t)(end - pat));
	ru->file = xstrdup(file);
	ru->line = lineno;
	ru->re = re;
	return 0;
}

int
rules_parse(struct rules *r, const char *name, const char *buf, size_t len,
    struct diaglist *dl)
{
	const char *p = buf, *end = buf + len, *nl;
	unsigned long lineno = 0;
	size_t n;
	int nerr = 0;

	while (p < end) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		n = (size_t)(nl - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		nerr += rules_line(r, name, lineno, p, n, dl);
		p = nl + 1;
	}
	return nerr;
}

int
rules_load_file(struct rules *r, const char *path, struct diaglist *dl)
{
	char *buf;
	size_t len;
	int n;

	if (slurp_file_diag(path, 0, &buf, &len, dl) == -1)
		return -1;
	n = rules_parse(r, path, buf, len, dl);
	free(buf);
	return n;
}

int
rules_load_default(struct rules *r, struct diaglist *dl)
{
	char path[1024];
	int n = 0, m;

	if (paths_config("rules", path, sizeof(path)) != NULL &&
	    access(path, F_OK) == 0) {
		m = rules_load_file(r, path, dl);
		n += m < 0 ? 1 : m;
	}
	paths_data("rules", path, sizeof(path));
	if ((m = rules_load_file(r, path, dl)) < 0)
		return -1;
	return n + m;
}

int
rules_check(const struct rules *r, const struct categories *c,
    struct diaglist *dl)
{
	size_t i;
	int n = 0;

	for (i = 0; i < r->n; i++)
		if (categories_find(c, r->v[i].category) == NULL) {
			diag_add(dl, DIAG_WARNING, r->v[i].file, r->v[i].line,
			    0, "unknown category '%s'", r->v[i].category);
			n++;
		}
	return n;
}

const struct rule *
rules_match(struct rules *r, enum rule_field field, const char *s,
    size_t len, struct diaglist *dl)
{
	size_t i;
	int rc;

	for (i = 0; i < r->n; i++) {
		if (r->v[i].field != field)
			continue;
		rc = pcre2_match(r->v[i].re, (PCRE2_SPTR)s, (PCRE2_SIZE)len, 0,
		    0, r->md, r->mctx);
		if (rc >= 0)
			return &r->v[i];
		if (rc != PCRE2_ERROR_NOMATCH && dl != NULL)
			diag_add(dl, DIAG_WARNING, r->v[i].file, r->v[i].line,
			    0, "pattern stopped (%s): it may backtrack "
			    "without end", rc == PCRE2_ERROR_MATCHLIMIT ||
			    rc == PCRE2_ERROR_DEPTHLIMIT ? "match limit" :
			    "match error");
	}
	return NULL;
}

int
rules_env_warning(struct rules *r, const char *line, size_t len,
    struct diaglist *dl)
{
	return rules_match(r, RF_ENVWARN, line, len, dl) != NULL;
}

const char *
rules_env_digest(const struct rules *r, char *buf, size_t len)
{
	/* FNV-1a, 64 bits: a fingerprint, not a defence. */
	uint64_t h = 0xcbf29ce484222325ull;
	const unsigned char *p;
	size_t i;

	for (i = 0; r != NULL && i < r->n; i++) {
		if (r->v[i].field != RF_ENVWARN)
			continue;
		for (p = (const unsigned char *)r->v[i].pattern; ; p++) {
			/* The NUL ends each pattern, so "a"+"b" != "ab". */
			h ^= *p;
			h *= 0x100000001b3ull;
			if (*p == '\0')
				break;
		}
	}
	(void)snprintf(buf, len, "%016llx", (unsigned long long)h);
	return buf;
}

/* Lines saying the test failed or was stopped: tried first. */
static int
rules_strong_line(const struct ltpout_line *l)
{
	if (l->cls == LC_TFAIL || l->cls == LC_TBROK || l->cls == LC_META)
		return 1;
	/* LTP's library says so in plain lines before its TBROK. */
	return l->cls == LC_PLAIN && (strstr(l->text, "Test timeouted") !=
	    NULL || strstr(l->text, "Sending SIGKILL to test process") !=
	    NULL);
}

int
rules_suggest(struct rules *r, const char *test, const char *syscall,
    const char *output, size_t len, struct rules_suggestion *sg,
    struct diaglist *dl)
{
	return rules_suggest_ref(r, test, syscall, NULL, output, len, sg,
	    dl);
}

int
rules_suggest_ref(struct rules *r, const char *test, const char *syscall,
    const char *lref, const char *output, size_t len,
    struct rules_suggestion *sg, struct diaglist *dl)
{
	struct ltpout_line l;
	struct ltpout *p;
	const struct rule *ru;
	const char *buf;
	size_t left;
	int pass;

	memset(sg, 0, sizeof(*sg));
	if ((ru = rules_match(r, RF_TEST, test, strlen(test), dl)) != NULL ||
	    (syscall != NULL && *syscall != '\0' &&
	    (ru = rules_match(r, RF_SYSCALL, syscall, strlen(syscall),
	    dl)) != NULL)) {
		sg->rule = ru;
		sg->line = xstrdup("");
		return 1;
	}
	/* Failing on Linux the same way says more than any line. */
	if (lref != NULL && *lref != '\0' && (ru = rules_match(r,
	    RF_LINUX, lref, strlen(lref), dl)) != NULL) {
		sg->rule = ru;
		sg->line = xstrdup("");
		return 1;
	}
	p = ltpout_new();
	for (pass = 0; pass < 2 && sg->rule == NULL; pass++) {
		ltpout_reset(p);
		buf = output;
		left = len;
		for (;;) {
			if (!ltpout_scan(p, &buf, &left, &l) &&
			    !ltpout_flush(p, &l))
				break;
			/* TINFO and plain lines chat too much to judge by. */
			if (pass == 0 ? !rules_strong_line(&l) :
			    l.cls != LC_TWARN && l.cls != LC_TCONF)
				continue;
			if ((ru = rules_match(r, RF_LINE, l.text, l.len,
			    dl)) != NULL) {
				sg->rule = ru;
				sg->line = xstrndup(l.text, l.len);
				sg->lineno = l.lineno;
				break;
			}
		}
	}
	ltpout_free(p);
	return sg->rule != NULL;
}

void
rules_suggestion_clear(struct rules_suggestion *sg)
{
	free(sg->line);
	memset(sg, 0, sizeof(*sg));
}
