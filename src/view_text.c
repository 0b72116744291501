/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A view of plain lines, each with its colour and a key: the Compare
 * screen, the Shopping list and the category picker are all lists of
 * lines that Enter acts on.  What Enter does is the opener's (on a
 * test's line in ui_triage.c's lists it shows its newest output; in
 * the picker, it tags the tests with the line's category), so that
 * this view calls nothing above it.
 */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

struct textview {
	struct ui_textrow	*rows;
	size_t			 n;
	size_t			 cap;
	char			*header;
	view_text_enter_fn	*enter;		/* Enter on a line, or NULL */
};

void
view_text_init(struct view *v, const char *header, view_text_enter_fn *enter)
{
	struct textview *tv = xcalloc(1, sizeof(*tv));

	tv->header = xstrdup(header != NULL ? header : "");
	tv->enter = enter;
	v->ops = &view_text_ops;
	v->data = tv;
	v->top = v->cursor = 0;
}

void
view_text_add(struct view *v, enum theme_elem elem, const char *key,
    int64_t id, const char *fmt, ...)
{
	struct textview *tv = v->data;
	struct ui_textrow *r;
	va_list ap;
	char buf[1024];

	if (tv->n == tv->cap) {
		tv->cap = tv->cap ? tv->cap * 2 : 64;
		tv->rows = xreallocarray(tv->rows, tv->cap, sizeof(*tv->rows));
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	r = &tv->rows[tv->n++];
	r->text = xstrdup(buf);
	r->elem = elem;
	r->key = key != NULL ? xstrdup(key) : NULL;
	r->id = id;
}

struct ui_textrow *
view_text_current(struct view *v)
{
	struct textview *tv = v->data;
	size_t i = view_row(v, v->cursor);

	return i < tv->n ? &tv->rows[i] : NULL;
}

/* "/" matches the line as shown, its indent aside (so ^ is its start). */
static void
text_match_text(struct view *v, size_t i, char *buf, size_t len)
{
	const char *s = ((struct textview *)v->data)->rows[i].text;

	snprintf(buf, len, "%s", s + strspn(s, " "));
}

static void
text_free(struct view *v)
{
	struct textview *tv = v->data;
	size_t i;

	if (tv == NULL)
		return;
	for (i = 0; i < tv->n; i++) {
		free(tv->rows[i].text);
		free(tv->rows[i].key);
	}
	free(tv->rows);
	free(tv->header);
	free(tv);
	v->data = NULL;
}

static size_t
text_nrows(struct view *v)
{
	return ((struct textview *)v->data)->n;
}

static const char *
text_header(struct view *v)
{
	return ((struct textview *)v->data)->header;
}

static void
text_draw_row(struct ui *ui, struct view *v, size_t i, int y, int width)
{
	struct textview *tv = v->data;

	ui_attr_on(ui, tv->rows[i].elem);
	ui_put(y, 0, tv->rows[i].text, width, 1);
	ui_attr_off(ui, tv->rows[i].elem);
}

static void
text_describe(struct ui *ui, struct view *v, char *buf, size_t len)
{
	struct ui_textrow *r = view_text_current(v);

	(void)ui;
	snprintf(buf, len, "%s", r == NULL ? "empty" : r->key != NULL ?
	    r->key : "");
}

static int
text_request(struct ui *ui, struct view *v, enum ui_request req)
{
	struct textview *tv = v->data;

	if (req != UR_ENTER || tv->enter == NULL)
		return 0;
	tv->enter(ui);
	return 1;
}

const struct view_ops view_text_ops = {
	.name = "text",
	.nrows = text_nrows,
	.draw_row = text_draw_row,
	.header = text_header,
	.describe = text_describe,
	.free = text_free,
	.request = text_request,
	.match_text = text_match_text,
};
