/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The LTP test index: the real runtest/syscalls parses to 1525 tests
 * with exact argv, every malformed line is reported with file:line, tags
 * map to the syscalls they exercise (the unmapped list is pinned), -s
 * selects what the earlier shell tool selected, -p and tags select, and
 * "ltpscope tests" prints all of it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/ltpindex.h"
#include "ltpscope/paths.h"
#include "ltpscope/xmalloc.h"
#include "tap.h"

/* Our own material; ../shared has the real kind (test_real_file()). */
#define LINUX_TBL	"tests/fixtures/linux/syscall_64.tbl"
#define MADEUP_RT	"tests/fixtures/madeup/ltp/runtest-syscalls"
#define MADEUP_NTESTS	19
#define MADEUP_UNMAPPED	"confstr01\t-\tconfstr01\n" \
	"getpagesize01\t-\tgetpagesize01\n" \
	"pipeio_1\t-\tpipeio -T pipeio_1 -c 5 -s 4090 -i 100 -b -f x80\n" \
	"process_vm_writev01\t-\tprocess_vm01\n" \
	"setdomainname01\t-\tsetdomainname01\n" \
	"sysconf01\t-\tsysconf01\n"
#define MADEUP_LOGS	"tests/fixtures/madeup/ctp/reference_logs_sample/" \
	"NetBSD11-reference"

/*
 * The tests that nothing maps with the x86_64 table of shared/linux and
 * data/testmap, in runtest order.  Calls this older table does not know
 * (cachestat, file_getattr, listmount, lsm_*, mseal, statmount,
 * futex_waitv), calls of other architectures (cacheflush, old readdir,
 * sgetmask, socketcall, ssetmask, switch_endian), and tests of libc or
 * of scenarios across several calls, and pipeio (see data/testmap).
 */
static const char expected_unmapped[] =
    "cacheflush01 cachestat01 cachestat02 cachestat03 cachestat04 "
    "confstr01 file_attr01 file_attr02 file_attr03 file_attr04 "
    "file_attr05 fmtmsg01 gethostbyname_r01 gethostid01 getpagesize01 "
    "listmount01 listmount02 listmount03 listmount04 lsm_get_self_attr01 "
    "lsm_get_self_attr02 lsm_get_self_attr03 lsm_list_modules01 "
    "lsm_list_modules02 lsm_set_self_attr01 mallinfo02 mallinfo2_01 "
    "mallopt01 memset01 memcmp01 memcpy01 mseal01 mseal02 nftw01 "
    "nftw6401 pipeio_1 pipeio_2 pipeio_3 pipeio_4 pipeio_5 pipeio_6 "
    "pipeio_7 pipeio_8 prot_hsymlinks dirtyc0w dirtyc0w_shmem dirtypipe "
    "readdir21 "
    "realpath01 sgetmask01 socketcall01 socketcall02 socketcall03 "
    "ssetmask01 statmount01 statmount02 statmount03 statmount04 "
    "statmount05 statmount06 statmount07 statmount08 statmount09 "
    "string01 switch01 sysconf01 futex_waitv01 futex_waitv02 "
    "futex_waitv03";

struct names {
	char	**v;
	size_t	  n;
};

/* Third column of a syscall_64.tbl, as the catalogue will give them. */
static int
names_load(struct names *nm, const char *path)
{
	char line[512], a[64], b[64], c[128];
	FILE *fp;

	nm->v = NULL;
	nm->n = 0;
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (line[0] == '#' ||
		    sscanf(line, "%63s %63s %127s", a, b, c) != 3)
			continue;
		nm->v = realloc(nm->v, (nm->n + 1) * sizeof(*nm->v));
		nm->v[nm->n++] = strdup(c);
	}
	fclose(fp);
	return 0;
}

static void
names_free(struct names *nm)
{
	size_t i;

	for (i = 0; i < nm->n; i++)
		free(nm->v[i]);
	free(nm->v);
}

/* "a b c" from a vector, in a static buffer. */
static const char *
joinv(char *const *v)
{
	static char buf[4096];
	size_t i;

	buf[0] = '\0';
	for (i = 0; v != NULL && v[i] != NULL; i++) {
		if (i > 0)
			strcat(buf, "|");
		strcat(buf, v[i]);
	}
	return v == NULL ? "(null)" : buf;
}

static char *
join_tags(const struct ltpindex *idx, const size_t *sel, size_t n)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(idx->tests[sel[i]].tag) + 1;
	s = calloc(1, len);
	for (i = 0; i < n; i++) {
		if (i > 0)
			strcat(s, " ");
		strcat(s, idx->tests[sel[i]].tag);
	}
	return s;
}

/*
 * ltpindex_select() with s, which must succeed (checked as what): the
 * tags it picked in order, the caller's to free; *np their number.
 */
static char *
selected(const struct ltpindex *idx, const struct ltpselect *s,
    struct diaglist *dl, size_t *np, const char *what)
{
	size_t *sel, n;
	char *got;

	is_int(ltpindex_select(idx, s, &sel, &n, dl), 0, "%s", what);
	got = join_tags(idx, sel, n);
	free(sel);
	if (np != NULL)
		*np = n;
	return got;
}

static char *
diag_text(const struct diaglist *dl)
{
	static char all[8192];
	char buf[512];
	size_t i;

	all[0] = '\0';
	for (i = 0; i < dl->n; i++) {
		diag_format(&dl->v[i], buf, sizeof(buf));
		if (strlen(all) + strlen(buf) + 2 < sizeof(all)) {
			strcat(all, buf);
			strcat(all, "\n");
		}
	}
	return all;
}

