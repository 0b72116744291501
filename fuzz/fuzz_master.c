/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: NetBSD syscalls.master files (catalogue_load_buffer),
 * then everything a loaded catalogue answers: the views, names,
 * counts, the cross-check and a diff against a second load.
 */
#include "ltpscope/catalogue.h"
#include "fuzz.h"

/* What every entry promises: strings never NULL. */
static void
fz_master_walk(struct catalogue *c)
{
	const struct cat_entry *e;
	struct cat_counts cc;
	const char **v;
	size_t i, n;

	for (i = 0; i < catalogue_count_all(c); i++) {
		e = catalogue_entry_all(c, i);
		FUZZ_CHECK(e->abi != NULL && e->name != NULL &&
		    e->own_name != NULL && e->type_name != NULL &&
		    e->modifiers != NULL && e->function != NULL &&
		    e->prototype != NULL && e->guard != NULL &&
		    e->alias != NULL && e->basename != NULL &&
		    e->comment != NULL && e->file != NULL);
		(void)cat_state_name(e->state);
		(void)cat_type_name(e->type);
	}
	for (i = 0; i < catalogue_count(c); i++) {
		e = catalogue_entry(c, i);
		FUZZ_CHECK(catalogue_find_number(c, e->abi, e->number) !=
		    NULL);
	}
	v = catalogue_abis(c, &n);
	for (i = 0; i < n; i++) {
		free(catalogue_names(c, v[i], &n));
		(void)catalogue_linux_abi(v[i]);
		n = 0;
	}
	free(v);
	free(catalogue_names(c, NULL, &n));
	catalogue_counts(c, NULL, &cc);
	free(catalogue_crosscheck(c, &n));
	free(catalogue_files(c, &n));
}

FUZZ_TARGET(master)
{
	struct catalogue *a, *b;
	struct diaglist dl;
	const struct cat_entry *hit[8];
	size_t n;

	(void)catalogue_detect((const char *)data, size);
	diag_init(&dl);
	a = catalogue_new();
	b = catalogue_new();
	(void)catalogue_load_buffer(a, "syscalls.master", NULL,
	    (const char *)data, size, &dl);
	(void)catalogue_load_buffer(b, "linux-i386-syscalls.master",
	    "linux-i386", (const char *)data, size, &dl);
	fz_master_walk(a);
	fz_master_walk(b);
	(void)catalogue_find_name(a, NULL, "open", hit, 8);
	free(catalogue_diff(a, b, &n));
	catalogue_free(a);
	catalogue_free(b);
	diag_free(&dl);
	return 0;
}
