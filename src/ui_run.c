/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Running tests from the explorer: the same engine `ltpscope run` uses,
 * driven from the explorer's poll loop, its output streaming into the
 * pane and its results into the rows on screen.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/conflicts.h"
#include "ltpscope/crashlog.h"
#include "ltpscope/ltpmeta.h"
#include "ltpscope/paths.h"
#include "ltpscope/remote.h"
#include "ltpscope/spawn.h"
#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

/* The pane shows one worker's test: the first's, or the one w picks. */
static void
ui_pane_start(struct ui *ui, const char *tag, size_t idx, size_t n,
    size_t w)
{
	const struct ltptest *t = ltpindex_find(&ui->suite.idx, tag);
	char title[300];

	if (!ui->pane_live && ui->pane_title[0] != '\0' && !ui->follow)
		return;
	if (w != ENGINE_NO_WORKER && ui->jobs > 1)
		snprintf(title, sizeof(title), "worker %zu: %s (%zu/%zu) "
		    "running", w + 1, tag, idx + 1, n);
	else
		snprintf(title, sizeof(title), "%s (%zu/%zu) running", tag,
		    idx + 1, n);
	ui_pane_clear(ui, title);
	snprintf(ui->pane_tag, sizeof(ui->pane_tag), "%s", tag);
	ui->pane_live = 1;
	ui->pane_open = 1;
	ui->detail = 0;
	ui_pane_meta(ui, "$ %s", t != NULL ? t->cmdline : tag);
}

static void
ev_worker_start(void *arg, size_t w, const char *tag, size_t idx, size_t n)
{
	struct ui *ui = arg;

	if (ui->jobs > 1 && w == ui->worker_sel)
		ui_pane_start(ui, tag, idx, n, w);
}

static void
ev_worker_line(void *arg, size_t w, const struct ltpout_line *l)
{
	struct ui *ui = arg;

	if (ui->jobs > 1 && w == ui->worker_sel && ui->pane_live)
		ui_pane_push(ui, l->cls, l->text, l->len);
}

static void
ev_test_start(void *arg, const char *tag, size_t idx, size_t n)
{
	struct ui *ui = arg;

	snprintf(ui->running, sizeof(ui->running), "%s", tag);
	ui->run_n = n;
	if (ui->jobs > 1)
		return;
	ui_pane_start(ui, tag, idx, n, ENGINE_NO_WORKER);
}



static void
ev_skip_warning(void *arg, const char *tag, const char *reason)
{
	struct ui *ui = arg;

	ui_message(ui, 1, "%s is on the skip list (%s): running it because "
	    "you picked it", tag, reason);
}

static void
ev_line(void *arg, const struct ltpout_line *l)
{
	struct ui *ui = arg;

	if (ui->pane_live && ui->jobs <= 1)
		ui_pane_push(ui, l->cls, l->text, l->len);
}

/* A result of tag arrived: the views on the stack that show it. */
static void
ui_run_update_rows(struct ui *ui, const char *tag)
{
	struct view *v;
	size_t i;

	for (i = 1; i <= (size_t)ui->depth; i++) {
		v = &ui->views[i];
		if (v->ops->reload != NULL)
			v->ops->reload(ui, v, tag);
	}
}

static void
ev_test_end(void *arg, const struct store_result *r, const char *why,
    size_t idx, size_t n)
{
	struct ui *ui = arg;

	if (ui->pane_live && ui->jobs <= 1) {
		if (r->kmsg_lines > 0 || r->kmsg_tainted)
			ui_pane_kernel(ui, r->id);
		ui_pane_meta(ui, "== %s: %s (%s) in %.2f s", r->tag,
		    test_status_name(r->status), why != NULL ? why : "",
		    r->duration_ms / 1000.0);
		snprintf(ui->pane_title, sizeof(ui->pane_title),
		    "%s (%zu/%zu) %s", r->tag, idx + 1, n,
		    test_status_name(r->status));
	}
	ui->running[0] = '\0';
	ui_run_update_rows(ui, r->tag);
}

/* A crash given the kernel's words, said in the pane. */
static void
ui_run_told(void *arg, const char *tag, const char *first)
{
	struct ui *ui = arg;

	ui_pane_meta(ui, "ltpscope: %s crashed %s: %s", tag, ui->host,
	    first);
}

