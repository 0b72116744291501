/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where a failing line's source is (ltpsrc.c): the file and line a
 * result line names, the paths of a tree to try, reading the file
 * from the made-up tree tests/fixtures/ltp-src, the tags' names and
 * links (ltpmeta_tag_link(), the linux-git-url template).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/diag.h"
#include "ltpscope/ltpmeta.h"
#include "ltpscope/ltpsrc.h"
#include "tap.h"

static void
test_line_ref(void)
{
	static const char nl[] = "fcntl35.c:81: TFAIL: a privileged user";
	static const char ol[] = "fcntl07     1  TFAIL  :  fcntl07.c:12: no";
	static const char old[] = "fcntl07     1  TFAIL  :  close on exec";
	static const char lib[] = "tst_test.c:1876: TINFO: timeout 30s";
	static const char nonum[] = "see fcntl35.c: TFAIL";
	char file[64];
	long line;

	ok(ltpsrc_line_ref(nl, strlen(nl), file, sizeof(file), &line),
	    "new library: a reference");
	is_str(file, "fcntl35.c", "its file");
	is_int(line, 81, "its line");
	ok(ltpsrc_line_ref(ol, strlen(ol), file, sizeof(file), &line) &&
	    strcmp(file, "fcntl07.c") == 0 && line == 12,
	    "old library naming a file:line: that one");
	ok(!ltpsrc_line_ref(old, strlen(old), file, sizeof(file), &line),
	    "old library naming none: none");
	is_str(file, "", "no file");
	is_int(line, 0, "no line");
	ok(ltpsrc_line_ref(lib, strlen(lib), file, sizeof(file), &line) &&
	    strcmp(file, "tst_test.c") == 0 && line == 1876,
	    "LTP's library");
	ok(!ltpsrc_line_ref(nonum, strlen(nonum), file, sizeof(file), &line),
	    "a file without a line number: none");
	/* Only the first bytes given count. */
	ok(!ltpsrc_line_ref(nl, 11, file, sizeof(file), &line),
	    "a reference cut by len: none");
}

static void
test_candidates(void)
{
	char c[LTPSRC_MAXCAND][LTPSRC_PATHLEN];
	size_t n;

	n = ltpsrc_candidates("/t", "testcases/kernel/syscalls/fcntl/"
	    "fcntl35.c", "fcntl35", NULL, c, LTPSRC_MAXCAND);
	ok(n == 1 && strcmp(c[0], "/t/testcases/kernel/syscalls/fcntl/"
	    "fcntl35.c") == 0, "metadata's fname: that file (%s)", c[0]);
	n = ltpsrc_candidates("/t", "testcases/kernel/syscalls/fcntl/"
	    "fcntl35.c", "fcntl35", "tst_test.c", c, LTPSRC_MAXCAND);
	ok(n == 2 && strcmp(c[0], "/t/testcases/kernel/syscalls/fcntl/"
	    "tst_test.c") == 0 && strcmp(c[1], "/t/lib/tst_test.c") == 0,
	    "another file: beside the test's, then lib/");
	n = ltpsrc_candidates("/t", NULL, "fcntl34_64", NULL, c,
	    LTPSRC_MAXCAND);
	ok(n == 1 && strcmp(c[0], "/t/testcases/kernel/syscalls/fcntl/"
	    "fcntl34.c") == 0, "no metadata: the name says (%s)", c[0]);
	n = ltpsrc_candidates("/t", NULL, "../etc", NULL, c, LTPSRC_MAXCAND);
	is_int((long long)n, 0, "a name going up: nothing");
	is_int((long long)ltpsrc_candidates("", NULL, "fcntl35", NULL, c,
	    LTPSRC_MAXCAND), 0, "no tree: nothing");
}

static void
test_read(void)
{
	struct diaglist dl;
	char path[LTPSRC_PATHLEN], buf[200], *text;
	const char *l;
	size_t len, llen;

	diag_init(&dl);
	ok(ltpsrc_read("tests/fixtures/ltp-src", NULL, "fcntl35", NULL,
	    &text, &len, path, sizeof(path), &dl) == 0, "read fcntl35.c");
	is_str(path, "tests/fixtures/ltp-src/testcases/kernel/syscalls/"
	    "fcntl/fcntl35.c", "from where the name says");
	buf[0] = '\0';
	if (text != NULL && ltpsrc_line(text, len, 81, &l, &llen) == 0)
		snprintf(buf, sizeof(buf), "%.*s", (int)llen, l);
	has_str(buf, "MARKED81\");", "line 81 is the marked one, all of it");
	ok(text != NULL && ltpsrc_line(text, len, 1000, &l, &llen) == -1,
	    "no line 1000");
	free(text);
	ok(ltpsrc_read("tests/fixtures", NULL, "fcntl35", NULL, &text, &len,
	    path, sizeof(path), &dl) == -1 && text == NULL,
	    "a tree without it: -1");
	ok(dl.n == 1, "one error");
	if (dl.n == 1)
		has_str(dl.v[0].msg, "fcntl35 not found in the LTP source "
		    "tree: looked at tests/fixtures/testcases/kernel/syscalls/"
		    "fcntl/fcntl35.c (--ltp-src DIR", "says where it looked");
	diag_free(&dl);
	diag_init(&dl);
	ok(ltpsrc_read(NULL, NULL, "fcntl35", "fcntl35.c", &text, &len,
	    path, sizeof(path), &dl) == -1, "no tree: -1");
	if (dl.n == 1)
		has_str(dl.v[0].msg, "no LTP source tree to find fcntl35.c in",
		    "says so");
	diag_free(&dl);
}

static void
test_tags(void)
{
	struct ltpmeta_tag git = { (char *)"linux-git", (char *)"086e774a" };
	struct ltpmeta_tag cve = { (char *)"CVE", (char *)"2017-1000380" };
	struct ltpmeta_tag bad = { (char *)"linux-git", (char *)"a\"b" };
	char buf[200];

	ltpmeta_tag_name(&git, buf, sizeof(buf));
	is_str(buf, "linux-git 086e774a", "a commit's name");
	ltpmeta_tag_name(&cve, buf, sizeof(buf));
	is_str(buf, "CVE-2017-1000380", "a CVE's");
	ok(ltpmeta_tag_link(&git, NULL, buf, sizeof(buf)) == 0, "a link");
	is_str(buf, "https://git.kernel.org/pub/scm/linux/kernel/git/"
	    "torvalds/linux.git/commit/?id=086e774a", "kernel.org's");
	ltpmeta_tag_link(&git, "https://x.org/%c/%%c", buf, sizeof(buf));
	is_str(buf, "https://x.org/086e774a/%c", "the template's");
	ltpmeta_tag_link(&cve, "https://x.org/%c", buf, sizeof(buf));
	is_str(buf, "https://www.cve.org/CVERecord?id=CVE-2017-1000380",
	    "not for a CVE");
	ok(ltpmeta_tag_link(&bad, "https://x.org/%c", buf, sizeof(buf)) ==
	    -1, "a value not fit for a URL: none");
	ltpmeta_tag_link(&git, "https://x.org/%c", buf, 12);
	is_str(buf, "https://x.o", "cut to the buffer");
}

int
main(void)
{
	test_line_ref();
	test_candidates();
	test_read();
	test_tags();
	return tap_done();
}
