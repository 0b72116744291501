/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope: the command table and dispatch.  With no subcommand the
 * explorer (TUI) starts; every subcommand is also usable from a script.
 *
 * Each subcommand is declared once below, with its synopsis: "help",
 * its -h and tests/test_man (against the manual's SYNOPSIS) all read it
 * from here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cmd.h"
#include "ltpscope/numparse.h"
#include "ltpscope/paths.h"
#include "ltpscope/xmalloc.h"

#define USAGE_WIDTH	80

static int	cmd_help(int, char **);

const struct cmd cmd_table[] = {
	{ .name = "ui", .fn = cmd_ui, .globals = "dLm",
	  .synopsis = "[ui] [--demo] [-m table]... [-L dir] [-f runtest]... "
	    "[-d db] [-j jobs] [--timeout seconds] [--theme name] "
	    "[--host [user@]host[:port]] [--ssh-config file] "
	    "[--box-master path]",
	  .summary = "open the explorer (the default without a subcommand)" },
	{ .name = "catalogue", .fn = cmd_catalogue, .globals = "m",
	  .synopsis = "catalogue [-m table]... [--format text|csv|json] "
	    "[--all]\n"
	    "catalogue [-m table]... --summary | --crosscheck\n"
	    "catalogue [-m table]... --diff old new",
	  .summary = "list the syscall catalogue of syscalls.master files" },
	{ .name = "tests", .fn = cmd_tests, .globals = "Lm",
	  .synopsis = "tests [-L dir] [-f runtest]... [-m table]... "
	    "[-s syscall[,...]] [-p regex] [--unmapped] [--doc] "
	    "[--format text|json] [--metadata file | --no-metadata] "
	    "[tag ...]",
	  .summary = "list LTP tests with the syscalls they exercise" },
	{ .name = "run", .fn = cmd_run, .globals = "dLm",
	  .synopsis = "run [-v] [-j jobs] [-d db] [-L dir] [-f runtest]... "
	    "[-m table]... [-s syscall[,...]] [-p regex] [--timeout seconds] "
	    "[--grace ms] [--label text] [--skip file]... [--pipe] "
	    "[--timeout-mul x] [--dev device] [--reproducible] "
	    "[--kconfig file] [--metadata file | --no-metadata] "
	    "[--no-skiplist] [--host [user@]host[:port]]... "
	    "[--ssh-config file] [--box-master path] [--reboot-cmd command] "
	    "[--box-wait seconds] "
	    "[--console file] [--skip-culprit] [--reference] [--dry-run] "
	    "[tag ...]\n"
	    "run --resume [run] [-d db] [--skip-culprit | --no-skip-culprit]",
	  .summary = "run LTP tests safely, storing every result" },
	{ .name = "runs", .fn = cmd_runs, .globals = "d",
	  .synopsis = "runs [-d db] [--format text|json]",
	  .summary = "list the runs in the results database, newest first" },
	{ .name = "show", .fn = cmd_show, .globals = "d",
	  .synopsis = "show run|last [-d db] [--format text|json] "
	    "[--output test]\n"
	    "show run|last [-d db] --format json --with-outputs",
	  .summary = "show the results of a run, or the output of one test" },
	{ .name = "tag", .fn = cmd_tag, .globals = "d",
	  .synopsis = "tag [-d db] [-m note] [--run run] [--line text] "
	    "[--author name] test category\n"
	    "tag [-d db] --resolved [--line text] test",
	  .summary = "put a triage category and a note on a failing test" },
	{ .name = "untag", .fn = cmd_untag, .globals = "d",
	  .synopsis = "untag [-d db] [--line text] test",
	  .summary = "remove a test's triage tag" },
	{ .name = "tags", .fn = cmd_tags, .globals = "d",
	  .synopsis = "tags [-d db] [--run run] [--format text|csv|json] "
	    "[test]",
	  .summary = "list triage tags, with \"resolved?\" for tests that "
	    "now pass" },
	{ .name = "suggest", .fn = cmd_suggest, .globals = "d",
	  .synopsis = "suggest [-d db] [--accept] [--author name] "
	    "[--format text|json] [run]",
	  .summary = "suggest categories for a run's failures from the rules" },
	{ .name = "baseline", .fn = cmd_baseline, .globals = "d",
	  .synopsis = "baseline [-d db] [--reference] run\n"
	    "baseline [-d db] --clear arch\n"
	    "baseline [-d db] --clear-reference arch",
	  .summary = "make a run the baseline (or the Linux reference) of "
	    "its arch" },
	{ .name = "compare", .fn = cmd_compare, .globals = "d",
	  .synopsis = "compare [-d db] [--fail-on-regression] [--all] "
	    "[--flaky N/M] [--format text|json] [run_a] [run_b]\n"
	    "compare [-d db] --arch [--all] [--format text|json] "
	    "[arch|run ...]",
	  .summary = "compare two runs (the newest and its baseline), or "
	    "the arches" },
	{ .name = "export", .fn = cmd_export, .globals = "dm",
	  .synopsis = "export [-d db] [--format csv|md|json|html] [-o file] "
	    "[--arch arch] [--run run] [--all] [-m table]... "
	    "[--weight @profile[,...]]",
	  .summary = "export the shopping list of failures per syscall" },
	{ .name = "import", .fn = cmd_import, .globals = "d",
	  .synopsis = "import [-v] [-d db] [--label text] [--kirk] "
	    "[--reference] path",
	  .summary = "import shell tool logs or kirk's results.json as a run" },
	{ .name = "export-logs", .fn = cmd_export_logs, .globals = "d",
	  .synopsis = "export-logs [-d db] [--force] run|last dir",
	  .summary = "write a run as the shell tool's <syscall>/<test>.log "
	    "tree" },
	{ .name = "profile", .fn = cmd_profile, .globals = "dm",
	  .synopsis = "profile import [-d db] [--name name] file\n"
	    "profile show [-d db] [-m table]... [--arch arch] "
	    "[--format text|json] name\n"
	    "profile list [-d db]\n"
	    "profile delete [-d db] name",
	  .summary = "import a trace of a Linux program; show the calls it "
	    "needs" },
	{ .name = "help", .fn = cmd_help, .globals = "",
	  .synopsis = "help [subcommand]",
	  .summary = "this list, or the usage of one subcommand" },
	{ NULL, NULL, NULL, NULL, NULL }
};

/* Said after help's synopses: where the global options may go. */
static const char global_note[] =
    "-d, -L and -m may also come before the subcommand, as in\n"
    "\"ltpscope -d my.db show last\", where the subcommand takes them.\n";

const struct cmd *
cmd_find(const char *name)
{
	const struct cmd *c;

	for (c = cmd_table; c->name != NULL; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/*
 * One form, "ltpscope " and the form after lead, wrapped before
 * USAGE_WIDTH at blanks outside brackets; a continuation lines up
 * after the subcommand's name.
 */
static void
usage_form(FILE *fp, const char *lead, const char *form, size_t len)
{
	const char *p = form, *end = form + len, *tok;
	size_t col, indent = 0, toklen;
	int depth;

	col = (size_t)fprintf(fp, "%sltpscope", lead);
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		for (tok = p, depth = 0; p < end && (depth > 0 || *p != ' ');
		    p++)
			depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
		toklen = (size_t)(p - tok);
		if (indent == 0)
			indent = col + 1 + toklen + 1;
		else if (col + 1 + toklen > USAGE_WIDTH) {
			fprintf(fp, "\n%*s", (int)indent - 1, "");
			col = indent - 1;
		}
		col += (size_t)fprintf(fp, " %.*s", (int)toklen, tok);
	}
	fputc('\n', fp);
}

/* Every form of c; lead goes before the first ("usage: " or blanks). */
static void
usage_forms(FILE *fp, const struct cmd *c, const char *lead)
{
	const char *p, *nl;

	for (p = c->synopsis; *p != '\0'; p = *nl == '\n' ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		usage_form(fp, lead, p, (size_t)(nl - p));
		lead = "       ";
	}
}

void
cmd_usage(FILE *fp, const char *name)
{
	const struct cmd *c;

	if ((c = cmd_find(name)) != NULL)
		usage_forms(fp, c, "usage: ");
}

int
cmd_number(const char *cmd, const char *opt, const char *arg,
    long long min, long long max, long long *out)
{
	char msg[160];

	if (numparse_ll(arg, min, max, out, msg, sizeof(msg)) == 0)
		return 0;
	fprintf(stderr, "ltpscope: %s: %s: %s\n", cmd, opt, msg);
	return -1;
}

static void
help_all(void)
{
	const struct cmd *c;

	printf("usage: ltpscope [-d db] [-L dir] [-m table]... subcommand "
	    "[argument ...]\n");
	for (c = cmd_table; c->name != NULL; c++)
		usage_forms(stdout, c, "       ");
	printf("\n%s\nSubcommands:\n", global_note);
	for (c = cmd_table; c->name != NULL; c++)
		printf("  %-12s %s\n", c->name, c->summary);
	printf("\nSee ltpscope(1) for details.\n");
}

static int
cmd_help(int argc, char **argv)
{
	const struct cmd *c;

	if (argc == 1) {
		help_all();
		return 0;
	}
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		cmd_usage(stdout, "help");
		return 0;
	}
	if (argc != 2 || argv[1][0] == '-') {
		cmd_usage(stderr, "help");
		return 2;
	}
	if ((c = cmd_find(argv[1])) == NULL) {
		fprintf(stderr, "ltpscope: help: unknown subcommand '%s'\n",
		    argv[1]);
		return 2;
	}
	usage_forms(stdout, c, "usage: ");
	printf("\n%s.\n", c->summary);
	return 0;
}

/*
 * A global option at argv[*i] (-d db, -dDB, --db db, --db=db, and so
 * for -L/--ltproot and -m/--master): its letter, *val and *i past it;
 * 0 when argv[*i] is none.
 */
static int
global_option(int argc, char **argv, int *i, const char **val)
{
	static const struct { int letter; const char *name; } g[] = {
		{ 'd', "db" }, { 'L', "ltproot" }, { 'm', "master" }
	};
	const char *a = argv[*i];
	size_t k, n;

	for (k = 0; k < sizeof(g) / sizeof(g[0]); k++) {
		n = strlen(g[k].name);
		if (a[0] == '-' && a[1] == g[k].letter) {
			*val = a[2] != '\0' ? a + 2 : NULL;
		} else if (strncmp(a, "--", 2) == 0 &&
		    strncmp(a + 2, g[k].name, n) == 0 &&
		    (a[n + 2] == '\0' || a[n + 2] == '=')) {
			*val = a[n + 2] == '=' ? a + n + 3 : NULL;
		} else
			continue;
		if (*val == NULL) {
			/* Without its argument: the explorer says so. */
			if (*i + 1 >= argc)
				return 0;
			*val = argv[++*i];
		}
		++*i;
		return g[k].letter;
	}
	return 0;
}

static const char *
global_what(int letter)
{
	return letter == 'd' ? "a results database" : letter == 'L' ?
	    "an LTP install" : "a syscall table";
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
	const struct cmd *c;
	const char *val;
	char **nargv, prog[64];
	int i = 1, n = 1, letter, rv = 2;

	nargv = xcalloc((size_t)argc * 2 + 1, sizeof(*nargv));
	while (i < argc && (letter = global_option(argc, argv, &i, &val)) !=
	    0) {
		nargv[n++] = letter == 'd' ? dopt : letter == 'L' ? Lopt :
		    mopt;
		nargv[n++] = (char *)val;
	}
	if (i == argc || argv[i][0] == '-') {
		/*
		 * The explorer's options, as they always were; getopt's
		 * messages name the program the user typed, not "ui".
		 */
		free(nargv);
		argv[0] = (char *)"ltpscope";
		return cmd_ui(argc, argv);
	}
	if ((c = cmd_find(argv[i])) == NULL) {
		fprintf(stderr, "ltpscope: unknown subcommand '%s'; "
		    "ltpscope help lists them\n", argv[i]);
		goto out;
	}
	for (letter = 1; letter < n; letter += 2)
		if (strchr(c->globals, nargv[letter][1]) == NULL) {
			fprintf(stderr, "ltpscope: %s: before the "
			    "subcommand, %s means %s, which %s does not "
			    "take\n", c->name, nargv[letter],
			    global_what(nargv[letter][1]), c->name);
			cmd_usage(stderr, c->name);
			goto out;
		}
	/* getopt's own messages then name the subcommand like ours do. */
	snprintf(prog, sizeof(prog), "ltpscope %s", c->name);
	nargv[0] = prog;
	for (i++; i < argc; i++)
		nargv[n++] = argv[i];
	rv = c->fn(n, nargv);
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
