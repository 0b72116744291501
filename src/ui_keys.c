/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the explorer's keys do.  The table below is the one source for
 * the key handler, the help screen and (checked by a test) the KEYS
 * section of ltpscope(1).  A key whose meaning is the view's goes to
 * the view on top as a request (view_ops); what is here is the default.
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/ltpmeta.h"
#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

#define UI_CTRL(c)	((c) & 0x1f)
#define KEY_ESCAPE	0x1b

static size_t
ui_nrows(struct ui *ui)
{
	return view_rows(ui_top(ui));
}

/* Asks the view on top to do req; 1 when it did. */
static int
ui_request(struct ui *ui, enum ui_request req)
{
	struct view *v = ui_top(ui);

	return v->ops->request != NULL && v->ops->request(ui, v, req);
}

static void
key_down(struct ui *ui)
{
	struct view *v = ui_top(ui);

	if (ui->help)
		ui->help_top++;
	else if (ui->focus_pane)
		ui_pane_scroll(ui, 1);
	else if (v->cursor + 1 < ui_nrows(ui))
		v->cursor++;
}

static void
key_up(struct ui *ui)
{
	struct view *v = ui_top(ui);

	if (ui->help) {
		if (ui->help_top > 0)
			ui->help_top--;
	} else if (ui->focus_pane)
		ui_pane_scroll(ui, -1);
	else if (v->cursor > 0)
		v->cursor--;
}

static void
key_pgdown(struct ui *ui)
{
	struct view *v = ui_top(ui);
	size_t h = (size_t)ui_list_height(ui), n = ui_nrows(ui);

	if (ui->focus_pane) {
		ui_pane_scroll(ui, ui_pane_height(ui) - 2);
		return;
	}
	v->cursor = v->cursor + h < n ? v->cursor + h : (n ? n - 1 : 0);
	v->top += h;
}

static void
key_pgup(struct ui *ui)
{
	struct view *v = ui_top(ui);
	size_t h = (size_t)ui_list_height(ui);

	if (ui->focus_pane) {
		ui_pane_scroll(ui, -(ui_pane_height(ui) - 2));
		return;
	}
	v->cursor = v->cursor > h ? v->cursor - h : 0;
	v->top = v->top > h ? v->top - h : 0;
}

static void
key_top(struct ui *ui)
{
	struct view *v = ui_top(ui);

	if (ui->focus_pane) {
		ui->follow = 0;
		ui->pane_top = 0;
		ui->pane_mark = 0;
		return;
	}
	v->cursor = v->top = 0;
	ui->help_top = 0;
}

static void
key_bottom(struct ui *ui)
{
	size_t n = ui_nrows(ui);

	if (ui->focus_pane) {
		ui->follow = 1;
		ui->pane_mark = 0;
		return;
	}
	ui_top(ui)->cursor = n ? n - 1 : 0;
}

/*
 * "/": every key up to Enter or Esc is the pattern's, none a command;
 * ui->pattern keeps the filter to go back to.
 */
static void
key_filter(struct ui *ui)
{
	if (ui->focus_pane) {
		ui->prompting = UP_SEARCH;
		snprintf(ui->prompt, sizeof(ui->prompt), "%s", ui->search);
	} else {
		ui->help = 0;
		ui->prompting = UP_FILTER;
		snprintf(ui->pattern, sizeof(ui->pattern), "%s",
		    view_pattern(ui_top(ui)));
		snprintf(ui->prompt, sizeof(ui->prompt), "%s", ui->pattern);
	}
	ui->msg[0] = '\0';
	ui->msg_error = 0;
}

static void
key_next_match(struct ui *ui)
{
	if (!ui->focus_pane) {
		ui_triage_note(ui, 0);
		return;
	}
	if (ui->search[0] == '\0') {
		ui_message(ui, 0, "search the output first: /");
		return;
	}
	(void)ui_pane_search(ui, ui->search, 1);
}

static void
key_sort(struct ui *ui)
{
	(void)ui_request(ui, UR_SORT);
}

static void
key_state(struct ui *ui, enum ui_request req)
{
	if (!ui_request(ui, req))
		ui_message(ui, 0, "1 to 5 filter the catalogue by state");
}

static void
key_state_all(struct ui *ui)
{
	key_state(ui, UR_SHOW_ALL);
}

static void
key_state_impl(struct ui *ui)
{
	key_state(ui, UR_SHOW_IMPLEMENTED);
}

static void
key_state_unimpl(struct ui *ui)
{
	key_state(ui, UR_SHOW_UNIMPLEMENTED);
}

