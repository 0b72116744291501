/*
 * Subcommands of the ltpscope program.  Each is main()-shaped: it gets
 * the arguments after the subcommand name (argv[0] is the subcommand)
 * and returns the exit status.  The TUI's ":" prompt calls the same
 * functions, so every screen action is scriptable.
 */
#ifndef LTPSCOPE_CMD_H
#define LTPSCOPE_CMD_H

struct cmd {
	const char	*name;
	int		(*fn)(int, char **);
	const char	*usage;		/* argument synopsis */
	const char	*summary;	/* one line for help */
};

/* The table, NULL-terminated; defined in main.c. */
extern const struct cmd cmd_table[];

const struct cmd	*cmd_find(const char *);

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

#endif
