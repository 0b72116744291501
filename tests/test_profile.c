/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Program profiles: strace traces (every variant: -f, -y, -tt, -ttt,
 * -T, unfinished and resumed halves), strace -c tables and NetBSD kdump
 * output read into calls, counts and errors; malformed traces refused
 * with file:line; the store keeping them; the report against a
 * catalogue and results; and the CLI: profile import/show/list/delete,
 * run -s @NAME, export --weight.  Where strace is installed the test
 * traces real programs (ls, cat, python3 -c pass, sqlite3) and checks
 * the trace against strace's own count of the same run (-C).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/diag.h"
#include "ltpscope/json.h"
#include "ltpscope/profile.h"
#include "ltpscope/store.h"
#include "ltpscope/store_triage.h"

#include "fixture_store.h"
#include "tap.h"
#include "tmux.h"

#define FIX	"tests/fixtures/profile/"
#define MASTER	FIX "linux-amd64-syscalls.master"

static char	cwd[1024];
static char	root[1100];
static char	db[1200];

static int
load(struct profile *p, const char *path, struct diaglist *dl)
{
	profile_init(p);
	diag_init(dl);
	return profile_load_file(p, path, dl);
}

static unsigned long
count_of(const struct profile *p, const char *name)
{
	const struct profile_call *c = profile_find(p, name);

	return c != NULL ? c->count : 0;
}

static unsigned long
errs_of(const struct profile *p, const char *name, const char *err)
{
	const struct profile_call *c = profile_find(p, name);

	return c != NULL ? profile_call_errors(c, err) : 0;
}

static const char *
flags_of(const struct profile *p, const char *name)
{
	const struct profile_call *c = profile_find(p, name);

	return c != NULL ? c->flags : "(none)";
}

/*
 * What a trace must hold: call made n times or, with err, failing n
 * times with that errno ("" for errors a summary does not name).
 */
struct want_call {
	const char	*call;
	const char	*err;
	unsigned long	 n;
	const char	*what;
};

static void
check_calls(const struct profile *p, const struct want_call *w, size_t n)
{
	for (; n > 0; n--, w++)
		is_int((long long)(w->err != NULL ? errs_of(p, w->call,
		    w->err) : count_of(p, w->call)), (long long)w->n, "%s",
		    w->what);
}

#define CHECK_CALLS(p, w)	\
	check_calls((p), (w), sizeof(w) / sizeof((w)[0]))

static void
test_strace_variants(void)
{
	static const struct want_call variants[] = {
		{ "openat", NULL, 3, "openat made 3 times" },
		{ "openat", "EOPNOTSUPP", 1, "openat: EOPNOTSUPP once" },
		{ "statx", "ENOSYS", 1, "statx ENOSYS" },
		{ "read", NULL, 1, "read: unfinished + resumed is one call" },
		{ "set_robust_list", NULL, 1,
		    "set_robust_list resumed by pid" },
		{ "futex", NULL, 1,
		    "[pid N] futex, resumed with '= ? <unavailable>'" },
		{ "wait4", NULL, 1, "wait4 with '==' inside" },
		{ "exit_group", NULL, 1, "exit_group '= ?'" },
		{ "syscall_0x1c2", "ENOSYS", 1,
		    "a call strace has no name for" },
	}, plain[] = {
		{ "close", NULL, 2, "close twice" },
		{ "close", "EBADF", 1, "close EBADF" },
		{ "write", NULL, 1, "write: ' = ' and '(' inside its string" },
	};
	struct profile p;
	struct diaglist dl;

	is_int(load(&p, FIX "strace-variants.txt", &dl), 0,
	    "strace -f -y -tt: no errors");
	is_str(profile_format_name(p.format), "strace", "detected as strace");
	is_int((long long)p.ncalls, 14, "14 distinct calls");
	CHECK_CALLS(&p, variants);
	is_str(flags_of(&p, "openat"), "O_TMPFILE",
	    "openat: O_TMPFILE failed it, O_RDWR did not");
	is_str(flags_of(&p, "mmap"), "MAP_UNINITIALIZED",
	    "mmap: the flag only the failing call had");
	is_str(flags_of(&p, "statx"), "", "an ENOSYS is no flag's fault");
	is_int((long long)profile_find(&p, "read")->nerrors, 0,
	    "read: a ' = ' inside its string is not the result");
	is_int((long long)profile_find(&p, "pselect6")->nerrors, 0,
	    "ERESTARTNOHAND is no error: the call comes again");
	ok(profile_find(&p, "SIGCHLD") == NULL && profile_find(&p, "---") ==
	    NULL, "signals and exits are not calls");
	ok(profile_call_suspect(profile_find(&p, "mmap")) &&
	    !profile_call_suspect(profile_find(&p, "read")),
	    "EINVAL makes a suspect, no error does not");
	profile_free(&p);
	diag_free(&dl);

	is_int(load(&p, FIX "strace-plain.txt", &dl), 0,
	    "strace -ttt -T without -f: no errors");
	is_int((long long)p.ncalls, 4, "4 calls");
	CHECK_CALLS(&p, plain);
	profile_free(&p);
	diag_free(&dl);

	diag_init(&dl);	/* tap_first_diag() may be evaluated first */
	is_int(load(&p, FIX "strace-in.txt", &dl), 0,
	    "strace -i -n: no errors (%s)", tap_first_diag(&dl));
	ok(p.ncalls == 3 && count_of(&p, "brk") == 1,
	    "-i's addresses and -n's numbers are no calls");
	profile_free(&p);
	diag_free(&dl);

	diag_init(&dl);	/* tap_first_diag() may be evaluated first */
	is_int(load(&p, FIX "strace-yy.txt", &dl), 0,
	    "strace -yy: no errors (%s)", tap_first_diag(&dl));
	ok(count_of(&p, "read") == 1 && count_of(&p, "connect") == 1 &&
	    count_of(&p, "write") == 1 && count_of(&p, "restart_syscall") ==
	    1 && p.ncalls == 5, "a '(' in a -y path, '->' and '[]' in -yy's");
	profile_free(&p);
	diag_free(&dl);
}

static void
test_summary(void)
{
	static const struct want_call summary[] = {
		{ "openat", NULL, 34, "openat 34 calls" },
		{ "openat", "", 13, "errors without errno names" },
	};
	struct profile p;
	struct diaglist dl;

	is_int(load(&p, FIX "summary.txt", &dl), 0, "strace -c: no errors");
	is_str(profile_format_name(p.format), "summary", "detected as -c");
	is_int((long long)p.ncalls, 5, "5 calls, no 'total'");
	CHECK_CALLS(&p, summary);
	is_int((long long)profile_find(&p, "openat")->nerrors, 13,
	    "openat 13 errors");
	is_int((long long)profile_find(&p, "mmap")->nerrors, 0,
	    "a blank errors column is 0");
	ok(profile_call_suspect(profile_find(&p, "statx")) == 0,
	    "a summary names no errno: no suspect");
	profile_free(&p);
	diag_free(&dl);

	is_int(load(&p, FIX "summary-attached.txt", &dl), 0,
	    "strace's own note before the table is no error");
	is_int((long long)p.ncalls, 5, "... and the table is read");
	profile_free(&p);
	diag_free(&dl);
}

static void
test_kdump(void)
{
	static const struct want_call calls[] = {
		{ "write", NULL, 0, "the NetBSD shell's write does not count" },
		{ "execve", NULL, 1,
		    "execve: returned in the linux emulation" },
		{ "openat", NULL, 3, "openat 3 times" },
		{ "openat", "ENOENT", 1,
		    "'errno 2 No such file or directory' is ENOENT" },
		{ "openat", "EOPNOTSUPP", 1,
		    "'errno 45 Operation not supported' is EOPNOTSUPP" },
		{ "statx", "ENOSYS", 1, "'#332 (unimplemented statx)' is "
		    "statx; 'errno 78 Function not implemented' is ENOSYS" },
		{ "#334", "ENOSYS", 1,
		    "'#334 (unimplemented)' is #334, ENOSYS" },
		{ "#435", "ENOSYS", 1,
		    "'[435]', a number past the table, is #435, ENOSYS" },
		{ "getpid", NULL, 1, "a second thread with -T time stamps" },
		{ "sched_getaffinity", "errno 99", 1, "linux_sys_ prefix "
		    "dropped; an unknown message keeps its number" },
		{ "read", NULL, 1, "GIO data lines are no records" },
		{ "exit_group", NULL, 1, "exit_group without RET counts" },
	};
	struct profile p;
	struct diaglist dl;

	is_int(load(&p, FIX "kdump-linux.txt", &dl), 0, "kdump: no errors");
	is_str(profile_format_name(p.format), "kdump", "detected as kdump");
	is_str(p.emul, "linux", "emulation linux");
	CHECK_CALLS(&p, calls);
	is_int((long long)p.ncalls, 10, "10 calls");
	profile_free(&p);
	diag_free(&dl);
}

