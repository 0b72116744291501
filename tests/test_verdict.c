/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Verdicts under the rules: a TWARN line an envwarn rule calls the
 * environment's leaves a test pass or conf with the "env warning" mark;
 * a log with no result and no exit status is "unknown"; stored results
 * are judged again when the rules change, rows of schema 3 included.
 * The made-up logs of tests/fixtures/verdicts hold one of each kind;
 * the real logs of ../shared are an extra layer, skipped when absent.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "ltpscope/import.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/rules.h"
#include "ltpscope/store.h"
#include "ltpscope/verdict.h"

#include "tap.h"
#include "tmux.h"

#define FIXDIR	"tests/fixtures/verdicts"
#define REFDIR	"ctp/reference_logs_sample/NetBSD11-reference"

static const char *bin;

/* The envwarn rule of data/rules, alone, so data/rules may change. */
static const char kconfig_rule[] =
    "# the box has no kernel config\n"
    "environment\tenvwarn:^tst_kconfig\\.c:\\d+: TWARN:\n";

static const struct {
	const char	*tag;
	const char	*status;
	int		 marked;
	const char	*why;
} kinds[] = {
	{ "envpass01", "pass", 1, "passed, its only TWARN tst_kconfig's" },
	{ "envconf01", "conf", 1, "skipped, its only TWARN tst_kconfig's" },
	{ "ownwarn01", "warn", 0, "a TWARN of its own" },
	{ "mixwarn01", "warn", 0, "tst_kconfig's TWARN and one of its own" },
	{ "envfail01", "fail", 0, "failed: the mark is not for failures" },
	{ "envbrok01", "broken", 0, "broke: the mark is not for failures" },
	{ "fcntl01", "unknown", 0, "old library, TINFO only, no exit status" },
	{ "fcntl02", "pass", 0, "old library, TPASS, no exit status" },
	{ "fcntl03", "pass", 0, "TINFO only, but exit_code 0" },
	{ "exitwarn01", "pass", 1, "exit_code 4, tst_kconfig's TWARN only" },
	{ "exitwarn02", "warn", 0, "exit_code 4 and no TWARN line to excuse" },
	{ "sumwarn01", "warn", 0, "Summary counts a warning no line shows" },
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

static struct rules *
make_rules(const char *text)
{
	struct rules *r = rules_new();
	struct diaglist dl;

	diag_init(&dl);
	is_int(rules_parse(r, "test-rules", text, strlen(text), &dl), 0,
	    "rules parse: %s", tap_first_diag(&dl));
	diag_free(&dl);
	return r;
}

static struct store *
open_db(const char *name)
{
	struct diaglist dl;
	struct store *st;
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", tap_tmpdir(), name);
	diag_init(&dl);
	if (store_open(&st, path, STORE_CREATE, &dl) != STORE_OK)
		tap_diag("%s", tap_first_diag(&dl));
	diag_free(&dl);
	return st;
}

static const struct store_result *
find(const struct store_result *v, size_t n, const char *tag)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i].tag, tag) == 0)
			return &v[i];
	return NULL;
}

/* Checks each made-up log's verdict in run_id; returns how many matched. */
static void
check_kinds(struct store *st, int64_t run_id, const char *when)
{
	const struct store_result *r;
	struct store_result *v = NULL;
	struct diaglist dl;
	size_t n = 0, i;

	diag_init(&dl);
	is_int(store_run_results(st, run_id, &v, &n, &dl), STORE_OK,
	    "%s: results read", when);
	is_int(n, NKINDS, "%s: one result per log", when);
	for (i = 0; i < NKINDS; i++) {
		if (!ok((r = find(v, n, kinds[i].tag)) != NULL, "%s: %s stored",
		    when, kinds[i].tag))
			continue;
		is_str(test_status_name(r->status), kinds[i].status,
		    "%s: %s is %s (%s)", when, kinds[i].tag, kinds[i].status,
		    kinds[i].why);
		is_int(test_status_env_marked(r->status, r->nenvwarn),
		    kinds[i].marked, "%s: %s %s the env warning mark", when,
		    kinds[i].tag, kinds[i].marked ? "carries" : "lacks");
	}
	store_results_free(v, n);
	diag_free(&dl);
}

