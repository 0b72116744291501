/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * From a syscall to the NetBSD kernel function behind it (K, F): the
 * catalogue names the function (linux_sys_fcntl), the kernel index
 * (kindex.h) of a NetBSD tree finds its file and line, as `ltpscope
 * func` does.  K shows it in the source view, F in $EDITOR at the
 * line.  On a test, the function of the syscall it tests.
 *
 * The index is built at the first use of a key, not at start-up: most
 * sessions never ask, and a tree seen for the first time takes a
 * second or two to index (the database's cache makes it fast after).
 */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/kindex.h"
#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

/* Syscalls of a test looked at, at most. */
#define UI_KFUNC_MAXCALLS	8

/* What the key found: a function's definition and where it is. */
struct ui_kfunc {
	const struct kindex_def	*def;
	size_t			 ndefs;
	char			 what[256];	/* "fcntl35 (fcntl)" */
	char			 path[2048];
};

static const char *
ui_kfunc_root(const struct ui *ui)
{
	return ui->kernel_src[0] != '\0' ? ui->kernel_src :
	    kindex_default_root();
}

/*
 * The index, built (or read from the database's cache) the first time;
 * NULL after saying on the status line where it looked and how to
 * point at a tree.  A failure is not kept: the next key tries again.
 */
static struct kindex *
ui_kfunc_index(struct ui *ui)
{
	struct diaglist dl;
	struct kindex *ki;
	const char *root = ui_kfunc_root(ui);
	int err;

	if (ui->kidx != NULL)
		return ui->kidx;
	/* Said before the wait, which a tree indexed afresh makes. */
	mvprintw(LINES - 1, 0, "indexing the kernel functions of %.*s...",
	    COLS > 40 ? COLS - 40 : 1, root);
	clrtoeol();
	refresh();
	ki = xcalloc(1, sizeof(*ki));
	diag_init(&dl);
	err = kindex_open(ki, root, NULL, ui->store, &dl);
	if (err == STORE_ENOTFOUND)
		ui_message(ui, 1, "no NetBSD kernel source in %s (no sys/kern "
		    "there): --kernel-src DIR or \"kernel-src DIR\" in the "
		    "config names a tree", root);
	else if (err != STORE_OK)
		ui_message_diag(ui, &dl, UD_WHERE, NULL, "the kernel function "
		    "index of %s", root);
	diag_free(&dl);
	/* Built, but not kept in the database (a run writing): usable. */
	if (err != STORE_OK && err != STORE_ENOTFOUND && ki->nbuckets > 0)
		err = STORE_OK;
	if (err != STORE_OK) {
		kindex_free(ki);
		free(ki);
		return NULL;
	}
	ui->kidx = ki;
	return ki;
}

/* Looks up the function of each catalogue row named call: 1 if found. */
static int
ui_kfunc_call(struct ui *ui, struct kindex *ki, const char *call,
    struct ui_kfunc *kf, const char **fn)
{
	size_t i;

	for (i = 0; i < ui->nrows; i++) {
		const struct ui_sysrow *r = &ui->rows[i];

		if (strcmp(r->name, call) != 0 || r->function[0] == '\0')
			continue;
		if (*fn == NULL)
			*fn = r->function;
		if ((kf->ndefs = kindex_lookup(ki, r->function,
		    &kf->def, NULL)) > 0)
			return 1;
	}
	return 0;
}

/* The syscalls of the test tag (the index's, else the row's). */
static size_t
ui_kfunc_test_calls(struct ui *ui, const char *tag, const char *rowcall,
    const char **calls)
{
	const struct ltptest *t = ltpindex_find(&ui->suite.idx, tag);
	size_t i, n = 0;

	if (t != NULL)
		for (i = 0; i < t->nsyscalls && n < UI_KFUNC_MAXCALLS; i++)
			calls[n++] = t->syscalls[i];
	if (n == 0 && rowcall != NULL && rowcall[0] != '\0')
		calls[n++] = rowcall;
	return n;
}

/* Says what was not found, and where it was looked for. */
static void
ui_kfunc_none(struct ui *ui, const struct kindex *ki, const char *what,
    const char *fn)
{
	if (fn == NULL)
		ui_message(ui, 1, "%s: the catalogue names no kernel function",
		    what);
	else
		ui_message(ui, 1, "%s: no definition of %s in %s/{compat/"
		    "linux,compat/linux32,compat/common,kern,uvm,miscfs} "
		    "(--kernel-src DIR or \"kernel-src DIR\" in the config "
		    "name another tree)", what, fn, ki->sysdir);
}

/*
 * The function the key is about: the catalogue's syscall under the
 * cursor, or the syscall(s) of the test under it (of the output pane's
 * test when the pane has the focus).  0, or -1 said on the status line.
 */
static int
ui_kfunc_find(struct ui *ui, struct ui_kfunc *kf)
{
	const char *calls[UI_KFUNC_MAXCALLS], *fn = NULL, *tag = NULL;
	const char *rowcall = NULL;
	struct view *v = ui_top(ui);
	struct ui_sysrow *sr = NULL;
	struct ui_testrow *tr;
	struct kindex *ki;
	size_t n = 0, i;

	if (ui->focus_pane && ui->pane_tag[0] != '\0')
		tag = ui->pane_tag;
	else if (v->ops == &view_catalogue_ops)
		sr = view_catalogue_current(v);
	else if (v->ops == &view_tests_ops &&
	    (tr = view_tests_current(v)) != NULL) {
		tag = tr->tag;
		rowcall = tr->syscall;
	}
	if (sr == NULL && tag == NULL) {
		ui_message(ui, 0, "K and F open a syscall's kernel function: "
		    "on a syscall of the catalogue, or on a test");
		return -1;
	}
	if (tag != NULL && (n = ui_kfunc_test_calls(ui, tag, rowcall,
	    calls)) == 0) {
		ui_message(ui, 1, "%s: no syscall known for this test", tag);
		return -1;
	}
	if ((ki = ui_kfunc_index(ui)) == NULL)
		return -1;
	if (sr != NULL) {
		snprintf(kf->what, sizeof(kf->what), "%s", sr->name);
		if (sr->function[0] != '\0') {
			fn = sr->function;
			kf->ndefs = kindex_lookup(ki, fn, &kf->def, NULL);
		}
	} else {
		snprintf(kf->what, sizeof(kf->what), "%s (%s%s)", tag,
		    calls[0], n > 1 ? ", ..." : "");
		for (i = 0; i < n && kf->ndefs == 0; i++)
			if (ui_kfunc_call(ui, ki, calls[i], kf, &fn) && i > 0)
				snprintf(kf->what, sizeof(kf->what), "%s (%s)",
				    tag, calls[i]);
	}
	if (kf->ndefs == 0) {
		ui_kfunc_none(ui, ki, kf->what, fn);
		return -1;
	}
	/* kf->def->file is "sys/...", the index's sysdir that sys/. */
	snprintf(kf->path, sizeof(kf->path), "%s%s", ki->sysdir,
	    kf->def->file + 3);
	return 0;
}

void
ui_kfunc_key(struct ui *ui, int editor)
{
	struct ui_kfunc kf;
	struct view *v = ui_top(ui);
	char title[2400];

	/* In a source view already, F is e: that file at the cursor. */
	if (editor && ui_source_path(v) != NULL) {
		ui_source_edit(ui, ui_source_path(v), ui_source_line(v));
		return;
	}
	memset(&kf, 0, sizeof(kf));
	if (ui_kfunc_find(ui, &kf) != 0)
		return;
	if (editor) {
		ui_source_edit(ui, kf.path, (long)kf.def->line);
		return;
	}
	snprintf(title, sizeof(title), "%s:%lu %s (%s)", kf.def->file,
	    kf.def->line, kf.def->name, kf.what);
	if (ui_source_show(ui, title, kf.path, (long)kf.def->line) == 0 &&
	    kf.ndefs > 1)
		ui_message(ui, 0, "%s has %zu definitions (#ifdef branches?): "
		    "the first; ltpscope func %s lists them", kf.def->name,
		    kf.ndefs, kf.def->name);
}

void
ui_kfunc_free(struct ui *ui)
{
	if (ui->kidx == NULL)
		return;
	kindex_free(ui->kidx);
	free(ui->kidx);
	ui->kidx = NULL;
}
