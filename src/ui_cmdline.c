/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ":" command line.  It takes the words of the subcommands, so
 * whatever a script does, the explorer does too: ":run -s open" runs in
 * the explorer's own engine, anything else runs as `ltpscope WORDS` with
 * the explorer's database, its output shown in the pane.  Editing and
 * history are libedit's, on the bottom line with curses suspended (the
 * only way libedit and curses share a terminal).
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <curses.h>
#include <errno.h>
#include <histedit.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/cmd.h"
#include "ltpscope/cmdline.h"
#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

#define UI_CMD_OUTPUT_MAX	(8u * 1024 * 1024)

static EditLine	*ui_el;
static History	*ui_hist;
static char	 ui_histfile[1100];

static const char *ui_prompt_text = ":";

static char *
ui_el_prompt(EditLine *el)
{
	(void)el;
	return (char *)ui_prompt_text;
}

static void
ui_hist_path(void)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	char dir[1024], *p;

	if (state != NULL && state[0] == '/')
		snprintf(dir, sizeof(dir), "%s/ltpscope", state);
	else if (home != NULL && home[0] != '\0')
		snprintf(dir, sizeof(dir), "%s/.local/state/ltpscope", home);
	else
		return;
	for (p = dir + 1; *p != '\0'; p++)
		if (*p == '/') {
			*p = '\0';
			(void)mkdir(dir, 0700);
			*p = '/';
		}
	(void)mkdir(dir, 0700);
	snprintf(ui_histfile, sizeof(ui_histfile), "%s/history", dir);
}

static void
ui_el_init(void)
{
	HistEvent ev;

	if (ui_el != NULL)
		return;
	ui_hist = history_init();
	history(ui_hist, &ev, H_SETSIZE, 500);
	history(ui_hist, &ev, H_SETUNIQUE, 1);
	ui_hist_path();
	if (ui_histfile[0] != '\0')
		(void)history(ui_hist, &ev, H_LOAD, ui_histfile);
	ui_el = el_init("ltpscope", stdin, stdout, stderr);
	el_set(ui_el, EL_PROMPT, ui_el_prompt);
	el_set(ui_el, EL_EDITOR, "emacs");
	el_set(ui_el, EL_HIST, history, ui_hist);
	el_set(ui_el, EL_SIGNAL, 1);
}

void
ui_cmdline_end(void)
{
	if (ui_el != NULL)
		el_end(ui_el);
	if (ui_hist != NULL)
		history_end(ui_hist);
	ui_el = NULL;
	ui_hist = NULL;
}

