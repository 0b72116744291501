/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Triage helpers: syscall names of results and rule suggestions for a
 * run's failures (see triage.h).  The first failing line is in
 * triage_first.c, below linuxref.c, which this file builds on.
 */
#include <stdlib.h>
#include <string.h>

#include "ltpscope/linuxref.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/triage.h"
#include "ltpscope/xmalloc.h"

char *
triage_result_syscall(const struct store_result *r)
{
	size_t n;

	if (r->syscall != NULL && r->syscall[0] != '\0')
		return xstrdup(r->syscall);
	n = strlen(r->tag);
	while (n > 0 && r->tag[n - 1] >= '0' && r->tag[n - 1] <= '9')
		n--;
	while (n > 0 && r->tag[n - 1] == '_')
		n--;
	return xstrndup(r->tag, n > 0 ? n : strlen(r->tag));
}

void
triage_suggestions_free(struct triage_suggestion *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].tag);
		free(v[i].syscall);
		free(v[i].category);
		free(v[i].rule_file);
		free(v[i].line);
		free(v[i].confirmed);
	}
	free(v);
}

int
triage_suggest_run(struct store *st, struct rules *rules, int64_t run_id,
    struct triage_suggestion **vp, size_t *np, struct diaglist *dl)
{
	struct triage_suggestion *v = NULL, *s;
	struct rules_suggestion sg;
	struct store_result *res;
	struct store_output o;
	struct triage_tag *tags;
	struct diaglist quiet;
	struct linuxref ref;
	struct store_run run;
	size_t nres, ntags, n = 0, i, j;
	char subject[64];
	int err;

	*vp = NULL;
	*np = 0;
	if ((err = store_get_run(st, run_id, &run, dl)) != STORE_OK)
		return err;
	err = linuxref_load(st, run.arch, run_id, &ref, dl);
	store_run_clear(&run);
	if (err != STORE_OK)
		return err;
	if ((err = store_run_results(st, run_id, &res, &nres, dl)) !=
	    STORE_OK) {
		linuxref_free(&ref);
		return err;
	}
	if ((err = store_tags_list(st, run_id, NULL, &tags, &ntags, dl)) !=
	    STORE_OK) {
		store_results_free(res, nres);
		linuxref_free(&ref);
		return err;
	}
	for (i = 0; i < nres; i++) {
		if (!test_status_is_bad(res[i].status))
			continue;
		if (n % 32 == 0)
			v = xreallocarray(v, n + 32, sizeof(*v));
		s = &v[n++];
		memset(s, 0, sizeof(*s));
		s->tag = xstrdup(res[i].tag);
		s->syscall = triage_result_syscall(&res[i]);
		s->status = res[i].status;
		s->result_id = res[i].id;
		/* A result stored without output is judged by name. */
		diag_init(&quiet);
		if (store_get_output(st, res[i].id, &o, &quiet) != STORE_OK)
			memset(&o, 0, sizeof(o));
		diag_free(&quiet);
		linuxref_subject(st, &ref, s->tag, o.data != NULL ? o.data :
		    "", o.stored_size, subject, sizeof(subject));
		if (rules_suggest_ref(rules, s->tag, s->syscall, subject,
		    o.data != NULL ? o.data : "", o.stored_size, &sg, dl)) {
			s->category = xstrdup(sg.rule->category);
			s->rule_file = xstrdup(sg.rule->file);
			s->rule_line = sg.rule->line;
			s->line = xstrdup(sg.line);
		}
		rules_suggestion_clear(&sg);
		store_output_clear(&o);
		/* Tags are sorted by test; the whole-test one sorts first. */
		for (j = 0; j < ntags; j++)
			if (strcmp(tags[j].tag, s->tag) == 0) {
				s->confirmed = xstrdup(tags[j].category);
				break;
			}
	}
	store_results_free(res, nres);
	store_tags_free(tags, ntags);
	linuxref_free(&ref);
	*vp = v;
	*np = n;
	return STORE_OK;
}
