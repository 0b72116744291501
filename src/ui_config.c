/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's configuration file (settings.h), read at start-up.
 */
#include <stdio.h>

#include "ltpscope/diag.h"
#include "ltpscope/paths.h"
#include "ltpscope/settings.h"
#include "ui_priv.h"

/*
 * $XDG_CONFIG_HOME/ltpscope/config (settings.h).  Options on the
 * command line win.  A bad line is said on the status line, not fatal.
 */
void
ui_config(struct ui *ui, const char **theme, int *timeout_s)
{
	static struct settings set;
	struct diaglist dl;
	char path[1100], msg[512];
	size_t i;

	if (paths_config("config", path, sizeof(path)) == NULL)
		return;
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
	if (set.has_linux_git_url)
		snprintf(ui->linux_git_url, sizeof(ui->linux_git_url), "%s",
		    set.linux_git_url);
	if (set.has_box_wait)
		ui->box_wait_s = set.box_wait;
}
