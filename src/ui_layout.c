/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's screen, in rows: what the output or detail pane gets,
 * and what is left for the list under the title and header and above
 * the status line.
 */
#include <curses.h>

#include "ui_priv.h"

/* Height of the output or detail pane, its title line included. */
int
ui_pane_height(struct ui *ui)
{
	int h = LINES - 3;

	if (!ui->pane_open && !ui->detail)
		return 0;
	h = h * 2 / 5;
	if (h < 4)
		h = LINES - 3 >= 8 ? 4 : 0;
	return h;
}

/* Rows the list gets: all but title, header, status and the pane. */
int
ui_list_height(struct ui *ui)
{
	int h = LINES - 3 - ui_pane_height(ui);

	return h > 1 ? h : 1;
}