/*
 * The box the runs go to, connected now if it is not (or no longer):
 * 0, or -1 with why on the status line.  Blocks while ssh connects.
 */
static int
ui_run_box(struct ui *ui)
{
	struct remote_opts ro;
	struct diaglist dl;

	/* A crash of this run is read from its console from here. */
	ui_qemu_mark(ui);
	if (ui->box != NULL && remote_alive(ui->box))
		return 0;
	remote_close(ui->box);
	ui_box_opts(ui, ui->suite.root, &ro);
	diag_init(&dl);
	if ((ui->box = remote_open(ui->host, &ro, &dl)) == NULL)
		ui_message_diag(ui, &dl, UD_WHERE, "cannot connect", NULL);
	diag_free(&dl);
	return ui->box != NULL ? 0 : -1;
}

static void
ui_run_opts(struct ui *ui, struct engine_opts *eo)
{
	memset(eo, 0, sizeof(*eo));
	eo->runner.ltproot = ui->suite.root;
	/* As `ltpscope run` without --kconfig; "": LTP finds its own. */
	eo->runner.kconfig = ltpmeta_kconfig_default(ui->os, ui->kconfig,
	    sizeof(ui->kconfig));
	if (eo->runner.kconfig == NULL)
		eo->runner.kconfig = "";
	eo->runner.timeout_ms = ui->timeout_s > 0 ? ui->timeout_s * 1000 :
	    -1;
	eo->skip = &ui->skip;
	eo->label = "explorer";
	eo->jobs = ui->jobs;
	ui_triage_load(ui);
	eo->rules = ui->rules;
	eo->timeout_s = ui->timeout_s;
	if (ui->host[0] != '\0') {
		eo->runner.remote = ui->box;
		/*
		 * The skip list holds as on the box, not here: a test that
		 * panics NetBSD stays off a NetBSD box driven from Linux.
		 */
		if (ui->box != NULL)
			skiplist_set_box(&ui->skip, remote_box(ui->box));
		/* A local file means nothing there (see runner.h). */
		eo->runner.kconfig = "";
		eo->reset_on_taint = ui->reset_on_taint &&
		    ui->reboot_cmd[0] != '\0' && ui->box_wait_s != 0;
	}
}

/* 1 if the run's config names the explorer's box: its host is ours. */
static int
ui_run_on_box(const struct ui *ui, const char *config)
{
	const char *h;
	size_t n = strlen(ui->boxname);

	if (n == 0 || config == NULL)
		return 0;
	for (h = config; (h = strstr(h, "box=")) != NULL; h += 4)
		if ((h == config || h[-1] == '\n') &&
		    strncmp(h + 4, ui->boxname, n) == 0 &&
		    (h[4 + n] == '\n' || h[4 + n] == '\0'))
			return 1;
	return 0;
}

/*
 * A run on a named box says so in its config, as run --box does, so
 * that run --resume goes on there (a QEMU box's port changes).
 */
static void
ui_run_note_box(struct ui *ui)
{
	struct store_run run;
	struct diaglist dl;
	char *config;

	if (ui->boxname[0] == '\0' || ui->host[0] == '\0')
		return;
	diag_init(&dl);
	memset(&run, 0, sizeof(run));
	if (store_get_run(ui->store, ui->run_id, &run, &dl) == STORE_OK) {
		xasprintf(&config, "%sbox=%s\n", run.config != NULL ?
		    run.config : "", ui->boxname);
		(void)store_run_set_config(ui->store, ui->run_id, config,
		    &dl);
		free(config);
	}
	store_run_clear(&run);
	diag_free(&dl);
}

/*
 * Expected seconds per queued test, from each test's latest result;
 * a test never run counts one second.  tags may be NULL (a resumed run,
 * whose order only the store knows): then every test counts one second.
 */
