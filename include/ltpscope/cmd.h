/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Subcommands of the ltpscope program.  Each is main()-shaped: it gets
 * the arguments after the subcommand name (argv[0] is the subcommand)
 * and returns the exit status.  The TUI's ":" prompt calls the same
 * functions, so every screen action is scriptable.
 *
 * A subcommand is declared once, in cmd_table[] (main.c): its name,
 * function, synopsis and summary together, so that "ltpscope help",
 * its own -h and the manual (checked by tests/test_man) cannot drift.
 */
#ifndef LTPSCOPE_CMD_H
#define LTPSCOPE_CMD_H

#include <stdio.h>

struct cmd {
	const char	*name;
	int		(*fn)(int, char **);
	/*
	 * The forms of its synopsis, one per line, each starting with the
	 * subcommand's name; printed wrapped to 80 columns.
	 */
	const char	*synopsis;
	const char	*summary;	/* one line for help */
	/*
	 * Which of the global options -d (db), -L (LTP root) and -m
	 * (table) it takes: they may then come before its name too.
	 */
	const char	*globals;
};

/* The table, NULL-terminated; defined in main.c. */
extern const struct cmd cmd_table[];

const struct cmd	*cmd_find(const char *);
/*
 * Prints the synopsis of subcommand name, "usage: ltpscope ..." first:
 * to stdout for -h and --help (exit 0), to stderr after a usage error
 * (exit 2).
 */
void	cmd_usage(FILE *, const char *name);
/*
 * A number an option takes, checked: 0 and *out set, or -1 after
 * "ltpscope: cmd: opt: 'x' is not a whole number from min to max"
 * on stderr.
 */
int	cmd_number(const char *cmd, const char *opt, const char *arg,
	    long long min, long long max, long long *out);

int	cmd_catalogue(int, char **);
int	cmd_tests(int, char **);
int	cmd_ui(int, char **);
int	cmd_run(int, char **);
int	cmd_runs(int, char **);
int	cmd_show(int, char **);
int	cmd_import(int, char **);
int	cmd_export_logs(int, char **);
int	cmd_tag(int, char **);
int	cmd_untag(int, char **);
int	cmd_tags(int, char **);
int	cmd_suggest(int, char **);
int	cmd_baseline(int, char **);
int	cmd_compare(int, char **);
int	cmd_export(int, char **);
int	cmd_profile(int, char **);

struct store;
/*
 * compare --arch: the multi-arch matrix of list (--arch=LIST, may be
 * NULL) and the words (run numbers, "last" or arch names,
 * comma-separated lists of them; none at all: every arch) on stdout;
 * the exit status.
 */
int	cmd_compare_arch(struct store *, const char *list, char **words,
	    int nwords, int json, int all);

struct profile;
/* Reads profile name from db (NULL: the default); -1 after a message. */
int	cmd_profile_load(const char *db, const char *name, struct profile *);
/*
 * Replaces each "@NAME" of the list *vp (n strings, each malloc'd, as
 * the array is) by the calls of profile NAME; -1 after a message, the
 * list untouched.
 */
int	cmd_profile_expand(const char *db, const char ***vp, size_t *np);

#endif