static void
check_status_rules(void)
{
	static const char env_pass[] = "tst_kconfig.c:88: TWARN: no config\n"
	    "a.c:1: TPASS: ok\n";
	struct ltpout_tally t, t2;
	struct test_end end, end2;
	struct ltpout_line l;
	struct ltpout *p = ltpout_new();
	const char *cur = env_pass;
	size_t len = sizeof(env_pass) - 1;
	char why[200], raw[LTPOUT_RAW_MAX];

	while (ltpout_scan(p, &cur, &len, &l) || ltpout_flush(p, &l))
		continue;
	t = *ltpout_tally(p);
	ltpout_free(p);
	end.how = TEST_EXITED;
	end.code = 4;
	is_str(test_status_name(ltpout_status(&t, &end, why, sizeof(why))),
	    "warn", "no line excused: exit 4 is warn");
	t.env_warn = 1;
	is_str(test_status_name(ltpout_status(&t, &end, why, sizeof(why))),
	    "pass", "its one TWARN excused: pass");
	has_str(why, "env warning x1", "... and the reason says so");
	end.code = 4 | 1;
	is_str(test_status_name(ltpout_status(&t, &end, NULL, 0)), "fail",
	    "exit 5 with the TWARN excused: still fail");
	ok(!test_status_env_marked(TS_FAIL, 1), "a failure is not marked");
	ok(test_status_env_marked(TS_CONF, 2), "a skip is");
	ok(!test_status_env_marked(TS_PASS, 0), "a clean pass is not");
	ok(!test_status_is_bad(TS_UNKNOWN), "unknown is not a failure");
	is_int(test_status_from_name("unknown"), TS_UNKNOWN,
	    "\"unknown\" is a status name");

	end.code = 4;
	t.summary.present = 1;
	t.summary.warnings = 3;
	ltpout_raw_format(&t, &end, raw, sizeof(raw));
	is_int(ltpout_raw_parse(raw, &t2, &end2), 0, "raw inputs parse back");
	ok(memcmp(t2.lines, t.lines, sizeof(t.lines)) == 0 &&
	    t2.summary.warnings == 3 && end2.how == TEST_EXITED &&
	    end2.code == 4, "... to the same tally: %s", raw);
	t2.env_warn = 1;
	is_str(test_status_name(ltpout_status(&t2, &end2, NULL, 0)), "warn",
	    "the Summary's 3 warnings are more than the 1 excused: warn");
	is_int(ltpout_raw_parse("r1 end=0:0 junk", &t2, &end2), -1,
	    "junk is no raw line");
}

static void
check_rules(void)
{
	struct rules *a, *b;
	struct diaglist dl;
	char da[RULES_DIGEST_LEN], db[RULES_DIGEST_LEN], dn[RULES_DIGEST_LEN];
	static const char bad[] = "# one good, one bad\n"
	    "environment\tenvwarn:^x\n"
	    "environment\tenvwarn:^tst_(kconfig\n";

	a = make_rules(kconfig_rule);
	b = make_rules("environment\tline:^tst_kconfig\n"
	    "crash\ttest:^abort01$\n");
	ok(rules_env_warning(a, "tst_kconfig.c:42: TWARN: ", 25, NULL),
	    "envwarn rule matches the reproducible line");
	ok(!rules_env_warning(a, "close01.c:50: TWARN: x", 22, NULL),
	    "... and not a test's own");
	ok(!rules_env_warning(b, "tst_kconfig.c:42: TWARN: ", 25, NULL),
	    "a line: rule excuses no warning");
	rules_env_digest(a, da, sizeof(da));
	rules_env_digest(b, db, sizeof(db));
	rules_env_digest(NULL, dn, sizeof(dn));
	is_int(strlen(da), 16, "digest is 16 hex digits");
	ok(strcmp(da, db) != 0, "envwarn rules change the digest");
	is_str(db, dn, "other rules do not");
	rules_free(a);
	rules_free(b);

	a = rules_new();
	diag_init(&dl);
	is_int(rules_parse(a, "my-rules", bad, sizeof(bad) - 1, &dl), 1,
	    "a bad envwarn pattern is an error");
	has_str(tap_first_diag(&dl), "my-rules:3:", "... naming file:line");
	/* pcre2 finds the parenthesis missing at the pattern's end. */
	has_str(tap_first_diag(&dl), "my-rules:3:34: ", "... and the column "
	    "where pcre2 stopped");
	is_int(rules_count(a), 1, "the good rule is kept");
	diag_free(&dl);
	rules_free(a);
}

