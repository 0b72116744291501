/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel function index (kindex.h): which lines of a made-up KNF
 * file are definitions (ANSI, K&R, spanning lines, under #ifdefs) and
 * which are not (prototypes, macros, comments, strings); which
 * directories are walked; and the cache, checked by how many files a
 * second build reads, never by time.
 */
#include <sys/stat.h>

#include <fcntl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/kindex.h"
#include "ltpscope/store.h"
#include "fixture_store.h"
#include "tap.h"

#define KSRC	"tests/fixtures/ksrc"
#define LFILE	"sys/compat/linux/common/linux_file.c"

/* The line of the first line of path that starts with text. */
static unsigned long
line_of(const char *path, const char *text)
{
	char buf[512];
	unsigned long n = 0;
	FILE *f;

	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(buf, sizeof(buf), f) != NULL) {
		n++;
		if (strncmp(buf, text, strlen(text)) == 0) {
			(void)fclose(f);
			return n;
		}
	}
	(void)fclose(f);
	return 0;
}

static void
check_def(const struct kindex *ki, const char *name, const char *file,
    const char *start)
{
	const struct kindex_def *d = kindex_find(ki, name);
	char path[512];

	if (!ok(d != NULL, "%s found", name))
		return;
	is_str(d->file, file, "%s: its file", name);
	(void)snprintf(path, sizeof(path), "%s/%s", KSRC, file);
	is_int((long long)d->line, (long long)line_of(path, start),
	    "%s: the line of its name", name);
}

static void
test_scan(void)
{
	static const char *const nots[] = {
		"linux_not_def", "linux_in_comment", "linux_in_macro",
		"linux_lower_macro", "linux_proto_tab", "linux_attr_proto",
		"linux_prototype_spanning", "SYSCTL_SETUP", "__KERNEL_RCSID",
		"LINUX_MACRO", "linux_in_string", "cvtto_bsd_mask",
		"dev_not_indexed",
	};
	const struct kindex_def *d;
	struct kindex ki;
	struct diaglist dl;
	size_t i;

	diag_init(&dl);
	is_int(kindex_build(&ki, KSRC, NULL, NULL, &dl), STORE_OK,
	    "the made-up tree indexes");
	check_def(&ki, "linux_sys_fcntl", LFILE, "linux_sys_fcntl(");
	check_def(&ki, "linux_to_bsd_ioflags", LFILE, "linux_to_bsd_ioflags(");
	check_def(&ki, "bsd_to_linux_stat", LFILE, "bsd_to_linux_stat(");
	check_def(&ki, "linux_sys_open", LFILE, "linux_sys_open(");
	check_def(&ki, "linux_sys_fstatfs64", LFILE, "linux_sys_fstatfs64(");
	is_int((long long)kindex_find_all(&ki, "linux_sys_creat", &d), 2,
	    "both #ifdef branches of linux_sys_creat are definitions");
	check_def(&ki, "sys_read", "sys/kern/sys_generic.c", "sys_read(");
	for (i = 0; i < sizeof(nots) / sizeof(nots[0]); i++)
		ok(kindex_find(&ki, nots[i]) == NULL, "%s is no definition",
		    nots[i]);
	is_int((long long)ki.n, 8, "eight definitions in all");
	is_int((long long)ki.nfiles, 2, "two files under the dirs walked");
	kindex_free(&ki);
	diag_free(&dl);
}

static void
test_missing(void)
{
	struct kindex ki;
	struct diaglist dl;
	const char *e;

	diag_init(&dl);
	is_int(kindex_build(&ki, "tests/fixtures/no-such-tree", NULL, NULL,
	    &dl), STORE_ENOTFOUND, "no tree: not found");
	e = tap_first_diag(&dl);
	has_str(e, "tests/fixtures/no-such-tree", "says where it looked");
	has_str(e, "--kernel-src", "says how to point at one");
	kindex_free(&ki);
	diag_free(&dl);
}

/* Copies the fixture tree to a directory of the test's own. */
static const char *
copy_tree(void)
{
	static char dir[1024];
	char cmd[1200];

	(void)snprintf(dir, sizeof(dir), "%s/ksrc", tap_tmpdir());
	(void)snprintf(cmd, sizeof(cmd), "cp -R %s %s", KSRC, dir);
	ok(system(cmd) == 0, "a copy of the made-up tree");
	return dir;
}

