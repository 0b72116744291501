/*
 * The explorer: terminal set-up, the one poll(2) loop, key dispatch,
 * the status line, the "/" prompt and the help screen.  Everything it
 * shows comes from the core as plain data; this file and the views are
 * the only ones that call curses.
 */
#include <sys/ioctl.h>

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "ltpscope/cmd.h"
#include "ltpscope/diag.h"
#include "ltpscope/paths.h"
#include "ltpscope/theme.h"
#include "ltpscope/ui.h"
#include "ltpscope/xmalloc.h"

#define UI_CTRL(c)	((c) & 0x1f)
#define KEY_ESCAPE	0x1b

struct ui {
	struct theme		 theme;
	int			 attr[TE__COUNT];
	struct view		 list;
	struct ui_sysrow	*rows;
	size_t			 nrows;
	char			 source[512];	/* what was loaded */
	int			 detail;	/* detail pane open */
	int			 help;		/* help screen open */
	size_t			 help_top;
	int			 prompting;	/* "/" prompt active */
	char			 prompt[256];
	char			 pattern[256];	/* accepted filter */
	char			 msg[512];
	int			 msg_error;
	int			 quit;
};

/*
 * Signals reach the loop through a self-pipe; the write end is the only
 * thing a handler touches (and endwin() on a crash, as tig and htop do).
 */
static int	ui_sigpipe[2] = { -1, -1 };
static volatile sig_atomic_t ui_active;

static void	ui_key_down(struct ui *);
static void	ui_key_up(struct ui *);
static void	ui_key_pgdown(struct ui *);
static void	ui_key_pgup(struct ui *);
static void	ui_key_top(struct ui *);
static void	ui_key_bottom(struct ui *);
static void	ui_key_filter(struct ui *);
static void	ui_key_sort(struct ui *);
static void	ui_key_state_all(struct ui *);
static void	ui_key_state_impl(struct ui *);
static void	ui_key_state_unimpl(struct ui *);
static void	ui_key_state_obsol(struct ui *);
static void	ui_key_state_absent(struct ui *);
static void	ui_key_mark(struct ui *);
static void	ui_key_detail(struct ui *);
static void	ui_key_help(struct ui *);
static void	ui_key_redraw(struct ui *);
static void	ui_key_quit(struct ui *);

const struct ui_key ui_keys[] = {
	{ 'j', "j, Down", "move down", ui_key_down },
	{ KEY_DOWN, NULL, NULL, ui_key_down },
	{ 'k', "k, Up", "move up", ui_key_up },
	{ KEY_UP, NULL, NULL, ui_key_up },
	{ KEY_NPAGE, "PgDn, ^F", "page down", ui_key_pgdown },
	{ UI_CTRL('f'), NULL, NULL, ui_key_pgdown },
	{ KEY_PPAGE, "PgUp, ^B", "page up", ui_key_pgup },
	{ UI_CTRL('b'), NULL, NULL, ui_key_pgup },
	{ 'g', "g, Home", "go to the first row", ui_key_top },
	{ KEY_HOME, NULL, NULL, ui_key_top },
	{ 'G', "G, End", "go to the last row", ui_key_bottom },
	{ KEY_END, NULL, NULL, ui_key_bottom },
	{ '/', "/", "filter by a regular expression (pcre2, any case)",
	    ui_key_filter },
	{ 's', "s", "sort by number, name or state", ui_key_sort },
	{ '1', "1", "show all states", ui_key_state_all },
	{ '2', "2", "show implemented calls only", ui_key_state_impl },
	{ '3', "3", "show unimplemented calls only", ui_key_state_unimpl },
	{ '4', "4", "show obsolete calls only", ui_key_state_obsol },
	{ '5', "5", "show calls absent from the table", ui_key_state_absent },
	{ ' ', "Space", "mark or unmark the syscall", ui_key_mark },
	{ '\n', "Enter", "open or close the detail pane", ui_key_detail },
	{ '\r', NULL, NULL, ui_key_detail },
	{ KEY_ENTER, NULL, NULL, ui_key_detail },
	{ '?', "?", "show this help", ui_key_help },
	{ UI_CTRL('l'), "^L", "redraw the screen", ui_key_redraw },
	{ 'q', "q", "quit (or close help)", ui_key_quit },
	{ 0, NULL, NULL, NULL }
};

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
	const int wake[] = { SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGCHLD };

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

	colour = !ui->theme.mono && has_colors() &&
	    getenv("NO_COLOR") == NULL;
	if (colour) {
		start_color();
#ifdef NCURSES_VERSION
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

void
ui_attr_on(struct ui *ui, enum theme_elem e)
{
	attron(ui->attr[e]);
}

void
ui_attr_off(struct ui *ui, enum theme_elem e)
{
	attroff(ui->attr[e]);
}

static void
ui_message(struct ui *ui, int error, const char *fmt, ...)
	__attribute__((__format__(__printf__, 3, 4)));

static void
ui_message(struct ui *ui, int error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ui->msg, sizeof(ui->msg), fmt, ap);
	va_end(ap);
	ui->msg_error = error;
}