static void
test_split(void)
{
	const char *why = NULL;
	unsigned int col = 0;
	char **v;

	is_int(runtest_split("pipeio -T pipeio_1 -c 5", &v, &why, &col), 1,
	    "simple split");
	is_str(joinv(v), "pipeio|-T|pipeio_1|-c|5", "simple argv");
	xfreev(v);
	is_int(runtest_split("t 'a b' \"c \\\"d\\\" \\$e\" f\\ g '' x\"y\"z",
	    &v, &why, &col), 1, "quoted split");
	is_str(joinv(v), "t|a b|c \"d\" $e|f g||xyz", "quoted argv");
	xfreev(v);
	is_int(runtest_split("a 'it''s'", &v, &why, &col), 1, "adjacent");
	is_str(joinv(v), "a|its", "adjacent quotes join");
	xfreev(v);
#define SHELL(s, what) do {						\
	is_int(runtest_split(s, &v, &why, &col), 0, "needs sh: %s", what); \
	ok(v == NULL, "no argv for %s", what);				\
} while (0)
	SHELL("a; b", "list");
	SHELL("a | b", "pipeline");
	SHELL("a && b", "and list");
	SHELL("a > /dev/null 2>&1", "redirection");
	SHELL("a < in", "input redirection");
	SHELL("a $HOME", "variable");
	SHELL("a \"$HOME\"", "variable in double quotes");
	SHELL("a `b`", "command substitution");
	SHELL("a *.c", "glob");
	SHELL("a ~/x", "tilde");
	SHELL("FOO=1 a", "assignment");
	SHELL("a # comment", "comment");
	SHELL("if true; then a; fi", "compound");
	SHELL("(a)", "subshell");
#undef SHELL
	is_int(runtest_split("a '$HOME;|' b=1 x#y", &v, &why, &col), 1,
	    "quoted metacharacters and non-leading = and # need no shell");
	is_str(joinv(v), "a|$HOME;||b=1|x#y", "literal metacharacters");
	xfreev(v);
	is_int(runtest_split("a 'b", &v, &why, &col), -1, "open quote");
	is_str(why, "unterminated single quote", "why");
	is_int(col, 3, "column of the quote");
	is_int(runtest_split("ab \"c", &v, &why, &col), -1, "open dquote");
	is_str(why, "unterminated double quote", "why dquote");
	is_int(col, 4, "column of the dquote");
	is_int(runtest_split("a b\\", &v, &why, &col), -1, "backslash");
	is_str(why, "backslash at end of line", "why backslash");
	is_int(col, 4, "column of the backslash");
}

/*
 * Tests the made-up and the real runtest file both hold, read the same
 * way; setdomainname01, tab-separated, stands on line setdomain_line.
 */
static void
check_common_tags(const struct ltpindex *idx, unsigned long setdomain_line)
{
	const struct ltptest *t;

	t = ltpindex_find(idx, "abort01");
	ok(t != NULL && t->line == 2 && strcmp(t->cmdline, "abort01") == 0,
	    "abort01 on line 2");
	t = ltpindex_find(idx, "fork06");
	ok(t != NULL && strcmp(joinv(t->argv), "fork_procs|-n|1000") == 0,
	    "fork06 runs fork_procs -n 1000");
	t = ltpindex_find(idx, "setdomainname01");
	ok(t != NULL && t->line == setdomain_line &&
	    strcmp(joinv(t->argv), "setdomainname01") == 0,
	    "tab-separated line");
	t = ltpindex_find(idx, "process_vm_writev01");
	ok(t != NULL && strcmp(joinv(t->argv), "process_vm01") == 0,
	    "tag differs from the program");
	ok(ltpindex_find(idx, "nonexistent01") == NULL, "unknown tag");
}

/*
 * Our made-up runtest file (tests/fixtures/madeup/ltp/runtest-syscalls)
 * and Linux table (tests/fixtures/linux/syscall_64.tbl): the kinds of
 * line the real file has, and tests the table leaves unmapped.
 */
static void
test_madeup_file(const struct names *nm, struct testmap *tm)
{
	static const char *const sys[] = { "readv", "writev", "open", "close" };
	static const char *const logs[] = { "readv/readv01", "readv/readv02",
	    "writev/writev01", "writev/writev02", "open/open01",
	    "close/close01", "close/close02" };
	struct ltpselect sl = { sys, 4, NULL, NULL, 0, 0 };
	struct ltpindex idx;
	struct diaglist dl;
	const struct ltptest *t;
	size_t i, shells = 0, unmapped;
	char *got, path[1024];

	diag_init(&dl);
	ltpindex_init(&idx);
	is_int(ltpindex_load_file(&idx, MADEUP_RT, &dl), 0,
	    "made-up runtest loads");
	is_int(idx.ntests, MADEUP_NTESTS, "%d tests", MADEUP_NTESTS);
	is_int(dl.n, 0, "no diagnostics on the made-up file");
	for (i = 0; i < idx.ntests; i++)
		shells += idx.tests[i].needs_shell;
	is_int(shells, 0, "every line is a simple command");
	check_common_tags(&idx, 19);
	t = ltpindex_find(&idx, "pipeio_1");
	ok(t != NULL && strcmp(joinv(t->argv), "pipeio|-T|pipeio_1|-c|5|-s|"
	    "4090|-i|100|-b|-f|x80") == 0, "pipeio_1 argv");
	t = ltpindex_find(&idx, "ioctl02");
	ok(t != NULL && strcmp(t->cmdline, "test_ioctl") == 0,
	    "ioctl02: blanks after the command are not part of it");

	unmapped = ltpindex_map(&idx, tm, (const char *const *)nm->v, nm->n);
	is_int(unmapped, 6, "6 tests left unmapped");
	t = ltpindex_find(&idx, "pread01_64");
	ok(t != NULL && strcmp(joinv(t->syscalls), "pread64") == 0 &&
	    t->mapline != 0, "pread01_64 -> pread64, by the testmap");
	t = ltpindex_find(&idx, "close01");
	ok(t != NULL && t->mapline == 0, "close01 by its name");

	got = selected(&idx, &sl, &dl, NULL, "-s select");
	is_str(got, "readv01 readv02 writev01 writev02 open01 open02 close01 "
	    "close02", "-s readv,writev,open,close: syscall by syscall");
	/* The made-up logs of the shell tool for them are all selected. */
	for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s.log", MADEUP_LOGS, logs[i]);
		ok(access(path, R_OK) == 0 &&
		    strstr(got, strchr(logs[i], '/') + 1) != NULL,
		    "shell tool's %s is selected", logs[i]);
	}
	free(got);
	ltpindex_free(&idx);
	diag_free(&dl);
}

