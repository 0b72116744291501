/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope tag, untag and tags: put a category and a note on a failing
 * test (or one failing line of it), take it off, list them with their
 * state against a run ("failing", "resolved?", ...).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/json.h"
#include "ltpscope/store_triage.h"

/* The test's result the tag is made on: in run, else its newest. */
static void
tag_result(struct store *st, const char *test, int64_t run,
    struct triage_tag *t)
{
	struct store_result *h, r;
	struct diaglist dl;
	size_t n;

	diag_init(&dl);
	t->run_id = 0;
	t->status_at = -1;
	if (run != 0) {
		if (store_find_result(st, run, test, &r, &dl) == STORE_OK) {
			t->run_id = run;
			t->status_at = (int)r.status;
			store_result_clear(&r);
		} else
			cli_error("tag", "warning: run %" PRId64 " has no "
			    "result for %s", run, test);
	} else if (store_test_history(st, test, 1, &h, &n, &dl) ==
	    STORE_OK) {
		if (n == 0)
			cli_error("tag", "warning: no result for %s in the "
			    "database yet", test);
		else {
			t->run_id = h[0].run_id;
			t->status_at = (int)h[0].status;
		}
		store_results_free(h, n);
	}
	diag_free(&dl);
}

static int
tag_exec(struct cmd_args *a)
{
	struct triage_tag t;
	struct categories cats;
	struct diaglist dl;
	struct store *st;
	const char *note = cmd_str(a, "message"), *runarg = cmd_str(a, "run");
	const char *line = cmd_str(a, "line");
	int resolved = cmd_has(a, "resolved") > 0, rv = 0;
	int64_t run = 0;

	if (a->argc != (resolved ? 1 : 2))
		return cmd_usage_error(a);
	if (!resolved) {
		if (cli_categories(&cats) < 0)
			return 1;
		if (categories_find(&cats, a->argv[1]) == NULL) {
			categories_free(&cats);
			return cmd_error(a, "unknown category '%s' (see "
			    "data/categories; add your own in "
			    "$XDG_CONFIG_HOME/ltpscope/categories)",
			    a->argv[1]);
		}
		categories_free(&cats);
	}
	if (line == NULL)
		line = "";
	if (cli_open(cmd_str(a, "db"), 0, &st) != 0)
		return 1;
	diag_init(&dl);
	if (resolved) {
		if (store_tag_resolve(st, a->argv[0], line, 1, &dl) !=
		    STORE_OK)
			rv = 1;
		goto out;
	}
	if (runarg != NULL && (run = cli_run(st, runarg, a->name)) == 0) {
		rv = 1;
		goto out;
	}
	memset(&t, 0, sizeof(t));
	t.tag = a->argv[0];
	t.category = a->argv[1];
	t.note = (char *)(note != NULL ? note : "");
	t.line = (char *)line;
	t.author = (char *)cli_author(cmd_str(a, "author"));
	tag_result(st, t.tag, run, &t);
	if (store_tag_set(st, &t, &dl) != STORE_OK)
		rv = 1;
out:
	cli_diags(&dl);
	diag_free(&dl);
	store_close(st);
	return rv;
}

static int
untag_exec(struct cmd_args *a)
{
	struct diaglist dl;
	struct store *st;
	size_t n;
	int rv = 0;

	if (cli_open(cmd_str(a, "db"), 0, &st) != 0)
		return 1;
	diag_init(&dl);
	if (store_tag_remove(st, a->argv[0], cmd_str(a, "line"), &n, &dl) !=
	    STORE_OK)
		rv = 1;
	else if (n == 0) {
		(void)cmd_error(a, "%s has no tag", a->argv[0]);
		rv = 1;
	}
	cli_diags(&dl);
	diag_free(&dl);
	store_close(st);
	return rv;
}

