/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's state, shared by src/ui.c (terminal, loop, drawing),
 * src/ui_keys.c (what the keys do), src/ui_run.c (running tests) and
 * src/ui_cmdline.c (the ":" prompt), over ui_status.c, ui_stack.c and
 * ui_layout.c.  Views see it in their request handlers, where a key's
 * meaning is theirs; they draw from their own rows.
 */
#ifndef LTPSCOPE_UI_PRIV_H
#define LTPSCOPE_UI_PRIV_H

#include <sys/types.h>

#include <time.h>

#include "ltpscope/boxfiles.h"
#include "ltpscope/categories.h"
#include "ltpscope/engine.h"
#include "ltpscope/linering.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/rules.h"
#include "ltpscope/settings.h"
#include "ltpscope/skiplist.h"
#include "ltpscope/store.h"
#include "ltpscope/suite.h"
#include "ltpscope/theme.h"
#include "ltpscope/ui.h"

#define UI_MAXVIEWS	4
#define UI_RING_LINES	20000
#define UI_RING_BYTES	(4u * 1024 * 1024)

enum ui_prompt {
	UP_NONE,
	UP_FILTER,	/* "/" over the list */
	UP_SEARCH,	/* "/" in the output pane */
	UP_CONFIRM	/* a y/n question */
};

enum ui_confirm {
	UC_QUIT_RUNNING,
	UC_RESUME,
	UC_TAG_PASSED		/* t on tests that all passed */
};

struct kindex;
struct remote;

struct ui {
	struct theme		 theme;
	int			 attr[TE__COUNT];

	/* What the explorer shows. */
	struct suite		 suite;
	int			 have_suite;
	struct store		*store;
	char			 dbpath[1024];
	char			 ltproot[1200];	/* suite.root may point here */
	char			 kconfig[1200];
	char			 os[64];	/* uname -s, or $LTPSCOPE_OS */
	struct skiplist		 skip;
	struct ui_sysrow	*rows;
	size_t			 nrows;
	char			 source[1200];
	char			 ltp_src[1024];	/* an LTP source tree, or "" */
	char			 linux_git_url[1024]; /* %c: a commit */
	char			 kernel_src[1024]; /* a NetBSD tree, or "":
						   kindex_default_root() */
	struct kindex		*kidx;		/* built at the first K or F */
	char			*argv0;

	/* Views: a stack, the catalogue at the bottom. */
	struct view		 views[UI_MAXVIEWS];
	int			 depth;		/* index of the top view */

	/* The output pane below the list. */
	struct linering		*ring;
	struct ltpout		*parser;	/* for stored outputs */
	int			 pane_open;
	int			 focus_pane;
	int			 follow;	/* stick to the newest line */
	size_t			 pane_top;
	/* The line a search found (v opens it): its number among all the
	 * ring ever took plus one, so that dropping old lines cannot move
	 * it; 0: none, the top line is the one. */
	unsigned long long	 pane_mark;
	int			 pane_live;	/* showing the running test */
	char			 pane_title[300];
	char			 pane_tag[128];	/* the test the pane shows */
	int			 detail;	/* syscall details, not output */

	/* A run in progress. */
	struct engine		*eng;
	int64_t			 run_id;
	time_t			 run_started;
	char			 running[128];
	size_t			 run_n;
	double			*est;		/* expected seconds per test */
	int			 timeout_s;
	int			 jobs;		/* parallel workers for runs */
	size_t			 worker_sel;	/* worker the pane shows */
	int			 stop_requested;
	/* A box over ssh the runs go to (ui --host, "host" in config). */
	char			 host[256];	/* "" runs here */
	char			 ssh_config[1024];
	struct remote		*box;		/* connected at the first run */
	char			 box_master[1024]; /* ui --box-master */
	struct boxfiles		 boxfiles;	/* what the box gave */
	const char		**box_runtests;	/* the suite's runtest list */
	char			 reboot_cmd[1024]; /* "reboot-cmd" in config */
	int			 box_wait_s;	/* "box-wait"; -1: no limit */
	int			 reset_on_taint; /* "reset-on-taint yes" */
	/* After a crash, with reboot_cmd: waiting for the box to resume. */
	int64_t			 wait_run;	/* 0: not waiting */
	int			 wait_tries;
	long long		 wait_start_ms;
	long long		 wait_next_ms;	/* the next try */
	long long		 wait_step_s;	/* doubles, up to a minute */
	pid_t			 reboot_pid;	/* reboot_cmd running, or 0 */
	/* ui --box: the header names it; a QEMU box is ours to reset. */
	char			 boxname[SETTINGS_BOXNAME_MAX];
	char			 boxqemu[4096];	/* its qemu line, or "" */
	int			 boxsnapshot;	/* its qemu-snapshot */
	char			 boxltproot[1024]; /* its ltproot, or "" */
	struct qemubox		*qemu;		/* NULL: not a QEMU box */
	char			 qemu_user[256];	/* its block's host */
	int			 wait_taint;	/* the box answered: it was
						   reset for a taint */
	/* A lost QEMU box back by itself (panic=N) is not reset. */
	int			 qemu_pending;	/* its reset not done yet */
	int			 qemu_self;	/* its kernel reboots itself */
	long long		 qemu_lost_ms;	/* when it was lost */
	off_t			 qemu_con_off;	/* its console read to here */
	char			 qemu_boot[128];	/* its boot id then */

