/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope run: run LTP tests headless, one line per finished test and a
 * summary, every result into the store.  The explorer's "r" drives the
 * same engine.  This file is the command: its options, what it picks,
 * the run begun; below it, --resume (cmd_run_resume.c), the boxes
 * (cmd_run_box.c, cmd_run_named.c), --dry-run (cmd_run_dry.c), the run
 * while it goes (cmd_run_loop.c) and its recorded config
 * (cmd_run_config.c, cmd_run_culprit.c).
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/boxfiles.h"
#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/compat.h"
#include "ltpscope/crashlog.h"
#include "ltpscope/engine.h"
#include "ltpscope/linuxref.h"
#include "ltpscope/listparse.h"
#include "ltpscope/ltpmeta.h"
#include "ltpscope/numparse.h"
#include "ltpscope/paths.h"
#include "ltpscope/remote.h"
#include "ltpscope/skiplist.h"
#include "ltpscope/slurp.h"
#include "ltpscope/store.h"
#include "ltpscope/suite.h"
#include "ltpscope/textsafe.h"
#include "ltpscope/xmalloc.h"

#include "cmd_run_impl.h"

/*
 * Whether root looks like an LTP install: a missing one, or one whose
 * make install stopped half way, would otherwise show as one "command
 * not found" per test.  0, or -1 with the error in dl.
 */
static int
run_check_ltproot(const char *root, struct diaglist *dl)
{
	struct stat st;
	char path[4096];

	if (stat(root, &st) == -1 || !S_ISDIR(st.st_mode)) {
		diag_error(dl, root, 0, "no LTP install here (%s); give its "
		    "root with -L DIR or LTPROOT", stat(root, &st) == -1 ?
		    strerror(errno) : "not a directory");
		return -1;
	}
	snprintf(path, sizeof(path), "%s/testcases/bin", root);
	if (stat(path, &st) == -1 || !S_ISDIR(st.st_mode)) {
		diag_error(dl, root, 0, "the LTP install looks incomplete: "
		    "%s is missing (did its make install finish?)", path);
		return -1;
	}
	return 0;
}

static void
run_split_list(const char *arg, struct run_opts *o)
{
	char **items;
	size_t n, i;

	/* The items are the list's now; only the vector goes. */
	items = listparse_split(arg, &n);
	o->sysv = xreallocarray(o->sysv, o->nsys + n + 1, sizeof(*o->sysv));
	for (i = 0; i < n; i++)
		o->sysv[o->nsys++] = items[i];
	free(items);
}

/*
 * Marks each test with what the metadata says: not runnable here (a
 * test named explicitly runs anyway, with a warning), or safe to run
 * beside others.  Returns how many will not run.
 */
static size_t
run_apply_meta(struct engine_test *tests, size_t n, const struct suite *s,
    const char *kconfig, const char *dev, char **reasons)
{
	struct ltpmeta_env env;
	const struct ltpmeta_test *m;
	char why[512];
	size_t i, nnot = 0;

	ltpmeta_env_init(&env);
	if (dev != NULL)
		env.ltp_dev = dev;
	/* The config LTP itself will be given; "": none known. */
	env.kconfig = kconfig[0] != '\0' ? kconfig : NULL;
	env.ltproot = s->root;
	for (i = 0; i < n; i++) {
		m = ltpmeta_test(s->meta, tests[i].tag);
		tests[i].parallel = ltpmeta_parallel_safe(m, NULL, 0);
		if (!ltpmeta_runnable(m, &env, why, sizeof(why)))
			continue;
		if (tests[i].explicit) {
			fprintf(stderr, "ltpscope: warning: %s is not runnable "
			    "here (%s); running it because it was named\n",
			    tests[i].tag, why);
			continue;
		}
		xasprintf(&reasons[i], "not runnable here: %s", why);
		tests[i].notrun = reasons[i];
		nnot++;
	}
	ltpmeta_env_free(&env);
	return nnot;
}

/*
 * Each test's conflict groups (the engine keeps members of a group
 * apart); marks are kept with -j 1 too, for a --resume with -j.
 */
