/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linux's names without Linux's headers: the names files in
 * data/syscalls (one per ABI compat_linux emulates) name the slots of a
 * NetBSD table the way LTP does, so that __posix_rename is rename and
 * its tests are found.  Made-up tables in tests/fixtures/catalogue are
 * checked against the shipped files; the real tables of ../shared,
 * when there, against Linux's own syscall_*.tbl.
 */
#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/diag.h"
#include "tap.h"
#include "tmux.h"

#define FIX	"tests/fixtures/catalogue/"
#define NAMES	"data/syscalls"

static const char *
name_at(struct catalogue *cat, const char *abi, long number)
{
	const struct cat_entry *e = catalogue_find_number(cat, abi, number);

	return e != NULL ? e->name : "(none)";
}

/* Every ABI of compat_linux and compat_linux32 has its names file. */
static void
test_files(void)
{
	static const char *const abis[] = {
		"linux-amd64", "linux-i386", "linux-arm", "linux-aarch64",
		"linux-alpha", "linux-mips", "linux-powerpc", "linux-m68k",
		"linux32-amd64", "linux32-aarch64"
	};
	static const struct {
		const char	*abi;
		long		 number;
		const char	*name;
	} facts[] = {
		{ "x86_64", 0, "read" }, { "x86_64", 82, "rename" },
		{ "x86_64", 129, "rt_sigqueueinfo" },
		{ "x86_64", 273, "set_robust_list" },
		{ "i386", 0, "restart_syscall" }, { "i386", 38, "rename" },
		{ "i386", 180, "pread64" },
		{ "arm", 38, "rename" }, { "arm", 397, "statx" },
		{ "arm64", 63, "read" }, { "arm64", 17, "getcwd" },
		{ "alpha", 128, "rename" }, { "m68k", 183, "getcwd" },
		{ "powerpc", 182, "getcwd" },
		/* NetBSD's numbering: Linux's o32 4000 is 0 here. */
		{ "mips", 0, "syscall" }, { "mips", 203, "getcwd" },
	};
	struct catalogue *cat = catalogue_new();
	struct diaglist dl;
	char path[256];
	size_t i, j;

	diag_init(&dl);
	for (i = 0; i < sizeof(abis) / sizeof(abis[0]); i++) {
		snprintf(path, sizeof(path), NAMES "/%s",
		    catalogue_linux_abi(abis[i]));
		ok(access(path, R_OK) == 0, "%s: %s is shipped", abis[i],
		    path);
	}
	for (i = 0; i < sizeof(abis) / sizeof(abis[0]); i++) {
		const char *labi = catalogue_linux_abi(abis[i]);

		if (catalogue_linux_row(cat, abis[i], 3) != NULL)
			continue;	/* a second NetBSD ABI of the file */
		snprintf(path, sizeof(path), NAMES "/%s", labi);
		is_int(catalogue_load_file(cat, path, NULL, &dl), 0,
		    "%s: loads without errors", path);
	}
	for (i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const struct cat_entry *l;

		for (j = 0; j < sizeof(abis) / sizeof(abis[0]) - 1; j++)
			if (strcmp(catalogue_linux_abi(abis[j]),
			    facts[i].abi) == 0)
				break;
		l = catalogue_linux_row(cat, abis[j], facts[i].number);
		is_str(l != NULL ? l->own_name : "(none)", facts[i].name,
		    "%s %ld is %s", facts[i].abi, facts[i].number,
		    facts[i].name);
		ok(l != NULL && l->format == CF_NAMES && l->state == CS_LINUX,
		    "%s %ld: a names file row", facts[i].abi, facts[i].number);
	}
	is_int(dl.nerrors, 0, "names files: zero errors");
	is_int((long long)catalogue_count(cat), 0,
	    "names rows are never listed");
	diag_free(&dl);
	catalogue_free(cat);
}