	/* Triage: categories, rules, what the picker tags. */
	struct categories	*cats;
	struct rules		*rules;
	char			**pick_tags;
	size_t			 npick;
	char			*pick_line;	/* a failing line to tag, or NULL */
	char			 pick_want[40];	/* the picker's first choice */
	size_t			 pick_left;	/* marked that passed, left out */

	/* Prompts and messages. */
	enum ui_prompt		 prompting;
	enum ui_confirm		 confirm;
	char			 confirm_text[400];
	int64_t			 confirm_run;
	char			 prompt[256];
	char			 pattern[256];	/* the list's filter before "/" */
	char			 search[256];	/* last pane search */
	char			 msg[512];
	int			 msg_error;
	int			 help;
	size_t			 help_top;
	int			 quit;
	int			 dirty;
};

/* ui_status.c: the status line, below everything that says something. */
void	ui_message(struct ui *, int, const char *, ...)
	    __attribute__((__format__(__printf__, 3, 4)));
/* How ui_message_diag() words a diagnostic. */
enum ui_diag_form {
	UD_TEXT,	/* its message alone (the store's, say) */
	UD_WHERE	/* file:line: level: message, as diag_format() */
};
/*
 * An error on the status line from the core's diagnostics: the text
 * fmt makes (when not NULL) then ": ", then the first error of dl (its
 * first diagnostic when none is an error), or fallback ("failed" when
 * NULL) when dl holds nothing.
 */
void	ui_message_diag(struct ui *, const struct diaglist *,
	    enum ui_diag_form, const char *, const char *, ...)
	    __attribute__((__format__(__printf__, 5, 6)));
void	ui_ask(struct ui *, enum ui_confirm, const char *, ...)
	    __attribute__((__format__(__printf__, 3, 4)));

/* ui_stack.c: the views. */
struct view *ui_top(struct ui *);
/* A new view on top, for its *_init(). */
void	ui_push_view(struct ui *);
void	ui_pop_view(struct ui *);
/* Frees what v shows, its filter with it (the bottom one, at the end). */
void	ui_free_view(struct view *);

/* ui_layout.c: rows of the screen. */
int	ui_list_height(struct ui *);
int	ui_pane_height(struct ui *);

/* ui.c: the explorer's loop, above everything else here. */
/*
 * Takes the terminal and runs the explorer on ui, set up by cmd_ui.c,
 * until the user quits; gives the terminal back.  Returns 0, -1, or
 * UI_NO_TERMINAL when curses could not start (said on stderr).
 */
#define UI_NO_TERMINAL	(-2)
int	ui_explore(struct ui *);

/* ui_config.c */
/*
 * Applies the user's configuration file to ui and to *theme and
 * *timeout_s, then the block of box (ui --box; NULL for none) over
 * it; the command line, read after, wins.  0, or -1 said on stderr
 * when there is no such box.
 */
int	ui_config(struct ui *, const char **, int *, const char *box);

/* ui_box.c */
struct remote_opts;
/* How the explorer reaches its box: ui's ssh config, LTP at ltproot. */
void	ui_box_opts(const struct ui *, const char *ltproot,
	    struct remote_opts *);
/*
 * Starts (or takes over) the QEMU of ui's box (ui->boxqemu) and waits
 * for its ssh, ui->host its forwarded port from then on, ui->box the
 * connection when it answered.  Before the terminal is taken: says on
 * stderr.  0, or -1 when QEMU did not start.
 */
int	ui_qemu_up(struct ui *, const char *db, const char *ltproot);
/*
 * Resets the QEMU box (monitor, or QEMU started again), ui->host
 * updated; 0, or -1 said in the pane.  *what says which.
 */
int	ui_qemu_reset(struct ui *, const char **what);
/* The box answers: its console's next crash is read from here. */
void	ui_qemu_mark(struct ui *);
/* The box was lost: its boot id kept, while ui->box still has it. */
void	ui_qemu_lost(struct ui *);
/*
 * Starts the wait for the lost box: a tainted one is reset at once,
 * any other left to ui_qemu_tick().
 */
void	ui_qemu_begin(struct ui *, int taint);
/*
 * While its reset is pending, at each tick of the wait: as run does,
 * reset once its console says the kernel stays down, or a try failed
 * when it does not say it reboots by itself, or a box that does has
 * not come back in time.
 */
