/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's internal interface.  Only src/ui*.c and src/view_*.c
 * include this; they are the only files that call curses.
 *
 * A view is a struct plus a table of operations, as in tig: the list
 * on top and the output pane below are just two things on screen.  The
 * views keep rows of plain data built from the core (catalogue, LTP
 * index, store); the engine that runs tests is the same one
 * `ltpscope run` uses.  A key that means something of its own in a view
 * (Enter, Space, r...) is the view's request handler's to do, as tig's
 * views handle requests: no switch on the kind of view elsewhere.
 */
#ifndef LTPSCOPE_UI_H
#define LTPSCOPE_UI_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/status.h"
#include "ltpscope/theme.h"

struct ltpmeta_test;
struct ui;
struct view;
struct view_filter;
struct store;
struct suite;

/* One syscall as the catalogue view shows it (strings owned by the UI). */
struct ui_sysrow {
	char		*abi;
	long		 number;
	char		*name;
	char		*type;
	char		*state;		/* short tag, e.g. "native" */
	enum theme_elem	 elem;		/* colour of the state tag */
	int		 state_rank;	/* for sorting by state */
	char		*function;
	char		*prototype;
	char		*guard;
	char		*file;
	unsigned long	 line;
	int		 ntests;	/* LTP tests mapped to it */
	unsigned	 last[TS__COUNT]; /* latest result of each test */
	char		 category[40];	/* a triage tag of one of its tests */
	int		 marked;
};

/* One test, or one result of a run, as the tests views show it. */
struct ui_testrow {
	char		*tag;
	char		*syscall;
	char		*cmdline;
	int		 has_result;
	enum test_status status;
	int64_t		 result_id;
	int64_t		 duration_ms;
	unsigned	 npass, nfail, nbroken, nconf, nwarn;
	unsigned	 nenvwarn;	/* environment's TWARN lines */
	int		 kmarked;	/* the kernel warned or was tainted */
	char		 history[17];	/* oldest .. newest, one char each */
	char		 category[40];	/* triage tag, "" when none */
	char		 tagstate[16];	/* "", "resolved?", ... */
	char		 suggest[40];	/* a rule's suggestion, "" */
	char *const	*doc;		/* LTP's description (the suite's) */
	size_t		 ndoc;
	char		*requires;	/* what it needs, or NULL */
	const struct ltpmeta_test *meta; /* the suite's, or NULL */
	char		*skip;		/* skip-list reason, or NULL */
	char		*notrun;	/* why its metadata rules it out
					   here (a run stores conf), NULL */
	int		 marked;
};

/* One run, as the runs view shows it. */
struct ui_runrow {
	int64_t		 id;
	char		 when[32];
	char		*label;
	char		*where;		/* host arch os */
	char		*state;
	unsigned	 counts[TS__COUNT];
	unsigned	 nenvmarked;	/* pass/conf with an env warning */
	unsigned	 nqueued;
};

/*
 * What a key asks of the view on top when its meaning is the view's
 * (ui_keys.c turns keys into these).
 */
enum ui_request {
	UR_ENTER,		/* open what the cursor is on */
	UR_MARK,		/* mark or unmark the cursor's row */
	UR_RUN,			/* run the marked rows, or the cursor's */
	UR_SORT,		/* the next sort order */
	UR_SHOW_ALL,		/* the state filters, keys 1 to 5 */
	UR_SHOW_IMPLEMENTED,
	UR_SHOW_UNIMPLEMENTED,
	UR_SHOW_OBSOLETE,
	UR_SHOW_ABSENT,
	UR_BASELINE		/* the cursor's run becomes the baseline */
};

/* A view's operations; NULL where the view has nothing of its own. */
struct view_ops {
	const char	*name;
	/* The view's rows; the "/" filter may show fewer (view_rows()). */
	size_t		(*nrows)(struct view *);
	/* Draws the view's row i at screen line y, width columns. */
	void		(*draw_row)(struct ui *, struct view *, size_t, int,
			    int);
	const char	*(*header)(struct view *);
	/* Fills buf with a one-line description of the cursor's row. */
	void		(*describe)(struct ui *, struct view *, char *, size_t);
	/* Draws the detail pane for the cursor's row in [y, y + h). */
	void		(*draw_detail)(struct ui *, struct view *, int, int);
	void		(*free)(struct view *);
	/* The top line after "ltpscope  "; NULL: the view's title. */
	void		(*title)(struct ui *, struct view *, char *, size_t);
	/* The status line's words after the row count; NULL: none. */
	void		(*status)(struct ui *, struct view *, char *, size_t);
	/* What the list says with no row; NULL: "(nothing to show)". */
	const char	*empty;
	/*
	 * Does what the request means here and returns 1, or returns 0 to
	 * leave the key its default (a hint on the status line, or
	 * nothing).  NULL: every key has its default.
	 */
	int		(*request)(struct ui *, struct view *, enum ui_request);
	/*
	 * The tests t, n, N and A act on: the marked rows, or the cursor's
	 * when none is marked; the caller frees the array.  NULL: the view
	 * lists no tests.
	 */
	struct ui_testrow **(*marked_tests)(struct view *, size_t *);
	/*
	 * The store has news of test tag (NULL: triage of any test): the
	 * rows read it again.  NULL: nothing the view shows changes.
	 */
	void		(*reload)(struct ui *, struct view *, const char *);
	/*
	 * Writes to buf what "/" matches of row i: the row's fields, one
	 * a line (^ and $ hold at each field's ends).  NULL: no filter.
	 */
	void		(*match_text)(struct view *, size_t, char *, size_t);
};