static void
test_format(void)
{
	static const char good[] =
	    "# ltpscope syscall names: Linux x86_64, a test\n"
	    "# comment\n"
	    "\n"
	    "0\tread\n"
	    "1  write\n";
	struct catalogue *cat = catalogue_new();
	struct diaglist dl;
	size_t n;
	const char **files;

	diag_init(&dl);
	is_int(catalogue_detect(good, sizeof(good) - 1), CF_NAMES,
	    "detect: names file by its first line");
	is_int(catalogue_load_buffer(cat, "mem", NULL, good, sizeof(good) - 1,
	    &dl), 0, "names buffer: no errors");
	is_str(catalogue_linux_row(cat, "linux-amd64", 1) != NULL ?
	    catalogue_linux_row(cat, "linux-amd64", 1)->own_name : "",
	    "write", "ABI from the first line (x86_64)");
	files = catalogue_files(cat, &n);
	is_int((long long)n, 0, "a names file is not a listed source");
	free(files);
	is_int(catalogue_load_file(cat, FIX "names-bad", NULL, &dl), 3,
	    "bad names file: three errors");
	is_str(tap_first_diag(&dl), FIX "names-bad:3: error: bad syscall "
	    "number 'one'", "errors name file and line");
	diag_free(&dl);
	catalogue_free(cat);
}

/* A made-up NetBSD table takes Linux's names from the shipped file. */
static void
test_fixture(void)
{
	static const struct {
		long		 number;
		const char	*name;
	} want[] = {
		{ 0, "read" }, { 4, "stat" }, { 17, "pread64" },
		{ 43, "accept" }, { 79, "getcwd" }, { 82, "rename" },
		{ 129, "rt_sigqueueinfo" }, { 155, "pivot_root" },
		{ 262, "newfstatat" }, { 273, "set_robust_list" },
		{ 298, "perf_event_open" }, { 332, "statx" },
		{ 333, "io_pgetevents" },
		/* Linux has no 600: NetBSD's name stays. */
		{ 600, "a_very_long_netbsd_only_name" },
	};
	struct catalogue *cat = catalogue_new();
	struct cat_mismatch *mm;
	struct diaglist dl;
	const struct cat_entry *e;
	size_t i, n, before;

	diag_init(&dl);
	(void)catalogue_load_file(cat, FIX "linux-amd64-netbsdnames.master",
	    NULL, &dl);
	is_int(dl.nerrors, 0, "fixture: zero errors");
	is_str(name_at(cat, "linux-amd64", 82), "__posix_rename",
	    "without names: NetBSD's function name");
	before = catalogue_count(cat);
	is_int(catalogue_load_names(cat, NAMES, &dl), 1,
	    "load_names: one file for linux-amd64");
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		is_str(name_at(cat, "linux-amd64", want[i].number),
		    want[i].name, "fixture %ld: %s", want[i].number,
		    want[i].name);
	is_int((long long)catalogue_count(cat), (long long)before,
	    "names add no rows (no absent entries)");
	e = catalogue_find_number(cat, "linux-amd64", 82);
	is_str(e != NULL ? e->own_name : "", "__posix_rename",
	    "own_name keeps NetBSD's name");
	is_int(catalogue_load_names(cat, NAMES, &dl), 0,
	    "load_names again: nothing more");
	n = 0;
	{
		const struct cat_entry *out[4];

		n = catalogue_find_name(cat, NULL, "rename", out, 4);
		ok(n == 1 && out[0]->number == 82, "find_name: rename is 82");
	}
	mm = catalogue_crosscheck(cat, &n);
	is_int((long long)n, 1, "crosscheck with names: one disagreement");
	if (n > 0) {
		is_int(mm[0].netbsd->number, 333, "crosscheck: 333");
		is_str(mm[0].ref->own_name, "io_pgetevents",
		    "crosscheck: Linux's name from the names file");
		has_str(mm[0].ref->file, "data/syscalls/x86_64",
		    "crosscheck: the names file is the reference");
	}
	free(mm);
	diag_free(&dl);
	catalogue_free(cat);

	/* A Linux table given wins over the names file. */
	cat = catalogue_new();
	diag_init(&dl);
	(void)catalogue_load_file(cat, FIX "linux-amd64-constructs.master",
	    NULL, &dl);
	(void)catalogue_load_file(cat, FIX "fixture_64.tbl", NULL, &dl);
	is_int(catalogue_load_names(cat, NAMES, &dl), 0,
	    "load_names: a Linux table of the ABI is loaded, none taken");
	e = catalogue_linux_row(cat, "linux-amd64", 5);
	ok(e != NULL && e->format == CF_TBL, "the tbl names the slots");
	diag_free(&dl);
	catalogue_free(cat);

	/* The names file's row loses to a table loaded after it, too. */
	cat = catalogue_new();
	diag_init(&dl);
	(void)catalogue_load_file(cat, FIX "linux-amd64-constructs.master",
	    NULL, &dl);
	is_int(catalogue_load_names(cat, NAMES, &dl), 1, "names first");
	(void)catalogue_load_file(cat, FIX "fixture_64.tbl", NULL, &dl);
	e = catalogue_linux_row(cat, "linux-amd64", 5);
	ok(e != NULL && e->format == CF_TBL, "then a tbl: the tbl wins");
	diag_free(&dl);
	catalogue_free(cat);
}