void	ui_qemu_tick(struct ui *);
/* The box answers again: whether it was reset, or booted by itself. */
void	ui_qemu_back(struct ui *);

/* ui_pane.c */
void	ui_pane_clear(struct ui *, const char *);
void	ui_pane_push(struct ui *, enum line_class, const char *, size_t);
void	ui_pane_meta(struct ui *, const char *, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
void	ui_pane_draw(struct ui *, int, int);
void	ui_pane_scroll(struct ui *, long);
void	ui_pane_show_output(struct ui *, const struct ui_testrow *);
/* The kernel's lines during a result's test, behind their marker. */
void	ui_pane_kernel(struct ui *, int64_t result_id);
/* Finds the next line matching the pattern; 0, or -1 with a message. */
int	ui_pane_search(struct ui *, const char *, int);
/* The line a search marked, if it is still in the ring. */
int	ui_pane_marked(const struct ui *, size_t *);
/* The line v and e are about: the marked one, else the top one. */
size_t	ui_pane_current(const struct ui *);

/* ui_run.c */
void	ui_run_start(struct ui *);
void	ui_run_selected(struct ui *, const char *const *, size_t,
	    const char *const *, size_t);
void	ui_run_service(struct ui *);
void	ui_run_stop_test(struct ui *);
void	ui_run_stop_all(struct ui *);
void	ui_run_resume(struct ui *, int64_t);
/*
 * While ui->wait_run: tries the box when it is time, resumes the run
 * once it answers, says the wait on the status line.  Call it at least
 * once a second.
 */
void	ui_run_wait_tick(struct ui *);
void	ui_run_status(struct ui *, char *, size_t);
void	ui_run_free(struct ui *);

/* ui_cmdline.c */
void	ui_cmdline(struct ui *);
void	ui_cmdline_exec(struct ui *, const char *);
void	ui_cmdline_end(void);
/* Reads a line on the bottom line with libedit; NULL on EOF. */
char	*ui_readline(struct ui *, const char *, int);

/* ui_filter.c: a user's pcre2 pattern, any case, under a match limit. */
struct ui_regex;
/* NULL with the reason in err when pat does not compile. */
struct ui_regex *ui_regex_new(const char *, char *, size_t);
/* 1 on a match, 0 on none, -1 when the match limit stopped it. */
int	ui_regex_match(struct ui_regex *, const char *, size_t);
void	ui_regex_free(struct ui_regex *);

/* ui_triage.c */
void	ui_triage_load(struct ui *);
void	ui_triage_free(struct ui *);
void	ui_triage_suggest_rows(struct ui *, struct ui_testrow *, size_t);
void	ui_triage_pick(struct ui *);
/* The category picker for ui->pick_tags, ui->pick_want first. */
void	ui_triage_picker(struct ui *);
void	ui_triage_picked(struct ui *);
void	ui_triage_note(struct ui *, int);
void	ui_triage_accept(struct ui *);
void	ui_triage_compare(struct ui *);
void	ui_triage_shoplist(struct ui *);
void	ui_triage_export(struct ui *);
void	ui_triage_baseline(struct ui *, int64_t);
void	ui_triage_open_row(struct ui *);

/* ui_profile.c */
void	ui_profile_screen(struct ui *);

/* view_source.c: a text file, its lines numbered, one marked. */
/*
 * Shows the file at path, line marked and in view (0: none, the top);
 * title goes on the top line.  -1 with a message when it cannot read.
 */
int	ui_source_show(struct ui *, const char *title, const char *path,
	    long line);
/*
 * The same for text already read (a box's file over ssh): text holds
 * len bytes and a NUL after them, is malloc'd, and the view owns it
 * from here.  path, or NULL, is what $EDITOR would open.
 */
int	ui_source_text(struct ui *, const char *title, const char *path,
	    char *text, size_t len, long line);
/* The file the view on top shows and its cursor's line; NULL, 0 when
 * the view is not a source view. */
const char *ui_source_path(struct view *);
long	ui_source_line(struct view *);

/* ui_source.c: v and e, the test's source at the line that failed. */
void	ui_source_key(struct ui *, int editor);
/*
 * $VISUAL, $EDITOR, else $PAGER, else less on path at line, the screen
 * given back meanwhile; a failure said on the status line.
 */
void	ui_source_edit(struct ui *, const char *path, long line);

/* ui_kfunc.c: K and F, a syscall's kernel function (kindex.h). */
void	ui_kfunc_key(struct ui *, int editor);
void	ui_kfunc_free(struct ui *);

/* ui_keys.c */
void	ui_key(struct ui *, int);
/* The tests view of the named syscalls (of every test when n is 0). */
void	ui_open_tests(struct ui *, const char *const *, size_t);

#endif
