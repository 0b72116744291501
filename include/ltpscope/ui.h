/*
 * The explorer's internal interface.  Only src/ui*.c and src/view_*.c
 * include this; they are the only files that call curses.
 *
 * A view is a struct plus a table of operations, as in tig: the list
 * on top and the pane below are just two views on screen.
 */
#ifndef LTPSCOPE_UI_H
#define LTPSCOPE_UI_H

#include <stddef.h>

#include "ltpscope/theme.h"

struct ui;
struct view;

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
	int		 ntests;	/* LTP tests mapped to it, -1 unknown */
	int		 marked;
};

struct view_ops {
	const char	*name;
	size_t		(*nrows)(struct view *);
	/* Draws row (an index into the view's visible rows) at screen y. */
	void		(*draw_row)(struct ui *, struct view *, size_t, int,
			    int);
	/* Column header text, or NULL. */
	const char	*(*header)(struct view *, int);
	/* Text the "/" filter matches, or NULL for unfiltered views. */
	void		(*refilter)(struct ui *, struct view *);
	/* Fills buf with a one-line description of the cursor's row. */
	void		(*describe)(struct ui *, struct view *, char *, size_t);
	/* Draws the detail pane for the cursor's row in [y, y + h). */
	void		(*draw_detail)(struct ui *, struct view *, int, int);
};

struct view {
	const struct view_ops	*ops;
	void			*data;
	size_t			 top;		/* first row on screen */
	size_t			 cursor;
};

/* Keys, shared by the key handler, the help screen and the man page. */
struct ui_key {
	int		 key;
	const char	*keyname;	/* as the help screen shows it */
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
int	ui_putf(int, int, int, const char *, ...)
	    __attribute__((__format__(__printf__, 4, 5)));

/* Catalogue view (view_catalogue.c). */
extern const struct view_ops	view_catalogue_ops;
void	view_catalogue_init(struct view *, struct ui_sysrow *, size_t);
void	view_catalogue_free(struct view *);
void	view_catalogue_sort_next(struct view *);
const char *view_catalogue_sort_name(struct view *);
void	view_catalogue_set_state_filter(struct view *, int);
const char *view_catalogue_state_filter_name(struct view *);
/* Returns 0, or -1 with a message in err when the pattern is bad. */
int	view_catalogue_set_pattern(struct view *, const char *, char *,
	    size_t);
void	view_catalogue_toggle_mark(struct view *);
size_t	view_catalogue_nmarked(struct view *);
size_t	view_catalogue_total(struct view *);

/* Loading data for the explorer (ui_data.c). */
int	ui_load_catalogue(const char *const *, size_t, int,
	    struct ui_sysrow **, size_t *, char *, size_t);
void	ui_free_catalogue(struct ui_sysrow *, size_t);

#endif
