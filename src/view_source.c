/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A text file, one row a line behind its number, with one line marked:
 * an LTP test's source at the line that failed, a kernel function.
 * "/" is the shared filter (the lines that match, by number); Enter on
 * one of them clears the filter with that line under the cursor, as a
 * search would leave it.  The output pane closes while the file shows,
 * since a file wants the height, and comes back as it was with the
 * view: h goes back to where the key was pressed.
 */
#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

/* Bigger than any test's source; a file past it is not what we want. */
#define SOURCE_MAX_BYTES	(16u * 1024 * 1024)

struct sourceview {
	struct ui	*ui;
	char		*text;		/* the file, lines cut at '\n' */
	char		**lines;
	size_t		 n;
	long		 mark;		/* 1-based; 0: none */
	int		 numw;		/* digits of the last line number */
	char		*path;		/* for $EDITOR; NULL: not a file */
	char		 header[256];
	/* The pane as it was, to give back. */
	int		 pane_open;
	int		 focus_pane;
	int		 detail;
};

/* Cuts text at each newline; a last line without one is a line. */
static void
source_split(struct sourceview *sv, char *text, size_t len)
{
	size_t cap = 64, i;
	char *p = text, *end = text + len, *nl;

	sv->text = text;
	sv->lines = xreallocarray(NULL, cap, sizeof(*sv->lines));
	while (p < end) {
		if (sv->n == cap) {
			cap *= 2;
			sv->lines = xreallocarray(sv->lines, cap,
			    sizeof(*sv->lines));
		}
		sv->lines[sv->n++] = p;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	for (i = sv->n, sv->numw = 1; i >= 10; i /= 10)
		sv->numw++;
}

static size_t
source_nrows(struct view *v)
{
	return ((struct sourceview *)v->data)->n;
}

static const char *
source_header(struct view *v)
{
	return ((struct sourceview *)v->data)->header;
}

static void
source_draw_row(struct ui *ui, struct view *v, size_t i, int y, int width)
{
	struct sourceview *sv = v->data;
	int marked = (long)i + 1 == sv->mark, x;
	char num[32];
	const char *s = sv->lines[i];
	char line[1024];
	size_t k, o;

	snprintf(num, sizeof(num), "%c%*zu ", marked ? '>' : ' ', sv->numw,
	    i + 1);
	if (marked)
		ui_attr_on(ui, TE_FAIL);
	else
		ui_attr_on(ui, TE_DIM);
	x = ui_put(y, 0, num, width, 0);
	if (marked)
		ui_attr_off(ui, TE_FAIL);
	else
		ui_attr_off(ui, TE_DIM);
	/* Tabs as the file's author saw them, at every 8 columns. */
	for (k = 0, o = 0; s[k] != '\0' && o + 8 < sizeof(line); k++) {
		if (s[k] == '\t') {
			do
				line[o++] = ' ';
			while (o % 8 != 0);
		} else
			line[o++] = s[k];
	}
	line[o] = '\0';
	if (marked)
		ui_attr_on(ui, TE_MARK);
	ui_put(y, x, line, width - x, 1);
	if (marked)
		ui_attr_off(ui, TE_MARK);
}

static void
source_describe(struct ui *ui, struct view *v, char *buf, size_t len)
{
	struct sourceview *sv = v->data;
	size_t i = view_row(v, v->cursor);

	(void)ui;
	if (i >= sv->n)
		snprintf(buf, len, "empty");
	else
		snprintf(buf, len, "line %zu of %zu", i + 1, sv->n);
}

static void
source_match_text(struct view *v, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "%s", ((struct sourceview *)v->data)->lines[i]);
}

static int
source_request(struct ui *ui, struct view *v, enum ui_request req)
{
	char err[64];

	(void)ui;
	if (req != UR_ENTER)
		return 0;
	(void)view_filter_set(v, "", err, sizeof(err));
	return 1;
}

static void
source_free(struct view *v)
{
	struct sourceview *sv = v->data;

	if (sv == NULL)
		return;
	sv->ui->pane_open = sv->pane_open;
	sv->ui->focus_pane = sv->focus_pane;
	sv->ui->detail = sv->detail;
	free(sv->lines);
	free(sv->text);
	free(sv->path);
	free(sv);
	v->data = NULL;
}

const struct view_ops view_source_ops = {
	.name = "source",
	.nrows = source_nrows,
	.draw_row = source_draw_row,
	.header = source_header,
	.describe = source_describe,
	.free = source_free,
	.request = source_request,
	.match_text = source_match_text,
	.empty = "(the file is empty)",
};

int
ui_source_text(struct ui *ui, const char *title, const char *path,
    char *text, size_t len, long line)
{
	struct sourceview *sv = xcalloc(1, sizeof(*sv));
	struct view *v;
	size_t h;

	sv->ui = ui;
	sv->pane_open = ui->pane_open;
	sv->focus_pane = ui->focus_pane;
	sv->detail = ui->detail;
	sv->path = path != NULL ? xstrdup(path) : NULL;
	source_split(sv, text, len);
	if (line > 0 && (size_t)line > sv->n)
		line = (long)sv->n;
	sv->mark = line;
	if (line > 0)
		snprintf(sv->header, sizeof(sv->header), "%zu lines, line "
		    "%ld marked (/ search, h back)", sv->n, line);
	else
		snprintf(sv->header, sizeof(sv->header), "%zu lines "
		    "(/ search, h back)", sv->n);
	ui->pane_open = ui->focus_pane = ui->detail = 0;
	ui_push_view(ui);
	v = ui_top(ui);
	v->ops = &view_source_ops;
	v->data = sv;
	snprintf(v->title, sizeof(v->title), "%s", title);
	v->cursor = line > 0 ? (size_t)line - 1 : 0;
	/* The marked line in the middle, with what leads to it above. */
	h = (size_t)ui_list_height(ui);
	v->top = v->cursor > h / 2 ? v->cursor - h / 2 : 0;
	return 0;
}

int
ui_source_show(struct ui *ui, const char *title, const char *path, long line)
{
	char *text;
	size_t len;

	if (slurp_file(path, SOURCE_MAX_BYTES, &text, &len) != SLURP_OK) {
		ui_message(ui, 1, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (len > SOURCE_MAX_BYTES) {
		free(text);
		ui_message(ui, 1, "%s: bigger than %u MB, not shown", path,
		    SOURCE_MAX_BYTES / (1024 * 1024));
		return -1;
	}
	return ui_source_text(ui, title, path, text, len, line);
}

const char *
ui_source_path(struct view *v)
{
	if (v->ops != &view_source_ops)
		return NULL;
	return ((struct sourceview *)v->data)->path;
}

long
ui_source_line(struct view *v)
{
	struct sourceview *sv = v->data;
	size_t i;

	if (v->ops != &view_source_ops)
		return 0;
	i = view_row(v, v->cursor);
	return i < sv->n ? (long)i + 1 : 0;
}
