/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope run --resume: what it replays of how a run began (recorded
 * by cmd_run_config.c): the settings, the skip lists, the box; and the
 * test a run died in, onto the user's skip list (cmd_run_culprit.c).
 * Above the box's files (cmd_run_box.c, cmd_run_named.c) it goes back
 * to.
 */

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/boxfiles.h"
#include "ltpscope/cli.h"
#include "ltpscope/numparse.h"
#include "ltpscope/paths.h"
#include "ltpscope/skiplist.h"
#include "ltpscope/slurp.h"
#include "ltpscope/store.h"
#include "ltpscope/suite.h"
#include "ltpscope/xmalloc.h"

#include "cmd_run_impl.h"

static int
run_ask(const char *question)
{
	char answer[16];

	if (!isatty(STDIN_FILENO))
		return 0;
	fprintf(stderr, "%s [y/N] ", question);
	fflush(stderr);
	if (fgets(answer, sizeof(answer), stdin) == NULL)
		return 0;
	return answer[0] == 'y' || answer[0] == 'Y';
}

/* Says which runs died, and picks the one to resume (newest). */
int
run_report_interrupted(struct store *st, int64_t *newest, char *culprit,
    size_t clen, int quiet)
{
	struct store_interrupted *v = NULL;
	struct diaglist dl;
	size_t n = 0, i;

	diag_init(&dl);
	if (store_interrupted_runs(st, &v, &n, &dl) != STORE_OK) {
		cli_diags(&dl);
		diag_free(&dl);
		return -1;
	}
	diag_free(&dl);
	*newest = 0;
	if (culprit != NULL)
		culprit[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!quiet) {
			if (v[i].nrunning > 0) {
				size_t j;

				fprintf(stderr, "ltpscope: run %" PRId64
				    " was interrupted while %s", v[i].run_id,
				    v[i].running[0]);
				for (j = 1; j < v[i].nrunning; j++)
					fprintf(stderr, "%s%s", j + 1 ==
					    v[i].nrunning ? " and " : ", ",
					    v[i].running[j]);
				fprintf(stderr, " %s running; resume with "
				    "ltpscope run --resume\n",
				    v[i].nrunning > 1 ? "were" : "was");
			}
			else
				fprintf(stderr, "ltpscope: run %" PRId64
				    " was interrupted between tests; resume "
				    "with ltpscope run --resume\n",
				    v[i].run_id);
		}
		if (i == 0) {
			*newest = v[i].run_id;
			if (culprit != NULL && v[i].nrunning > 0)
				snprintf(culprit, clen, "%s", v[i].running[0]);
		}
	}
	store_interrupted_free(v, n);
	return (int)n;
}

/* The newest run that was stopped before its end, or 0. */
static int64_t
run_newest_stopped(struct store *st)
{
	struct store_run *v = NULL;
	struct diaglist dl;
	size_t n = 0, i;
	int64_t id = 0;

	diag_init(&dl);
	if (store_list_runs(st, &v, &n, &dl) == STORE_OK)
		for (i = 0; i < n && id == 0; i++)
			if (v[i].state == RUN_INTERRUPTED &&
			    v[i].nqueued > v[i].counts[TS_PASS] +
			    v[i].counts[TS_FAIL] + v[i].counts[TS_BROKEN] +
			    v[i].counts[TS_CONF] + v[i].counts[TS_WARN] +
			    v[i].counts[TS_TIMEOUT] + v[i].counts[TS_SIGNALLED] +
			    v[i].counts[TS_NOTRUN] +
			    v[i].counts[TS_INTERRUPTED] +
			    v[i].counts[TS_UNKNOWN] + v[i].counts[TS_CRASH])
				id = v[i].id;
	store_runs_free(v, n);
	diag_free(&dl);
	return id;
}

