/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope run: what a run records of how it began, as "key=value"
 * lines in its config, which --resume (cmd_run_resume.c) replays.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/paths.h"
#include "ltpscope/xmalloc.h"

#include "cmd_run_impl.h"

/* A value from a run's "key=value" config lines, or NULL. */
char *
run_config_value(const char *config, const char *key)
{
	size_t klen = strlen(key);
	const char *p, *nl;

	for (p = config; p != NULL && *p != '\0'; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			p += klen + 1;
			if ((nl ? (size_t)(nl - p) : strlen(p)) == 0)
				return NULL;
			return xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
		}
	}
	return NULL;
}

/* "key=value" added to the run's recorded config. */
void
run_config_add(struct sbuf_lines *b, const char *key, const char *val)
{
	size_t need = strlen(key) + strlen(val) + 3;

	if (b->len + need > b->cap) {
		while (b->len + need > b->cap)
			b->cap = b->cap ? b->cap * 2 : 512;
		b->s = xrealloc(b->s, b->cap);
	}
	b->len += (size_t)sprintf(b->s + b->len, "%s=%s\n", key, val);
}

/*
 * Where the catalogue, runtest files and metadata of a new run come
 * from, for its record: "box:PATH" for what was read from the box.
 */
void
run_config_sources(struct sbuf_lines *b, const struct boxfiles *bf,
    const struct suite *s, const char *const *runtests, size_t nruntests,
    const char *metadata, int no_metadata)
{
	char *v = NULL, *t;
	size_t i;

	if (bf->master_box != NULL)
		xasprintf(&v, "box:%s", bf->master_box);
	run_config_add(b, "catalogue", v != NULL ? v : s->tables_used);
	free(v);
	v = xstrdup("");
	for (i = 0; i < bf->nruntests; i++) {
		xasprintf(&t, "%s%sbox:%s", v, *v ? "," : "",
		    bf->runtests_box[i]);
		free(v);
		v = t;
	}
	for (i = 0; i < nruntests; i++) {
		xasprintf(&t, "%s%s%s", v, *v ? "," : "", runtests[i]);
		free(v);
		v = t;
	}
	if (*v == '\0' && bf->nruntests == 0) {
		free(v);
		xasprintf(&v, "%s/runtest/syscalls", s->root);
	}
	run_config_add(b, "runtests", v);
	free(v);
	if (no_metadata)
		run_config_add(b, "metadata", "none (--no-metadata)");
	else if (metadata != NULL)
		run_config_add(b, "metadata", metadata);
	else if (bf->metadata_box != NULL) {
		xasprintf(&v, "box:%s%s", bf->metadata_box,
		    bf->metadata != NULL ? "" : " (none there)");
		run_config_add(b, "metadata", v);
		free(v);
	} else {
		xasprintf(&v, "%s/metadata/ltp.json", s->root);
		run_config_add(b, "metadata", v);
		free(v);
	}
}

/*
 * How a run on a box goes on after a crash, for --resume: the console
 * log (absolute: a resume may start elsewhere), the reboot command,
 * the wait, and whether a tainted kernel is reset.  A value of several lines would break the record's
 * lines: it is said, and not kept.
 */
void
run_config_box(struct sbuf_lines *b, const struct run_opts *o)
{
	char num[32], *abs;

	if (o->console != NULL && strchr(o->console, '\n') == NULL) {
		abs = paths_absolute(o->console);
		run_config_add(b, "console", abs);
		free(abs);
	}
	if (o->reboot_cmd != NULL && strchr(o->reboot_cmd, '\n') == NULL)
		run_config_add(b, "reboot_cmd", o->reboot_cmd);
	else if (o->reboot_cmd != NULL)
		fprintf(stderr, "ltpscope: note: --reboot-cmd has several "
		    "lines: run --resume will not know it\n");
	if (o->box_wait >= 0) {
		snprintf(num, sizeof(num), "%ld", o->box_wait);
		run_config_add(b, "box_wait", num);
	}
	if (o->reset_on_taint)
		run_config_add(b, "reset_on_taint", "1");
}