static int64_t
import_fixtures(struct store *st, struct rules *rules)
{
	struct import_opts opts;
	struct import_stats stats;
	struct diaglist dl;

	memset(&opts, 0, sizeof(opts));
	opts.rules = rules;
	diag_init(&dl);
	is_int(import_ctp_dir(st, FIXDIR, &opts, &stats, &dl), 0,
	    "made-up logs import: %s", tap_first_diag(&dl));
	is_int(stats.counts[TS_UNKNOWN], 1, "one unknown counted");
	is_int(stats.nenvmarked, 3, "three with the mark counted");
	diag_free(&dl);
	return stats.run_id;
}

static void
set_status(const struct store_result *v, size_t n, const char *tag,
    const char *want, int marked, const char *what)
{
	const struct store_result *r = find(v, n, tag);

	is_str(r != NULL ? test_status_name(r->status) : "-", want,
	    "%s: %s is %s", what, tag, want);
	is_int(r != NULL && test_status_env_marked(r->status, r->nenvwarn),
	    marked, "%s: %s mark %d", what, tag, marked);
}

static void
check_rejudge(void)
{
	struct store_result *v;
	struct store_run run;
	struct rules *env, *none, *user;
	struct diaglist dl;
	struct store *st;
	unsigned changed;
	int64_t id;
	size_t n;
	char text[512];

	if ((st = open_db("verdicts.db")) == NULL) {
		ok(0, "store opens");
		return;
	}
	env = make_rules(kconfig_rule);
	none = make_rules("crash\tTest timeouted\n");
	/* The user's own rules come first, as rules_load_default() does. */
	snprintf(text, sizeof(text), "environment\tenvwarn:^close01\\.c:\\d+: "
	    "TWARN: unlink\\(tmp\\)\n%s", kconfig_rule);
	user = make_rules(text);
	id = import_fixtures(st, env);
	check_kinds(st, id, "imported");
	diag_init(&dl);
	is_int(store_get_run(st, id, &run, &dl), STORE_OK, "run read");
	is_int(run.nenvmarked, 3, "the run counts 3 marked");
	is_int(run.counts[TS_UNKNOWN], 1, "... and 1 unknown");
	store_run_clear(&run);

	is_int(verdict_rejudge(st, env, &changed, &dl), STORE_OK,
	    "judged again under the same rules");
	is_int(changed, 0, "... nothing changes");

	is_int(verdict_rejudge(st, none, &changed, &dl), STORE_OK,
	    "judged under rules without envwarn: %s", tap_first_diag(&dl));
	is_int(changed, 3, "... the three marked verdicts change");
	store_run_results(st, id, &v, &n, &dl);
	set_status(v, n, "envpass01", "warn", 0, "no envwarn");
	set_status(v, n, "envconf01", "warn", 0, "no envwarn");
	set_status(v, n, "exitwarn01", "warn", 0, "no envwarn");
	set_status(v, n, "fcntl01", "unknown", 0, "no envwarn");
	store_results_free(v, n);
	store_get_run(st, id, &run, &dl);
	is_int(run.counts[TS_WARN], 7, "the run's counts follow: 7 warn");
	is_int(run.nenvmarked, 0, "... none marked");
	store_run_clear(&run);

	is_int(verdict_rejudge(st, user, &changed, &dl), STORE_OK,
	    "judged under the user's extra envwarn rule");
	is_int(changed, 4, "... the three and ownwarn01 change");
	store_run_results(st, id, &v, &n, &dl);
	set_status(v, n, "envpass01", "pass", 1, "user rules");
	set_status(v, n, "ownwarn01", "pass", 1, "user rules");
	set_status(v, n, "mixwarn01", "warn", 0, "user rules");
	store_results_free(v, n);

	is_int(verdict_rejudge(st, env, &changed, &dl), STORE_OK,
	    "back to the first rules");
	is_int(changed, 1, "... only ownwarn01 changes back");
	check_kinds(st, id, "judged again");
	diag_free(&dl);
	rules_free(env);
	rules_free(none);
	rules_free(user);
	store_close(st);
}

