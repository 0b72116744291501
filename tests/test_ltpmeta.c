/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP metadata: the strict JSON parser (good documents, and bad ones
 * reported at the right line and column), the real ltp.json of LTP
 * 20260529 from ../shared, every runtest tag of the real runtest file
 * resolved to its group (and, through the suite, to its syscall; with
 * the testmap's calls, made up in tests/fixtures/metamap), the doc and
 * tags the explorer and triage read, parallel safety, and the
 * "not runnable here" reasons.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/json.h"
#include "ltpscope/ltpindex.h"
#include "ltpscope/ltpmeta.h"
#include "ltpscope/suite.h"
#include "tap.h"

/* What ltpmeta asks of json.h (see src/ltpmeta.c). */
static const struct json_limits meta_limits = {
	64, 0, JSON_DUPKEY_WARN | JSON_NO_NUL | JSON_COL_CHARS
};

/* Parses s; returns the error as "line:col: msg", or "" when it parsed. */
static const char *
json_err(const char *s)
{
	static char buf[512];
	struct diaglist dl;
	struct json *v;

	diag_init(&dl);
	(void)json_parse(&v, s, strlen(s), "t.json", &meta_limits, &dl);
	buf[0] = '\0';
	if (v == NULL && dl.n > 0)
		snprintf(buf, sizeof(buf), "%lu:%u: %s", dl.v[0].line,
		    dl.v[0].col, dl.v[0].msg);
	else if (v == NULL)
		snprintf(buf, sizeof(buf), "failed without a message");
	json_free(v);
	diag_free(&dl);
	return buf;
}

/* Documents json_parse() refuses, and where and why it says. */
static const struct {
	const char	*doc;
	const char	*err;
	const char	*what;
} refused[] = {
	{ "[1, 2,]", "1:7: unexpected ']', value expected",
	    "trailing comma in an array" },
	{ "{\"a\": 1,\n}", "2:1: object key (a string) expected",
	    "trailing comma in an object" },
	{ "{\"a\" 1}", "1:6: ':' expected after object key",
	    "missing colon" },
	{ "{'a': 1}", "1:2: object key (a string) expected",
	    "single quotes are not JSON" },
	{ "[01]", "1:2: leading zero in number", "leading zero" },
	{ "[1.]", "1:4: digit expected after '.'", "a bare decimal point" },
	{ "[-]", "1:2: invalid number", "a bare minus" },
	{ "[\"a\\x\"]", "1:4: unknown escape '\\x'", "unknown escape" },
	{ "[\"a\tb\"]", "1:4: control character 0x09 in string (escape it)",
	    "a raw tab in a string" },
	{ "[\"\xc3\x28\"]", "1:3: invalid UTF-8 in string", "invalid UTF-8" },
	{ "[\"\xc0\xaf\"]", "1:3: invalid UTF-8 in string",
	    "overlong UTF-8" },
	{ "[\"\\ud800x\"]",
	    "1:3: high surrogate \\ud800 not followed by a low one",
	    "a lone high surrogate" },
	{ "[\"\\u0000\"]", "1:3: \\u0000 in string", "NUL is refused" },
	{ "[\"abc", "1:2: unterminated string", "unterminated string" },
	{ "{\"a\": tru}", "1:7: unexpected 't', value expected",
	    "a misspelt literal" },
	{ "[1] [2]", "1:5: unexpected data after the value",
	    "two documents" },
	{ "\n\n   ", "3:4: unexpected end of input, value expected",
	    "empty input" },
	{ "// c\n[]", "1:1: unexpected '/', value expected",
	    "comments are not JSON" },
	{ "[NaN]", "1:2: unexpected 'N', value expected", "NaN is not JSON" },
	{ "{\"\xc3\xa9\": [1 2]}", "1:10: ',' or ']' expected in array",
	    "columns count characters, not bytes" },
};

static void
test_json(void)
{
	struct diaglist dl;
	struct json *v;
	const struct json *a;
	size_t i;
	const char *doc = "{\n \"a\": [1, -2.5e3, true, false, null],\n"
	    " \"s\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\",\n"
	    " \"o\": {}, \"e\": [], \"z\": 0 }\n";

	diag_init(&dl);
	(void)json_parse(&v, doc, strlen(doc), "t.json", &meta_limits, &dl);
	ok(v != NULL && v->type == JSON_OBJECT && v->n == 5,
	    "a good document parses");
	a = json_get(v, "a");
	ok(a != NULL && a->type == JSON_ARRAY && a->n == 5 &&
	    a->items[0]->num == 1 && a->items[1]->num == -2500 &&
	    a->items[2]->type == JSON_TRUE &&
	    a->items[3]->type == JSON_FALSE &&
	    a->items[4]->type == JSON_NULL, "numbers, booleans, null");
	is_str(json_string(json_get(v, "s"), NULL),
	    "x\"\\/\b\f\n\r\t\xc3\xa9\xf0\x9f\x98\x80",
	    "escapes and a surrogate pair decode to UTF-8");
	ok(a != NULL && a->line == 2 && a->col == 7,
	    "values know where they start (%lu:%u)", a ? a->line : 0,
	    a ? a->col : 0);
	ok(json_get(v, "missing") == NULL && json_get(a, "a") == NULL,
	    "json_get: missing keys and non-objects");
	json_free(v);
	diag_free(&dl);

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		is_str(json_err(refused[i].doc), refused[i].err, "%s",
		    refused[i].what);
	{
		char deep[200];

		memset(deep, '[', 100);
		memset(deep + 100, ']', 99);
		deep[199] = '\0';
		is_str(json_err(deep), "1:65: nesting deeper than 64 levels",
		    "nesting is bounded");
	}
	diag_init(&dl);
	(void)json_parse(&v, "{\"a\": 1, \"a\": 2}", 16, "t.json",
	    &meta_limits, &dl);
	ok(v != NULL && dl.n == 1 && dl.v[0].level == DIAG_WARNING &&
	    json_get(v, "a")->num == 1, "a duplicate key warns; the first "
	    "counts");
	json_free(v);
	diag_free(&dl);
	is_str(json_err("\xef\xbb\xbf{}"), "", "a byte order mark is fine");
}

static void
test_load_errors(void)
{
	struct diaglist dl;
	struct ltpmeta *m;
	const char *bad = "{\"tests\": {\"a\": {\"groups\": [\"x\"],}}}";
	const char *shape = "{\"tests\": {\"a\": {\"needs_root\": \"yes\", "
	    "\"timeout\": \"soon\", \"tags\": [[\"CVE\"]], \"doc\": [\"d\"]},"
	    " \"b\": 3}}";

	diag_init(&dl);
	m = ltpmeta_load_buf("m.json", bad, strlen(bad), &dl);
	ok(m == NULL && dl.nerrors == 1 && dl.v[0].line == 1 &&
	    dl.v[0].col == 34, "bad JSON: an error at line:col");
	diag_free(&dl);
	diag_init(&dl);
	m = ltpmeta_load_buf("m.json", "[]", 2, &dl);
	ok(m == NULL && dl.nerrors == 1 && strstr(dl.v[0].msg, "not LTP "
	    "metadata") != NULL, "a JSON file that is not metadata");
	diag_free(&dl);
	diag_init(&dl);
	m = ltpmeta_load_buf("m.json", shape, strlen(shape), &dl);
	ok(m != NULL && m->ntests == 1 && dl.nerrors == 0 && dl.n == 4,
	    "wrong shapes are warnings (%zu)", dl.n);
	if (m != NULL) {
		ok(m->tests[0].needs_root == 0 && m->tests[0].timeout == -1 &&
		    m->tests[0].ntags == 0 && m->tests[0].doc.n == 1,
		    "and the rest of the entry is read");
		is_int(m->default_timeout, 30, "LTP's default timeout");
	}
	ltpmeta_free(m);
	diag_free(&dl);
	diag_init(&dl);
	m = ltpmeta_load_root("/nonexistent", &dl);
	ok(m == NULL && dl.n == 0, "an install without metadata is quiet");
	diag_free(&dl);
	diag_init(&dl);
	m = ltpmeta_load_file("/nonexistent/ltp.json", &dl);
	ok(m == NULL && dl.nerrors == 1, "a missing file named explicitly "
	    "is an error");
	diag_free(&dl);
}

static void
test_real(struct ltpmeta *m)
{
	const struct ltpmeta_test *t;
	const struct ltpmeta_tag *tags;
	char *const *doc;
	char buf[512];
	size_t n, i, ntagged = 0, ncve = 0;

	/* The counts of the real file; the made-up one has 9 tests. */
	is_int((long long)m->ntests, tap_layer_real() ? 1535 : 9,
	    "tests in LTP 20260529");
	is_str(m->version, "20260529", "the version");
	for (i = 0; i < m->ntests; i++) {
		ntagged += m->tests[i].ntags > 0;
		for (n = 0; n < m->tests[i].ntags; n++)
			if (strcmp(m->tests[i].tags[n].kind, "CVE") == 0) {
				ncve++;
				break;
			}
	}
	is_int((long long)ntagged, tap_layer_real() ? 228 : 5,
	    "tests with tags");
	is_int((long long)ncve, tap_layer_real() ? 105 : 4, "of them a CVE");

	t = ltpmeta_find(m, "fcntl34");
	ok(t != NULL && t->groups.n == 2 && strcmp(t->groups.v[0], "fcntl")
	    == 0 && t->needs_tmpdir && strcmp(t->fname,
	    "testcases/kernel/syscalls/fcntl/fcntl34.c") == 0,
	    "fcntl34: group, needs_tmpdir, source");
	doc = ltpmeta_doc(m, "cve-2014-0196", &n);
	ok(doc != NULL && n > 3 && strcmp(doc[0], "Test for CVE-2014-0196, "
	    "which was fixed in kernel v3.15:") == 0 && doc[n] == NULL,
	    "doc lines of cve-2014-0196");
	tags = ltpmeta_tags(m, "cve-2014-0196", &n);
	ok(tags != NULL && n == 2 && strcmp(tags[0].kind, "linux-git") == 0
	    && strcmp(tags[0].value, "4291086b1f081b869c6d79e5b7441633dc3ace00")
	    == 0 && strcmp(tags[1].kind, "CVE") == 0 &&
	    strcmp(tags[1].value, "2014-0196") == 0, "its tags, in order");
	ok(tags != NULL && ltpmeta_tag_url(&tags[1], buf, sizeof(buf)) == 0 &&
	    strcmp(buf, "https://www.cve.org/CVERecord?id=CVE-2014-0196") == 0,
	    "a CVE link");
	ok(tags != NULL && ltpmeta_tag_url(&tags[0], buf, sizeof(buf)) == 0 &&
	    strstr(buf, "torvalds/linux.git/commit/?id=4291086b") != NULL,
	    "a commit link");
	ok(ltpmeta_checks_linux_bug(ltpmeta_find(m, "cve-2014-0196")) &&
	    ltpmeta_checks_linux_bug(ltpmeta_find(m, "creat07")) &&
	    !ltpmeta_checks_linux_bug(ltpmeta_find(m, "fcntl34")),
	    "which tests look for a Linux bug");
	doc = ltpmeta_doc(m, "fcntl34", &n);
	ok(doc == NULL && n == 0, "a test without doc");
	doc = ltpmeta_doc(m, "no-such-test", &n);
	ok(doc == NULL && n == 0, "a test without metadata");

	t = ltpmeta_find(m, "cve-2017-16939");
	ok(t != NULL && t->needs_kconfigs.n == 2 &&
	    strcmp(t->needs_kconfigs.v[1], "CONFIG_NET_NS=y") == 0 &&
	    t->save_restore.n == 1 && strcmp(t->save_restore.v[0],
	    "/proc/sys/user/max_user_namespaces") == 0,
	    "needs_kconfigs and save_restore (a list of lists)");
	t = ltpmeta_find(m, "zram03");
	ok(t != NULL && t->needs_cmds.n == 2 && strcmp(t->needs_cmds.v[0],
	    "modprobe") == 0 && t->needs_root, "needs_cmds (objects)");
	t = ltpmeta_find(m, "af_alg07");
	ok(t != NULL && t->max_runtime == 150 && strcmp(t->min_kver,
	    "4.10.0") == 0, "runtime and min_kver");
	t = ltpmeta_find(m, "meltdown");
	ok(t != NULL && t->supported_archs.n == 2 &&
	    strcmp(t->supported_archs.v[1], "x86_64") == 0,
	    "supported_archs");
	t = ltpmeta_find(m, "creat07");
	ok(t != NULL && t->resource_files.n == 1, "resource_files (a list)");
	for (i = 0, n = 0; i < m->ntests; i++)
		if (m->tests[i].timeout == 0)
			n++;
	ok(n > 0, "TST_UNLIMITED_TIMEOUT reads as no timeout (%zu)", n);
	for (i = 0, n = 0; i < m->ntests; i++)
		if (m->tests[i].resource_files.n == 1 &&
		    strcmp(m->tests[i].resource_files.v[0], "resource") == 0)
			n++;
	ok(n > 0, "resource_files given as one string");
	ltpmeta_requirements(ltpmeta_find(m, "squashfs01"), buf,
	    sizeof(buf));
	is_str(buf, "root; a block device; kernel config CONFIG_SQUASHFS; "
	    "commands mksquashfs", "requirements in one line");
}

/*
 * Tags whose metadata goes by another name: the test they run, or its
 * group (NULL: not checked).
 */
static const struct {
	const char	*tag;
	const char	*test;
	const char	*group;
	const char	*what;
} bound[] = {
	{ "fcntl34_64", NULL, "fcntl", "fcntl34_64 -> fcntl34's group" },
	{ "fcntl34_64", "fcntl34", NULL, "fcntl34_64 is fcntl34" },
	{ "mmap21_01", "mmap21", NULL, "mmap21_01 runs mmap21" },
	{ "process_vm_readv01", NULL, "cma",
	    "process_vm_readv01 runs process_vm01 (group cma)" },
	{ "setuid01_16", NULL, "setuid", "setuid01_16 -> setuid01" },
};

/* Every tag of the real runtest file resolves to its group, or has none. */
static void
test_runtest_tags(struct ltpmeta *m)
{
	struct ltpindex idx;
	struct diaglist dl;
	const struct ltpmeta_test *t;
	const char *g;
	size_t i, found = 0, bad = 0, by_cmd = 0, by_abi = 0;

	ltpindex_init(&idx);
	diag_init(&dl);
	ok(ltpindex_load_file(&idx, tap_shared_path("ltp/runtest-syscalls"),
	    &dl) == 0 && idx.ntests == 1525, "the runtest file loads");
	ltpmeta_bind(m, &idx);
	for (i = 0; i < idx.ntests; i++) {
		const struct ltptest *lt = &idx.tests[i];

		t = ltpmeta_test(m, lt->tag);
		g = ltpmeta_group(m, lt->tag);
		if (t == NULL) {
			/* Only old-library tests lack metadata. */
			if (ltpmeta_find(m, lt->argv ? lt->argv[0] : "") !=
			    NULL) {
				bad++;
				tap_diag("%s: not resolved", lt->tag);
			}
			continue;
		}
		found++;
		if (strcmp(t->name, lt->tag) != 0) {
			if (lt->argv != NULL && strcmp(t->name,
			    lt->argv[0]) == 0)
				by_cmd++;
			else
				by_abi++;
		}
		if (g == NULL || t->groups.n == 0 ||
		    strcmp(g, t->groups.v[0]) != 0) {
			bad++;
			tap_diag("%s: group %s", lt->tag, g ? g : "(none)");
		}
	}
	is_int((long long)bad, 0, "every tag resolves to its group");
	is_int((long long)found, 1355, "1355 tags have metadata");
	is_int((long long)m->nalias, 1355, "and are bound");
	ok(by_cmd >= 7 && by_abi >= 100, "by command %zu, by ABI suffix %zu",
	    by_cmd, by_abi);
	for (i = 0; i < sizeof(bound) / sizeof(bound[0]); i++) {
		t = ltpmeta_test(m, bound[i].tag);
		g = ltpmeta_group(m, bound[i].tag);
		if (bound[i].test != NULL)
			is_str(t ? t->name : "", bound[i].test, "%s",
			    bound[i].what);
		if (bound[i].group != NULL)
			is_str(g, bound[i].group, "%s", bound[i].what);
	}
	ok(ltpmeta_test(m, "fcntl01") == NULL, "fcntl01 has no metadata");
	ltpindex_free(&idx);
	diag_free(&dl);
}

/* t's calls joined by commas, as `ltpscope tests` prints them. */
static const char *
calls_of(const struct ltptest *t)
{
	static char buf[512];
	size_t j;

	buf[0] = '\0';
	for (j = 0; t != NULL && j < t->nsyscalls; j++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
		    j > 0 ? "," : "", t->syscalls[j]);
	return buf;
}

/* 1 when t maps to g, or to a call of g's family (inotify_init1). */
static int
maps_to(const struct ltptest *t, const char *g)
{
	size_t j;

	for (j = 0; j < t->nsyscalls; j++)
		if (strncmp(t->syscalls[j], g, strlen(g)) == 0)
			return 1;
	return 0;
}

#define METAMAP		"tests/fixtures/metamap"

/* What the testmap and the metadata of tests/fixtures/metamap make. */
static const struct {
	const char	*tag;
	const char	*calls;		/* with the metadata */
	const char	*bare;		/* with --no-metadata */
	const char	*what;
} unions[] = {
	{ "getdents01", "getdents,getdents64", "getdents,getdents64",
	    "getdents01: the testmap's two calls, its group among them" },
	{ "getdents02", "getdents,getdents64", "getdents,getdents64",
	    "getdents02 likewise" },
	{ "signal01", "rt_sigaction,tgkill", "rt_sigaction",
	    "signal01: the testmap's call, then a group it does not name" },
	{ "readahead01", "fadvise64", "fadvise64",
	    "readahead01: a group that is no syscall adds nothing" },
	{ "futex_wait01", "futex", "",
	    "futex_wait01: no rule maps it, its group does" },
	{ "inotify_init1_01", "inotify_init1", "inotify_init1",
	    "inotify_init1_01: the name rule's more specific call stays" },
	{ "pause01", "kill", "pause",
	    "pause01: the group replaces the name rule's guess" },
	{ "pread01", "pread64", "pread64",
	    "pread01: no metadata, the testmap alone" },
};

/* A test's calls: the union of the testmap's and the metadata's. */
static void
test_union(void)
{
	const char *tables[1] = { "tests/fixtures/linux/syscall_64.tbl" };
	const char *runtests[1] = { METAMAP "/runtest" };
	struct suite_opts so;
	struct suite s;
	struct diaglist dl;
	const struct ltptest *t;
	const char *p;
	char *out;
	size_t i;
	int st, bare, n;

	memset(&so, 0, sizeof(so));
	so.tables = tables;
	so.ntables = 1;
	so.runtests = runtests;
	so.nruntests = 1;
	so.ltpdir = "/nonexistent";
	so.testmap = METAMAP "/testmap";
	so.metadata = METAMAP "/ltp.json";
	for (bare = 0; bare < 2; bare++) {
		so.no_metadata = bare;
		diag_init(&dl);
		ok(suite_load(&s, &so, &dl) == 0 && dl.nerrors == 0 &&
		    (s.meta != NULL) == !bare, "the made-up suite loads %s "
		    "metadata", bare ? "without" : "with");
		for (i = 0; i < sizeof(unions) / sizeof(unions[0]); i++) {
			t = ltpindex_find(&s.idx, unions[i].tag);
			is_str(calls_of(t), bare ? unions[i].bare :
			    unions[i].calls, "%s%s", bare ? "no metadata: " :
			    "", unions[i].what);
		}
		suite_free(&s);
		diag_free(&dl);
	}

	/* What the command line selects by them. */
	setenv("LTPSCOPE_TESTMAP", METAMAP "/testmap", 1);
	out = tap_cli(&st, 1, "tests -L /nonexistent -f %s/runtest -m %s "
	    "--metadata %s/ltp.json -s getdents64", METAMAP, tables[0],
	    METAMAP);
	is_int(st, 0, "tests -s getdents64 with metadata");
	has_str(out, "getdents01\tgetdents,getdents64\t", "  lists "
	    "getdents01");
	has_str(out, "getdents02\tgetdents,getdents64\t", "  and "
	    "getdents02");
	free(out);
	out = tap_cli(&st, 1, "tests -L /nonexistent -f %s/runtest -m %s "
	    "--metadata %s/ltp.json -s tgkill,rt_sigaction", METAMAP,
	    tables[0], METAMAP);
	for (n = 0, p = out; (p = strstr(p, "signal01\t")) != NULL; p++)
		n++;
	ok(st == 0 && n == 1, "tests -s tgkill,rt_sigaction lists signal01 "
	    "once (%d times)", n);
	free(out);
	unsetenv("LTPSCOPE_TESTMAP");
}

/* Through the suite: groups that are syscalls become the mapping. */
static const struct {
	const char	*tag;
	const char	*syscall;
	const char	*what;
} mapped[] = {
	{ "bpf_prog01", "bpf", "bpf_prog01 -> bpf (the name rule could not)" },
	{ "futex_wait01", "futex", "futex_wait01 -> futex" },
	{ "inotify_init1_01", "inotify_init1",
	    "inotify_init1_01 keeps the more specific inotify_init1" },
	{ "process_vm_readv01", "process_vm_readv",
	    "group cma is no syscall: the name rule stays" },
	{ "fcntl01", "fcntl", "no metadata: the name rule" },
};

static void
test_suite(void)
{
	const char *tables[1], *runtests[1];
	struct suite_opts so;
	struct suite s;
	struct diaglist dl;
	const struct ltptest *t;
	const char *g, *m;
	char table[1024], rt[1024], meta[1024];
	size_t i, bad = 0;

	snprintf(table, sizeof(table), "%s",
	    tap_shared_path("netbsd/linux-amd64-syscalls.master"));
	snprintf(rt, sizeof(rt), "%s", tap_shared_path("ltp/runtest-syscalls"));
	snprintf(meta, sizeof(meta), "%s", tap_shared_path("ltp/ltp.json"));
	tables[0] = table;
	runtests[0] = rt;
	memset(&so, 0, sizeof(so));
	so.tables = tables;
	so.ntables = 1;
	so.runtests = runtests;
	so.nruntests = 1;
	so.ltpdir = "/nonexistent";
	so.metadata = meta;
	diag_init(&dl);
	ok(suite_load(&s, &so, &dl) == 0 && s.meta != NULL,
	    "the suite loads with metadata");
	is_int((long long)s.nmeta, 1355, "1355 tests have metadata");
	ok(s.nmeta_mapped > 1000, "%zu tests mapped by their group",
	    s.nmeta_mapped);
	for (i = 0; i < s.idx.ntests; i++) {
		t = &s.idx.tests[i];
		g = ltpmeta_group(s.meta, t->tag);
		m = suite_test_syscall(t);
		if (g == NULL)
			continue;
		/* A group the table knows is the mapping (or its family). */
		{
			size_t lo = 0, hi = s.nnames, mid;
			int in = 0;

			while (lo < hi) {
				mid = (lo + hi) / 2;
				if (strcmp(s.names[mid], g) < 0)
					lo = mid + 1;
				else
					hi = mid;
			}
			in = lo < s.nnames && strcmp(s.names[lo], g) == 0;
			if (in && !maps_to(t, g)) {
				bad++;
				tap_diag("%s: group %s, mapped to %s",
				    t->tag, g, m);
			}
		}
	}
	is_int((long long)bad, 0, "every tag whose group is a syscall maps "
	    "to it (or to a call of its family)");
	for (i = 0; i < sizeof(mapped) / sizeof(mapped[0]); i++) {
		t = ltpindex_find(&s.idx, mapped[i].tag);
		is_str(t ? suite_test_syscall(t) : "", mapped[i].syscall, "%s",
		    mapped[i].what);
	}
	suite_free(&s);
	diag_free(&dl);

	/* The same without metadata: bpf_prog01 is unmapped. */
	so.no_metadata = 1;
	diag_init(&dl);
	ok(suite_load(&s, &so, &dl) == 0 && s.meta == NULL, "without");
	t = ltpindex_find(&s.idx, "bpf_prog01");
	is_str(t ? suite_test_syscall(t) : "x", "", "bpf_prog01 unmapped "
	    "by name");
	suite_free(&s);
	diag_free(&dl);
}

/* Why each test must run alone: a need of its metadata. */
static const struct {
	const char	*test;
	const char	*why;
} serial[] = {
	{ "zram03", "needs_root" },
	{ "creat07", "resource_files" },
	{ "cve-2017-16939", "save_restore" },
	{ "af_alg07", "max_runtime" },
};

static void
test_parallel(struct ltpmeta *m)
{
	char why[64];
	size_t i;

	ok(ltpmeta_parallel_safe(ltpmeta_find(m, "fcntl34"), why,
	    sizeof(why)), "fcntl34 may run beside others");
	ok(!ltpmeta_parallel_safe(NULL, why, sizeof(why)) &&
	    strcmp(why, "no metadata") == 0, "no metadata: serial");
	for (i = 0; i < sizeof(serial) / sizeof(serial[0]); i++)
		ok(!ltpmeta_parallel_safe(ltpmeta_find(m, serial[i].test), why,
		    sizeof(why)) && strcmp(why, serial[i].why) == 0, "%s",
		    serial[i].why);
}

/* The kernel config is read once per env: forget it when it changes. */
static void
env_reload(struct ltpmeta_env *env)
{
	const char *kc = env->kconfig;
	struct ltpmeta_env fresh;

	ltpmeta_env_init(&fresh);
	fresh.euid = env->euid;
	fresh.ltp_dev = env->ltp_dev;
	fresh.arch = env->arch;
	fresh.kernel = env->kernel;
	fresh.path = env->path;
	fresh.ltproot = env->ltproot;
	ltpmeta_env_free(env);
	*env = fresh;
	env->kconfig = kc;
}

/*
 * quotactl01 and quotactl06 need CONFIG_QFMT_V2, then quotacheck: LTP
 * stops on the option first, and so does the pre-check (issue 25).
 */
static void
test_quotactl(const char *path)
{
	static const char *const tags[] = { "quotactl01", "quotactl06" };
	struct ltpmeta_env env;
	struct diaglist dl;
	struct ltpmeta *m;
	char why[256], empty[1200];
	size_t i;

	diag_init(&dl);
	m = ltpmeta_load_file(path, &dl);
	diag_free(&dl);
	if (!ok(m != NULL, "%s loads", path))
		return;
	snprintf(empty, sizeof(empty), "%s/no-commands", tap_tmpdir());
	(void)mkdir(empty, 0755);
	for (i = 0; i < 2; i++) {
		ltpmeta_env_init(&env);
		env.euid = 0;
		env.arch = "x86_64";
		env.kernel = "6.1";
		env.path = empty;
		env.kconfig = "tests/fixtures/kconfig-meta";
		ok(ltpmeta_runnable(ltpmeta_find(m, tags[i]), &env, why,
		    sizeof(why)) && strcmp(why, "the kernel config lacks "
		    "CONFIG_QFMT_V2 (tests/fixtures/kconfig-meta)") == 0,
		    "%s: the kernel option first, as LTP: %s", tags[i], why);
		env.euid = 1000;
		ok(ltpmeta_runnable(ltpmeta_find(m, tags[i]), &env, why,
		    sizeof(why)) && strncmp(why, "the kernel config lacks "
		    "CONFIG_QFMT_V2", 38) == 0, "%s: before root too", tags[i]);
		env.euid = 0;
		env.kconfig = "tests/fixtures/kconfig-qfmt";
		env_reload(&env);
		ok(ltpmeta_runnable(ltpmeta_find(m, tags[i]), &env, why,
		    sizeof(why)) && strcmp(why, "needs the command quotacheck "
		    "(not on PATH)") == 0, "%s: the option set, then the "
		    "command: %s", tags[i], why);
		env.kconfig = NULL;
		env_reload(&env);
		ok(!ltpmeta_runnable(ltpmeta_find(m, tags[i]), &env, why,
		    sizeof(why)), "%s: no kernel config known: not ruled out "
		    "for the command (LTP's own check comes first)", tags[i]);
		ltpmeta_env_free(&env);
	}
	ltpmeta_free(m);
}

static void
test_runnable(void)
{
	const char *json = "{\"tests\": {"
	    "\"root\": {\"needs_root\": true},"
	    "\"dev\": {\"needs_device\": true},"
	    "\"arch\": {\"supported_archs\": [\"s390x\", \"ppc64\"]},"
	    "\"kver\": {\"min_kver\": \"5.10\"},"
	    "\"kc\": {\"needs_kconfigs\": [\"CONFIG_USER_NS=y\", "
	    "\"CONFIG_NET_NS=y\"]},"
	    "\"kcor\": {\"needs_kconfigs\": [\"CONFIG_FW_LOADER=y|"
	    "CONFIG_FW_LOADER=m\", \"CONFIG_ZRAM\"]},"
	    "\"cmd\": {\"needs_cmds\": [{\"cmd\": \"sh\"}, {\"cmd\": "
	    "\"no-such-cmd-here >= 1.0\"}]},"
	    "\"opt\": {\"needs_cmds\": [{\"cmd\": \"sh\"}, {\"cmd\": "
	    "\"no-such-cmd-here\", \"optional\": true}]},"
	    "\"plain\": {\"groups\": [\"x\"]},"
	    "\"all\": {\"supported_archs\": [\"s390x\"], \"needs_root\": "
	    "true, \"needs_kconfigs\": [\"CONFIG_NET_NS=y\"], \"min_kver\": "
	    "\"9.0\", \"needs_cmds\": [\"no-such-cmd-here\"], "
	    "\"needs_device\": true}}}";
	struct ltpmeta_env env;
	struct diaglist dl;
	struct ltpmeta *m;
	char why[256], miss[128];

	diag_init(&dl);
	m = ltpmeta_load_buf("env.json", json, strlen(json), &dl);
	ok(m != NULL && dl.n == 0, "the fixture loads");
	if (m == NULL)
		return;
	memset(&env, 0, sizeof(env));
	env.euid = 1000;
	env.arch = "x86_64";
	env.kernel = "5.4.0-rc1";
	env.kconfig = "tests/fixtures/kconfig-meta";
	env.path = "/bin:/usr/bin";
	ok(ltpmeta_runnable(ltpmeta_find(m, "root"), &env, why, sizeof(why))
	    && strcmp(why, "needs root (running as uid 1000)") == 0,
	    "not root: %s", why);
	ok(ltpmeta_runnable(ltpmeta_find(m, "dev"), &env, why, sizeof(why))
	    && strstr(why, "LTP_DEV") != NULL, "no device: %s", why);
	env.ltp_dev = "/dev/loop0";
	ok(!ltpmeta_runnable(ltpmeta_find(m, "dev"), &env, why, sizeof(why)),
	    "LTP_DEV set: runnable");
	ok(ltpmeta_runnable(ltpmeta_find(m, "arch"), &env, why, sizeof(why))
	    && strcmp(why, "runs only on s390x and others (this is x86_64)")
	    == 0, "arch: %s", why);
	ok(ltpmeta_runnable(ltpmeta_find(m, "kver"), &env, why, sizeof(why))
	    && strcmp(why, "needs Linux 5.10 or later (the tests see "
	    "5.4.0-rc1)") == 0, "kernel version: %s", why);
	env.kernel = "6.1";
	ok(!ltpmeta_runnable(ltpmeta_find(m, "kver"), &env, why,
	    sizeof(why)), "a newer kernel: runnable");
	ok(ltpmeta_runnable(ltpmeta_find(m, "kc"), &env, why, sizeof(why))
	    && strcmp(why, "the kernel config lacks CONFIG_NET_NS=y "
	    "(tests/fixtures/kconfig-meta)") == 0, "kconfig: %s", why);
	ok(!ltpmeta_runnable(ltpmeta_find(m, "kcor"), &env, why,
	    sizeof(why)), "alternatives and =m satisfy");
	ok(ltpmeta_runnable(ltpmeta_find(m, "cmd"), &env, why, sizeof(why))
	    && strcmp(why, "needs the command no-such-cmd-here >= 1.0 (not "
	    "on PATH)") == 0, "command: %s", why);
	ok(!ltpmeta_runnable(ltpmeta_find(m, "opt"), &env, why,
	    sizeof(why)), "optional commands are not needed");
	ok(!ltpmeta_runnable(ltpmeta_find(m, "plain"), &env, why,
	    sizeof(why)) && !ltpmeta_runnable(NULL, &env, why, sizeof(why)),
	    "no needs, no metadata: runnable");
	/* Each need met in turn: the next in LTP's order is the reason. */
	env.ltp_dev = NULL;
	env.kernel = "6.1";
	ok(ltpmeta_runnable(ltpmeta_find(m, "all"), &env, why, sizeof(why))
	    && strncmp(why, "runs only on s390x", 18) == 0, "the arch "
	    "first: %s", why);
	env.arch = "s390x";
	ok(ltpmeta_runnable(ltpmeta_find(m, "all"), &env, why, sizeof(why))
	    && strncmp(why, "the kernel config lacks CONFIG_NET_NS", 37) == 0,
	    "then the kernel config, before root: %s", why);
	env.kconfig = "tests/fixtures/kconfig-qfmt";
	env_reload(&env);
	ok(ltpmeta_runnable(ltpmeta_find(m, "all"), &env, why, sizeof(why))
	    && strncmp(why, "needs root", 10) == 0, "then root: %s", why);
	env.euid = 0;
	env.kernel = "6.1";
	ok(ltpmeta_runnable(ltpmeta_find(m, "all"), &env, why, sizeof(why))
	    && strncmp(why, "needs Linux 9.0", 15) == 0, "then the kernel "
	    "version: %s", why);
	env.kernel = "9.1";
	ok(ltpmeta_runnable(ltpmeta_find(m, "all"), &env, why, sizeof(why))
	    && strncmp(why, "needs the command", 17) == 0, "then commands: %s",
	    why);
	env.kernel = NULL;
	ok(!ltpmeta_runnable(ltpmeta_find(m, "all"), &env, why, sizeof(why)),
	    "no kernel version known: the command after it is not the "
	    "reason (LTP says)");
	env.kernel = "9.1";
	env.kconfig = NULL;
	env_reload(&env);
	ok(!ltpmeta_runnable(ltpmeta_find(m, "all"), &env, why, sizeof(why)),
	    "no kernel config known: neither is the command");
	env.kconfig = "tests/fixtures/kconfig-qfmt";
	env_reload(&env);
	env.euid = 1000;
	env.path = NULL;
	ok(ltpmeta_runnable(ltpmeta_find(m, "all"), &env, why, sizeof(why))
	    && strncmp(why, "needs root", 10) == 0, "(root again)");
	env.euid = 0;
	ok(!ltpmeta_runnable(ltpmeta_find(m, "all"), &env, why, sizeof(why)),
	    "all met: runnable (as root LTP makes a loop device)");
	env.kconfig = "tests/fixtures/kconfig-meta";
	env_reload(&env);
	ok(ltpmeta_runnable(ltpmeta_find(m, "kc"), &env, why, sizeof(why)),
	    "the first config again, read again");
	env.arch = "x86_64";
	env.kernel = "6.1";
	env.path = "/bin:/usr/bin";
	env.kconfig = "tests/fixtures/kconfig-meta";

	env.euid = 0;
	env.ltp_dev = NULL;
	ok(!ltpmeta_runnable(ltpmeta_find(m, "root"), &env, why,
	    sizeof(why)) && !ltpmeta_runnable(ltpmeta_find(m, "dev"), &env,
	    why, sizeof(why)), "as root both run (LTP makes a loop device)");
	env.kconfig = NULL;
	env.kernel = NULL;
	env.arch = NULL;
	env.path = NULL;
	ok(!ltpmeta_runnable(ltpmeta_find(m, "kc"), &env, why, sizeof(why))
	    && !ltpmeta_runnable(ltpmeta_find(m, "kver"), &env, why,
	    sizeof(why)) && !ltpmeta_runnable(ltpmeta_find(m, "arch"), &env,
	    why, sizeof(why)) && !ltpmeta_runnable(ltpmeta_find(m, "cmd"),
	    &env, why, sizeof(why)), "what is unknown is not checked");

	env.kconfig = "tests/fixtures/kconfig-meta";
	ok(ltpmeta_kconfig_ok(&env, "CONFIG_HZ=250", NULL, 0) &&
	    !ltpmeta_kconfig_ok(&env, "CONFIG_HZ=100", miss, sizeof(miss)) &&
	    ltpmeta_kconfig_ok(&env, "CONFIG_USER_NS & CONFIG_ZRAM", NULL, 0)
	    && !ltpmeta_kconfig_ok(&env, "CONFIG_USER_NS & CONFIG_NET_NS",
	    NULL, 0) && ltpmeta_kconfig_ok(&env, "!CONFIG_NET_NS", NULL, 0)
	    && !ltpmeta_kconfig_ok(&env, "CONFIG_SQUASHFS", NULL, 0) &&
	    ltpmeta_kconfig_ok(&env, "CONFIG_X86_INTEL_UMIP=y | "
	    "CONFIG_USER_NS=y", NULL, 0), "kconfig expressions");
	ok(ltpmeta_kver_cmp("5.10", "5.4") > 0 &&
	    ltpmeta_kver_cmp("4.10.0", "4.10") == 0 &&
	    ltpmeta_kver_cmp("3.2", "4.1") < 0, "kernel version order");
	{
		char kc[2048];

		/* The bundled config is compat_linux's: NetBSD's alone. */
		setenv("LTPSCOPE_DATA", "data", 1);
		ok(ltpmeta_kconfig_default("NetBSD", kc, sizeof(kc)) != NULL &&
		    strcmp(kc, "data/kconfig") == 0, "NetBSD: the bundled "
		    "kernel config (%s)", kc);
		ok(ltpmeta_kconfig_default("Linux", kc, sizeof(kc)) == NULL &&
		    ltpmeta_kconfig_default(NULL, kc, sizeof(kc)) == NULL,
		    "elsewhere none: LTP finds the kernel's own");
		unsetenv("LTPSCOPE_DATA");
	}
	is_str(ltpmeta_arch_name("amd64"), "x86_64", "amd64 is x86_64");
	is_str(ltpmeta_arch_name("i386"), "x86", "i386 is x86");
	ltpmeta_env_free(&env);
	ltpmeta_free(m);
	diag_free(&dl);
}

/*
 * LTP's real metadata puts getdents01 and getdents02 in group getdents
 * alone; the shipped testmap says they test getdents64 too, and so
 * they still do.
 */
static void
test_union_real(void)
{
	char rt[1024], meta[1024], table[1024];
	char *out;
	int st;

	snprintf(rt, sizeof(rt), "%s", tap_shared_path("ltp/runtest-syscalls"));
	snprintf(meta, sizeof(meta), "%s", tap_shared_path("ltp/ltp.json"));
	snprintf(table, sizeof(table), "%s",
	    tap_shared_path("netbsd/linux-amd64-syscalls.master"));
	setenv("LTPSCOPE_TESTMAP", "data/testmap", 1);
	out = tap_cli(&st, 1, "tests -L /nonexistent -f %s -m %s --metadata %s "
	    "-s getdents64", rt, table, meta);
	is_int(st, 0, "real metadata: tests -s getdents64");
	has_str(out, "getdents01\tgetdents,getdents64\t", "  lists "
	    "getdents01");
	has_str(out, "getdents02\tgetdents,getdents64\t", "  and "
	    "getdents02");
	free(out);
	unsetenv("LTPSCOPE_TESTMAP");
}

/* ltpscope tests --doc and --format json carry the metadata. */
static void
test_cli(void)
{
	char rt[1024], meta[1024], table[1024];
	char *out;
	int st;

	snprintf(rt, sizeof(rt), "%s", tap_shared_path("ltp/runtest-syscalls"));
	snprintf(meta, sizeof(meta), "%s", tap_shared_path("ltp/ltp.json"));
	snprintf(table, sizeof(table), "%s",
	    tap_shared_path("netbsd/linux-amd64-syscalls.master"));
	out = tap_cli(&st, 1, "tests -L /nonexistent -f %s -m %s --metadata %s "
	    "--doc creat07 fcntl01 bpf_prog01", rt, table, meta);
	is_int(st, 0, "tests --doc");
	has_str(out, "creat07\tcreat\tcreat07\n    Check that :manpage:"
	    "`creat(2)` sets ETXTBSY correctly.\n\n    NOTE:", "doc lines "
	    "under the test");
	has_str(out, "    linux-git 3b832035387ff508fdcf0fba66701afc78f79e3d  "
	    "https://git.kernel.org/", "its tag with a link");
	has_str(out, "fcntl01\tfcntl\tfcntl01\n    (no metadata)\n",
	    "a test without metadata says so");
	has_str(out, "bpf_prog01\tbpf\t", "bpf_prog01 mapped by its group");
	free(out);
	out = tap_cli(&st, 1, "tests -L /nonexistent -f %s -m %s --metadata %s "
	    "--format json cve-2017-16939 setuid01_16", rt, table, meta);
	is_int(st, 1, "an unknown tag fails");
	free(out);
	out = tap_cli(&st, 1, "tests -L /nonexistent -f %s -m %s --metadata %s "
	    "--format json setuid01_16", rt, table, meta);
	is_int(st, 0, "tests --format json");
	has_str(out, "\"metadata\": \"setuid01\", \"group\": \"setuid\", "
	    "\"doc\": [\"Verify that setuid(2) returns 0 and effective uid "
	    "has", "metadata name, group and doc in JSON");
	has_str(out, "\"tags\": [], \"requires\": \"\", \"parallel\": "
	    "true}", "tags, requirements and parallel safety");
	free(out);
	out = tap_cli(&st, 1, "tests -L /nonexistent -f %s -m %s --metadata "
	    "/nonexistent/ltp.json fcntl01", rt, table);
	is_int(st, 1, "a --metadata file that is missing fails");
	has_str(out, "/nonexistent/ltp.json: error: cannot open",
	    "and says so");
	free(out);
}

int
main(void)
{
	struct diaglist dl;
	struct ltpmeta *m;
	int l;

	test_json();
	test_load_errors();
	for (l = 0; tap_layer(l); l++) {
		diag_init(&dl);
		m = ltpmeta_load_file(tap_shared_path("ltp/ltp.json"), &dl);
		ok(m != NULL && dl.n == 0, "ltp.json loads cleanly (%zu "
		    "diagnostics)", dl.n);
		if (dl.n > 0)
			diag_print(&dl, stderr, "test_ltpmeta");
		diag_free(&dl);
		if (m != NULL) {
			test_real(m);
			if (tap_layer_real())
				test_runtest_tags(m);
			test_parallel(m);
		}
		ltpmeta_free(m);
	}
	if (!tap_skip_shared("the suite on LTP's real runtest and metadata"))
		test_suite();
	test_union();
	if (!tap_skip_shared("getdents64's tests on LTP's real metadata"))
		test_union_real();
	test_runnable();
	test_quotactl("tests/fixtures/precheck-quotactl.json");
	if (!tap_skip_shared("quotactl01/06 on LTP's real metadata"))
		test_quotactl(tap_shared_path("ltp/ltp.json"));
	if (!tap_skip_shared("tests --doc on LTP's real metadata"))
		test_cli();
	return tap_done();
}
