/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The output pane: the lines of the running test as they arrive, or a
 * finished test's stored output, coloured by line class, kept in a
 * bounded ring so that a flood of output costs neither memory nor key
 * response.  Follow mode sticks to the newest line; scrolling back
 * turns it off, G turns it on again.
 */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/kmsg.h"
#include "ltpscope/textsafe.h"
#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

static enum theme_elem
ui_line_elem(enum line_class c)
{
	switch (c) {
	case LC_TPASS:
		return TE_PASS;
	case LC_TFAIL:
		return TE_FAIL;
	case LC_TBROK:
		return TE_BROKEN;
	case LC_TCONF:
		return TE_CONF;
	case LC_TWARN:
		return TE_WARN;
	case LC_TINFO:
		return TE_INFO;
	case LC_META:
		return TE_META;
	case LC_SUMMARY:
		return TE_TITLE;
	case LC_TDEBUG:
		return TE_DIM;
	default:
		return TE_NORMAL;
	}
}

void
ui_pane_clear(struct ui *ui, const char *title)
{
	linering_clear(ui->ring);
	ui->pane_top = 0;
	ui->pane_mark = 0;
	ui->pane_tag[0] = '\0';
	snprintf(ui->pane_title, sizeof(ui->pane_title), "%s", title);
}

/* Text is raw test output: it is made safe here, once, on arrival. */
void
ui_pane_push(struct ui *ui, enum line_class cls, const char *text,
    size_t len)
{
	char *safe;
	size_t slen;

	safe = textsafe_display(text, len, 0, &slen);
	linering_push(ui->ring, cls, safe, slen);
	free(safe);
	ui->dirty = 1;
}