/* Rows the list gets: all but header lines, status and the pane. */
static int
ui_list_height(struct ui *ui)
{
	int h = LINES - 3;

	if (ui->detail)
		h -= h / 3 + 1 > 9 ? 9 : h / 3 + 1;
	return h > 1 ? h : 1;
}

static void
ui_clamp(struct ui *ui)
{
	struct view *v = &ui->list;
	size_t n = v->ops->nrows(v), h = (size_t)ui_list_height(ui);

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
		ui_put(y, 0, k->keyname, 12, 1);
		ui_attr_off(ui, TE_HELP_KEY);
		ui_put(y, 12, k->help, COLS - 12, 1);
		y++;
	}
	for (; y < LINES - 1; y++)
		ui_put(y, 0, "", COLS, 1);
}

static void
ui_draw_status(struct ui *ui)
{
	struct view *v = &ui->list;
	char left[600], right[400];
	int rl;

	if (ui->prompting) {
		int used;

		ui_attr_on(ui, TE_PROMPT);
		ui_put(LINES - 1, 0, "/", 1, 0);
		used = 1 + ui_put(LINES - 1, 1, ui->prompt, COLS - 1, 0);
		ui_attr_off(ui, TE_PROMPT);
		ui_put(LINES - 1, used, "", COLS - used, 1);
		if (ui->msg[0] != '\0' && used + 3 < COLS) {
			/* Say why the pattern does not compile, as it is typed. */
			ui_attr_on(ui, TE_ERROR);
			ui_put(LINES - 1, used + 2, ui->msg, COLS - used - 2, 0);
			ui_attr_off(ui, TE_ERROR);
		}
		move(LINES - 1, used < COLS ? used : COLS - 1);
		return;
	}
	if (ui->msg[0] != '\0') {
		ui_attr_on(ui, ui->msg_error ? TE_ERROR : TE_STATUS);
		ui_put(LINES - 1, 0, ui->msg, COLS, 1);
		ui_attr_off(ui, ui->msg_error ? TE_ERROR : TE_STATUS);
		return;
	}
	v->ops->describe(ui, v, left, sizeof(left));
	snprintf(right, sizeof(right), " %zu/%zu  sort:%s  show:%s%s%s  ? help",
	    v->ops->nrows(v) ? v->cursor + 1 : 0, v->ops->nrows(v),
	    view_catalogue_sort_name(v), view_catalogue_state_filter_name(v),
	    ui->pattern[0] ? "  /" : "", ui->pattern);
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
	struct view *v = &ui->list;
	size_t i, n;
	int y, h, width = COLS;
	char title[700];
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
	n = v->ops->nrows(v);
	snprintf(title, sizeof(title), "ltpscope  %s  %zu syscalls, "
	    "%zu marked", ui->source, view_catalogue_total(v),
	    view_catalogue_nmarked(v));
	ui_attr_on(ui, TE_HEADER);
	ui_put(0, 0, title, width, 1);
	ui_attr_off(ui, TE_HEADER);
	hdr = v->ops->header ? v->ops->header(v, width) : "";
	ui_attr_on(ui, TE_TITLE);
	ui_put(1, 0, hdr, width, 1);
	ui_attr_off(ui, TE_TITLE);
	for (y = 0, i = v->top; y < h && i < n; y++, i++) {
		if (i == v->cursor)
			ui_attr_on(ui, TE_SELECTION);
		v->ops->draw_row(ui, v, i, 2 + y, width);
		if (i == v->cursor)
			ui_attr_off(ui, TE_SELECTION);
	}
	if (n == 0)
		ui_put(2, 2, "(no syscall matches; press 1 to show all, "
		    "/ then Enter to clear the filter)", width - 2, 0);
	if (ui->detail) {
		int py = 2 + h;

		ui_attr_on(ui, TE_STATUS);
		ui_put(py, 0, "detail", width, 1);
		ui_attr_off(ui, TE_STATUS);
		if (v->ops->draw_detail != NULL)
			v->ops->draw_detail(ui, v, py + 1, LINES - 2 - py);
	}
	ui_draw_status(ui);
	if (!ui->prompting)
		move(2 + (int)(v->cursor - v->top), 0);
	refresh();
}