static void
test_cache(void)
{
	struct kindex ki;
	struct diaglist dl;
	struct store *st;
	char db[1024], path[1200];
	const char *tree = copy_tree();
	struct timespec ts[2];

	diag_init(&dl);
	(void)snprintf(db, sizeof(db), "%s/k.db", tap_tmpdir());
	if (!is_int(store_open(&st, db, STORE_CREATE, &dl), STORE_OK,
	    "a store"))
		return;
	is_int(kindex_build(&ki, tree, NULL, st, &dl), STORE_OK, "first build");
	is_int((long long)ki.nread, 2, "first build reads every file");
	kindex_free(&ki);

	is_int(kindex_build(&ki, tree, NULL, st, &dl), STORE_OK,
	    "second build");
	is_int((long long)ki.nread, 0, "untouched: no file read again");
	ok(kindex_find(&ki, "linux_sys_fcntl") != NULL,
	    "untouched: the cache still finds linux_sys_fcntl");
	kindex_free(&ki);

	/* A new mtime, the same bytes: read again. */
	(void)snprintf(path, sizeof(path), "%s/sys/kern/sys_generic.c", tree);
	ts[0].tv_sec = ts[1].tv_sec = 1000000000;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	(void)utimensat(AT_FDCWD, path, ts, 0);
	tap_write(path, "int\nsys_write(int fd)\n{\n}\n");
	(void)utimensat(AT_FDCWD, path, ts, 0);
	is_int(kindex_build(&ki, tree, NULL, st, &dl), STORE_OK, "third build");
	is_int((long long)ki.nread, 1, "touched: that one file read again");
	ok(kindex_find(&ki, "sys_write") != NULL, "its new definition found");
	ok(kindex_find(&ki, "sys_read") == NULL, "its old one gone");
	kindex_free(&ki);

	(void)unlink(path);
	is_int(kindex_build(&ki, tree, NULL, st, &dl), STORE_OK,
	    "fourth build");
	is_int((long long)ki.nread, 0, "removed: nothing read");
	ok(kindex_find(&ki, "sys_write") == NULL, "a removed file's "
	    "definitions gone");
	kindex_free(&ki);
	if (dl.nerrors > 0)
		tap_diag("%s", tap_first_diag(&dl));
	store_close(st);
	diag_free(&dl);
}

/* path's text, with a mtime of its own (t seconds), so a change shows. */
static void
rewrite(const char *path, const char *text, time_t t)
{
	struct timespec ts[2];

	tap_write(path, text);
	ts[0].tv_sec = ts[1].tv_sec = t;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	(void)utimensat(AT_FDCWD, path, ts, 0);
}

/*
 * kindex_open(): from the cache without looking at the tree, each
 * answer checked against its own file, a walk when that file changed,
 * went away, or the name is not in the cache.
 */
