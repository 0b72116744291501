/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope ui (and ltpscope with no subcommand): the explorer's options,
 * its configuration file (ui_config.c), theme, data and results store,
 * opened before the terminal is taken; ui.c then runs the screen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/cmd.h"
#include "ltpscope/compat.h"
#include "ltpscope/diag.h"
#include "ltpscope/paths.h"
#include "ltpscope/remote.h"
#include "ltpscope/settings.h"
#include "ltpscope/verdict.h"
#include "ltpscope/xmalloc.h"
#include "ui_priv.h"

/* As the settings file (and run -j) take them. */
#define UI_MAXJOBS	SETTINGS_JOBS_MAX
#define UI_TIMEOUT_MAX	SETTINGS_TIMEOUT_MAX

/* Verdicts judged under other rules are judged under the current ones. */
static void
ui_rejudge(struct ui *ui)
{
	struct diaglist dl;

	ui_triage_load(ui);
	diag_init(&dl);
	if (verdict_rejudge(ui->store, ui->rules, NULL, &dl) != STORE_OK &&
	    dl.nerrors > 0)
		ui_message_diag(ui, &dl, UD_WHERE, NULL,
		    "verdicts not judged again");
	diag_free(&dl);
}

/*
 * ui --host: what is not given here is read from the box, as `run
 * --host` reads it (boxfiles_suite()), and the connection stays for the
 * first run.  A box that does not answer leaves the local files, said
 * on the status line: the explorer still shows the results.
 */
static void
ui_box_suite(struct ui *ui, struct suite_opts *so, const char *db)
{
	struct remote_opts ro;
	struct suite_opts bso = *so;
	struct diaglist dl;
	const char *const *localrt;
	size_t nlocalrt;
	char *cachedir = NULL, key[SETTINGS_BOXNAME_MAX + 8];

	diag_init(&dl);
	/* Before the suite is loaded: its root is the one it will have. */
	ui_box_opts(ui, paths_ltproot(so->ltpdir), &ro);
	if (ui->box == NULL)
		fprintf(stderr, "ltpscope: connecting to %s\n", ui->host);
	/* A QEMU box's is open already: it was waited for. */
	if ((ui->box == NULL && (ui->box = remote_open(ui->host, &ro,
	    &dl)) == NULL) ||
	    (cachedir = boxfiles_cachedir(db, boxfiles_key(ui->boxname,
	    ui->host, key, sizeof(key)), &dl)) == NULL ||
	    boxfiles_suite(&ui->boxfiles, ui->box, &bso, ui->box_master[0] !=
	    '\0' ? ui->box_master : NULL, cachedir, &ui->box_runtests,
	    &localrt, &nlocalrt, &dl) != 0) {
		ui_message_diag(ui, &dl, UD_WHERE, NULL, "%s: the box's files "
		    "not read; the local ones instead", ui->host);
		boxfiles_free(&ui->boxfiles);
		free(ui->box_runtests);
		ui->box_runtests = NULL;
	} else
		*so = bso;
	free(cachedir);
	diag_free(&dl);
}

