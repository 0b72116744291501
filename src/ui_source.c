/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * From a failure to the test's source (v, e): the output pane's line
 * names "fcntl35.c:81"; LTP's metadata names the test's file; the LTP
 * source tree (ltp-src) has it, here or, with a host, on the box, read
 * through the run's connection.  v shows it in the source view, e in
 * $EDITOR (else $PAGER) at the line, the screen given back meanwhile,
 * as tig's e does.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/ltpmeta.h"
#include "ltpscope/ltpsrc.h"
#include "ltpscope/paths.h"
#include "ltpscope/remote.h"
#include "ltpscope/slurp.h"
#include "ui_priv.h"

#define UI_SOURCE_MAX		(16u * 1024 * 1024)
#define UI_SOURCE_TIMEOUT_S	20

/* What a key found to open. */
struct ui_srcref {
	char	 tag[128];
	char	 base[256];	/* the file the line names, "" none */
	long	 line;
	char	 path[LTPSRC_PATHLEN];	/* where it was read */
	char	*text;
	size_t	 len;
	int	 on_box;
};

/* The test and line the key is about: the pane's top line, or a test. */
static int
ui_source_target(struct ui *ui, struct ui_srcref *r)
{
	struct view *v = ui_top(ui);
	struct ui_testrow *t;
	const char *text;
	size_t len;

	if (ui->focus_pane && ui->pane_tag[0] != '\0' &&
	    linering_count(ui->ring) > 0) {
		snprintf(r->tag, sizeof(r->tag), "%s", ui->pane_tag);
		text = linering_get(ui->ring, ui_pane_current(ui), NULL,
		    &len);
		(void)ltpsrc_line_ref(text, len, r->base, sizeof(r->base),
		    &r->line);
		return 0;
	}
	if (!ui->focus_pane && v->ops == &view_tests_ops &&
	    (t = view_tests_current(v)) != NULL) {
		snprintf(r->tag, sizeof(r->tag), "%s", t->tag);
		return 0;
	}
	ui_message(ui, 0, "v and e open a test's source: on a test, or on a "
	    "line of its output (Tab, then / to the line, or the line at the "
	    "pane's top)");
	return -1;
}

static int
ui_source_read(struct ui *ui, const char *path, struct ui_srcref *r)
{
	struct diaglist dl;
	int rc;

	if (ui->host[0] == '\0') {
		if (slurp_file(path, UI_SOURCE_MAX, &r->text, &r->len) != 0)
			return -1;
		if (r->len > UI_SOURCE_MAX) {
			free(r->text);
			r->text = NULL;
			return -1;
		}
		return 0;
	}
	if (ui->box == NULL)
		return -1;
	diag_init(&dl);
	rc = remote_fetch(ui->box, path, UI_SOURCE_TIMEOUT_S, &r->text,
	    &r->len, &dl);
	diag_free(&dl);
	if (rc != 0)
		return -1;
	/* The view wants a NUL after the text. */
	r->text = realloc(r->text, r->len + 1);
	if (r->text == NULL)
		return -1;
	r->text[r->len] = '\0';
	r->on_box = 1;
	return 0;
}