static void
test_open(void)
{
	const struct kindex_def *d;
	struct kindex ki;
	struct diaglist dl;
	struct store *st;
	char db[1024], dir[1024], gen[1200], lf[1200], cmd[2200];

	diag_init(&dl);
	(void)snprintf(dir, sizeof(dir), "%s/ksrc-open", tap_tmpdir());
	(void)snprintf(cmd, sizeof(cmd), "cp -R %s %s", KSRC, dir);
	if (!ok(system(cmd) == 0, "open: a copy of the made-up tree"))
		return;
	(void)snprintf(gen, sizeof(gen), "%s/sys/kern/sys_generic.c", dir);
	(void)snprintf(lf, sizeof(lf), "%s/sys/compat/linux/common/"
	    "linux_file.c", dir);
	(void)snprintf(db, sizeof(db), "%s/open.db", tap_tmpdir());
	if (!is_int(store_open(&st, db, STORE_CREATE, &dl), STORE_OK,
	    "open: a store"))
		return;
	/* No cache yet: open walks, as build does. */
	is_int(kindex_open(&ki, dir, NULL, st, &dl), STORE_OK,
	    "open without a cache");
	is_int((long long)ki.nread, 2, "it reads every file");
	kindex_free(&ki);

	is_int(kindex_open(&ki, dir, NULL, st, &dl), STORE_OK,
	    "open with a cache");
	ok(ki.trusting && ki.nread == 0, "it reads nothing");
	is_int((long long)kindex_lookup(&ki, "linux_sys_fcntl", &d, &dl), 1,
	    "linux_sys_fcntl from the cache");
	is_int(d != NULL ? (long long)d->line : 0, 78, "at its line");
	ok(!ki.walked, "its file unchanged: no walk");

	/* Its file changes: the answer is the file's new line. */
	rewrite(gen, "/* moved down */\n\nint\nsys_read(int fd)\n{\n}\n",
	    1000000000);
	is_int((long long)kindex_lookup(&ki, "sys_read", &d, &dl), 1,
	    "sys_read after its file changed");
	is_int(d != NULL ? (long long)d->line : 0, 4, "at its new line");
	ok(ki.walked && ki.nread == 1, "one walk, that file read again");

	/* After the walk, answers are still checked. */
	rewrite(gen, "int\nsys_read(int fd)\n{\n}\n", 1000000100);
	is_int((long long)kindex_lookup(&ki, "sys_read", &d, &dl), 1,
	    "sys_read after a second change");
	is_int(d != NULL ? (long long)d->line : 0, 2, "at its newest line");
	kindex_free(&ki);

	/* Moved to another file: found there. */
	rewrite(gen, "int\nsys_write(int fd)\n{\n}\n", 1000000200);
	(void)snprintf(cmd, sizeof(cmd), "%s/sys/kern/sys_read.c", dir);
	rewrite(cmd, "\nint\nsys_read(int fd)\n{\n}\n", 1000000200);
	is_int(kindex_open(&ki, dir, NULL, st, &dl), STORE_OK, "open again");
	ok(kindex_lookup(&ki, "sys_read", &d, &dl) == 1 &&
	    strcmp(d->file, "sys/kern/sys_read.c") == 0 && d->line == 3,
	    "a function moved to a new file: found in it");

	/* Not in the cache: one walk finds a new file's function. */
	kindex_free(&ki);
	(void)snprintf(cmd, sizeof(cmd), "%s/sys/kern/kern_new.c", dir);
	rewrite(cmd, "int\nsys_brandnew(void)\n{\n}\n", 1000000300);
	is_int(kindex_open(&ki, dir, NULL, st, &dl), STORE_OK, "open again");
	ok(kindex_lookup(&ki, "sys_brandnew", &d, &dl) == 1 && ki.walked,
	    "a name the cache lacks: a walk finds it");

	/* Its file removed: the definition goes with it. */
	kindex_free(&ki);
	is_int(kindex_open(&ki, dir, NULL, st, &dl), STORE_OK, "open again");
	ok(kindex_lookup(&ki, "linux_sys_open", &d, &dl) == 1, "linux_sys_open "
	    "from the cache");
	(void)unlink(lf);
	is_int((long long)kindex_lookup(&ki, "linux_sys_open", &d, &dl), 0,
	    "its file removed: not found");
	kindex_free(&ki);
	if (dl.nerrors > 0)
		tap_diag("%s", tap_first_diag(&dl));
	store_close(st);
	diag_free(&dl);
}

/* A database with a run in which fcntl35 and fcntl36 failed. */
static const char *
made_db(void)
{
	static const char *const tags[] = { "fcntl35", "fcntl36", "open01" };
	static char db[1024];
	struct store_result r;
	struct store_run run;
	struct diaglist dl;
	struct store *st;
	int64_t id;
	size_t i;

	(void)snprintf(db, sizeof(db), "%s/runs.db", tap_tmpdir());
	diag_init(&dl);
	if (!is_int(store_open(&st, db, STORE_CREATE, &dl), STORE_OK,
	    "a database"))
		return db;
	fixture_run_init(&run);
	(void)store_run_begin(st, &run, NULL, 0, &dl);
	for (i = 0; i < 3; i++) {
		memset(&r, 0, sizeof(r));
		r.tag = (char *)tags[i];
		r.status = i < 2 ? TS_FAIL : TS_PASS;
		r.nfail = i < 2;
		r.npass = i == 2;
		r.exit_code = i < 2;
		(void)store_test_start(st, run.id, tags[i], i < 2 ? "fcntl" :
		    "open", (int64_t)i, &id, &dl);
		(void)store_test_finish(st, id, &r, "x\n", 2, &dl);
	}
	(void)store_run_end(st, run.id, RUN_FINISHED, &dl);
	if (dl.nerrors > 0)
		tap_diag("%s", tap_first_diag(&dl));
	store_close(st);
	diag_free(&dl);
	return db;
}