/* The state of call name in a report, "(none)" when not in it. */
static const char *
state_of(const struct profile_report *rp, const char *name)
{
	size_t i;

	for (i = 0; i < rp->nrows; i++)
		if (strcmp(rp->rows[i].call->name, name) == 0)
			return rp->rows[i].state;
	return "(none)";
}

/*
 * The shapes kdump.c prints (see profile_kdump.c): LIDs, ARG/ENV/FD/
 * MISC/MIB/CSW records, two return values, JUSTRETURN and RESTART,
 * "# filler" and "[N]" slots, "-1 unknown errno", the names of NetBSD's
 * table; -T time stamps with -n (hex values, errno numbers alone);
 * records without a LID, -R, "PID/LID", the linux32 emulation.
 */
static void
test_kdump_shapes(void)
{
	static const struct want_call shapes[] = {
		{ "pipe", NULL, 0,
		    "ktrace's own pipe (NetBSD, \"3, 4\") does not count" },
		{ "execve", NULL, 1,
		    "execve: JUSTRETURN after EMUL \"linux\"" },
		{ "arch_prctl", "EINVAL", 1,
		    "errno 22 Invalid argument: EINVAL" },
		{ "fstatat64", NULL, 1,
		    "fstatat64, as the table names newfstatat" },
		{ "__getcwd", NULL, 1, "__getcwd" },
		{ "statx", "ENOSYS", 1,
		    "errno 38 Function not implemented (Linux's number): "
		    "ENOSYS" },
		{ "#filler", "ENOSYS", 1,
		    "'# filler': a padding slot, #filler" },
		{ "#460", "errno 524", 1, "'[460] -1 unknown errno 524'" },
		{ "set_robust_list", NULL, 1,
		    "the second LID of the process is Linux too" },
		{ "futex", NULL, 1,
		    "futex: RESTART, then made again: one call" },
		{ "exit", NULL, 1,
		    "the thread's exit, never returned, counts" },
		{ "exit_group", NULL, 1, "exit_group" },
		{ "pipe2", NULL, 1, "pipe2" },
	}, tn[] = {
		{ "openat", "EOPNOTSUPP", 1,
		    "-n: errno 95 alone is Linux's EOPNOTSUPP" },
		{ "rseq", "ENOSYS", 1, "-n: errno 38 alone is Linux's ENOSYS" },
		{ "mmap", NULL, 1, "-n: a hex value" },
	}, old[] = {
		{ "getpid", NULL, 1, "getpid" },
		{ "#435", "ENOSYS", 1, "[435]" },
		{ "gettid", NULL, 1,
		    "PID/LID: a thread of the linux32 process" },
	};
	struct catalogue *cat = catalogue_new();
	struct profile p;
	struct profile_report rp;
	struct diaglist dl;
	size_t i;

	diag_init(&dl);	/* tap_first_diag() may be evaluated first */
	is_int(load(&p, FIX "kdump-netbsd.txt", &dl), 0,
	    "kdump shapes: no errors (%s)", tap_first_diag(&dl));
	is_str(profile_format_name(p.format), "kdump", "detected as kdump");
	CHECK_CALLS(&p, shapes);
	is_int((long long)p.ncalls, 23, "23 calls");

	(void)catalogue_load_file(cat, MASTER, NULL, &dl);
	(void)catalogue_load_names(cat, "data/syscalls", &dl);
	profile_report_build(&rp, &p, cat, "linux-amd64", NULL, 0, NULL, 0);
	for (i = 0; i < rp.nrows; i++)
		if (strcmp(rp.rows[i].call->name, "__msync13") == 0 ||
		    strcmp(rp.rows[i].call->name, "__getcwd") == 0)
			break;
	ok(i < rp.nrows && rp.rows[i].linux_name != NULL &&
	    rp.rows[i].implemented, "a NetBSD name of the table: found, "
	    "with Linux's name (%s)", i < rp.nrows && rp.rows[i].linux_name ?
	    rp.rows[i].linux_name : "none");
	is_str(profile_linux_name(cat, "linux-amd64", "__msync13"), "msync",
	    "__msync13 is Linux's msync");
	is_str(profile_linux_name(cat, "linux-amd64", "__getcwd"), "getcwd",
	    "__getcwd is Linux's getcwd");
	is_str(state_of(&rp, "__getcwd"), "implemented-native",
	    "__getcwd: implemented-native");
	is_str(state_of(&rp, "pipe2"), "absent", "pipe2: absent");
	is_str(state_of(&rp, "#filler"), "unknown", "#filler: unknown");
	profile_report_free(&rp);
	profile_free(&p);
	diag_free(&dl);

	diag_init(&dl);	/* tap_first_diag() may be evaluated first */
	is_int(load(&p, FIX "kdump-T-n.txt", &dl), 0,
	    "kdump -T -n: no errors (%s)", tap_first_diag(&dl));
	CHECK_CALLS(&p, tn);
	is_int((long long)p.ncalls, 5, "5 calls");
	profile_free(&p);
	diag_free(&dl);

	diag_init(&dl);	/* tap_first_diag() may be evaluated first */
	is_int(load(&p, FIX "kdump-R-old.txt", &dl), 0,
	    "kdump -R, no LID, PID/LID: no errors (%s)", tap_first_diag(&dl));
	is_str(p.emul, "linux32", "emulation linux32");
	CHECK_CALLS(&p, old);
	profile_free(&p);
	diag_free(&dl);
	catalogue_free(cat);
}

/* The messages of dl, one a line. */
static char *
all_diags(const struct diaglist *dl)
{
	static char buf[4096];
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < dl->n && used < sizeof(buf); i++) {
		(void)diag_format(&dl->v[i], buf + used, sizeof(buf) - used);
		used += strlen(buf + used);
		if (used + 1 < sizeof(buf)) {
			buf[used++] = '\n';
			buf[used] = '\0';
		}
	}
	return buf;
}

static void
test_malformed(void)
{
	struct profile p;
	struct diaglist dl;
	char *big, *s;
	size_t i, n;

	is_int(load(&p, FIX "strace-bad.txt", &dl), 2,
	    "bad strace: 2 errors");
	has_str(all_diags(&dl), FIX "strace-bad.txt:2:", "line 2 named");
	has_str(all_diags(&dl), FIX "strace-bad.txt:3:",
	    "line 3 (no closing bracket) named");
	profile_free(&p);
	diag_free(&dl);

	is_int(load(&p, FIX "kdump-bad.txt", &dl), 3, "bad kdump: 3 errors");
	has_str(all_diags(&dl), FIX "kdump-bad.txt:3: error: not a kdump "
	    "line", "garbage line named");
	has_str(all_diags(&dl), FIX "kdump-bad.txt:4: error: malformed RET",
	    "RET without value named");
	has_str(all_diags(&dl), FIX "kdump-bad.txt:5: error: malformed EMUL",
	    "EMUL without quotes named");
	profile_free(&p);
	diag_free(&dl);

	is_int(load(&p, FIX "summary-bad.txt", &dl), 1, "bad -c: 1 error");
	has_str(all_diags(&dl), FIX "summary-bad.txt:4:", "its line named");
	profile_free(&p);
	diag_free(&dl);

	/* Binary: an ELF header is no trace. */
	profile_init(&p);
	diag_init(&dl);
	ok(profile_parse(&p, "bin", "\177ELF\2\1\1\0\0\0\0\0", 12, &dl) > 0,
	    "binary data: an error");
	has_str(all_diags(&dl), "bin:1: error: not a trace",
	    "binary: says what it is not, at line 1");
	profile_free(&p);
	diag_free(&dl);

	/* A NUL inside a trace line. */
	profile_init(&p);
	diag_init(&dl);
	ok(profile_parse(&p, "nul", "1 getpid() = 1\n1 get\0pid() = 1\n", 31,
	    &dl) == 1, "a NUL in line 2: one error");
	has_str(all_diags(&dl), "nul:2: error: binary data", "line 2 named");
	profile_free(&p);
	diag_free(&dl);

	/* An empty file, and one of blank lines. */
	profile_init(&p);
	diag_init(&dl);
	ok(profile_parse(&p, "empty", "\n\n", 2, &dl) == 1 &&
	    dl.nerrors == 1, "an empty trace: an error");
	profile_free(&p);
	diag_free(&dl);

	/* A 4 MB line: one call, read whole. */
	n = 4u << 20;
	if ((big = malloc(n + 64)) == NULL)
		abort();
	s = big + sprintf(big, "1 write(1, \"");
	memset(s, 'x', n);
	strcpy(s + n, "\"..., 4194304) = 4194304\n");
	profile_init(&p);
	diag_init(&dl);
	ok(profile_parse(&p, "huge", big, strlen(big), &dl) == 0 &&
	    count_of(&p, "write") == 1, "a 4 MB line is one write");
	profile_free(&p);
	diag_free(&dl);

	/* Many garbage lines: errors capped, all counted. */
	s = big;
	for (i = 0; i < 1000; i++)
		s += sprintf(s, "1 getpid() = 1\n$$$ %zu\n", i);
	profile_init(&p);
	diag_init(&dl);
	is_int(profile_parse(&p, "junk", big, strlen(big), &dl), 1000,
	    "1000 garbage lines: 1000 errors");
	is_int((long long)dl.n, PROFILE_MAX_ERRORS + 1,
	    "%d reported, then 'and N more'", PROFILE_MAX_ERRORS);
	has_str(all_diags(&dl), "and 980 more errors", "the rest counted");
	profile_free(&p);
	diag_free(&dl);

	/* Many distinct names: hashed, all kept. */
	s = big;
	for (i = 0; i < 50000; i++)
		s += sprintf(s, "call%zu() = 0\n", i);
	profile_init(&p);
	diag_init(&dl);
	ok(profile_parse(&p, "many", big, strlen(big), &dl) == 0 &&
	    p.ncalls == 50000 && count_of(&p, "call49999") == 1,
	    "50000 distinct calls");
	profile_free(&p);
	diag_free(&dl);
	free(big);
}