static void
ui_key_down(struct ui *ui)
{
	if (ui->help) {
		ui->help_top++;
		return;
	}
	if (ui->list.cursor + 1 < ui->list.ops->nrows(&ui->list))
		ui->list.cursor++;
}

static void
ui_key_up(struct ui *ui)
{
	if (ui->help) {
		if (ui->help_top > 0)
			ui->help_top--;
		return;
	}
	if (ui->list.cursor > 0)
		ui->list.cursor--;
}

static void
ui_key_pgdown(struct ui *ui)
{
	size_t h = (size_t)ui_list_height(ui);
	size_t n = ui->list.ops->nrows(&ui->list);

	ui->list.cursor = ui->list.cursor + h < n ? ui->list.cursor + h :
	    (n ? n - 1 : 0);
	ui->list.top += h;
}

static void
ui_key_pgup(struct ui *ui)
{
	size_t h = (size_t)ui_list_height(ui);

	ui->list.cursor = ui->list.cursor > h ? ui->list.cursor - h : 0;
	ui->list.top = ui->list.top > h ? ui->list.top - h : 0;
}

static void
ui_key_top(struct ui *ui)
{
	ui->list.cursor = ui->list.top = 0;
	ui->help_top = 0;
}

static void
ui_key_bottom(struct ui *ui)
{
	size_t n = ui->list.ops->nrows(&ui->list);

	ui->list.cursor = n ? n - 1 : 0;
}

static void
ui_key_filter(struct ui *ui)
{
	ui->prompting = 1;
	snprintf(ui->prompt, sizeof(ui->prompt), "%s", ui->pattern);
	ui->msg[0] = '\0';
}

static void
ui_key_sort(struct ui *ui)
{
	view_catalogue_sort_next(&ui->list);
}

static void
ui_key_state_all(struct ui *ui)
{
	view_catalogue_set_state_filter(&ui->list, 0);
}

static void
ui_key_state_impl(struct ui *ui)
{
	view_catalogue_set_state_filter(&ui->list, 1);
}

static void
ui_key_state_unimpl(struct ui *ui)
{
	view_catalogue_set_state_filter(&ui->list, 2);
}

static void
ui_key_state_obsol(struct ui *ui)
{
	view_catalogue_set_state_filter(&ui->list, 3);
}

static void
ui_key_state_absent(struct ui *ui)
{
	view_catalogue_set_state_filter(&ui->list, 4);
}

static void
ui_key_mark(struct ui *ui)
{
	view_catalogue_toggle_mark(&ui->list);
	ui_key_down(ui);
}

static void
ui_key_detail(struct ui *ui)
{
	ui->detail = !ui->detail;
}

static void
ui_key_help(struct ui *ui)
{
	ui->help = !ui->help;
	ui->help_top = 0;
}

static void
ui_key_redraw(struct ui *ui)
{
	(void)ui;
	clearok(curscr, TRUE);
}

static void
ui_key_quit(struct ui *ui)
{
	if (ui->help)
		ui->help = 0;
	else
		ui->quit = 1;
}

/* Applies the prompt as typed so far; the filter is incremental. */
static void
ui_prompt_apply(struct ui *ui)
{
	char err[256];

	if (view_catalogue_set_pattern(&ui->list, ui->prompt, err,
	    sizeof(err)) != 0)
		ui_message(ui, 1, "bad pattern: %s", err);
	else {
		ui->msg[0] = '\0';
		ui->msg_error = 0;
	}
}