static void
test_real_file(const struct names *nm, struct testmap *tm)
{
	struct ltpindex idx;
	struct diaglist dl;
	const struct ltptest *t;
	size_t i, shells = 0, unmapped, *sel, nsel, cap, len;
	char *got, *exp;
	const char *path = tap_shared_path("ltp/runtest-syscalls");

	diag_init(&dl);
	ltpindex_init(&idx);
	is_int(ltpindex_load_file(&idx, path, &dl), 0, "real runtest loads");
	is_int(idx.ntests, 1525, "1525 tests");
	is_int(dl.n, 0, "no diagnostics on the real file");
	if (dl.n > 0)
		tap_diag("%s", diag_text(&dl));
	for (i = 0; i < idx.ntests; i++)
		shells += idx.tests[i].needs_shell;
	/* LTP 20260529 has no quoting or shell syntax in runtest/syscalls. */
	is_int(shells, 0, "every real line is a simple command");
	check_common_tags(&idx, 1410);
	t = ltpindex_find(&idx, "pipeio_1");
	ok(t != NULL, "pipeio_1 found");
	if (t != NULL) {
		is_str(joinv(t->argv), "pipeio|-T|pipeio_1|-c|5|-s|4090|-i|"
		    "100|-b|-f|x80", "pipeio_1 argv");
		is_str(t->cmdline, "pipeio -T pipeio_1 -c 5 -s 4090 -i 100 "
		    "-b -f x80", "pipeio_1 raw line");
	}
	t = ltpindex_find(&idx, "ioctl02");
	ok(t != NULL && strcmp(t->cmdline, "test_ioctl") == 0 &&
	    strcmp(joinv(t->argv), "test_ioctl") == 0,
	    "ioctl02: blanks after the tag are not part of the command");

	unmapped = ltpindex_map(&idx, tm, (const char *const *)nm->v, nm->n);
	is_int(unmapped, 69, "69 tests left unmapped");
	cap = 1;
	for (i = 0; i < idx.ntests; i++)
		cap += strlen(idx.tests[i].tag) + 1;
	got = calloc(1, cap);
	for (i = 0; i < idx.ntests; i++) {
		if (idx.tests[i].nsyscalls != 0)
			continue;
		if (got[0] != '\0')
			strcat(got, " ");
		strcat(got, idx.tests[i].tag);
	}
	is_str(got, expected_unmapped, "the unmapped list is as decided");
	free(got);
	t = ltpindex_find(&idx, "getdents02");
	ok(t != NULL && strcmp(joinv(t->syscalls), "getdents|getdents64") ==
	    0 && t->mapline != 0, "getdents02 -> both, by the testmap");
	t = ltpindex_find(&idx, "close01");
	ok(t != NULL && t->mapline == 0, "close01 by its name");

	/* What the shell tool ran for -s readv,writev,open,close. */
	{
		static const char *const sys[] = {
			"readv", "writev", "open", "close"
		};
		struct ltpselect s = { sys, 4, NULL, NULL, 0, 0 };
		char logdir[1024];
		struct dirent *de;
		DIR *d;

		got = selected(&idx, &s, &dl, NULL, "-s select");
		is_str(got, "readv01 readv02 writev01 writev02 writev03 "
		    "writev05 writev06 writev07 open01 open02 open03 open04 "
		    "open06 open07 open08 open09 open10 open11 open12 open13 "
		    "open14 open15 close01 close02",
		    "-s readv,writev,open,close: syscall by syscall");
		/* Every log the shell tool wrote for them is selected. */
		for (i = 0; i < 4; i++) {
			snprintf(logdir, sizeof(logdir), "%s",
			    tap_shared_path("ctp/reference_logs_sample/"
			    "NetBSD11-reference"));
			len = strlen(logdir);
			snprintf(logdir + len, sizeof(logdir) - len, "/%s",
			    sys[i]);
			if ((d = opendir(logdir)) == NULL) {
				ok(0, "reference logs for %s", sys[i]);
				continue;
			}
			while ((de = readdir(d)) != NULL) {
				char tag[300], *dot;

				if (de->d_name[0] == '.')
					continue;
				snprintf(tag, sizeof(tag), " %s ", de->d_name);
				if ((dot = strstr(tag, ".log ")) != NULL)
					strcpy(dot, " ");
				exp = calloc(1, strlen(got) + 3);
				sprintf(exp, " %s ", got);
				ok(strstr(exp, tag) != NULL,
				    "shell tool's %s/%s is selected", sys[i],
				    de->d_name);
				free(exp);
			}
			closedir(d);
		}
		free(got);
	}
	{
		/* The transcript: -s read,pipe runs read then pipe only. */
		static const char *const sys[] = { "read", "pipe" };
		struct ltpselect s = { sys, 2, NULL, NULL, 0, 0 };

		got = selected(&idx, &s, &dl, &nsel, "-s read,pipe");
		has_str(got, "read01 read02 read03 read04 pipe01 pipe02",
		    "read's tests, then pipe's");
		ok(strstr(got, "readv") == NULL && strstr(got, "pipe2") ==
		    NULL && strstr(got, "pipeio") == NULL,
		    "no readv, pipe2 or pipeio in -s read,pipe");
		is_int(nsel, 19, "4 read + 15 pipe tests");
		free(got);
	}
	{
		/* The shell tool's groups named after libc functions. */
		static const char *const sys[] = { "abort", "signal" };
		struct ltpselect s = { sys, 2, NULL, NULL, 0, 0 };

		got = selected(&idx, &s, &dl, NULL, "-s abort,signal");
		is_str(got, "abort01 signal01 signal02 signal03 signal04 "
		    "signal05 signal06", "groups as the shell tool had them");
		free(got);
	}
	{
		struct ltpselect s = { NULL, 0, "^pipe2?$", NULL, 0, 0 };

		got = selected(&idx, &s, &dl, &nsel, "-p ^pipe2?$");
		has_str(got, "pipe15 pipe2_01 pipe2_02 pipe2_04",
		    "-p matches syscall names");
		is_int(nsel, 18, "15 pipe + 3 pipe2");
		free(got);
	}
	{
		struct ltpselect s = { NULL, 0, "^statmount0[12]$", NULL, 0,
		    0 };

		got = selected(&idx, &s, &dl, NULL, "-p on tags");
		is_str(got, "statmount01 statmount02", "-p matches tags");
		free(got);
	}
	{
		static const char *const tags[] = { "dup201", "abort01",
		    "sysconf01" };
		static const char *const sys[] = { "dup2", "nosuchcall",
		    "pread" };
		struct ltpselect s = { sys, 3, "^memc", tags, 3, 0 };

		diag_free(&dl);
		got = selected(&idx, &s, &dl, NULL, "-s, tags and -p together");
		is_str(got, "dup201 dup202 dup203 dup204 dup205 dup206 dup207 "
		    "pread01 pread01_64 pread02 pread02_64 abort01 sysconf01 "
		    "memcmp01 memcpy01", "union, each test once");
		is_str(diag_text(&dl), "warning: no test exercises "
		    "syscall 'nosuchcall'\n", "unknown syscall warned, "
		    "pread taken as the shell tool's group");
		free(got);
		s.unmapped_only = 1;
		got = selected(&idx, &s, &dl, NULL, "--unmapped filter");
		is_str(got, "sysconf01 memcmp01 memcpy01",
		    "only the unmapped ones");
		free(got);
	}
	{
		static const char *const tags[] = { "nosuch01" };
		struct ltpselect s = { NULL, 0, NULL, tags, 1, 0 };

		diag_free(&dl);
		is_int(ltpindex_select(&idx, &s, &sel, &nsel, &dl), -1,
		    "unknown tag fails");
		has_str(diag_text(&dl), "no test 'nosuch01'", "says which");
	}
	{
		struct ltpselect s = { NULL, 0, "open(", NULL, 0, 0 };

		diag_free(&dl);
		is_int(ltpindex_select(&idx, &s, &sel, &nsel, &dl), -1,
		    "bad pattern fails");
		has_str(diag_text(&dl), "-p:1:6: error: missing closing "
		    "parenthesis in pattern 'open('",
		    "pattern error with its column");
	}
	diag_free(&dl);
	ltpindex_free(&idx);
}

