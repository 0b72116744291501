/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope tag, untag and tags: put a category and a note on a failing
 * test (or one failing line of it), take it off, list them with their
 * state against a run ("failing", "resolved?", ...).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/json.h"
#include "ltpscope/store_triage.h"

static void
tag_usage(FILE *fp)
{
	cmd_usage(fp, "tag");
}

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
			fprintf(stderr, "ltpscope: tag: warning: run %" PRId64
			    " has no result for %s\n", run, test);
	} else if (store_test_history(st, test, 1, &h, &n, &dl) ==
	    STORE_OK) {
		if (n == 0)
			fprintf(stderr, "ltpscope: tag: warning: no result "
			    "for %s in the database yet\n", test);
		else {
			t->run_id = h[0].run_id;
			t->status_at = (int)h[0].status;
		}
		store_results_free(h, n);
	}
	diag_free(&dl);
}

int
cmd_tag(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "message", required_argument, NULL, 'm' },
		{ "run", required_argument, NULL, 'r' },
		{ "line", required_argument, NULL, 'l' },
		{ "author", required_argument, NULL, 'a' },
		{ "resolved", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct triage_tag t;
	struct categories cats;
	struct diaglist dl;
	struct store *st;
	const char *db = NULL, *note = "", *runarg = NULL, *line = "";
	const char *author = NULL;
	int ch, resolved = 0, rv = 0;
	int64_t run = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:m:h", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'd':
			db = optarg;
			break;
		case 'm':
			note = optarg;
			break;
		case 'r':
			runarg = optarg;
			break;
		case 'l':
			line = optarg;
			break;
		case 'a':
			author = optarg;
			break;
		case 'R':
			resolved = 1;
			break;
		case 'h':
			tag_usage(stdout);
			return 0;
		default:
			tag_usage(stderr);
			return 2;
		}
	}
	if (argc - optind != (resolved ? 1 : 2)) {
		tag_usage(stderr);
		return 2;
	}
	if (!resolved) {
		if (cli_categories(&cats) < 0)
			return 1;
		if (categories_find(&cats, argv[optind + 1]) == NULL) {
			fprintf(stderr, "ltpscope: tag: unknown category "
			    "'%s' (see data/categories; add your own in "
			    "$XDG_CONFIG_HOME/ltpscope/categories)\n",
			    argv[optind + 1]);
			categories_free(&cats);
			return 2;
		}
		categories_free(&cats);
	}
	if (cli_open(db, 0, &st) != 0)
		return 1;
	diag_init(&dl);
	if (resolved) {
		if (store_tag_resolve(st, argv[optind], line, 1, &dl) !=
		    STORE_OK)
			rv = 1;
		goto out;
	}
	if (runarg != NULL && (run = cli_run(st, runarg, "tag")) == 0) {
		rv = 1;
		goto out;
	}
	memset(&t, 0, sizeof(t));
	t.tag = argv[optind];
	t.category = argv[optind + 1];
	t.note = (char *)note;
	t.line = (char *)line;
	t.author = (char *)cli_author(author);
	tag_result(st, t.tag, run, &t);
	if (store_tag_set(st, &t, &dl) != STORE_OK)
		rv = 1;
out:
	cli_diags(&dl);
	diag_free(&dl);
	store_close(st);
	return rv;
}

static void
untag_usage(FILE *fp)
{
	cmd_usage(fp, "untag");
}

int
cmd_untag(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "line", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct diaglist dl;
	struct store *st;
	const char *db = NULL, *line = NULL;
	size_t n;
	int ch, rv = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'd':
			db = optarg;
			break;
		case 'l':
			line = optarg;
			break;
		case 'h':
			untag_usage(stdout);
			return 0;
		default:
			untag_usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 1) {
		untag_usage(stderr);
		return 2;
	}
	if (cli_open(db, 0, &st) != 0)
		return 1;
	diag_init(&dl);
	if (store_tag_remove(st, argv[optind], line, &n, &dl) != STORE_OK)
		rv = 1;
	else if (n == 0) {
		fprintf(stderr, "ltpscope: untag: %s has no tag\n",
		    argv[optind]);
		rv = 1;
	}
	cli_diags(&dl);
	diag_free(&dl);
	store_close(st);
	return rv;
}

static void
tags_usage(FILE *fp)
{
	cmd_usage(fp, "tags");
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

int
cmd_tags(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "run", required_argument, NULL, 'r' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct triage_tag *v;
	struct diaglist dl;
	struct store *st;
	const char *db = NULL, *runarg = NULL;
	size_t n;
	int ch, format = 0, rv = 0;
	int64_t run = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "d:f:h", longopts, NULL)) !=
	    -1) {
		switch (ch) {
		case 'd':
			db = optarg;
			break;
		case 'r':
			runarg = optarg;
			break;
		case 'f':
			if (strcmp(optarg, "text") == 0)
				format = 0;
			else if (strcmp(optarg, "csv") == 0)
				format = 1;
			else if (strcmp(optarg, "json") == 0)
				format = 2;
			else {
				tags_usage(stderr);
				return 2;
			}
			break;
		case 'h':
			tags_usage(stdout);
			return 0;
		default:
			tags_usage(stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		tags_usage(stderr);
		return 2;
	}
	if (cli_open(db, 0, &st) != 0)
		return 1;
	if (runarg != NULL && (run = cli_run(st, runarg, "tags")) == 0) {
		store_close(st);
		return 1;
	}
	diag_init(&dl);
	if (store_tags_list(st, run, optind < argc ? argv[optind] : NULL, &v,
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
