/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer on a QEMU box (ui --box NAME): QEMU started (or taken
 * over) and its ssh waited for before the explorer takes the terminal,
 * so that what QEMU says and the wait are plain lines on stderr, and a
 * ^C there ends the wait, not the program with QEMU left behind; and
 * the box reset on its monitor when it stops answering.  How the
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
#include "ltpscope/diag.h"
#include "ltpscope/paths.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/remote.h"
#include "ui_priv.h"

/* How long the explorer waits for a booting box without a box-wait. */
#define UI_QEMU_WAIT_S	600

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
ui_box_opts(const struct ui *ui, const char *ltproot, struct remote_opts *ro)
{
	memset(ro, 0, sizeof(*ro));
	ro->config = ui->ssh_config[0] != '\0' ? ui->ssh_config : NULL;
	ro->ltproot = ltproot;
}
