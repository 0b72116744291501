/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whole files into memory: every byte (NULs too) and a NUL after them,
 * files larger than the read chunks, the size limit stopping early,
 * and which call failed when the file cannot be opened.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/slurp.h"
#include "tap.h"

int
main(void)
{
	char path[1024], *buf, *big;
	size_t len, i, n = 300000;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/slurp.bin", tap_tmpdir());
	if ((fp = fopen(path, "wb")) == NULL)
		return tap_done();
	fwrite("a\0b\n", 1, 4, fp);
	fclose(fp);
	is_int(slurp_file(path, 0, &buf, &len), SLURP_OK, "small file read");
	ok(len == 4 && memcmp(buf, "a\0b\n", 4) == 0 && buf[4] == '\0',
	    "every byte, NUL included, and a NUL after them");
	free(buf);

	big = malloc(n);
	for (i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	fp = fopen(path, "wb");
	fwrite(big, 1, n, fp);
	fclose(fp);
	is_int(slurp_file(path, 0, &buf, &len), SLURP_OK, "big file read");
	ok(len == n && memcmp(buf, big, n) == 0 && buf[n] == '\0',
	    "300000 bytes intact");
	free(buf);
	is_int(slurp_file(path, 1000, &buf, &len), SLURP_OK,
	    "with a limit");
	ok(len > 1000 && len < n, "reading stopped past the limit (%zu)",
	    len);
	free(buf);
	free(big);

	snprintf(path, sizeof(path), "%s/slurp.none", tap_tmpdir());
	buf = (char *)1;
	is_int(slurp_file(path, 0, &buf, &len), SLURP_EOPEN,
	    "a missing file cannot be opened");
	ok(buf == NULL && errno == ENOENT, "nothing allocated; errno ENOENT");
#ifdef __linux__
	/* Linux opens a directory for reading but read(2) fails. */
	is_int(slurp_file(tap_tmpdir(), 0, &buf, &len), SLURP_EREAD,
	    "a directory opens but cannot be read");
#endif
	return tap_done();
}