static void
key_state_obsol(struct ui *ui)
{
	key_state(ui, UR_SHOW_OBSOLETE);
}

static void
key_state_absent(struct ui *ui)
{
	key_state(ui, UR_SHOW_ABSENT);
}

static void
key_mark(struct ui *ui)
{
	if (ui_request(ui, UR_MARK))
		key_down(ui);
}

/*
 * What `ltpscope run` would rule out (and store as conf), said
 * beforehand: the same pre-check, with the kernel config a run uses.
 */
static void
ui_mark_notrun(struct ui *ui, struct ui_testrow *rows, size_t nrows)
{
	struct ltpmeta_env env;
	char why[512];
	size_t i;

	if (ui->suite.meta == NULL)
		return;
	ltpmeta_env_init(&env);
	env.kconfig = ltpmeta_kconfig_default(ui->os, ui->kconfig,
	    sizeof(ui->kconfig));
	env.ltproot = ui->suite.root;
	for (i = 0; i < nrows; i++)
		if (ltpmeta_runnable(ltpmeta_test(ui->suite.meta,
		    rows[i].tag), &env, why, sizeof(why)))
			rows[i].notrun = xstrdup(why);
	ltpmeta_env_free(&env);
}

void
ui_open_tests(struct ui *ui, const char *const *names, size_t n)
{
	struct ui_testrow *rows = NULL;
	size_t nrows = 0, i;
	struct view *v;

	if (ui_load_tests(&ui->suite, ui->store, names, n, &rows, &nrows) !=
	    0) {
		ui_message(ui, 1, "cannot read the results database");
		return;
	}
	if (nrows == 0) {
		ui_testrows_free(rows, nrows);
		ui_message(ui, 0, "no LTP test exercises %s%s (LTP in %s)",
		    n > 0 ? names[0] : "anything", n > 1 ? " and the rest" :
		    "", ui->suite.root ? ui->suite.root : "-");
		return;
	}
	for (i = 0; i < nrows; i++) {
		const char *why = skiplist_lookup(&ui->skip, rows[i].tag);

		if (why != NULL)
			rows[i].skip = xstrdup(why);
	}
	ui_mark_notrun(ui, rows, nrows);
	ui_triage_suggest_rows(ui, rows, nrows);
	ui_push_view(ui);
	v = ui_top(ui);
	view_tests_init(v, rows, nrows);
	if (n == 0)
		snprintf(v->title, sizeof(v->title), "all tests of the LTP "
		    "install: %zu", nrows);
	else if (n == 1)
		snprintf(v->title, sizeof(v->title), "tests of %s: %zu",
		    names[0], nrows);
	else
		snprintf(v->title, sizeof(v->title), "tests of %zu syscalls: "
		    "%zu", n, nrows);
}

static void
key_enter(struct ui *ui)
{
	(void)ui_request(ui, UR_ENTER);
}

static void
key_runs(struct ui *ui)
{
	struct ui_runrow *rows = NULL;
	size_t n = 0;

	if (ui_load_runs(ui->store, &rows, &n) != 0) {
		ui_message(ui, 1, "cannot read the runs");
		return;
	}
	ui_push_view(ui);
	view_runs_init(ui_top(ui), rows, n);
	snprintf(ui_top(ui)->title, sizeof(ui_top(ui)->title),
	    "runs: %zu in %s", n, ui->dbpath);
}

static void
key_all_tests(struct ui *ui)
{
	ui_open_tests(ui, NULL, 0);
}

static void
key_run(struct ui *ui)
{
	if (!ui_request(ui, UR_RUN))
		ui_message(ui, 0, "r runs the marked syscalls or tests");
}

static void
key_stop(struct ui *ui)
{
	ui_run_stop_test(ui);
}

static void
key_stop_all(struct ui *ui)
{
	ui_run_stop_all(ui);
}

static void
key_focus(struct ui *ui)
{
	if (!ui->pane_open) {
		ui->pane_open = 1;
		ui->detail = 0;
	}
	ui->focus_pane = !ui->focus_pane;
}

static void
key_pane(struct ui *ui)
{
	ui->pane_open = !ui->pane_open;
	ui->detail = 0;
	if (!ui->pane_open)
		ui->focus_pane = 0;
}

static void
key_detail(struct ui *ui)
{
	ui->detail = !ui->detail;
	if (ui->detail)
		ui->focus_pane = 0;
}

static void
key_follow(struct ui *ui)
{
	ui->follow = 1;
	if (ui->eng != NULL && !ui->pane_live) {
		ui->pane_live = 1;
		ui_pane_clear(ui, "live output: the next test");
	}
	ui->pane_open = 1;
	ui->detail = 0;
}

