/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Triage in the explorer: tagging a failure with a category (t), its
 * note (n on the bottom line, N in $EDITOR), accepting a rule's
 * suggestion (A), the Compare screen (C), the Shopping list (S) and its
 * export (E).  The work is the core's (store_triage, rules, compare,
 * export); this file only asks and shows.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <curses.h>
#include <errno.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/archmatrix.h"
#include "ltpscope/compare.h"
#include "ltpscope/export.h"
#include "ltpscope/store_triage.h"
#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

void
ui_triage_load(struct ui *ui)
{
	struct diaglist dl;

	if (ui->cats != NULL)
		return;
	diag_init(&dl);
	ui->cats = xcalloc(1, sizeof(*ui->cats));
	categories_init(ui->cats);
	(void)categories_load_default(ui->cats, &dl);
	ui->rules = rules_new();
	(void)rules_load_default(ui->rules, &dl);
	if (dl.nerrors > 0)
		ui_message_diag(ui, &dl, UD_WHERE, NULL, NULL);
	diag_free(&dl);
}

void
ui_triage_free(struct ui *ui)
{
	size_t i;

	if (ui->cats != NULL) {
		categories_free(ui->cats);
		free(ui->cats);
	}
	if (ui->rules != NULL)
		rules_free(ui->rules);
	for (i = 0; i < ui->npick; i++)
		free(ui->pick_tags[i]);
	free(ui->pick_tags);
	free(ui->pick_line);
	ui->cats = NULL;
	ui->rules = NULL;
}

/* A rule's guess for each untagged failure, shown dimmed beside it. */
void
ui_triage_suggest_rows(struct ui *ui, struct ui_testrow *rows, size_t n)
{
	struct rules_suggestion sg;
	struct store_output out;
	struct diaglist dl;
	size_t i;

	ui_triage_load(ui);
	diag_init(&dl);
	for (i = 0; i < n; i++) {
		rows[i].suggest[0] = '\0';
		if (!rows[i].has_result || rows[i].category[0] != '\0' ||
		    !test_status_is_bad(rows[i].status))
			continue;
		memset(&out, 0, sizeof(out));
		if (store_get_output(ui->store, rows[i].result_id, &out, &dl) !=
		    STORE_OK)
			continue;
		memset(&sg, 0, sizeof(sg));
		if (rules_suggest(ui->rules, rows[i].tag, rows[i].syscall,
		    out.data, out.stored_size, &sg, &dl) == 1 && sg.rule)
			snprintf(rows[i].suggest, sizeof(rows[i].suggest),
			    "%s", sg.rule->category);
		rules_suggestion_clear(&sg);
		store_output_clear(&out);
	}
	diag_free(&dl);
}

/* The triage changed: every view on the stack shows it. */
static void
ui_triage_refresh(struct ui *ui)
{
	struct view *v;
	size_t i;

	for (i = 1; i <= (size_t)ui->depth; i++) {
		v = &ui->views[i];
		if (v->ops->reload != NULL)
			v->ops->reload(ui, v, NULL);
	}
	ui_catalogue_results(&ui->suite, ui->store, ui->rows, ui->nrows);
}

/* The tests t and n act on: the marked ones, or the cursor's. */
static struct ui_testrow **
ui_triage_targets(struct ui *ui, size_t *np)
{
	struct view *v = ui_top(ui);

	*np = 0;
	if (v->ops->marked_tests == NULL) {
		ui_message(ui, 0, "tag tests from a list of tests: Enter on a "
		    "syscall, or R and a run");
		return NULL;
	}
	return v->ops->marked_tests(v, np);
}

/*
 * The picker: one row a category, want's first, under the title the
 * caller writes.
 */
static struct view *
ui_picker_push(struct ui *ui, const char *want)
{
	const struct category *c;
	struct view *v;
	size_t i;

	ui_push_view(ui);
	v = ui_top(ui);
	view_text_init(v, "  CATEGORY          MEANING", ui_triage_picked);
	for (i = 0; i < ui->cats->n; i++) {
		c = &ui->cats->v[i];
		view_text_add(v, TE_NORMAL, c->name, 0, "  %-17s %s%s", c->name,
		    c->meaning, c->shopping ? "" : " (not on the shopping "
		    "list)");
		if (strcmp(c->name, want) == 0)
			v->cursor = i;
	}
	return v;
}

