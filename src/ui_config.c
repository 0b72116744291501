/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's configuration file (settings.h), read at start-up.
 */
#include <stdio.h>

#include "ltpscope/diag.h"
#include "ltpscope/paths.h"
#include "ltpscope/settings.h"
#include "ui_priv.h"

/* A box block over the top-level settings: what it gives wins. */
static void
ui_config_box(struct ui *ui, const struct settings_box *b)
{
	snprintf(ui->boxname, sizeof(ui->boxname), "%s", b->name);
	/* A QEMU box's host gives the user only: not the file's host. */
	if (b->host[0] != '\0' || b->qemu[0] != '\0')
		snprintf(ui->host, sizeof(ui->host), "%s", b->host);
	if (b->ssh_config[0] != '\0')
		snprintf(ui->ssh_config, sizeof(ui->ssh_config), "%s",
		    b->ssh_config);
	if (b->box_master[0] != '\0')
		snprintf(ui->box_master, sizeof(ui->box_master), "%s",
		    b->box_master);
	if (b->reboot_cmd[0] != '\0')
		snprintf(ui->reboot_cmd, sizeof(ui->reboot_cmd), "%s",
		    b->reboot_cmd);
	if (b->box_wait >= 0)
		ui->box_wait_s = b->box_wait;
	if (b->reset_on_taint >= 0)
		ui->reset_on_taint = b->reset_on_taint;
	snprintf(ui->boxltproot, sizeof(ui->boxltproot), "%s", b->ltproot);
	snprintf(ui->boxqemu, sizeof(ui->boxqemu), "%s", b->qemu);
	ui->boxsnapshot = b->qemu_snapshot;
}

/* No box of that name: said with the file's boxes. */
static int
ui_config_nobox(const struct settings *set, const char *path,
    const char *box)
{
	size_t i;

	fprintf(stderr, "ltpscope: %s: no box '%s'", path, box);
	for (i = 0; i < set->nboxes; i++)
		fprintf(stderr, "%s%s", i == 0 ? " (boxes: " : ", ",
		    set->boxes[i].name);
	fprintf(stderr, "%s\n", set->nboxes > 0 ? ")" : " (no box blocks "
	    "there)");
	return -1;
}

/*
 * $XDG_CONFIG_HOME/ltpscope/config (settings.h).  Options on the
 * command line win.  A bad line is said on the status line, not fatal.
 */
int
ui_config(struct ui *ui, const char **theme, int *timeout_s, const char *box)
{
	static struct settings set;
	const struct settings_box *b;
	struct diaglist dl;
	char path[1100], msg[512];
	size_t i;

	if (paths_config("config", path, sizeof(path)) == NULL) {
		if (box == NULL)
			return 0;
		fprintf(stderr, "ltpscope: --box: neither XDG_CONFIG_HOME "
		    "nor HOME is set: no config file\n");
		return -1;
	}
	settings_init(&set);
	diag_init(&dl);
	(void)settings_load_file(&set, path, &dl);
	for (i = 0; i < dl.n; i++) {
		diag_format(&dl.v[i], msg, sizeof(msg));
		ui_message(ui, 1, "%s", msg);
	}
	diag_free(&dl);
	if (set.has_theme)
		*theme = set.theme;
	if (set.has_timeout)
		*timeout_s = set.timeout;
	if (set.has_jobs)
		ui->jobs = set.jobs;
	if (set.has_host)
		snprintf(ui->host, sizeof(ui->host), "%s", set.host);
	if (set.has_ssh_config)
		snprintf(ui->ssh_config, sizeof(ui->ssh_config), "%s",
		    set.ssh_config);
	if (set.has_box_master)
		snprintf(ui->box_master, sizeof(ui->box_master), "%s",
		    set.box_master);
	if (set.has_reboot_cmd)
		snprintf(ui->reboot_cmd, sizeof(ui->reboot_cmd), "%s",
		    set.reboot_cmd);
	if (set.has_ltp_src)
		snprintf(ui->ltp_src, sizeof(ui->ltp_src), "%s", set.ltp_src);
	if (set.has_kernel_src)
		snprintf(ui->kernel_src, sizeof(ui->kernel_src), "%s",
		    set.kernel_src);
	if (set.has_linux_git_url)
		snprintf(ui->linux_git_url, sizeof(ui->linux_git_url), "%s",
		    set.linux_git_url);
	if (set.has_box_wait)
		ui->box_wait_s = set.box_wait;
	if (set.has_reset_on_taint)
		ui->reset_on_taint = set.reset_on_taint;
	if (box != NULL) {
		if ((b = settings_box(&set, box)) == NULL)
			return ui_config_nobox(&set, path, box);
		ui_config_box(ui, b);
	}
	/*
	 * As run --reset-on-taint: a box is reset by its command, a QEMU
	 * box on its monitor.
	 */
	if (ui->reset_on_taint && ui->reboot_cmd[0] == '\0' &&
	    ui->boxqemu[0] == '\0') {
		ui_message(ui, 1, "%s: reset-on-taint wants a reboot-cmd "
		    "line: left out", path);
		ui->reset_on_taint = 0;
	}
	return 0;
}