static void
test_malformed(void)
{
	static const char bad[] =
	    "# comment\n"
	    "\n"
	    "   # indented comment\n"
	    "ok01 ok01\n"
	    "quote01 echo 'abc\n"
	    "dquote01 echo \"abc\n"
	    "bs01 echo abc\\\n"
	    "lonely01\n"
	    "lonely02   \t \n"
	    "junk\001 x\n"
	    "bad/tag x\n"
	    "ok01 second\n"
	    "crlf01 crlf01 -x\r\n"
	    "-dash x\n";
	struct ltpindex idx;
	struct diaglist dl;
	const struct ltptest *t;
	char *text;
	size_t i;

	diag_init(&dl);
	ltpindex_init(&idx);
	ltpindex_load_buf(&idx, "bad.rt", bad, sizeof(bad) - 1, &dl);
	is_int(idx.ntests, 2, "only ok01 and crlf01 are tests");
	is_int(dl.nerrors, 8, "eight errors");
	text = diag_text(&dl);
	has_str(text, "bad.rt:5:14: error: unterminated single quote in "
	    "test 'quote01'", "unterminated quote with column");
	has_str(text, "bad.rt:6:15: error: unterminated double quote in "
	    "test 'dquote01'", "unterminated double quote");
	has_str(text, "bad.rt:7:14: error: backslash at end of line in "
	    "test 'bs01'", "trailing backslash");
	has_str(text, "bad.rt:8: error: test 'lonely01' has no command",
	    "tag without command");
	has_str(text, "bad.rt:9: error: test 'lonely02' has no command",
	    "tag with blanks only");
	has_str(text, "bad.rt:10:5: error: binary junk (byte 0x01)",
	    "binary junk");
	has_str(text, "bad.rt:11:4: error: character '/' not allowed in "
	    "test tag 'bad/tag'", "slash in tag");
	has_str(text, "bad.rt:12: warning: test 'ok01' repeats an earlier "
	    "tag with another command; ignored (first at bad.rt:4)",
	    "a tag repeated with another command is a warning");
	has_str(text, "bad.rt:14:1: error: character '-' not allowed",
	    "leading dash in tag");
	t = ltpindex_find(&idx, "ok01");
	ok(t != NULL && strcmp(t->cmdline, "ok01") == 0, "first ok01 kept");
	t = ltpindex_find(&idx, "crlf01");
	ok(t != NULL && strcmp(joinv(t->argv), "crlf01|-x") == 0,
	    "CRLF line ends are tolerated");
	ltpindex_free(&idx);
	diag_free(&dl);

	/* A binary file: stop after ten bad lines, not one per line. */
	{
		char blob[400];

		for (i = 0; i < sizeof(blob); i++)
			blob[i] = (i % 7 == 0) ? '\n' : (char)(i % 5);
		diag_init(&dl);
		ltpindex_init(&idx);
		ltpindex_load_buf(&idx, "blob", blob, sizeof(blob), &dl);
		is_int(idx.ntests, 0, "no tests from a blob");
		is_int(dl.n, 11, "ten junk lines, then give up");
		has_str(diag_text(&dl), "not a runtest file", "gives up");
		ltpindex_free(&idx);
		diag_free(&dl);
	}
	/* NUL bytes are junk too. */
	diag_init(&dl);
	ltpindex_init(&idx);
	ltpindex_load_buf(&idx, "nul", "a01 a\0b\nb01 b01\n", 16, &dl);
	is_int(idx.ntests, 1, "the line after a NUL still loads");
	has_str(diag_text(&dl), "nul:1:6: error: binary junk (byte 0x00)",
	    "NUL reported with its column");
	ltpindex_load_buf(&idx, "del", "d01 d\177\n", 7, &dl);
	has_str(diag_text(&dl), "del:1:6: error: binary junk (byte 0x7f)",
	    "DEL is junk too");
	ltpindex_free(&idx);
	diag_free(&dl);

	diag_init(&dl);
	ltpindex_init(&idx);
	is_int(ltpindex_load_file(&idx, "/nonexistent/runtest", &dl), -1,
	    "missing file");
	has_str(diag_text(&dl), "/nonexistent/runtest: error: cannot open",
	    "missing file reported");
	ltpindex_free(&idx);
	diag_free(&dl);
}

