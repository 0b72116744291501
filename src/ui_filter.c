/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The "/" of every list, and the pcre2 patterns it and the output
 * pane's search share.  A filter hides the rows of a view its pattern
 * does not match, the rest keeping the view's order; views know nothing
 * of it beyond telling what a row's text is (view_ops.match_text) and
 * asking view_row() which of their rows the cursor is on.  A user's
 * pattern runs under a match limit: a pathological one costs a bounded
 * time per row, not the terminal.
 */
#define PCRE2_CODE_UNIT_WIDTH 8

#include <limits.h>
#include <pcre2.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

#define UI_MATCH_LIMIT	100000u
#define UI_MATCH_TEXT	2048	/* a row's text: a text view's line fits */

struct ui_regex {
	pcre2_code		*re;
	pcre2_match_data	*md;
	pcre2_match_context	*mc;
};

struct view_filter {
	char		 pattern[256];
	struct ui_regex	*re;
	size_t		*shown;		/* the view's rows that match */
	size_t		 nshown;
	size_t		 nfrom;		/* the view's rows when built */
	size_t		 nlimited;	/* stopped by the match limit */
};

struct ui_regex *
ui_regex_new(const char *pat, char *err, size_t errlen)
{
	struct ui_regex *rx;
	PCRE2_UCHAR msg[160];
	PCRE2_SIZE off;
	pcre2_code *re;
	int code;

	/* MULTILINE: ^ and $ hold at the ends of each field of a row. */
	re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED,
	    PCRE2_CASELESS | PCRE2_UTF | PCRE2_MATCH_INVALID_UTF |
	    PCRE2_MULTILINE, &code, &off, NULL);
	if (re == NULL) {
		pcre2_get_error_message(code, msg, sizeof(msg));
		snprintf(err, errlen, "column %zu: %s", (size_t)off + 1,
		    (char *)msg);
		return NULL;
	}
	/* JIT is an optimisation; NetBSD's PaX MPROTECT may refuse it. */
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	rx = xcalloc(1, sizeof(*rx));
	rx->re = re;
	rx->md = pcre2_match_data_create_from_pattern(re, NULL);
	rx->mc = pcre2_match_context_create(NULL);
	(void)pcre2_set_match_limit(rx->mc, UI_MATCH_LIMIT);
	(void)pcre2_set_depth_limit(rx->mc, UI_MATCH_LIMIT / 10);
	return rx;
}

int
ui_regex_match(struct ui_regex *rx, const char *s, size_t len)
{
	int rc;

	rc = pcre2_match(rx->re, (PCRE2_SPTR)s, len, 0, 0, rx->md, rx->mc);
	if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
	    rc == PCRE2_ERROR_HEAPLIMIT)
		return -1;
	return rc >= 0;
}

void
ui_regex_free(struct ui_regex *rx)
{
	if (rx == NULL)
		return;
	pcre2_match_context_free(rx->mc);
	pcre2_match_data_free(rx->md);
	pcre2_code_free(rx->re);
	free(rx);
}

static void
view_filter_build(struct view *v)
{
	struct view_filter *f = v->filter;
	char text[UI_MATCH_TEXT];
	size_t n = v->ops->nrows(v), i;
	int m;

	f->shown = xreallocarray(f->shown, n ? n : 1, sizeof(*f->shown));
	f->nshown = f->nlimited = 0;
	f->nfrom = n;
	for (i = 0; i < n; i++) {
		text[0] = '\0';
		v->ops->match_text(v, i, text, sizeof(text));
		if ((m = ui_regex_match(f->re, text, strlen(text))) > 0)
			f->shown[f->nshown++] = i;
		else if (m < 0)
			f->nlimited++;
	}
}

size_t
view_rows(struct view *v)
{
	if (v->filter == NULL)
		return v->ops->nrows(v);
	/* Rows came or went under the filter: match them again. */
	if (v->ops->nrows(v) != v->filter->nfrom)
		view_filter_build(v);
	return v->filter->nshown;
}

size_t
view_row(struct view *v, size_t i)
{
	if (v->filter == NULL)
		return i;
	return i < view_rows(v) ? v->filter->shown[i] : SIZE_MAX;
}

const char *
view_pattern(const struct view *v)
{
	return v->filter != NULL ? v->filter->pattern : "";
}

void
view_filter_free(struct view *v)
{
	if (v->filter == NULL)
		return;
	ui_regex_free(v->filter->re);
	free(v->filter->shown);
	free(v->filter);
	v->filter = NULL;
}

/*
 * The cursor stays on its row when the row is still shown, else it
 * goes to the next one shown: a filter is a way to find a row, and
 * clearing it shows that row among the rest.
 */
int
view_filter_set(struct view *v, const char *pat, char *err, size_t errlen)
{
	struct ui_regex *rx = NULL;
	size_t row, k;

	if (v->ops->match_text == NULL) {
		snprintf(err, errlen, "this list has no filter");
		return -1;
	}
	if (*pat != '\0' && (rx = ui_regex_new(pat, err, errlen)) == NULL)
		return -1;
	row = view_rows(v) > 0 ? view_row(v, v->cursor) : 0;
	view_filter_free(v);
	if (rx == NULL) {
		v->cursor = row;
		return 0;
	}
	v->filter = xcalloc(1, sizeof(*v->filter));
	v->filter->re = rx;
	snprintf(v->filter->pattern, sizeof(v->filter->pattern), "%s", pat);
	view_filter_build(v);
	for (k = 0; k < v->filter->nshown && v->filter->shown[k] < row; k++)
		continue;
	v->cursor = k < v->filter->nshown ? k : v->filter->nshown > 0 ?
	    v->filter->nshown - 1 : 0;
	return v->filter->nlimited > INT_MAX ? INT_MAX :
	    (int)v->filter->nlimited;
}

void
view_filter_refresh(struct view *v)
{
	if (v->filter != NULL)
		view_filter_build(v);
}
