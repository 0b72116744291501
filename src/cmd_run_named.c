/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope run --box NAME: a box block of the config file (settings.h)
 * fills in what the command line leaves out, and a QEMU box is started
 * (qemubox.h), its console, monitor and forwarded port standing in for
 * --console, --reboot-cmd and --host.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/boxfiles.h"
#include "ltpscope/paths.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/settings.h"
#include "ltpscope/xmalloc.h"

#include "cmd_run_impl.h"

/*
 * The config file read into *set; its path in *path (or "").  0, or
 * -1 with its errors said.
 */
int
run_load_config(struct settings *set, char *path, size_t len)
{
	struct diaglist dl;
	int rv;

	settings_init(set);
	if (paths_config("config", path, len) == NULL) {
		fprintf(stderr, "ltpscope: --box: neither XDG_CONFIG_HOME "
		    "nor HOME is set: no config file\n");
		return -1;
	}
	diag_init(&dl);
	rv = settings_load_file(set, path, &dl);
	diag_print(&dl, stderr, "ltpscope");
	diag_free(&dl);
	return rv == 0 ? 0 : -1;
}

/* The box of that name, or NULL said with the file's boxes. */
const struct settings_box *
run_find_box(const struct settings *set, const char *path, const char *name)
{
	const struct settings_box *b;
	size_t i;

	if ((b = settings_box(set, name)) != NULL)
		return b;
	fprintf(stderr, "ltpscope: %s: no box '%s'", path, name);
	for (i = 0; i < set->nboxes; i++)
		fprintf(stderr, "%s%s", i == 0 ? " (boxes: " : ", ",
		    set->boxes[i].name);
	fprintf(stderr, "%s\n", set->nboxes > 0 ? ")" : " (no box blocks "
	    "there)");
	return NULL;
}

static const char *
run_box_str(const char *v)
{
	return v[0] != '\0' ? v : NULL;
}

/* A QEMU box: started, or taken over; o->host and o->console set. */
static int
run_start_qemu(struct run_opts *o, struct run_state *s,
    const struct settings_box *b)
{
	struct qemubox_conf qc;
	struct diaglist dl;
	char *dir, key[SETTINGS_BOXNAME_MAX + 8];
	int rv;

	snprintf(key, sizeof(key), "%s.qemu", b->name);
	diag_init(&dl);
	if ((dir = boxfiles_cachedir(o->dbpath, key, &dl)) == NULL) {
		diag_print(&dl, stderr, "ltpscope");
		diag_free(&dl);
		return -1;
	}
	memset(&qc, 0, sizeof(qc));
	qc.name = b->name;
	qc.command = b->qemu;
	qc.dir = dir;
	qc.snapshot = b->qemu_snapshot;
	rv = qemubox_up(&s->qemu, &qc, &dl);
	diag_print(&dl, stderr, "ltpscope");
	diag_free(&dl);
	free(dir);
	if (rv != 0)
		return -1;
	/* host, in a QEMU box, gives the user only. */
	snprintf(s->qemu_user, sizeof(s->qemu_user), "%s", b->host);
	run_qemu_host(s);
	o->host = s->qemu_host;
	if (o->console == NULL)
		o->console = qemubox_console(s->qemu);
	fprintf(stderr, "ltpscope: box %s: qemu %s, ssh on %s\n", b->name,
	    qemubox_was_running(s->qemu) ? "running already" : "started",
	    s->qemu_host);
	return 0;
}

void
run_qemu_host(struct run_state *s)
{
	qemubox_host(s->qemu, s->qemu_user, s->qemu_host,
	    sizeof(s->qemu_host));
}

int
run_named_box(struct run_opts *o, struct run_state *s)
{
	const struct settings_box *b;
	char path[1100];

	if (o->box == NULL)
		return 0;
	if (run_load_config(&s->set, path, sizeof(path)) != 0 ||
	    (b = run_find_box(&s->set, path, o->box)) == NULL)
		return -1;
	/* The command line wins. */
	if (o->ssh_config == NULL)
		o->ssh_config = run_box_str(b->ssh_config);
	if (o->ltpdir == NULL)
		o->ltpdir = run_box_str(b->ltproot);
	if (o->box_master == NULL)
		o->box_master = run_box_str(b->box_master);
	if (o->kconfig == NULL)
		o->kconfig = run_box_str(b->kconfig);
	if (o->reboot_cmd == NULL)
		o->reboot_cmd = run_box_str(b->reboot_cmd);
	if (o->console == NULL)
		o->console = run_box_str(b->console);
	if (o->box_wait < 0 && b->box_wait >= 0)
		o->box_wait = b->box_wait;
	if (o->culprit_mode == -1 && b->skip_culprit >= 0)
		o->culprit_mode = b->skip_culprit;
	if (b->reset_on_taint == 1)
		o->reset_on_taint = 1;
	if (!o->resume)
		run_config_add(&s->extra, "box", b->name);
	if (b->qemu[0] != '\0' && o->host == NULL)
		return run_start_qemu(o, s, b);
	if (o->host == NULL && (o->host = run_box_str(b->host)) == NULL) {
		fprintf(stderr, "ltpscope: %s:%lu: box %s has neither host "
		    "nor qemu\n", path, b->line, b->name);
		return -1;
	}
	return 0;
}
