/* Placeholder until the explorer lands. */
#include <stdio.h>

#include "ltpscope/cmd.h"

int
cmd_ui(int argc, char **argv)
{
	fprintf(stderr, "ltpscope: the explorer is not built yet\n");
	return 1;
}