static void
run_apply_conflicts(struct run_state *s)
{
	char buf[512];
	size_t i;

	s->groups = xcalloc(s->npicked + 1, sizeof(*s->groups));
	for (i = 0; i < s->npicked; i++) {
		if (conflicts_of(&s->conf, s->tests[i].tag, buf,
		    sizeof(buf)) == 0)
			continue;
		s->groups[i] = xstrdup(buf);
		s->tests[i].conflicts = s->groups[i];
	}
}

/*
 * The kernel config LTP is given (KCONFIG_PATH; "" for none) and, in
 * what, where it comes from, for --dry-run.
 */
static const char *
run_kconfig(const char *given, const char *os, char *buf, size_t len,
    char *what, size_t wlen)
{
	if (given != NULL && given[0] != '\0') {
		snprintf(what, wlen, "%s (--kconfig)", given);
		return given;
	}
	if (given != NULL) {
		snprintf(what, wlen, "none (--kconfig ''): LTP looks for the "
		    "kernel's own");
		return "";
	}
	if (ltpmeta_kconfig_default(os, buf, len) != NULL) {
		snprintf(what, wlen, "%s (bundled, compat_linux's: the "
		    "default on %s)", buf, os);
		return buf;
	}
	snprintf(what, wlen, "the kernel's own, as LTP finds it (the default "
	    "on %s); no kernel option is checked beforehand", os[0] != '\0' ?
	    os : "this system");
	return "";
}

/*
 * Several boxes: one ltpscope a box, side by side, each a run of its
 * own in the store (a run is one machine's), each going through its
 * box's crashes on its own.  Forked before anything is opened, so no
 * SQLite connection crosses a fork.  In a child, sets *hostp and
 * returns -1; in the parent, waits for them all and returns the worst
 * exit status.
 */
static int
run_fork_hosts(const char *const *hosts, size_t n, const char **hostp)
{
	struct sigaction sa, old[3];
	pid_t pids[RUN_MAXHOSTS], me = getpid();
	size_t i, left;
	int st, rv = 0, told = 0;

	fflush(stdout);
	fflush(stderr);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = run_on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < n; i++) {
		if ((pids[i] = fork()) == -1) {
			fprintf(stderr, "ltpscope: fork: %s\n",
			    strerror(errno));
			rv = 1;
			break;
		}
		if (pids[i] == 0) {
			*hostp = hosts[i];
			run_watch_parent(me);
			return -1;
		}
	}
	/* ^C reaches the children from the terminal; a kill is passed on. */
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
	sigaction(SIGHUP, &sa, &old[2]);
	for (left = i; left > 0;) {
		pid_t w = wait(&st);

		if (w == -1 && errno == EINTR) {
			if (run_was_interrupted() && !told) {
				told = 1;
				for (n = 0; n < i; n++)
					if (pids[n] > 0)
						(void)kill(pids[n], SIGINT);
			}
			continue;
		}
		if (w == -1)
			break;
		for (n = 0; n < i; n++)
			if (pids[n] == w)
				pids[n] = 0;
		left--;
		if (!WIFEXITED(st))
			rv = rv > 1 ? rv : 1;
		else if (WEXITSTATUS(st) > rv)
			rv = WEXITSTATUS(st);
	}
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
	sigaction(SIGHUP, &old[2], NULL);
	return rv;
}

static void
run_opts_init(struct run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->box_wait = -1;
	o->jobs = 1;
	o->timeout_s = RUNNER_DEFAULT_TIMEOUT_MS / 1000;
	o->culprit_mode = -1;
}

static void
run_opts_free(struct run_opts *o)
{
	size_t i;

	for (i = 0; i < o->nsys; i++)
		free((void *)o->sysv[i]);
	free(o->sysv);
}

/*
 * The command line into o, checked as far as it can be without the
 * store.  -1 to go on, or the exit status.
 */
