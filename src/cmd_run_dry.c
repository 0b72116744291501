/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope run --dry-run: what would run, in the order it would, how
 * (alone or side by side, in which conflict group) and what would not
 * run and why; on a box, where the selection came from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/xmalloc.h"

#include "cmd_run_impl.h"

/*
 * What would run, in the order it would, how (parallel or serial, and
 * why serial) and what would not run and why.
 */
static void
run_dry_list(const struct engine_test *tests, size_t n,
    const struct skiplist *skip, const struct ltpmeta *meta, int jobs)
{
	const struct engine_test *t;
	const char *why;
	char mode[64];
	size_t i;

	for (i = 0; i < n; i++) {
		t = &tests[i];
		why = skiplist_lookup(skip, t->tag);
		if (why != NULL && !t->explicit) {
			printf("%4zu  %-24s %-16s skip: %s\n", i + 1, t->tag,
			    t->syscall, why);
			continue;
		}
		if (t->notrun != NULL) {
			printf("%4zu  %-24s %-16s conf, not started: %s\n",
			    i + 1, t->tag, t->syscall, t->notrun);
			continue;
		}
		if (jobs <= 1)
			mode[0] = '\0';
		else if (t->parallel && t->conflicts != NULL)
			snprintf(mode, sizeof(mode), "parallel, apart (%s)  ",
			    t->conflicts);
		else if (t->parallel)
			snprintf(mode, sizeof(mode), "parallel  ");
		else {
			char r[48];

			(void)ltpmeta_parallel_safe(ltpmeta_test(meta,
			    t->tag), r, sizeof(r));
			snprintf(mode, sizeof(mode), "serial (%s)  ", r);
		}
		printf("%4zu  %-24s %-16s %s%s%s\n", i + 1, t->tag,
		    t->syscall, mode, t->cmdline, why != NULL ?
		    "  (on the skip list; named, so it runs)" : "");
	}
}

/* --dry-run on a box: where the selection came from. */
static void
run_dry_sources(const char *extra, const char *cachedir)
{
	static const char *const keys[] = { "catalogue", "runtests",
	    "metadata" };
	char *v;
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if ((v = run_config_value(extra, keys[i])) != NULL) {
			printf("%s: %s\n", keys[i], v);
			free(v);
		}
	if (cachedir != NULL)
		printf("the box's files are kept in %s\n", cachedir);
}

/*
 * --dry-run with -j: the conflict groups the selection falls in, each
 * with its members here and the reason they are kept apart.
 */
static void
run_dry_groups(const struct run_state *s)
{
	char what[2048], *seen = xstrdup(""), *tmp, *more;
	const char *g, *comma;
	size_t i, j, len;

	conflicts_describe(&s->conf, what, sizeof(what));
	printf("conflict groups: %s\n", what);
	for (i = 0; i < s->npicked; i++) {
		for (g = s->tests[i].conflicts; g != NULL && *g != '\0';
		    g = *comma ? comma + 1 : comma) {
			comma = g + strcspn(g, ",");
			len = (size_t)(comma - g);
			tmp = xstrndup(g, len);
			if (conflicts_share(tmp, seen)) {
				free(tmp);
				continue;
			}
			printf("  kept apart, %s:", tmp);
			for (j = i; j < s->npicked; j++)
				if (conflicts_share(tmp,
				    s->tests[j].conflicts))
					printf(" %s", s->tests[j].tag);
			printf(" (%s)\n", conflicts_reason(&s->conf, tmp));
			xasprintf(&more, "%s%s%s", seen, seen[0] != '\0' ?
			    "," : "", tmp);
			free(seen);
			free(tmp);
			seen = more;
		}
	}
	free(seen);
}

/* --dry-run: what run_select() picked, and how it would run. */
void
run_dry(const struct run_opts *o, struct run_state *s)
{
	struct store *hist = NULL;
	struct diaglist hdl;
	char skipwhat[2048];

	cli_diags(&s->dl);
	diag_free(&s->dl);
	diag_init(&s->dl);
	/* Durations of earlier runs order a parallel run. */
	diag_init(&hdl);
	if (o->jobs > 1)
		(void)store_open_db(&hist, o->dbpath,
		    STORE_READONLY | STORE_IF_EXISTS, NULL, &hdl);
	diag_free(&hdl);
	if (s->box != NULL)
		skiplist_set_box(&s->skip, remote_box(s->box));
	skiplist_describe(&s->skip, skipwhat, sizeof(skipwhat));
	if (s->box != NULL && remote_kconfig(s->box) != NULL)
		snprintf(s->kcwhat, sizeof(s->kcwhat), "%s (--kconfig), sent "
		    "to %s as %s", o->kconfig, o->host,
		    remote_kconfig(s->box));
	printf("kernel config: %s\nskip list: %s%s\n", s->kcwhat, skipwhat,
	    o->no_skiplist ? " (--no-skiplist)" : "");
	if (o->host != NULL)
		run_dry_sources(s->extra.s, s->cachedir);
	if (o->jobs > 1) {
		engine_order(s->tests, s->npicked, hist);
		printf("%ld jobs: tests marked parallel run side by side, "
		    "the others alone\n", o->jobs);
		run_dry_groups(s);
	}
	store_close(hist);
	run_dry_list(s->tests, s->npicked, &s->skip, s->suite.meta,
	    (int)o->jobs);
}