static void
tags_csv_field(const char *s, int last)
{
	putchar('"');
	for (; *s != '\0'; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	fputs(last ? "\"\r\n" : "\",", stdout);
}

static void
tags_print(const struct triage_tag *v, size_t n, int format)
{
	char when[32], num[32];
	size_t i;

	if (format == 0 && n > 0)
		printf("%-20s %-16s %-10s %6s %-12s %s\n", "TEST", "CATEGORY",
		    "STATE", "RUN", "AUTHOR", "NOTE");
	if (format == 1)
		printf("\"test\",\"line\",\"category\",\"state\",\"run\","
		    "\"author\",\"created\",\"note\"\r\n");
	if (format == 2)
		printf("[");
	for (i = 0; i < n; i++) {
		const struct triage_tag *t = &v[i];

		cli_time(t->created, when, sizeof(when));
		(void)snprintf(num, sizeof(num), "%" PRId64, t->run_id);
		switch (format) {
		case 0:
			/* cli_field() has two buffers: two a printf. */
			printf("%-20s %-16s ", cli_field(t->tag),
			    cli_field(t->category));
			printf("%-10s %6s %-12s ", tag_state_name(t->state),
			    num, cli_field(t->author));
			printf("%s\n", cli_field(t->note));
			if (t->line[0] != '\0')
				printf("%-20s line: %s\n", "",
				    cli_field(t->line));
			break;
		case 1:
			tags_csv_field(t->tag, 0);
			tags_csv_field(t->line, 0);
			tags_csv_field(t->category, 0);
			tags_csv_field(tag_state_name(t->state), 0);
			tags_csv_field(num, 0);
			tags_csv_field(t->author, 0);
			tags_csv_field(when, 0);
			tags_csv_field(t->note, 1);
			break;
		default:
			printf("%s\n  {\"test\": ", i > 0 ? "," : "");
			json_write_str(stdout, t->tag, strlen(t->tag),
			    JSON_W_LONE_DC);
			printf(", \"line\": ");
			json_write_str(stdout, t->line, strlen(t->line),
			    JSON_W_LONE_DC);
			printf(", \"category\": ");
			json_write_str(stdout, t->category,
			    strlen(t->category), JSON_W_LONE_DC);
			printf(", \"state\": \"%s\", \"run\": %s, "
			    "\"created\": \"%s\", \"author\": ",
			    tag_state_name(t->state), num, when);
			json_write_str(stdout, t->author, strlen(t->author),
			    JSON_W_LONE_DC);
			printf(", \"note\": ");
			json_write_str(stdout, t->note, strlen(t->note),
			    JSON_W_LONE_DC);
			printf("}");
			break;
		}
	}
	if (format == 2)
		printf("%s]\n", n > 0 ? "\n" : "");
}

static int
tags_exec(struct cmd_args *a)
{
	static const char *const formats[] = { "text", "csv", "json", NULL };
	struct triage_tag *v;
	struct diaglist dl;
	struct store *st;
	const char *runarg = cmd_str(a, "run");
	size_t n;
	int format = 0, rv = 0;
	int64_t run = 0;

	while (a->format != NULL && formats[format] != NULL &&
	    strcmp(formats[format], a->format) != 0)
		format++;
	if (cli_open(cmd_str(a, "db"), 0, &st) != 0)
		return 1;
	if (runarg != NULL && (run = cli_run(st, runarg, a->name)) == 0) {
		store_close(st);
		return 1;
	}
	diag_init(&dl);
	if (store_tags_list(st, run, a->argc > 0 ? a->argv[0] : NULL, &v,
	    &n, &dl) != STORE_OK)
		rv = 1;
	else {
		tags_print(v, n, format);
		store_tags_free(v, n);
	}
	cli_diags(&dl);
	diag_free(&dl);
	store_close(st);
	return rv;
}

static const struct cmd_option tag_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "message", .letter = 'm', .kind = CMD_STR },
	{ .name = "run", .kind = CMD_STR },
	{ .name = "line", .kind = CMD_STR },
	{ .name = "author", .kind = CMD_STR },
	{ .name = "resolved", .kind = CMD_FLAG },
	{ .name = NULL }
};

const struct cmd_entry cmd_tag_entry = {
	.name = "tag",
	.exec = tag_exec,
	.options = tag_options,
	.args_min = 1,
	.args_max = 2,
	.usage = "tag [-d db] [-m note] [--run run] [--line text] "
	    "[--author name] test category\n"
	    "tag [-d db] --resolved [--line text] test",
	.summary = "put a triage category and a note on a failing test",
};

static const struct cmd_option untag_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "line", .kind = CMD_STR },
	{ .name = NULL }
};

const struct cmd_entry cmd_untag_entry = {
	.name = "untag",
	.exec = untag_exec,
	.options = untag_options,
	.args_min = 1,
	.args_max = 1,
	.usage = "untag [-d db] [--line text] test",
	.summary = "remove a test's triage tag",
};

static const struct cmd_option tags_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "run", .kind = CMD_STR },
	{ .name = NULL }
};

const struct cmd_entry cmd_tags_entry = {
	.name = "tags",
	.exec = tags_exec,
	.options = tags_options,
	.formats = "text|csv|json",
	.args_max = 1,
	.usage = "tags [-d db] [--run run] [--format text|csv|json] [test]",
	.summary = "list triage tags, with \"resolved?\" for tests that "
	    "now pass",
};
