/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "ltpscope tests": list the LTP tests of an install, with the syscalls
 * each exercises and the command line that starts it, selected by
 * syscall (-s), pattern (-p) or tag.  With LTP's metadata, --doc adds
 * what each test checks and the Linux commits or CVEs it is about; the
 * JSON output always carries them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/boxfiles.h"
#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/json.h"
#include "ltpscope/listparse.h"
#include "ltpscope/ltpindex.h"
#include "ltpscope/ltpmeta.h"
#include "ltpscope/paths.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/remote.h"
#include "ltpscope/settings.h"
#include "ltpscope/suite.h"
#include "ltpscope/xmalloc.h"

struct strvec {
	char	**v;
	size_t	  n;
};

static void
strvec_add(struct strvec *sv, const char *s, size_t len)
{
	sv->v = xreallocarray(sv->v, sv->n + 2, sizeof(*sv->v));
	sv->v[sv->n++] = xstrndup(s, len);
	sv->v[sv->n] = NULL;
}

static void
strvec_free(struct strvec *sv)
{
	xfreev(sv->v);
	sv->v = NULL;
	sv->n = 0;
}

/* Bytes as they are but for quotes and controls, as --format json
   always wrote them. */
static void
json_str(const char *s)
{
	json_write_str(stdout, s, strlen(s), JSON_W_BYTES);
}

static void
json_strv(char *const *v, size_t n)
{
	size_t i;

	putchar('[');
	for (i = 0; i < n; i++) {
		if (i > 0)
			printf(", ");
		json_str(v[i]);
	}
	putchar(']');
}

/* What the metadata says of a test, as JSON members after "line". */
static void
print_json_meta(const struct ltpmeta *meta, const char *tag)
{
	const struct ltpmeta_test *m = ltpmeta_test(meta, tag);
	char buf[1024];
	size_t i;

	if (m == NULL) {
		printf(", \"metadata\": null");
		return;
	}
	printf(", \"metadata\": ");
	json_str(m->name);
	printf(", \"group\": ");
	if (m->groups.n > 0)
		json_str(m->groups.v[0]);
	else
		printf("null");
	printf(", \"doc\": ");
	json_strv(m->doc.v, m->doc.n);
	printf(", \"tags\": [");
	for (i = 0; i < m->ntags; i++) {
		printf("%s{\"kind\": ", i > 0 ? ", " : "");
		json_str(m->tags[i].kind);
		printf(", \"value\": ");
		json_str(m->tags[i].value);
		printf(", \"url\": ");
		if (ltpmeta_tag_url(&m->tags[i], buf, sizeof(buf)) == 0)
			json_str(buf);
		else
			printf("null");
		putchar('}');
	}
	printf("], \"requires\": ");
	ltpmeta_requirements(m, buf, sizeof(buf));
	json_str(buf);
	printf(", \"parallel\": %s", ltpmeta_parallel_safe(m, NULL, 0) ?
	    "true" : "false");
}

static void
print_json(const struct ltpindex *idx, const size_t *sel, size_t n,
    const struct ltpmeta *meta)
{
	const struct ltptest *t;
	size_t i, argc;

	printf("[\n");
	for (i = 0; i < n; i++) {
		t = &idx->tests[sel[i]];
		printf("  {\"tag\": ");
		json_str(t->tag);
		printf(", \"syscalls\": ");
		json_strv(t->syscalls, t->nsyscalls);
		printf(", \"command\": ");
		json_str(t->cmdline);
		printf(", \"argv\": ");
		if (t->argv != NULL) {
			for (argc = 0; t->argv[argc] != NULL; argc++)
				continue;
			json_strv(t->argv, argc);
		} else
			printf("null");
		printf(", \"shell\": %s, \"file\": ",
		    t->needs_shell ? "true" : "false");
		json_str(t->file);
		printf(", \"line\": %lu", t->line);
		if (meta != NULL)
			print_json_meta(meta, t->tag);
		printf("}%s\n", i + 1 < n ? "," : "");
	}
	printf("]\n");
}