/* -L, then $LTPROOT, then /opt/ltp; -f names under ROOT/runtest. */
/*
 * runtest/syscalls-ipc repeats runtest/syscalls: identical entries merge
 * silently; those with another command warn once per file, counted.
 */
static void
test_duplicates(void)
{
	static const char a[] =
	    "shmctl01 shmctl01\n"
	    "shmctl05 shmctl05 -i 10\n"
	    "msgget01 msgget01\n"
	    "semop01 semop01\n";
	static const char same[] =
	    "shmctl01 shmctl01\n"
	    "shmctl05   shmctl05  -i 10\n"
	    "msgget01 msgget01\n"
	    "shmat01 shmat01\n"
	    "shmat01 shmat01\n";
	static const char other[] =
	    "msgget01 msgget01\n"
	    "shmctl01 shmctl01 -x\n"
	    "semop01 semop01 -y\n"
	    "semop02 semop02\n";
	struct ltpindex idx;
	struct diaglist dl;
	const struct ltptest *t;

	diag_init(&dl);
	ltpindex_init(&idx);
	ltpindex_load_buf(&idx, "syscalls", a, sizeof(a) - 1, &dl);
	ltpindex_load_buf(&idx, "syscalls-ipc", same, sizeof(same) - 1, &dl);
	is_int(dl.n, 0, "identical repeats, across files and within one, "
	    "say nothing (%s)", tap_first_diag(&dl));
	is_int(idx.ntests, 5, "and are merged: 5 tests");
	ltpindex_load_buf(&idx, "other", other, sizeof(other) - 1, &dl);
	is_int(dl.n, 1, "repeats with another command: one warning for "
	    "the file");
	is_str(tap_first_diag(&dl), "other:2: warning: 2 tests repeat an "
	    "earlier tag with another command; ignored (the first, "
	    "'shmctl01', is at syscalls:1)", "with the count and the first");
	t = ltpindex_find(&idx, "shmctl01");
	ok(t != NULL && strcmp(t->cmdline, "shmctl01") == 0 &&
	    strcmp(t->file, "syscalls") == 0, "the first entry wins");
	is_int(idx.ntests, 6, "semop02 is new");
	ltpindex_free(&idx);
	diag_free(&dl);
}

static void
test_root(void)
{
	char *p, *pinned;

	/* tap.c's LTPROOT (no LTP) must be back for the commands later. */
	pinned = strdup(getenv("LTPROOT") != NULL ? getenv("LTPROOT") : "");
	unsetenv("LTPROOT");
	is_str(paths_ltproot(NULL), "/opt/ltp", "default root");
	setenv("LTPROOT", "", 1);
	is_str(paths_ltproot(NULL), "/opt/ltp", "empty LTPROOT ignored");
	setenv("LTPROOT", "/usr/lib/ltp", 1);
	is_str(paths_ltproot(NULL), "/usr/lib/ltp", "$LTPROOT");
	is_str(paths_ltproot("/x"), "/x", "-L wins");
	setenv("LTPROOT", pinned, 1);
	free(pinned);
	p = ltpindex_runtest_path("/r", "syscalls-ipc");
	is_str(p, "/r/runtest/syscalls-ipc", "plain name under runtest/");
	free(p);
	p = ltpindex_runtest_path("/r", "/abs/file");
	is_str(p, "/abs/file", "absolute path as is");
	free(p);
	p = ltpindex_runtest_path("tests/fixtures/ltproot",
	    "../runtest/syscalls");
	is_str(p, "tests/fixtures/ltproot/runtest/../runtest/syscalls",
	    "relative path under ROOT/runtest when it exists there");
	free(p);
	p = ltpindex_runtest_path("/nonexistent", "tests/fixtures/"
	    "runtest-bad");
	is_str(p, "tests/fixtures/runtest-bad", "else from the cwd");
	free(p);
}