static void
key_cmdline(struct ui *ui)
{
	ui_cmdline(ui);
}

static void
key_help(struct ui *ui)
{
	ui->help = !ui->help;
	ui->help_top = 0;
}

static void
key_redraw(struct ui *ui)
{
	(void)ui;
	clearok(curscr, TRUE);
}

static void
key_back(struct ui *ui)
{
	if (ui->help)
		ui->help = 0;
	else if (ui->focus_pane)
		ui->focus_pane = 0;
	else if (ui->depth > 0)
		ui_pop_view(ui);
}

/* Esc: a list's filter goes first, as it came last. */
static void
key_escape(struct ui *ui)
{
	char err[8];

	if (!ui->help && !ui->focus_pane &&
	    view_pattern(ui_top(ui))[0] != '\0')
		(void)view_filter_set(ui_top(ui), "", err, sizeof(err));
	else
		key_back(ui);
}

static void
key_quit_now(struct ui *ui)
{
	if (ui->eng != NULL) {
		ui_ask(ui, UC_QUIT_RUNNING, "A run is in progress. Stop it and "
		    "quit? (it can be resumed later)");
		return;
	}
	ui->quit = 1;
}

/* q: help closes, a view goes back; only the last one quits. */
static void
key_quit(struct ui *ui)
{
	if (ui->help) {
		ui->help = 0;
		return;
	}
	if (ui->depth > 0 || ui->focus_pane) {
		key_back(ui);
		return;
	}
	key_quit_now(ui);
}

static void
key_tag(struct ui *ui)
{
	ui_triage_pick(ui);
}

static void
key_note_editor(struct ui *ui)
{
	ui_triage_note(ui, 1);
}

static void
key_accept(struct ui *ui)
{
	ui_triage_accept(ui);
}

static void
key_compare(struct ui *ui)
{
	ui_triage_compare(ui);
}

static void
key_shoplist(struct ui *ui)
{
	ui_triage_shoplist(ui);
}

static void
key_profile(struct ui *ui)
{
	ui_profile_screen(ui);
}

static void
key_export(struct ui *ui)
{
	ui_triage_export(ui);
}

static void
key_jobs(struct ui *ui)
{
	ui->jobs = ui->jobs >= 4 ? 1 : ui->jobs * 2;
	ui_message(ui, 0, "runs started from now on: %d test%s at a time "
	    "(those LTP's metadata says are safe side by side)", ui->jobs,
	    ui->jobs == 1 ? "" : "s");
}

static void
key_worker(struct ui *ui)
{
	const char *tag;
	size_t n;

	if (ui->eng == NULL || (n = engine_workers(ui->eng)) < 2) {
		ui_message(ui, 0, "w picks the worker the output pane shows, "
		    "in a parallel run (J)");
		return;
	}
	ui->worker_sel = (ui->worker_sel + 1) % n;
	tag = engine_worker_tag(ui->eng, ui->worker_sel);
	ui_pane_clear(ui, "");
	snprintf(ui->pane_title, sizeof(ui->pane_title), "worker %zu: %s",
	    ui->worker_sel + 1, tag != NULL ? tag : "idle");
	if (tag != NULL)
		snprintf(ui->pane_tag, sizeof(ui->pane_tag), "%s", tag);
	ui->pane_live = 1;
	ui->follow = 1;
}

static void
key_view_source(struct ui *ui)
{
	ui_source_key(ui, 0);
}

static void
key_edit_source(struct ui *ui)
{
	ui_source_key(ui, 1);
}

static void
key_kfunc(struct ui *ui)
{
	ui_kfunc_key(ui, 0);
}

static void
key_kfunc_edit(struct ui *ui)
{
	ui_kfunc_key(ui, 1);
}

static void
key_baseline(struct ui *ui)
{
	if (!ui_request(ui, UR_BASELINE))
		ui_message(ui, 0, "b marks a run as the baseline: R, then b "
		    "on the run");
}

