/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Categories and rules: the data files parse, user files override,
 * errors name file, line and column, a runaway pattern is stopped, and
 * the default rules give the expected category to real LTP outputs
 * (../shared/ltp/outputs) and to the shell tool's reference logs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/categories.h"
#include "ltpscope/ctplog.h"
#include "ltpscope/fundamental.h"
#include "ltpscope/rules.h"
#include "ltpscope/triage.h"
#include "tap.h"


static void
test_categories(void)
{
	struct categories c;
	struct diaglist dl;
	const struct category *k;
	char dir[1024], path[1100];
	static const char *const want[] = { "missing-syscall",
	    "unsupported-flag", "not-implemented", "linux-only", "bug-compat",
	    "linux-bug-test", "environment", "stops-early", "crash",
	    "test-bug", "wont-fix" };
	size_t i;

	diag_init(&dl);
	categories_init(&c);
	is_int(categories_load_default(&c, &dl), 0, "data/categories loads "
	    "cleanly: %s", tap_first_diag(&dl));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ok(categories_find(&c, want[i]) != NULL, "category %s",
		    want[i]);
	k = categories_find(&c, "linux-only");
	ok(k != NULL && !k->shopping, "linux-only is not on the list");
	k = categories_find(&c, "missing-syscall");
	ok(k != NULL && k->shopping && strstr(k->meaning, "ENOSYS") != NULL,
	    "missing-syscall: on the list, meaning read");
	categories_free(&c);
	diag_free(&dl);

	/* The user's file overrides and adds. */
	(void)snprintf(dir, sizeof(dir), "%s/cfg", tap_tmpdir());
	(void)snprintf(path, sizeof(path), "mkdir -p %s/ltpscope", dir);
	free(tap_run(path, NULL, 0));
	(void)snprintf(path, sizeof(path), "%s/ltpscope/categories", dir);
	tap_write(path, "# mine\nlinux-only red yes we want them after all\n"
	    "needs-review bright-blue yes someone should look\n");
	setenv("XDG_CONFIG_HOME", dir, 1);
	diag_init(&dl);
	categories_init(&c);
	is_int(categories_load_default(&c, &dl), 0, "with user file");
	k = categories_find(&c, "linux-only");
	ok(k != NULL && k->shopping && strcmp(k->colour, "red") == 0,
	    "user overrides linux-only");
	ok(categories_find(&c, "needs-review") != NULL, "user adds one");
	is_int(c.n, 12, "eleven defaults plus one");
	categories_free(&c);
	diag_free(&dl);
	unsetenv("XDG_CONFIG_HOME");

	/* Errors name the file and line. */
	diag_init(&dl);
	categories_init(&c);
	is_int(categories_parse(&c, "cats", "ok info no fine\n"
	    "\nbad-colour purple yes x\nBad! red yes x\nshort red\n"
	    "listy red maybe x\n", 83, &dl), 4, "four bad lines");
	has_str(tap_first_diag(&dl), "cats:3: error: unknown colour 'purple'",
	    "colour error names file:line");
	is_int(c.n, 1, "the good line kept");
	categories_free(&c);
	diag_free(&dl);
}

static void
test_rule_errors(void)
{
	struct rules *r = rules_new();
	struct diaglist dl;
	const struct rule *ru;
	static const char text[] = "# comment\n"
	    "missing-syscall ENOSYS\n"
	    "environment\tline:foo(bar\n"
	    "crash test:^(x\n"
	    "nothing\n";
	char line[64];

	diag_init(&dl);
	is_int(rules_parse(r, "myrules", text, strlen(text), &dl), 3,
	    "three bad rules");
	/* "environment\tline:foo(bar": the pattern starts at column 18
	   and pcre2 complains at its end, offset 7. */
	has_str(tap_first_diag(&dl), "myrules:3:25: error: bad pattern: "
	    "missing closing parenthesis", "file:line:col of a bad pattern");
	if (dl.n > 1) {
		(void)diag_format(&dl.v[1], line, sizeof(line));
		has_str(line, "myrules:4:", "second error's line");
	}
	is_int(rules_count(r), 1, "the good rule kept");
	ru = rules_match(r, RF_LINE, "open: ENOSYS", 12, NULL);
	ok(ru != NULL && strcmp(ru->category, "missing-syscall") == 0,
	    "good rule matches");
	ok(rules_match(r, RF_TEST, "ENOSYS", 6, NULL) == NULL,
	    "line rules do not match names");
	rules_free(r);
	diag_free(&dl);
}