static void
ui_run_began(struct ui *ui, const struct engine_test *tests)
{
	struct store_result *v = NULL;
	struct diaglist dl;
	size_t n = 0, i, total;
	int lo, hi, mid, c;

	ui->run_id = engine_run_id(ui->eng);
	ui->run_started = time(NULL);
	ui->stop_requested = 0;
	total = engine_total(ui->eng);
	free(ui->est);
	ui->est = xcalloc(total ? total : 1, sizeof(*ui->est));
	for (i = 0; i < total; i++)
		ui->est[i] = 1.0;
	diag_init(&dl);
	if (tests != NULL &&
	    store_latest_results(ui->store, &v, &n, &dl) == STORE_OK) {
		/* store_latest_results() is ordered by tag. */
		for (i = 0; i < total; i++) {
			lo = 0;
			hi = (int)n - 1;
			while (lo <= hi) {
				mid = (lo + hi) / 2;
				c = strcmp(tests[i].tag, v[mid].tag);
				if (c == 0) {
					ui->est[i] = v[mid].duration_ms /
					    1000.0;
					break;
				}
				if (c < 0)
					hi = mid - 1;
				else
					lo = mid + 1;
			}
		}
	}
	diag_free(&dl);
	store_results_free(v, n);
	ui->run_n = total;
	ui->follow = 1;
	ui->pane_live = 1;
	ui->pane_open = 1;
}

static const struct engine_events ui_events = {
	.test_start = ev_test_start,
	.skip_warning = ev_skip_warning,
	.line = ev_line,
	.test_end = ev_test_end,
	.worker_start = ev_worker_start,
	.worker_line = ev_worker_line,
};

/* The most workers J offers; a resumed run takes its own, up to this. */
#define UI_RUN_MAXJOBS	4

/*
 * Each test's conflict groups (conflicts.h), into groups[i], which the
 * caller frees; a bad conflict file is said and its bad lines left out.
 */
static void
ui_run_conflicts(struct ui *ui, struct engine_test *tests, char **groups,
    size_t n)
{
	struct conflicts c;
	struct diaglist dl;
	char buf[512];
	size_t i;

	conflicts_init(&c);
	diag_init(&dl);
	if (conflicts_load_default(&c, &dl) > 0)
		ui_message_diag(ui, &dl, UD_TEXT, NULL, NULL);
	diag_free(&dl);
	for (i = 0; i < n; i++)
		if (conflicts_of(&c, tests[i].tag, buf, sizeof(buf)) > 0)
			tests[i].conflicts = groups[i] = xstrdup(buf);
	conflicts_free(&c);
}

/* Runs the tests of the syscalls or the tests given (explicitly named). */
void
ui_run_selected(struct ui *ui, const char *const *syscalls, size_t nsys,
    const char *const *tags, size_t ntags)
{
	struct engine_events ev = ui_events;
	struct engine_test *tests;
	char **groups;
	struct engine_opts eo;
	struct ltpselect sel;
	struct diaglist dl;
	size_t *picked = NULL, n = 0, i, j;

	if (ui->eng != NULL) {
		ui_message(ui, 1, "a run is in progress: x stops the test, "
		    "X the whole run");
		return;
	}
	memset(&sel, 0, sizeof(sel));
	sel.syscalls = syscalls;
	sel.nsyscalls = nsys;
	sel.tags = tags;
	sel.ntags = ntags;
	diag_init(&dl);
	if (ltpindex_select(&ui->suite.idx, &sel, &picked, &n, &dl) < 0 ||
	    n == 0) {
		if (dl.n > 0)
			ui_message_diag(ui, &dl, UD_TEXT, NULL, NULL);
		else
			ui_message(ui, 1, "no LTP test for that in %s",
			    ui->suite.root ? ui->suite.root : "LTPROOT");
		diag_free(&dl);
		free(picked);
		return;
	}
	diag_free(&dl);
	tests = xcalloc(n, sizeof(*tests));
	for (i = 0; i < n; i++) {
		const struct ltptest *t = &ui->suite.idx.tests[picked[i]];

		tests[i].tag = t->tag;
		tests[i].syscall = suite_test_syscall(t);
		tests[i].cmdline = t->cmdline;
		for (j = 0; j < ntags; j++)
			tests[i].explicit |= strcmp(tags[j], t->tag) == 0;
	}
	groups = xcalloc(n + 1, sizeof(*groups));
	if (ui->jobs > 1 && ui->suite.meta != NULL) {
		/* Side by side only what LTP's metadata says is safe. */
		for (i = 0; i < n; i++)
			tests[i].parallel = ltpmeta_parallel_safe(
			    ltpmeta_test(ui->suite.meta, tests[i].tag), NULL, 0);
		ui_run_conflicts(ui, tests, groups, n);
		engine_order(tests, n, ui->store);
	}
	if (ui->host[0] != '\0' && ui_run_box(ui) != 0) {
		for (i = 0; i < n; i++)
			free(groups[i]);
		free(groups);
		free(tests);
		free(picked);
		return;
	}
	ui_run_opts(ui, &eo);
	ev.arg = ui;
	diag_init(&dl);
	ui->eng = engine_new(ui->store, &eo, tests, n, &ev, &dl);
	if (ui->eng == NULL) {
		ui_message_diag(ui, &dl, UD_WHERE, "cannot start the run",
		    NULL);
	} else {
		/* The status line shows the run from now on. */
		ui_run_began(ui, tests);
		ui_run_note_box(ui);
	}
	diag_free(&dl);
	free(tests);
	for (i = 0; i < n; i++)
		free(groups[i]);
	free(groups);
	free(picked);
}

