/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whole files into memory (see slurp.h): the one read loop the file
 * parsers share.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "ltpscope/diag.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"

int
slurp_file(const char *path, size_t max, char **bufp, size_t *lenp)
{
	size_t len = 0, cap = 0, n;
	char *buf = NULL;
	FILE *fp;
	int saved;

	*bufp = NULL;
	*lenp = 0;
	if ((fp = fopen(path, "rb")) == NULL)
		return SLURP_EOPEN;
	for (;;) {
		if (cap - len < 8192) {
			cap = cap ? cap * 2 : 65536;
			buf = xrealloc(buf, cap);
		}
		/* One byte stays free for the NUL. */
		n = fread(buf + len, 1, cap - len - 1, fp);
		len += n;
		if (n == 0 || (max > 0 && len > max))
			break;
	}
	if (ferror(fp)) {
		saved = errno;
		(void)fclose(fp);
		free(buf);
		errno = saved;
		return SLURP_EREAD;
	}
	(void)fclose(fp);
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return SLURP_OK;
}

int
slurp_file_diag(const char *path, size_t max, char **bufp, size_t *lenp,
    struct diaglist *dl)
{
	int rc;

	if ((rc = slurp_file(path, max, bufp, lenp)) == SLURP_OK)
		return 0;
	diag_error(dl, path, 0, "cannot %s: %s", rc == SLURP_EOPEN ? "open" :
	    "read", strerror(errno));
	return -1;
}
