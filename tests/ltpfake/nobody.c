/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like old-library test that switches to "nobody" before making
 * its own temporary directory in TMPDIR, as nftw01, nftw6401 and
 * symlink03 do: it needs a TMPDIR anyone can write to, like /tmp.  It
 * leaves what it made behind (a file, and a directory it cannot be
 * asked to search), for the runner, root, to remove.  Prints the mode
 * of TMPDIR it saw.  Not root: TCONF.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOBODY	65534

static void
tst_resm(const char *type, const char *msg, int e)
{
	printf("%-8s %4d  %s  :  %s%s%s\n", "nobody01", 1, type, msg,
	    e ? ": " : "", e ? strerror(e) : "");
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;
	char dir[4096], file[4200];
	FILE *fp;

	if (tmp == NULL || stat(tmp, &st) == -1) {
		tst_resm("TBROK", "no TMPDIR", errno);
		return 2;
	}
	printf("TMPDIR=%s\n", tmp);
	printf("tmpdir_mode=%04o\n", (unsigned)(st.st_mode & 07777));
	if (geteuid() != 0) {
		tst_resm("TCONF", "switching to nobody needs root", 0);
		return 32;
	}
	if (setgid(NOBODY) == -1 || setuid(NOBODY) == -1) {
		tst_resm("TBROK", "cannot switch to nobody", errno);
		return 2;
	}
	/* What the old library's tst_tmpdir() does: mkdtemp in TMPDIR. */
	snprintf(dir, sizeof(dir), "%s/LTP_nobXXXXXX", tmp);
	if (mkdtemp(dir) == NULL) {
		tst_resm("TBROK", "mkdtemp in TMPDIR", errno);
		return 2;
	}
	snprintf(file, sizeof(file), "%s/file", dir);
	if ((fp = fopen(file, "w")) == NULL) {
		tst_resm("TBROK", "creating a file in it", errno);
		return 2;
	}
	fputs("nobody's\n", fp);
	fclose(fp);
	snprintf(file, sizeof(file), "%s/closed", dir);
	if (mkdir(file, 0) == -1) {
		tst_resm("TBROK", "mkdir", errno);
		return 2;
	}
	tst_resm("TPASS", "nobody made a directory in TMPDIR", 0);
	return 0;
}