static void
test_match_limit(void)
{
	struct rules *r = rules_new();
	struct diaglist dl;
	static const char text[] = "crash (a+)+$\n";
	char subject[64];

	diag_init(&dl);
	memset(subject, 'a', 40);
	subject[40] = 'b';
	subject[41] = '\0';
	is_int(rules_parse(r, "runaway", text, strlen(text), &dl), 0,
	    "catastrophic pattern compiles");
	rules_set_match_limit(r, 10000);
	ok(rules_match(r, RF_LINE, subject, 41, &dl) == NULL,
	    "runaway pattern stopped, no match");
	has_str(tap_first_diag(&dl), "runaway:1: warning: pattern stopped "
	    "(match limit)", "the stop is reported with the rule's place");
	rules_free(r);
	diag_free(&dl);
}

/* The category the default rules suggest for a file's contents. */
static const char *
suggest_file(struct rules *r, const char *path, const char *test,
    const char *syscall, int islog)
{
	static char cat[64];
	struct rules_suggestion sg;
	struct ctplog lg;
	struct diaglist dl;
	char *buf, *body, *nl;
	size_t len;

	cat[0] = '\0';
	memset(&sg, 0, sizeof(sg));
	diag_init(&dl);
	if (islog) {
		ctplog_init(&lg);
		if (ctplog_read(&lg, path, &dl) == 0 && rules_suggest(r, test,
		    syscall, lg.body, lg.bodylen, &sg, &dl))
			(void)snprintf(cat, sizeof(cat), "%s",
			    sg.rule->category);
		else
			(void)snprintf(cat, sizeof(cat), "(none)");
		ctplog_free(&lg);
	} else if ((buf = tap_slurp(path, &len)) != NULL) {
		/* Skip the "$ command" and "# wall time" lines the files
		   start with: they are not the test's output. */
		body = buf;
		while ((body[0] == '$' || body[0] == '#') && body[1] == ' ' &&
		    (nl = strchr(body, '\n')) != NULL)
			body = nl + 1;
		len -= (size_t)(body - buf);
		if (rules_suggest(r, test, syscall, body, len, &sg, &dl))
			(void)snprintf(cat, sizeof(cat), "%s",
			    sg.rule->category);
		else
			(void)snprintf(cat, sizeof(cat), "(none)");
		free(buf);
	}
	rules_suggestion_clear(&sg);
	if (dl.n > 0)
		tap_diag("%s: %s", path, tap_first_diag(&dl));
	diag_free(&dl);
	return cat;
}

static void
test_real_outputs(void)
{
	static const struct {
		const char	*file;
		const char	*test;
		const char	*want;
	} outs[] = {
		{ "fcntl35-tfail.txt", "fcntl35", "unsupported-flag" },
		{ "fcntl36-timeout.txt", "fcntl36", "crash" },
		{ "inotify09-sigterm.txt", "inotify09", "environment" },
		{ "tmpdir-relative-tbrok.txt", "open01", "environment" },
		{ "fcntl07-oldlib-tbrok-no-PATH.txt", "fcntl07",
		    "environment" },
		{ "kill13-twarn-kconfig-path.txt", "kill13", "environment" },
		{ "open02-tconf-nonroot.txt", "open02", "environment" },
		{ "fcntl18-oldlib-tconf-nonroot.txt", "fcntl18",
		    "environment" },
		{ "statx07-tconf.txt", "statx07", "environment" },
		{ "copy_file_range01.txt", "copy_file_range01",
		    "unsupported-flag" },
		{ "writev01.txt", "writev01", "bug-compat" },
		{ "open01.txt", "open01", "(none)" },
		{ "getpid01.txt", "getpid01", "(none)" },
	};
	static const struct {
		const char	*file;
		const char	*test;
		const char	*want;
	} logs[] = {
		{ "writev/writev01.log", "writev01", "bug-compat" },
		{ "readv/readv01.log", "readv01", "bug-compat" },
		{ "open/open01.log", "open01", "(none)" },
		{ "capget/capget01.log", "capget01", "(none)" },
		{ "close/close01.log", "close01", "(none)" },
	};
	struct categories c;
	struct diaglist dl;
	struct rules *r = rules_new();
	char rel[256], *first;
	size_t i, len;

	diag_init(&dl);
	categories_init(&c);
	(void)categories_load_default(&c, &dl);
	is_int(rules_load_default(r, &dl), 0, "data/rules compiles: %s",
	    tap_first_diag(&dl));
	is_int(rules_check(r, &c, &dl), 0, "every rule names a known "
	    "category");
	ok(rules_match(r, RF_SYSCALL, "unshare", 7, NULL) != NULL,
	    "syscall: rules match syscall names");
	ok(rules_match(r, RF_LINE, "open04.c:10: TFAIL: open(O_TMPFILE) "
	    "failed: EINVAL", 51, NULL) != NULL, "O_TMPFILE line matches");
	for (i = 0; i < sizeof(outs) / sizeof(outs[0]); i++) {
		(void)snprintf(rel, sizeof(rel), "ltp/outputs/%s",
		    outs[i].file);
		/* The made-up layer has a few of the kinds, not every one. */
		if (!tap_layer_real() &&
		    access(tap_shared_path(rel), F_OK) == -1)
			continue;
		is_str(suggest_file(r, tap_shared_path(rel), outs[i].test, "",
		    0), outs[i].want, "%s -> %s", outs[i].file, outs[i].want);
	}
	for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		(void)snprintf(rel, sizeof(rel),
		    "ctp/reference_logs_sample/NetBSD11-reference/%s",
		    logs[i].file);
		is_str(suggest_file(r, tap_shared_path(rel), logs[i].test, "",
		    1), logs[i].want, "reference %s -> %s", logs[i].file,
		    logs[i].want);
	}
	/* The first failing line of a real failure. */
	first = tap_slurp(tap_shared_path("ltp/outputs/fcntl35-tfail.txt"),
	    &len);
	if (first != NULL) {
		char *l = triage_first_failure(first, len, NULL);

		is_str(l, "fcntl35.c:81: TFAIL: a privileged user init the "
		    "capacity of a pipe to 4096 unexpectedly, expected 65536",
		    "first failing line of fcntl35");
		free(l);
		free(first);
	}
	rules_free(r);
	categories_free(&c);
	diag_free(&dl);
}