void
ui_run_resume(struct ui *ui, int64_t run_id)
{
	struct engine_events ev = ui_events;
	struct engine_opts eo;
	struct store_run run;
	struct diaglist dl;
	const char *h;
	size_t hl;

	/* A run on a box goes on on that box. */
	diag_init(&dl);
	memset(&run, 0, sizeof(run));
	if (store_get_run(ui->store, run_id, &run, &dl) == STORE_OK &&
	    !ui_run_on_box(ui, run.config) &&
	    (h = strstr(run.config, "host=")) != NULL && (h == run.config ||
	    h[-1] == '\n') && (hl = strcspn(h + 5, "\n")) > 0 &&
	    hl < sizeof(ui->host)) {
		memcpy(ui->host, h + 5, hl);
		ui->host[hl] = '\0';
		if (ui->ssh_config[0] == '\0' && (h = strstr(run.config,
		    "\nssh_config=")) != NULL && (hl = strcspn(h + 12,
		    "\n")) > 0 && hl < sizeof(ui->ssh_config)) {
			memcpy(ui->ssh_config, h + 12, hl);
			ui->ssh_config[hl] = '\0';
		}
	}
	/* Side by side as the run began. */
	if (run.config != NULL && (h = strstr(run.config, "\njobs=")) != NULL
	    && atoi(h + 6) > 1 && atoi(h + 6) <= UI_RUN_MAXJOBS)
		ui->jobs = atoi(h + 6);
	store_run_clear(&run);
	diag_free(&dl);
	if (ui->host[0] != '\0') {
		if (ui_run_box(ui) != 0)
			return;
		diag_init(&dl);
		(void)crashlog_collect(ui->store, run_id, ui->box, NULL, NULL,
		    ui_run_told, ui, &dl);
		diag_free(&dl);
	}
	ui_run_opts(ui, &eo);
	ev.arg = ui;
	diag_init(&dl);
	ui->eng = engine_resume(ui->store, &eo, run_id, &ev, &dl);
	if (ui->eng == NULL) {
		ui_message_diag(ui, &dl, UD_WHERE, "cannot resume", NULL);
	} else {
		ui_run_began(ui, NULL);
		ui_pane_meta(ui, "resuming run %" PRId64 ": %zu test%s left",
		    run_id, engine_total(ui->eng),
		    engine_total(ui->eng) == 1 ? "" : "s");
	}
	diag_free(&dl);
}

extern char **environ;

static long long
ui_run_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The box stopped answering, or its kernel was tainted and the config
 * says reset-on-taint, and the config has a reboot-cmd: run it,
 * detached from the terminal (its words would spoil the screen), and
 * wait for the box as run --reboot-cmd does, at growing intervals,
 * without holding up the keys.  A tainted box answers until the
 * command has reset it: it is not tried before the command ends.
 */
