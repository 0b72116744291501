/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer on a QEMU box (ui --box NAME): QEMU started (or taken
 * over) and its ssh waited for before the explorer takes the terminal,
 * so that what QEMU says and the wait are plain lines on stderr, and a
 * ^C there ends the wait, not the program with QEMU left behind; and
 * the box reset on its monitor when it stops answering, unless it is
 * back by itself (panic=N), as run decides (cmd_run_box.c).  How the
 * explorer reaches any box (ui_box_opts()) is here too, below the runs
 * (ui_run.c) that reach it.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpscope/boxfiles.h"
#include "ltpscope/cli.h"
#include "ltpscope/crashlog.h"
#include "ltpscope/diag.h"
#include "ltpscope/paths.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/remote.h"
#include "ui_priv.h"

/* How long the explorer waits for a booting box without a box-wait. */
#define UI_QEMU_WAIT_S	600
/* How long a box whose kernel reboots by itself is given (s), as run. */
#define UI_QEMU_SELF_S	120
/* How long its console may take to say the kernel's fate (ms), as run. */
#define UI_QEMU_FATE_MS	3000

static volatile sig_atomic_t ui_qemu_interrupted;

static void
ui_qemu_sigint(int sig)
{
	(void)sig;
	ui_qemu_interrupted = 1;
}

static long long
ui_qemu_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Until the box's ssh answers (ui->box connected), box-wait at most;
 * 0, or -1 said.  The explorer then opens on the local files.
 */
static int
ui_qemu_wait(struct ui *ui, const char *ltproot)
{
	struct remote_opts ro;
	struct diaglist dl;
	struct sigaction sa, old;
	long long start = ui_qemu_now_ms(), deadline;
	long wait_s = ui->box_wait_s >= 0 ? ui->box_wait_s : UI_QEMU_WAIT_S;
	char why[400] = "";
	int tries = 0;

	deadline = start + wait_s * 1000LL;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ui_qemu_sigint;
	sigemptyset(&sa.sa_mask);
	ui_qemu_interrupted = 0;
	(void)sigaction(SIGINT, &sa, &old);
	ui_box_opts(ui, ltproot, &ro);
	ro.connect_timeout_s = 5;
	while (ui->box == NULL && !ui_qemu_interrupted) {
		diag_init(&dl);
		ui->box = remote_open(ui->host, &ro, &dl);
		tries++;
		if (ui->box == NULL && dl.n > 0)
			(void)diag_format(&dl.v[0], why, sizeof(why));
		diag_free(&dl);
		if (ui->box != NULL || ui_qemu_now_ms() >= deadline)
			break;
		if (tries == 1)
			fprintf(stderr, "ltpscope: box %s: waiting for ssh on "
			    "%s (at most %ld s; ^C: stop waiting)\n",
			    ui->boxname, ui->host, wait_s);
		(void)poll(NULL, 0, 2000);
	}
	(void)sigaction(SIGINT, &old, NULL);
	if (ui->box != NULL)
		return 0;
	fprintf(stderr, "ltpscope: box %s: %s did not answer %s (%d "
	    "tr%s; the last: %s)\n", ui->boxname, ui->host,
	    ui_qemu_interrupted ? "before ^C" : "in time", tries,
	    tries == 1 ? "y" : "ies", why);
	if (!ui_qemu_interrupted)
		cli_box_console(ui->qemu);
	return -1;
}

int
ui_qemu_up(struct ui *ui, const char *db, const char *ltproot)
{
	struct qemubox_conf qc;
	struct diaglist dl;
	char *dir, key[SETTINGS_BOXNAME_MAX + 8];
	int rv;

	snprintf(key, sizeof(key), "%s.qemu", ui->boxname);
	diag_init(&dl);
	if ((dir = boxfiles_cachedir(db, key, &dl)) == NULL) {
		diag_print(&dl, stderr, "ltpscope");
		diag_free(&dl);
		return -1;
	}
	memset(&qc, 0, sizeof(qc));
	qc.name = ui->boxname;
	qc.command = ui->boxqemu;
	qc.dir = dir;
	qc.snapshot = ui->boxsnapshot;
	rv = qemubox_up(&ui->qemu, &qc, &dl);
	diag_print(&dl, stderr, "ltpscope");
	diag_free(&dl);
	free(dir);
	if (rv != 0) {
		qemubox_close(ui->qemu);
		ui->qemu = NULL;
		return -1;
	}
	/* host, in a QEMU box, gives the user only. */
	snprintf(ui->qemu_user, sizeof(ui->qemu_user), "%s", ui->host);
	qemubox_host(ui->qemu, ui->qemu_user, ui->host, sizeof(ui->host));
	fprintf(stderr, "ltpscope: box %s: qemu %s, ssh on %s\n",
	    ui->boxname, qemubox_was_running(ui->qemu) ? "running already" :
	    "started", ui->host);
	/* A box that does not answer still shows its results. */
	(void)ui_qemu_wait(ui, ltproot);
	ui_qemu_mark(ui);
	return 0;
}

