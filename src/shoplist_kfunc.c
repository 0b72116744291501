/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel function behind each call of the shopping list: its name
 * from the catalogue (the compat_linux table of the run's arch), its
 * file and line from the kernel function index, and the link a
 * source-url template makes of them.
 */
#include <stdio.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/kindex.h"
#include "ltpscope/linuxref.h"
#include "ltpscope/shoplist.h"
#include "ltpscope/xmalloc.h"

static const char *
kf_function(struct catalogue *cat, const char *arch, const char *name)
{
	const struct cat_entry *e[4];
	char abi[64];

	if (cat == NULL)
		return "";
	(void)snprintf(abi, sizeof(abi), "linux-%s", linuxref_arch(arch));
	if (arch[0] != '\0' && catalogue_find_name(cat, abi, name, e, 4) > 0)
		return e[0]->function;
	if (catalogue_find_name(cat, NULL, name, e, 4) > 0)
		return e[0]->function;
	return "";
}

/*
 * The first definition of name, checked against its file when the
 * index came from the cache; a walk's errors leave it not found.
 */
static const struct kindex_def *
kf_lookup(struct kindex *ki, const char *name)
{
	const struct kindex_def *d;

	return kindex_lookup(ki, name, &d, NULL) > 0 ? d : NULL;
}

void
shoplist_kfuncs(struct shoplist *l, const struct shop_opts *o)
{
	const struct kindex_def *d;
	struct shop_syscall *sc;
	size_t i;

	l->kindexed = o->kidx != NULL;
	if (o->source_url != NULL && o->source_url[0] != '\0')
		l->source_url = xstrdup(o->source_url);
	for (i = 0; i < l->n; i++) {
		sc = &l->v[i];
		sc->function = xstrdup(kf_function(o->cat, l->run.arch != NULL ?
		    l->run.arch : "", sc->name));
		d = o->kidx != NULL && sc->function[0] != '\0' ?
		    kf_lookup(o->kidx, sc->function) : NULL;
		sc->func_file = xstrdup(d != NULL ? d->file : "");
		sc->func_line = d != NULL ? d->line : 0;
	}
}

int
shoplist_func_url(const struct shoplist *l, const struct shop_syscall *sc,
    char *buf, size_t size)
{
	const char *p;
	size_t n = 0;
	int k;

	if (l->source_url == NULL || sc->func_file == NULL ||
	    sc->func_file[0] == '\0' || size == 0)
		return 0;
	for (p = l->source_url; *p != '\0' && n + 1 < size; p++) {
		if (*p == '%' && p[1] == 'f')
			k = snprintf(buf + n, size - n, "%s", sc->func_file);
		else if (*p == '%' && p[1] == 'l')
			k = snprintf(buf + n, size - n, "%lu", sc->func_line);
		else if (*p == '%' && p[1] == '%')
			k = snprintf(buf + n, size - n, "%%");
		else {
			buf[n++] = *p;
			continue;
		}
		p++;
		if (k < 0 || (size_t)k >= size - n)
			return 0;
		n += (size_t)k;
	}
	buf[n] = '\0';
	return *p == '\0';
}