static void
ui_run_reboot(struct ui *ui)
{
	struct spawn_req rq;
	char sh[] = "sh", dashc[] = "-c";
	char *argv[] = { sh, dashc, ui->reboot_cmd, NULL };
	const char *taint = engine_reset_due(ui->eng);
	const char *how = ui->qemu != NULL ? "QEMU box" : "running";
	const char *with = ui->qemu != NULL ? ui->boxname : ui->reboot_cmd;
	int fd;

	ui->wait_taint = !engine_box_lost(ui->eng) && taint != NULL;
	if (ui->wait_taint)
		ui_pane_meta(ui, "ltpscope: the kernel of %s was tainted "
		    "after %s: resetting the box; %s %s", ui->host, taint,
		    how, with);
	else
		ui_pane_meta(ui, "ltpscope: %s stopped answering%s%s; %s %s",
		    ui->host, engine_lost_test(ui->eng) != NULL ?
		    " while running " : " between tests",
		    engine_lost_test(ui->eng) != NULL ?
		    engine_lost_test(ui->eng) : "", how, with);
	ui->reboot_pid = 0;
	ui->wait_tries = 0;
	/* A QEMU box is reset on its monitor, if not back by itself. */
	if (ui->qemu != NULL)
		ui_qemu_begin(ui, ui->wait_taint);
	else if ((fd = open("/dev/null", O_RDWR)) != -1) {
		memset(&rq, 0, sizeof(rq));
		rq.path = "/bin/sh";
		rq.argv = argv;
		rq.envp = environ;
		rq.out_fd = fd;
		rq.in_fd = fd;
		rq.dir = ".";
		if ((ui->reboot_pid = spawn_session(&rq)) == -1)
			ui->reboot_pid = 0;
		close(fd);
	}
	if (ui->reboot_pid == 0 && ui->qemu == NULL)
		ui_pane_meta(ui, "ltpscope: cannot run the reboot-cmd");
	ui->wait_run = ui->run_id;
	ui->wait_step_s = 1;
	ui->wait_start_ms = ui_run_now_ms();
	ui->wait_next_ms = ui->wait_start_ms + 1000;
	ui_run_wait_tick(ui);
}

/* Where the wait is, on the status line. */
static void
ui_run_wait_say(struct ui *ui, long long now)
{
	long long left = (ui->wait_next_ms - now + 999) / 1000;

	if (ui->wait_tries == 0 && ui->wait_taint && ui->reboot_pid > 0)
		ui_message(ui, 0, "%s's kernel was tainted: resetting it "
		    "with the reboot-cmd (X: stop waiting)", ui->host);
	else if (ui->wait_tries == 0)
		ui_message(ui, 0, "%s %s: %s; waiting for it, first try in "
		    "%lld s (X: stop waiting)", ui->host, ui->wait_taint ?
		    "was reset (tainted)" : "stopped answering (crash)",
		    ui->qemu == NULL ? "reboot-cmd run" : ui->qemu_pending ?
		    "not reset yet" : "box reset", left);
	else
		ui_message(ui, 0, "waiting for %s: try %d failed; next in "
		    "%lld s (X: stop waiting)", ui->host, ui->wait_tries,
		    left);
	ui->dirty = 1;
}