static void
test_cli(void)
{
	const char *db = made_db();
	char want[256], *out;
	unsigned long ln;
	int status;

	ln = line_of(KSRC "/" LFILE, "linux_sys_fcntl(");
	(void)snprintf(want, sizeof(want), "linux_sys_fcntl (%s:%lu)", LFILE,
	    ln);
	out = tap_cli(&status, 0, "export -d %s -m %s/linux-amd64-syscalls."
	    "master --kernel-src %s --format md", db, KSRC, KSRC);
	is_int(status, 0, "export --format md");
	has_str(tap_line_of(out, "**fcntl35**"), want,
	    "fcntl35's line says where linux_sys_fcntl is");
	has_str(tap_line_of(out, "**fcntl36**"), want,
	    "so does fcntl36's");
	free(out);

	out = tap_cli(&status, 0, "export -d %s -m %s/linux-amd64-syscalls."
	    "master --kernel-src %s --format md --source-url "
	    "'https://nxr.example/xref/src/%%f#%%l'", db, KSRC, KSRC);
	(void)snprintf(want, sizeof(want), "[linux_sys_fcntl (%s:%lu)]"
	    "(https://nxr.example/xref/src/%s#%lu)", LFILE, ln, LFILE, ln);
	has_str(tap_line_of(out, "**fcntl35**"), want,
	    "with a source-url: a Markdown link");
	free(out);

	out = tap_cli(&status, 0, "export -d %s -m %s/linux-amd64-syscalls."
	    "master --kernel-src %s --format html --source-url "
	    "'https://nxr.example/%%f#%%l'", db, KSRC, KSRC);
	(void)snprintf(want, sizeof(want), "<a href=\"https://nxr.example/"
	    "%s#%lu\">linux_sys_fcntl (%s:%lu)</a>", LFILE, ln, LFILE, ln);
	has_str(out, want, "and an HTML one");
	free(out);

	out = tap_cli(&status, 0, "export -d %s -m %s/linux-amd64-syscalls."
	    "master --kernel-src %s --format json", db, KSRC, KSRC);
	(void)snprintf(want, sizeof(want), "\"function_file\": \"%s\", "
	    "\"function_line\": %lu", LFILE, ln);
	has_str(out, want, "JSON: the function's file and line");
	free(out);

	out = tap_cli(&status, 0, "export -d %s -m %s/linux-amd64-syscalls."
	    "master --kernel-src %s --format csv", db, KSRC, KSRC);
	has_str(out, "\"function\",\"function_file\",\"function_line\"\r\n",
	    "CSV: the function's columns end the header");
	(void)snprintf(want, sizeof(want), "\"no\",\"\",\"linux_sys_fcntl\","
	    "\"%s\",\"%lu\"", LFILE, ln);
	has_str(tap_line_of(out, "\"fcntl35\""), want,
	    "CSV: fcntl35's record ends with its function, file and line");
	free(out);

	out = tap_cli(&status, 0, "export -d %s -m %s/linux-amd64-syscalls."
	    "master --kernel-src %s --format html", db, KSRC, KSRC);
	(void)snprintf(want, sizeof(want), "<tr><td>fcntl</td><td>"
	    "implemented-compat</td><td>linux_sys_fcntl (%s:%lu)</td>",
	    LFILE, ln);
	has_str(out, want, "HTML: the per-syscall table's function cell");
	free(out);

	out = tap_cli(&status, 0, "func -d %s -m %s/linux-amd64-syscalls."
	    "master --kernel-src %s fcntl", db, KSRC, KSRC);
	is_int(status, 0, "func fcntl");
	(void)snprintf(want, sizeof(want), "/%s:%lu: linux_sys_fcntl\n",
	    LFILE, ln);
	has_str(out, want, "func prints file:line: function");
	free(out);

	out = tap_cli(&status, 1, "func -d %s -m %s/linux-amd64-syscalls."
	    "master --kernel-src tests/fixtures/no-such-tree fcntl", db, KSRC);
	ok(status != 0, "func without a tree fails");
	has_str(out, "tests/fixtures/no-such-tree/sys/kern",
	    "and says where it looked");
	has_str(out, "--kernel-src", "and how to point at a tree");
	free(out);
}