static int
ui_open_data(struct ui *ui, int demo, const char *const *tables,
    size_t ntables, const char *ltpdir, const char *const *runtests,
    size_t nruntests, const char *db)
{
	struct suite_opts so;
	struct diaglist dl;
	char demotab[1200], path[1200], arch[64];
	const char *cfg, *home;
	const char *dt[2];
	char *dbdef = NULL;
	int rv = 0;

	diag_init(&dl);
	memset(&so, 0, sizeof(so));
	so.tables = tables;
	so.ntables = ntables;
	so.ltpdir = ltpdir;
	so.runtests = runtests;
	so.nruntests = nruntests;
	if (demo) {
		paths_data("demo/linux-amd64-syscalls.master", demotab, sizeof(demotab));
		/* Installed beside the data, or built in the source tree. */
		paths_data("demo-ltp", ui->ltproot, sizeof(ui->ltproot));
		if (access(ui->ltproot, R_OK) != 0)
			paths_data("../build/demo-ltp", ui->ltproot,
			    sizeof(ui->ltproot));
		dt[0] = demotab;
		dt[1] = paths_syscall_table(path, sizeof(path));
		so.tables = dt;
		so.ntables = dt[1] != NULL && strstr(dt[1], "unistd") ?
		    2 : 1;
		if (ltpdir == NULL)
			so.ltpdir = ui->ltproot;
	}
	if (ui->host[0] != '\0' && !demo)
		ui_box_suite(ui, &so, db);
	(void)suite_load(&ui->suite, &so, &dl);
	ui->have_suite = 1;
	/* The box's table by where it is there, not by its copy here. */
	if (ui->boxfiles.master_box != NULL)
		snprintf(ui->source, sizeof(ui->source), "%s:%s", ui->host,
		    ui->boxfiles.master_box);
	else
		snprintf(ui->source, sizeof(ui->source), "%s%s", demo ?
		    "demo: " : "", ui->suite.tables_used);
	if (dl.nerrors > 0)
		ui_message_diag(ui, &dl, UD_WHERE, NULL, "%zu problem%s "
		    "loading", dl.nerrors, dl.nerrors == 1 ? "" : "s");
	diag_free(&dl);

	diag_init(&dl);
	if (db == NULL && demo) {
		/* The demo keeps its history apart from real runs. */
		if ((cfg = getenv("XDG_DATA_HOME")) != NULL && cfg[0] == '/')
			snprintf(ui->dbpath, sizeof(ui->dbpath),
			    "%s/ltpscope/demo.db", cfg);
		else if ((home = getenv("HOME")) != NULL)
			snprintf(ui->dbpath, sizeof(ui->dbpath),
			    "%s/.local/share/ltpscope/demo.db", home);
		else
			snprintf(ui->dbpath, sizeof(ui->dbpath),
			    "build/demo.db");
	} else if (db == NULL) {
		if (store_default_path(&dbdef, &dl) == STORE_OK)
			snprintf(ui->dbpath, sizeof(ui->dbpath), "%s", dbdef);
		free(dbdef);
	} else
		snprintf(ui->dbpath, sizeof(ui->dbpath), "%s", db);
	if (ui->dbpath[0] == '\0' || store_open(&ui->store, ui->dbpath,
	    STORE_CREATE | STORE_MKDIRS, &dl) != STORE_OK) {
		char first[512] = "cannot open the results database";

		if (dl.n > 0)
			diag_format(&dl.v[0], first, sizeof(first));
		fprintf(stderr, "ltpscope: %s\n", first);
		rv = -1;
	}
	diag_free(&dl);
	if (rv == 0)
		setenv("LTPSCOPE_DB", ui->dbpath, 1);
	if (rv == 0)
		ui_rejudge(ui);

	diag_init(&dl);
	skiplist_init(&ui->skip);
	/*
	 * The bundled list names the systems its entries hold on.  The
	 * demo plays a NetBSD box (its tests hang as NetBSD's do), so
	 * it takes NetBSD's list and kernel config wherever it runs.
	 */
	if (demo && getenv("LTPSCOPE_OS") == NULL)
		snprintf(ui->os, sizeof(ui->os), "NetBSD");
	else
		(void)compat_os_name(ui->os, sizeof(ui->os));
	/*
	 * On a box, the box's system and arch (again at each run, see
	 * ui_run_opts()); one that has not answered yet: every entry.
	 */
	if (ui->host[0] == '\0') {
		skiplist_set_os(&ui->skip, ui->os);
		skiplist_set_arch(&ui->skip, compat_machine_arch(arch,
		    sizeof(arch)));
	} else if (ui->box != NULL)
		skiplist_set_box(&ui->skip, remote_box(ui->box));
	(void)skiplist_load_default(&ui->skip, &dl);
	diag_free(&dl);
	return rv;
}