static void
ui_prompt_key(struct ui *ui, int ch)
{
	size_t len = strlen(ui->prompt);

	switch (ch) {
	case KEY_ESCAPE:
	case UI_CTRL('g'):
		ui->prompting = 0;
		snprintf(ui->prompt, sizeof(ui->prompt), "%s", ui->pattern);
		ui_prompt_apply(ui);
		return;
	case '\n':
	case '\r':
	case KEY_ENTER:
		ui->prompting = 0;
		ui_prompt_apply(ui);
		if (ui->msg_error) {
			/* Keep the last good pattern rather than none. */
			snprintf(ui->prompt, sizeof(ui->prompt), "%s",
			    ui->pattern);
			ui_prompt_apply(ui);
			ui_message(ui, 1, "pattern not applied: it does not "
			    "compile");
		} else
			snprintf(ui->pattern, sizeof(ui->pattern), "%s",
			    ui->prompt);
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

static void
ui_key(struct ui *ui, int ch)
{
	const struct ui_key *k;

	if (ui->prompting) {
		ui_prompt_key(ui, ch);
		return;
	}
	ui->msg[0] = '\0';
	if (ui->help && (ch == KEY_ESCAPE || ch == '?')) {
		ui->help = 0;
		return;
	}
	if (ch == KEY_RESIZE)
		return;
	for (k = ui_keys; k->fn != NULL; k++)
		if (k->key == ch) {
			k->fn(ui);
			return;
		}
	ui_message(ui, 0, "no action for that key; press ? for help");
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

static int
ui_loop(struct ui *ui)
{
	struct pollfd pfd[2];
	unsigned char sigs[64];
	ssize_t n, i;
	int ch;

	ui_draw(ui);
	while (!ui->quit) {
		pfd[0].fd = STDIN_FILENO;
		pfd[0].events = POLLIN;
		pfd[1].fd = ui_sigpipe[0];
		pfd[1].events = POLLIN;
		if (poll(pfd, 2, -1) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (pfd[1].revents & POLLIN) {
			while ((n = read(ui_sigpipe[0], sigs, sizeof(sigs))) > 0)
				for (i = 0; i < n; i++) {
					if (sigs[i] == SIGWINCH)
						ui_resize();
					else if (sigs[i] == SIGINT ||
					    sigs[i] == SIGTERM ||
					    sigs[i] == SIGHUP)
						ui->quit = 1;
				}
		}
		if (pfd[0].revents & (POLLHUP | POLLERR))
			ui->quit = 1;
		if (pfd[0].revents & POLLIN)
			while ((ch = getch()) != ERR)
				ui_key(ui, ch);
		ui_draw(ui);
	}
	return 0;
}

static void
ui_usage(void)
{
	fprintf(stderr, "usage: ltpscope [--demo] [-m file]... "
	    "[--theme name]\n");
}

int
cmd_ui(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "demo", no_argument, NULL, 'D' },
		{ "master", required_argument, NULL, 'm' },
		{ "theme", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct ui ui;
	struct diaglist dl;
	const char **files = NULL;
	const char *themename = NULL;
	char err[1024], dirs[4096], demo[1200];
	size_t nfiles = 0;
	int ch, demomode = 0, rv;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "hm:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'D':
			demomode = 1;
			break;
		case 'm':
			files = xreallocarray(files, nfiles + 1,
			    sizeof(*files));
			files[nfiles++] = optarg;
			break;
		case 'T':
			themename = optarg;
			break;
		case 'h':
			ui_usage();
			return 0;
		default:
			ui_usage();
			return 2;
		}
	}
	memset(&ui, 0, sizeof(ui));
	if (demomode) {
		paths_data("demo/syscalls.master", demo, sizeof(demo));
		files = xreallocarray(files, nfiles + 1, sizeof(*files));
		files[nfiles++] = demo;
	}
	if (ui_load_catalogue(files, nfiles, demomode, &ui.rows, &ui.nrows,
	    err, sizeof(err)) != 0) {
		fprintf(stderr, "ltpscope: %s\n", err);
		free(files);
		return 1;
	}
	if (err[0] != '\0')
		ui_message(&ui, 1, "%s", err);
	snprintf(ui.source, sizeof(ui.source), "%s%s", demomode ? "demo: " :
	    "", nfiles ? files[nfiles - 1] : "default catalogue");
	free(files);

	if (themename == NULL)
		themename = getenv("NO_COLOR") != NULL ? "mono" : "default";
	paths_themedirs(dirs, sizeof(dirs));
	diag_init(&dl);
	if (theme_load(&ui.theme, themename, dirs, &dl) != 0) {
		diag_print(&dl, stderr, "ltpscope");
		fprintf(stderr, "ltpscope: using the default theme\n");
		theme_default(&ui.theme);
		sleep(1);
	}
	diag_free(&dl);

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "ltpscope: the explorer needs a terminal; "
		    "see ltpscope help for the subcommands\n");
		ui_free_catalogue(ui.rows, ui.nrows);
		return 1;
	}
	setlocale(LC_ALL, "");
	/* Esc closes prompts; do not wait a second to tell it from a key. */
	setenv("ESCDELAY", "25", 0);
	if (initscr() == NULL) {
		fprintf(stderr, "ltpscope: cannot initialise the terminal\n");
		return 1;
	}
	ui_active = 1;
	ui_signals();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	ui_colours(&ui);
	view_catalogue_init(&ui.list, ui.rows, ui.nrows);
	rv = ui_loop(&ui);
	endwin();
	ui_active = 0;
	view_catalogue_free(&ui.list);
	ui_free_catalogue(ui.rows, ui.nrows);
	return rv == 0 ? 0 : 1;
}
