/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer: terminal set-up, the one poll(2) loop, drawing the
 * screen; cmd_ui.c opens what it shows first.  Above what it dispatches
 * to (the keys, the pane, runs, the ":" prompt, the views), which with
 * it use what is below them all: the status line (ui_status.c), the
 * view stack (ui_stack.c), the layout (ui_layout.c), drawing
 * (ui_draw.c).  Everything it shows comes from the core as plain data;
 * the ui*.c and view_*.c files are the only ones that call curses.
 */
#include <sys/ioctl.h>

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ltpscope/diag.h"
#include "ltpscope/textsafe.h"
#include "ui_priv.h"

/* Redraw at most this often while output streams in (ms). */
#define UI_FRAME_MS	40

/*
 * Signals reach the loop through a self-pipe; the write end is the only
 * thing a handler touches (and endwin() on a crash, as tig and htop do).
 */
static int	ui_sigpipe[2] = { -1, -1 };
static volatile sig_atomic_t ui_active;

static void
ui_sig_wake(int sig)
{
	int save = errno;
	unsigned char c = (unsigned char)sig;

	if (ui_sigpipe[1] != -1)
		(void)write(ui_sigpipe[1], &c, 1);
	errno = save;
}

static void
ui_sig_crash(int sig)
{
	if (ui_active)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
ui_signals(void)
{
	struct sigaction sa;
	int i, fl;
	const int crash[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	const int wake[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP };

	if (pipe(ui_sigpipe) == -1)
		return;
	for (i = 0; i < 2; i++) {
		fl = fcntl(ui_sigpipe[i], F_GETFL);
		fcntl(ui_sigpipe[i], F_SETFL, fl | O_NONBLOCK);
		fcntl(ui_sigpipe[i], F_SETFD, FD_CLOEXEC);
	}
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = ui_sig_wake;
	sa.sa_flags = SA_RESTART;
	for (i = 0; i < (int)(sizeof(wake) / sizeof(wake[0])); i++)
		sigaction(wake[i], &sa, NULL);
	sa.sa_handler = ui_sig_crash;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < (int)(sizeof(crash) / sizeof(crash[0])); i++)
		sigaction(crash[i], &sa, NULL);
}

static int
ui_curses_attr(int a)
{
	int r = A_NORMAL;

	if (a & TA_BOLD)
		r |= A_BOLD;
	if (a & TA_DIM)
		r |= A_DIM;
	if (a & TA_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & TA_REVERSE)
		r |= A_REVERSE;
	if (a & TA_STANDOUT)
		r |= A_STANDOUT;
	if (a & TA_BLINK)
		r |= A_BLINK;
	return r;
}

static short
ui_colour(short c, int *attrs)
{
	if (c < 0)
		return -1;
	if (c >= COLORS && c >= 8 && c < 16) {
		/* Bright colours on an 8-colour terminal: bold instead. */
		*attrs |= A_BOLD;
		return (short)(c - 8);
	}
	return c < COLORS ? c : -1;
}

static void
ui_colours(struct ui *ui)
{
	int i, colour, defaults = 0;

	colour = !ui->theme.mono && has_colors();
	if (colour) {
		start_color();
#ifdef HAVE_USE_DEFAULT_COLORS
		defaults = use_default_colors() == OK;
#endif
	}
	for (i = 0; i < TE__COUNT; i++) {
		const struct theme_style *st = &ui->theme.style[i];
		int attrs = ui_curses_attr(st->attrs);

		if (colour && i + 1 < COLOR_PAIRS) {
			short fg = ui_colour(st->fg, &attrs);
			short bg = ui_colour(st->bg, &attrs);

			if (!defaults) {
				if (fg < 0)
					fg = COLOR_WHITE;
				if (bg < 0)
					bg = COLOR_BLACK;
			}
			init_pair((short)(i + 1), fg, bg);
			attrs |= COLOR_PAIR(i + 1);
		} else if (!colour && i == TE_SELECTION)
			attrs |= A_REVERSE;
		ui->attr[i] = attrs;
	}
}

static void
ui_clamp(struct ui *ui)
{
	struct view *v = ui_top(ui);
	size_t n = view_rows(v), h = (size_t)ui_list_height(ui);

	if (n == 0) {
		v->cursor = v->top = 0;
		return;
	}
	if (v->cursor >= n)
		v->cursor = n - 1;
	if (v->cursor < v->top)
		v->top = v->cursor;
	if (v->cursor >= v->top + h)
		v->top = v->cursor - h + 1;
	if (v->top + h > n)
		v->top = n > h ? n - h : 0;
}

/*
 * A key's help from row y on, right of the key column, wrapped at word
 * boundaries to the terminal's width; returns the row after it.
 */
static int
ui_draw_help_text(int y, const char *s)
{
	char line[512];
	size_t len, width = COLS > 14 ? (size_t)COLS - 14 : 1;
	int first = y;

	do {
		len = textsafe_break(s, width);
		snprintf(line, sizeof(line), "%.*s", (int)len, s);
		if (y > first)
			ui_put(y, 0, "", 14, 1);
		ui_put(y, 14, line, COLS - 14, 1);
		for (s += len; *s == ' '; s++)
			continue;
	} while (*s != '\0' && ++y < LINES - 1);
	return y + 1;
}

static void
ui_draw_help(struct ui *ui)
{
	const struct ui_key *k;
	int y = 1, n = 0;

	ui_attr_on(ui, TE_HEADER);
	ui_put(0, 0, "ltpscope help: keys (q, ? or Esc closes)", COLS, 1);
	ui_attr_off(ui, TE_HEADER);
	for (k = ui_keys; k->fn != NULL; k++) {
		if (k->keyname == NULL)
			continue;
		if ((size_t)n++ < ui->help_top)
			continue;
		if (y >= LINES - 1)
			break;
		ui_attr_on(ui, TE_HELP_KEY);
		ui_put(y, 0, k->keyname, 14, 1);
		ui_attr_off(ui, TE_HELP_KEY);
		y = ui_draw_help_text(y, k->help);
	}
	for (; y < LINES - 1; y++)
		ui_put(y, 0, "", COLS, 1);
}

static void
ui_draw_prompt(struct ui *ui)
{
	const char *lead = ui->prompting == UP_SEARCH ? "search: /" : "/";
	int used, ll = (int)strlen(lead);

	if (ui->prompting == UP_CONFIRM) {
		ui_attr_on(ui, TE_PROMPT);
		used = ui_put(LINES - 1, 0, ui->confirm_text, COLS, 0);
		used += ui_put(LINES - 1, used, " (y/n) ", COLS - used, 0);
		ui_attr_off(ui, TE_PROMPT);
		ui_put(LINES - 1, used, "", COLS - used, 1);
		return;
	}
	ui_attr_on(ui, TE_PROMPT);
	ui_put(LINES - 1, 0, lead, ll, 0);
	used = ll + ui_put(LINES - 1, ll, ui->prompt, COLS - ll, 0);
	ui_attr_off(ui, TE_PROMPT);
	ui_put(LINES - 1, used, "", COLS - used, 1);
	if (ui->msg[0] != '\0' && used + 3 < COLS) {
		/* Say why the pattern does not compile, as it is typed. */
		ui_attr_on(ui, TE_ERROR);
		ui_put(LINES - 1, used + 2, ui->msg, COLS - used - 2, 0);
		ui_attr_off(ui, TE_ERROR);
	}
}

static void
ui_draw_status(struct ui *ui)
{
	struct view *v = ui_top(ui);
	char left[700], right[700], run[300], words[400];
	size_t n = view_rows(v);
	int rl;

	if (ui->prompting != UP_NONE) {
		ui_draw_prompt(ui);
		return;
	}
	if (ui->msg[0] != '\0') {
		ui_attr_on(ui, ui->msg_error ? TE_ERROR : TE_STATUS);
		ui_put(LINES - 1, 0, ui->msg, COLS, 1);
		ui_attr_off(ui, ui->msg_error ? TE_ERROR : TE_STATUS);
		return;
	}
	if (ui->eng != NULL) {
		ui_run_status(ui, run, sizeof(run));
		snprintf(left, sizeof(left), "%s", run);
	} else
		v->ops->describe(ui, v, left, sizeof(left));
	words[0] = '\0';
	if (v->ops->status != NULL)
		v->ops->status(ui, v, words, sizeof(words));
	/* The filter's pattern, as it was typed after "/". */
	snprintf(right, sizeof(right), " %zu/%zu%s%s%s  ? help",
	    n ? v->cursor + 1 : 0, n, words, view_pattern(v)[0] ? "  /" : "",
	    view_pattern(v));
	rl = (int)strlen(right);
	ui_attr_on(ui, TE_STATUS);
	if (rl < COLS) {
		ui_put(LINES - 1, 0, left, COLS - rl, 1);
		ui_put(LINES - 1, COLS - rl, right, rl, 1);
	} else
		ui_put(LINES - 1, 0, right, COLS, 1);
	ui_attr_off(ui, TE_STATUS);
}

static void
ui_draw(struct ui *ui)
{
	struct view *v = ui_top(ui);
	size_t i, n;
	int y, h, ph, width = COLS;
	char name[1400], title[1500];
	const char *hdr;

	erase();
	if (ui->help) {
		ui_draw_help(ui);
		ui_draw_status(ui);
		refresh();
		return;
	}
	ui_clamp(ui);
	h = ui_list_height(ui);
	ph = ui_pane_height(ui);
	n = view_rows(v);
	if (v->ops->title != NULL)
		v->ops->title(ui, v, name, sizeof(name));
	else
		snprintf(name, sizeof(name), "%s", v->title);
	/* Which box the runs go to, before anything else. */
	snprintf(title, sizeof(title), "ltpscope%s%s  %s", ui->boxname[0] !=
	    '\0' ? "  box " : "", ui->boxname, name);
	ui_attr_on(ui, TE_HEADER);
	ui_put(0, 0, title, width, 1);
	ui_attr_off(ui, TE_HEADER);
	hdr = v->ops->header ? v->ops->header(v) : "";
	ui_attr_on(ui, TE_TITLE);
	ui_put(1, 0, hdr, width, 1);
	ui_attr_off(ui, TE_TITLE);
	for (y = 0, i = v->top; y < h && i < n; y++, i++) {
		if (i == v->cursor)
			ui_attr_on(ui, TE_SELECTION);
		v->ops->draw_row(ui, v, view_row(v, i), 2 + y, width);
		if (i == v->cursor)
			ui_attr_off(ui, TE_SELECTION);
	}
	if (n == 0 && view_pattern(v)[0] != '\0')
		ui_putf(2, 2, width - 2, "(no row matches /%s; Esc clears the "
		    "filter)", view_pattern(v));
	else if (n == 0)
		ui_put(2, 2, v->ops->empty != NULL ? v->ops->empty :
		    "(nothing to show)", width - 2, 0);
	if (ph > 0) {
		int py = 2 + h;

		if (ui->detail && v->ops->draw_detail != NULL) {
			ui_attr_on(ui, TE_STATUS);
			ui_put(py, 0, "detail", width, 1);
			ui_attr_off(ui, TE_STATUS);
			v->ops->draw_detail(ui, v, py + 1, ph - 1);
		} else
			ui_pane_draw(ui, py, ph);
	}
	ui_draw_status(ui);
	if (ui->prompting == UP_NONE)
		move(2 + (int)(v->cursor - v->top), 0);
	refresh();
}

static void
ui_resize(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
}

static long
ui_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
ui_loop(struct ui *ui)
{
	struct pollfd pfd[2 + 64 * ENGINE_NPOLL];
	unsigned char sigs[64];
	ssize_t n, i;
	long last_draw = 0, now;
	int ch, np, timeout;

	ui_draw(ui);
	last_draw = ui_now_ms();
	/* make bench measures the time to this first full frame. */
	if (getenv("LTPSCOPE_FIRST_FRAME_EXIT") != NULL)
		ui->quit = 1;
	while (!ui->quit) {
		pfd[0].fd = STDIN_FILENO;
		pfd[0].events = POLLIN;
		pfd[1].fd = ui_sigpipe[0];
		pfd[1].events = POLLIN;
		np = 2;
		timeout = -1;
		if (ui->eng != NULL) {
			/* Every busy worker's output, with -j several. */
			np += (int)engine_pollfds(ui->eng, pfd + 2,
			    64 * ENGINE_NPOLL);
			timeout = engine_poll_timeout(ui->eng);
			/* The status line's clock ticks once a second. */
			if (timeout < 0 || timeout > 1000)
				timeout = 1000;
		}
		/* The wait for a box counts down on the status line. */
		if (ui->wait_run != 0 && (timeout < 0 || timeout > 1000))
			timeout = 1000;
		if (ui->dirty) {
			long wait = UI_FRAME_MS - (ui_now_ms() - last_draw);

			if (wait < 0)
				wait = 0;
			if (timeout < 0 || timeout > wait)
				timeout = (int)wait;
		}
		if (poll(pfd, (nfds_t)np, timeout) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (pfd[1].revents & POLLIN) {
			while ((n = read(ui_sigpipe[0], sigs, sizeof(sigs))) > 0)
				for (i = 0; i < n; i++) {
					if (sigs[i] == SIGWINCH)
						ui_resize();
					else if (sigs[i] == SIGHUP)
						ui->quit = 2;
					else if (sigs[i] == SIGINT ||
					    sigs[i] == SIGTERM)
						ui->quit = 2;
				}
			ui->dirty = 1;
		}
		if (pfd[0].revents & (POLLHUP | POLLERR))
			ui->quit = 2;
		if (pfd[0].revents & POLLIN) {
			while ((ch = getch()) != ERR)
				ui_key(ui, ch);
			/* Keys answer at once, whatever streams in. */
			ui_draw(ui);
			last_draw = ui_now_ms();
			ui->dirty = 0;
		}
		if (ui->eng != NULL) {
			ui_run_service(ui);
			ui->dirty = 1;
		}
		if (ui->wait_run != 0)
			ui_run_wait_tick(ui);
		now = ui_now_ms();
		if (ui->dirty && now - last_draw >= UI_FRAME_MS) {
			ui_draw(ui);
			last_draw = now;
			ui->dirty = 0;
		}
	}
	if (ui->eng != NULL) {
		/* Hung up or killed: stop the tests; the run stays resumable. */
		ui_run_stop_all(ui);
		while (ui->eng != NULL)
			ui_run_service(ui);
	}
	return 0;
}

/* Offers to resume the newest run that died, as `run --resume` would. */
static void
ui_offer_resume(struct ui *ui)
{
	struct store_interrupted *v = NULL;
	struct diaglist dl;
	size_t n = 0;

	diag_init(&dl);
	if (store_interrupted_runs(ui->store, &v, &n, &dl) == STORE_OK &&
	    n > 0) {
		ui->confirm_run = v[0].run_id;
		if (v[0].nrunning > 0)
			ui_ask(ui, UC_RESUME, "Run %" PRId64 " was interrupted "
			    "while %s was running (likely crashed the system)."
			    " Resume it?", v[0].run_id, v[0].running[0]);
		else
			ui_ask(ui, UC_RESUME, "Run %" PRId64 " was interrupted "
			    "between tests. Resume it?", v[0].run_id);
	}
	store_interrupted_free(v, n);
	diag_free(&dl);
}

int
ui_explore(struct ui *ui)
{
	int rv;

	setlocale(LC_ALL, "");
	/* Esc closes prompts; do not wait a second to tell it from a key. */
	setenv("ESCDELAY", "25", 0);
	if (initscr() == NULL) {
		fprintf(stderr, "ltpscope: cannot initialise the terminal\n");
		return UI_NO_TERMINAL;
	}
	ui_active = 1;
	ui_signals();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
#ifdef HAVE_CURSES_MOUSE
	mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED |
	    BUTTON5_PRESSED, NULL);
	mouseinterval(0);
#endif
	ui_colours(ui);
	view_catalogue_init(&ui->views[0], ui->rows, ui->nrows);
	ui_offer_resume(ui);
	rv = ui_loop(ui);
	endwin();
	ui_active = 0;
	ui_cmdline_end();
	while (ui->depth > 0)
		ui_pop_view(ui);
	ui_free_view(&ui->views[0]);
	return rv;
}
