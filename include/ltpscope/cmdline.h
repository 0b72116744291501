/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The words of the explorer's ":" command line, parsed without curses:
 * what the line asks for and with which words.  The UI (ui_cmdline.c)
 * reads the line and does what this says.
 *
 * A line is a subcommand and its words, split like a runtest command
 * line (runtest_split(): blanks, quotes, backslashes) with no shell
 * syntax.  "q"/"quit" quits, "run" runs in the explorer's own engine
 * (-s syscall,... and test names only), "ui" is the explorer itself;
 * any other word is a subcommand run as `ltpscope WORDS` (whether it
 * is one is the caller's question: the command table is not core).
 *
 * Ownership: struct cmdline owns its words and every string its run
 * lists point at; cmdline_free() releases them.
 */
#ifndef LTPSCOPE_CMDLINE_H
#define LTPSCOPE_CMDLINE_H

#include <stddef.h>

enum cmdline_kind {
	CL_EMPTY,	/* nothing but blanks */
	CL_ERROR,	/* why says what is wrong */
	CL_QUIT,
	CL_RUN,		/* sys and tags say what */
	CL_SELF,	/* "ui": the explorer already */
	CL_OTHER	/* argv[0] is a subcommand (or not: ask cmd_find) */
};

struct cmdline {
	enum cmdline_kind	 kind;
	char			 why[256];	/* CL_ERROR */
	char			**argv;		/* NULL-terminated; NULL for
						   CL_EMPTY and CL_ERROR */
	/* CL_RUN: the -s names (commas split) and the test names. */
	const char		**sys;
	size_t			 nsys;
	const char		**tags;
	size_t			 ntags;
	char			**lists;	/* copies the -s names point
						   into, NULL-terminated */
};

/* Fills *cl from line (any bytes up to its NUL); returns cl->kind. */
enum cmdline_kind	cmdline_parse(struct cmdline *, const char *line);
void			cmdline_free(struct cmdline *);

#endif