static void
check_migration(void)
{
	struct store_result *v;
	struct diaglist dl;
	struct store *st;
	sqlite3 *db;
	char path[1024], *sql;
	struct rules *env;
	unsigned changed;
	size_t n;

	sql = tap_slurp("tests/fixtures/store-v3.sql", NULL);
	if (!ok(sql != NULL, "v3 fixture readable"))
		return;
	snprintf(path, sizeof(path), "%s/v3.db", tap_tmpdir());
	sqlite3_open(path, &db);
	is_int(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK,
	    "v3 database built");
	sqlite3_close(db);
	free(sql);
	diag_init(&dl);
	if (!ok(store_open(&st, path, 0, &dl) == STORE_OK, "v3 opens: %s",
	    tap_first_diag(&dl)))
		return;
	is_int(store_schema_version(st), STORE_SCHEMA_VERSION,
	    "migrated to the current schema");
	env = make_rules(kconfig_rule);
	is_int(verdict_rejudge(st, env, &changed, &dl), STORE_OK,
	    "old rows judged again: %s", tap_first_diag(&dl));
	is_int(changed, 3, "three old verdicts change");
	store_run_results(st, 1, &v, &n, &dl);
	set_status(v, n, "abort01", "pass", 1, "v3");
	set_status(v, n, "capget01", "conf", 1, "v3");
	set_status(v, n, "fcntl01", "unknown", 0, "v3");
	set_status(v, n, "close01", "warn", 0, "v3");
	set_status(v, n, "brk01", "broken", 0, "v3 (ltpscope's own note)");
	set_status(v, n, "open01", "fail", 0, "v3");
	set_status(v, n, "dup01", "conf", 0, "v3 (output does not tell)");
	store_results_free(v, n);
	is_int(verdict_rejudge(st, env, &changed, &dl), STORE_OK,
	    "opened again");
	is_int(changed, 0, "... nothing left to judge");
	rules_free(env);
	diag_free(&dl);
	store_close(st);
}

static void
check_cli(void)
{
	char db[1024], path[1024], *out;
	FILE *fp;
	int rc;

	snprintf(db, sizeof(db), "%s/cli.db", tap_tmpdir());
	out = tap_cli(&rc, 1, "import -d %s " FIXDIR, db);
	is_int(rc, 0, "ltpscope import: exit 0");
	has_str(out, "(pass 4, fail 1, broken 1, conf 1, warn 4, unknown 1; "
	    "3 of them with an env warning)", "import counts both");
	free(out);
	out = tap_cli(&rc, 1, "show -d %s last", db);
	is_int(rc, 0, "show: exit 0");
	has_str(out, "envpass01                abort                pass     "
	    "      -     -         0    1    0    0    0    1  env warning",
	    "show marks a pass");
	has_str(out, "fcntl01                  fcntl                unknown",
	    "show says unknown");
	ok(strstr(out, "ownwarn01                close                warn  "
	    "         -     -         0    1    0    0    0    1\n") != NULL,
	    "a test's own warning is not marked");
	has_str(out, "4 pass, 1 fail, 1 broken, 1 conf, 4 warn, 1 unknown (3 "
	    "of them with an env warning)", "show's summary counts both");
	free(out);
	out = tap_cli(&rc, 0, "show -d %s last --format json", db);
	has_str(out, "\"env_warned\": 3", "show json: run count");
	has_str(out, "\"tag\": \"envconf01\", \"syscall\": \"capget\", "
	    "\"status\": \"conf\"", "show json: conf");
	has_str(out, "\"env_warnings\": 1, \"env_warning\": true",
	    "show json: the mark");
	free(out);
	out = tap_cli(&rc, 0, "runs -d %s --format json", db);
	has_str(out, "\"unknown\": 1, \"crash\": 0}, \"env_warned\": 3",
	    "runs json");
	free(out);
	out = tap_cli(&rc, 1, "export -d %s --format md", db);
	has_str(out, "3 passed or skipped with an env warning only; 1 unknown "
	    "(no result and no exit status).", "export md says both");
	ok(strstr(out, "fcntl01") == NULL, "unknown is no failure to list");
	free(out);
	out = tap_cli(&rc, 1, "export -d %s --format json", db);
	has_str(out, "\"env_warned\": 3,", "export json: env_warned");
	has_str(out, "\"unknown\": 1,", "export json: unknown");
	free(out);

	/* The user's own envwarn rule: the stored run is judged again. */
	snprintf(path, sizeof(path), "%s/ltpscope", tap_tmpdir());
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/ltpscope/rules", tap_tmpdir());
	if ((fp = fopen(path, "w")) != NULL) {
		fputs("environment\tenvwarn:: TWARN: unlink\\(tmp\\)\n", fp);
		fclose(fp);
	}
	out = tap_cli(&rc, 1, "show -d %s last", db);
	has_str(out, "ownwarn01                close                pass     "
	    "      -     -         0    1    0    0    0    1  env warning",
	    "a user's envwarn rule excuses ownwarn01 in the stored run");
	has_str(out, "5 pass, 1 fail, 1 broken, 1 conf, 3 warn, 1 unknown (4 "
	    "of them with an env warning)", "... and the counts follow");
	free(out);
	(void)unlink(path);
	out = tap_cli(&rc, 1, "show -d %s last", db);
	has_str(out, "(3 of them with an env warning)", "rule gone: back");
	free(out);
}