/* Runs `ltpscope argv...` and shows what it printed in the pane. */
static void
ui_cmdline_spawn(struct ui *ui, char **argv, const char *line)
{
	char **av, buf[65536], title[300];
	size_t n, i, total = 0, start, len;
	int fds[2], st;
	pid_t pid;
	ssize_t got;
	char *out = NULL;
	size_t outlen = 0;

	for (n = 0; argv[n] != NULL; n++)
		continue;
	av = xcalloc(n + 2, sizeof(*av));
	av[0] = ui->argv0;
	for (i = 0; i < n; i++)
		av[i + 1] = argv[i];
	if (pipe(fds) == -1) {
		ui_message(ui, 1, "pipe: %s", strerror(errno));
		free(av);
		return;
	}
	if ((pid = fork()) == -1) {
		ui_message(ui, 1, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(av);
		return;
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		close(fds[1]);
		if (freopen("/dev/null", "r", stdin) == NULL)
			_exit(126);
		if (strchr(av[0], '/') != NULL)
			execv(av[0], av);
		else
			execvp(av[0], av);
		_exit(127);
	}
	close(fds[1]);
	while ((got = read(fds[0], buf, sizeof(buf))) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (total + (size_t)got <= UI_CMD_OUTPUT_MAX) {
			out = xrealloc(out, outlen + (size_t)got);
			memcpy(out + outlen, buf, (size_t)got);
			outlen += (size_t)got;
		}
		total += (size_t)got;
	}
	close(fds[0]);
	while (waitpid(pid, &st, 0) == -1 && errno == EINTR)
		continue;
	snprintf(title, sizeof(title), ":%s", line);
	ui_pane_clear(ui, title);
	ui->pane_open = 1;
	ui->pane_live = 0;
	ui->detail = 0;
	ui->follow = 0;
	for (start = 0, i = 0; i <= outlen; i++)
		if (i == outlen || out[i] == '\n') {
			len = i - start;
			if (i < outlen || len > 0)
				ui_pane_push(ui, LC_PLAIN, out + start, len);
			start = i + 1;
		}
	if (total > outlen)
		ui_pane_meta(ui, "(%zu more bytes not shown)", total - outlen);
	if (WIFEXITED(st) && WEXITSTATUS(st) != 0)
		ui_pane_meta(ui, "exit status %d", WEXITSTATUS(st));
	free(out);
	free(av);
	ui->pane_top = 0;
}

void
ui_cmdline_exec(struct ui *ui, const char *line)
{
	struct cmdline cl;

	while (*line == ' ' || *line == '\t')
		line++;
	switch (cmdline_parse(&cl, line)) {
	case CL_EMPTY:
		break;
	case CL_ERROR:
		ui_message(ui, 1, "%s", cl.why);
		break;
	case CL_QUIT:
		if (ui->eng != NULL)
			ui_ask(ui, UC_QUIT_RUNNING, "A run is in progress. Stop"
			    " it and quit? (it can be resumed later)");
		else
			ui->quit = 1;
		break;
	case CL_RUN:
		/* ":run ..." inside the explorer: output streams in. */
		ui_run_selected(ui, cl.nsys ? cl.sys : NULL, cl.nsys,
		    cl.ntags ? cl.tags : NULL, cl.ntags);
		break;
	case CL_SELF:
		ui_message(ui, 1, "you are in the explorer already");
		break;
	case CL_OTHER:
		if (cmd_find(cl.argv[0]) == NULL &&
		    strcmp(cl.argv[0], "help") != 0)
			ui_message(ui, 1, "unknown command '%s'; :help lists "
			    "them", cl.argv[0]);
		else
			ui_cmdline_spawn(ui, cl.argv, line);
		break;
	}
	cmdline_free(&cl);
}

char *
ui_readline(struct ui *ui, const char *prompt, int history_too)
{
	HistEvent ev;
	const char *line;
	char *copy;
	int count = 0;

	(void)ui;
	/*
	 * Our mode is saved before el_init(), which puts the terminal in
	 * its cooked, echoing mode: saved after, that mode came back as
	 * ours, and every key typed from then on was echoed over the
	 * screen behind curses' back.
	 */
	def_prog_mode();
	ui_el_init();
	ui_prompt_text = prompt;
	/* The bottom line is libedit's while it reads. */
	move(LINES - 1, 0);
	clrtoeol();
	curs_set(1);
	refresh();
	reset_shell_mode();
	line = el_gets(ui_el, &count);
	copy = line != NULL && count > 0 ? xstrdup(line) : NULL;
	reset_prog_mode();
	/* libedit leaves its own tty settings behind: take ours back. */
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	clearok(curscr, TRUE);
	refresh();
	if (copy == NULL)
		return NULL;
	copy[strcspn(copy, "\r\n")] = '\0';
	if (history_too && copy[0] != '\0') {
		history(ui_hist, &ev, H_ENTER, copy);
		if (ui_histfile[0] != '\0')
			(void)history(ui_hist, &ev, H_SAVE, ui_histfile);
	}
	return copy;
}

void
ui_cmdline(struct ui *ui)
{
	char *line;

	if ((line = ui_readline(ui, ":", 1)) == NULL)
		return;
	if (line[0] != '\0')
		ui_cmdline_exec(ui, line);
	free(line);
}