/*
 * Every fixture cut at every length and with bytes changed, each in a
 * buffer of exactly its size (no NUL after it): the parsers must never
 * read past the end or crash (the .asan build of this test checks).
 */
static void
test_mangled(void)
{
	static const char *const files[] = { "strace-variants.txt",
	    "strace-plain.txt", "strace-yy.txt", "summary.txt",
	    "kdump-linux.txt", "kdump-bad.txt" };
	static const char junk[] = "(\"<>[]{}=\\ \t\n\0-1?E";
	struct profile p;
	struct diaglist dl;
	char path[256], *buf, *copy;
	size_t i, len, cut, k, runs = 0;
	unsigned long seed = 12345;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), FIX "%s", files[i]);
		if ((buf = tap_slurp(path, &len)) == NULL)
			continue;
		for (cut = 0; cut <= len; cut += 3, runs++) {
			copy = malloc(cut + 1);
			memcpy(copy, buf, cut);
			for (k = 0; k < 4 && cut > 0; k++) {
				seed = seed * 1103515245 + 12345;
				copy[(seed >> 8) % cut] =
				    junk[(seed >> 20) % (sizeof(junk) - 1)];
			}
			profile_init(&p);
			diag_init(&dl);
			(void)profile_parse(&p, path, copy, cut, &dl);
			profile_free(&p);
			diag_free(&dl);
			free(copy);
		}
		free(buf);
	}
	ok(runs > 500, "%zu cut and mangled traces parsed without a crash",
	    runs);
}

static void
test_store(void)
{
	struct profile p, q;
	struct diaglist dl;
	struct store *st;
	char path[1300], **names;
	size_t n;

	snprintf(path, sizeof(path), "%s/core.db", tap_tmpdir());
	diag_init(&dl);
	if (store_open(&st, path, STORE_CREATE, &dl) != STORE_OK) {
		ok(0, "store opens: %s", tap_first_diag(&dl));
		return;
	}
	is_int(store_schema_version(st), STORE_SCHEMA_VERSION,
	    "schema version");
	(void)load(&p, FIX "strace-variants.txt", &dl);
	p.name = strdup("prog");
	is_int(store_profile_put(st, &p, &dl), STORE_OK, "stored");
	is_int(store_profile_get(st, "prog", &q, &dl), STORE_OK, "read back");
	is_int((long long)q.ncalls, 14, "14 calls back");
	is_int((long long)count_of(&q, "openat"), 3, "openat 3 back");
	is_int((long long)errs_of(&q, "openat", "EOPNOTSUPP"), 1,
	    "its error back");
	is_str(flags_of(&q, "openat"), "O_TMPFILE", "its flags back");
	is_str(profile_format_name(q.format), "strace", "format back");
	ok(q.imported > 0, "import time set");
	profile_free(&q);
	/* Again under the same name: replaced, not added to. */
	is_int(store_profile_put(st, &p, &dl), STORE_OK, "stored again");
	(void)store_profile_get(st, "prog", &q, &dl);
	is_int((long long)count_of(&q, "openat"), 3, "replaced, not summed");
	profile_free(&q);
	free(p.name);
	p.name = strdup("no/such name");
	is_int(store_profile_put(st, &p, &dl), STORE_EINVAL,
	    "a name with '/' and a blank is refused");
	profile_free(&p);
	is_int(store_profile_names(st, &names, &n, &dl), STORE_OK, "listed");
	ok(n == 1 && strcmp(names[0], "prog") == 0, "one profile, prog");
	for (; n > 0; n--)
		free(names[n - 1]);
	free(names);
	is_int(store_profile_get(st, "nosuch", &q, &dl), STORE_ENOTFOUND,
	    "no such profile");
	is_int(store_profile_delete(st, "prog", &dl), STORE_OK, "deleted");
	is_int(store_profile_get(st, "prog", &q, &dl), STORE_ENOTFOUND,
	    "gone");
	store_close(st);
	diag_free(&dl);
}

static void
test_report(void)
{
	struct catalogue *cat = catalogue_new();
	struct profile p;
	struct profile_report rp;
	struct diaglist dl;
	struct store_result res[3];
	struct triage_tag tag;

	(void)load(&p, FIX "strace-variants.txt", &dl);
	is_int(catalogue_load_file(cat, MASTER, NULL, &dl), 0,
	    "fixture master loads");
	memset(res, 0, sizeof(res));
	res[0].tag = (char *)"openat01";
	res[0].syscall = (char *)"openat";
	res[0].status = TS_FAIL;
	res[1].tag = (char *)"openat02";
	res[1].syscall = (char *)"openat";
	res[1].status = TS_PASS;
	res[2].tag = (char *)"mmap01";
	res[2].syscall = (char *)"";	/* by its name */
	res[2].status = TS_PASS;
	memset(&tag, 0, sizeof(tag));
	tag.tag = (char *)"openat01";
	tag.category = (char *)"missing-flag";
	profile_report_build(&rp, &p, cat, "linux-amd64", res, 3, &tag, 1);
	is_str(rp.verdict, "2 calls unimplemented, 1 unknown to the "
	    "catalogue, 1 with failing tests, 2 flags unsupported: "
	    "O_TMPFILE in openat; MAP_UNINITIALIZED in mmap", "the verdict");
	is_str(rp.rows[0].call->name, "openat",
	    "suspects first, the most called first");
	is_str(rp.rows[0].state, "implemented-compat", "openat's state");
	ok(rp.rows[0].ntests == 2 && rp.rows[0].nbad == 1,
	    "openat: 2 tests, 1 failing");
	is_str(rp.rows[0].tags != NULL ? rp.rows[0].tags : "", "missing-flag",
	    "openat: its failing test's tag");
	is_str(rp.rows[1].call->name, "mmap", "then mmap (EINVAL)");
	ok(rp.rows[1].ntests == 1, "mmap01 found by its name");
	is_str(rp.rows[2].call->name, "statx", "then statx (ENOSYS)");
	is_str(rp.rows[2].state, "unimplemented", "statx unimplemented");
	is_str(rp.rows[3].call->name, "syscall_0x1c2", "then the unknown");
	is_str(rp.rows[3].state, "unknown", "... as unknown");
	is_str(rp.rows[4].call->name, "clone3",
	    "then unimplemented without errors in the trace");
	profile_report_free(&rp);

	profile_report_build(&rp, &p, NULL, NULL, NULL, 0, NULL, 0);
	is_str(rp.verdict, "2 flags unsupported: O_TMPFILE in openat; "
	    "MAP_UNINITIALIZED in mmap", "without a catalogue: the trace only");
	profile_report_free(&rp);
	profile_free(&p);
	diag_free(&dl);
	catalogue_free(cat);
}

/*
 * A call Linux has that compat_linux's table lacks is absent (not
 * implemented at all), whether Linux's names come from ltpscope's names
 * file or from a Linux table; only a call Linux does not have either
 * stays unknown.
 */
