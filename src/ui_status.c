/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's status line: a message, an error from the core's
 * diagnostics, a y/n question.  Below the explorer's loop (ui.c) and
 * everything else that says something there.
 */
#include <stdarg.h>
#include <stdio.h>

#include "ltpscope/diag.h"
#include "ui_priv.h"

void
ui_message(struct ui *ui, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg, sizeof(ui->msg), fmt, ap);
	va_end(ap);
	ui->msg_error = error;
}

void
ui_message_diag(struct ui *ui, const struct diaglist *dl,
    enum ui_diag_form form, const char *fallback, const char *fmt, ...)
{
	const struct diag *d = diag_first_error(dl);
	char lead[256], text[512];
	va_list ap;

	if (d == NULL && dl->n > 0)
		d = &dl->v[0];
	if (d == NULL)
		snprintf(text, sizeof(text), "%s", fallback != NULL ?
		    fallback : "failed");
	else if (form == UD_WHERE)
		(void)diag_format(d, text, sizeof(text));
	else
		snprintf(text, sizeof(text), "%s", d->msg);
	if (fmt == NULL) {
		ui_message(ui, 1, "%s", text);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(lead, sizeof(lead), fmt, ap);
	va_end(ap);
	ui_message(ui, 1, "%s: %s", lead, text);
}

void
ui_ask(struct ui *ui, enum ui_confirm what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->confirm_text, sizeof(ui->confirm_text), fmt, ap);
	va_end(ap);
	ui->confirm = what;
	ui->prompting = UP_CONFIRM;
}