/* Finds and reads the file; a message and -1 when it cannot. */
static int
ui_source_find(struct ui *ui, struct ui_srcref *r)
{
	char cand[LTPSRC_MAXCAND][LTPSRC_PATHLEN], cfg[1100];
	const struct ltpmeta_test *m = NULL;
	const char *want;
	size_t n, i;

	if (ui->suite.meta != NULL)
		m = ltpmeta_test(ui->suite.meta, r->tag);
	want = r->base[0] != '\0' ? r->base : m != NULL && m->fname != NULL ?
	    m->fname : r->tag;
	if (ui->ltp_src[0] == '\0') {
		if (paths_config("config", cfg, sizeof(cfg)) == NULL)
			snprintf(cfg, sizeof(cfg), "the config file");
		ui_message(ui, 1, "no LTP source tree to find %s in: ltpscope "
		    "--ltp-src DIR, or \"ltp-src DIR\" in %s%s", want, cfg,
		    ui->host[0] != '\0' ? " (a tree on the box)" : "");
		return -1;
	}
	if (ui->host[0] != '\0' && ui->box == NULL) {
		ui_message(ui, 1, "%s: not connected to %s, its LTP source "
		    "tree %s cannot be read", want, ui->host, ui->ltp_src);
		return -1;
	}
	n = ltpsrc_candidates(ui->ltp_src, m != NULL ? m->fname : NULL,
	    r->tag, r->base[0] != '\0' ? r->base : NULL, cand,
	    LTPSRC_MAXCAND);
	for (i = 0; i < n; i++)
		if (ui_source_read(ui, cand[i], r) == 0) {
			snprintf(r->path, sizeof(r->path), "%s", cand[i]);
			return 0;
		}
	if (n == 0)
		ui_message(ui, 1, "no path for %s's source below %s", r->tag,
		    ui->ltp_src);
	else
		ui_message(ui, 1, "%s not found in the LTP source tree%s: "
		    "looked at %s%s%s (--ltp-src DIR or \"ltp-src\" in the "
		    "config name the tree)", want, ui->host[0] != '\0' ?
		    " of the box" : "", cand[0], n > 1 ? " and " : "",
		    n > 1 ? cand[n - 1] : "");
	return -1;
}

void
ui_source_edit(struct ui *ui, const char *path, long line)
{
	const char *ed;
	char plus[32];
	pid_t pid;
	int st = 0;

	if ((ed = getenv("VISUAL")) == NULL || *ed == '\0')
		if ((ed = getenv("EDITOR")) == NULL || *ed == '\0')
			if ((ed = getenv("PAGER")) == NULL || *ed == '\0')
				ed = "less";
	snprintf(plus, sizeof(plus), "+%ld", line > 0 ? line : 1L);
	def_prog_mode();
	endwin();
	if ((pid = fork()) == 0) {
		execl("/bin/sh", "sh", "-c", "exec $0 \"$1\" \"$2\"", ed, plus,
		    path, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
			continue;
	reset_prog_mode();
	clearok(curscr, TRUE);
	refresh();
	if (pid == -1)
		ui_message(ui, 1, "cannot start %s: %s", ed, strerror(errno));
	else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		ui_message(ui, 1, "%s %s %s: exited %d", ed, plus, path,
		    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
}

/* A box's file for $EDITOR: a copy here for the editor's time. */
static void
ui_source_edit_text(struct ui *ui, struct ui_srcref *r)
{
	char tmp[] = "/tmp/ltpscope-src.XXXXXX";
	int fd;

	if ((fd = mkstemp(tmp)) == -1) {
		ui_message(ui, 1, "%s: %s", tmp, strerror(errno));
		return;
	}
	if (write(fd, r->text, r->len) != (ssize_t)r->len) {
		ui_message(ui, 1, "%s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return;
	}
	close(fd);
	ui_source_edit(ui, tmp, r->line);
	unlink(tmp);
}

void
ui_source_key(struct ui *ui, int editor)
{
	struct ui_srcref r;
	struct view *v = ui_top(ui);
	char title[1700];

	if (ui_source_path(v) != NULL) {
		if (editor)
			ui_source_edit(ui, ui_source_path(v),
			    ui_source_line(v));
		return;
	}
	memset(&r, 0, sizeof(r));
	if (ui_source_target(ui, &r) != 0 || ui_source_find(ui, &r) != 0)
		return;
	if (editor) {
		if (r.on_box)
			ui_source_edit_text(ui, &r);
		else
			ui_source_edit(ui, r.path, r.line);
		free(r.text);
		return;
	}
	snprintf(title, sizeof(title), "%s%s%s:%ld (%s)", r.on_box ?
	    ui->host : "", r.on_box ? ":" : "", r.path, r.line, r.tag);
	if (r.line == 0)
		snprintf(title, sizeof(title), "%s%s%s (%s)", r.on_box ?
		    ui->host : "", r.on_box ? ":" : "", r.path, r.tag);
	(void)ui_source_text(ui, title, r.on_box ? NULL : r.path, r.text,
	    r.len, r.line);
}
