/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope: the command table and dispatch.  With no subcommand the
 * explorer (TUI) starts; every subcommand is also usable from a script.
 *
 * Each subcommand is declared once, in a struct cmd_entry beside its
 * exec function (cmd.h); cmd_table[] lists them.  "help", each -h and
 * tests/test_man (against the manual's SYNOPSIS) all read the entries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cmd.h"
#include "ltpscope/paths.h"
#include "ltpscope/xmalloc.h"

/*
 * Every subcommand, in the order "ltpscope help" lists them; each entry
 * sits beside its exec function.
 */
const struct cmd_entry *const cmd_table[] = {
	&cmd_ui_entry, &cmd_catalogue_entry, &cmd_tests_entry, &cmd_run_entry,
	&cmd_runs_entry, &cmd_boxes_entry, &cmd_show_entry, &cmd_tag_entry,
	&cmd_untag_entry,
	&cmd_tags_entry, &cmd_suggest_entry, &cmd_baseline_entry,
	&cmd_compare_entry, &cmd_export_entry, &cmd_import_entry,
	&cmd_export_logs_entry, &cmd_profile_entry, &cmd_func_entry,
	&cmd_help_entry, NULL
};

const struct cmd_entry *
cmd_find(const char *name)
{
	size_t i;

	for (i = 0; cmd_table[i] != NULL; i++)
		if (strcmp(cmd_table[i]->name, name) == 0)
			return cmd_table[i];
	return NULL;
}

/* Said after help's synopses: where the global options may go. */
static const char global_note[] =
    "-d, -L and -m may also come before the subcommand, as in\n"
    "\"ltpscope -d my.db show last\", where the subcommand takes them.\n";

static void
help_all(void)
{
	size_t i;

	printf("usage: ltpscope [-d db] [-L dir] [-m table]... subcommand "
	    "[argument ...]\n");
	for (i = 0; cmd_table[i] != NULL; i++)
		cmd_entry_usage(stdout, cmd_table[i], "       ");
	printf("\n%s\nSubcommands:\n", global_note);
	for (i = 0; cmd_table[i] != NULL; i++)
		printf("  %-12s %s\n", cmd_table[i]->name,
		    cmd_table[i]->summary);
	printf("\nSee ltpscope(1) for details.\n");
}

static int
help_exec(struct cmd_args *a)
{
	const struct cmd_entry *c;

	if (a->argc == 0) {
		help_all();
		return 0;
	}
	if ((c = cmd_find(a->argv[0])) == NULL)
		return cmd_error(a, "unknown subcommand '%s'", a->argv[0]);
	cmd_entry_usage(stdout, c, NULL);
	printf("\n%s.\n", c->summary);
	return 0;
}

const struct cmd_entry cmd_help_entry = {
	.name = "help",
	.exec = help_exec,
	.args_max = 1,
	.usage = "help [subcommand]",
	.summary = "this list, or the usage of one subcommand",
};

/* The options that may come before the subcommand's name. */
static const struct global {
	int		 letter;
	const char	*name;
	const char	*what;		/* what it means there */
} globals[] = {
	{ 'd', "db", "a results database" },
	{ 'L', "ltproot", "an LTP install" },
	{ 'm', "master", "a syscall table" },
	{ 0, NULL, NULL }
};

/*
 * A global option at argv[*i] (-d db, -dDB, --db db, --db=db, and so
 * for -L/--ltproot and -m/--master): *val and *i past it; NULL when
 * argv[*i] is none.
 */
static const struct global *
global_option(int argc, char **argv, int *i, const char **val)
{
	const struct global *g;
	const char *a = argv[*i];
	size_t n;

	for (g = globals; g->name != NULL; g++) {
		n = strlen(g->name);
		if (a[0] == '-' && a[1] == g->letter) {
			*val = a[2] != '\0' ? a + 2 : NULL;
		} else if (strncmp(a, "--", 2) == 0 &&
		    strncmp(a + 2, g->name, n) == 0 &&
		    (a[n + 2] == '\0' || a[n + 2] == '=')) {
			*val = a[n + 2] == '=' ? a + n + 3 : NULL;
		} else
			continue;
		if (*val == NULL) {
			/* Without its argument: the explorer says so. */
			if (*i + 1 >= argc)
				return NULL;
			*val = argv[++*i];
		}
		++*i;
		return g;
	}
	return NULL;
}

/*
 * "ltpscope -d x.db run ...": the global options before the
 * subcommand's name go right after it, where it parses them as its own;
 * options after the name come later and so win.
 */
static int
dispatch(int argc, char **argv)
{
	static char dopt[] = "-d", Lopt[] = "-L", mopt[] = "-m";
	const struct global *g;
	const struct cmd_entry *c;
	const char *val;
	char **nargv;
	int i = 1, n = 1, given = 0, rv = 2;

	nargv = xcalloc((size_t)argc * 2 + 1, sizeof(*nargv));
	while (i < argc && (g = global_option(argc, argv, &i, &val)) !=
	    NULL) {
		nargv[n++] = g->letter == 'd' ? dopt : g->letter == 'L' ?
		    Lopt : mopt;
		nargv[n++] = (char *)val;
		given |= 1 << (g - globals);
	}
	if (i == argc || argv[i][0] == '-') {
		/*
		 * The explorer's options, as they always were; its messages
		 * name no subcommand, as the user typed none.
		 */
		free(nargv);
		return cmd_entry_run(&cmd_ui_entry, NULL, argc, argv);
	}
	if ((c = cmd_find(argv[i])) == NULL) {
		fprintf(stderr, "ltpscope: unknown subcommand '%s'; "
		    "ltpscope help lists them\n", argv[i]);
		goto out;
	}
	for (g = globals; g->name != NULL; g++)
		if ((given & 1 << (g - globals)) != 0 &&
		    !cmd_entry_takes(c, g->letter, g->name)) {
			fprintf(stderr, "ltpscope: %s: before the "
			    "subcommand, -%c means %s, which %s does not "
			    "take\n", c->name, g->letter, g->what, c->name);
			cmd_entry_usage(stderr, c, NULL);
			goto out;
		}
	nargv[0] = argv[i];
	for (i++; i < argc; i++)
		nargv[n++] = argv[i];
	rv = cmd_entry_run(c, c->name, n, nargv);
out:
	free(nargv);
	return rv;
}

int
main(int argc, char **argv)
{
	paths_init(argv[0]);
	if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		help_all();
		return 0;
	}
	if (argc >= 2 && (strcmp(argv[1], "-V") == 0 ||
	    strcmp(argv[1], "--version") == 0)) {
		printf("ltpscope %s\n", LTPSCOPE_VERSION);
		return 0;
	}
	return dispatch(argc, argv);
}