static void
test_absent(void)
{
	struct catalogue *cat = catalogue_new();
	struct profile p;
	struct profile_report rp;
	struct diaglist dl;

	(void)load(&p, FIX "strace-absent.txt", &dl);
	(void)catalogue_load_file(cat, MASTER, NULL, &dl);
	profile_report_build(&rp, &p, cat, "linux-amd64", NULL, 0, NULL, 0);
	is_str(rp.verdict, "1 call unimplemented, 3 unknown to the catalogue",
	    "the master alone: Linux's calls it lacks are not known");
	profile_report_free(&rp);

	is_int(catalogue_load_names(cat, "data/syscalls", &dl), 1,
	    "the names file of x86_64 loads");
	profile_report_build(&rp, &p, cat, "linux-amd64", NULL, 0, NULL, 0);
	is_str(state_of(&rp, "memfd_create"), "absent",
	    "names file: memfd_create, not in the table, absent");
	is_str(state_of(&rp, "landlock_create_ruleset"), "absent",
	    "names file: landlock_create_ruleset absent");
	is_str(state_of(&rp, "frobnicate"), "unknown",
	    "a call Linux does not have: unknown");
	is_str(state_of(&rp, "statx"), "unimplemented", "statx: UNIMPL");
	is_str(rp.verdict, "1 call unimplemented, 2 absent from the table, "
	    "1 unknown to the catalogue", "the verdict says absent");
	ok(strcmp(rp.rows[0].call->name, "frobnicate") == 0 &&
	    strcmp(rp.rows[1].call->name, "landlock_create_ruleset") == 0 &&
	    strcmp(rp.rows[2].call->name, "statx") == 0,
	    "the ENOSYS of the trace first, absent or not");
	ok(rp.rows[3].call->name[0] == 'm' && !rp.rows[3].implemented,
	    "memfd_create, absent, before the implemented calls");
	profile_report_free(&rp);
	catalogue_free(cat);

	cat = catalogue_new();
	(void)catalogue_load_file(cat, MASTER, NULL, &dl);
	is_int(catalogue_load_file(cat, FIX "syscall_64-madeup.tbl", NULL,
	    &dl), 0, "a made-up Linux table loads");
	profile_report_build(&rp, &p, cat, "linux-amd64", NULL, 0, NULL, 0);
	is_str(state_of(&rp, "memfd_create"), "absent",
	    "Linux table: memfd_create absent");
	is_str(state_of(&rp, "landlock_create_ruleset"), "unknown",
	    "a call that table lacks: unknown");
	profile_report_free(&rp);
	catalogue_free(cat);
	profile_free(&p);
	diag_free(&dl);
}

/* The first line of s, for a test's description. */
static const char *
first_line(const char *s)
{
	static char buf[256];

	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(s, "\n"), s);
	return buf;
}

/* The line of out that starts with word (then a blank), or "". */
static const char *
line_of(const char *out, const char *word)
{
	static char buf[512];
	const char *p;
	size_t n = strlen(word), k;

	for (p = out; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL)
		if (strncmp(p, word, n) == 0 && p[n] == ' ') {
			k = strcspn(p, "\n");
			snprintf(buf, sizeof(buf), "%.*s", (int)k, p);
			return buf;
		}
	return "";
}

/* profile import of the fixture file into dbpath as name: its status. */
static int
import_fixture(const char *dbpath, const char *name, const char *file)
{
	struct tap_cmd r = TAP_CMD_INIT;

	(void)tap_cmd(&r, "profile import -d %s --name %s %s/" FIX "%s",
	    dbpath, name, cwd, file);
	tap_cmd_free(&r);
	return r.status;
}

static void
test_cli(void)
{
	struct tap_cmd r = TAP_CMD_INIT;

	tap_cmd(&r, "profile import -d %s --name prog %s/" FIX
	    "strace-variants.txt", db, cwd);
	is_int(r.status, 0, "profile import: exit 0 (%s)", first_line(r.err));
	has_str(r.out, "profile prog: 14 calls", "says what it stored");

	tap_cmd(&r, "-d %s profile import %s/" FIX "kdump-linux.txt", db, cwd);
	is_int(r.status, 0, "-d before: import, named after the file (%s)",
	    first_line(r.err));
	has_str(r.out, "profile kdump-linux: 10 calls", "named kdump-linux");
	has_str(r.out, "emulation linux", "its emulation said");

	tap_cmd(&r, "profile import -d %s %s/" FIX "strace-bad.txt", db, cwd);
	is_int(r.status, 1, "a malformed trace: exit 1");
	has_str(r.err, "strace-bad.txt:2: error: not a strace line",
	    "file:line on stderr");

	is_int(import_fixture(db, "../x", "strace-plain.txt"), 2,
	    "a bad name: exit 2");

	tap_cmd(&r, "profile show -d %s -m %s/" MASTER " prog", db, cwd);
	is_int(r.status, 0, "profile show: exit 0 (%s)", first_line(r.err));
	has_str(r.out, "verdict: 2 calls unimplemented, 1 absent from the "
	    "table, 2 flags unsupported: O_TMPFILE in openat; "
	    "MAP_UNINITIALIZED in mmap", "the verdict line");
	has_str(line_of(r.out, "syscall_0x1c2"), "syscall_0x1c2 "
	    "(set_mempolicy_home_node)", "slot 450: Linux's name for it");
	has_str(line_of(r.out, "syscall_0x1c2"), " absent ",
	    "slot 450, not in the table: absent");
	has_str(line_of(r.out, "openat"), "EOPNOTSUPP x1",
	    "openat's row: its error");
	has_str(line_of(r.out, "openat"), "implemented-compat",
	    "openat's row: its state");
	has_str(line_of(r.out, "openat"), "flags failed: O_TMPFILE",
	    "openat's row: the flag");
	has_str(line_of(r.out, "statx"), "unimplemented", "statx's row");
	ok(strstr(r.out, "\nopenat ") != NULL && strstr(r.out, "\nopenat ") <
	    strstr(r.out, "\nbrk "), "suspects come before the rest");

	tap_cmd(&r, "profile show -d %s -m %s/" MASTER " --format json prog",
	    db, cwd);
	{
		struct json *j = NULL;
		struct diaglist dl;
		const struct json *c;

		diag_init(&dl);
		ok(r.status == 0 && json_parse(&j, r.out, strlen(r.out),
		    "show", NULL, &dl) == 0, "--format json parses (%s)",
		    tap_first_diag(&dl));
		c = json_at(json_get(j, "calls"), 0);
		is_str(json_string(json_get(c, "name"), ""), "openat",
		    "json: openat first");
		is_str(json_string(json_get(c, "state"), ""),
		    "implemented-compat", "json: its state");
		is_int((long long)json_number(json_get(json_get(c, "errors"),
		    "EOPNOTSUPP"), -1), 1, "json: its errors");
		is_str(json_string(json_get(j, "abi"), ""), "linux-amd64",
		    "json: the ABI");
		json_free(j);
		diag_free(&dl);
	}

	tap_cmd(&r, "profile show -d %s -m %s/" MASTER " nosuch", db, cwd);
	is_int(r.status, 1, "show of no such profile: exit 1");
	has_str(r.err, "no profile named 'nosuch'", "says so");

	tap_cmd(&r, "profile list -d %s", db);
	is_int(r.status, 0, "profile list: exit 0");
	has_str(line_of(r.out, "prog"), "14 calls", "prog listed");
	has_str(line_of(r.out, "kdump-linux"), "kdump", "kdump-linux listed");

	tap_cmd(&r, "profile show -d %s -m %s/" MASTER " kdump-linux", db,
	    cwd);
	is_int(r.status, 0, "show of the kdump profile: exit 0");
	has_str(line_of(r.out, "#334"), "#334 (rseq)",
	    "kdump's #334: slot 334 of the table, rseq");
	has_str(line_of(r.out, "#334"), "unimplemented", "... unimplemented");
	has_str(line_of(r.out, "#435"), "#435 (clone3)",
	    "kdump's [435]: slot 435, clone3");
	has_str(r.out, "verdict: 3 calls unimplemented, 1 absent from the "
	    "table\n", "the kdump profile's verdict");
	has_str(line_of(r.out, "sched_getaffinity"), " absent ",
	    "sched_getaffinity, not in the table: absent");

	tap_cmd(&r, "profile delete -d %s kdump-linux", db);
	is_int(r.status, 0, "profile delete: exit 0");
	tap_cmd(&r, "profile list -d %s", db);
	is_str(line_of(r.out, "kdump-linux"), "", "deleted");
	tap_cmd_free(&r);
}