static int
ui_exec(struct cmd_args *a)
{
	struct ui ui;
	struct diaglist dl;
	const char *themename = NULL, *db = cmd_str(a, "db");
	const char *ltpdir = cmd_str(a, "ltproot"), *box = cmd_str(a, "box");
	const char **tables, **runtests;
	char dirs[4096];
	size_t ntables, nruntests;
	int demo = cmd_has(a, "demo") > 0, rv, timeout_s = 300;

	memset(&ui, 0, sizeof(ui));
	ui.jobs = 1;
	ui.box_wait_s = -1;
	if (box != NULL && demo) {
		fprintf(stderr, "ltpscope: --demo plays a box of its own: "
		    "not with --box\n");
		return 1;
	}
	/* The settings file first, then its box: the command line wins. */
	if (ui_config(&ui, &themename, &timeout_s, box) != 0)
		return 1;
	if (ltpdir == NULL && ui.boxltproot[0] != '\0')
		ltpdir = ui.boxltproot;
	tables = cmd_list(a, "master", &ntables);
	runtests = cmd_list(a, "runtest", &nruntests);
	ui.jobs = (int)cmd_num(a, "jobs", ui.jobs);
	timeout_s = (int)cmd_num(a, "timeout", timeout_s);
	if (cmd_str(a, "theme") != NULL)
		themename = cmd_str(a, "theme");
	if (cmd_str(a, "host") != NULL)
		snprintf(ui.host, sizeof(ui.host), "%s", cmd_str(a, "host"));
	if (cmd_str(a, "ssh-config") != NULL)
		snprintf(ui.ssh_config, sizeof(ui.ssh_config), "%s",
		    cmd_str(a, "ssh-config"));
	if (cmd_str(a, "box-master") != NULL)
		snprintf(ui.box_master, sizeof(ui.box_master), "%s",
		    cmd_str(a, "box-master"));
	if (cmd_str(a, "ltp-src") != NULL)
		snprintf(ui.ltp_src, sizeof(ui.ltp_src), "%s",
		    cmd_str(a, "ltp-src"));
	if (cmd_str(a, "kernel-src") != NULL)
		snprintf(ui.kernel_src, sizeof(ui.kernel_src), "%s",
		    cmd_str(a, "kernel-src"));
	if (themename == NULL)
		themename = getenv("NO_COLOR") != NULL ? "mono" : "default";
	paths_themedirs(dirs, sizeof(dirs));
	diag_init(&dl);
	if (theme_load(&ui.theme, themename, dirs, &dl) != 0) {
		diag_print(&dl, stderr, "ltpscope");
		fprintf(stderr, "ltpscope: using the default theme\n");
		theme_default(&ui.theme);
		sleep(1);
	}
	diag_free(&dl);
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "ltpscope: the explorer needs a terminal; "
		    "see ltpscope help for the subcommands\n");
		return 1;
	}
	ui.argv0 = xstrdup(paths_program());
	ui.timeout_s = timeout_s;
	/* A QEMU box, unless --host sends the runs elsewhere. */
	if (ui.boxqemu[0] != '\0' && cmd_str(a, "host") == NULL &&
	    ui_qemu_up(&ui, db, paths_ltproot(ltpdir)) != 0) {
		free(ui.argv0);
		return 1;
	}
	if (ui_open_data(&ui, demo, tables, ntables, ltpdir,
	    runtests, nruntests, db) != 0) {
		suite_free(&ui.suite);
		skiplist_free(&ui.skip);
		boxfiles_free(&ui.boxfiles);
		free(ui.box_runtests);
		remote_close(ui.box);
		qemubox_close(ui.qemu);
		free(ui.argv0);
		return 1;
	}
	ui_load_catalogue(&ui.suite, ui.store, &ui.rows, &ui.nrows);
	ui.ring = linering_new(UI_RING_LINES, UI_RING_BYTES);
	ui.parser = ltpout_new();
	ui.follow = 1;

	if ((rv = ui_explore(&ui)) == UI_NO_TERMINAL) {
		ui_run_free(&ui);
		qemubox_close(ui.qemu);
		return 1;
	}
	ui_run_free(&ui);
	/* After the ssh master is gone: QEMU stops last. */
	qemubox_close(ui.qemu);
	ui_triage_free(&ui);
	ui_kfunc_free(&ui);
	ui_free_catalogue(ui.rows, ui.nrows);
	linering_free(ui.ring);
	ltpout_free(ui.parser);
	store_close(ui.store);
	suite_free(&ui.suite);
	skiplist_free(&ui.skip);
	boxfiles_free(&ui.boxfiles);
	free(ui.box_runtests);
	free(ui.argv0);
	return rv == 0 ? 0 : 1;
}

static const struct cmd_option ui_options[] = {
	{ .name = "demo", .kind = CMD_FLAG },
	{ .name = "master", .letter = 'm', .kind = CMD_LIST },
	{ .name = "theme", .kind = CMD_STR },
	{ .name = "timeout", .kind = CMD_NUM, .min = 0,
	    .max = UI_TIMEOUT_MAX },
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "ltproot", .letter = 'L', .kind = CMD_STR },
	{ .name = "runtest", .letter = 'f', .kind = CMD_LIST },
	{ .name = "jobs", .letter = 'j', .kind = CMD_NUM, .min = 1,
	    .max = UI_MAXJOBS },
	{ .name = "host", .kind = CMD_STR },
	{ .name = "ssh-config", .kind = CMD_STR },
	{ .name = "box-master", .kind = CMD_STR },
	{ .name = "box", .kind = CMD_STR },
	{ .name = "ltp-src", .kind = CMD_STR },
	{ .name = "kernel-src", .kind = CMD_STR },
	{ .name = NULL }
};

const struct cmd_entry cmd_ui_entry = {
	.name = "ui",
	.exec = ui_exec,
	.options = ui_options,
	.usage = "[ui] [--demo] [-m table]... [-L dir] [-f runtest]... "
	    "[-d db] [-j jobs] [--timeout seconds] [--theme name] "
	    "[--host [user@]host[:port]] [--ssh-config file] "
	    "[--box-master path] [--box name] [--ltp-src dir] "
	    "[--kernel-src dir]",
	.summary = "open the explorer (the default without a subcommand)",
};