static int
run_culprit_of(struct store *st, int64_t run_id, char *culprit, size_t clen)
{
	struct store_interrupted *v = NULL;
	struct diaglist dl;
	size_t n = 0, i;

	culprit[0] = '\0';
	diag_init(&dl);
	if (store_interrupted_runs(st, &v, &n, &dl) == STORE_OK)
		for (i = 0; i < n; i++)
			if (v[i].run_id == run_id && v[i].nrunning > 0)
				snprintf(culprit, clen, "%s", v[i].running[0]);
	store_interrupted_free(v, n);
	diag_free(&dl);
	return culprit[0] != '\0';
}

/* A number an earlier run stored; a bad one is said and left out. */
static void
run_config_number(int64_t run_id, const char *key, const char *val,
    long long max, long *out)
{
	char msg[160];
	long long n;

	if (numparse_ll(val, 0, max, &n, msg, sizeof(msg)) == 0)
		*out = (long)n;
	else
		fprintf(stderr, "ltpscope: run %" PRId64 ": stored %s: %s; "
		    "ignored\n", run_id, key, msg);
}

/*
 * The --skip files a run was recorded with, loaded into skip; the
 * number of them, or -1 after an error in dl.
 */
static int
run_config_skips(const char *config, struct skiplist *skip,
    struct diaglist *dl)
{
	const char *p, *nl;
	char *v;
	int n = 0;

	for (p = config; p != NULL && *p != '\0'; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (strncmp(p, "skip=", 5) != 0)
			continue;
		v = nl != NULL ? xstrndup(p + 5, (size_t)(nl - p - 5)) :
		    xstrdup(p + 5);
		if (*v != '\0' && skiplist_load(skip, v, dl) < 0) {
			free(v);
			return -1;
		}
		free(v);
		n++;
	}
	return n;
}

/* Whether the skip list file names tag already (a line "tag<blank>"). */
static int
run_skipfile_has(const char *file, const char *tag)
{
	char *buf, *p;
	size_t len, tlen = strlen(tag);
	int found = 0;

	if (slurp_file(file, 0, &buf, &len) != 0)
		return 0;
	for (p = buf; p != NULL && !found; p = strchr(p, '\n'), p = p ?
	    p + 1 : NULL)
		found = strncmp(p, tag, tlen) == 0 && (p[tlen] == '\t' ||
		    p[tlen] == ' ' || p[tlen] == '\n' || p[tlen] == '\0');
	free(buf);
	return found;
}

/*
 * run --resume --skip-culprit: the crashes the run stored before (its
 * box stopped answering, and nobody asked for --skip-culprit then) go
 * on the skip list for that box's system, as the live path does.
 */
static void
run_skip_stored_culprits(struct store *st, const struct store_run *prev,
    const char *userskip, struct skiplist *skip)
{
	struct store_result *v = NULL;
	struct diaglist dl;
	char where[600];
	size_t n = 0, i;

	if (userskip[0] == '\0')
		return;
	diag_init(&dl);
	if (store_run_results(st, prev->id, &v, &n, &dl) != STORE_OK)
		n = 0;
	snprintf(where, sizeof(where), "%s (%s %s %s)", prev->host != NULL &&
	    prev->host[0] != '\0' ? prev->host : "this system",
	    prev->os_name != NULL ? prev->os_name : "?",
	    prev->os_version != NULL ? prev->os_version : "?",
	    prev->arch != NULL ? prev->arch : "?");
	for (i = 0; i < n; i++) {
		if (v[i].status != TS_CRASH || v[i].tag[0] == '\0')
			continue;
		if (run_skipfile_has(userskip, v[i].tag)) {
			printf("%s is on %s already\n", v[i].tag, userskip);
			continue;
		}
		if (run_add_culprit(userskip, v[i].tag, prev->id,
		    prev->os_name, prev->arch, where) == 0)
			skiplist_add(skip, v[i].tag, "crashed the box in an "
			    "earlier run");
	}
	store_results_free(v, n);
	cli_diags(&dl);
	diag_free(&dl);
}