/* A pattern that backtracks without end is stopped and reported. */
static void
test_match_limit(void)
{
	static const char buf[] =
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa+ x\n"
	    "aa01 y\n";
	struct ltpselect s = { NULL, 0, "^(a+)+$", NULL, 0, 0 };
	struct ltpindex idx;
	struct diaglist dl;
	size_t *sel, n;

	diag_init(&dl);
	ltpindex_init(&idx);
	ltpindex_load_buf(&idx, "m", buf, sizeof(buf) - 1, &dl);
	is_int(idx.ntests, 2, "two tests");
	is_int(ltpindex_select(&idx, &s, &sel, &n, &dl), 0,
	    "match limit is not an error");
	is_int(n, 0, "nothing matched");
	has_str(diag_text(&dl), "hit the match limit", "but it is reported");
	free(sel);
	ltpindex_free(&idx);
	diag_free(&dl);
}

/*
 * Patterns of every shape: the plain characters a pattern starts with
 * are compared before fnmatch(3) runs, and must never hide a match.
 */
static void
test_testmap_patterns(void)
{
	static const char map[] =
	    "*_wr*	write\n"
	    "?pen0[0-9]	open\n"
	    "abc	read\n"
	    "clo[s]e*	close\n"
	    "x\\yz	read\n"
	    "ab[c]d*	write\n";
	static const char *const calls[] = { "close", "open", "read",
	    "write" };
	static const char *const cases[][2] = {
		{ "io_write01", "write" },	/* wildcard first */
		{ "open01", "open" },		/* ? first */
		{ "abc", "read" },		/* all plain: whole tag */
		{ "abcd01", "write" },		/* "abc" must not take it */
		{ "close_range01", "close" },	/* class after a prefix */
		{ "xyz", "read" },		/* an escaped letter */
		{ "xay", "" },
		{ "ab", "" },			/* shorter than a prefix */
	};
	const struct ltptest *t;
	struct ltpindex idx;
	struct testmap tm;
	struct diaglist dl;
	unsigned long mapline;
	char **v, line[64];
	size_t i;

	diag_init(&dl);
	testmap_init(&tm);
	testmap_load_buf(&tm, "tm", map, sizeof(map) - 1, &dl);
	is_int(tm.nrules, 6, "six pattern shapes load");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = ltpindex_map_tag(cases[i][0], &tm, calls,
		    sizeof(calls) / sizeof(calls[0]), &mapline);
		is_str(v != NULL ? joinv(v) : "", cases[i][1],
		    "pattern shapes: %s -> '%s'", cases[i][0], cases[i][1]);
		xfreev(v);
	}
	/* The same through ltpindex_map(), which lists rules by letter. */
	ltpindex_init(&idx);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(line, sizeof(line), "%s %s\n", cases[i][0],
		    cases[i][0]);
		(void)ltpindex_load_buf(&idx, "rt", line, strlen(line), &dl);
	}
	(void)ltpindex_map(&idx, &tm, calls, sizeof(calls) / sizeof(calls[0]));
	is_int(idx.ntests, sizeof(cases) / sizeof(cases[0]),
	    "pattern shapes: every tag indexed");
	for (i = 0; i < idx.ntests && i < sizeof(cases) / sizeof(cases[0]);
	    i++) {
		t = ltpindex_find(&idx, cases[i][0]);
		is_str(t != NULL && t->nsyscalls > 0 ? t->syscalls[0] : "",
		    cases[i][1], "pattern shapes, whole index: %s -> '%s'",
		    cases[i][0], cases[i][1]);
	}
	ltpindex_free(&idx);
	testmap_free(&tm);
	diag_free(&dl);
}

static void
test_testmap(const struct names *nm, struct testmap *tm)
{
	static const char *const cases[][2] = {
		{ "clone301", "clone3" },
		{ "dup201", "dup2" },
		{ "fcntl34_64", "fcntl" },
		{ "epoll_wait01", "epoll_wait" },
		{ "mmap001", "mmap" },
		{ "abort01", "tgkill" },
		{ "accept4_01", "accept4" },
		{ "openat201", "openat2" },
		{ "preadv201", "preadv2" },
		{ "fstatat01", "newfstatat" },
		{ "setuid01_16", "setuid" },
		{ "getdents01", "getdents|getdents64" },
		{ "sbrk01", "brk" },
		{ "pread01", "pread64" },
		{ "pread02_64", "pread64" },
		{ "pselect01_64", "pselect6" },
		{ "posix_fadvise01", "fadvise64" },
		{ "signal03", "rt_sigaction" },
		{ "sigwaitinfo01", "rt_sigtimedwait" },
		{ "waitpid03", "wait4" },
		{ "wait401", "wait4" },
		{ "ioctl_loop01", "ioctl" },
		{ "futex_wait_bitset01", "futex" },
		{ "sysctl01", "_sysctl" },
		{ "inotify03", "inotify_init|inotify_add_watch|"
		    "inotify_rm_watch" },
		{ "inotify_init1_01", "inotify_init1" },
		{ "read01", "read" },
		{ "readahead01", "readahead" },
	};
	static const char *const i386[] = {
		"fstatat64", "fcntl", "fcntl64", "_llseek", "lseek",
		"waitpid", "wait4", "fadvise64", "fadvise64_64", "nice"
	};
	static const char badmap[] =
	    "# header\n"
	    "ok*  read\n"
	    "nolist01\n"
	    "two01 read, write\n"
	    "empty01 read,,write\n"
	    "char01 read-x\n";
	struct diaglist dl;
	struct testmap bad;
	unsigned long line;
	char **v, *text;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = ltpindex_map_tag(cases[i][0], tm,
		    (const char *const *)nm->v, nm->n, &line);
		is_str(joinv(v), cases[i][1], "%s -> %s", cases[i][0],
		    cases[i][1]);
		xfreev(v);
	}
	v = ltpindex_map_tag("confstr01", tm, (const char *const *)nm->v,
	    nm->n, &line);
	ok(v == NULL, "confstr01 maps to nothing");
	v = ltpindex_map_tag("socketcall01", tm, (const char *const *)nm->v,
	    nm->n, &line);
	ok(v == NULL, "socketcall is not an x86_64 syscall");
	/* Alternatives pick what an i386 table has. */