/*
 * Many files, and names several of them define (static helpers): each
 * name's definitions side by side, by file and line, whichever bucket
 * they share with others, the same from the cache as read afresh.
 */
#define MANY_FILES	60
#define MANY_FUNCS	40

static int
many_check(const struct kindex *ki, const char *how)
{
	const struct kindex_def *d;
	char name[64], file[64];
	size_t n, k;
	int i, j, bad = 0;

	for (i = 0; i < MANY_FILES; i++)
		for (j = 0; j < MANY_FUNCS; j++) {
			(void)snprintf(name, sizeof(name), "f%d_%d", i, j);
			if (kindex_find_all(ki, name, &d) != 1 ||
			    d->line != (unsigned long)j * 4 + 2)
				bad++;
		}
	/* helper_K is in every file whose number K divides. */
	for (j = 1; j <= 6; j++) {
		(void)snprintf(name, sizeof(name), "helper_%d", j);
		n = kindex_find_all(ki, name, &d);
		if (n != (size_t)(MANY_FILES + j - 1) / (size_t)j) {
			bad++;
			continue;
		}
		for (k = 0; k < n; k++) {
			(void)snprintf(file, sizeof(file), "sys/kern/m%02d.c",
			    (int)k * j);
			if (strcmp(d[k].name, name) != 0 ||
			    strcmp(d[k].file, file) != 0)
				bad++;
		}
	}
	return is_int(bad, 0, "%s: every name's definitions, side by side "
	    "by file", how);
}

static void
test_many(void)
{
	char dir[1024], path[1200], *text, *p;
	struct kindex ki;
	struct diaglist dl;
	struct store *st;
	size_t len = 64 * 1024;
	int i, j;

	(void)snprintf(dir, sizeof(dir), "%s/many/sys/kern", tap_tmpdir());
	(void)snprintf(path, sizeof(path), "mkdir -p %s", dir);
	if (!ok(system(path) == 0, "a tree of many files"))
		return;
	text = malloc(len);
	for (i = 0; i < MANY_FILES && text != NULL; i++) {
		p = text;
		for (j = 0; j < MANY_FUNCS; j++)
			p += snprintf(p, len - (size_t)(p - text),
			    "int\nf%d_%d(void)\n{\n}\n", i, j);
		for (j = 1; j <= 6; j++)
			if (i % j == 0)
				p += snprintf(p, len - (size_t)(p - text),
				    "static void\nhelper_%d(void)\n{\n}\n",
				    j);
		(void)snprintf(path, sizeof(path), "%s/m%02d.c", dir, i);
		tap_write(path, text);
	}
	free(text);
	diag_init(&dl);
	(void)snprintf(dir, sizeof(dir), "%s/many", tap_tmpdir());
	(void)snprintf(path, sizeof(path), "%s/many.db", tap_tmpdir());
	if (!is_int(store_open(&st, path, STORE_CREATE, &dl), STORE_OK,
	    "a store"))
		return;
	is_int(kindex_build(&ki, dir, NULL, st, &dl), STORE_OK, "read afresh");
	is_int((long long)ki.nread, MANY_FILES, "every file read");
	many_check(&ki, "afresh");
	kindex_free(&ki);
	is_int(kindex_build(&ki, dir, NULL, st, &dl), STORE_OK,
	    "from the cache");
	is_int((long long)ki.nread, 0, "no file read");
	many_check(&ki, "cached");
	kindex_free(&ki);
	store_close(st);
	diag_free(&dl);
}

int
main(void)
{
	test_scan();
	test_missing();
	test_cache();
	test_open();
	test_many();
	test_cli();
	return tap_done();
}