static int
run_parse_options(struct cmd_args *a, struct run_opts *o)
{
	const char **v;
	long long num;
	double mul;
	size_t n, i;

	o->dbpath = cmd_str(a, "db");
	o->ltpdir = cmd_str(a, "ltproot");
	o->runtests = cmd_list(a, "runtest", &o->nruntests);
	o->tables = cmd_list(a, "master", &o->ntables);
	o->skips = cmd_list(a, "skip", &o->nskips);
	o->conflicts = cmd_list(a, "conflicts", &o->nconflicts);
	v = cmd_list(a, "syscalls", &n);
	for (i = 0; i < n; i++)
		run_split_list(v[i], o);
	o->pattern = cmd_str(a, "pattern");
	o->timeout_given = cmd_has(a, "timeout") > 0;
	o->timeout_s = (long)cmd_num(a, "timeout", o->timeout_s);
	o->grace_ms = (long)cmd_num(a, "grace", 0);
	o->label = cmd_str(a, "label");
	o->resume = cmd_has(a, "resume") > 0;
	o->culprit_mode = cmd_later(a, "no-skip-culprit", "skip-culprit");
	o->use_pipe = cmd_has(a, "pipe") > 0;
	/* LTP's own bounds for LTP_TIMEOUT_MUL. */
	if (cmd_real(a, "timeout-mul", 0.1, 10000, &mul) != 0)
		return 2;
	o->timeout_mul = cmd_str(a, "timeout-mul");
	o->dev = cmd_str(a, "dev");
	o->reproducible = cmd_has(a, "reproducible") > 0;
	o->kconfig = cmd_str(a, "kconfig");
	o->dry = cmd_has(a, "dry-run") > 0;
	o->verbose = cmd_has(a, "verbose") > 0;
	o->jobs_given = cmd_has(a, "jobs") > 0;
	o->jobs = (long)cmd_num(a, "jobs", o->jobs);
	o->metadata = cmd_str(a, "metadata");
	o->no_metadata = cmd_has(a, "no-metadata") > 0;
	o->no_skiplist = cmd_has(a, "no-skiplist") > 0;
	v = cmd_list(a, "host", &o->nhosts);
	if (o->nhosts > RUN_MAXHOSTS)
		return cmd_error(a, "at most %d --host", RUN_MAXHOSTS);
	memcpy(o->hosts, v, o->nhosts * sizeof(*v));
	o->host = cmd_str(a, "host");
	o->ssh_config = cmd_str(a, "ssh-config");
	o->reboot_cmd = cmd_str(a, "reboot-cmd");
	o->reset_on_taint = cmd_has(a, "reset-on-taint") > 0;
	o->console = cmd_str(a, "console");
	o->box_master = cmd_str(a, "box-master");
	o->box_wait = (long)cmd_num(a, "box-wait", o->box_wait);
	o->reference = cmd_has(a, "reference") > 0;
	o->tags = a->argv;
	o->ntags = a->argc;
	o->boxes = cmd_list(a, "box", &o->nboxes);
	if (o->nboxes > RUN_MAXHOSTS)
		return cmd_error(a, "at most %d --box", RUN_MAXHOSTS);
	/* One --host may stand in for one --box's host, not for several. */
	if ((o->nboxes > 0 && o->nhosts > 1) || (o->nboxes > 1 &&
	    o->nhosts > 0))
		return cmd_error(a, "several --host, or several --box, not "
		    "both");
	o->box = o->nboxes == 1 ? o->boxes[0] : NULL;
	if ((o->nhosts > 1 || o->nboxes > 1) && (o->resume || o->dry ||
	    o->jobs > 1 || o->console != NULL))
		return cmd_error(a, "several --host (or --box) run one test "
		    "at a time on each box: not with --resume, --dry-run, "
		    "-j or --console");
	/* --resume may find both in the run's record. */
	if (o->reset_on_taint && o->nboxes == 0 && !o->resume &&
	    (o->reboot_cmd == NULL || o->nhosts == 0))
		return cmd_error(a, "--reset-on-taint resets a box (--host) "
		    "with its --reboot-cmd: give both");
	if (o->box_master != NULL && o->nhosts == 0 && o->nboxes == 0)
		return cmd_error(a, "--box-master is the path of a box's "
		    "syscalls.master: it goes with --host");
	/* Several --host and --resume were refused above. */
	if (o->resume && o->ntags > 1)
		return cmd_usage_error(a);
	if (o->resume && o->ntags == 1) {
		if (cmd_number(a, "--resume", o->tags[0], 1, INT64_MAX,
		    &num) != 0)
			return 2;
		o->run_id = (int64_t)num;
		o->ntags = 0;
	}
	return -1;
}