/* Writes runtest/syscalls of the fake LTP: one test per name. */
static void
write_runtest(const char *const *tags)
{
	char path[1300];
	FILE *fp;
	size_t i;

	snprintf(path, sizeof(path), "%s/runtest/syscalls", root);
	if ((fp = fopen(path, "w")) == NULL)
		abort();
	for (i = 0; tags[i] != NULL; i++)
		fprintf(fp, "%s pass\n", tags[i]);
	fclose(fp);
}

static void
test_run_select(void)
{
	static const char *const tags[] = { "openat01", "statx01", "mmap01",
	    "fork01", "getpid01", NULL };
	static const char *const kd_tags[] = { "getcwd01", "msync01",
	    "statx01", "fork01", NULL };
	struct tap_cmd r = TAP_CMD_INIT;
	char kdb[1200];

	write_runtest(tags);
	tap_cmd(&r, "run -d %s -L %s -m %s/" MASTER " -s @prog --dry-run", db,
	    root, cwd);
	is_int(r.status, 0, "run -s @prog --dry-run: exit 0 (%s)",
	    first_line(r.err));
	has_str(r.out, "openat01", "openat's test selected");
	has_str(r.out, "statx01", "statx's test selected");
	has_str(r.out, "mmap01", "mmap's test selected");
	ok(strstr(r.out, "fork01") == NULL && strstr(r.out, "getpid01") ==
	    NULL, "tests of calls prog never made are not");
	has_str(r.err, "warning: no test exercises 11 of the syscalls: brk, "
	    "clone3, execve, exit_group, futex, pselect6, read, rt_sigreturn, "
	    "set_robust_list, set_mempolicy_home_node, wait4\n",
	    "the calls without a test: one warning names them all, strace's "
	    "syscall_0x1c2 by its Linux name");
	ok(strstr(r.err, "exercises syscall") == NULL, "not one line each");

	tap_cmd(&r, "run -d %s -L %s -m %s/" MASTER " -s getpid,@prog "
	    "--dry-run", db, root, cwd);
	ok(r.status == 0 && strstr(r.out, "getpid01") != NULL &&
	    strstr(r.out, "openat01") != NULL, "-s getpid,@prog: both");

	/*
	 * kdump prints the table's names and slot numbers: "__getcwd",
	 * "__msync13", "#332".  The tests are LTP's, named for Linux.
	 */
	write_runtest(kd_tags);
	snprintf(kdb, sizeof(kdb), "%s/kdump.db", tap_tmpdir());
	tap_cmd(&r, "profile import -d %s --name hello %s/" FIX
	    "kdump-netbsd.txt", kdb, cwd);
	is_int(r.status, 0, "kdump profile imported (%s)", first_line(r.err));
	tap_cmd(&r, "run -d %s -L %s -m %s/" MASTER " -s @hello --dry-run",
	    kdb, root, cwd);
	is_int(r.status, 0, "run -s @hello --dry-run: exit 0 (%s)",
	    first_line(r.err));
	has_str(r.out, "getcwd01", "kdump's __getcwd selects getcwd's test");
	has_str(r.out, "msync01", "... __msync13 msync's");
	has_str(r.out, "statx01", "... #332 statx's");
	ok(strstr(r.out, "fork01") == NULL,
	    "... and not a call it never made");
	ok(strstr(r.err, "__getcwd") == NULL && strstr(r.err, "#332") == NULL,
	    "no warning about a table name or a slot number");

	tap_cmd(&r, "run -d %s -L %s -m %s/" MASTER " -s @nosuch --dry-run",
	    db, root, cwd);
	is_int(r.status, 1, "-s @nosuch: exit 1");
	has_str(r.err, "no profile named 'nosuch'", "says so");
	tap_cmd_free(&r);
}

static void
add_result(struct store *st, int64_t run, const char *tag,
    const char *syscall, enum test_status status, int64_t seq)
{
	struct store_result r;
	struct diaglist dl;
	int64_t id;

	memset(&r, 0, sizeof(r));
	r.tag = (char *)tag;
	r.syscall = (char *)syscall;
	r.status = status;
	diag_init(&dl);
	if (store_test_start(st, run, tag, syscall, seq, &id, &dl) !=
	    STORE_OK || store_test_finish(st, id, &r, "", 0, &dl) != STORE_OK)
		tap_diag("store: %s", tap_first_diag(&dl));
	diag_free(&dl);
}

/* A made-up run of amd64 with failures in db2. */
static void
make_run(const char *path)
{
	struct store_run run;
	struct diaglist dl;
	struct store *st;

	diag_init(&dl);
	if (store_open(&st, path, STORE_CREATE, &dl) != STORE_OK) {
		tap_diag("store: %s", tap_first_diag(&dl));
		diag_free(&dl);
		return;
	}
	fixture_run_init(&run);
	run.uname = (char *)"NetBSD h 11.0 GENERIC amd64";
	if (store_run_begin(st, &run, NULL, 0, &dl) != STORE_OK)
		tap_diag("run_begin: %s", tap_first_diag(&dl));
	add_result(st, run.id, "openat01", "openat", TS_FAIL, 1);
	add_result(st, run.id, "getpid01", "getpid", TS_FAIL, 2);
	add_result(st, run.id, "mmap01", "mmap", TS_PASS, 3);
	add_result(st, run.id, "close01", "close", TS_FAIL, 4);
	add_result(st, run.id, "exit_group01", "exit_group", TS_FAIL, 5);
	add_result(st, run.id, "fork01", "fork", TS_FAIL, 6);
	(void)store_run_end(st, run.id, RUN_FINISHED, &dl);
	store_close(st);
	diag_free(&dl);
}

/* The names of the JSON shopping list's syscalls, blank separated. */
static const char *
json_names(const char *out)
{
	static char buf[1024];
	struct json *j = NULL;
	struct diaglist dl;
	const struct json *v;
	size_t i, used = 0;

	buf[0] = '\0';
	diag_init(&dl);
	if (json_parse(&j, out, strlen(out), "export", NULL, &dl) == 0) {
		v = json_get(j, "syscalls");
		for (i = 0; i < json_count(v) && used < sizeof(buf); i++)
			used += (size_t)snprintf(buf + used, sizeof(buf) -
			    used, "%s%s", i > 0 ? " " : "",
			    json_string(json_get(json_at(v, i), "name"), ""));
	}
	json_free(j);
	diag_free(&dl);
	return buf;
}

static void
test_export_weight(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char db2[1300];
	int st;

	snprintf(db2, sizeof(db2), "%s/weight.db", tap_tmpdir());
	make_run(db2);
	st = import_fixture(db2, "prog", "strace-variants.txt");
	st |= import_fixture(db2, "plain", "strace-plain.txt");
	is_int(st, 0, "two profiles imported");

	tap_cmd(&r, "export -d %s -m %s/" MASTER " --format json --weight "
	    "@prog,@plain", db2, cwd);
	is_int(r.status, 0, "export --weight: exit 0 (%s)", first_line(r.err));
	is_str(json_names(r.out), "exit_group openat close getpid clone3 "
	    "set_mempolicy_home_node statx fork",
	    "by profiles, then calls, then priority; unimplemented needed "
	    "calls join; fork (needed by none) last");
	has_str(r.out, "\"profiles\": 2, \"profile_calls\": 2, "
	    "\"needed_by\": \"prog,plain\"", "exit_group: both profiles");

	tap_cmd(&r, "export -d %s -m %s/" MASTER " --format json --weight "
	    "plain", db2, cwd);
	{
		char names[1024];

		snprintf(names, sizeof(names), "%s", json_names(r.out));
		ok(r.status == 0 && strncmp(names, "close ", 6) == 0 &&
		    strstr(names, "openat") > strstr(names, "getpid") &&
		    strstr(names, "openat") > strstr(names, "exit_group"),
		    "--weight plain: close (2 calls), then getpid and "
		    "exit_group, then the rest (%s)", names);
	}

	tap_cmd(&r, "export -d %s -m %s/" MASTER " --format csv --weight "
	    "@prog", db2, cwd);
	is_int(r.status, 0, "export --weight csv: exit 0");
	has_str(r.out, "\"needed_by\",\"ltp_results\"\r\n",
	    "csv: the weight columns");
	has_str(r.out, "\"0\",\"set_mempolicy_home_node\",\"absent\",",
	    "csv: slot 450 (syscall_0x1c2 in the trace), by its name");
	has_str(r.out, "\"0\",\"statx\",\"unimplemented\",\"\",\"\"",
	    "csv: statx, needed, a row without a test");

	tap_cmd(&r, "export -d %s -m %s/" MASTER " --format json --weight "
	    "@nosuch", db2, cwd);
	is_int(r.status, 1, "--weight @nosuch: exit 1");
	has_str(r.err, "no profile named 'nosuch'", "says so");
	tap_cmd_free(&r);
}