const struct ui_key ui_keys[] = {
	{ 'j', "j, Down", "move down (scroll the output when it has focus)",
	    key_down },
	{ KEY_DOWN, NULL, NULL, key_down },
	{ 'k', "k, Up", "move up", key_up },
	{ KEY_UP, NULL, NULL, key_up },
	{ KEY_NPAGE, "PgDn, ^F", "page down", key_pgdown },
	{ UI_CTRL('f'), NULL, NULL, key_pgdown },
	{ KEY_PPAGE, "PgUp, ^B", "page up", key_pgup },
	{ UI_CTRL('b'), NULL, NULL, key_pgup },
	{ 'g', "g, Home", "go to the first row or line", key_top },
	{ KEY_HOME, NULL, NULL, key_top },
	{ 'G', "G, End", "go to the last row; in the output, follow it",
	    key_bottom },
	{ KEY_END, NULL, NULL, key_bottom },
	{ '\r', "Enter", "open: a syscall's tests, a test's output, a run's "
	    "results", key_enter },
	{ '\n', NULL, NULL, key_enter },
	{ KEY_ENTER, NULL, NULL, key_enter },
	{ 'h', "h, Left", "back to the previous view", key_back },
	{ KEY_LEFT, NULL, NULL, key_back },
	{ KEY_BACKSPACE, NULL, NULL, key_back },
	{ KEY_ESCAPE, "Esc", "clear the list's filter; without one, back",
	    key_escape },
	{ '/', "/", "filter the list by a regular expression (pcre2, any "
	    "case); in the output, search", key_filter },
	{ 'n', "n", "write a note on the tagged test; in the output, the "
	    "next match of the search", key_next_match },
	{ 's', "s", "sort the catalogue by number, name or state", key_sort },
	{ '1', "1", "show all states", key_state_all },
	{ '2', "2", "show implemented calls only", key_state_impl },
	{ '3', "3", "show unimplemented calls only", key_state_unimpl },
	{ '4', "4", "show obsolete calls only", key_state_obsol },
	{ '5', "5", "show calls absent from the table", key_state_absent },
	{ ' ', "Space", "mark or unmark the syscall or test", key_mark },
	{ 'r', "r", "run the LTP tests of the marked syscalls or tests (or "
	    "the one under the cursor)", key_run },
	{ 'x', "x", "stop the running test", key_stop },
	{ 'X', "X", "stop the whole run (resumable)", key_stop_all },
	{ 't', "t", "tag the test (or the marked ones) with a category; in "
	    "the output, the line at its top", key_tag },
	{ 'N', "N", "edit the test's note in $EDITOR", key_note_editor },
	{ 'A', "A", "accept the suggested category of the test (or the "
	    "marked ones)", key_accept },
	{ 'C', "C", "compare the newest run with the baseline", key_compare },
	{ 'S', "S", "the shopping list: failures by category", key_shoplist },
	{ 'P', "P", "a program profile: its calls' states, tests and verdict "
	    "(again: the next profile)", key_profile },
	{ 'v', "v", "the test's source (ltp-src) at the output line's "
	    "file:line, the line marked", key_view_source },
	{ 'e', "e", "the same in $EDITOR (else $PAGER) at the line",
	    key_edit_source },
	{ 'K', "K", "the syscall's NetBSD kernel function (kernel-src), its "
	    "definition marked; on a test, its syscall's", key_kfunc },
	{ 'F', "F", "the same in $EDITOR (else $PAGER) at the line",
	    key_kfunc_edit },
	{ 'E', "E", "export the shopping list (.csv .md .json .html)",
	    key_export },
	{ 'b', "b", "in the runs: make the run the baseline", key_baseline },
	{ 'J', "J", "tests at a time in the next run: 1, 2, 4 (parallel-safe "
	    "ones only)", key_jobs },
	{ 'w', "w", "in a parallel run, the worker whose output the pane "
	    "shows", key_worker },
	{ 'T', "T", "all tests of the LTP install", key_all_tests },
	{ 'R', "R", "the runs in the results database", key_runs },
	{ '\t', "Tab", "move the focus between the list and the output",
	    key_focus },
	{ 'o', "o", "open or close the output pane", key_pane },
	{ 'd', "d", "open or close the syscall's details", key_detail },
	{ 'f', "f", "follow the running test's output", key_follow },
	{ ':', ":", "command line: any subcommand, e.g. run -s open",
	    key_cmdline },
	{ '?', "?", "show this help", key_help },
	{ UI_CTRL('l'), "^L", "redraw the screen", key_redraw },
	{ 'q', "q", "back, or quit in the catalogue", key_quit },
	{ 'Q', "Q", "quit from anywhere", key_quit_now },
	{ 0, NULL, NULL, NULL }
};

/* Applies the prompt as typed so far; the filter is incremental. */
static void
ui_prompt_apply(struct ui *ui)
{
	char err[256];
	int rc;

	if (ui->prompting == UP_SEARCH)
		return;
	rc = view_filter_set(ui_top(ui), ui->prompt, err, sizeof(err));
	if (rc < 0)
		ui_message(ui, 1, "bad pattern: %s", err);
	else if (rc > 0)
		ui_message(ui, 0, "%d row%s hidden: the pattern hit the match "
		    "limit there", rc, rc == 1 ? "" : "s");
	else {
		ui->msg[0] = '\0';
		ui->msg_error = 0;
	}
}

