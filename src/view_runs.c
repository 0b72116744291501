/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The runs view: the history of runs in the results database, newest
 * first, with what each found.  Enter opens a run's results, b makes
 * the run its arch's baseline.
 */
#include <curses.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

struct runview {
	struct ui_runrow	*rows;
	size_t			 n;
};

void
ui_runrows_free(struct ui_runrow *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].label);
		free(rows[i].where);
		free(rows[i].state);
	}
	free(rows);
}

static void
runs_free(struct view *v)
{
	struct runview *rv = v->data;

	if (rv == NULL)
		return;
	ui_runrows_free(rv->rows, rv->n);
	free(rv);
	v->data = NULL;
}

void
view_runs_init(struct view *v, struct ui_runrow *rows, size_t n)
{
	struct runview *rv = xcalloc(1, sizeof(*rv));

	rv->rows = rows;
	rv->n = n;
	v->ops = &view_runs_ops;
	v->data = rv;
	v->top = v->cursor = 0;
}

struct ui_runrow *
view_runs_current(struct view *v)
{
	struct runview *rv = v->data;
	size_t i = view_row(v, v->cursor);

	return i < rv->n ? &rv->rows[i] : NULL;
}

/* "/" matches a run's number, start, state, label and machine. */
static void
runs_match_text(struct view *v, size_t i, char *buf, size_t len)
{
	const struct ui_runrow *r = &((struct runview *)v->data)->rows[i];

	snprintf(buf, len, "%" PRId64 "\n%s\n%s\n%s\n%s", r->id, r->when,
	    r->state, r->label, r->where);
}

static size_t
runs_nrows(struct view *v)
{
	return ((struct runview *)v->data)->n;
}

static const char *
runs_header(struct view *v)
{
	(void)v;
	return "   RUN  STARTED (UTC)     STATE        PASS FAIL BROK CONF "
	    "OTHER  LABEL";
}

static void
runs_draw_row(struct ui *ui, struct view *v, size_t i, int y, int width)
{
	struct runview *rv = v->data;
	struct ui_runrow *r = &rv->rows[i];
	char buf[256];
	unsigned other;
	int x = 0;

	other = r->counts[TS_WARN] + r->counts[TS_TIMEOUT] +
	    r->counts[TS_SIGNALLED] + r->counts[TS_NOTRUN] +
	    r->counts[TS_INTERRUPTED] + r->counts[TS_UNKNOWN] +
	    r->counts[TS_CRASH];
	snprintf(buf, sizeof(buf), "%6" PRId64 "  %-17s ", r->id, r->when);
	x += ui_put(y, x, buf, width - x, 0);
	ui_attr_on(ui, strcmp(r->state, "interrupted") == 0 ? TE_FAIL :
	    TE_NORMAL);
	snprintf(buf, sizeof(buf), "%-12s", r->state);
	x += ui_put(y, x, buf, width - x, 0);
	ui_attr_off(ui, strcmp(r->state, "interrupted") == 0 ? TE_FAIL :
	    TE_NORMAL);
	snprintf(buf, sizeof(buf), "%4u %4u %4u %4u %5u  %s", r->counts[TS_PASS],
	    r->counts[TS_FAIL], r->counts[TS_BROKEN], r->counts[TS_CONF],
	    other, r->label[0] ? r->label : r->where);
	if (x < width)
		ui_put(y, x, buf, width - x, 1);
}

static void
runs_describe(struct ui *ui, struct view *v, char *buf, size_t len)
{
	struct ui_runrow *r = view_runs_current(v);

	(void)ui;
	if (r == NULL)
		snprintf(buf, len, "no runs yet: r runs tests");
	else {
		snprintf(buf, len, "run %" PRId64 " on %s: %u of %u tests "
		    "planned", r->id, r->where, r->counts[TS_PASS] +
		    r->counts[TS_FAIL] + r->counts[TS_BROKEN] +
		    r->counts[TS_CONF] + r->counts[TS_WARN] +
		    r->counts[TS_TIMEOUT] + r->counts[TS_SIGNALLED] +
		    r->counts[TS_NOTRUN] + r->counts[TS_INTERRUPTED] +
		    r->counts[TS_UNKNOWN] + r->counts[TS_CRASH], r->nqueued);
		if (r->nenvmarked > 0 && strlen(buf) < len)
			snprintf(buf + strlen(buf), len - strlen(buf),
			    "; %u with an env warning",
			    r->nenvmarked);
		if (r->counts[TS_UNKNOWN] > 0 && strlen(buf) < len)
			snprintf(buf + strlen(buf), len - strlen(buf),
			    "; %u unknown", r->counts[TS_UNKNOWN]);
		if (r->counts[TS_CRASH] > 0 && strlen(buf) < len)
			snprintf(buf + strlen(buf), len - strlen(buf),
			    "; %u crash%s (the box stopped answering)",
			    r->counts[TS_CRASH], r->counts[TS_CRASH] == 1 ?
			    "" : "es");
	}
}

/* The results of run id, as a tests view on top. */
static void
runs_open(struct ui *ui, int64_t id)
{
	struct ui_testrow *rows = NULL;
	struct view *v;
	size_t n = 0;

	if (ui_load_run_results(ui->store, id, &rows, &n) != 0) {
		ui_message(ui, 1, "cannot read run %lld", (long long)id);
		return;
	}
	ui_triage_suggest_rows(ui, rows, n);
	/* The push may free this view (a full stack): id is a copy. */
	ui_push_view(ui);
	v = ui_top(ui);
	view_results_init(v, rows, n);
	snprintf(v->title, sizeof(v->title), "run %lld: %zu results",
	    (long long)id, n);
}

static int
runs_request(struct ui *ui, struct view *v, enum ui_request req)
{
	struct ui_runrow *r = view_runs_current(v);

	switch (req) {
	case UR_ENTER:
		if (r != NULL)
			runs_open(ui, r->id);
		return 1;
	case UR_BASELINE:
		if (r == NULL)
			return 0;
		ui_triage_baseline(ui, r->id);
		return 1;
	default:
		return 0;
	}
}

const struct view_ops view_runs_ops = {
	.name = "runs",
	.nrows = runs_nrows,
	.draw_row = runs_draw_row,
	.header = runs_header,
	.describe = runs_describe,
	.free = runs_free,
	.request = runs_request,
	.match_text = runs_match_text,
};