/* How many times needle occurs in hay. */
static size_t
count_str(const char *hay, const char *needle)
{
	size_t n = 0;

	for (; (hay = strstr(hay, needle)) != NULL; hay += strlen(needle))
		n++;
	return n;
}

/*
 * Every row of the HTML report's per-syscall table has as many cells
 * as its heading: what the page's sorting needs.
 */
static int
html_rows_even(const char *buf)
{
	const char *t = strstr(buf, "<table id=\"syscalls\""), *end, *r, *e;
	char row[4096];
	size_t heads, n = 0;

	if (t == NULL || (end = strstr(t, "</table>")) == NULL ||
	    (e = strstr(t, "</tr>")) == NULL)
		return 0;
	snprintf(row, sizeof(row), "%.*s", (int)(e - t), t);
	heads = count_str(row, "<th>") + count_str(row, "<th ");
	for (r = strstr(e, "<tr>"); r != NULL && r < end;
	    r = strstr(r + 4, "<tr>")) {
		e = strstr(r, "</tr>");
		snprintf(row, sizeof(row), "%.*s", (int)(e - r), r);
		if (count_str(row, "<td") != heads)
			return 0;
		n++;
	}
	return n > 0;
}

/*
 * export --weight on a store with profiles and no run: the calls the
 * profiles need that the catalogue says are not implemented (absent
 * ones too), weighed, each with no LTP results yet; profile show says
 * absent.
 */
static void
test_absent_cli(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char db3[1300], path[1300], *buf;
	FILE *fp;
	int st;

	snprintf(db3, sizeof(db3), "%s/fresh.db", tap_tmpdir());
	st = import_fixture(db3, "sandbox", "strace-absent.txt");
	st |= import_fixture(db3, "plain", "strace-plain.txt");
	is_int(st, 0, "fresh store: two profiles, no run");

	tap_cmd(&r, "profile show -d %s -m %s/" MASTER " sandbox", db3, cwd);
	is_int(r.status, 0, "show sandbox: exit 0 (%s)", first_line(r.err));
	has_str(line_of(r.out, "memfd_create"), " absent ",
	    "memfd_create's row: absent");
	has_str(line_of(r.out, "frobnicate"), " unknown ",
	    "frobnicate's row: unknown");
	has_str(r.out, "verdict: 1 call unimplemented, 2 absent from the "
	    "table, 1 unknown to the catalogue\n", "the verdict");
	{
		/* A name wider than the column widens it for every row. */
		char head[512];
		const char *row, *c;
		size_t hend;

		snprintf(head, sizeof(head), "%s", line_of(r.out, "CALL"));
		c = strstr(head, "COUNT");
		hend = c != NULL ? (size_t)(c - head) + 5 : 0;
		row = line_of(r.out, "landlock_create_ruleset");
		for (c = row + strlen("landlock_create_ruleset"); *c == ' ';
		    c++)
			continue;
		while (*c >= '0' && *c <= '9')
			c++;
		is_int((long long)(c - row), (long long)hend, "a long call "
		    "name: its count still ends under COUNT");
		c = strstr(head, "STATE");
		ok(c != NULL && strncmp(line_of(r.out, "memfd_create") +
		    (c - head), "absent", 6) == 0, "... and its state under "
		    "STATE in the other rows");
	}

	tap_cmd(&r, "export -d %s -m %s/" MASTER " --format json --weight "
	    "@sandbox,@plain", db3, cwd);
	is_int(r.status, 0, "export --weight with no run: exit 0 (%s)",
	    first_line(r.err));
	is_str(json_names(r.out), "memfd_create landlock_create_ruleset statx",
	    "from the catalogue: the needed calls not implemented, the "
	    "most called first; the unknown left out");
	has_str(tap_line_of(r.out, "\"name\": \"memfd_create\""),
	    "\"catalogue\": \"absent\", \"profiles\": 1, "
	    "\"profile_calls\": 2, \"needed_by\": \"sandbox\", "
	    "\"ltp_results\": 0", "memfd_create: absent, 2 calls, no results");
	has_str(r.out, "{\"run\": {\"id\": null, ", "json: no run");
	has_str(r.out, "\"arch\": \"amd64\"", "json: the catalogue's arch");

	tap_cmd(&r, "export -d %s -m %s/" MASTER " --format md --weight "
	    "@sandbox", db3, cwd);
	is_int(r.status, 0, "md with no run: exit 0");
	has_str(r.out, "# Shopping list: no run of amd64 yet\n",
	    "md: says so");
	has_str(r.out, "catalogue: absent, needed by 1 profile (sandbox), "
	    "called 2 times, no LTP results yet\n", "md: memfd_create's line");
	has_str(r.out, "called 1 time, no LTP results yet\n",
	    "md: a call made once is called 1 time");

	tap_cmd(&r, "export -d %s -m %s/" MASTER " --format csv --weight "
	    "@sandbox", db3, cwd);
	has_str(r.out, "\"needed_by\",\"ltp_results\"\r\n",
	    "csv: an ltp_results column");
	has_str(r.out, "\"memfd_create\",\"absent\",\"\"",
	    "csv: memfd_create's row");

	tap_cmd(&r, "export -d %s -m %s/" MASTER " --weight @sandbox", db3,
	    cwd);
	ok(r.status == 0 && strstr(r.out, "\"0\",\"memfd_create\"") != NULL,
	    "no --format: csv too");

	tap_cmd(&r, "export -d %s -m %s/" MASTER " --format json", db3, cwd);
	is_int(r.status, 1, "without --weight and no run: exit 1");
	has_str(r.err, "no runs in the database", "says so");

	snprintf(path, sizeof(path), "%s/weight.html", tap_tmpdir());
	tap_cmd(&r, "export -d %s -m %s/" MASTER " --weight @sandbox,@plain "
	    "-o %s", db3, cwd, path);
	is_int(r.status, 0, "html with no run: exit 0 (%s)",
	    first_line(r.err));
	tap_cmd_free(&r);
	if ((buf = tap_slurp(path, NULL)) == NULL)
		buf = strdup("");
	has_str(buf, "<h1>ltpscope report: no run yet</h1>\n<p>amd64: 3 calls "
	    "the profiles need are not implemented, by the catalogue; no LTP "
	    "results yet.</p>", "html: no run, what it holds instead");
	has_str(buf, "<th class=\"weight\">programs needing it</th><th "
	    "class=\"weight\">calls</th>", "html: the weight headings");
	has_str(tap_line_of(buf, "<tr><td>memfd_create</td>"),
	    "<td data-v=\"0\" class=\"noresults\">no LTP results yet</td>",
	    "html: memfd_create has no LTP results yet");
	has_str(tap_line_of(buf, "<tr><td>memfd_create</td>"),
	    "<td data-v=\"1\" class=\"weight\">1</td><td data-v=\"2\" "
	    "class=\"weight\">2</td>",
	    "html: 1 program, 2 calls, sortable by data-v");
	ok(html_rows_even(buf), "html: every row as many cells as headings");
	ok(strstr(buf, "<script src") == NULL && strstr(buf, "<link") ==
	    NULL && strstr(buf, "url(") == NULL, "html: still one file");
	/* The page's own sorting, clicked on "calls" in a browser. */
	if ((fp = fopen(path, "a")) != NULL) {
		fputs("<script>document.querySelectorAll('#syscalls th')[6]"
		    ".click();document.querySelectorAll('#syscalls th')[6]"
		    ".click();</script>\n", fp);
		fclose(fp);
	}
	free(buf);
	if ((buf = tap_chromium("--dump-dom", path)) != NULL) {
		has_str(buf, "class=\"weight\" aria-sort=\"descending\">calls",
		    "chromium: calls sorted, most first");
		ok(strstr(buf, "<td>memfd_create</td>") != NULL &&
		    strstr(buf, "<td>memfd_create</td>") <
		    strstr(buf, "<td>statx</td>"),
		    "chromium: memfd_create (2 calls) above statx (1)");
		free(buf);
	} else
		tap_diag("chromium not on PATH: HTML checked structurally");
}

/*
 * ../shared: i386's compat_linux table stops before Linux's landlock
 * calls (absent there); amd64's lists them UNIMPL.
 */
