/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: the explorer's ":" command line (cmdline_parse), the
 * part of it that needs no terminal.
 */
#include "ltpscope/cmdline.h"
#include "fuzz.h"

FUZZ_TARGET(cmdline)
{
	struct cmdline cl;
	char *line;
	size_t i;

	line = fuzz_cstr(data, size);
	switch (cmdline_parse(&cl, line)) {
	case CL_ERROR:
		FUZZ_CHECK(cl.argv == NULL && cl.why[0] != '\0');
		break;
	case CL_RUN:
		FUZZ_CHECK(cl.nsys + cl.ntags > 0);
		for (i = 0; i < cl.nsys; i++)
			FUZZ_CHECK(cl.sys[i] != NULL && cl.sys[i][0] != '\0');
		for (i = 0; i < cl.ntags; i++)
			FUZZ_CHECK(cl.tags[i] != NULL &&
			    cl.tags[i][0] != '-');
		break;
	case CL_OTHER:
	case CL_QUIT:
	case CL_SELF:
		FUZZ_CHECK(cl.argv != NULL && cl.argv[0] != NULL);
		break;
	case CL_EMPTY:
		FUZZ_CHECK(cl.argv == NULL);
		break;
	}
	cmdline_free(&cl);
	free(line);
	return 0;
}