int
ui_qemu_reset(struct ui *ui, const char **what)
{
	struct diaglist dl;
	char msg[512];
	int rv;

	diag_init(&dl);
	rv = qemubox_reset(ui->qemu, what, &dl);
	if (rv == 0)
		qemubox_host(ui->qemu, ui->qemu_user, ui->host,
		    sizeof(ui->host));
	else if (dl.n > 0) {
		(void)diag_format(&dl.v[0], msg, sizeof(msg));
		ui_pane_meta(ui, "ltpscope: %s", msg);
	}
	diag_free(&dl);
	return rv;
}

void
ui_qemu_mark(struct ui *ui)
{
	if (ui->qemu != NULL)
		ui->qemu_con_off = crashlog_console_end(
		    qemubox_console(ui->qemu));
}

void
ui_qemu_lost(struct ui *ui)
{
	snprintf(ui->qemu_boot, sizeof(ui->qemu_boot), "%s", ui->box !=
	    NULL ? remote_box(ui->box)->boot_id : "");
}

static void
ui_qemu_reset_now(struct ui *ui)
{
	const char *what = "";

	ui->qemu_pending = 0;
	if (ui_qemu_reset(ui, &what) == 0)
		ui_pane_meta(ui, "ltpscope: reset %s: %s", ui->host, what);
}

void
ui_qemu_begin(struct ui *ui, int taint)
{
	ui->qemu_pending = 1;
	ui->qemu_self = 0;
	ui->qemu_lost_ms = ui_qemu_now_ms();
	if (taint)
		ui_qemu_reset_now(ui);
	else
		ui_qemu_tick(ui);
}

void
ui_qemu_tick(struct ui *ui)
{
	long long now = ui_qemu_now_ms();
	long self_s = UI_QEMU_SELF_S;
	int fate;

	if (ui->qemu == NULL || !ui->qemu_pending)
		return;
	fate = crashlog_console_fate(qemubox_console(ui->qemu),
	    ui->qemu_con_off);
	if (fate == CRASHLOG_REBOOTING) {
		if (ui->box_wait_s >= 0 && ui->box_wait_s < self_s)
			self_s = ui->box_wait_s;
		if (!ui->qemu_self)
			ui_pane_meta(ui, "ltpscope: the console of %s says "
			    "its kernel reboots by itself: waiting up to %ld s "
			    "for it before a reset", ui->host, self_s);
		ui->qemu_self = 1;
		if (now < ui->qemu_lost_ms + self_s * 1000)
			return;
	} else if (fate != CRASHLOG_STOPPED && (ui->wait_tries == 0 ||
	    (fate == CRASHLOG_UNKNOWN && now < ui->qemu_lost_ms +
	    UI_QEMU_FATE_MS)))
		return;
	ui_qemu_reset_now(ui);
}

/* Said as run says it (cmd_run_box.c): has it booted since the crash? */
static void
ui_qemu_say_boot(struct ui *ui, const char *boot)
{
	if (ui->qemu_boot[0] == '\0' || boot[0] == '\0')
		ui_pane_meta(ui, "ltpscope: %s answers again: not reset",
		    ui->host);
	else if (strcmp(boot, ui->qemu_boot) == 0)
		ui_pane_meta(ui, "ltpscope: %s answers and has not booted "
		    "since (the same boot id): not reset", ui->host);
	else
		ui_pane_meta(ui, "ltpscope: %s is back: it has booted since "
		    "the crash (a new boot id): not reset", ui->host);
}

void
ui_qemu_back(struct ui *ui)
{
	if (ui->qemu == NULL)
		return;
	if (ui->qemu_pending)
		ui_qemu_say_boot(ui, ui->box != NULL ?
		    remote_box(ui->box)->boot_id : "");
	ui->qemu_pending = 0;
	/* The crash's lines are behind: watch what comes after. */
	ui_qemu_mark(ui);
}

void
ui_box_opts(const struct ui *ui, const char *ltproot, struct remote_opts *ro)
{
	memset(ro, 0, sizeof(*ro));
	ro->config = ui->ssh_config[0] != '\0' ? ui->ssh_config : NULL;
	ro->ltproot = ltproot;
}