static void
test_absent_real(void)
{
	struct tap_cmd r = TAP_CMD_INIT;
	char m32[1300], m64[1300];
	int st;

	if (tap_skip_shared("absent calls against the real tables"))
		return;
	snprintf(m32, sizeof(m32), "%s",
	    tap_shared_path("netbsd/linux-i386-syscalls.master"));
	snprintf(m64, sizeof(m64), "%s",
	    tap_shared_path("netbsd/linux-amd64-syscalls.master"));
	st = import_fixture(db, "sandbox", "strace-absent.txt");
	st |= tap_cmd(&r, "profile show -d %s -m %s sandbox", db, m32);
	is_int(st, 0, "real i386: show (%s)", first_line(r.err));
	has_str(line_of(r.out, "landlock_create_ruleset"), " absent ",
	    "real i386: landlock_create_ruleset absent");
	has_str(line_of(r.out, "frobnicate"), " unknown ",
	    "real i386: frobnicate unknown");
	tap_cmd(&r, "profile show -d %s -m %s sandbox", db, m64);
	has_str(line_of(r.out, "landlock_create_ruleset"), " unimplemented ",
	    "real amd64: landlock_create_ruleset UNIMPL");
	has_str(line_of(r.out, "memfd_create"), " implemented-",
	    "real amd64: memfd_create implemented");
	has_str(line_of(r.out, "frobnicate"), " unknown ",
	    "real amd64: frobnicate unknown");
	tap_cmd(&r, "export -d %s -m %s --arch i386 --format json --weight "
	    "@sandbox", db, m32);
	has_str(tap_line_of(r.out, "\"name\": \"landlock_create_ruleset\""),
	    "\"catalogue\": \"absent\"",
	    "real i386: export lists landlock_create_ruleset as absent");
	st = import_fixture(db, "kd", "kdump-netbsd.txt");
	st |= tap_cmd(&r, "profile show -d %s -m %s kd", db, m64);
	is_int(st, 0, "real amd64: show of a kdump profile (%s)",
	    first_line(r.err));
	has_str(line_of(r.out, "fstatat64"), "fstatat64 (newfstatat)",
	    "real amd64: kdump's fstatat64 is slot 262, newfstatat");
	has_str(line_of(r.out, "pread"), "pread (pread64)",
	    "real amd64: kdump's pread is pread64");
	has_str(r.out, "verdict: 2 calls unknown to the catalogue\n",
	    "real amd64: only # filler and [460] unknown");
	(void)tap_cmd(&r, "profile delete -d %s kd", db);
	(void)tap_cmd(&r, "profile delete -d %s sandbox", db);
	tap_cmd_free(&r);
}

/* P in the explorer: the profile screen, and P again the next one. */
static void
test_tui(void)
{
	const char *t = tap_tmpdir();
	char cmd[8192];

	is_int(import_fixture(db, "plain", "strace-plain.txt"), 0,
	    "a second profile for the explorer");
	is_int(import_fixture(db, "sandbox", "strace-absent.txt"), 0,
	    "a third, with calls absent from the table");
	snprintf(cmd, sizeof(cmd), "env HOME=%s XDG_DATA_HOME=%s/data "
	    "XDG_CONFIG_HOME=%s/tui XDG_STATE_HOME=%s/state %s -m %s/"
	    MASTER
	    " -L %s/no-ltp -d %s", t, t, t, t, tap_bin(), cwd, t, db);
	if (!ok(tmux_start(cmd, 130, 30) == 0 && tmux_wait_for("syscalls, ",
	    8000), "explorer starts")) {
		tap_diag("screen:\n%s", tmux_screen());
		tmux_stop();
		return;
	}
	tmux_keys("P");
	if (!ok(tmux_wait_for("profile plain: 4 calls on linux-amd64", 3000),
	    "P: the first profile, plain"))
		tap_diag("screen:\n%s", tmux_screen());
	has_str(tmux_line("verdict:"), "all 4 calls implemented",
	    "plain's verdict");
	has_str(tmux_line(" close "), "EBADF x1",
	    "close's row: its error");
	has_str(tmux_line(" close "), "implemented-native",
	    "close's row: its state");
	tmux_keys("P");
	if (!ok(tmux_wait_for("profile prog: 14 calls", 3000),
	    "P again: the next profile, prog"))
		tap_diag("screen:\n%s", tmux_screen());
	has_str(tmux_line("verdict:"), "2 calls unimplemented",
	    "prog's verdict");
	has_str(tmux_line(" openat "), "flags failed: O_TMPFILE",
	    "openat's row: its flag");
	ok(strstr(tmux_screen(), " openat ") < strstr(tmux_screen(),
	    " brk "), "suspects first on screen too");
	tmux_keys("P");
	if (!ok(tmux_wait_for("profile sandbox: 7 calls", 3000),
	    "P again: sandbox"))
		tap_diag("screen:\n%s", tmux_screen());
	has_str(tmux_line(" memfd_create "), "absent",
	    "memfd_create, Linux's, not in the table: absent");
	has_str(tmux_line(" frobnicate "), "unknown",
	    "frobnicate, not Linux's: unknown");
	has_str(tmux_line("verdict:"), "2 absent from the table",
	    "sandbox's verdict");
	tmux_keys("P");
	ok(tmux_wait_for("profile plain:", 3000), "P cycles back to plain");
	tmux_keys("q");
	ok(tmux_wait_gone("profile plain:", 3000), "q leaves the screen");
	tmux_keys("q");
	ok(tmux_wait_dead(3000), "q quits");
	tmux_stop();
}

/*
 * strace -f -C: the trace and strace's own table of the same run; the
 * calls we read off the trace must be the ones strace counted.
 */
static void
check_against_summary(const char *what, const char *path)
{
	struct profile p, c;
	struct diaglist dl;
	char *buf, *sum;
	size_t len, i, bad = 0;

	if ((buf = tap_slurp(path, &len)) == NULL) {
		ok(0, "%s: trace read", what);
		return;
	}
	profile_init(&p);
	profile_init(&c);
	diag_init(&dl);
	is_int(profile_parse(&p, path, buf, len, &dl), 0,
	    "%s: trace read, no errors (%s)", what, tap_first_diag(&dl));
	if ((sum = strstr(buf, "% time")) == NULL) {
		ok(0, "%s: strace -C wrote its table", what);
		goto out;
	}
	is_int(profile_parse(&c, "table", sum, strlen(sum), &dl), 0,
	    "%s: its table read", what);
	for (i = 0; i < c.ncalls; i++)
		if (count_of(&p, c.calls[i].name) != c.calls[i].count) {
			if (bad++ == 0)
				tap_diag("%s: %s: trace %lu, table %lu", what,
				    c.calls[i].name, count_of(&p,
				    c.calls[i].name), c.calls[i].count);
		}
	ok(c.ncalls > 5 && bad == 0, "%s: %zu calls, each counted as strace "
	    "counted it", what, c.ncalls);
	ok(count_of(&p, "execve") >= 1, "%s: execve seen", what);
out:
	profile_free(&p);
	profile_free(&c);
	diag_free(&dl);
	free(buf);
}

/*
 * strace with opts of cmd (prog's): the trace read without an error,
 * call made n times (0: at least once).
 */
static void
check_traced(const char *prog, const char *opts, const char *cmd,
    const char *call, unsigned long n)
{
	struct profile p;
	struct diaglist dl;
	char line[2048], path[1300], *out;
	int st;

	snprintf(path, sizeof(path), "%s/%s-opts.strace", tap_tmpdir(), prog);
	snprintf(line, sizeof(line), "strace %s -o %s %s >/dev/null 2>&1",
	    opts, path, cmd);
	out = tap_run(line, &st, 0);
	free(out);
	/* load() may not run, or run after tap_first_diag(). */
	profile_init(&p);
	diag_init(&dl);
	ok(st == 0 && load(&p, path, &dl) == 0 && (n == 0 ? count_of(&p,
	    call) > 0 : count_of(&p, call) == n), "strace %s of %s: read (%s)",
	    opts, prog, tap_first_diag(&dl));
	profile_free(&p);
	diag_free(&dl);
}

static void
test_live(void)
{
	static const struct {
		const char *name, *prog, *cmd;
	} progs[] = {
		{ "ls", "ls", "ls /" },
		{ "cat", "cat", "cat /dev/null" },
		{ "python3", "python3", "python3 -c pass" },
		{ "sqlite3", "sqlite3", "sqlite3 :memory: .quit" },
	};
	char cmd[2048], path[1300], *out;
	size_t i;
	int st;

	if (!tap_have("strace")) {
		ok(1, "live traces # SKIP strace is not installed");
		return;
	}
	for (i = 0; i < sizeof(progs) / sizeof(progs[0]); i++) {
		if (!tap_have(progs[i].prog)) {
			tap_diag("SKIP %s: not installed", progs[i].prog);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s.strace", tap_tmpdir(),
		    progs[i].name);
		snprintf(cmd, sizeof(cmd), "strace -f -C -o %s %s >/dev/null "
		    "2>&1", path, progs[i].cmd);
		out = tap_run(cmd, &st, 0);
		free(out);
		if (st != 0) {
			/* ptrace may be forbidden in a container. */
			ok(1, "live traces # SKIP strace cannot trace here");
			return;
		}
		check_against_summary(progs[i].name, path);
	}
	/* -i -n -ttt -T with -f; -y -tt -T without -f. */
	check_traced("ls", "-f -i -n -ttt -T", "ls /", "execve", 1);
	check_traced("cat", "-y -tt -T", "cat /dev/null", "openat", 0);
}

