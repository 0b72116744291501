/*
 * ltpscope: the command table and dispatch.  With no subcommand the
 * explorer (TUI) starts; every subcommand is also usable from a script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cmd.h"
#include "ltpscope/paths.h"

const struct cmd cmd_table[] = {
	{ "catalogue", cmd_catalogue,
	    "[-m file]... [--format text|csv|json] [--all] [--summary] "
	    "[--diff old new] [--crosscheck]",
	    "list the syscall catalogue of syscalls.master files" },
	{ "tests", cmd_tests,
	    "[-L dir] [-f runtest]... [-m table] [-s syscall,...] [-p regex] "
	    "[--unmapped] [--format text|json] [tag ...]",
	    "list LTP tests with the syscalls they exercise" },
	{ "runs", cmd_runs, "[-d file] [--format text|json]",
	    "list the runs in the results database, newest first" },
	{ "show", cmd_show,
	    "run|last [-d file] [--format text|json] [--output test]",
	    "show the results of a run, or the output of one test" },
	{ "run", cmd_run,
	    "[-d db] [-L dir] [-f runtest]... [-m table]... [-s syscall,...] "
	    "[-p regex] [--timeout s] [--label text] [--skip file]... "
	    "[--dry-run] [-v] [test ...] | --resume [run]",
	    "run LTP tests safely, storing every result" },
	{ "tag", cmd_tag,
	    "[-d db] [-m note] [--run run] [--line text] [--author name] "
	    "test category | --resolved test",
	    "put a triage category and a note on a failing test" },
	{ "untag", cmd_untag, "[-d db] [--line text] test",
	    "remove a test's triage tag" },
	{ "tags", cmd_tags, "[-d db] [--run run] [--format text|csv|json] "
	    "[test]",
	    "list triage tags, with \"resolved?\" for tests that now pass" },
	{ "suggest", cmd_suggest, "[-d db] [--accept] [--format text|json] "
	    "[run]",
	    "suggest categories for a run's failures from the rules" },
	{ "baseline", cmd_baseline, "[-d db] run | --clear arch",
	    "make a run the baseline of its arch" },
	{ "compare", cmd_compare,
	    "[-d db] [--fail-on-regression] [--all] [--flaky N/M] "
	    "[--format text|json] [run_a] [run_b]",
	    "compare two runs (default: the newest against the baseline)" },
	{ "export", cmd_export,
	    "[-d db] [--format csv|md|json|html] [-o file] [--arch arch] "
	    "[--run run] [--all] [-m table]",
	    "export the shopping list of failures per syscall" },
	{ "import", cmd_import, "[-v] [-d db] [--label text] [--kirk] path",
	    "import shell tool logs or kirk's results.json as a run" },
	{ "export-logs", cmd_export_logs, "[-d db] [--force] run|last dir",
	    "write a run as the shell tool's <syscall>/<test>.log tree" },
	{ "ui", cmd_ui, "[--demo] [-m file]... [-L dir] [-f runtest]... "
	    "[-d db] [--timeout s] [-j jobs] [--theme name]",
	    "open the explorer (the default without a subcommand)" },
	{ NULL, NULL, NULL, NULL }
};

const struct cmd *
cmd_find(const char *name)
{
	const struct cmd *c;

	for (c = cmd_table; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static void
usage(FILE *fp)
{
	const struct cmd *c;

	fprintf(fp, "usage: ltpscope [--demo] [-m file]...\n");
	for (c = cmd_table; c->name != NULL; c++)
		fprintf(fp, "       ltpscope %s %s\n", c->name, c->usage);
}

static void
help(void)
{
	const struct cmd *c;

	usage(stdout);
	printf("\nSubcommands:\n");
	for (c = cmd_table; c->name != NULL; c++)
		printf("  %-12s %s\n", c->name, c->summary);
	printf("\nSee ltpscope(1) for details.\n");
}

int
main(int argc, char **argv)
{
	const struct cmd *c;
	char prog[64];

	paths_init(argv[0]);
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (strcmp(argv[1], "-h") == 0 ||
		    strcmp(argv[1], "--help") == 0)) {
			help();
			return 0;
		}
		if (argc >= 2 && (strcmp(argv[1], "-V") == 0 ||
		    strcmp(argv[1], "--version") == 0)) {
			printf("ltpscope %s\n", LTPSCOPE_VERSION);
			return 0;
		}
		argv[0] = (char *)"ui";
		return cmd_ui(argc, argv);
	}
	if (strcmp(argv[1], "help") == 0) {
		help();
		return 0;
	}
	if ((c = cmd_find(argv[1])) == NULL) {
		fprintf(stderr, "ltpscope: unknown subcommand '%s'\n", argv[1]);
		usage(stderr);
		return 2;
	}
	/* getopt's own messages then name the subcommand like ours do. */
	snprintf(prog, sizeof(prog), "ltpscope %s", c->name);
	argv[1] = prog;
	return c->fn(argc - 1, argv + 1);
}