/* The user's rules come first; their errors name their file. */
static void
test_user_rules(void)
{
	struct rules_suggestion sg;
	struct rules *r = rules_new();
	struct diaglist dl;
	char dir[1024], path[1100];
	static const char out[] = "x.c:1: TFAIL: open() failed: ENOSYS\n";

	(void)snprintf(dir, sizeof(dir), "%s/cfg2", tap_tmpdir());
	(void)snprintf(path, sizeof(path), "mkdir -p %s/ltpscope", dir);
	free(tap_run(path, NULL, 0));
	(void)snprintf(path, sizeof(path), "%s/ltpscope/rules", dir);
	tap_write(path, "wont-fix test:^open99$\ntest-bug [z-a]\n");
	setenv("XDG_CONFIG_HOME", dir, 1);
	diag_init(&dl);
	is_int(rules_load_default(r, &dl), 1, "one bad user rule");
	has_str(tap_first_diag(&dl), "/cfg2/ltpscope/rules:2:", "named by file "
	    "and line");
	has_str(tap_first_diag(&dl), "range out of order", "pcre2's reason");
	ok(rules_suggest(r, "open99", "open", out, sizeof(out) - 1, &sg,
	    &dl) && strcmp(sg.rule->category, "wont-fix") == 0,
	    "the user's rule wins over ENOSYS");
	rules_suggestion_clear(&sg);
	ok(rules_suggest(r, "open98", "open", out, sizeof(out) - 1, &sg,
	    &dl) && strcmp(sg.rule->category, "missing-syscall") == 0,
	    "the default rules still apply");
	is_int(sg.lineno, 1, "the matched line's number");
	rules_suggestion_clear(&sg);
	unsetenv("XDG_CONFIG_HOME");
	rules_free(r);
	diag_free(&dl);
}

static void
test_fundamental(void)
{
	struct fundamental f;
	struct diaglist dl;

	diag_init(&dl);
	is_int(fundamental_load_default(&f, &dl), 0, "data/fundamental");
	is_int(fundamental_rank(&f, "read"), 1, "read first");
	ok(fundamental_rank(&f, "write") == 2, "write second");
	ok(fundamental_rank(&f, "mmap") > 0 && fundamental_rank(&f, "mmap") <
	    10, "mmap near the top");
	is_int(fundamental_rank(&f, "kexec_load"), 0, "kexec_load unlisted");
	ok(f.n > 100, "more than a hundred calls ranked");
	fundamental_free(&f);
	diag_free(&dl);
}

int
main(void)
{
	int i;

	setenv("LTPSCOPE_DATA", "data", 1);
	unsetenv("XDG_CONFIG_HOME");
	setenv("HOME", tap_tmpdir(), 1);
	test_categories();
	test_rule_errors();
	test_match_limit();
	for (i = 0; tap_layer(i); i++)
		test_real_outputs();
	test_user_rules();
	test_fundamental();
	return tap_done();
}