/* mips numbers from 0 on both sides; linux32 takes i386's names. */
static void
test_other_abis(void)
{
	struct catalogue *cat = catalogue_new();
	struct diaglist dl;

	diag_init(&dl);
	(void)catalogue_load_file(cat, FIX "linux-mips-netbsdnames.master",
	    NULL, &dl);
	(void)catalogue_load_file(cat, FIX
	    "linux32-amd64-netbsdnames.master", NULL, &dl);
	is_int(dl.nerrors, 0, "mips, linux32 fixtures: zero errors");
	is_int(catalogue_load_names(cat, NAMES, &dl), 2,
	    "load_names: mips and i386");
	is_str(name_at(cat, "linux-mips", 0), "syscall", "mips 0: syscall");
	is_str(name_at(cat, "linux-mips", 38), "rename", "mips 38: rename");
	is_str(name_at(cat, "linux-mips", 198), "rt_sigqueueinfo",
	    "mips 198: rt_sigqueueinfo");
	is_str(name_at(cat, "linux-mips", 200), "pread64",
	    "mips 200: pread64");
	is_str(name_at(cat, "linux-mips", 203), "getcwd", "mips 203: getcwd");
	is_str(name_at(cat, "linux32-amd64", 38), "rename",
	    "linux32 38: rename");
	is_str(name_at(cat, "linux32-amd64", 178), "rt_sigqueueinfo",
	    "linux32 178: rt_sigqueueinfo");
	is_str(name_at(cat, "linux32-amd64", 180), "pread64",
	    "linux32 180: pread64");
	is_str(name_at(cat, "linux32-amd64", 183), "getcwd",
	    "linux32 183: getcwd");
	diag_free(&dl);
	catalogue_free(cat);
}

/* A tiny LTP install whose tests only match under Linux's names. */
static const char *
make_ltproot(void)
{
	static char root[1024];
	char path[1100];
	FILE *fp;

	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	snprintf(path, sizeof(path), "%s/runtest", root);
	(void)mkdir(root, 0755);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", root);
	if ((fp = fopen(path, "w")) == NULL)
		return root;
	fputs("rename01 rename01\nrename03 rename03\ngetcwd01 getcwd01\n"
	    "rt_sigqueueinfo01 rt_sigqueueinfo01\n"
	    "set_robust_list01 set_robust_list01\n", fp);
	fclose(fp);
	return root;
}

static void
test_cli(const char *root)
{
	char cmd[4096];
	char *out;
	int st;

	snprintf(cmd, sizeof(cmd), "%s catalogue --format csv -m "
	    FIX "linux-amd64-netbsdnames.master", tap_bin());
	out = tap_run(cmd, &st, 0);
	is_int(st, 0, "cli csv: exit 0");
	has_str(out, "linux-amd64,82,rename,NOARGS,implemented-native,"
	    "sys___posix_rename,", "cli csv: 82 is rename");
	ok(strstr(out, ",__posix_rename,") == NULL,
	    "cli csv: no NetBSD name as the name");
	free(out);

	snprintf(cmd, sizeof(cmd), "LTPSCOPE_DATA=%s/nonexistent %s "
	    "catalogue --format csv -m " FIX "linux-amd64-netbsdnames.master",
	    tap_tmpdir(), tap_bin());
	out = tap_run(cmd, &st, 0);
	has_str(out, "linux-amd64,82,__posix_rename,",
	    "cli: the names come from the data directory");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s catalogue --summary -m "
	    FIX "linux-amd64-netbsdnames.master", tap_bin());
	out = tap_run(cmd, &st, 0);
	has_str(out, "  Linux's names from ", "cli summary: names source");
	has_str(out, "data/syscalls/x86_64\n", "cli summary: the names file");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s catalogue --crosscheck -m "
	    FIX "linux-amd64-netbsdnames.master", tap_bin());
	out = tap_run(cmd, &st, 1);
	is_int(st, 1, "cli crosscheck without a Linux table: runs");
	has_str(out, "linux-amd64 333: NetBSD has getdents "
	    "(linux_sys_getdents), Linux has io_pgetevents",
	    "cli crosscheck: against the names file");
	has_str(out, "1 slot disagrees with Linux", "cli crosscheck: total");
	free(out);

	snprintf(cmd, sizeof(cmd), "%s tests -L %s --no-metadata -m "
	    FIX "linux-amd64-netbsdnames.master -s rename,getcwd,"
	    "rt_sigqueueinfo,set_robust_list", tap_bin(), root);
	out = tap_run(cmd, &st, 1);
	is_int(st, 0, "cli tests -s: exit 0");
	has_str(out, "rename01\trename\t", "tests -s rename: rename01");
	has_str(out, "rename03\trename\t", "tests -s rename: rename03");
	has_str(out, "getcwd01\tgetcwd\t", "tests -s getcwd");
	has_str(out, "rt_sigqueueinfo01\trt_sigqueueinfo\t",
	    "tests -s rt_sigqueueinfo");
	has_str(out, "set_robust_list01\tset_robust_list\t",
	    "tests -s set_robust_list");
	free(out);
}

