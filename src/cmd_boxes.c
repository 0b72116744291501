/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope boxes: the named boxes of the config file (settings.h), each
 * with its newest run (a run records the box it ran on), and with
 * --check whether it answers ssh now (a short deadline; a QEMU box is
 * asked only when its QEMU runs: boxes starts nothing).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/boxfiles.h"
#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/paths.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/remote.h"
#include "ltpscope/settings.h"
#include "ltpscope/slurp.h"
#include "ltpscope/store.h"
#include "ltpscope/xmalloc.h"

/* How long --check gives a box to answer (s). */
#define BOXES_CHECK_S	5

/* The newest run recorded with "box=NAME", or NULL. */
static const struct store_run *
boxes_newest(const struct store_run *v, size_t n, const char *name)
{
	char *want;
	size_t i;
	const struct store_run *r = NULL;

	xasprintf(&want, "\nbox=%s\n", name);
	for (i = 0; i < n && r == NULL; i++)
		if (v[i].config != NULL && (strncmp(v[i].config, want + 1,
		    strlen(want + 1)) == 0 || strstr(v[i].config, want) !=
		    NULL))
			r = &v[i];
	free(want);
	return r;
}

/* A QEMU box's forwarded port when its QEMU runs, else 0. */
static int
boxes_qemu_port(const char *db, const char *name)
{
	struct diaglist dl;
	char key[SETTINGS_BOXNAME_MAX + 8], *dir, *pf, *buf;
	size_t len;
	int port = 0;

	snprintf(key, sizeof(key), "%s.qemu", name);
	diag_init(&dl);
	dir = boxfiles_cachedir(db, key, &dl);
	diag_free(&dl);
	if (dir == NULL)
		return 0;
	xasprintf(&pf, "%s/port", dir);
	if (qemubox_running(dir) && slurp_file(pf, 64, &buf, &len) ==
	    SLURP_OK) {
		port = atoi(buf);
		free(buf);
	}
	free(pf);
	free(dir);
	return port;
}

/* --check: "answers", or why not, in buf. */
static void
boxes_check(const struct settings_box *b, const char *host, char *buf,
    size_t len)
{
	struct remote_opts ro;
	struct remote *rm;
	struct diaglist dl;

	memset(&ro, 0, sizeof(ro));
	ro.config = b->ssh_config[0] != '\0' ? b->ssh_config : NULL;
	ro.ltproot = b->ltproot[0] != '\0' ? b->ltproot : NULL;
	ro.connect_timeout_s = BOXES_CHECK_S;
	diag_init(&dl);
	if ((rm = remote_open(host, &ro, &dl)) != NULL) {
		snprintf(buf, len, "answers");
		remote_close(rm);
	} else {
		snprintf(buf, len, "no answer");
		if (dl.n > 0)
			(void)diag_format(&dl.v[0], buf, len);
	}
	diag_free(&dl);
}

static void
boxes_line(const struct settings_box *b, const struct store_run *r,
    const char *db, int check)
{
	char host[300], run[32], state[600] = "";
	const char *at;
	int port = 0;

	if (b->qemu[0] != '\0') {
		port = boxes_qemu_port(db, b->name);
		at = strchr(b->host, '@');
		if (port > 0)
			snprintf(host, sizeof(host), "%.*s%s127.0.0.1:%d",
			    (int)(at != NULL ? (size_t)(at - b->host) :
			    strlen(b->host)), b->host, b->host[0] != '\0' ?
			    "@" : "", port);
		else
			snprintf(host, sizeof(host), "(qemu)");
	} else
		snprintf(host, sizeof(host), "%s", b->host[0] != '\0' ?
		    b->host : "-");
	if (r != NULL)
		snprintf(run, sizeof(run), "%" PRId64, r->id);
	else
		snprintf(run, sizeof(run), "-");
	if (check && b->qemu[0] != '\0' && port == 0)
		snprintf(state, sizeof(state), "qemu not running (a run "
		    "starts it)");
	else if (check && (b->qemu[0] != '\0' || b->host[0] != '\0'))
		boxes_check(b, host, state, sizeof(state));
	/* cli_field() keeps two answers at a time. */
	printf("%-12s %-28s ", cli_field(b->name), cli_field(host));
	printf("%-8s %-8s %5s", cli_field(r != NULL && r->arch[0] != '\0' ?
	    r->arch : "-"), cli_field(r != NULL && r->os_name[0] != '\0' ?
	    r->os_name : "-"), run);
	printf("%s%s\n", check ? "  " : "", check ? cli_field(state) : "");
}

static int
boxes_exec(struct cmd_args *a)
{
	struct settings set;
	struct diaglist dl;
	struct store_run *v = NULL;
	struct store *st = NULL;
	char path[1100];
	size_t n = 0, i;
	int rv = 0, check = cmd_has(a, "check") > 0;

	settings_init(&set);
	if (paths_config("config", path, sizeof(path)) == NULL)
		return cmd_error(a, "neither XDG_CONFIG_HOME nor HOME is set: "
		    "no config file");
	diag_init(&dl);
	if (settings_load_file(&set, path, &dl) != 0)
		rv = 1;
	cli_diags(&dl);
	diag_free(&dl);
	if (set.nboxes == 0) {
		printf("no boxes in %s (a box is a \"box NAME\" block)\n",
		    path);
		settings_free(&set);
		return rv;
	}
	diag_init(&dl);
	/* No database yet: no runs, nothing to say. */
	if (store_open_db(&st, cmd_str(a, "db"), STORE_READONLY |
	    STORE_IF_EXISTS, NULL, &dl) != STORE_OK)
		rv = 1;
	if (st != NULL && store_list_runs(st, &v, &n, &dl) != STORE_OK)
		rv = 1;
	cli_diags(&dl);
	diag_free(&dl);
	printf("%-12s %-28s %-8s %-8s %5s%s\n", "BOX", "HOST", "ARCH", "OS",
	    "RUN", check ? "  ANSWERS" : "");
	for (i = 0; i < set.nboxes; i++)
		boxes_line(&set.boxes[i], boxes_newest(v, n, set.boxes[i].name),
		    cmd_str(a, "db"), check);
	if (v != NULL)
		store_runs_free(v, n);
	store_close(st);
	settings_free(&set);
	return rv;
}

static const struct cmd_option boxes_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "check", .kind = CMD_FLAG },
	{ .name = NULL }
};

const struct cmd_entry cmd_boxes_entry = {
	.name = "boxes",
	.exec = boxes_exec,
	.options = boxes_options,
	.usage = "boxes [-d db] [--check]",
	.summary = "list the named boxes of the config file and their "
	    "newest runs",
};