void
ui_run_wait_tick(struct ui *ui)
{
	struct remote_opts ro;
	struct diaglist dl;
	struct remote *rm;
	long long now = ui_run_now_ms(), waited;
	int64_t run_id;
	char why[400];
	int st;

	if (ui->reboot_pid > 0 && waitpid(ui->reboot_pid, &st, WNOHANG) ==
	    ui->reboot_pid) {
		ui->reboot_pid = 0;
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			ui_pane_meta(ui, "ltpscope: the reboot-cmd failed "
			    "(status %#x)", st);
	}
	if (ui->wait_run == 0)
		return;
	ui_qemu_tick(ui);
	/* Until reset, a tainted box still answers: not back yet. */
	if (ui->wait_taint && ui->reboot_pid > 0 && ui->wait_next_ms <
	    now + 1000 && (ui->box_wait_s < 0 || now + 1000 <
	    ui->wait_start_ms + (long long)ui->box_wait_s * 1000))
		ui->wait_next_ms = now + 1000;
	if (now < ui->wait_next_ms) {
		ui_run_wait_say(ui, now);
		return;
	}
	ui_box_opts(ui, ui->suite.root, &ro);
	/* Each try holds the keys up: a short one. */
	ro.connect_timeout_s = 5;
	diag_init(&dl);
	rm = remote_open(ui->host, &ro, &dl);
	ui->wait_tries++;
	now = ui_run_now_ms();
	waited = (now - ui->wait_start_ms) / 1000;
	if (rm != NULL) {
		diag_free(&dl);
		remote_close(ui->box);
		ui->box = rm;
		run_id = ui->wait_run;
		ui->wait_run = 0;
		ui_pane_meta(ui, "ltpscope: %s is back after %lld s", ui->host,
		    waited);
		ui_qemu_back(ui);
		ui_run_resume(ui, run_id);
		return;
	}
	/* As run --box-wait: to the second, the last try at the limit. */
	if (ui->box_wait_s >= 0 && now >= ui->wait_start_ms +
	    (long long)ui->box_wait_s * 1000) {
		why[0] = '\0';
		if (dl.n > 0)
			(void)diag_format(&dl.v[0], why, sizeof(why));
		ui_message(ui, 1, "%s did not come back in %d s (%s): run %"
		    PRId64 " is left for run --resume", ui->host,
		    ui->box_wait_s, why, ui->wait_run);
		ui->wait_run = 0;
		diag_free(&dl);
		return;
	}
	diag_free(&dl);
	ui->wait_next_ms = now + ui->wait_step_s * 1000;
	if (ui->box_wait_s >= 0 && ui->wait_next_ms > ui->wait_start_ms +
	    (long long)ui->box_wait_s * 1000)
		ui->wait_next_ms = ui->wait_start_ms +
		    (long long)ui->box_wait_s * 1000;
	ui->wait_step_s = ui->wait_step_s * 2 > 60 ? 60 :
	    ui->wait_step_s * 2;
	ui_run_wait_say(ui, now);
}

/* Without a reboot-cmd: the person brings the box back, then says so. */
static void
ui_run_ask_resume(struct ui *ui)
{
	const char *lost = engine_lost_test(ui->eng);

	ui_ask(ui, UC_RESUME, "%s stopped answering%s%s%s. Resume run %"
	    PRId64 " there once it is back?", ui->host, lost != NULL ?
	    " while running " : " between tests", lost != NULL ? lost : "",
	    lost != NULL ? " (crash)" : "", ui->run_id);
}

/* Services the engine for a bounded time so keys are never starved. */
void
ui_run_service(struct ui *ui)
{
	struct diaglist dl;
	struct timespec t0, t1;
	long spent;
	int rv;

	if (ui->eng == NULL)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	diag_init(&dl);
	for (;;) {
		rv = engine_service(ui->eng, &dl);
		if (rv != 0)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		spent = (t1.tv_sec - t0.tv_sec) * 1000 +
		    (t1.tv_nsec - t0.tv_nsec) / 1000000;
		if (spent >= 20 || engine_poll_timeout(ui->eng) != 0)
			break;
	}
	if (rv != 0) {
		const unsigned *k = engine_counts(ui->eng);
		unsigned envmarked = engine_env_marked(ui->eng);
		struct store_run run;

		/*
		 * The whole run's tally, from the store: after a crash the
		 * engine going on knows only the tests left when it took
		 * over (as run_summary()).
		 */
		memset(&run, 0, sizeof(run));
		if (rv > 0 && !engine_box_lost(ui->eng) &&
		    engine_reset_due(ui->eng) == NULL && store_get_run(ui->store, ui->run_id, &run, &dl) ==
		    STORE_OK) {
			k = run.counts;
			envmarked = run.nenvmarked;
		}
		if (rv < 0)
			ui_message_diag(ui, &dl, UD_WHERE, "store error",
			    "the run stopped");
		else if (engine_box_lost(ui->eng) ||
		    engine_reset_due(ui->eng) != NULL) {
			/* Resumable here or by run --resume, as if stopped. */
			(void)store_run_end(ui->store, ui->run_id,
			    RUN_INTERRUPTED, &dl);
			ui_qemu_lost(ui);
			remote_close(ui->box);
			ui->box = NULL;
			ui->confirm_run = ui->run_id;
			if ((ui->reboot_cmd[0] != '\0' || ui->qemu != NULL) &&
			    ui->box_wait_s != 0)
				ui_run_reboot(ui);
			else
				ui_run_ask_resume(ui);
		} else
			ui_message(ui, 0, "run %" PRId64 " %s: %u pass, %u "
			    "fail, %u broken, %u conf, %u warn, %u timeout, "
			    "%u not-run, %u unknown, %u crash; %u with an env "
			    "warning",
			    ui->run_id, ui->stop_requested ?
			    "stopped (resumable)" : "finished", k[TS_PASS],
			    k[TS_FAIL], k[TS_BROKEN], k[TS_CONF], k[TS_WARN],
			    k[TS_TIMEOUT], k[TS_NOTRUN], k[TS_UNKNOWN],
			    k[TS_CRASH], envmarked);
		store_run_clear(&run);
		engine_free(ui->eng);
		ui->eng = NULL;
		ui->running[0] = '\0';
		ui_catalogue_results(&ui->suite, ui->store, ui->rows,
		    ui->nrows);
	}
	diag_free(&dl);
}