void
ui_triage_picker(struct ui *ui)
{
	struct view *v;
	char left[64] = "";

	if (ui->npick == 0)
		return;
	if (ui->pick_left > 0)
		snprintf(left, sizeof(left), "; %zu that passed left out",
		    ui->pick_left);
	v = ui_picker_push(ui, ui->pick_want);
	snprintf(v->title, sizeof(v->title), "category for %s%s (Enter "
	    "picks, q cancels%s)", ui->pick_tags[0], ui->npick > 1 ?
	    " and the marked" : "", left);
}

/* A result that passed has nothing to triage, as a rule. */
static int
ui_passed(const struct ui_testrow *r)
{
	return r->has_result && r->status == TS_PASS;
}

/*
 * The tests t tags: of the marked, those that passed are left out
 * (and counted); when all of them passed, the user is asked first.
 */
static void
ui_triage_pick_tests(struct ui *ui, struct ui_testrow **t, size_t n)
{
	size_t i, npass = 0;

	for (i = 0; i < n; i++)
		npass += ui_passed(t[i]);
	ui->pick_tags = xreallocarray(ui->pick_tags, n, sizeof(char *));
	for (i = 0; i < n; i++)
		if (npass == n || !ui_passed(t[i]))
			ui->pick_tags[ui->npick++] = xstrdup(t[i]->tag);
	ui->pick_left = npass < n ? npass : 0;
	for (i = 0; i < n && npass < n && ui_passed(t[i]); i++)
		continue;
	snprintf(ui->pick_want, sizeof(ui->pick_want), "%s",
	    t[i]->category[0] ? t[i]->category : t[i]->suggest);
	if (npass < n)
		ui_triage_picker(ui);
	else if (n == 1)
		ui_ask(ui, UC_TAG_PASSED, "%s passed: tag it anyway?",
		    t[0]->tag);
	else
		ui_ask(ui, UC_TAG_PASSED, "%zu marked tests all passed: tag "
		    "them anyway?", n);
}

void
ui_triage_pick(struct ui *ui)
{
	struct ui_testrow **t;
	struct view *v;
	size_t n, i;

	ui_triage_load(ui);
	for (i = 0; i < ui->npick; i++)
		free(ui->pick_tags[i]);
	ui->npick = 0;
	ui->pick_left = 0;
	free(ui->pick_line);
	ui->pick_line = NULL;
	if (ui->focus_pane && ui->pane_tag[0] != '\0') {
		/* The line a search found, else the pane's top one. */
		const char *text = linering_get(ui->ring,
		    ui_pane_current(ui), NULL, NULL);

		if (text == NULL) {
			ui_message(ui, 0, "no line to tag");
			return;
		}
		ui->pick_tags = xreallocarray(ui->pick_tags, 1,
		    sizeof(char *));
		ui->pick_tags[0] = xstrdup(ui->pane_tag);
		ui->pick_line = xstrdup(text);
		ui->npick = 1;
		v = ui_picker_push(ui, "");
		snprintf(v->title, sizeof(v->title), "category for this line "
		    "of %s: %.60s", ui->pane_tag, text);
		return;
	}
	if ((t = ui_triage_targets(ui, &n)) != NULL && n > 0)
		/* It copies what it keeps: the picker's push may free t's. */
		ui_triage_pick_tests(ui, t, n);
	free(t);
}