#define I386(tag, want) do {						\
	v = ltpindex_map_tag(tag, tm, i386, sizeof(i386) / sizeof(i386[0]), \
	    &line);							\
	is_str(joinv(v), want, "i386: %s -> %s", tag, want);		\
	xfreev(v);						\
} while (0)
	I386("fstatat01", "fstatat64");
	I386("fcntl34_64", "fcntl64");
	I386("fcntl34", "fcntl");
	I386("llseek01", "_llseek");
	I386("waitpid01", "waitpid");
	I386("nice01", "nice");
	I386("posix_fadvise01_64", "fadvise64_64");
#undef I386
	v = ltpindex_map_tag("abort01", NULL, (const char *const *)nm->v,
	    nm->n, &line);
	ok(v == NULL && line == 0, "without a testmap, only the prefix rule");

	test_testmap_patterns();

	diag_init(&dl);
	testmap_init(&bad);
	testmap_load_buf(&bad, "tm", badmap, sizeof(badmap) - 1, &dl);
	is_int(bad.nrules, 1, "one good rule");
	is_int(dl.nerrors, 4, "four bad rules");
	text = diag_text(&dl);
	has_str(text, "tm:3: error: 'nolist01' maps to no syscall",
	    "rule without syscalls");
	has_str(text, "tm:4:13: error: unexpected 'write'", "blank in list");
	has_str(text, "tm:5:13: error: empty syscall name", "empty name");
	has_str(text, "tm:6:12: error: character '-' not allowed",
	    "bad character");
	testmap_free(&bad);
	diag_free(&dl);
}

static size_t
count_lines(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		n += *s == '\n';
	return n;
}

/*
 * --unmapped with -s and -p, on the Linux table tbl and runtest file rt
 * (both the made-up and LTP's hold sysconf01, which maps to nothing).
 */
static void
check_unmapped_sysconf(const char *tbl, const char *rt)
{
	char cmd[2048], *out;

	snprintf(cmd, sizeof(cmd), "LTPSCOPE_TESTMAP=data/testmap %s tests "
	    "-m %s -f %s --unmapped -s close,open -p '^sysconf' 2>/dev/null",
	    tap_bin(), tbl, rt);
	out = tap_run(cmd, NULL, 0);
	is_str(out, "sysconf01\t-\tsysconf01\n", "--unmapped with -s, -p");
	free(out);
}