static void
test_tui(const char *root)
{
	const char *t = tap_tmpdir(), *line;
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "env HOME=%s XDG_DATA_HOME=%s/data "
	    "XDG_CONFIG_HOME=%s/config XDG_STATE_HOME=%s/state %s ui "
	    "-d %s/tui.db -L %s -m " FIX "linux-amd64-netbsdnames.master",
	    t, t, t, t, tap_bin(), t, root);
	if (!ok(tmux_start(cmd, 80, 24) == 0 && tmux_wait_for("? help",
	    8000), "80x24: the explorer opens")) {
		tap_diag("%s", tmux_screen());
		tmux_stop();
		return;
	}
	line = tmux_line("   82  ");
	has_str(line, "   82  rename ", "explorer: 82 is rename");
	has_str(line, "native      2", "explorer: 82 has rename's two tests");
	line = tmux_line("  129  ");
	has_str(line, "rt_sigqueueinfo        compat      1",
	    "explorer: 129 is rt_sigqueueinfo, with its test");
	line = tmux_line("  600  ");
	has_str(line, "  600  a_very_long_netbsd_on~ compat",
	    "explorer: a long name is cut, STATE stays apart");
	tmux_keys("q");
	ok(tmux_wait_dead(5000), "q quits");
	tmux_stop();
}

/*
 * The real tables: with only NetBSD's table, every slot's name is the
 * one Linux's own table gives (as if -m syscall_*.tbl had been given),
 * save the calls Linux renamed after that table was written.
 */
static const char *const renamed_later[][2] = {
	/* Linux 5.14: quotactl_path became quotactl_fd before release. */
	{ "quotactl_fd", "quotactl_path" },
};

static int
renamed(const char *now, const char *then)
{
	size_t i;

	for (i = 0; i < sizeof(renamed_later) / sizeof(renamed_later[0]); i++)
		if (strcmp(renamed_later[i][0], now) == 0 &&
		    strcmp(renamed_later[i][1], then) == 0)
			return 1;
	return 0;
}

/* The next CSV row of *p that is not an absent entry, or NULL. */
static char *
next_row(char **p)
{
	char *line, *nl;

	while (**p != '\0') {
		line = *p;
		if ((nl = strchr(line, '\n')) != NULL) {
			*nl = '\0';
			*p = nl + 1;
		} else
			*p = line + strlen(line);
		/* Absent rows come from a Linux table given, not names. */
		if (strstr(line, ",absent,") == NULL)
			return line;
	}
	return NULL;
}

/* Field 2 (the name) of a CSV row with no quoted fields before it. */
static void
row_name(const char *row, char *buf, size_t len)
{
	const char *a = strchr(row, ','), *b;

	a = a != NULL ? strchr(a + 1, ',') : NULL;
	b = a != NULL ? strchr(a + 1, ',') : NULL;
	if (a == NULL || b == NULL) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "%.*s", (int)(b - a - 1), a + 1);
}