static void
run_state_init(struct run_state *s)
{
	char arch[64];

	memset(s, 0, sizeof(*s));
	diag_init(&s->dl);
	skiplist_init(&s->skip);
	conflicts_init(&s->conf);
	/* The bundled list names the systems its entries hold on. */
	skiplist_set_os(&s->skip, compat_os_name(s->os, sizeof(s->os)));
	skiplist_set_arch(&s->skip, compat_machine_arch(arch, sizeof(arch)));
}

static void
run_state_free(struct run_state *s)
{
	size_t i;

	run_clear_progress(&s->ctx);
	store_run_clear(&s->prev);
	free(s->cfg_root);
	free(s->cfg_kconfig);
	free(s->cfg_mul);
	free(s->cfg_dev);
	cli_diags(&s->dl);
	engine_free(s->e);
	rules_free(s->vrules);
	remote_close(s->box);
	free(s->cfg_host);
	free(s->cfg_ssh);
	free(s->cfg_boxkc);
	free(s->cfg_console);
	crashlog_watch_free(s->ctx.watch);
	free(s->cfg_reboot);
	free(s->cachedir);
	free(s->extra.s);
	free(s->rtall);
	boxfiles_free(&s->bf);
	store_close(s->st);
	free(s->tests);
	for (i = 0; s->reasons != NULL && i < s->npicked; i++)
		free(s->reasons[i]);
	free(s->reasons);
	for (i = 0; s->groups != NULL && i < s->npicked; i++)
		free(s->groups[i]);
	free(s->groups);
	conflicts_free(&s->conf);
	free(s->picked);
	if (s->suite_loaded)
		suite_free(&s->suite);
	skiplist_free(&s->skip);
	diag_free(&s->dl);
	free(s->cfg_box);
	/* After the ssh master is gone: QEMU stops last. */
	qemubox_close(s->qemu);
	settings_free(&s->set);
}

/*
 * The skip lists given (or the bundled one), each recorded for
 * --resume.  0, or -1 with s->dl.
 */
static int
run_skiplists(const struct run_opts *o, struct run_state *s)
{
	size_t i;
	char *abs;

	if (!o->no_skiplist)
		(void)skiplist_load_default(&s->skip, &s->dl);
	/* Where --resume offers to add a culprit. */
	(void)paths_config("skiplist", s->userskip, sizeof(s->userskip));
	for (i = 0; i < o->nskips; i++) {
		if (skiplist_load(&s->skip, o->skips[i], &s->dl) < 0)
			return -1;
		/* For --resume, from wherever it is started. */
		abs = paths_absolute(o->skips[i]);
		run_config_add(&s->extra, "skip", abs);
		free(abs);
	}
	if (o->no_skiplist)
		run_config_add(&s->extra, "no_skiplist", "1");
	return s->dl.nerrors > 0 ? -1 : 0;
}

/*
 * The conflict groups: the shipped ones and the user's, and each
 * --conflicts file.  0, or -1 with s->dl.
 */
static int
run_conflicts(const struct run_opts *o, struct run_state *s)
{
	size_t i;

	(void)conflicts_load_default(&s->conf, &s->dl);
	for (i = 0; i < o->nconflicts; i++)
		(void)conflicts_load(&s->conf, o->conflicts[i], &s->dl);
	return s->dl.nerrors > 0 ? -1 : 0;
}

/*
 * A new run: the suite (a box's files read from it), the tests picked
 * from it and what their metadata says of them.  0, or -1 with s->dl
 * or said.
 */
