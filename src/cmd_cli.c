/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The subcommands' CLI layer (see cli.h): one way to open the database,
 * read a run argument and say what went wrong.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpscope/cli.h"
#include "ltpscope/kindex.h"
#include "ltpscope/numparse.h"
#include "ltpscope/paths.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/settings.h"
#include "ltpscope/suite.h"
#include "ltpscope/verdict.h"

void
cli_verror(const char *cmd, const char *fmt, va_list ap)
{
	fprintf(stderr, "ltpscope: ");
	if (cmd != NULL)
		fprintf(stderr, "%s: ", cmd);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(cmd, fmt, ap);
	va_end(ap);
}

void
cli_diags(const struct diaglist *dl)
{
	diag_print(dl, stderr, "ltpscope");
}

/* Lines of a console's end cli_box_console() shows. */
#define CLI_CONSOLE_LINES	5

/*
 * An empty console is what a guest that never ran leaves: a /dev/kvm
 * that takes the vCPU and runs no instruction of it (seen on a CI
 * machine), or a kernel told no console= on that serial port.
 */
void
cli_box_console(const struct qemubox *q)
{
	char *said, *p, *nl;

	if ((said = qemubox_console_said(q, CLI_CONSOLE_LINES)) == NULL)
		return;
	if (said[0] == '\0')
		fprintf(stderr, "ltpscope: its console, %s, has nothing "
		    "since QEMU started: the guest printed nothing (no "
		    "kernel ran, or none wrote to that console; a KVM that "
		    "runs no guest does this: try accel=tcg)\n",
		    qemubox_console(q));
	else {
		fprintf(stderr, "ltpscope: its console, %s, ended:\n",
		    qemubox_console(q));
		for (p = said; (nl = strchr(p, '\n')) != NULL; p = nl + 1)
			fprintf(stderr, "ltpscope:   %.*s\n", (int)(nl - p), p);
	}
	free(said);
}

int
cli_open(const char *db, int flags, struct store **stp)
{
	struct diaglist dl;
	char *path = NULL;
	int rv = 0;

	diag_init(&dl);
	/* Read-write without create: a file we may not write reads fine. */
	if (store_open_db(stp, db, STORE_IF_EXISTS, &path, &dl) !=
	    STORE_OK) {
		if (dl.n == 0)
			fprintf(stderr, "ltpscope: no database\n");
		cli_diags(&dl);
		rv = 1;
	} else if (*stp == NULL) {
		fprintf(stderr, "ltpscope: %s: no such database; no runs "
		    "yet\n", path);
		rv = (flags & CLI_MISSING_OK) ? 0 : 1;
	}
	diag_free(&dl);
	free(path);
	if (*stp != NULL)
		cli_rejudge(*stp, NULL);
	return rv;
}

int
cli_is_run_word(const char *w)
{
	return strcmp(w, "last") == 0 || (w[0] != '\0' &&
	    w[strspn(w, "0123456789")] == '\0');
}

int64_t
cli_run(struct store *st, const char *arg, const char *cmd)
{
	struct diaglist dl;
	struct store_run r;
	char msg[160];
	long long id;
	int64_t last;

	diag_init(&dl);
	if (strcmp(arg, "last") == 0) {
		if (store_latest_run(st, &last, &dl) != STORE_OK) {
			cli_diags(&dl);
			last = 0;
		}
		diag_free(&dl);
		return last;
	}
	if (numparse_ll(arg, 1, INT64_MAX, &id, msg, sizeof(msg)) != 0) {
		cli_error(cmd, "'%s' is not a run number (see ltpscope runs)",
		    arg);
		return 0;
	}
	if (store_get_run(st, (int64_t)id, &r, &dl) != STORE_OK) {
		cli_diags(&dl);
		id = 0;
	} else
		store_run_clear(&r);
	diag_free(&dl);
	return (int64_t)id;
}

int
cli_open_run(const char *db, const char *runarg, const char *cmd,
    struct store **stp, int64_t *run_idp)
{
	*stp = NULL;
	if (!cli_is_run_word(runarg)) {
		cli_error(cmd, "'%s' is not a run number (see ltpscope runs)",
		    runarg);
		return 2;
	}
	if (cli_open(db, 0, stp) != 0)
		return 1;
	if ((*run_idp = cli_run(*stp, runarg, cmd)) == 0) {
		store_close(*stp);
		*stp = NULL;
		return 1;
	}
	return 0;
}

void
cli_warn_interrupted(struct store *st)
{
	struct store_interrupted *v;
	struct diaglist dl;
	size_t n, i, j;

	diag_init(&dl);
	if (store_interrupted_runs(st, &v, &n, &dl) != STORE_OK) {
		cli_diags(&dl);
		diag_free(&dl);
		return;
	}
	for (i = 0; i < n; i++) {
		fprintf(stderr, "ltpscope: warning: run %" PRId64
		    " was interrupted ", v[i].run_id);
		if (v[i].nrunning == 0)
			fprintf(stderr, "between tests");
		else {
			fprintf(stderr, "while ");
			for (j = 0; j < v[i].nrunning; j++)
				fprintf(stderr, "%s%s", j > 0 ? ", " : "",
				    v[i].running[j]);
			fprintf(stderr, " was running");
		}
		fprintf(stderr, "; resume with ltpscope run --resume\n");
	}
	store_interrupted_free(v, n);
	diag_free(&dl);
}