static void
ui_confirm_key(struct ui *ui, int ch)
{
	int yes = ch == 'y' || ch == 'Y';

	if (!yes && ch != 'n' && ch != 'N' && ch != KEY_ESCAPE &&
	    ch != UI_CTRL('g'))
		return;
	ui->prompting = UP_NONE;
	switch (ui->confirm) {
	case UC_QUIT_RUNNING:
		if (yes) {
			ui_run_stop_all(ui);
			ui->quit = 1;
		}
		break;
	case UC_RESUME:
		if (yes)
			ui_run_resume(ui, ui->confirm_run);
		else
			ui_message(ui, 0, "not resumed: ltpscope run --resume "
			    "does it later");
		break;
	case UC_TAG_PASSED:
		if (yes)
			ui_triage_picker(ui);
		else
			ui_message(ui, 0, "not tagged");
		break;
	}
}

static void
ui_prompt_key(struct ui *ui, int ch)
{
	size_t len = strlen(ui->prompt);
	char *keep = ui->prompting == UP_SEARCH ? ui->search : ui->pattern;

	switch (ch) {
	case KEY_ESCAPE:
	case UI_CTRL('g'):
		snprintf(ui->prompt, sizeof(ui->prompt), "%s", keep);
		ui_prompt_apply(ui);
		ui->prompting = UP_NONE;
		return;
	case '\n':
	case '\r':
	case KEY_ENTER:
		if (ui->prompting == UP_SEARCH) {
			ui->prompting = UP_NONE;
			snprintf(ui->search, sizeof(ui->search), "%s",
			    ui->prompt);
			(void)ui_pane_search(ui, ui->search, 1);
			return;
		}
		ui_prompt_apply(ui);
		ui->prompting = UP_NONE;
		if (ui->msg_error) {
			/* Keep the last good pattern rather than none. */
			snprintf(ui->prompt, sizeof(ui->prompt), "%s", keep);
			ui_prompt_apply(ui);
			ui_message(ui, 1, "pattern not applied: it does not "
			    "compile");
		}
		return;
	case KEY_BACKSPACE:
	case 0x7f:
	case UI_CTRL('h'):
		if (len > 0)
			ui->prompt[len - 1] = '\0';
		break;
	case UI_CTRL('u'):
		ui->prompt[0] = '\0';
		break;
	default:
		if (ch >= 0x20 && ch < 0x100 && ch != 0x7f &&
		    len + 1 < sizeof(ui->prompt)) {
			ui->prompt[len] = (char)ch;
			ui->prompt[len + 1] = '\0';
		} else
			return;
	}
	ui_prompt_apply(ui);
}

#ifdef HAVE_CURSES_MOUSE
static void
ui_mouse(struct ui *ui)
{
	MEVENT ev;
	struct view *v = ui_top(ui);
	int h = ui_list_height(ui);

	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & BUTTON4_PRESSED) {
		key_up(ui);
		key_up(ui);
		key_up(ui);
	} else if (ev.bstate & BUTTON5_PRESSED) {
		key_down(ui);
		key_down(ui);
		key_down(ui);
	} else if (ev.y >= 2 && ev.y < 2 + h) {
		size_t row = v->top + (size_t)(ev.y - 2);

		ui->focus_pane = 0;
		if (row < ui_nrows(ui))
			v->cursor = row;
		if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
			key_enter(ui);
	} else if (ev.y > 2 + h && ev.y < LINES - 1)
		ui->focus_pane = 1;
}
#endif

void
ui_key(struct ui *ui, int ch)
{
	const struct ui_key *k;

	if (ui->prompting == UP_CONFIRM) {
		ui_confirm_key(ui, ch);
		return;
	}
	if (ui->prompting != UP_NONE) {
		ui_prompt_key(ui, ch);
		return;
	}
	ui->msg[0] = '\0';
	ui->msg_error = 0;
	if (ui->help && (ch == KEY_ESCAPE || ch == '?')) {
		ui->help = 0;
		return;
	}
	if (ch == KEY_RESIZE)
		return;
#ifdef HAVE_CURSES_MOUSE
	if (ch == KEY_MOUSE) {
		ui_mouse(ui);
		return;
	}
#endif
	for (k = ui_keys; k->fn != NULL; k++)
		if (k->key == ch) {
			k->fn(ui);
			return;
		}
	ui_message(ui, 0, "no action for that key; press ? for help");
}