static int
run_select(struct run_opts *o, struct run_state *s)
{
	struct suite_opts so;
	struct ltpselect sel;
	const char *const *localrt;
	const char *kcused;
	char key[SETTINGS_BOXNAME_MAX + 8];
	size_t nlocalrt, i;

	memset(&so, 0, sizeof(so));
	so.tables = o->tables;
	so.ntables = o->ntables;
	so.ltpdir = o->ltpdir;
	so.runtests = o->runtests;
	so.nruntests = o->nruntests;
	so.metadata = o->metadata;
	so.no_metadata = o->no_metadata;
	localrt = o->runtests;
	nlocalrt = o->nruntests;
	/* On a box, what is not given here is read from the box. */
	if (o->host != NULL && run_box_files(&s->box, &s->bf, &so, &s->rtall,
	    &localrt, &nlocalrt, o->dbpath, o->host, o->ssh_config,
	    o->kconfig, o->box_master, boxfiles_key(o->box, o->host, key,
	    sizeof(key)), &s->cachedir, &s->dl) != 0)
		return -1;
	s->suite_loaded = 1;
	if ((o->host == NULL && run_check_ltproot(paths_ltproot(o->ltpdir),
	    &s->dl) != 0) || suite_load(&s->suite, &so, &s->dl) != 0 ||
	    s->dl.nerrors > 0)
		return -1;
	run_config_sources(&s->extra, &s->bf, &s->suite, localrt, nlocalrt,
	    o->metadata, o->no_metadata);
	/* -s @NAME: the calls a program's profile says it makes. */
	if (cmd_profile_expand(o->dbpath, s->suite.cat, &o->sysv,
	    &o->nsys) != 0)
		return -1;
	memset(&sel, 0, sizeof(sel));
	sel.syscalls = o->sysv;
	sel.nsyscalls = o->nsys;
	sel.pattern = o->pattern;
	sel.tags = (const char *const *)o->tags;
	sel.ntags = (size_t)o->ntags;
	if (ltpindex_select(&s->suite.idx, &sel, &s->picked, &s->npicked,
	    &s->dl) < 0)
		return -1;
	if (s->npicked == 0) {
		fprintf(stderr, "ltpscope: no test selected\n");
		return -1;
	}
	s->tests = xcalloc(s->npicked, sizeof(*s->tests));
	s->reasons = xcalloc(s->npicked, sizeof(*s->reasons));
	for (i = 0; i < s->npicked; i++) {
		const struct ltptest *t = &s->suite.idx.tests[s->picked[i]];
		int j;

		s->tests[i].tag = t->tag;
		s->tests[i].syscall = suite_test_syscall(t);
		s->tests[i].cmdline = t->cmdline;
		for (j = 0; j < o->ntags; j++)
			s->tests[i].explicit |= strcmp(o->tags[j], t->tag) == 0;
	}
	kcused = run_kconfig(o->kconfig, s->os, s->kcpath, sizeof(s->kcpath),
	    s->kcwhat, sizeof(s->kcwhat));
	(void)run_apply_meta(s->tests, s->npicked, &s->suite, kcused, o->dev,
	    s->reasons);
	run_apply_conflicts(s);
	return 0;
}

/* A new run: what will not run said now, the order set. */
static void
run_fresh_start(const struct run_opts *o, struct run_state *s)
{
	int64_t newest;
	size_t i;

	(void)run_report_interrupted(s->st, &newest, NULL, 0, 0);
	/* Said before running, not after a confusing TBROK. */
	for (i = 0; i < s->npicked; i++)
		if (s->tests[i].notrun != NULL)
			printf("%s: %s\n", s->tests[i].tag,
			    s->tests[i].notrun);
	if (o->jobs > 1)
		engine_order(s->tests, s->npicked, s->st);
}

/*
 * The run itself, new or resumed, through to its summary or to what a
 * lost box leaves.  The exit status; 1 if it could not go on.
 */