/*
 * --resume: the skip lists as the run began with them (--no-skiplist,
 * --skip FILE), unless given again now.  0, or -1 with dl.
 */
static int
run_resume_skips(const struct store_run *prev, struct skiplist *skip,
    const char *os, int no_skiplist, const char *const *skips,
    size_t nskips, struct diaglist *dl)
{
	char *v, *arch;
	long flag = 0;
	size_t i;

	if (!no_skiplist && (v = run_config_value(prev->config,
	    "no_skiplist")) != NULL) {
		run_config_number(prev->id, "no_skiplist", v, 1, &flag);
		free(v);
	}
	if (flag) {
		/* Loaded before the run was known: start again without. */
		arch = skip->arch != NULL ? xstrdup(skip->arch) : NULL;
		skiplist_free(skip);
		skiplist_init(skip);
		skiplist_set_os(skip, os);
		skiplist_set_arch(skip, arch);
		free(arch);
		for (i = 0; i < nskips; i++)
			if (skiplist_load(skip, skips[i], dl) < 0)
				return -1;
		printf("run %" PRId64 " began with --no-skiplist: so it goes "
		    "on\n", prev->id);
	}
	if (nskips == 0 && run_config_skips(prev->config, skip, dl) < 0)
		return -1;
	return 0;
}

/* A 0/1 flag of prev's config or'ed into *flagp. */
static void
run_config_flag(const struct store_run *prev, const char *key, int *flagp)
{
	char *v;
	long flag = 0;

	if ((v = run_config_value(prev->config, key)) != NULL) {
		run_config_number(prev->id, key, v, 1, &flag);
		*flagp |= (int)flag;
		free(v);
	}
}

/*
 * --resume: which run (the newest interrupted unless given), and the
 * settings it began with wherever not given again now.  0, or -1 with
 * s->dl or said.
 */
