/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The suite (see suite.h): catalogue, LTP index and testmap, loaded the
 * same way for every subcommand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/paths.h"
#include "ltpscope/suite.h"
#include "ltpscope/xmalloc.h"

void
suite_default_testmap(char *buf, size_t size)
{
	const char *env = getenv("LTPSCOPE_TESTMAP");

	if (env != NULL && *env != '\0')
		compat_strlcpy(buf, env, size);
	else
		paths_data("testmap", buf, size);
}

int
suite_load_names(struct catalogue *cat, struct diaglist *dl)
{
	char dir[1200];

	paths_data("syscalls", dir, sizeof(dir));
	return catalogue_load_names(cat, dir, dl);
}

static int
suite_cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every Linux name of every ABI loaded, sorted and distinct. */
static void
suite_collect_names(struct suite *s)
{
	const char **abis, **names;
	size_t nabis, nnames, i, j, k;

	abis = catalogue_abis(s->cat, &nabis);
	for (i = 0; i < nabis; i++) {
		names = catalogue_names(s->cat, abis[i], &nnames);
		s->names = xreallocarray(s->names, s->nnames + nnames + 1,
		    sizeof(*s->names));
		for (j = 0; j < nnames; j++)
			s->names[s->nnames++] = names[j];
		free(names);
	}
	free(abis);
	if (s->nnames == 0)
		return;
	qsort(s->names, s->nnames, sizeof(*s->names), suite_cmp_str);
	for (i = 1, k = 1; i < s->nnames; i++)
		if (strcmp(s->names[i], s->names[k - 1]) != 0)
			s->names[k++] = s->names[i];
	s->nnames = k;
}

int
suite_load(struct suite *s, const struct suite_opts *o, struct diaglist *dl)
{
	char buf[2048];
	const char *src;
	size_t i;
	char *path;
	int rv = 0;

	memset(s, 0, sizeof(*s));
	s->cat = catalogue_new();
	ltpindex_init(&s->idx);
	testmap_init(&s->tm);
	if (o->ntables == 0) {
		if ((src = paths_syscall_table(buf, sizeof(buf))) == NULL) {
			diag_error(dl, NULL, 0, "no syscall table found: give "
			    "one with -m or set LTPSCOPE_MASTER");
			return -1;
		}
		compat_strlcpy(s->tables_used, src, sizeof(s->tables_used));
		if (catalogue_load_file(s->cat, src, NULL, dl) < 0)
			return -1;
	}
	for (i = 0; i < o->ntables; i++) {
		if (i > 0)
			strncat(s->tables_used, ", ", sizeof(s->tables_used) -
			    strlen(s->tables_used) - 1);
		strncat(s->tables_used, o->tables[i], sizeof(s->tables_used) -
		    strlen(s->tables_used) - 1);
		if (catalogue_load_file(s->cat, o->tables[i], NULL, dl) < 0)
			rv = -1;
	}
	if (suite_load_names(s->cat, dl) < 0)
		rv = -1;
	suite_collect_names(s);
	if (o->no_index || rv != 0)
		return rv;

	s->root = paths_ltproot(o->ltpdir);
	if (o->nruntests == 0) {
		if (ltpindex_load_default(&s->idx, s->root, dl) < 0)
			rv = -1;
	}
	for (i = 0; i < o->nruntests; i++) {
		path = ltpindex_runtest_path(s->root, o->runtests[i]);
		if (ltpindex_load_file(&s->idx, path, dl) < 0)
			rv = -1;
		free(path);
	}
	if (o->testmap != NULL)
		compat_strlcpy(buf, o->testmap, sizeof(buf));
	else
		suite_default_testmap(buf, sizeof(buf));
	if (access(buf, R_OK) != 0)
		diag_add(dl, DIAG_WARNING, buf, 0, 0, "cannot read the "
		    "testmap; mapping tests by their names only");
	else
		(void)testmap_load_file(&s->tm, buf, dl);
	s->nunmapped = ltpindex_map(&s->idx, &s->tm, s->names, s->nnames);
	if (o->no_metadata)
		return rv;
	if (o->metadata != NULL)
		s->meta = ltpmeta_load_file(o->metadata, dl);
	else
		s->meta = ltpmeta_load_root(s->root, dl);
	if (s->meta == NULL)
		return o->metadata != NULL ? -1 : rv;
	ltpmeta_bind(s->meta, &s->idx);
	s->nmeta = s->meta->nalias;
	s->nmeta_mapped = suite_apply_groups(&s->idx, s->meta, s->names,
	    s->nnames);
	for (s->nunmapped = 0, i = 0; i < s->idx.ntests; i++)
		s->nunmapped += s->idx.tests[i].nsyscalls == 0;
	return rv;
}

static int
suite_has_name(const char *const *names, size_t n, const char *name)
{
	return bsearch(&name, names, n, sizeof(*names), suite_cmp_str) !=
	    NULL;
}

/* name joins what the testmap gave t, unless it is there already. */
static void
suite_add_call(struct ltptest *t, const char *name)
{
	size_t j;

	for (j = 0; j < t->nsyscalls; j++)
		if (strcmp(t->syscalls[j], name) == 0)
			return;
	t->syscalls = xreallocarray(t->syscalls, t->nsyscalls + 2,
	    sizeof(*t->syscalls));
	t->syscalls[t->nsyscalls++] = xstrdup(name);
	t->syscalls[t->nsyscalls] = NULL;
}

size_t
suite_apply_groups(struct ltpindex *idx, const struct ltpmeta *m,
    const char *const *names, size_t n)
{
	struct ltptest *t;
	const char *g, *cur;
	size_t i, j, glen, taken = 0;

	for (i = 0; i < idx->ntests; i++) {
		t = &idx->tests[i];
		if ((g = ltpmeta_group(m, t->tag)) == NULL ||
		    !suite_has_name(names, n, g))
			continue;
		/*
		 * The testmap knows what a group cannot say: getdents01
		 * tests getdents64 too.  Only the name rule's guess gives
		 * way to the group.
		 */
		if (t->mapline != 0) {
			suite_add_call(t, g);
			taken++;
			continue;
		}
		cur = t->nsyscalls > 0 ? t->syscalls[0] : "";
		glen = strlen(g);
		/* The name rule found a more specific call of the family. */
		if (strlen(cur) > glen && strncmp(cur, g, glen) == 0)
			continue;
		taken++;
		if (t->nsyscalls == 1 && strcmp(cur, g) == 0)
			continue;
		for (j = 0; j < t->nsyscalls; j++)
			free(t->syscalls[j]);
		free(t->syscalls);
		t->syscalls = xcalloc(2, sizeof(*t->syscalls));
		t->syscalls[0] = xstrdup(g);
		t->nsyscalls = 1;
	}
	return taken;
}

void
suite_free(struct suite *s)
{
	ltpmeta_free(s->meta);
	testmap_free(&s->tm);
	ltpindex_free(&s->idx);
	free(s->names);
	if (s->cat != NULL)
		catalogue_free(s->cat);
	memset(s, 0, sizeof(*s));
}

const char *
suite_test_syscall(const struct ltptest *t)
{
	return t->nsyscalls > 0 ? t->syscalls[0] : "";
}