/* Metadata text, printable bytes only: it must not drive the terminal. */
static void
print_safe(const char *s)
{
	for (; *s != '\0'; s++)
		putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

/* --doc: the doc lines, requirements and tags, indented under a test. */
static void
print_doc(const struct ltpmeta *meta, const char *tag)
{
	const struct ltpmeta_test *m = ltpmeta_test(meta, tag);
	char buf[1024];
	size_t i;

	if (m == NULL) {
		printf("    (no metadata)\n");
		return;
	}
	for (i = 0; i < m->doc.n; i++) {
		if (m->doc.v[i][0] != '\0')
			printf("    ");
		print_safe(m->doc.v[i]);
		putchar('\n');
	}
	ltpmeta_requirements(m, buf, sizeof(buf));
	if (buf[0] != '\0') {
		printf("    requires: ");
		print_safe(buf);
		putchar('\n');
	}
	for (i = 0; i < m->ntags; i++) {
		printf("    ");
		print_safe(m->tags[i].kind);
		putchar(' ');
		print_safe(m->tags[i].value);
		if (ltpmeta_tag_url(&m->tags[i], buf, sizeof(buf)) == 0)
			printf("  %s", buf);
		putchar('\n');
	}
}

/* TAG, syscalls, and what will be run: a shell line is shown as such. */
static void
print_text(const struct ltpindex *idx, const size_t *sel, size_t n,
    const struct ltpmeta *doc)
{
	const struct ltptest *t;
	const char *p;
	size_t i, j;

	for (i = 0; i < n; i++) {
		t = &idx->tests[sel[i]];
		printf("%s\t", t->tag);
		for (j = 0; j < t->nsyscalls; j++)
			printf("%s%s", j > 0 ? "," : "", t->syscalls[j]);
		printf("%s\t", t->nsyscalls == 0 ? "-" : "");
		if (!t->needs_shell)
			printf("%s\n", t->cmdline);
		else {
			printf("sh -c '");
			for (p = t->cmdline; *p != '\0'; p++)
				if (*p == '\'')
					printf("'\\''");
				else
					putchar(*p);
			printf("'\n");
		}
		if (doc != NULL)
			print_doc(doc, t->tag);
	}
}

/* What tests --box holds until the listing is printed. */
struct tests_box {
	struct settings	 set;
	struct qemubox	*qemu;
	struct remote	*rm;
	struct boxfiles	 bf;
	const char	**rtall;
	char		 host[300];
};

/*
 * The host of box b in t->host: its own, or a QEMU box's forwarded
 * port when its QEMU runs (tests starts none).  0, or -1 in dl.
 */
static int
tests_box_host(struct tests_box *t, const struct settings_box *b,
    struct diaglist *dl)
{
	struct qemubox_conf qc;
	char key[SETTINGS_BOXNAME_MAX + 8], *dir;
	int rv;

	if (b->qemu[0] == '\0') {
		if (b->host[0] == '\0') {
			diag_error(dl, t->set.path, b->line, "box %s has "
			    "neither host nor qemu", b->name);
			return -1;
		}
		snprintf(t->host, sizeof(t->host), "%s", b->host);
		return 0;
	}
	snprintf(key, sizeof(key), "%s.qemu", b->name);
	if ((dir = boxfiles_cachedir(NULL, key, dl)) == NULL)
		return -1;
	if (!qemubox_running(dir)) {
		diag_error(dl, t->set.path, b->line, "box %s: its QEMU is not "
		    "running (run --box or ui --box starts it)", b->name);
		free(dir);
		return -1;
	}
	memset(&qc, 0, sizeof(qc));
	qc.name = b->name;
	qc.command = b->qemu;
	qc.dir = dir;
	qc.snapshot = b->qemu_snapshot;
	/* Running: taken over, and left running by qemubox_close(). */
	rv = qemubox_up(&t->qemu, &qc, dl);
	free(dir);
	if (rv == 0)
		qemubox_host(t->qemu, b->host, t->host, sizeof(t->host));
	return rv;
}

/*
 * tests --box NAME: the box's block, and what so does not name read
 * from the box (boxfiles_suite()), as run --box reads it.  0, or -1
 * in dl.
 */
static int
tests_box(struct tests_box *t, const char *name, struct suite_opts *so,
    struct diaglist *dl)
{
	const struct settings_box *b;
	struct remote_opts ro;
	const char *const *localrt;
	size_t nlocalrt, i;
	char path[1100], *cachedir, key[SETTINGS_BOXNAME_MAX + 8];
	int rv;

	settings_init(&t->set);
	if (paths_config("config", path, sizeof(path)) == NULL) {
		diag_error(dl, "--box", 0, "neither XDG_CONFIG_HOME nor HOME "
		    "is set: no config file");
		return -1;
	}
	if (settings_load_file(&t->set, path, dl) != 0)
		return -1;
	if ((b = settings_box(&t->set, name)) == NULL) {
		diag_error(dl, path, 0, "no box '%s'%s", name,
		    t->set.nboxes > 0 ? " (see ltpscope boxes)" :
		    " (no box blocks there)");
		return -1;
	}
	for (i = 0; i < dl->n; i++)
		if (dl->v[i].level == DIAG_ERROR)
			return -1;
	if (tests_box_host(t, b, dl) != 0)
		return -1;
	if (so->ltpdir == NULL && b->ltproot[0] != '\0')
		so->ltpdir = b->ltproot;
	memset(&ro, 0, sizeof(ro));
	ro.config = b->ssh_config[0] != '\0' ? b->ssh_config : NULL;
	ro.ltproot = paths_ltproot(so->ltpdir);
	if ((t->rm = remote_open(t->host, &ro, dl)) == NULL ||
	    (cachedir = boxfiles_cachedir(NULL, boxfiles_key(b->name,
	    t->host, key, sizeof(key)), dl)) == NULL)
		return -1;
	rv = boxfiles_suite(&t->bf, t->rm, so, b->box_master[0] != '\0' ?
	    b->box_master : NULL, cachedir, &t->rtall, &localrt, &nlocalrt,
	    dl);
	free(cachedir);
	return rv;
}

static void
tests_box_free(struct tests_box *t)
{
	boxfiles_free(&t->bf);
	free(t->rtall);
	remote_close(t->rm);
	qemubox_close(t->qemu);
	settings_free(&t->set);
}

static int
tests_exec(struct cmd_args *a)
{
	struct strvec sysv = { NULL, 0 };
	struct ltpselect sel;
	struct suite_opts so;
	struct suite suite;
	struct tests_box box;
	struct diaglist dl;
	const char **lists;
	char **items;
	size_t *picked = NULL, npicked = 0, i, j, n, first;
	int json = cmd_json(a), rv = 0;

	memset(&sel, 0, sizeof(sel));
	lists = cmd_list(a, "syscalls", &n);
	for (j = 0; j < n; j++) {
		items = listparse_split(lists[j], NULL);
		for (i = 0; items[i] != NULL; i++)
			strvec_add(&sysv, items[i], strlen(items[i]));
		xfreev(items);
	}
	sel.pattern = cmd_str(a, "pattern");
	sel.unmapped_only = cmd_has(a, "unmapped") > 0;
	sel.syscalls = (const char *const *)sysv.v;
	sel.nsyscalls = sysv.n;
	sel.tags = (const char *const *)a->argv;
	sel.ntags = (size_t)a->argc;

	diag_init(&dl);
	memset(&so, 0, sizeof(so));
	so.tables = cmd_list(a, "master", &so.ntables);
	so.ltpdir = cmd_str(a, "ltproot");
	so.runtests = cmd_list(a, "runtest", &so.nruntests);
	so.metadata = cmd_str(a, "metadata");
	so.no_metadata = cmd_has(a, "no-metadata") > 0;
	memset(&box, 0, sizeof(box));
	if (cmd_str(a, "box") != NULL && tests_box(&box, cmd_str(a, "box"),
	    &so, &dl) != 0) {
		cli_diags(&dl);
		tests_box_free(&box);
		diag_free(&dl);
		strvec_free(&sysv);
		return 1;
	}
	if (suite_load(&suite, &so, &dl) != 0 || dl.nerrors > 0)
		rv = 1;
	first = dl.n;
	if (ltpindex_select(&suite.idx, &sel, &picked, &npicked, &dl) < 0) {
		/* A pattern that does not compile is a usage error. */
		rv = 1;
		for (i = first; i < dl.n; i++)
			if (dl.v[i].file != NULL &&
			    strcmp(dl.v[i].file, "-p") == 0 &&
			    dl.v[i].level == DIAG_ERROR)
				rv = 2;
	}
	cli_diags(&dl);
	if (picked != NULL) {
		if (json)
			print_json(&suite.idx, picked, npicked, suite.meta);
		else
			print_text(&suite.idx, picked, npicked,
			    cmd_has(a, "doc") ? suite.meta : NULL);
	}
	free(picked);
	suite_free(&suite);
	tests_box_free(&box);
	diag_free(&dl);
	strvec_free(&sysv);
	return rv;
}

static const struct cmd_option tests_options[] = {
	{ .name = "ltproot", .letter = 'L', .kind = CMD_STR },
	{ .name = "runtest", .letter = 'f', .kind = CMD_LIST },
	{ .name = "master", .letter = 'm', .kind = CMD_LIST },
	{ .name = "syscalls", .letter = 's', .kind = CMD_LIST },
	{ .name = "pattern", .letter = 'p', .kind = CMD_STR },
	{ .name = "unmapped", .kind = CMD_FLAG },
	{ .name = "doc", .kind = CMD_FLAG },
	{ .name = "metadata", .kind = CMD_STR },
	{ .name = "no-metadata", .kind = CMD_FLAG },
	{ .name = "box", .kind = CMD_STR },
	{ .name = NULL }
};

const struct cmd_entry cmd_tests_entry = {
	.name = "tests",
	.exec = tests_exec,
	.options = tests_options,
	.formats = "text|json",
	.args_max = CMD_ANY,
	.usage = "tests [-L dir] [-f runtest]... [-m table]... "
	    "[-s syscall[,...]] [-p regex] [--unmapped] [--doc] "
	    "[--format text|json] [--metadata file | --no-metadata] "
	    "[--box name] [tag ...]",
	.summary = "list LTP tests with the syscalls they exercise",
};
