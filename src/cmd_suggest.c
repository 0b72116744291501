/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope suggest: the category the rules suggest for each failure of
 * a run, next to the tag already confirmed; --accept turns suggestions
 * into tags where the test has none (the explorer's "A").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/json.h"
#include "ltpscope/triage.h"

static void
suggest_json(const struct triage_suggestion *v, size_t n)
{
	const struct triage_suggestion *s;
	size_t i;

	printf("[");
	for (i = 0; i < n; i++) {
		s = &v[i];
		printf("%s\n  {\"test\": ", i > 0 ? "," : "");
		json_write_str(stdout, s->tag, strlen(s->tag), JSON_W_LONE_DC);
		printf(", \"syscall\": ");
		json_write_str(stdout, s->syscall, strlen(s->syscall),
		    JSON_W_LONE_DC);
		printf(", \"status\": \"%s\", \"suggested\": ",
		    test_status_name(s->status));
		if (s->category != NULL) {
			json_write_str(stdout, s->category,
			    strlen(s->category), JSON_W_LONE_DC);
			printf(", \"rule\": \"%s:%lu\", \"line\": ",
			    s->rule_file, s->rule_line);
			json_write_str(stdout, s->line, strlen(s->line),
			    JSON_W_LONE_DC);
		} else
			printf("null");
		printf(", \"confirmed\": ");
		if (s->confirmed != NULL)
			json_write_str(stdout, s->confirmed,
			    strlen(s->confirmed), JSON_W_LONE_DC);
		else
			printf("null");
		printf("}");
	}
	printf("%s]\n", n > 0 ? "\n" : "");
}

/* w, or the length of s if that is more (s may be NULL). */
static int
widest(int w, const char *s)
{
	size_t len = s != NULL ? strlen(s) : 0;

	return len > (size_t)w && len < 256 ? (int)len : w;
}

static void
suggest_text(const struct triage_suggestion *v, size_t n)
{
	const struct triage_suggestion *s;
	int wt = 20, wc = 18;
	size_t i;

	/* Each column as wide as its longest entry. */
	for (i = 0; i < n; i++) {
		s = &v[i];
		wt = widest(wt, s->tag);
		wc = widest(widest(wc, s->category), s->confirmed);
	}
	printf("%-*s %-10s %-*s %-*s %s\n", wt, "TEST", "STATUS", wc,
	    "SUGGESTED", wc, "TAGGED", "BECAUSE");
	for (i = 0; i < n; i++) {
		s = &v[i];
		printf("%-*s %-10s %-*s %-*s ", wt, cli_field(s->tag),
		    test_status_name(s->status), wc, s->category != NULL ?
		    s->category : "-", wc, s->confirmed != NULL ?
		    s->confirmed : "-");
		if (s->category == NULL)
			printf("no rule matched\n");
		else if (s->line[0] == '\0')
			printf("%s:%lu (name)\n", s->rule_file, s->rule_line);
		else
			printf("%s:%lu: %s\n", s->rule_file, s->rule_line,
			    cli_field(s->line));
	}
}

static int
suggest_accept(struct store *st, const struct triage_suggestion *v, size_t n,
    int64_t run, const char *author)
{
	struct triage_tag t;
	struct diaglist dl;
	size_t i, nacc = 0;
	int rv = 0, added;

	diag_init(&dl);
	for (i = 0; i < n; i++) {
		if (v[i].category == NULL || v[i].confirmed != NULL)
			continue;
		memset(&t, 0, sizeof(t));
		t.tag = v[i].tag;
		t.category = v[i].category;
		t.note = (char *)"";
		t.line = (char *)"";
		t.author = (char *)author;
		t.run_id = run;
		t.status_at = (int)v[i].status;
		/* A tag made since the suggestions were read stays. */
		if (store_tag_add(st, &t, &added, &dl) != STORE_OK) {
			rv = 1;
			break;
		}
		nacc += added;
	}
	cli_diags(&dl);
	diag_free(&dl);
	cli_error("suggest", "%zu suggestion%s accepted", nacc,
	    nacc == 1 ? "" : "s");
	return rv;
}

static int
suggest_exec(struct cmd_args *a)
{
	struct triage_suggestion *v;
	struct categories cats;
	struct diaglist dl;
	struct rules *rules;
	struct store *st;
	size_t n;
	int rv = 0;
	int64_t run;

	if (cli_categories(&cats) < 0)
		return 1;
	rules = cli_rules(&cats);
	categories_free(&cats);
	if (rules == NULL)
		return 1;
	if (cli_open(cmd_str(a, "db"), 0, &st) != 0) {
		rules_free(rules);
		return 1;
	}
	if ((run = cli_run(st, a->argc > 0 ? a->argv[0] : "last",
	    a->name)) == 0) {
		rv = 1;
		goto out;
	}
	diag_init(&dl);
	if (triage_suggest_run(st, rules, run, &v, &n, &dl) != STORE_OK)
		rv = 1;
	else {
		if (cmd_json(a))
			suggest_json(v, n);
		else
			suggest_text(v, n);
		if (cmd_has(a, "accept"))
			rv = suggest_accept(st, v, n, run,
			    cli_author(cmd_str(a, "author")));
		triage_suggestions_free(v, n);
	}
	cli_diags(&dl);
	diag_free(&dl);
out:
	store_close(st);
	rules_free(rules);
	return rv;
}

static const struct cmd_option suggest_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "accept", .kind = CMD_FLAG },
	{ .name = "author", .kind = CMD_STR },
	{ .name = NULL }
};

const struct cmd_entry cmd_suggest_entry = {
	.name = "suggest",
	.exec = suggest_exec,
	.options = suggest_options,
	.formats = "text|json",
	.args_max = 1,
	.usage = "suggest [-d db] [--accept] [--author name] "
	    "[--format text|json] [run]",
	.summary = "suggest categories for a run's failures from the rules",
};