static void
compare_real(const char *master, const char *tbl)
{
	char cmd[16640], m[4096], l[4096], n1[128], n2[128];
	char *a, *b, *pa, *pb, *ra, *rb;
	size_t rows = 0, bad = 0, later = 0;
	int st;

	snprintf(m, sizeof(m), "%s", tap_shared_path(master));
	snprintf(l, sizeof(l), "%s", tap_shared_path(tbl));
	snprintf(cmd, sizeof(cmd), "%s catalogue --format csv -m '%s'",
	    tap_bin(), m);
	a = tap_run(cmd, &st, 0);
	snprintf(cmd, sizeof(cmd), "%s catalogue --format csv -m '%s' "
	    "-m '%s'", tap_bin(), m, l);
	b = tap_run(cmd, &st, 0);
	pa = a;
	pb = b;
	for (;;) {
		ra = next_row(&pa);
		rb = next_row(&pb);
		if (ra == NULL || rb == NULL) {
			ok(ra == NULL && rb == NULL, "%s: same rows as with "
			    "%s", master, tbl);
			break;
		}
		rows++;
		if (strcmp(ra, rb) == 0)
			continue;
		row_name(ra, n1, sizeof(n1));
		row_name(rb, n2, sizeof(n2));
		if (renamed(n1, n2)) {
			later++;
			continue;
		}
		if (bad++ < 5)
			tap_diag("%s:\n  names file: %s\n  with tbl:   %s",
			    master, ra, rb);
	}
	is_int((long long)bad, 0, "%s: %zu rows, each as with -m %s (%zu "
	    "renamed later)", master, rows, tbl, later);
	ok(rows > 300, "%s: the whole table compared", master);
	free(a);
	free(b);
}

static void
test_shared(void)
{
	const char *sh = getenv("LTPSCOPE_SHARED");
	char cmd[16640], m[4096], root[1024], path[1100], real[PATH_MAX];
	char *out;
	int st;

	/* tap_shared() bails out without it: this layer is optional. */
	if (sh == NULL || *sh == '\0')
		sh = "../shared";
	if (access(sh, R_OK | X_OK) != 0) {
		ok(1, "real tables # SKIP ../shared not found");
		return;
	}
	compare_real("netbsd/linux-amd64-syscalls.master",
	    "linux/syscall_64.tbl");
	compare_real("netbsd/linux-i386-syscalls.master",
	    "linux/syscall_32.tbl");
	compare_real("netbsd/linux32-amd64-syscalls.master",
	    "linux/syscall_32.tbl");

	/* The calls issue 10 named, by the names LTP's tests use. */
	snprintf(m, sizeof(m), "%s",
	    tap_shared_path("netbsd/linux-amd64-syscalls.master"));
	snprintf(cmd, sizeof(cmd), "%s catalogue --format csv -m '%s'",
	    tap_bin(), m);
	out = tap_run(cmd, &st, 0);
	has_str(out, "linux-amd64,82,rename,", "real amd64: 82 rename");
	has_str(out, "linux-amd64,79,getcwd,", "real amd64: 79 getcwd");
	has_str(out, "linux-amd64,129,rt_sigqueueinfo,",
	    "real amd64: 129 rt_sigqueueinfo");
	has_str(out, "linux-amd64,273,set_robust_list,",
	    "real amd64: 273 set_robust_list");
	has_str(out, "linux-amd64,274,get_robust_list,",
	    "real amd64: 274 get_robust_list");
	free(out);

	/* LTP's own runtest file finds rename's tests at slot 82. */
	snprintf(root, sizeof(root), "%s/ltpreal", tap_tmpdir());
	(void)mkdir(root, 0755);
	snprintf(path, sizeof(path), "%s/runtest", root);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", root);
	ok(realpath(tap_shared_path("ltp/runtest-syscalls"), real) != NULL &&
	    symlink(real, path) == 0,
	    "a fake install with LTP's runtest/syscalls");
	snprintf(cmd, sizeof(cmd), "%s tests -L %s --no-metadata -m '%s' "
	    "-s rename", tap_bin(), root, m);
	out = tap_run(cmd, &st, 1);
	has_str(out, "rename01\trename\t", "real: tests -s rename, rename01");
	has_str(out, "rename14\trename\t", "real: ... to rename14");
	free(out);
}

int
main(void)
{
	const char *root;

	test_files();
	test_format();
	test_fixture();
	test_other_abis();
	root = make_ltproot();
	test_cli(root);
	test_tui(root);
	test_shared();
	return tap_done();
}
