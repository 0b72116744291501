/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The catalogue view: one row per syscall with its number, Linux name,
 * state tag and the NetBSD function behind it.  Sorting, the state
 * filter only change which rows are visible and in what order (the "/"
 * filter, ui_filter.c, hides more); the rows themselves belong to the
 * caller.  Enter opens
 * the tests of the marked syscalls (or the cursor's), r runs them.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

enum cat_sort { SORT_NUMBER, SORT_NAME, SORT_STATE, SORT__COUNT };
enum cat_filter {
	CF_ALL, CF_IMPLEMENTED, CF_UNIMPLEMENTED, CF_OBSOLETE, CF_ABSENT,
	CF__COUNT
};

static const char *const cat_sort_names[SORT__COUNT] = {
	"number", "name", "state"
};
static const char *const cat_filter_names[CF__COUNT] = {
	"all", "implemented", "unimplemented", "obsolete", "absent"
};

struct catview {
	struct ui_sysrow	*rows;
	size_t			 nrows;
	size_t			*vis;		/* indices of visible rows */
	size_t			 nvis;
	enum cat_sort		 sort;
	enum cat_filter		 filter;
};

static struct ui_sysrow *sort_rows;	/* qsort has no context argument */

static int
cat_cmp(const void *a, const void *b, enum cat_sort sort)
{
	const struct ui_sysrow *x = &sort_rows[*(const size_t *)a];
	const struct ui_sysrow *y = &sort_rows[*(const size_t *)b];
	int c;

	switch (sort) {
	case SORT_NAME:
		if ((c = strcmp(x->name, y->name)) != 0)
			return c;
		break;
	case SORT_STATE:
		if (x->state_rank != y->state_rank)
			return x->state_rank < y->state_rank ? -1 : 1;
		break;
	default:
		break;
	}
	if ((c = strcmp(x->abi, y->abi)) != 0)
		return c;
	return x->number < y->number ? -1 : x->number > y->number;
}

static int
cat_cmp_number(const void *a, const void *b)
{
	return cat_cmp(a, b, SORT_NUMBER);
}

static int
cat_cmp_name(const void *a, const void *b)
{
	return cat_cmp(a, b, SORT_NAME);
}

static int
cat_cmp_state(const void *a, const void *b)
{
	return cat_cmp(a, b, SORT_STATE);
}

static int
cat_state_matches(const struct ui_sysrow *r, enum cat_filter f)
{
	switch (f) {
	case CF_IMPLEMENTED:
		return r->elem == TE_IMPLEMENTED || r->elem == TE_COMPAT;
	case CF_UNIMPLEMENTED:
		return r->elem == TE_UNIMPLEMENTED;
	case CF_OBSOLETE:
		return r->elem == TE_OBSOLETE;
	case CF_ABSENT:
		return r->elem == TE_ABSENT;
	default:
		return 1;
	}
}

static void
cat_rebuild(struct view *v)
{
	struct catview *cv = v->data;
	size_t i;

	cv->nvis = 0;
	for (i = 0; i < cv->nrows; i++)
		if (cat_state_matches(&cv->rows[i], cv->filter))
			cv->vis[cv->nvis++] = i;
	sort_rows = cv->rows;
	qsort(cv->vis, cv->nvis, sizeof(*cv->vis),
	    cv->sort == SORT_NAME ? cat_cmp_name :
	    cv->sort == SORT_STATE ? cat_cmp_state : cat_cmp_number);
	sort_rows = NULL;
	view_filter_refresh(v);
}

/* The syscall under the cursor, or NULL. */
static struct ui_sysrow *
cat_current(struct view *v)
{
	struct catview *cv = v->data;
	size_t i = view_row(v, v->cursor);

	return i < cv->nvis ? &cv->rows[cv->vis[i]] : NULL;
}

struct ui_sysrow *
view_catalogue_current(struct view *v)
{
	return cat_current(v);
}

void
view_catalogue_init(struct view *v, struct ui_sysrow *rows, size_t n)
{
	struct catview *cv = xcalloc(1, sizeof(*cv));

	cv->rows = rows;
	cv->nrows = n;
	cv->vis = xcalloc(n ? n : 1, sizeof(*cv->vis));
	v->ops = &view_catalogue_ops;
	v->data = cv;
	v->top = v->cursor = 0;
	cat_rebuild(v);
}

static void
cat_free(struct view *v)
{
	struct catview *cv = v->data;

	if (cv == NULL)
		return;
	free(cv->vis);
	free(cv);
	v->data = NULL;
}

static void
cat_sort_next(struct view *v)
{
	struct catview *cv = v->data;

	cv->sort = (cv->sort + 1) % SORT__COUNT;
	cat_rebuild(v);
}

static void
cat_set_state_filter(struct view *v, int f)
{
	struct catview *cv = v->data;

	if (f >= 0 && f < CF__COUNT)
		cv->filter = f;
	cat_rebuild(v);
}

/* "/" matches a syscall's name, function or state. */
static void
cat_match_text(struct view *v, size_t i, char *buf, size_t len)
{
	struct catview *cv = v->data;
	const struct ui_sysrow *r = &cv->rows[cv->vis[i]];

	snprintf(buf, len, "%s\n%s\n%s", r->name, r->function, r->state);
}

static void
cat_toggle_mark(struct view *v)
{
	struct ui_sysrow *r = cat_current(v);

	if (r != NULL)
		r->marked ^= 1;
}

static size_t
cat_nmarked(struct view *v)
{
	struct catview *cv = v->data;
	size_t i, n = 0;

	for (i = 0; i < cv->nrows; i++)
		n += cv->rows[i].marked != 0;
	return n;
}

/* Names of the marked syscalls, or the cursor's; caller frees array. */
static const char **
cat_marked_names(struct view *v, size_t *np)
{
	struct catview *cv = v->data;
	const char **names = xcalloc(cv->nrows + 1, sizeof(*names));
	struct ui_sysrow *r;
	size_t i, n = 0;

	for (i = 0; i < cv->nrows; i++)
		if (cv->rows[i].marked)
			names[n++] = cv->rows[i].name;
	if (n == 0 && (r = cat_current(v)) != NULL)
		names[n++] = r->name;
	*np = n;
	return names;
}

static size_t
cat_nrows(struct view *v)
{
	return ((struct catview *)v->data)->nvis;
}

static const char *
cat_header(struct view *v)
{
	(void)v;
	return "   NR  NAME                   STATE   TESTS  LAST RUN    "
	    "[TRIAGE] FUNCTION";
}

/* The worst of a syscall's latest results, for the LAST RUN column. */
static int
cat_worst(const struct ui_sysrow *r, unsigned *total)
{
	static const enum test_status order[] = {
		TS_CRASH, TS_INTERRUPTED, TS_SIGNALLED, TS_TIMEOUT, TS_BROKEN,
		TS_FAIL, TS_WARN, TS_UNKNOWN, TS_CONF, TS_PASS, TS_NOTRUN
	};
	size_t i;
	int worst = -1;

	*total = 0;
	for (i = 0; i < TS__COUNT; i++)
		*total += r->last[i];
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (r->last[order[i]] > 0) {
			worst = order[i];
			break;
		}
	return worst;
}

static void
cat_draw_row(struct ui *ui, struct view *v, size_t i, int y, int width)
{
	struct catview *cv = v->data;
	const struct ui_sysrow *r = &cv->rows[cv->vis[i]];
	char num[16], tests[16], last[32];
	unsigned total;
	int x = 0, worst;

	if (r->marked)
		ui_attr_on(ui, TE_MARK);
	x = ui_col(y, x, r->marked ? "*" : " ", 1, width);
	if (r->marked)
		ui_attr_off(ui, TE_MARK);
	snprintf(num, sizeof(num), "%4ld", r->number);
	x = ui_col(y, x, num, 5, width);
	x = ui_col(y, x, "", 1, width);
	x = ui_col_name(y, x, r->name, 23, width);
	ui_attr_on(ui, r->elem);
	x = ui_col(y, x, r->state, 7, width);
	ui_attr_off(ui, r->elem);
	if (r->ntests > 0)
		snprintf(tests, sizeof(tests), "%6d", r->ntests);
	else
		snprintf(tests, sizeof(tests), "%6s", "-");
	x = ui_col(y, x, tests, 6, width);
	x = ui_col(y, x, "", 2, width);
	if ((worst = cat_worst(r, &total)) >= 0) {
		snprintf(last, sizeof(last), "%s %u/%u", test_status_name(worst),
		    r->last[worst], total);
		ui_attr_on(ui, ui_status_elem(worst));
		x = ui_col(y, x, last, 12, width);
		ui_attr_off(ui, ui_status_elem(worst));
	} else
		x = ui_col(y, x, "-", 12, width);
	if (x < width && r->category[0] != '\0') {
		/* The cause someone wrote down matters more than the name. */
		ui_attr_on(ui, TE_TITLE);
		x += ui_put(y, x, "[", width - x, 0);
		x += ui_put(y, x, r->category, width - x, 0);
		x += ui_put(y, x, "] ", width - x, 0);
		ui_attr_off(ui, TE_TITLE);
	}
	if (x < width)
		ui_put(y, x, r->function, width - x, 1);
}

static void
cat_describe(struct ui *ui, struct view *v, char *buf, size_t len)
{
	const struct ui_sysrow *r = cat_current(v);

	(void)ui;
	if (r == NULL) {
		snprintf(buf, len, "no syscall matches");
		return;
	}
	snprintf(buf, len, "%s %ld %s: %s", r->abi, r->number, r->name,
	    r->state);
}

static void
cat_draw_detail(struct ui *ui, struct view *v, int y, int h)
{
	const struct ui_sysrow *r = cat_current(v);
	int width = COLS, end = y + h;
	char loc[4200];

	if (r == NULL || h <= 0)
		return;
	ui_attr_on(ui, TE_TITLE);
	ui_putf(y++, 0, width, "%s (%s %ld)", r->name, r->abi, r->number);
	ui_attr_off(ui, TE_TITLE);
	if (y < end)
		ui_putf(y++, 0, width, "  state     %s (%s)", r->state,
		    r->type);
	if (y < end)
		ui_putf(y++, 0, width, "  function  %s",
		    r->function[0] ? r->function : "-");
	if (y < end)
		ui_putf(y++, 0, width, "  prototype %s",
		    r->prototype[0] ? r->prototype : "-");
	if (y < end && r->guard[0])
		ui_putf(y++, 0, width, "  guard     #if %s", r->guard);
	snprintf(loc, sizeof(loc), "%s:%lu", r->file, r->line);
	if (y < end)
		ui_putf(y++, 0, width, "  source    %s", loc);
	if (y < end)
		ui_putf(y++, 0, width, "  LTP tests %d (Enter lists them, r "
		    "runs them)", r->ntests);
}

static void
cat_title(struct ui *ui, struct view *v, char *buf, size_t len)
{
	snprintf(buf, len, "%zu syscalls, %zu marked  %s",
	    ((struct catview *)v->data)->nrows, cat_nmarked(v), ui->source);
}

static void
cat_status(struct ui *ui, struct view *v, char *buf, size_t len)
{
	struct catview *cv = v->data;

	(void)ui;
	snprintf(buf, len, "  sort:%s  show:%s", cat_sort_names[cv->sort],
	    cat_filter_names[cv->filter]);
}

static int
cat_request(struct ui *ui, struct view *v, enum ui_request req)
{
	const char **names;
	size_t n;

	switch (req) {
	case UR_ENTER:
		names = cat_marked_names(v, &n);
		if (n > 0)
			ui_open_tests(ui, names, n);
		free(names);
		return 1;
	case UR_RUN:
		names = cat_marked_names(v, &n);
		ui_run_selected(ui, names, n, NULL, 0);
		free(names);
		return 1;
	case UR_MARK:
		cat_toggle_mark(v);
		return 1;
	case UR_SORT:
		cat_sort_next(v);
		return 1;
	case UR_SHOW_ALL:
	case UR_SHOW_IMPLEMENTED:
	case UR_SHOW_UNIMPLEMENTED:
	case UR_SHOW_OBSOLETE:
	case UR_SHOW_ABSENT:
		cat_set_state_filter(v, (int)(req - UR_SHOW_ALL));
		return 1;
	default:
		return 0;
	}
}

const struct view_ops view_catalogue_ops = {
	.name = "catalogue",
	.nrows = cat_nrows,
	.draw_row = cat_draw_row,
	.header = cat_header,
	.describe = cat_describe,
	.draw_detail = cat_draw_detail,
	.free = cat_free,
	.title = cat_title,
	.status = cat_status,
	.empty = "(no syscall in this state; press 1 to show all)",
	.request = cat_request,
	.match_text = cat_match_text,
};