/*
 * Whether one of the calls `ltpscope tests` gives tag in list ("TAG\t
 * CALL,CALL\tCMDLINE" lines) is one p made: a test may exercise more
 * than the one call run shows (getdents01: getdents and getdents64).
 */
static int
made_one_of(const struct profile *p, const char *list, const char *tag)
{
	char key[160], call[128];
	const char *l, *c;
	size_t len;

	snprintf(key, sizeof(key), "\n%s\t", tag);
	if (list == NULL)
		return 0;
	if (strncmp(list, key + 1, strlen(key + 1)) == 0)
		c = list + strlen(key + 1);
	else if ((l = strstr(list, key)) != NULL)
		c = l + strlen(key);
	else
		return 0;
	for (; *c != '\t' && *c != '\n' && *c != '\0';
	    c += len + (c[len] == ',')) {
		len = strcspn(c, ",\t\n");
		snprintf(call, sizeof(call), "%.*s", (int)len, c);
		if (profile_find(p, call) != NULL)
			return 1;
	}
	return 0;
}

/*
 * With LTP's own runtest file (../shared): every test run -s @ls picks
 * exercises a call ls made, and there are many.
 */
static void
test_ls_real_ltp(const struct profile *p, const char *master_path)
{
	struct tap_cmd r = TAP_CMD_INIT, all = TAP_CMD_INIT;
	char dir[1300], path[1400], sys[128], tag[128];
	char master[1300], meta[1300], target[2400];
	const char *l, *rel;
	size_t n = 0, bad = 0;

	/* tap_shared_path() answers in one static buffer. */
	snprintf(master, sizeof(master), "%s", master_path);
	snprintf(meta, sizeof(meta), "%s", tap_shared_path("ltp/ltp.json"));
	snprintf(dir, sizeof(dir), "%s/realltp", tap_tmpdir());
	(void)mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/runtest", dir);
	(void)mkdir(path, 0755);
	/* An install whose make install finished, as run checks. */
	snprintf(path, sizeof(path), "%s/testcases", dir);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/testcases/bin", dir);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", dir);
	rel = tap_shared_path("ltp/runtest-syscalls");
	snprintf(target, sizeof(target), "%s%s%s", rel[0] == '/' ? "" : cwd,
	    rel[0] == '/' ? "" : "/", rel);
	if (symlink(target, path) != 0) {
		ok(0, "real: link LTP's runtest file");
		return;
	}
	tap_cmd(&r, "run -d %s -L %s -m %s --metadata %s -s @ls --dry-run", db,
	    dir, master, meta);
	is_int(r.status, 0, "real: run -s @ls --dry-run on LTP's runtest file "
	    "(%s)", first_line(r.err));
	tap_cmd(&all, "tests -L %s -m %s --metadata %s", dir, master, meta);
	for (l = r.out; l != NULL && *l != '\0'; l = strchr(l, '\n'),
	    l = l != NULL ? l + 1 : NULL) {
		/* "   1  tag  syscall ...": the test lines. */
		if (sscanf(l, "%*u %127s %127s", tag, sys) != 2)
			continue;
		n++;
		if (profile_find(p, sys) == NULL &&
		    !made_one_of(p, all.out, tag) && bad++ == 0)
			tap_diag("real: %s exercises %s, not a call of ls",
			    tag, sys);
	}
	ok(n > 20 && bad == 0, "real: %zu tests, each of a call ls made", n);
	has_str(r.out, " openat01 ", "real: openat01 among them");
	/* Its getdents64 is a call of its own, not of the group's. */
	has_str(r.out, " getdents01 ", "real: getdents01 among them (it "
	    "tests getdents64 too)");
	tap_cmd_free(&r);
	tap_cmd_free(&all);
}

/*
 * The acceptance: a profile of ls, traced here, lists its calls with
 * their states on the master (ours, then ../shared's), and run -s @ls
 * selects their tests.
 */
static void
test_ls(const char *master, const char *layer)
{
	static const char *const tags[] = { "openat01", "close01", "mmap01",
	    "fork01", "clone301", NULL };
	struct catalogue *cat = catalogue_new();
	const struct cat_entry *e[4];
	struct tap_cmd r = TAP_CMD_INIT;
	struct profile p;
	struct diaglist dl;
	char args[4096], path[1300], *out, want[256];
	const char *row;
	size_t i, bad = 0;
	int st;

	snprintf(path, sizeof(path), "%s/ls-f.strace", tap_tmpdir());
	snprintf(args, sizeof(args), "strace -f -o %s ls / >/dev/null 2>&1",
	    path);
	out = tap_run(args, &st, 0);
	free(out);
	if (st != 0) {
		ok(1, "%s: ls # SKIP strace cannot trace here", layer);
		catalogue_free(cat);
		return;
	}
	tap_cmd(&r, "profile import -d %s --name ls %s", db, path);
	is_int(r.status, 0, "%s: import of ls's trace (%s)", layer,
	    first_line(r.err));
	tap_cmd(&r, "profile show -d %s -m %s ls", db, master);
	is_int(r.status, 0, "%s: profile show ls (%s)", layer,
	    first_line(r.err));
	diag_init(&dl);
	(void)catalogue_load_file(cat, master, NULL, &dl);
	(void)catalogue_load_names(cat, "data/syscalls", &dl);
	(void)load(&p, path, &dl);
	for (i = 0; i < p.ncalls; i++) {
		row = line_of(r.out, p.calls[i].name);
		if (catalogue_find_name(cat, "linux-amd64", p.calls[i].name, e,
		    4) > 0)
			snprintf(want, sizeof(want), " %s ",
			    cat_state_name(e[0]->state));
		else
			snprintf(want, sizeof(want), " %s ",
			    catalogue_linux_name(cat, "linux-amd64",
			    p.calls[i].name) != NULL ? "absent" : "unknown");
		if (strstr(row, want) == NULL) {
			if (bad++ == 0)
				tap_diag("%s: row '%s' lacks '%s'", layer, row,
				    want);
		}
	}
	ok(p.ncalls > 10 && bad == 0, "%s: all %zu calls of ls listed with "
	    "their states", layer, p.ncalls);
	if (strcmp(layer, "fixture") == 0) {
		has_str(line_of(r.out, "openat"), "implemented-compat",
		    "openat: implemented-compat in our master");
		has_str(line_of(r.out, "close"), "implemented-native",
		    "close: implemented-native in our master");
	}

	write_runtest(tags);
	tap_cmd(&r, "run -d %s -L %s -m %s -s @ls --dry-run", db, root, master);
	is_int(r.status, 0, "%s: run -s @ls --dry-run (%s)", layer,
	    first_line(r.err));
	has_str(r.out, "openat01", "%s: openat's test selected", layer);
	has_str(r.out, "close01", "%s: close's test selected", layer);
	ok(strstr(r.out, "fork01") == NULL && (count_of(&p, "clone3") > 0) ==
	    (strstr(r.out, "clone301") != NULL),
	    "%s: no test of a call ls did not make", layer);
	tap_cmd_free(&r);
	if (strcmp(layer, "real") == 0)
		test_ls_real_ltp(&p, master);
	profile_free(&p);
	diag_free(&dl);
	catalogue_free(cat);
}

int
main(void)
{
	static const char *const fakes[] = { "pass", NULL };
	char master[1300];

	/* tap.c gave the program its own HOME, XDG dirs and no LTPSCOPE_*. */
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/cli.db", tap_tmpdir());
	tap_fake_ltproot(root, fakes);

	test_strace_variants();
	test_summary();
	test_kdump();
	test_malformed();
	test_mangled();
	test_store();
	test_report();
	test_absent();
	test_kdump_shapes();
	test_cli();
	test_run_select();
	test_export_weight();
	test_absent_cli();
	test_absent_real();
	test_tui();
	test_live();
	if (tap_have("strace")) {
		snprintf(master, sizeof(master), "%s/" MASTER, cwd);
		test_ls(master, "fixture");
		if (!tap_skip_shared("ls against the real master")) {
			snprintf(master, sizeof(master), "%s",
			    tap_shared_path("netbsd/"
			    "linux-amd64-syscalls.master"));
			test_ls(master, "real");
		}
	}
	return tap_done();
}
