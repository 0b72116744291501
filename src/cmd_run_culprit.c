/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope run: the test a run died in, onto the user's skip list, so
 * that the next run goes past it (--skip-culprit, and --resume).
 */
#include <sys/stat.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmd_run_impl.h"

static int
run_mkdirs(const char *path)
{
	char buf[2048], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p != '\0'; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) == -1 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

/*
 * Adds tag to the user's skip list; os, when not NULL, is the system
 * the entry holds on (a box's uname -s), arch (NULL or "": any) the
 * arch, and where the box it crashed: a crash of one arch's kernel
 * does not keep the test from another arch's box.
 */
int
run_add_culprit(const char *file, const char *tag, int64_t run_id,
    const char *os, const char *arch, const char *where)
{
	FILE *fp;

	if (run_mkdirs(file) != 0 || (fp = fopen(file, "a")) == NULL) {
		fprintf(stderr, "ltpscope: %s: %s\n", file, strerror(errno));
		return -1;
	}
	if (os != NULL && os[0] != '\0')
		fprintf(fp, "%s\tos=%s%s%s\tcrashed %s during run %" PRId64
		    " (added by ltpscope run --skip-culprit)\n", tag, os,
		    arch != NULL && arch[0] != '\0' ? "\tarch=" : "",
		    arch != NULL ? arch : "", where, run_id);
	else
		fprintf(fp, "%s\tcrashed the system during run %" PRId64
		    " (added by ltpscope run --resume)\n", tag, run_id);
	if (fclose(fp) != 0) {
		fprintf(stderr, "ltpscope: %s: %s\n", file, strerror(errno));
		return -1;
	}
	printf("added %s to %s\n", tag, file);
	return 0;
}