static int
run_execute(struct run_opts *o, struct run_state *s)
{
	struct engine_opts eo;
	struct engine_events ev = {
		.test_start = ev_test_start,
		.skip_warning = ev_skip_warning,
		.line = ev_line,
		.test_end = ev_test_end,
		.worker_line = ev_wline,
	};
	struct sigaction sa, oldint, oldterm, oldhup;
	struct run_box rb;
	const char *kconfig = o->kconfig, *box_kconfig = NULL;
	int64_t run_id;
	size_t i;
	char *abs;
	int rv = 1;

	ev.arg = &s->ctx;
	memset(&eo, 0, sizeof(eo));
	eo.runner.ltproot = o->resume ? paths_ltproot(o->ltpdir) :
	    s->suite.root;
	if (o->host != NULL) {
		if (s->box == NULL && (s->box = run_open_box(o->host,
		    o->ssh_config, eo.runner.ltproot, kconfig,
		    &s->dl)) == NULL)
			return 1;
		eo.runner.remote = s->box;
		skiplist_set_box(&s->skip, remote_box(s->box));
		box_kconfig = kconfig;
		/* The box has its copy (remote_kconfig()); --resume resends. */
		if (!o->resume && kconfig != NULL && kconfig[0] != '\0') {
			abs = paths_absolute(kconfig);
			run_config_add(&s->extra, "box_kconfig", abs);
			free(abs);
		}
		if (!o->resume)
			run_config_box(&s->extra, o);
		kconfig = "";
	}
	eo.runner.kconfig = run_kconfig(kconfig, s->os, s->kcpath,
	    sizeof(s->kcpath), s->kcwhat, sizeof(s->kcwhat));
	eo.runner.timeout_mul = o->timeout_mul;
	eo.runner.ltp_dev = o->dev;
	eo.runner.reproducible = o->reproducible;
	eo.runner.use_pipe = o->use_pipe;
	eo.runner.timeout_ms = o->timeout_s == 0 ? -1 :
	    (int)(o->timeout_s * 1000);
	eo.runner.grace_ms = (int)o->grace_ms;
	eo.skip = &s->skip;
	eo.label = o->label;
	eo.timeout_s = (int)o->timeout_s;
	eo.jobs = (int)o->jobs;
	/* Judges warnings as the environment's; without it all count. */
	eo.rules = s->vrules = cli_verdict_rules();
	eo.reset_on_taint = o->reset_on_taint;
	/* What --resume replays, and where the run selected from. */
	eo.config_extra = s->extra.s;
	if (s->vrules != NULL)
		cli_rejudge(s->st, s->vrules);
	s->ctx.jobs = eo.jobs;
	/* Several boxes' progress lines would overwrite each other. */
	s->ctx.tty = s->ctx.prefix == NULL && isatty(STDERR_FILENO);
	if (o->resume)
		s->e = engine_resume(s->st, &eo, o->run_id, &ev, &s->dl);
	else
		s->e = engine_new(s->st, &eo, s->tests, s->npicked, &ev,
		    &s->dl);
	if (s->e == NULL)
		return 1;
	run_id = engine_run_id(s->e);
	s->ctx.e = s->e;
	if (engine_kmsg_missing(s->e) != NULL)
		fprintf(stderr, "ltpscope: note: no kernel messages with the "
		    "results: %s\n", engine_kmsg_missing(s->e));
	/* Marked now: a reference stopped halfway still tells its tests. */
	if (o->reference) {
		/* A box that is not Linux: nothing ran, nothing to resume. */
		if (linuxref_set(s->st, run_id, &s->dl) != STORE_OK) {
			(void)store_run_end(s->st, run_id, RUN_INTERRUPTED,
			    &s->dl);
			return 1;
		}
		printf("run %" PRId64 " is the Linux reference for its arch\n",
		    run_id);
	}
	memset(&rb, 0, sizeof(rb));
	rb.name = o->box;
	rb.host = o->host;
	rb.ssh_config = o->ssh_config;
	rb.reboot_cmd = o->reboot_cmd;
	rb.kconfig = box_kconfig;
	rb.wait_s = o->box_wait;
	rb.console = o->console;
	rb.skip_culprit = o->culprit_mode == 1;
	rb.userskip = s->userskip;
	rb.skip = &s->skip;
	rb.qs = s->qemu != NULL ? s : NULL;
	/* A crash left by an earlier ltpscope, the box now back. */
	if (s->box != NULL && o->resume)
		run_kernel_words(s->st, run_id, s->box, &rb);
	/* What the console logged before this run is not its crash. */
	rb.console_off = crashlog_console_end(o->console);
	if (o->console != NULL && o->host != NULL)
		s->ctx.watch = crashlog_watch_new(o->console, rb.console_off);
	if (o->resume)
		printf("resuming run %" PRId64 ": %zu test%s left%s\n",
		    run_id, engine_total(s->e), engine_total(s->e) == 1 ?
		    "" : "s", o->jobs > 1 ? ", side by side as it began" :
		    "");

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = run_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &oldint);
	sigaction(SIGTERM, &sa, &oldterm);
	sigaction(SIGHUP, &sa, &oldhup);
	if (run_loop(s->e, &s->ctx, &s->dl) != 0) {
		run_clear_progress(&s->ctx);
		fprintf(stderr, "ltpscope: the run stopped: results so far "
		    "are kept; resume with ltpscope run --resume\n");
	} else if (engine_box_lost(s->e) || engine_reset_due(s->e) != NULL) {
		run_clear_progress(&s->ctx);
		rv = run_box_lost(s->st, &s->e, &s->box, &eo, &ev, &s->ctx,
		    &rb, &s->dl);
	} else {
		const unsigned *k = engine_counts(s->e);

		run_summary(s->st, s->e, run_id);
		rv = run_was_interrupted() ? 1 : 0;
		for (i = 0; i < TS__COUNT; i++)
			if (k[i] > 0 && test_status_is_bad(i))
				rv = 1;
	}
	sigaction(SIGINT, &oldint, NULL);
	sigaction(SIGTERM, &oldterm, NULL);
	sigaction(SIGHUP, &oldhup, NULL);
	return rv;
}

