/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The Profile screen (P): a program profile held against the catalogue
 * the explorer shows and the latest results in its database, as
 * "ltpscope profile show" prints it, verdict first.  P again on the
 * screen shows the next profile, so several programs need no picker.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/profile.h"
#include "ltpscope/store_triage.h"
#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

#define PROFILE_TITLE	"profile "

/* Which profile to show: the one after the profile on screen, if any. */
static size_t
ui_profile_pick(struct ui *ui, char **names, size_t n)
{
	const char *title = ui_top(ui)->title;
	size_t i, len;

	if (ui_top(ui)->ops != &view_text_ops ||
	    strncmp(title, PROFILE_TITLE, strlen(PROFILE_TITLE)) != 0)
		return 0;
	title += strlen(PROFILE_TITLE);
	len = strcspn(title, ":");
	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && strncmp(names[i], title, len) ==
		    0) {
			ui_pop_view(ui);
			return (i + 1) % n;
		}
	return 0;
}

static enum theme_elem
row_elem(const struct profile_row *r)
{
	if (r->suspect || (r->known && !r->implemented))
		return TE_FAIL;
	if (!r->known)
		return TE_WARN;
	return r->nbad > 0 ? TE_BROKEN : TE_NORMAL;
}

static void
ui_profile_fill(struct view *v, const struct profile *p,
    const struct profile_report *rp, const char *abi)
{
	const struct profile_row *r;
	struct profile_cells c;
	size_t i;

	view_text_add(v, TE_TITLE, NULL, 0, "verdict: %s", rp->verdict);
	for (i = 0; i < rp->nrows; i++) {
		r = &rp->rows[i];
		profile_row_cells(r, &c);
		view_text_add(v, row_elem(r), r->call->name, 0,
		    "  %-20s %7lu  %-20s %-19s %-14s %s", c.name,
		    r->call->count, c.errs, r->state, c.tests, c.notes);
	}
	(void)snprintf(v->title, sizeof(v->title), PROFILE_TITLE "%s: %zu "
	    "calls on %s, from %s (P: next profile)", p->name, p->ncalls,
	    abi != NULL ? abi : "any arch", p->source);
}

void
ui_profile_screen(struct ui *ui)
{
	struct profile p;
	struct profile_report rp;
	struct diaglist dl;
	struct store_result *res = NULL;
	struct triage_tag *tags = NULL;
	struct catalogue *cat;
	struct view *v;
	char **names = NULL, abibuf[64];
	const char *abi;
	size_t n = 0, nres = 0, ntags = 0, k;

	if (ui->store == NULL) {
		ui_message(ui, 1, "no results database, so no profiles");
		return;
	}
	diag_init(&dl);
	if (store_profile_names(ui->store, &names, &n, &dl) != STORE_OK ||
	    n == 0) {
		ui_message_diag(ui, &dl, UD_TEXT, "no profiles yet: ltpscope "
		    "profile import TRACE", NULL);
		/* None stored is no error. */
		ui->msg_error = n > 0 || dl.nerrors > 0;
		goto out;
	}
	k = ui_profile_pick(ui, names, n);
	if (store_profile_get(ui->store, names[k], &p, &dl) != STORE_OK) {
		ui_message_diag(ui, &dl, UD_TEXT, "no profile", NULL);
		goto out;
	}
	/* Without results the report still has the trace and the states. */
	(void)store_latest_results(ui->store, &res, &nres, &dl);
	(void)store_tags_list(ui->store, 0, NULL, &tags, &ntags, &dl);
	cat = ui->have_suite ? ui->suite.cat : NULL;
	abi = profile_abi(cat, NULL, abibuf, sizeof(abibuf));
	profile_report_build(&rp, &p, cat != NULL && catalogue_count(cat) >
	    0 ? cat : NULL, abi, res, nres, tags, ntags);
	ui_push_view(ui);
	v = ui_top(ui);
	view_text_init(v, "  CALL                   COUNT  ERRORS"
	    "               STATE               TESTS          TAGS / FLAGS",
	    ui_triage_open_row);
	ui_profile_fill(v, &p, &rp, abi);
	profile_report_free(&rp);
	profile_free(&p);
out:
	store_results_free(res, nres);
	store_tags_free(tags, ntags);
	xfreev(names);
	diag_free(&dl);
}