/* The explorer shows the mark and "unknown" in a run's results. */
static void
check_explorer(void)
{
	const char *t = tap_tmpdir(), *line;
	char cmd[4096];

	snprintf(cmd, sizeof(cmd), "env HOME=%s XDG_DATA_HOME=%s/data "
	    "XDG_CONFIG_HOME=%s/tui XDG_STATE_HOME=%s/state %s -m "
	    "data/demo/linux-amd64-syscalls.master -L %s/no-ltp -d %s/cli.db",
	    t, t, t, t, bin, t, t);
	/* No LTP here: the status line says so instead of "? help". */
	if (!ok(tmux_start(cmd, 100, 30) == 0 && tmux_wait_for("syscalls, "
	    "0 marked", 8000), "explorer starts")) {
		tap_diag("screen:\n%s", tmux_screen());
		tmux_stop();
		return;
	}
	tmux_keys("R");
	if (!ok(tmux_wait_for("12 of 12 tests planned; 3 with an env "
	    "warning; 1 unknown", 3000), "R: the run's line says both counts"))
		tap_diag("screen:\n%s", tmux_screen());
	tmux_keys("Enter");
	ok(tmux_wait_for("run 1: 12 results", 3000), "Enter opens the run");
	has_str(tmux_line("envpass01 "), "pass +env",
	    "envpass01 marked");
	has_str(tmux_line("envconf01 "), "conf +env",
	    "envconf01 marked");
	line = tmux_line("mixwarn01 ");
	ok(strstr(line, "+env") == NULL && strstr(line, "warn") != NULL,
	    "mixwarn01 warns, unmarked");
	has_str(tmux_line("fcntl01 "), "unknown",
	    "fcntl01 unknown");
	tmux_keys("q q q");
	ok(tmux_wait_dead(3000), "q quits");
	tmux_stop();
}

/* The real NetBSD logs: every new-library one warns of the box alone. */
static void
check_real(void)
{
	static const struct {
		const char	*tag;
		const char	*status;
		int		 marked;
	} real[] = {
		{ "abort01", "pass", 1 }, { "capget01", "conf", 1 },
		{ "close01", "pass", 1 }, { "close02", "pass", 1 },
		{ "open01", "fail", 0 }, { "readv01", "fail", 0 },
		{ "readv02", "pass", 1 }, { "writev01", "fail", 0 },
		{ "writev02", "pass", 0 },
	};
	const char *shared = getenv("LTPSCOPE_SHARED");
	struct store_result *v = NULL;
	struct import_opts opts;
	struct import_stats stats;
	struct diaglist dl;
	struct store *st;
	char path[1024];
	size_t n = 0, i;

	snprintf(path, sizeof(path), "%s/" REFDIR, shared != NULL &&
	    *shared != '\0' ? shared : "../shared");
	if (access(path, R_OK | X_OK) != 0) {
		ok(1, "# SKIP ../shared not found");
		return;
	}
	if ((st = open_db("real.db")) == NULL)
		return;
	memset(&opts, 0, sizeof(opts));
	opts.rules = make_rules(kconfig_rule);
	diag_init(&dl);
	is_int(import_ctp_dir(st, path, &opts, &stats, &dl), 0,
	    "real logs import");
	store_run_results(st, stats.run_id, &v, &n, &dl);
	for (i = 0; i < sizeof(real) / sizeof(real[0]); i++)
		set_status(v, n, real[i].tag, real[i].status, real[i].marked,
		    "real");
	store_results_free(v, n);
	rules_free(opts.rules);
	diag_free(&dl);
	store_close(st);
}

int
main(void)
{
	/* The CLI reads data/rules of this tree, not the user's rules. */
	setenv("XDG_CONFIG_HOME", tap_tmpdir(), 1);
	setenv("HOME", tap_tmpdir(), 1);
	unsetenv("LTPSCOPE_DATA");
	unsetenv("LTPSCOPE_DB");
	bin = tap_bin();
	check_status_rules();
	check_rules();
	check_rejudge();
	check_migration();
	check_cli();
	check_explorer();
	check_real();
	return tap_done();
}