void
cli_time(int64_t t, char *buf, size_t size)
{
	struct tm tm;
	time_t tt = (time_t)t;

	if (t == 0 || gmtime_r(&tt, &tm) == NULL) {
		(void)snprintf(buf, size, "-");
		return;
	}
	(void)strftime(buf, size, "%Y-%m-%d %H:%M:%S", &tm);
}

const char *
cli_field(const char *s)
{
	static char buf[2][256];
	static int which;
	char *b = buf[which];
	size_t i;

	which = !which;
	for (i = 0; s[i] != '\0' && i < sizeof(buf[0]) - 1; i++)
		b[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' :
		    s[i];
	b[i] = '\0';
	return b;
}

struct rules *
cli_verdict_rules(void)
{
	struct diaglist dl;
	struct rules *r = rules_new();
	int n;

	diag_init(&dl);
	n = rules_load_default(r, &dl);
	cli_diags(&dl);
	diag_free(&dl);
	if (n < 0) {
		rules_free(r);
		return NULL;
	}
	return r;
}

void
cli_rejudge(struct store *st, struct rules *rules)
{
	struct rules *own = NULL;
	struct diaglist dl;

	/* Without data/rules, keep the verdicts rather than guess. */
	if (rules == NULL && (rules = own = cli_verdict_rules()) == NULL)
		return;
	diag_init(&dl);
	if (verdict_rejudge(st, rules, NULL, &dl) != STORE_OK) {
		fprintf(stderr, "ltpscope: warning: the verdicts were not "
		    "judged again under the current rules:\n");
		cli_diags(&dl);
	}
	diag_free(&dl);
	rules_free(own);
}

const char *
cli_author(const char *opt)
{
	const char *v;

	if (opt != NULL)
		return opt;
	if ((v = getenv("LTPSCOPE_AUTHOR")) != NULL && *v != '\0')
		return v;
	if ((v = getenv("USER")) != NULL && *v != '\0')
		return v;
	if ((v = getenv("LOGNAME")) != NULL && *v != '\0')
		return v;
	return "";
}

int
cli_categories(struct categories *c)
{
	struct diaglist dl;
	int n;

	diag_init(&dl);
	categories_init(c);
	n = categories_load_default(c, &dl);
	cli_diags(&dl);
	diag_free(&dl);
	return n < 0 ? -1 : 0;
}

struct rules *
cli_rules(const struct categories *c)
{
	struct diaglist dl;
	struct rules *r = rules_new();

	diag_init(&dl);
	if (rules_load_default(r, &dl) < 0) {
		cli_diags(&dl);
		diag_free(&dl);
		rules_free(r);
		return NULL;
	}
	if (c != NULL)
		(void)rules_check(r, c, &dl);
	cli_diags(&dl);
	diag_free(&dl);
	return r;
}

struct catalogue *
cli_catalogue(const char *const *tables, size_t n)
{
	struct catalogue *cat = catalogue_new();
	struct diaglist dl;
	char buf[1024];
	size_t i;

	diag_init(&dl);
	if (n == 0 && paths_syscall_table(buf, sizeof(buf)) != NULL)
		(void)catalogue_load_file(cat, buf, NULL, &dl);
	for (i = 0; i < n; i++)
		if (catalogue_load_file(cat, tables[i], NULL, &dl) < 0)
			break;
	(void)suite_load_names(cat, &dl);
	if (dl.nerrors > 0 && n > 0) {
		cli_diags(&dl);
		diag_free(&dl);
		catalogue_free(cat);
		return NULL;
	}
	diag_free(&dl);
	return cat;
}

void
cli_settings(struct settings *set)
{
	struct diaglist dl;
	char path[1100];

	settings_init(set);
	if (paths_config("config", path, sizeof(path)) == NULL)
		return;
	diag_init(&dl);
	(void)settings_load_file(set, path, &dl);
	cli_diags(&dl);
	diag_free(&dl);
}

int
cli_kindex(const char *opt, const struct settings *set, struct store *st,
    struct kindex *ki, int flags)
{
	struct diaglist dl;
	const char *root = opt != NULL ? opt : set->has_kernel_src ?
	    set->kernel_src : kindex_default_root();
	int err;

	diag_init(&dl);
	err = kindex_open(ki, root, NULL, st, &dl);
	if (!(flags & CLI_KINDEX_QUIET) || opt != NULL || set->has_kernel_src)
		cli_diags(&dl);
	diag_free(&dl);
	return err == STORE_OK ? 0 : 1;
}
