/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like old-library test: "TCID  N  TYPE  :  message" on stdout, no
 * Summary block.  "oldlib fail" ends with a TFAIL and exit 1.
 */
#include <stdio.h>
#include <string.h>

static void
tst_resm(int n, const char *type, const char *msg)
{
	printf("%-8s %4d  %s  :  %s\n", "oldlib01", n, type, msg);
}

int
main(int argc, char **argv)
{
	int fail = argc > 1 && strcmp(argv[1], "fail") == 0;

	tst_resm(0, "TINFO", "Using /tmp/LTP_oldAbCdEf as tmpdir "
	    "(ext2/ext3/ext4 filesystem)");
	tst_resm(1, "TPASS", "regular file CLOEXEC fd was closed after "
	    "exec()");
	tst_resm(2, "TPASS", "pipe (write end) CLOEXEC fd was closed after "
	    "exec()");
	if (fail)
		tst_resm(3, "TFAIL", "fifo CLOEXEC fd was not closed");
	return fail ? 1 : 0;
}
