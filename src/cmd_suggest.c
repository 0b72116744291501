/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope suggest: the category the rules suggest for each failure of
 * a run, next to the tag already confirmed; --accept turns suggestions
 * into tags where the test has none (the explorer's "A").
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cmd.h"
#include "ltpscope/json.h"
#include "ltpscope/storecli.h"
#include "ltpscope/triage.h"
#include "ltpscope/triagecli.h"

static void
suggest_usage(FILE *fp)
{
	cmd_usage(fp, "suggest");
}

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
		printf("%-*s %-10s %-*s %-*s ", wt, storecli_field(s->tag),
		    test_status_name(s->status), wc, s->category != NULL ?
		    s->category : "-", wc, s->confirmed != NULL ?
		    s->confirmed : "-");
		if (s->category == NULL)
			printf("no rule matched\n");
		else if (s->line[0] == '\0')
			printf("%s:%lu (name)\n", s->rule_file, s->rule_line);
		else
			printf("%s:%lu: %s\n", s->rule_file, s->rule_line,
			    storecli_field(s->line));
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
	diag_print(&dl, stderr, "ltpscope");
	diag_free(&dl);
	fprintf(stderr, "ltpscope: suggest: %zu suggestion%s accepted\n",
	    nacc, nacc == 1 ? "" : "s");
	return rv;
}

int
cmd_suggest(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "accept", no_argument, NULL, 'A' },
		{ "author", required_argument, NULL, 'a' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct triage_suggestion *v;
	struct categories cats;
	struct diaglist dl;
	struct rules *rules;
	struct store *st;
	const char *db = NULL, *author = NULL;
	size_t n;
	int ch, json = 0, accept = 0, rv = 0;
	int64_t run;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:f:h", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'd':
			db = optarg;
			break;
		case 'A':
			accept = 1;
			break;
		case 'a':
			author = optarg;
			break;
		case 'f':
			if ((json = storecli_json_format(optarg)) < 0) {
				suggest_usage(stderr);
				return 2;
			}
			break;
		case 'h':
			suggest_usage(stdout);
			return 0;
		default:
			suggest_usage(stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		suggest_usage(stderr);
		return 2;
	}
	if (triagecli_categories(&cats) < 0)
		return 1;
	rules = triagecli_rules(&cats);
	categories_free(&cats);
	if (rules == NULL)
		return 1;
	if ((st = triagecli_open(db, "suggest")) == NULL) {
		rules_free(rules);
		return 1;
	}
	if ((run = triagecli_run(st, optind < argc ? argv[optind] : "last",
	    "suggest")) == 0) {
		rv = 1;
		goto out;
	}
	diag_init(&dl);
	if (triage_suggest_run(st, rules, run, &v, &n, &dl) != STORE_OK)
		rv = 1;
	else {
		if (json)
			suggest_json(v, n);
		else
			suggest_text(v, n);
		if (accept)
			rv = suggest_accept(st, v, n, run,
			    triagecli_author(author));
		triage_suggestions_free(v, n);
	}
	diag_print(&dl, stderr, "ltpscope");
	diag_free(&dl);
out:
	store_close(st);
	rules_free(rules);
	return rv;
}
