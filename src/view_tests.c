/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The tests view: one row per LTP test, with its latest status, how
 * long it took, its counts and a strip of its recent results (oldest
 * left, newest right: "..FF." means it started failing lately).  The
 * same view lists the results of one run.  Enter shows the output of
 * the cursor's test, r runs the marked tests (or the cursor's).
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/ltpmeta.h"
#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

struct testview {
	struct ui_testrow	*rows;
	size_t			 n;
	int			 of_run;	/* one run's results */
};

void
ui_testrows_free(struct ui_testrow *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].tag);
		free(rows[i].syscall);
		free(rows[i].cmdline);
		free(rows[i].skip);
		free(rows[i].notrun);
		free(rows[i].requires);
	}
	free(rows);
}

static void
tests_free(struct view *v)
{
	struct testview *tv = v->data;

	if (tv == NULL)
		return;
	ui_testrows_free(tv->rows, tv->n);
	free(tv);
	v->data = NULL;
}

void
view_tests_init(struct view *v, struct ui_testrow *rows, size_t n)
{
	struct testview *tv = xcalloc(1, sizeof(*tv));

	tv->rows = rows;
	tv->n = n;
	v->ops = &view_tests_ops;
	v->data = tv;
	v->top = v->cursor = 0;
}

void
view_results_init(struct view *v, struct ui_testrow *rows, size_t n)
{
	view_tests_init(v, rows, n);
	((struct testview *)v->data)->of_run = 1;
}

static struct ui_testrow *
tests_row(struct view *v, size_t i)
{
	struct testview *tv = v->data;

	return i < tv->n ? &tv->rows[i] : NULL;
}

struct ui_testrow *
view_tests_current(struct view *v)
{
	return tests_row(v, view_row(v, v->cursor));
}

static void
tests_toggle_mark(struct view *v)
{
	struct ui_testrow *r = view_tests_current(v);

	if (r != NULL)
		r->marked ^= 1;
}

static struct ui_testrow **
tests_marked(struct view *v, size_t *np)
{
	struct testview *tv = v->data;
	struct ui_testrow **t = xcalloc(tv->n + 1, sizeof(*t)), *r;
	size_t i, n = 0;

	for (i = 0; i < tv->n; i++)
		if (tv->rows[i].marked)
			t[n++] = &tv->rows[i];
	if (n == 0 && (r = view_tests_current(v)) != NULL)
		t[n++] = r;
	*np = n;
	return t;
}

static size_t
tests_nrows(struct view *v)
{
	return ((struct testview *)v->data)->n;
}

static const char *
tests_header(struct view *v)
{
	(void)v;
	return "  TEST               SYSCALL     STATUS         TIME HISTORY  "
	    "TRIAGE";
}

/* The STATUS column's words: "pass", "fail +env", "not run"... */
static void
tests_status_words(const struct ui_testrow *r, char *buf, size_t len)
{
	if (r->has_result)
		snprintf(buf, len, "%s%s%s", test_status_name(r->status),
		    test_status_env_marked(r->status, r->nenvwarn) ? " +env" :
		    "", r->kmarked ? " +kern" : "");
	else
		snprintf(buf, len, "%s", r->skip ? "skip-list" : "not run");
}

/* "/" matches what the row shows: test, syscall, status, triage. */
static void
tests_match_text(struct view *v, size_t i, char *buf, size_t len)
{
	const struct ui_testrow *r = tests_row(v, i);
	char status[64];

	tests_status_words(r, status, sizeof(status));
	snprintf(buf, len, "%s\n%s\n%s\n%s%s%s\n%s", r->tag, r->syscall,
	    status, r->category, r->tagstate[0] ? " " : "", r->tagstate,
	    r->suggest);
}

static void
tests_draw_row(struct ui *ui, struct view *v, size_t i, int y, int width)
{
	struct ui_testrow *r = tests_row(v, i);
	char buf[96];
	int x = 0;

	if (r->marked)
		ui_attr_on(ui, TE_MARK);
	x = ui_col(y, x, r->marked ? "*" : " ", 2, width);
	if (r->marked)
		ui_attr_off(ui, TE_MARK);
	x = ui_col_name(y, x, r->tag, 19, width);
	x = ui_col_name(y, x, r->syscall[0] ? r->syscall : "-", 12, width);
	/*
	 * "+env": passed or skipped, its only warnings the box's;
	 * "+kern": the kernel warned or was tainted during it.
	 */
	tests_status_words(r, buf, sizeof(buf));
	if (r->has_result) {
		ui_attr_on(ui, ui_status_elem(r->status));
		x = ui_col(y, x, buf, 12, width);
		ui_attr_off(ui, ui_status_elem(r->status));
		snprintf(buf, sizeof(buf), "%6.1fs ", r->duration_ms /
		    1000.0);
	} else {
		ui_attr_on(ui, TE_DIM);
		x = ui_col(y, x, buf, 12, width);
		ui_attr_off(ui, TE_DIM);
		snprintf(buf, sizeof(buf), "%6s  ", "-");
	}
	x = ui_col(y, x, buf, 8, width);
	x = ui_col(y, x, r->history[0] ? r->history : "-", 9, width);
	if (r->category[0] != '\0') {
		snprintf(buf, sizeof(buf), "%s%s%s", r->category,
		    r->tagstate[0] ? " " : "", r->tagstate);
		ui_attr_on(ui, TE_TITLE);
		x = ui_col(y, x, buf, width - x, width);
		ui_attr_off(ui, TE_TITLE);
	} else if (r->suggest[0] != '\0') {
		/* A rule's guess, not yet anyone's word: A accepts it. */
		snprintf(buf, sizeof(buf), "%s?", r->suggest);
		ui_attr_on(ui, TE_DIM);
		x = ui_col(y, x, buf, width - x, width);
		ui_attr_off(ui, TE_DIM);
	} else if (r->skip != NULL && x < width)
		ui_put(y, x, r->skip, width - x, 1);
}

