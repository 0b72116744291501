/* Placeholder until the catalogue module lands. */
#include <stdio.h>

#include "ltpscope/cmd.h"

int
cmd_catalogue(int argc, char **argv)
{
	fprintf(stderr, "ltpscope: catalogue: not built yet\n");
	return 1;
}