/*
 * The command, in the order it goes: options, several boxes forked
 * apart, skip lists, a new run's selection (or only what it would do),
 * the store, a resumed run's settings, the run.
 */
static int
run_exec(struct cmd_args *a)
{
	struct run_opts o;
	struct run_state s;
	int rv;

	run_opts_init(&o);
	if ((rv = run_parse_options(a, &o)) >= 0 ||
	    (o.nhosts > 1 && (rv = run_fork_hosts(o.hosts, o.nhosts,
	    &o.host)) >= 0) ||
	    (o.nboxes > 1 && (rv = run_fork_hosts(o.boxes, o.nboxes,
	    &o.box)) >= 0)) {
		run_opts_free(&o);
		return rv;
	}
	run_state_init(&s);
	s.ctx.verbose = o.verbose;
	if (o.nhosts > 1)
		s.ctx.prefix = o.host;
	if (o.nboxes > 1)
		s.ctx.prefix = o.box;
	/* A named box fills in what is not given; a QEMU box starts. */
	if (!o.resume && o.box != NULL && (run_named_box(&o, &s) != 0 ||
	    (s.qemu != NULL && run_wait_up(&o, &s) != 0))) {
		rv = 1;
		goto out;
	}
	/* A box's forked run fails with 1, as a run of one box does. */
	rv = 1;
	/* Said before a long run, not after; a box says when it answers. */
	if (o.reference && !o.dry && !o.resume && o.host == NULL &&
	    strcmp(s.os, "Linux") != 0) {
		rv = cmd_error(a, "--reference: this is %s; a Linux "
		    "reference run is made on Linux (or imported from there)",
		    s.os[0] != '\0' ? s.os : "not Linux");
		goto out;
	}
	if (run_skiplists(&o, &s) != 0)
		goto out;
	if (!o.resume) {
		if (run_conflicts(&o, &s) != 0 || run_select(&o, &s) != 0)
			goto out;
		if (o.dry) {
			run_dry(&o, &s);
			rv = 0;
			goto out;
		}
	}
	if (store_open_db(&s.st, o.dbpath, STORE_CREATE | STORE_MKDIRS |
	    STORE_WRITE, NULL, &s.dl) != STORE_OK)
		goto out;
	if (o.resume) {
		if (run_resume_settings(&o, &s) != 0)
			goto out;
		run_resume_culprit(&o, &s);
	} else
		run_fresh_start(&o, &s);
	rv = run_execute(&o, &s);
out:
	run_state_free(&s);
	run_opts_free(&o);
	return rv;
}

