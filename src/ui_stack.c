/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's views, a stack with the catalogue at the bottom: the
 * view on top, one pushed for a view's *_init(), one popped and freed.
 */
#include <string.h>

#include "ui_priv.h"

struct view *
ui_top(struct ui *ui)
{
	return &ui->views[ui->depth];
}

/* Frees what v shows, its filter with it. */
void
ui_free_view(struct view *v)
{
	if (v->ops != NULL && v->ops->free != NULL)
		v->ops->free(v);
	view_filter_free(v);
}

void
ui_push_view(struct ui *ui)
{
	if (ui->depth + 1 >= UI_MAXVIEWS) {
		/* Replace the top rather than grow without end. */
		ui_free_view(ui_top(ui));
		ui->depth--;
	}
	ui->depth++;
	memset(&ui->views[ui->depth], 0, sizeof(ui->views[ui->depth]));
}

void
ui_pop_view(struct ui *ui)
{
	if (ui->depth == 0)
		return;
	ui_free_view(ui_top(ui));
	ui->depth--;
}