void
ui_run_stop_test(struct ui *ui)
{
	if (ui->eng == NULL || engine_current(ui->eng) == NULL) {
		ui_message(ui, 0, "no test is running");
		return;
	}
	ui_message(ui, 0, "stopping %s", engine_current(ui->eng));
	engine_stop_test(ui->eng);
}

void
ui_run_stop_all(struct ui *ui)
{
	if (ui->eng == NULL && ui->wait_run != 0) {
		ui_message(ui, 0, "stopped waiting for %s: resume run %"
		    PRId64 " later with ltpscope run --resume", ui->host,
		    ui->wait_run);
		ui->wait_run = 0;
		return;
	}
	if (ui->eng == NULL) {
		ui_message(ui, 0, "no run in progress");
		return;
	}
	ui->stop_requested = 1;
	engine_stop_all(ui->eng);
	ui_message(ui, 0, "stopping the run; resume it later with "
	    "ltpscope run --resume");
}

static void
ui_clock(long secs, char *buf, size_t len)
{
	if (secs < 0)
		secs = 0;
	if (secs >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", secs / 3600,
		    secs / 60 % 60, secs % 60);
	else
		snprintf(buf, len, "%02ld:%02ld", secs / 60, secs % 60);
}

void
ui_run_status(struct ui *ui, char *buf, size_t len)
{
	const unsigned *k = engine_counts(ui->eng);
	size_t done = engine_done_count(ui->eng), total = engine_total(ui->eng);
	char el[48], left[48];
	double rest = 0;
	size_t i;
	long elapsed = (long)(time(NULL) - ui->run_started);

	for (i = done; i < total && ui->est != NULL; i++)
		rest += ui->est[i];
	if (done > 0 && elapsed > 0) {
		/* Scale the estimate by how this run has gone so far. */
		double spent_est = 0;

		for (i = 0; i < done; i++)
			spent_est += ui->est[i];
		if (spent_est > 0)
			rest *= (double)elapsed / spent_est;
	}
	ui_clock(elapsed, el, sizeof(el));
	ui_clock((long)rest, left, sizeof(left));
	if (engine_running(ui->eng) > 1)
		snprintf(ui->running, sizeof(ui->running), "%zu tests",
		    engine_running(ui->eng));
	snprintf(buf, len, "%s %s [%zu/%zu] %s, ~%s left  P%u F%u B%u C%u",
	    ui->stop_requested ? "stopping" : "running",
	    ui->running[0] ? ui->running : "-", done + (ui->running[0] != 0),
	    total, el, left, k[TS_PASS], k[TS_FAIL], k[TS_BROKEN] +
	    k[TS_TIMEOUT] + k[TS_SIGNALLED], k[TS_CONF]);
}

void
ui_run_free(struct ui *ui)
{
	if (ui->eng != NULL)
		engine_free(ui->eng);
	ui->eng = NULL;
	remote_close(ui->box);
	ui->box = NULL;
	free(ui->est);
	ui->est = NULL;
}
