/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Subcommands of the ltpscope program, each declared once, as tmux
 * declares its commands: a const struct cmd_entry beside its exec
 * function holds its name, the options it takes, its synopsis, how many
 * operands it wants and the function, so that "ltpscope help", its -h,
 * its option errors and the manual (checked by tests/test_man) cannot
 * drift.  cmd_table[] (main.c) is a list of pointers to the entries.
 *
 * The option loop is written once (cmd_entry.c): -h and --help, --format
 * against the entry's list (-f too where no option of the entry takes
 * -f), numbers checked against their range, an unknown option or a
 * missing argument, the operand count; each error is "ltpscope: CMD:
 * ..." on stderr, then the synopsis, exit 2.  The
 * exec function gets what was parsed (struct cmd_args) and returns the
 * exit status.  The TUI's ":" prompt runs the same program, so every
 * screen action is scriptable.
 */
#ifndef LTPSCOPE_CMD_H
#define LTPSCOPE_CMD_H

#include <stddef.h>
#include <stdio.h>

enum cmd_kind {
	CMD_FLAG,	/* no argument */
	CMD_STR,	/* an argument; the last one given counts */
	CMD_LIST,	/* an argument; every one given counts, in order */
	CMD_NUM,	/* a whole number from min to max, checked */
	CMD_OPTARG	/* an argument only as --name=value, or none */
};

/* One option; a list of them ends with a NULL name. */
struct cmd_option {
	const char	*name;		/* --name */
	int		 letter;	/* -x, or 0: only the long form */
	enum cmd_kind	 kind;
	long long	 min, max;	/* CMD_NUM's range */
};

/* Operands without an upper bound. */
#define CMD_ANY		-1

struct cmd_args;

struct cmd_entry {
	const char	*name;
	int		(*exec)(struct cmd_args *);
	/* Besides -h and --help, which every subcommand takes. */
	const struct cmd_option	*options;
	/* --format's words, "text|json", or NULL: no --format. */
	const char	*formats;
	int		 args_min, args_max;	/* operands */
	/*
	 * The forms of its synopsis, one per line, each starting with the
	 * subcommand's name; printed wrapped to 80 columns.
	 */
	const char	*usage;
	const char	*summary;	/* one line for help */
	/*
	 * Actions ("profile show ..."): each an entry of its own, whose
	 * usage is this entry's; NULL-terminated.  An entry with actions
	 * has no exec of its own.
	 */
	const struct cmd_entry	*const *actions;
	const struct cmd_entry	*parent;	/* an action's entry */
};

/* What one option was given: every argument, in order. */
struct cmd_optval {
	const char	**v;
	size_t		  n;		/* times given (a flag too) */
	long long	  num;		/* CMD_NUM: the last */
	size_t		  seq;		/* when last given: 1 for the first */
};

/* A parsed command line, as the exec function gets it. */
struct cmd_args {
	const struct cmd_entry	*entry;
	/*
	 * The subcommand as messages name it ("run", "profile show"), or
	 * NULL when the explorer was started without naming it: then the
	 * messages are "ltpscope: ..." alone, as the user typed no name.
	 */
	const char	 *name;
	struct cmd_optval *val;		/* one per option of entry */
	const char	 *format;	/* --format, or NULL */
	char		**argv;		/* the operands, in order */
	int		  argc;
	size_t		  nseq;		/* options taken so far */
};

/* The table, NULL-terminated; defined in main.c. */
extern const struct cmd_entry *const cmd_table[];

/* The subcommand called name, or NULL. */
const struct cmd_entry	*cmd_find(const char *name);
/*
 * Parses argv (argv[0] the subcommand's word) by e's options and runs
 * e; name is what messages call it (see struct cmd_args).  Returns the
 * exit status: 0 after -h, 2 after a usage error, else exec's.
 */
int	cmd_entry_run(const struct cmd_entry *e, const char *name, int argc,
	    char **argv);
/*
 * Whether e (or one of its actions) takes the option -letter meaning
 * --longname, so that it may come before the subcommand's name.
 */
int	cmd_entry_takes(const struct cmd_entry *e, int letter,
	    const char *longname);
/*
 * Prints e's synopsis (its parent's for an action), "usage: ltpscope"
 * first and lead before each further form: to stdout for -h and --help
 * (exit 0), to stderr after a usage error (exit 2).
 */
void	cmd_entry_usage(FILE *, const struct cmd_entry *e, const char *lead);

/* How many times option name was given (0: not at all). */
size_t	cmd_has(const struct cmd_args *, const char *name);
/* The last argument of option name, or NULL. */
const char	*cmd_str(const struct cmd_args *, const char *name);
/* Every argument of option name, in order, *np of them (may be NULL). */
const char	**cmd_list(const struct cmd_args *, const char *name,
	    size_t *np);
/*
 * Of two options that undo each other (--no-x, --x), which was given
 * last: 1 for the second, 0 for the first, -1 for neither.
 */
int	cmd_later(const struct cmd_args *, const char *first,
	    const char *second);
/* The number option name was given, else dflt. */
long long	cmd_num(const struct cmd_args *, const char *name,
	    long long dflt);
/*
 * Option name's argument as a decimal fraction from min to max: 0 with
 * *out set (untouched when not given), or -1 after the message.
 */
int	cmd_real(const struct cmd_args *, const char *name, double min,
	    double max, double *out);
/* --format json was given. */
int	cmd_json(const struct cmd_args *);
/*
 * A usage error in words: "ltpscope: CMD: " and the message on
 * stderr; returns 2, the exit status.
 */
int	cmd_error(const struct cmd_args *, const char *fmt, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
/* The synopsis on stderr; returns 2, the exit status. */
int	cmd_usage_error(const struct cmd_args *);
/*
 * A number in a word (an operand, say), checked: 0 and *out set, or -1
 * after "ltpscope: CMD: what: 'x' is not a whole number from min to
 * max" on stderr.
 */
int	cmd_number(const struct cmd_args *, const char *what,
	    const char *word, long long min, long long max, long long *out);

extern const struct cmd_entry	cmd_ui_entry, cmd_catalogue_entry,
	    cmd_tests_entry, cmd_run_entry, cmd_runs_entry, cmd_show_entry,
	    cmd_tag_entry, cmd_untag_entry, cmd_tags_entry, cmd_suggest_entry,
	    cmd_baseline_entry, cmd_compare_entry, cmd_export_entry,
	    cmd_import_entry, cmd_export_logs_entry, cmd_profile_entry,
	    cmd_func_entry, cmd_help_entry, cmd_boxes_entry;

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
 * the array is) by the calls of profile NAME, by their Linux names
 * where cat (or NULL) knows a kdump trace's table name or slot number
 * ("__getcwd", "#334"); -1 after a message, the list untouched.
 */
struct catalogue;
int	cmd_profile_expand(const char *db, struct catalogue *cat,
	    const char ***vp, size_t *np);

#endif