static const struct cmd_option run_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "ltproot", .letter = 'L', .kind = CMD_STR },
	{ .name = "runtest", .letter = 'f', .kind = CMD_LIST },
	{ .name = "master", .letter = 'm', .kind = CMD_LIST },
	{ .name = "syscalls", .letter = 's', .kind = CMD_LIST },
	{ .name = "pattern", .letter = 'p', .kind = CMD_STR },
	{ .name = "timeout", .kind = CMD_NUM, .max = RUN_TIMEOUT_MAX },
	{ .name = "label", .kind = CMD_STR },
	{ .name = "skip", .kind = CMD_LIST },
	{ .name = "conflicts", .kind = CMD_LIST },
	{ .name = "resume", .kind = CMD_FLAG },
	{ .name = "skip-culprit", .kind = CMD_FLAG },
	{ .name = "no-skip-culprit", .kind = CMD_FLAG },
	{ .name = "pipe", .kind = CMD_FLAG },
	{ .name = "timeout-mul", .kind = CMD_STR },
	{ .name = "dev", .kind = CMD_STR },
	{ .name = "reproducible", .kind = CMD_FLAG },
	{ .name = "kconfig", .kind = CMD_STR },
	{ .name = "dry-run", .kind = CMD_FLAG },
	{ .name = "grace", .kind = CMD_NUM, .min = 1, .max = INT_MAX },
	{ .name = "verbose", .letter = 'v', .kind = CMD_FLAG },
	{ .name = "jobs", .letter = 'j', .kind = CMD_NUM, .min = 1,
	    .max = RUN_MAXJOBS },
	{ .name = "metadata", .kind = CMD_STR },
	{ .name = "no-metadata", .kind = CMD_FLAG },
	{ .name = "no-skiplist", .kind = CMD_FLAG },
	{ .name = "host", .kind = CMD_LIST },
	{ .name = "ssh-config", .kind = CMD_STR },
	{ .name = "reboot-cmd", .kind = CMD_STR },
	{ .name = "reset-on-taint", .kind = CMD_FLAG },
	{ .name = "box-wait", .kind = CMD_NUM, .max = LONG_MAX },
	{ .name = "console", .kind = CMD_STR },
	{ .name = "box-master", .kind = CMD_STR },
	{ .name = "reference", .kind = CMD_FLAG },
	{ .name = "box", .kind = CMD_LIST },
	{ .name = NULL }
};

const struct cmd_entry cmd_run_entry = {
	.name = "run",
	.exec = run_exec,
	.options = run_options,
	.args_max = CMD_ANY,
	.usage = "run [-v] [-j jobs] [-d db] [-L dir] [-f runtest]... "
	    "[-m table]... [-s syscall[,...]] [-p regex] [--timeout seconds] "
	    "[--grace ms] [--label text] [--skip file]... "
	    "[--conflicts file]... [--pipe] "
	    "[--timeout-mul x] [--dev device] [--reproducible] "
	    "[--kconfig file] [--metadata file | --no-metadata] "
	    "[--no-skiplist] [--host [user@]host[:port]]... "
	    "[--ssh-config file] [--box-master path] [--reboot-cmd command] "
	    "[--reset-on-taint] [--box-wait seconds] "
	    "[--console file] [--skip-culprit] [--reference] [--dry-run] "
	    "[--box name]... [tag ...]\n"
	    "run --resume [run] [-j jobs] [-d db] [--box name] "
	    "[--skip-culprit | --no-skip-culprit] "
	    "[--reboot-cmd command] [--reset-on-taint] [--box-wait seconds] "
	    "[--console file]",
	.summary = "run LTP tests safely, storing every result",
};
