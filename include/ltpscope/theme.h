/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Themes: named semantic elements mapped to colours and attributes.
 *
 * The core parses theme files (themes/NAME.theme) into plain data; only
 * the UI turns them into curses colour pairs.  A theme line is
 *
 *	element  foreground  [background]  [attribute ...]
 *
 * with "#" comments.  Colours are the eight curses colours, "default",
 * or "bright-COLOUR"; attributes are bold, dim, underline, reverse,
 * standout, blink and normal.  Elements left out keep the built-in
 * default, so a theme may override just a few.
 */
#ifndef LTPSCOPE_THEME_H
#define LTPSCOPE_THEME_H

#include <stdio.h>

#include "ltpscope/diag.h"

enum theme_elem {
	TE_NORMAL,
	TE_HEADER,
	TE_STATUS,
	TE_SELECTION,
	TE_MARK,
	TE_TITLE,
	TE_PROMPT,
	TE_ERROR,
	TE_HELP_KEY,
	TE_DIM,
	TE_PASS,
	TE_FAIL,
	TE_BROKEN,
	TE_CONF,
	TE_WARN,
	TE_INFO,
	TE_META,
	TE_IMPLEMENTED,
	TE_COMPAT,
	TE_UNIMPLEMENTED,
	TE_OBSOLETE,
	TE_ABSENT,
	TE__COUNT
};

/* Colour numbers as curses has them; -1 is the terminal's default. */
#define THEME_DEFAULT_COLOUR	(-1)

enum theme_attr {
	TA_BOLD = 1 << 0,
	TA_DIM = 1 << 1,
	TA_UNDERLINE = 1 << 2,
	TA_REVERSE = 1 << 3,
	TA_STANDOUT = 1 << 4,
	TA_BLINK = 1 << 5
};

struct theme_style {
	short	fg;		/* 0-255 or THEME_DEFAULT_COLOUR */
	short	bg;
	int	attrs;		/* enum theme_attr bits */
};

struct theme {
	char			 name[64];
	int			 mono;	/* ignore colours, attributes only */
	struct theme_style	 style[TE__COUNT];
};

/* The built-in default theme (also the base every file overrides). */
void		 theme_default(struct theme *);
/* The built-in monochrome theme. */
void		 theme_mono(struct theme *);
/*
 * Applies the file at path over *t.  Returns 0, or -1 with errors in dl
 * (each naming file and line); lines that parse are applied anyway.
 */
int		 theme_load_file(struct theme *, const char *, struct diaglist *);
/* The same from an open stream (read to its end); path names it. */
int		 theme_load_stream(struct theme *, FILE *, const char *,
		    struct diaglist *);
/*
 * Finds theme NAME in the directories of the colon-separated list dirs
 * ("NAME.theme"); a name containing "/" is taken as a path.  Starts from
 * the built-in default (or mono for "mono").  Returns 0 or -1 (dl).
 */
int		 theme_load(struct theme *, const char *, const char *,
		    struct diaglist *);
const char	*theme_elem_name(enum theme_elem);
int		 theme_elem_from_name(const char *);

#endif
