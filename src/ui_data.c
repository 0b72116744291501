/*
 * Turning the core's catalogue into the rows the explorer draws.  The
 * rows own copies of their strings, so the catalogue can be freed as
 * soon as they are built.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/diag.h"
#include "ltpscope/ui.h"
#include "ltpscope/xmalloc.h"

static const struct {
	const char	*tag;
	enum theme_elem	 elem;
	int		 rank;
} ui_states[CS__COUNT] = {
	[CS_NATIVE] = { "native", TE_IMPLEMENTED, 0 },
	[CS_COMPAT] = { "compat", TE_COMPAT, 1 },
	[CS_UNIMPL] = { "unimpl", TE_UNIMPLEMENTED, 2 },
	[CS_ABSENT] = { "absent", TE_ABSENT, 3 },
	[CS_OBSOLETE] = { "obsol", TE_OBSOLETE, 4 },
	[CS_LINUX] = { "linux", TE_NORMAL, 5 },
};

/* Linux's own table for this machine, to name the demo's slots. */
static const char *
ui_system_unistd(void)
{
	static const char *const cands[] = {
		"/usr/include/x86_64-linux-gnu/asm/unistd_64.h",
		"/usr/include/asm/unistd_64.h",
		NULL
	};
	size_t i;

	for (i = 0; cands[i] != NULL; i++)
		if (access(cands[i], R_OK) == 0)
			return cands[i];
	return NULL;
}

int
ui_load_catalogue(const char *const *files, size_t nfiles, int demo,
    struct ui_sysrow **rowsp, size_t *np, char *err, size_t errlen)
{
	struct catalogue *cat;
	struct diaglist dl;
	struct ui_sysrow *rows;
	const struct cat_entry *e;
	const char *sys;
	size_t i, n, nrows = 0, nnetbsd = 0;

	err[0] = '\0';
	cat = catalogue_new();
	diag_init(&dl);
	for (i = 0; i < nfiles; i++)
		if (catalogue_load_file(cat, files[i], demo ? "linux-amd64" :
		    NULL, &dl) < 0) {
			if (dl.n > 0)
				diag_format(&dl.v[dl.n - 1], err, errlen);
			else
				snprintf(err, errlen, "%s: cannot load",
				    files[i]);
			diag_free(&dl);
			catalogue_free(cat);
			return -1;
		}
	if (demo && (sys = ui_system_unistd()) != NULL)
		(void)catalogue_load_file(cat, sys, NULL, &dl);
	if (dl.nerrors > 0) {
		char first[512];

		diag_format(&dl.v[0], first, sizeof(first));
		snprintf(err, errlen, "%zu problem%s loading the tables; "
		    "first: %s", dl.nerrors, dl.nerrors == 1 ? "" : "s",
		    first);
	}
	diag_free(&dl);

	n = catalogue_count(cat);
	for (i = 0; i < n; i++)
		if (catalogue_entry(cat, i)->state != CS_LINUX)
			nnetbsd++;
	rows = xcalloc(n ? n : 1, sizeof(*rows));
	for (i = 0; i < n; i++) {
		struct ui_sysrow *r;

		e = catalogue_entry(cat, i);
		/* Linux's rows only matter when nothing else is loaded. */
		if (e->state == CS_LINUX && nnetbsd > 0)
			continue;
		r = &rows[nrows++];
		r->abi = xstrdup(e->abi);
		r->number = e->number;
		r->name = xstrdup(e->name[0] ? e->name : e->own_name);
		r->type = xstrdup(e->type_name[0] ? e->type_name : "-");
		r->state = xstrdup(ui_states[e->state].tag);
		r->elem = ui_states[e->state].elem;
		r->state_rank = ui_states[e->state].rank;
		r->function = xstrdup(e->function);
		r->prototype = xstrdup(e->prototype);
		r->guard = xstrdup(e->guard);
		r->file = xstrdup(e->file);
		r->line = e->line;
		r->ntests = -1;
	}
	catalogue_free(cat);
	*rowsp = rows;
	*np = nrows;
	return 0;
}

void
ui_free_catalogue(struct ui_sysrow *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].abi);
		free(rows[i].name);
		free(rows[i].type);
		free(rows[i].state);
		free(rows[i].function);
		free(rows[i].prototype);
		free(rows[i].guard);
		free(rows[i].file);
	}
	free(rows);
}