static void
test_cli(void)
{
	const char *bin = tap_bin();
	char cmd[2048], *out, *tbl, *rt;
	int st;

	tbl = strdup(LINUX_TBL);
	rt = strdup(MADEUP_RT);
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_TESTMAP=data/testmap %s tests "
	    "-L tests/fixtures/ltproot -m %s 2>&1", bin,
	    tbl);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "tests -L fixture exits 0");
	is_str(out,
	    "abort01\ttgkill\tabort01\n"
	    "clone301\tclone3\tclone301\n"
	    "fcntl34_64\tfcntl\tfcntl34_64\n"
	    "mmap001\tmmap\tmmap001 -m 10000\n"
	    "signal01\trt_sigaction\tsignal01\n"
	    "write05\twrite\twrite05 -s 'two words' \"say \\\"hi\\\"\" "
	    "back\\ slash ''\n"
	    "kill12\tkill\tsh -c 'kill12 -i 5; kill13'\n"
	    "setuid01_16\tsetuid\tsh -c 'LTP_TIMEOUT_MUL=2 setuid01_16'\n"
	    "pipe09\tpipe\tsh -c 'pipeio -T pipeio_9 -c 5 | tee "
	    "/dev/null'\n"
	    "confstr01\t-\tconfstr01\n"
	    "msgctl01\tmsgctl\tmsgctl01\n",
	    "fixture listing: syscalls and commands, syscalls-ipc too");
	free(out);

	snprintf(cmd, sizeof(cmd), "LTPROOT=tests/fixtures/ltproot "
	    "LTPSCOPE_TESTMAP=data/testmap %s tests -m %s --format json "
	    "write05 kill12", bin, tbl);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "$LTPROOT and json exit 0");
	is_str(out, "[\n"
	    "  {\"tag\": \"write05\", \"syscalls\": [\"write\"], "
	    "\"command\": \"write05 -s 'two words' "
	    "\\\"say \\\\\\\"hi\\\\\\\"\\\" "
	    "back\\\\ slash ''\", \"argv\": [\"write05\", \"-s\", "
	    "\"two words\", \"say \\\"hi\\\"\", \"back slash\", \"\"], "
	    "\"shell\": false, \"file\": \"tests/fixtures/ltproot/runtest/"
	    "syscalls\", \"line\": 9},\n"
	    "  {\"tag\": \"kill12\", \"syscalls\": [\"kill\"], "
	    "\"command\": \"kill12 -i 5; kill13\", \"argv\": null, "
	    "\"shell\": true, \"file\": \"tests/fixtures/ltproot/runtest/"
	    "syscalls\", \"line\": 10}\n"
	    "]\n", "json with argv and shell flag, tags in given order");
	free(out);

	/* -f and --unmapped on our made-up runtest file. */
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_TESTMAP=data/testmap %s tests "
	    "-L tests/fixtures/ltproot -m %s -f %s", bin, tbl, rt);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "-f made-up runtest exits 0");
	has_str(out, "abort01\ttgkill\tabort01\n", "first test");
	has_str(out, "fork06\tfork\tfork_procs -n 1000\n", "fork06 line");
	has_str(out, "pread01_64\tpread64\tpread01_64\n", "pread via testmap");
	ok(strstr(out, "getpagesize01") != NULL && strstr(out, "write05 -s") ==
	    NULL, "-f replaces the default runtest files");
	is_int(count_lines(out), MADEUP_NTESTS, "%d lines", MADEUP_NTESTS);
	free(out);
	check_unmapped_sysconf(tbl, rt);
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_TESTMAP=data/testmap %s tests "
	    "-m %s -f %s --unmapped", bin, tbl, rt);
	out = tap_run(cmd, &st, 0);
	is_str(out, MADEUP_UNMAPPED, "--unmapped lists what maps to nothing");
	free(out);

	out = tap_cli(&st, 0, "tests -L tests/fixtures/ltproot "
	    "-m %s -p 'a[b' 2>&1",
	    tbl);
	is_int(st, 2, "bad pattern is a usage error");
	has_str(out, "ltpscope: -p:1:4: error: missing terminating ] ",
	    "pattern error names the column");
	free(out);

	out = tap_cli(&st, 0, "tests -L tests/fixtures/ltproot "
	    "-m %s -f tests/fixtures/runtest-bad 2>&1",
	    tbl);
	is_int(st, 1, "malformed runtest exits 1");
	has_str(out, "ltpscope: tests/fixtures/runtest-bad:3:14: error: "
	    "unterminated double quote in test 'quote01'\n", "file:line:col");
	has_str(out, "ltpscope: tests/fixtures/runtest-bad:4: error: test "
	    "'lonely' has no command\n", "file:line");
	has_str(out, "good01\t", "good lines still listed");
	free(out);

	out = tap_cli(&st, 0, "tests -L tests/fixtures/ltproot "
	    "-m %s nosuch01 2>&1",
	    tbl);
	is_int(st, 1, "unknown tag exits 1");
	has_str(out, "ltpscope: error: no test 'nosuch01'", "says which");
	free(out);

	out = tap_cli(&st, 0, "tests -L /nonexistent -m %s 2>&1", tbl);
	is_int(st, 1, "missing install exits 1");
	has_str(out, "/nonexistent/runtest/syscalls: error: cannot open",
	    "names the runtest file");
	free(out);

	out = tap_cli(&st, 0, "tests --format xml 2>&1");
	is_int(st, 2, "bad --format exits 2");
	has_str(out, "usage: ltpscope tests", "usage shown");
	free(out);
	out = tap_cli(&st, 0, "tests -Z 2>&1");
	is_int(st, 2, "unknown option exits 2");
	free(out);
	free(tbl);
	free(rt);
}

/* The same on LTP's real runtest file and Linux's real table. */
static void
test_cli_real(void)
{
	const char *bin = tap_bin();
	char cmd[2048], *out, *tbl, *rt;
	int st;

	/* tap_shared_path() returns a static buffer: keep copies. */
	tbl = strdup(tap_shared_path("linux/syscall_64.tbl"));
	rt = strdup(tap_shared_path("ltp/runtest-syscalls"));
	snprintf(cmd, sizeof(cmd), "LTPSCOPE_TESTMAP=data/testmap %s tests "
	    "-L tests/fixtures/ltproot -m %s -f %s", bin,
	    tbl, rt);
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "-f real runtest exits 0");
	has_str(out, "abort01\ttgkill\tabort01\n", "first test");
	has_str(out, "fork06\tfork\tfork_procs -n 1000\n", "fork06 line");
	has_str(out, "pread01_64\tpread64\tpread01_64\n", "pread via testmap");
	ok(strstr(out, "msgctl01") != NULL && strstr(out, "write05 -s") ==
	    NULL, "-f replaces the default runtest files");
	is_int(count_lines(out), 1525, "1525 lines");
	free(out);

	check_unmapped_sysconf(tbl, rt);

	snprintf(cmd, sizeof(cmd), "LTPSCOPE_TESTMAP=data/testmap %s tests "
	    "-m %s -f %s --unmapped | wc -l", bin,
	    tbl, rt);
	out = tap_run(cmd, &st, 0);
	is_int(atoi(out), 69, "--unmapped lists 69");
	free(out);

	free(tbl);
	free(rt);
}

int
main(void)
{
	struct names nm;
	struct testmap tm;
	struct diaglist dl;

	test_split();
	test_malformed();
	test_duplicates();
	test_match_limit();
	test_root();
	ok(names_load(&nm, LINUX_TBL) == 0, "syscall_64.tbl read");
	diag_init(&dl);
	testmap_init(&tm);
	is_int(testmap_load_file(&tm, "data/testmap", &dl), 0,
	    "data/testmap loads");
	is_int(dl.n, 0, "data/testmap is clean");
	if (dl.n > 0)
		tap_diag("%s", diag_text(&dl));
	test_testmap(&nm, &tm);
	test_madeup_file(&nm, &tm);
	test_cli();
	names_free(&nm);
	if (!tap_skip_shared("the real runtest file and Linux table")) {
		ok(names_load(&nm, tap_shared_path("linux/syscall_64.tbl")) ==
		    0, "real syscall_64.tbl read");
		test_real_file(&nm, &tm);
		test_cli_real();
		names_free(&nm);
	}
	testmap_free(&tm);
	diag_free(&dl);
	return tap_done();
}
