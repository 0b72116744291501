/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ":" command line's parsing (see cmdline.h), apart from the
 * explorer so that it can be tested and fuzzed without a terminal.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cmdline.h"
#include "ltpscope/ltpindex.h"
#include "ltpscope/xmalloc.h"

static void cmdline_error(struct cmdline *, const char *, ...)
    __attribute__((__format__(__printf__, 2, 3)));

static void
cmdline_error(struct cmdline *cl, const char *fmt, ...)
{
	va_list ap;

	cl->kind = CL_ERROR;
	va_start(ap, fmt);
	vsnprintf(cl->why, sizeof(cl->why), fmt, ap);
	va_end(ap);
	xfreev(cl->argv);
	cl->argv = NULL;
}

/* Appends a copy of list's comma-separated names to cl->sys. */
static void
cmdline_sys(struct cmdline *cl, const char *list, size_t *nlists)
{
	char *copy, *p, *save = NULL;

	copy = xstrdup(list);
	cl->lists = xreallocarray(cl->lists, *nlists + 2,
	    sizeof(*cl->lists));
	cl->lists[(*nlists)++] = copy;
	cl->lists[*nlists] = NULL;
	for (p = strtok_r(copy, ",", &save); p != NULL;
	    p = strtok_r(NULL, ",", &save)) {
		cl->sys = xreallocarray(cl->sys, cl->nsys + 1,
		    sizeof(*cl->sys));
		cl->sys[cl->nsys++] = p;
	}
}

/* ":run -s a,b -s c test ...": every -s adds to the names. */
static void
cmdline_run(struct cmdline *cl)
{
	char **argv = cl->argv;
	size_t i, nlists = 0;

	for (i = 1; argv[i] != NULL; i++) {
		if (strcmp(argv[i], "-s") == 0 && argv[i + 1] != NULL)
			cmdline_sys(cl, argv[++i], &nlists);
		else if (argv[i][0] == '-') {
			cmdline_error(cl, ":run takes -s syscall,... and test "
			    "names here; %.64s is for `ltpscope run` in a "
			    "shell", argv[i]);
			return;
		} else {
			cl->tags = xreallocarray(cl->tags, cl->ntags + 1,
			    sizeof(*cl->tags));
			cl->tags[cl->ntags++] = argv[i];
		}
	}
	if (cl->nsys == 0 && cl->ntags == 0)
		cmdline_error(cl, ":run needs -s syscall,... or test names");
	else
		cl->kind = CL_RUN;
}

enum cmdline_kind
cmdline_parse(struct cmdline *cl, const char *line)
{
	const char *why = NULL;
	unsigned int col = 0;
	int rv;

	memset(cl, 0, sizeof(*cl));
	while (*line == ' ' || *line == '\t')
		line++;
	if (*line == '\0')
		return cl->kind = CL_EMPTY;
	rv = runtest_split(line, &cl->argv, &why, &col);
	if (rv <= 0 || cl->argv == NULL || cl->argv[0] == NULL) {
		if (rv < 0)
			cmdline_error(cl, "%s", why);
		else
			cmdline_error(cl, "no shell syntax here: just a "
			    "subcommand and its words");
		return cl->kind;
	}
	if (strcmp(cl->argv[0], "q") == 0 || strcmp(cl->argv[0], "quit") == 0)
		cl->kind = CL_QUIT;
	else if (strcmp(cl->argv[0], "run") == 0)
		cmdline_run(cl);
	else if (strcmp(cl->argv[0], "ui") == 0)
		cl->kind = CL_SELF;
	else
		cl->kind = CL_OTHER;
	return cl->kind;
}

void
cmdline_free(struct cmdline *cl)
{
	xfreev(cl->argv);
	xfreev(cl->lists);
	free(cl->sys);
	free(cl->tags);
	memset(cl, 0, sizeof(*cl));
}