void
ui_pane_meta(struct ui *ui, const char *fmt, ...)
{
	char buf[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	ui_pane_push(ui, LC_META, buf, strlen(buf));
}

void
ui_pane_scroll(struct ui *ui, long delta)
{
	size_t n = linering_count(ui->ring);
	size_t h = (size_t)(ui_pane_height(ui) > 1 ? ui_pane_height(ui) - 1 :
	    1);
	size_t maxtop = n > h ? n - h : 0;
	long top;

	ui->pane_mark = 0;
	if (ui->follow)
		ui->pane_top = maxtop;
	top = (long)ui->pane_top + delta;
	if (top < 0)
		top = 0;
	if ((size_t)top >= maxtop) {
		top = (long)maxtop;
		ui->follow = 1;
	} else
		ui->follow = 0;
	ui->pane_top = (size_t)top;
}

void
ui_pane_draw(struct ui *ui, int y, int h)
{
	size_t n = linering_count(ui->ring), i, top, mark;
	unsigned long long dropped;
	enum line_class cls;
	enum theme_elem el;
	const char *text;
	char title[512];
	int row;

	if (h <= 0)
		return;
	dropped = linering_total(ui->ring) - n;
	if (ui->follow || ui->pane_top + (size_t)(h - 1) > n)
		top = n > (size_t)(h - 1) ? n - (size_t)(h - 1) : 0;
	else
		top = ui->pane_top;
	ui->pane_top = top;
	snprintf(title, sizeof(title), "%s%s  %zu line%s%s%s",
	    ui->focus_pane ? "> " : "", ui->pane_title[0] ? ui->pane_title :
	    "output", (size_t)(n + dropped), n + dropped == 1 ? "" : "s",
	    ui->follow ? "  [follow]" : "",
	    dropped ? "  (oldest not kept here: full text in the store)" :
	    "");
	ui_attr_on(ui, TE_STATUS);
	ui_put(y, 0, title, COLS, 1);
	ui_attr_off(ui, TE_STATUS);
	for (row = 1, i = top; row < h && i < n; row++, i++) {
		text = linering_get(ui->ring, i, &cls, NULL);
		el = ui->focus_pane && ui_pane_marked(ui, &mark) &&
		    mark == i ? TE_SELECTION : ui_line_elem(cls);
		ui_attr_on(ui, el);
		ui_put(y + row, 0, text, COLS, 1);
		ui_attr_off(ui, el);
	}
}

int
ui_pane_marked(const struct ui *ui, size_t *ip)
{
	unsigned long long first;

	first = linering_total(ui->ring) - linering_count(ui->ring);
	if (ui->pane_mark == 0 || ui->pane_mark - 1 < first)
		return 0;
	*ip = (size_t)(ui->pane_mark - 1 - first);
	return *ip < linering_count(ui->ring);
}

size_t
ui_pane_current(const struct ui *ui)
{
	size_t i;

	return ui_pane_marked(ui, &i) ? i : ui->pane_top;
}

static void
ui_pane_line(const struct ltpout_line *line, void *arg)
{
	ui_pane_push(arg, line->cls, line->text, line->len);
}

static void
ui_pane_feed(void *arg, const char *buf, size_t len)
{
	struct ui *ui = arg;

	ltpout_feed(ui->parser, buf, len, ui_pane_line, ui);
}

/*
 * What the kernel said while the test ran, after its output: a marker
 * line, then the lines, those that warn in the warning colour.
 */
void
ui_pane_kernel(struct ui *ui, int64_t result_id)
{
	struct store_kmsg k;
	struct diaglist dl;
	const char *p, *end, *nl;
	char marker[160];

	diag_init(&dl);
	if (store_get_kmsg(ui->store, result_id, &k, &dl) != STORE_OK) {
		diag_free(&dl);
		return;
	}
	diag_free(&dl);
	(void)kmsg_marker(marker, sizeof(marker), k.nlines, k.nwarn,
	    k.taint_before, k.taint_after);
	ui_pane_meta(ui, "%s", marker);
	for (p = k.text, end = k.text + k.len; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		ui_pane_push(ui, kmsg_is_warning(-1, p, (size_t)(nl - p)) ?
		    LC_TWARN : LC_PLAIN, p, (size_t)(nl - p));
	}
	if (k.capped)
		ui_pane_meta(ui, "kernel text capped; %u lines in all",
		    k.nlines);
	if (k.nlost > 0)
		ui_pane_meta(ui, "%u kernel records were overwritten before "
		    "they were read", k.nlost);
	store_kmsg_clear(&k);
}

/* Loads a finished test's stored output into the pane. */
void
ui_pane_show_output(struct ui *ui, const struct ui_testrow *t)
{
	struct store_output out;
	struct ltpout_line line;
	struct diaglist dl;
	char title[300];

	if (t == NULL)
		return;
	if (!t->has_result) {
		ui_message(ui, 0, "%s has not run yet: r runs it", t->tag);
		return;
	}
	snprintf(title, sizeof(title), "%s: %s%s (stored output)", t->tag,
	    test_status_name(t->status), test_status_env_marked(t->status,
	    t->nenvwarn) ? " +env warning" : "");
	ui_pane_clear(ui, title);
	snprintf(ui->pane_tag, sizeof(ui->pane_tag), "%s", t->tag);
	ui->pane_open = 1;
	ui->detail = 0;
	ui->pane_live = 0;
	ui->follow = 0;
	diag_init(&dl);
	ltpout_reset(ui->parser);
	/* In pieces: the ring keeps the newest lines, not 16 MiB of them. */
	if (store_read_output(ui->store, t->result_id, ui_pane_feed, ui,
	    &out, &dl) != STORE_OK) {
		ui_pane_meta(ui, "no output stored for this result");
		diag_free(&dl);
		return;
	}
	diag_free(&dl);
	while (ltpout_flush(ui->parser, &line))
		ui_pane_push(ui, line.cls, line.text, line.len);
	if (out.capped)
		ui_pane_meta(ui, "output was capped when stored: %lld bytes "
		    "originally", (long long)out.original_size);
	store_output_clear(&out);
	ui_pane_kernel(ui, t->result_id);
	ui->pane_top = 0;
}

int
ui_pane_search(struct ui *ui, const char *pat, int dir)
{
	struct ui_regex *rx;
	size_t n = linering_count(ui->ring), i, len;
	const char *text;
	char err[200];
	int found = 0;
	long k, from;

	if (pat == NULL || *pat == '\0' || n == 0)
		return -1;
	if ((rx = ui_regex_new(pat, err, sizeof(err))) == NULL) {
		ui_message(ui, 1, "bad pattern: %s", err);
		return -1;
	}
	/* From the line found last: drawing may have moved the top. */
	from = (long)ui_pane_current(ui);
	for (i = 1; i <= n && !found; i++) {
		k = from + (dir >= 0 ? (long)i : -(long)i);
		k = ((k % (long)n) + (long)n) % (long)n;
		text = linering_get(ui->ring, (size_t)k, NULL, &len);
		if (ui_regex_match(rx, text, len) > 0) {
			ui->pane_top = (size_t)k;
			ui->pane_mark = linering_total(ui->ring) - n +
			    (unsigned long long)k + 1;
			ui->follow = 0;
			found = 1;
		}
	}
	ui_regex_free(rx);
	if (!found) {
		ui_message(ui, 1, "not found in the output: %s", pat);
		return -1;
	}
	return 0;
}