struct view {
	const struct view_ops	*ops;
	void			*data;
	char			 title[1200];
	/* Both count the rows shown, the "/" filter's when it has one. */
	size_t			 top;		/* first row on screen */
	size_t			 cursor;
	struct view_filter	*filter;	/* NULL: every row shown */
};

/*
 * The "/" filter of any view (ui_filter.c).  Row i on screen is the
 * view's own row view_row(v, i) (SIZE_MAX past the last one shown).
 */
size_t	view_rows(struct view *);
size_t	view_row(struct view *, size_t);
/* The filter's pattern, "" when none. */
const char *view_pattern(const struct view *);
/*
 * Shows the rows pattern matches (every row when it is ""): -1 with
 * the reason in err when it does not compile (the filter unchanged),
 * else how many rows the match limit stopped (not shown).
 */
int	view_filter_set(struct view *, const char *, char *, size_t);
/* The view's rows changed order or content: match them again. */
void	view_filter_refresh(struct view *);
void	view_filter_free(struct view *);

/* Keys, shared by the key handler, the help screen and the man page. */
struct ui_key {
	int		 key;
	const char	*keyname;	/* as help and the man page show it;
					   NULL: an alias of the entry above */
	const char	*help;
	void		(*fn)(struct ui *);
};

extern const struct ui_key	ui_keys[];

/* Drawing helpers (ui_draw.c). */
void	ui_attr_on(struct ui *, enum theme_elem);
void	ui_attr_off(struct ui *, enum theme_elem);
/*
 * Puts s at (y, x), at most width columns, with every control byte shown
 * as a visible placeholder; pads with blanks to width when pad is set.
 * Returns the number of columns used.
 */
int	ui_put(int, int, const char *, int, int);
/* A fixed-width column at x, cut at width; returns where the next starts. */
int	ui_col(int, int, const char *, int, int);
/*
 * ui_col() for a name: one blank column always follows it, and a name
 * too long for the rest ends in '~' instead of running into the next.
 */
int	ui_col_name(int, int, const char *, int, int);
int	ui_putf(int, int, int, const char *, ...)
	    __attribute__((__format__(__printf__, 4, 5)));
/* Colour element of a test status. */
enum theme_elem	ui_status_elem(enum test_status);
/* One character for history strips: . F B c w T S - I */
char	ui_status_char(enum test_status);

/* Catalogue view (view_catalogue.c). */
extern const struct view_ops	view_catalogue_ops;
void	view_catalogue_init(struct view *, struct ui_sysrow *, size_t);
/* The syscall under the cursor, or NULL. */
struct ui_sysrow *view_catalogue_current(struct view *);

/*
 * Tests views (view_tests.c); the view owns the rows.  The results of
 * a run are a tests view whose rows keep that run's results.
 */
extern const struct view_ops	view_tests_ops;
void	view_tests_init(struct view *, struct ui_testrow *, size_t);
void	view_results_init(struct view *, struct ui_testrow *, size_t);
struct ui_testrow *view_tests_current(struct view *);
void	ui_testrows_free(struct ui_testrow *, size_t);

/* Runs view (view_runs.c); the view owns the rows. */
extern const struct view_ops	view_runs_ops;
void	view_runs_init(struct view *, struct ui_runrow *, size_t);
struct ui_runrow *view_runs_current(struct view *);

/* Plain lines with a key each (view_text.c): compare, shopping list. */
struct ui_textrow {
	char		*text;
	enum theme_elem	 elem;
	char		*key;		/* what Enter acts on, or NULL */
	int64_t		 id;
};
extern const struct view_ops	view_text_ops;
/*
 * What Enter on a line does, given by who opens the view (the lines'
 * meaning is theirs): it reads the line with view_text_current().
 */
typedef void	view_text_enter_fn(struct ui *);
void	view_text_init(struct view *, const char *, view_text_enter_fn *);
void	view_text_add(struct view *, enum theme_elem, const char *, int64_t,
	    const char *, ...) __attribute__((__format__(__printf__, 5, 6)));
struct ui_textrow *view_text_current(struct view *);

/* Loading data for the explorer (ui_data.c). */
int	ui_load_catalogue(struct suite *, struct store *, struct ui_sysrow **,
	    size_t *);
void	ui_free_catalogue(struct ui_sysrow *, size_t);
/* Refreshes the latest-result counts of every syscall row. */
void	ui_catalogue_results(struct suite *, struct store *,
	    struct ui_sysrow *, size_t);
/* The tests of the named syscalls (all tests when n is 0). */
int	ui_load_tests(struct suite *, struct store *, const char *const *,
	    size_t, struct ui_testrow **, size_t *);
/* Updates one test's row after a result arrived. */
void	ui_testrow_update(struct store *, struct ui_testrow *);
int	ui_load_runs(struct store *, struct ui_runrow **, size_t *);
void	ui_runrows_free(struct ui_runrow *, size_t);
/* The results of one run, as test rows. */
int	ui_load_run_results(struct store *, int64_t, struct ui_testrow **,
	    size_t *);

#endif