static void
tests_describe(struct ui *ui, struct view *v, char *buf, size_t len)
{
	struct ui_testrow *r = view_tests_current(v);

	(void)ui;
	if (r == NULL) {
		snprintf(buf, len, "no tests");
		return;
	}
	snprintf(buf, len, "%s: %s%s%s", r->tag, r->cmdline,
	    r->skip ? "  [skip list: " : "", r->skip ? r->skip : "");
	if (r->skip)
		strncat(buf, "]", len - strlen(buf) - 1);
}

static void
tests_draw_detail(struct ui *ui, struct view *v, int y, int h)
{
	struct ui_testrow *r = view_tests_current(v);
	char name[300], url[1100];
	int end = y + h;
	size_t i;

	if (r == NULL || h <= 0)
		return;
	ui_attr_on(ui, TE_TITLE);
	ui_putf(y++, 0, COLS, "%s", r->tag);
	ui_attr_off(ui, TE_TITLE);
	if (y < end)
		ui_putf(y++, 0, COLS, "  command  %s", r->cmdline);
	if (y < end)
		ui_putf(y++, 0, COLS, "  syscall  %s", r->syscall);
	if (y < end && r->skip)
		ui_putf(y++, 0, COLS, "  skip     %s", r->skip);
	if (y < end && r->has_result)
		ui_putf(y++, 0, COLS, "  counts   %u pass, %u fail, %u broken, "
		    "%u conf, %u warn", r->npass, r->nfail, r->nbroken,
		    r->nconf, r->nwarn);
	if (y < end && r->has_result && test_status_env_marked(r->status,
	    r->nenvwarn))
		ui_putf(y++, 0, COLS, "  env      %u warning%s the rules call "
		    "the environment's (envwarn): not counted against the "
		    "test", r->nenvwarn, r->nenvwarn == 1 ? "" : "s");
	if (y < end && r->category[0])
		ui_putf(y++, 0, COLS, "  triage   %s %s", r->category,
		    r->tagstate);
	if (y < end && r->requires)
		ui_putf(y++, 0, COLS, "  needs    %s", r->requires);
	if (y < end && r->notrun)
		ui_putf(y++, 0, COLS, "  here     not runnable: %s (a run "
		    "stores it as conf)", r->notrun);
	if (y < end && r->meta != NULL && r->meta->fname != NULL)
		ui_putf(y++, 0, COLS, "  source   %s%s", r->meta->fname,
		    ui->ltp_src[0] != '\0' ? " (v shows it)" : "");
	/* What Linux changed: the commit or CVE the test checks. */
	for (i = 0; r->meta != NULL && y < end && i < r->meta->ntags; i++) {
		ltpmeta_tag_name(&r->meta->tags[i], name, sizeof(name));
		if (ltpmeta_tag_link(&r->meta->tags[i], ui->linux_git_url,
		    url, sizeof(url)) != 0)
			url[0] = '\0';
		ui_putf(y++, 0, COLS, "  %s %s%s%s", i == 0 ? "linux   " :
		    "        ", name, url[0] != '\0' ? "  " : "", url);
	}
	/* What the test checks, in LTP's own words (its metadata). */
	for (i = 0; y < end && i < r->ndoc; i++)
		ui_putf(y++, 0, COLS, "  %s %s", i == 0 ? "checks  " : "        ",
		    r->doc[i]);
	if (y < end)
		ui_putf(y++, 0, COLS, "  history  %s (oldest to newest: . pass"
		    ", F fail, B broken, c conf, w warn, T timeout, S "
		    "signalled, - not run, I interrupted, ? unknown, X crash)",
		    r->history[0] ?
		    r->history : "-");
}

static int
tests_request(struct ui *ui, struct view *v, enum ui_request req)
{
	struct ui_testrow **t;
	const char **tags;
	size_t i, n;

	switch (req) {
	case UR_ENTER:
		ui_pane_show_output(ui, view_tests_current(v));
		return 1;
	case UR_MARK:
		tests_toggle_mark(v);
		return 1;
	case UR_RUN:
		t = tests_marked(v, &n);
		tags = xcalloc(n + 1, sizeof(*tags));
		for (i = 0; i < n; i++)
			tags[i] = t[i]->tag;
		ui_run_selected(ui, NULL, 0, tags, n);
		free(tags);
		free(t);
		return 1;
	default:
		return 0;
	}
}

/*
 * A result came in (tag), or the triage changed (NULL).  A run's
 * results stay that run's: only their triage is news.
 */
static void
tests_reload(struct ui *ui, struct view *v, const char *tag)
{
	struct testview *tv = v->data;
	struct ui_testrow *r;
	enum test_status keep;
	int64_t id;
	size_t i;

	if (tag != NULL && tv->of_run)
		return;
	for (i = 0; i < tv->n; i++) {
		r = &tv->rows[i];
		if (tag != NULL && strcmp(r->tag, tag) != 0)
			continue;
		keep = r->status;
		id = r->result_id;
		ui_testrow_update(ui->store, r);
		if (tv->of_run) {
			r->status = keep;
			r->result_id = id;
		}
		if (tag == NULL)
			ui_triage_suggest_rows(ui, r, 1);
	}
}

const struct view_ops view_tests_ops = {
	.name = "tests",
	.nrows = tests_nrows,
	.draw_row = tests_draw_row,
	.header = tests_header,
	.describe = tests_describe,
	.draw_detail = tests_draw_detail,
	.free = tests_free,
	.request = tests_request,
	.marked_tests = tests_marked,
	.reload = tests_reload,
	.match_text = tests_match_text,
};