int
run_resume_settings(struct run_opts *o, struct run_state *s)
{
	const struct store_run *prev = &s->prev;
	int64_t newest;
	char *v;

	if (o->run_id == 0) {
		if (run_report_interrupted(s->st, &newest, NULL, 0, 1) < 0)
			return -1;
		/* A run stopped by ^C or X ended itself, interrupted. */
		if (newest == 0)
			newest = run_newest_stopped(s->st);
		if ((o->run_id = newest) == 0) {
			fprintf(stderr, "ltpscope: no interrupted run to "
			    "resume\n");
			return -1;
		}
	}
	if (store_get_run(s->st, o->run_id, &s->prev, &s->dl) != STORE_OK)
		return -1;
	/* An imported run holds another machine's results. */
	if ((v = run_config_value(prev->config, "source")) != NULL) {
		fprintf(stderr, "ltpscope: run %" PRId64 " was imported (%s), "
		    "not run here: there is nothing to resume\n", o->run_id,
		    v);
		free(v);
		return -1;
	}
	/* A run on a named box goes on there: its block, then the rest. */
	if (o->box == NULL)
		o->box = s->cfg_box = run_config_value(prev->config, "box");
	if (o->box != NULL && (run_named_box(o, s) != 0 ||
	    (s->qemu != NULL && run_wait_up(o, s) != 0)))
		return -1;
	/* Run the rest the way the run began, unless told otherwise. */
	if (o->ltpdir == NULL)
		o->ltpdir = s->cfg_root = run_config_value(prev->config,
		    "ltproot");
	if (!o->timeout_given && (v = run_config_value(prev->config,
	    "timeout")) != NULL) {
		run_config_number(o->run_id, "timeout", v, RUN_TIMEOUT_MAX,
		    &o->timeout_s);
		free(v);
	}
	/* Side by side as it began (the queue keeps the marks). */
	if (!o->jobs_given && (v = run_config_value(prev->config,
	    "jobs")) != NULL) {
		run_config_number(o->run_id, "jobs", v, RUN_MAXJOBS,
		    &o->jobs);
		if (o->jobs < 1)
			o->jobs = 1;
		free(v);
	}
	if (o->kconfig == NULL)
		o->kconfig = s->cfg_kconfig = run_config_value(prev->config,
		    "kconfig");
	if (o->timeout_mul == NULL)
		o->timeout_mul = s->cfg_mul = run_config_value(prev->config,
		    "timeout_mul");
	if (o->dev == NULL)
		o->dev = s->cfg_dev = run_config_value(prev->config, "dev");
	/* A run on a box goes on on that box. */
	if (o->host == NULL)
		o->host = s->cfg_host = run_config_value(prev->config,
		    "host");
	if (o->host != NULL && o->ssh_config == NULL)
		o->ssh_config = s->cfg_ssh = run_config_value(prev->config,
		    "ssh_config");
	/* The local file the box got; the box's copy went with it. */
	if (o->host != NULL && o->kconfig == NULL)
		o->kconfig = s->cfg_boxkc = run_config_value(prev->config,
		    "box_kconfig");
	/* A box that crashes again goes on as it did before. */
	if (o->host != NULL && o->console == NULL)
		o->console = s->cfg_console = run_config_value(prev->config,
		    "console");
	if (o->host != NULL && o->reboot_cmd == NULL)
		o->reboot_cmd = s->cfg_reboot = run_config_value(prev->config,
		    "reboot_cmd");
	if (o->host != NULL && o->box_wait < 0 && (v = run_config_value(
	    prev->config, "box_wait")) != NULL) {
		run_config_number(o->run_id, "box_wait", v, LONG_MAX,
		    &o->box_wait);
		free(v);
	}
	if (o->host != NULL)
		run_config_flag(prev, "reset_on_taint", &o->reset_on_taint);
	if (o->reset_on_taint && (o->host == NULL || o->reboot_cmd == NULL)) {
		fprintf(stderr, "ltpscope: --reset-on-taint resets a box "
		    "with its --reboot-cmd: run %" PRId64 " has %s\n",
		    o->run_id, o->host == NULL ? "no box" : "no --reboot-cmd");
		return -1;
	}
	if (run_resume_skips(prev, &s->skip, s->os, o->no_skiplist, o->skips,
	    o->nskips, &s->dl) != 0)
		return -1;
	run_config_flag(prev, "reproducible", &o->reproducible);
	run_config_flag(prev, "pipe", &o->use_pipe);
	if (o->label == NULL)
		o->label = prev->label;
	return 0;
}

/*
 * --resume: the test the run died in, onto the user's skip list if
 * asked (or told by --skip-culprit), and with --skip-culprit those of
 * earlier crashes too.
 */
void
run_resume_culprit(struct run_opts *o, struct run_state *s)
{
	char culprit[256], q[2400];

	if (run_culprit_of(s->st, o->run_id, culprit, sizeof(culprit))) {
		printf("run %" PRId64 " died while %s was running: marking it "
		    "interrupted (likely crashed the system)\n", o->run_id,
		    culprit);
		if (o->culprit_mode == -1 && s->userskip[0] != '\0') {
			snprintf(q, sizeof(q), "Add %s to your skip list "
			    "(%s)?", culprit, s->userskip);
			o->culprit_mode = run_ask(q);
			if (!o->culprit_mode && !isatty(STDIN_FILENO))
				printf("to skip it from now on: ltpscope run "
				    "--resume --skip-culprit, or add it to "
				    "%s\n", s->userskip);
		}
		if (o->culprit_mode == 1 && s->userskip[0] != '\0' &&
		    run_add_culprit(s->userskip, culprit, o->run_id, NULL,
		    NULL, NULL) == 0)
			skiplist_add(&s->skip, culprit, "crashed the system "
			    "in an earlier run");
	}
	if (o->culprit_mode == 1)
		run_skip_stored_culprits(s->st, &s->prev, s->userskip,
		    &s->skip);
}