/* As the tag subcommand: LTPSCOPE_AUTHOR, USER, LOGNAME, the passwd. */
static const char *
ui_author(void)
{
	const char *const vars[] = { "LTPSCOPE_AUTHOR", "USER", "LOGNAME" };
	const char *u;
	struct passwd *pw;
	size_t i;

	for (i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if ((u = getenv(vars[i])) != NULL && *u != '\0')
			return u;
	pw = getpwuid(getuid());
	return pw != NULL ? pw->pw_name : "unknown";
}

/* Tags one test, keeping the note it had. */
static int
ui_triage_set(struct ui *ui, const char *test, const char *line,
    const char *category, const char *note, struct diaglist *dl)
{
	struct triage_tag tag, *old = NULL;
	struct store_result res;
	size_t nold = 0;
	int rv;

	memset(&tag, 0, sizeof(tag));
	tag.tag = (char *)test;
	tag.line = (char *)(line != NULL ? line : "");
	tag.author = (char *)ui_author();
	tag.status_at = -1;
	memset(&res, 0, sizeof(res));
	(void)store_tags_list(ui->store, 0, test, &old, &nold, dl);
	tag.category = (char *)(category != NULL ? category : nold > 0 ?
	    old[0].category : "");
	tag.note = (char *)(note != NULL ? note : nold > 0 ? old[0].note :
	    "");
	if (tag.category[0] == '\0') {
		store_tags_free(old, nold);
		return -2;
	}
	{
		struct store_result *h = NULL;
		size_t nh = 0;

		if (store_test_history(ui->store, test, 1, &h, &nh, dl) ==
		    STORE_OK && nh > 0) {
			tag.run_id = h[0].run_id;
			tag.status_at = (int)h[0].status;
		}
		store_results_free(h, nh);
	}
	rv = store_tag_set(ui->store, &tag, dl);
	store_tags_free(old, nold);
	return rv == STORE_OK ? 0 : -1;
}

void
ui_triage_picked(struct ui *ui)
{
	struct ui_textrow *r = view_text_current(ui_top(ui));
	struct diaglist dl;
	char *cat, left[64] = "";
	size_t i;
	int bad = 0;

	if (r == NULL || r->key == NULL)
		return;
	if (ui->pick_left > 0)
		snprintf(left, sizeof(left), "; %zu that passed left untagged",
		    ui->pick_left);
	cat = xstrdup(r->key);
	ui_pop_view(ui);
	diag_init(&dl);
	for (i = 0; i < ui->npick; i++)
		if (ui_triage_set(ui, ui->pick_tags[i], ui->pick_line, cat,
		    NULL, &dl) != 0)
			bad++;
	if (bad > 0 && dl.n > 0)
		ui_message_diag(ui, &dl, UD_TEXT, NULL, NULL);
	else
		ui_message(ui, 0, "%s tagged %s%s%s", ui->pick_tags[0], cat,
		    ui->pick_line != NULL ? " (that line)" : ui->npick > 1 ?
		    " (with the marked)" : "", left);
	diag_free(&dl);
	free(cat);
	ui_triage_refresh(ui);
}

/* A note typed on the bottom line, or written in $EDITOR. */
void
ui_triage_note(struct ui *ui, int editor)
{
	struct ui_testrow **t;
	struct triage_tag *old = NULL;
	struct diaglist dl;
	size_t n, nold = 0, len;
	char *note = NULL, path[] = "/tmp/ltpscope-note.XXXXXX";
	const char *ed;
	int fd, rv;

	if ((t = ui_triage_targets(ui, &n)) == NULL || n == 0) {
		free(t);
		return;
	}
	diag_init(&dl);
	(void)store_tags_list(ui->store, 0, t[0]->tag, &old, &nold, &dl);
	if (nold == 0) {
		ui_message(ui, 1, "%s has no category yet: t tags it first",
		    t[0]->tag);
		goto out;
	}
	if (!editor)
		note = ui_readline(ui, "note: ", 0);
	else {
		if ((fd = mkstemp(path)) == -1) {
			ui_message(ui, 1, "%s: %s", path, strerror(errno));
			goto out;
		}
		len = strlen(old[0].note);
		if (write(fd, old[0].note, len) != (ssize_t)len)
			ui_message(ui, 1, "%s: %s", path, strerror(errno));
		close(fd);
		if ((ed = getenv("VISUAL")) == NULL || *ed == '\0')
			if ((ed = getenv("EDITOR")) == NULL || *ed == '\0')
				ed = "vi";
		def_prog_mode();
		endwin();
		{
			char cmd[2048];

			snprintf(cmd, sizeof(cmd), "%s '%s'", ed, path);
			rv = system(cmd);
		}
		reset_prog_mode();
		clearok(curscr, TRUE);
		refresh();
		if (rv == 0)
			note = triage_slurp(path, &len);
		unlink(path);
	}
	if (note == NULL)
		goto out;
	if (ui_triage_set(ui, t[0]->tag, NULL, NULL, note, &dl) != 0)
		ui_message_diag(ui, &dl, UD_TEXT, "?", "note not saved");
	else
		ui_message(ui, 0, "note saved on %s", t[0]->tag);
	free(note);
	ui_triage_refresh(ui);
out:
	store_tags_free(old, nold);
	diag_free(&dl);
	free(t);
}

/* A: the rule's suggestion becomes the test's category. */
void
ui_triage_accept(struct ui *ui)
{
	struct ui_testrow **t;
	struct diaglist dl;
	size_t n, i, done = 0;

	if ((t = ui_triage_targets(ui, &n)) == NULL || n == 0) {
		free(t);
		return;
	}
	diag_init(&dl);
	for (i = 0; i < n; i++)
		if (t[i]->suggest[0] != '\0' && ui_triage_set(ui, t[i]->tag, NULL,
		    t[i]->suggest, NULL, &dl) == 0)
			done++;
	if (done == 0)
		ui_message(ui, 0, "no suggestion to accept here");
	else
		ui_message(ui, 0, "accepted %zu suggestion%s", done,
		    done == 1 ? "" : "s");
	diag_free(&dl);
	free(t);
	ui_triage_refresh(ui);
}

static enum theme_elem
ui_cmp_elem(enum cmp_kind k)
{
	switch (k) {
	case CMP_REGRESSED:
		return TE_FAIL;
	case CMP_FIXED:
		return TE_PASS;
	case CMP_CHANGED:
		return TE_WARN;
	case CMP_NEW:
	case CMP_REMOVED:
		return TE_INFO;
	default:
		return TE_DIM;
	}
}

static const char *
ui_st_name(int s)
{
	return s < 0 ? "-" : test_status_name(s);
}

/* The C view's pairwise part: what changed from run a to run b. */
static void
ui_compare_pair(struct view *v, const struct cmp_result *cr)
{
	size_t i, k;
	static const enum cmp_kind order[] = {
		CMP_REGRESSED, CMP_FIXED, CMP_CHANGED, CMP_NEW, CMP_REMOVED
	};

	for (i = 0; i < cr->nwarnings; i++)
		view_text_add(v, TE_WARN, NULL, 0, "  warning: %s",
		    cr->warnings[i]);
	if (cr->linux_run != 0)
		view_text_add(v, TE_INFO, NULL, 0, "  Linux reference: run %"
		    PRId64 "; %u failing here fail on Linux too (listed last)",
		    cr->linux_run, cr->nlinux_too);
	/* Each kind: compat_linux's own first, Linux's failures after. */
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (i = 0; i < 2 * cr->n; i++) {
			const struct cmp_item *it = &cr->v[i % cr->n];

			if (it->kind != order[k] ||
			    it->linux_too != (i >= cr->n))
				continue;
			view_text_add(v, it->linux_too ? TE_DIM :
			    ui_cmp_elem(it->kind), it->tag, 0,
			    "  %-10s %-20s %-14s %-10s %-10s%s%s",
			    cmp_kind_name(it->kind), it->tag, it->syscall,
			    ui_st_name(it->status_a), ui_st_name(it->status_b),
			    it->flaky ? " flaky" : "", it->linux_too ?
			    " fails on Linux too" : "");
		}
	if (cr->n == 0 || cr->counts[CMP_SAME] == cr->n)
		view_text_add(v, TE_DIM, NULL, 0, "  (no test changed)");
}

/*
 * The C view's per-arch part (archmatrix.h): each test failing on some
 * arch, its scope, then its status on each arch's newest run.
 */
static void
ui_compare_arches(struct view *v, const struct archmatrix *m)
{
	static const enum amx_scope order[] = {
		AMX_SPECIFIC, AMX_EVERY, AMX_UNSURE
	};
	char cells[512];
	size_t c, i, k, len;

	len = 0;
	cells[0] = '\0';
	for (c = 0; c < m->ncols && len < sizeof(cells); c++)
		len += (size_t)snprintf(cells + len, sizeof(cells) - len,
		    " %-8.8s", m->cols[c].run.arch);
	view_text_add(v, TE_TITLE, NULL, 0, "per arch, the newest finished "
	    "run of each: %u arch-specific, %u on every arch, %u unsure",
	    m->counts[AMX_SPECIFIC], m->counts[AMX_EVERY],
	    m->counts[AMX_UNSURE]);
	view_text_add(v, TE_HEADER, NULL, 0, "  %-13s %-20s %-14s%s",
	    "WHERE", "TEST", "SYSCALL", cells);
	for (k = 0; k < sizeof(order) / sizeof(order[0]); k++)
		for (i = 0; i < m->nrows; i++) {
			const struct amx_row *r = &m->rows[i];

			if (r->scope != order[k])
				continue;
			len = 0;
			cells[0] = '\0';
			for (c = 0; c < m->ncols && len < sizeof(cells); c++)
				len += (size_t)snprintf(cells + len,
				    sizeof(cells) - len, " %-8.8s",
				    ui_st_name(r->status[c]));
			view_text_add(v, r->scope == AMX_SPECIFIC ? TE_FAIL :
			    TE_DIM, r->tag, 0, "  %-13s %-20s %-14s%s",
			    amx_scope_name(r->scope), r->tag, r->syscall,
			    cells);
		}
	if (m->counts[AMX_SPECIFIC] + m->counts[AMX_EVERY] +
	    m->counts[AMX_UNSURE] == 0)
		view_text_add(v, TE_DIM, NULL, 0, "  (no test fails on any "
		    "arch)");
}

/*
 * C: the newest run against the baseline (or the run before it), and,
 * when the store holds finished runs of several arches, the arches
 * side by side; either alone when the other has nothing to show.
 */
void
ui_triage_compare(struct ui *ui)
{
	struct cmp_result cr;
	struct archmatrix mx;
	struct diaglist dl, mdl;
	struct view *v;
	int64_t a = 0, b = 0;
	int pair, arches;

	diag_init(&dl);
	diag_init(&mdl);
	memset(&cr, 0, sizeof(cr));
	pair = compare_default_runs(ui->store, &a, &b, &dl) == STORE_OK &&
	    compare_runs(ui->store, a, b, FLAKY_N, FLAKY_M, &cr, &dl) ==
	    STORE_OK;
	arches = archmatrix_build(ui->store, 0, NULL, 0, &mx, &mdl) ==
	    STORE_OK;
	if (arches && mx.ncols < 2) {
		archmatrix_free(&mx);
		arches = 0;
	}
	diag_free(&mdl);
	if (!pair && !arches) {
		ui_message_diag(ui, &dl, UD_TEXT, "fewer than two runs",
		    "nothing to compare");
		diag_free(&dl);
		return;
	}
	diag_free(&dl);
	ui_push_view(ui);
	v = ui_top(ui);
	view_text_init(v, pair ? "  CHANGE     TEST                 SYSCALL"
	    "        BEFORE     AFTER" : "", ui_triage_open_row);
	if (pair) {
		snprintf(v->title, sizeof(v->title), "compare run %" PRId64
		    " with run %" PRId64 ": %u regressed, %u fixed, %u "
		    "changed, %u new, %u removed", a, b,
		    cr.counts[CMP_REGRESSED], cr.counts[CMP_FIXED],
		    cr.counts[CMP_CHANGED], cr.counts[CMP_NEW],
		    cr.counts[CMP_REMOVED]);
		ui_compare_pair(v, &cr);
		compare_free(&cr);
	} else
		snprintf(v->title, sizeof(v->title), "compare the arches: "
		    "%zu side by side", mx.ncols);
	if (arches) {
		ui_compare_arches(v, &mx);
		archmatrix_free(&mx);
	}
}

static int
ui_shoplist_build(struct ui *ui, struct shoplist *sl, struct diaglist *dl)
{
	struct fundamental fund;
	struct shop_opts so;
	int rv;

	ui_triage_load(ui);
	memset(&fund, 0, sizeof(fund));
	(void)fundamental_load_default(&fund, dl);
	memset(&so, 0, sizeof(so));
	so.cats = ui->cats;
	so.rules = ui->rules;
	so.cat = ui->suite.cat;
	so.fund = &fund;
	so.meta = ui->suite.meta;
	so.linux_git_url = ui->linux_git_url;
	rv = shoplist_build(ui->store, &so, sl, dl);
	fundamental_free(&fund);
	return rv;
}

static void
ui_shop_line(struct view *v, const struct shop_syscall *sc,
    const struct shop_test *t, const char *cat, int linux_too)
{
	if (strcmp(t->category, cat) != 0 || t->linux_too != linux_too)
		return;
	/* Only with another arch to pass on can a test be one arch's. */
	view_text_add(v, linux_too ? TE_DIM : ui_status_elem(t->status),
	    t->tag, 0, "  %-15s %-20s %-9s %s%s%s%s", sc->name, t->tag,
	    test_status_name(t->status), linux_too ?
	    "(fails on Linux too) " : "", t->arch != NULL &&
	    t->arch->scope == AMX_SPECIFIC ? "(arch-specific) " : "",
	    t->source == SHOP_SUGGESTED ? "(suggested) " : "",
	    t->note[0] ? t->note : t->first_line);
}

/* S: the failures grouped by category, as people fix them. */
void
ui_triage_shoplist(struct ui *ui)
{
	struct shoplist sl;
	struct diaglist dl;
	struct view *v;
	size_t c, i, j;
	int pass;

	diag_init(&dl);
	memset(&sl, 0, sizeof(sl));
	if (ui_shoplist_build(ui, &sl, &dl) != STORE_OK) {
		ui_message_diag(ui, &dl, UD_TEXT, "no runs yet",
		    "no shopping list");
		diag_free(&dl);
		return;
	}
	diag_free(&dl);
	ui_push_view(ui);
	v = ui_top(ui);
	view_text_init(v, "  SYSCALL         TEST                 STATUS    "
	    "NOTE / FIRST FAILING LINE", ui_triage_open_row);
	snprintf(v->title, sizeof(v->title), "shopping list of run %" PRId64
	    ": %zu failing tests in %zu syscalls (E exports)", sl.run.id,
	    sl.ntests, sl.n);
	if (sl.linux_run != 0)
		view_text_add(v, TE_INFO, NULL, 0, "Linux reference: run %"
		    PRId64 "; %zu of these fail there too (listed last)",
		    sl.linux_run, sl.nlinux);
	for (c = 0; c < sl.ncats; c++) {
		const char *cat = sl.catnames[c];

		view_text_add(v, TE_TITLE, NULL, 0, "%s (%u)", cat[0] ? cat :
		    "not triaged yet", sl.catcounts[c]);
		/* compat_linux's own first, Linux's failures after. */
		for (pass = 0; pass < 2; pass++)
			for (i = 0; i < sl.n; i++)
				for (j = 0; j < sl.v[i].ntests; j++)
					ui_shop_line(v, &sl.v[i],
					    &sl.v[i].tests[j], cat, pass);
	}
	if (sl.ntests == 0)
		view_text_add(v, TE_DIM, NULL, 0, "  (nothing failed)");
	shoplist_free(&sl);
}

/* E: the shopping list into a file; the format follows its name. */
void
ui_triage_export(struct ui *ui)
{
	struct shoplist sl;
	struct diaglist dl;
	char *path, tmp[1200];
	FILE *fp;
	int fmt;

	path = ui_readline(ui, "export to (.csv .md .json .html): ", 0);
	if (path == NULL || path[0] == '\0') {
		free(path);
		return;
	}
	if ((fmt = export_format_from_path(path)) < 0) {
		ui_message(ui, 1, "%s: name it .csv, .md, .json or .html",
		    path);
		free(path);
		return;
	}
	diag_init(&dl);
	memset(&sl, 0, sizeof(sl));
	if (ui_shoplist_build(ui, &sl, &dl) != STORE_OK) {
		ui_message_diag(ui, &dl, UD_TEXT, "no runs yet",
		    "no shopping list");
		goto out;
	}
	/* Written aside and renamed: a full disk leaves the old file. */
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	if ((fp = fopen(tmp, "w")) == NULL) {
		ui_message(ui, 1, "%s: %s", tmp, strerror(errno));
		goto out;
	}
	if (export_write(&sl, (enum export_format)fmt, fp) != 0 ||
	    fclose(fp) != 0 || rename(tmp, path) != 0) {
		ui_message(ui, 1, "%s: %s", path, strerror(errno));
		unlink(tmp);
		goto out;
	}
	ui_message(ui, 0, "shopping list written to %s: %zu tests", path,
	    sl.ntests);
out:
	shoplist_free(&sl);
	diag_free(&dl);
	free(path);
}

/* b in the runs view: that run becomes its arch's baseline. */
void
ui_triage_baseline(struct ui *ui, int64_t run_id)
{
	struct diaglist dl;

	diag_init(&dl);
	if (store_baseline_set(ui->store, run_id, &dl) != STORE_OK)
		ui_message_diag(ui, &dl, UD_TEXT, NULL, NULL);
	else
		ui_message(ui, 0, "run %" PRId64 " is the baseline now",
		    run_id);
	diag_free(&dl);
}

/* Enter on a compare or shopping-list line: that test's output. */
void
ui_triage_open_row(struct ui *ui)
{
	struct ui_textrow *tr = view_text_current(ui_top(ui));
	struct store_result *h = NULL;
	struct ui_testrow row;
	struct diaglist dl;
	size_t n = 0;

	if (tr == NULL || tr->key == NULL)
		return;
	diag_init(&dl);
	if (store_test_history(ui->store, tr->key, 1, &h, &n, &dl) ==
	    STORE_OK && n > 0) {
		memset(&row, 0, sizeof(row));
		row.tag = tr->key;
		row.has_result = 1;
		row.status = h[0].status;
		row.result_id = h[0].id;
		ui_pane_show_output(ui, &row);
	}
	store_results_free(h, n);
	diag_free(&dl);
}
