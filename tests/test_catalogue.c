/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The syscall catalogue: every syscalls.master construct, the Linux
 * tables, malformed input (with the exact file:line of each message),
 * the real tables in ../shared with the figures a user would check by
 * hand, and the catalogue subcommand's text, CSV and JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/diag.h"
#include "tap.h"

#define FIX	"tests/fixtures/catalogue/"

static const char *const shared_netbsd[] = {
	"netbsd/linux-amd64-syscalls.master",
	"netbsd/linux-amd64-syscalls.master.v1.74-2024",
	"netbsd/linux-i386-syscalls.master",
	"netbsd/linux32-amd64-syscalls.master",
	"netbsd/netbsd-syscalls.master",
};

/* The formatted message of the first diagnostic containing needle. */
static const char *
find_diag(const struct diaglist *dl, const char *needle)
{
	static char buf[1024];
	size_t i;

	for (i = 0; i < dl->n; i++) {
		(void)diag_format(&dl->v[i], buf, sizeof(buf));
		if (strstr(buf, needle) != NULL)
			return buf;
	}
	return "(no such diagnostic)";
}

static void
show_diags(const struct diaglist *dl)
{
	char buf[1024];
	size_t i;

	for (i = 0; i < dl->n && i < 10; i++) {
		(void)diag_format(&dl->v[i], buf, sizeof(buf));
		tap_diag("%s", buf);
	}
}

/* The alternate (#else) entry at abi/number, or NULL. */
static const struct cat_entry *
find_alternate(struct catalogue *cat, const char *abi, long number)
{
	size_t i, n = catalogue_count_all(cat);

	for (i = 0; i < n; i++) {
		const struct cat_entry *e = catalogue_entry_all(cat, i);

		if (e->alternate && e->number == number &&
		    strcmp(e->abi, abi) == 0)
			return e;
	}
	return NULL;
}

static void
test_constructs(void)
{
	struct catalogue *cat = catalogue_new();
	struct diaglist dl;
	const struct cat_entry *e, *found[4];
	const char **names;
	size_t n, i;
	int sorted = 1;

	diag_init(&dl);
	is_int(catalogue_load_file(cat, FIX "linux-amd64-constructs.master",
	    NULL, &dl), 0, "constructs: loads without errors");
	show_diags(&dl);
	is_int(catalogue_count(cat), 22, "constructs: 22 slots in the "
	    "default view");
	is_int(catalogue_count_all(cat), 24, "constructs: 2 #else "
	    "alternatives kept aside");
	for (i = 1; i < catalogue_count(cat); i++)
		if (catalogue_entry(cat, i - 1)->number >=
		    catalogue_entry(cat, i)->number)
			sorted = 0;
	ok(sorted, "constructs: default view in number order");

	e = catalogue_find_number(cat, "linux-amd64", 0);
	ok(e != NULL, "ABI linux-amd64 derived from the file name");
	if (e == NULL)
		goto out;
	is_str(e->function, "sys_read", "0: function prefix+name");
	is_str(e->type_name, "NOARGS", "0: type");
	is_str(cat_state_name(e->state), "implemented-native",
	    "0: a sys_ function is native");
	is_str(e->prototype, "ssize_t sys_read(int fd, void *buf, "
	    "size_t nbyte)", "0: prototype");
	is_int(e->line, 7, "0: line");
	is_int(e->format, CF_MASTER, "0: format");

	e = catalogue_find_number(cat, "linux-amd64", 1);
	is_str(e->prototype, "int linux_sys_open(const char *path, "
	    "int flags, linux_umode_t mode)", "1: backslash continuation");
	is_str(cat_state_name(e->state), "implemented-compat",
	    "1: linux_sys_ is a compat shim");
	is_int(e->line, 8, "1: an entry's line is its first line");

	e = catalogue_find_number(cat, "linux-amd64", 2);
	is_str(e->function, "sys___msync13", "2: sys|13|msync");
	is_str(e->name, "msync", "2: name is the basename");

	e = catalogue_find_number(cat, "linux-amd64", 3);
	is_str(e->function, "sys___posix_chown", "3: __posix_ function");
	is_str(e->modifiers, "RUMP", "3: STD RUMP");
	is_str(e->type_name, "STD", "3: type without RUMP");

	e = catalogue_find_number(cat, "linux-amd64", 4);
	is_str(e->type_name, "COMPAT_43", "4: COMPAT_43 type");
	is_int(e->type, CT_COMPAT, "4: COMPAT type enum");
	is_str(e->function, "compat_43_sys_lseek", "4: compat_43_ prefix");
	is_str(e->modifiers, "MODULAR compat_43", "4: MODULAR word");
	is_str(e->alias, "olseek", "4: alias after '}' on next line");
	is_int(e->line, 13, "4: three-line entry starts at 13");

	e = catalogue_find_number(cat, "linux-amd64", 5);
	is_str(e->alias, "oaccept", "5: alias");
	is_str(e->name, "oaccept", "5: no Linux table: alias names it");
	is_str(e->basename, "accept", "5: basename kept");

	e = catalogue_find_number(cat, "linux-amd64", 6);
	is_str(e->guard, "SYSVSHM", "6: #ifdef guard");
	is_str(e->function, "sys_shmat", "6: default view takes #if");
	e = find_alternate(cat, "linux-amd64", 6);
	ok(e != NULL && strcmp(e->guard, "!SYSVSHM") == 0 &&
	    e->state == CS_UNIMPL, "6: #else branch kept as !SYSVSHM");

	e = catalogue_find_number(cat, "linux-amd64", 7);
	is_str(e->guard, "!NO_SEM && SYSVSEM", "7: nested #ifndef and "
	    "#if defined()");

	e = catalogue_find_number(cat, "linux-amd64", 8);
	is_str(e->name, "uselib", "8: UNIMPL comment, sys_ dropped");
	is_str(cat_state_name(e->state), "unimplemented", "8: state");
	is_str(e->function, "", "8: no function");

	e = catalogue_find_number(cat, "linux-amd64", 9);
	is_str(e->name, "", "9: '/* unused */' is not a name");
	is_str(e->comment, "/* unused */", "9: comment kept");

	e = catalogue_find_number(cat, "linux-amd64", 10);
	ok(e->state == CS_OBSOLETE && strcmp(e->name, "ostat") == 0,
	    "10: OBSOL is obsolete");
	e = catalogue_find_number(cat, "linux-amd64", 11);
	ok(e->state == CS_OBSOLETE && strcmp(e->name, "semsys") == 0,
	    "11: EXCL '1.0 semsys' is obsolete semsys");
	e = catalogue_find_number(cat, "linux-amd64", 12);
	ok(e->state == CS_OBSOLETE && e->type == CT_IGNORED,
	    "12: IGNORED");
	e = catalogue_find_number(cat, "linux-amd64", 13);
	ok(e->type == CT_INDIR && strcmp(e->function, "sys_syscall") == 0,
	    "13: INDIR with varargs");
	e = catalogue_find_number(cat, "linux-amd64", 14);
	ok(e->type == CT_NOERR && strcmp(e->name, "getpid") == 0 &&
	    strcmp(e->function, "sys_getpid_with_ppid") == 0,
	    "14: NOERR RUMP with alias");
	e = catalogue_find_number(cat, "linux-amd64", 15);
	ok(e->type == CT_EXTERN && strcmp(e->modifiers, "MODULAR openafs")
	    == 0 && e->state == CS_NATIVE, "15: EXTERN MODULAR");
	e = catalogue_find_number(cat, "linux-amd64", 16);
	ok(e->type == CT_NODEF && e->state == CS_COMPAT, "16: NODEF");
	e = catalogue_find_number(cat, "linux-amd64", 17);
	ok(e != NULL && e->state == CS_UNIMPL && e->name[0] == '\0',
	    "17: bare UNIMPL");
	e = catalogue_find_number(cat, "linux-amd64", 18);
	is_str(e->prototype, "void *linux_sys_mremap(void *old_address, "
	    "size_t old_size)", "18: pointer return type");
	is_int(e->line, 43, "18: after indented ';' comments");
	e = catalogue_find_number(cat, "linux-amd64", 20);
	ok(e->type == CT_COMPAT && strcmp(e->guard, "!_LP64") == 0,
	    "20: #if !defined(_LP64) reads !_LP64");
	e = find_alternate(cat, "linux-amd64", 20);
	ok(e != NULL && e->type == CT_EXCL && strcmp(e->guard, "_LP64") == 0,
	    "20: its #else is _LP64");
	e = catalogue_find_number(cat, "linux-amd64", 21);
	is_str(e->function, "sys___timer_gettime50", "21: sys|50|");

	is_int(catalogue_find_name(cat, NULL, "getpid", found, 4), 1,
	    "find by name");
	ok(found[0]->number == 14, "find by name: the right entry");
	is_int(catalogue_find_name(cat, "netbsd", "getpid", found, 4), 0,
	    "find by name in another ABI");
	ok(catalogue_find_number(cat, "linux-amd64", 99) == NULL,
	    "no entry at 99");

	names = catalogue_names(cat, "linux-amd64", &n);
	is_int(n, 20, "20 distinct non-empty names");
	for (i = 1, sorted = 1; i < n; i++)
		if (strcmp(names[i - 1], names[i]) >= 0)
			sorted = 0;
	ok(sorted, "names sorted and distinct");
	ok(names[n] == NULL, "names NULL-terminated");
	free(names);

	{
		struct cat_counts c;

		catalogue_counts(cat, NULL, &c);
		is_int(c.numbers, 22, "counts: numbers");
		is_int(c.alternates, 2, "counts: alternates");
		is_int(c.state[CS_UNIMPL], 3, "counts: unimplemented");
		is_int(c.state[CS_OBSOLETE], 3, "counts: obsolete");
		is_int(c.state[CS_NATIVE] + c.state[CS_COMPAT], 16,
		    "counts: implemented");
	}
out:
	diag_free(&dl);
	catalogue_free(cat);
}

static void
test_linux_tables(void)
{
	struct catalogue *cat = catalogue_new();
	struct cat_mismatch *mm;
	struct diaglist dl;
	const struct cat_entry *e;
	size_t n;

	diag_init(&dl);
	(void)catalogue_load_file(cat, FIX "linux-amd64-constructs.master",
	    NULL, &dl);
	is_int(catalogue_load_file(cat, FIX "fixture_64.tbl", NULL, &dl), 0,
	    "tbl: loads");
	is_str(catalogue_linux_abi("linux-amd64"), "x86_64",
	    "linux-amd64 is named by the x86_64 table");
	is_str(catalogue_linux_abi("linux32-amd64"), "i386",
	    "linux32-amd64 is named by the i386 table");

	e = catalogue_find_number(cat, "x86_64", 5);
	ok(e != NULL && e->state == CS_LINUX && e->format == CF_TBL &&
	    strcmp(e->name, "accept") == 0, "tbl: row read");
	e = catalogue_find_number(cat, "linux-amd64", 5);
	is_str(e->name, "accept", "tbl names 5 (not the alias oaccept)");
	e = catalogue_find_number(cat, "linux-amd64", 19);
	is_str(e->name, "rt_sigqueueinfo", "tbl names rt_queueinfo");
	e = catalogue_find_number(cat, "linux-amd64", 17);
	is_str(e->name, "close", "tbl names a bare UNIMPL");
	e = catalogue_find_number(cat, "linux-amd64", 22);
	ok(e != NULL && e->state == CS_ABSENT &&
	    strcmp(e->name, "newcall") == 0, "22: absent from NetBSD");
	ok(catalogue_find_number(cat, "x86_64", 512) == NULL &&
	    catalogue_find_number(cat, "x32", 512) == NULL,
	    "tbl: x32 rows skipped");

	mm = catalogue_crosscheck(cat, &n);
	is_int(n, 1, "crosscheck: one disagreement");
	if (n >= 1) {
		is_int(mm[0].netbsd->number, 21, "crosscheck: slot 21");
		is_str(mm[0].ref->name, "wrongname", "crosscheck: Linux name");
		is_int(mm[0].netbsd->line, 53, "crosscheck: NetBSD line");
	}
	free(mm);

	is_int(catalogue_load_file(cat, FIX "unistd_32.h", NULL, &dl), 1,
	    "unistd: one bad line");
	is_str(find_diag(&dl, "__NR_bogus"), FIX "unistd_32.h:6: error: "
	    "bad syscall number '1x' for __NR_bogus", "unistd: message");
	e = catalogue_find_number(cat, "i386", 383);
	ok(e != NULL && e->format == CF_UNISTD &&
	    strcmp(e->name, "statx") == 0, "unistd: __NR_statx 383");
	ok(catalogue_detect("#define __NR_read 0\n", 20) == CF_UNISTD,
	    "detect unistd");
	ok(catalogue_detect("0\tcommon\tread\tsys_read\n", 23) == CF_TBL,
	    "detect tbl");
	ok(catalogue_detect("0\tSTD\t{ int|sys||x(void); }\n", 28) ==
	    CF_MASTER, "detect master");
	ok(catalogue_detect("; only comments\n;\n", 19) == CF_MASTER,
	    "detect master by its ';' comments");
	ok(catalogue_detect("\x7f" "ELF", 4) == CF_UNKNOWN,
	    "detect nothing in binary data");
	diag_free(&dl);
	catalogue_free(cat);
}

static void
test_percent(void)
{
	struct catalogue *cat = catalogue_new();
	struct diaglist dl;
	const struct cat_entry *e;

	diag_init(&dl);
	is_int(catalogue_load_file(cat, FIX "linux-i386-percent.master",
	    NULL, &dl), 0, "%%%%: loads");
	is_int(catalogue_count(cat), 4, "%%%%: four entries");
	e = catalogue_find_number(cat, "linux-i386", 0);
	ok(e != NULL && strcmp(e->name, "syscall") == 0,
	    "%%%%: ABI linux-i386, alias names 0");
	diag_free(&dl);
	catalogue_free(cat);
}

/* The ABI of a syscalls.master from its path, else its contents. */
static void
test_abi_names(void)
{
	static const char body[] = "; NetBSD amd64 COMPAT_LINUX system "
	    "call name/number \"master\" file.\n"
	    "0\tSTD\t{ int|linux_sys||x(void); }\n";
	static const struct {
		const char *path, *abi;
	} cases[] = {
		{ "/usr/src/sys/compat/linux32/arch/amd64/syscalls.master",
		    "linux32-amd64" },
		{ "/usr/src/sys/compat/linux/arch/i386/syscalls.master",
		    "linux-i386" },
		{ "/usr/src/sys/kern/syscalls.master", "netbsd" },
		{ "netbsd-syscalls.master", "netbsd" },
		{ "linux32-amd64-syscalls.master", "linux32-amd64" },
		{ "x/linux-amd64-syscalls.master.v1.74-2024", "linux-amd64" },
		{ "syscalls.master", "linux-amd64" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct catalogue *cat = catalogue_new();
		struct diaglist dl;
		const struct cat_entry *e;

		diag_init(&dl);
		(void)catalogue_load_buffer(cat, cases[i].path, NULL, body,
		    sizeof(body) - 1, &dl);
		e = catalogue_entry(cat, 0);
		is_str(e != NULL ? e->abi : "(none)", cases[i].abi,
		    "ABI of %s", cases[i].path);
		diag_free(&dl);
		catalogue_free(cat);
	}
}

static void
test_malformed(void)
{
	struct catalogue *cat = catalogue_new();
	struct diaglist dl;
	const char *f = FIX "linux-amd64-bad.master";
	char *big, buf[256];
	size_t i;
	int nerr;

	diag_init(&dl);
	nerr = catalogue_load_file(cat, f, NULL, &dl);
	if (!is_int(nerr, 8, "bad: eight errors"))
		show_diags(&dl);
#define DIAG_IS(needle, line, what) do {				\
	(void)snprintf(buf, sizeof(buf), "%s:%d: error: %s", f, line, what); \
	is_str(find_diag(&dl, needle), buf, "bad: %s", what);		\
} while (0)
	DIAG_IS("#endif", 4, "#endif without #if");
	DIAG_IS("#else", 5, "#else without #if");
	DIAG_IS("1x", 6, "bad syscall number '1x'");
	DIAG_IS("'}'", 7, "missing '}' after the prototype of 2");
	DIAG_IS("FROB", 9, "unknown type 'FROB'");
	DIAG_IS("'{'", 10, "missing '{' before the prototype of 4 "
	    "(type STD)");
	DIAG_IS("prototype of 5", 11, "prototype of 5 is not "
	    "'rettype|prefix|version|name(args)'");
	DIAG_IS("unterminated", 13, "unterminated #ifdef SYSVSHM at end of "
	    "file");
#undef DIAG_IS
	ok(catalogue_find_number(cat, "linux-amd64", 0) != NULL &&
	    catalogue_find_number(cat, "linux-amd64", 6) != NULL &&
	    catalogue_find_number(cat, "linux-amd64", 7) != NULL,
	    "bad: the good lines still load");
	ok(catalogue_find_number(cat, "linux-amd64", 2) == NULL &&
	    catalogue_find_number(cat, "linux-amd64", 4) == NULL,
	    "bad: malformed entries left out");
	diag_free(&dl);

	/* NUL bytes: the line is refused, the next one loads. */
	diag_init(&dl);
	{
		static const char bin[] = "0\tSTD\t{ int|sys||a(void); }\n"
		    "1\tST\0D\t{ int|sys||b(void); }\n"
		    "\x7f" "ELF\x01\x01\0\0\0\n"
		    "2\tSTD\t{ int|sys||c(void); }\n";

		nerr = catalogue_load_buffer(cat, "bin.master", "t-bin", bin,
		    sizeof(bin) - 1, &dl);
		is_int(nerr, 2, "NUL bytes: two errors");
		is_str(find_diag(&dl, "bin.master:2"), "bin.master:2: error: "
		    "binary data (NUL byte)", "NUL bytes: line 2");
		is_str(find_diag(&dl, "bin.master:3"), "bin.master:3: error: "
		    "binary data (NUL byte)", "NUL bytes: line 3");
		ok(catalogue_find_number(cat, "t-bin", 2) != NULL,
		    "NUL bytes: line 4 loads");
	}
	diag_free(&dl);

	/* Bytes quoted in messages are made printable. */
	diag_init(&dl);
	(void)catalogue_load_buffer(cat, "q.master", "t-q",
	    "0\tST\xff\x1b[2J\tfoo\n", 14, &dl);
	is_str(find_diag(&dl, "q.master"), "q.master:1: error: unknown type "
	    "'ST??[2J'", "unknown type: named, control bytes shown as ?");
	diag_free(&dl);

	/* A 100 KB line, alone and continued onto a next line. */
	diag_init(&dl);
	big = malloc(102400 + 256);
	if (big == NULL)
		abort();
	strcpy(big, "0\tSTD\t{ int|sys||a(void); }\n1\tUNIMPL\t");
	i = strlen(big);
	memset(big + i, 'x', 102400);
	strcpy(big + i + 102400, "\n2\tSTD\t{ int|sys||c(void); }\n");
	nerr = catalogue_load_buffer(cat, "big.master", "t-big", big,
	    strlen(big), &dl);
	is_int(nerr, 1, "100 KB line: one error");
	is_str(find_diag(&dl, "big.master"), "big.master:2: error: line "
	    "longer than 65536 bytes", "100 KB line: message");
	ok(catalogue_find_number(cat, "t-big", 2) != NULL,
	    "100 KB line: the next line loads");
	diag_free(&dl);
	diag_init(&dl);
	strcpy(big + i + 102400,
	    "\\\n\t{ oops\n2\tSTD\t{ int|sys||c(void); }\n");
	nerr = catalogue_load_buffer(cat, "big2.master", "t-big2", big,
	    strlen(big), &dl);
	is_int(nerr, 1, "100 KB continued line: one error, not two");
	ok(catalogue_find_number(cat, "t-big2", 2) != NULL,
	    "100 KB continued line: the entry after it loads");
	free(big);
	diag_free(&dl);

	/* Directives in the wrong places. */
	diag_init(&dl);
	{
		static const char dirs[] = "#ifdef A\n"
		    "0\tSTD\t{ int|sys||a(void); }\n"
		    "#else\n"
		    "#else\n"
		    "#endif\n"
		    "#frobnicate\n"
		    "#if\n"
		    "#endif\n"
		    "-1\tSTD\t{ int|sys||b(void); }\n"
		    "9999999\tUNIMPL\n"
		    "3\n"
		    "4\tSTD\t{ int|sys||d(void); } oops extra\n"
		    "5\tSTD\t{ int|sys||e(void); }\n"
		    "5\tSTD\t{ int|sys||e2(void); }\n";

		nerr = catalogue_load_buffer(cat, "d.master", "t-d", dirs,
		    sizeof(dirs) - 1, &dl);
		is_str(find_diag(&dl, "second"), "d.master:4: error: second "
		    "#else for the #ifdef A at line 1", "second #else");
		is_str(find_diag(&dl, "frob"), "d.master:6: error: unknown "
		    "preprocessor directive '#frobnicate'", "unknown #");
		is_str(find_diag(&dl, "condition"), "d.master:7: error: #if "
		    "without a condition", "#if without condition");
		is_str(find_diag(&dl, "'-1'"), "d.master:9: error: bad "
		    "syscall number '-1'", "negative number");
		is_str(find_diag(&dl, "9999999"), "d.master:10: error: bad "
		    "syscall number '9999999'", "huge number");
		is_str(find_diag(&dl, "no type"), "d.master:11: error: no "
		    "type after syscall number 3", "number without type");
		is_str(find_diag(&dl, "after the alias"), "d.master:12: "
		    "error: unexpected text after the alias of 4",
		    "junk after alias");
		is_str(find_diag(&dl, "duplicate"), "d.master:14: error: "
		    "duplicate syscall number 5 (first at line 13)",
		    "duplicate number");
		is_int(nerr, 8, "directives: eight errors");
	}
	diag_free(&dl);

	/* Unterminated #if with an else branch, nested. */
	diag_init(&dl);
	{
		static const char open[] = "#if defined(X)\n#ifndef Y\n"
		    "0\tSTD\t{ int|sys||a(void); }\n#endif\n";

		nerr = catalogue_load_buffer(cat, "o.master", "t-o", open,
		    sizeof(open) - 1, &dl);
		is_int(nerr, 1, "unterminated #if: one error");
		is_str(find_diag(&dl, "unterminated"), "o.master:1: error: "
		    "unterminated #if defined(X) at end of file",
		    "unterminated #if: names the opening line");
	}
	diag_free(&dl);

	/* Nothing at all to read. */
	diag_init(&dl);
	is_int(catalogue_load_file(cat, FIX "no-such-file", NULL, &dl), -1,
	    "missing file: -1");
	has_str(find_diag(&dl, "no-such-file"), "cannot open",
	    "missing file: message");
	diag_free(&dl);
	catalogue_free(cat);
}

static void
test_shared(void)
{
	static const struct {
		size_t numbers, impl, std, noargs, unimpl;
	} want[] = {
		{ 452, 256, 171, 85, 196 },
		{ 452, 250, 165, 85, 202 },
		{ 442, 273, 183, 90, 159 },
		{ 351, 241, 137, 104, 100 },
		{ 507, 459, 322, 0, 32 },
	};
	struct catalogue *all = catalogue_new();
	struct diaglist dl;
	size_t i, total = 0;

	diag_init(&dl);
	for (i = 0; i < sizeof(shared_netbsd) / sizeof(shared_netbsd[0]);
	    i++) {
		struct catalogue *cat = catalogue_new();
		struct cat_counts c;
		const char *path = tap_shared_path(shared_netbsd[i]);
		char file[4096];

		snprintf(file, sizeof(file), "%s", path);
		is_int(catalogue_load_file(cat, file, NULL, &dl), 0,
		    "%s: zero errors", shared_netbsd[i]);
		catalogue_counts(cat, file, &c);
		is_int(c.numbers, want[i].numbers, "%s: numbers",
		    shared_netbsd[i]);
		is_int(c.state[CS_NATIVE] + c.state[CS_COMPAT], want[i].impl,
		    "%s: implemented", shared_netbsd[i]);
		is_int(c.type[CT_STD], want[i].std, "%s: STD",
		    shared_netbsd[i]);
		is_int(c.type[CT_NOARGS], want[i].noargs, "%s: NOARGS",
		    shared_netbsd[i]);
		is_int(c.state[CS_UNIMPL], want[i].unimpl,
		    "%s: unimplemented", shared_netbsd[i]);
		total += catalogue_count(cat);
		catalogue_free(cat);
		(void)catalogue_load_file(all, file, NULL, &dl);
	}
	is_int(dl.nerrors, 0, "all of shared/netbsd: zero errors");
	show_diags(&dl);
	/* The two amd64 copies share an ABI: both sets of entries stay. */
	is_int(catalogue_count(all), total, "all five together");
	diag_free(&dl);
	catalogue_free(all);
}

static void
test_diff(void)
{
	static const char *const six[] = {
		"semtimedop", "sync_file_range", "syncfs", "renameat2",
		"copy_file_range", "clone3"
	};
	struct catalogue *old = catalogue_new(), *new = catalogue_new();
	struct cat_diff *d;
	struct diaglist dl;
	size_t n, i;
	char path[4096];

	diag_init(&dl);
	snprintf(path, sizeof(path), "%s", tap_shared_path(
	    "netbsd/linux-amd64-syscalls.master.v1.74-2024"));
	(void)catalogue_load_file(old, path, NULL, &dl);
	snprintf(path, sizeof(path), "%s", tap_shared_path(
	    "netbsd/linux-amd64-syscalls.master"));
	(void)catalogue_load_file(new, path, NULL, &dl);
	d = catalogue_diff(old, new, &n);
	is_int(n, 6, "diff: six changes");
	for (i = 0; i < n && i < 6; i++) {
		ok(d[i].change == CC_CHANGED &&
		    strcmp(d[i].new->name, six[i]) == 0 &&
		    d[i].old->type == CT_UNIMPL && d[i].new->type == CT_STD,
		    "diff: %s went from UNIMPL to STD", six[i]);
	}
	free(d);
	d = catalogue_diff(new, new, &n);
	is_int(n, 0, "diff: a table against itself");
	free(d);
	d = catalogue_diff(new, old, &n);
	ok(n == 6 && d[0].new->state == CS_UNIMPL, "diff: backwards");
	free(d);
	diag_free(&dl);
	catalogue_free(old);
	catalogue_free(new);
}

static void
test_real_names(void)
{
	struct catalogue *cat = catalogue_new();
	struct cat_mismatch *mm;
	struct diaglist dl;
	const struct cat_entry *e, *found[4];
	char path[4096];
	size_t n, i;
	int statx = 0;

	diag_init(&dl);
	snprintf(path, sizeof(path), "%s", tap_shared_path(
	    "netbsd/linux-amd64-syscalls.master"));
	(void)catalogue_load_file(cat, path, NULL, &dl);
	snprintf(path, sizeof(path), "%s",
	    tap_shared_path("linux/syscall_64.tbl"));
	(void)catalogue_load_file(cat, path, NULL, &dl);
	is_int(dl.nerrors, 0, "amd64 + syscall_64.tbl: no errors");
	e = catalogue_find_number(cat, "linux-amd64", 262);
	ok(e != NULL && strcmp(e->name, "newfstatat") == 0 &&
	    strcmp(e->function, "linux_sys_fstatat64") == 0,
	    "262 is newfstatat, done by linux_sys_fstatat64");
	e = catalogue_find_number(cat, "linux-amd64", 17);
	ok(e != NULL && strcmp(e->name, "pread64") == 0,
	    "17 is pread64, not pread");
	is_int(catalogue_find_name(cat, "linux-amd64", "rt_sigqueueinfo",
	    found, 4), 1, "rt_sigqueueinfo found by its Linux name");
	is_str(found[0]->function, "linux_sys_rt_queueinfo",
	    "rt_sigqueueinfo is linux_sys_rt_queueinfo");
	is_int(catalogue_find_name(cat, "linux-amd64", "pread", found, 4), 0,
	    "no Linux call named pread");
	mm = catalogue_crosscheck(cat, &n);
	is_int(n, 1, "amd64: only quotactl_fd disagrees with the old table");
	if (n > 0)
		is_int(mm[0].netbsd->number, 443, "amd64: slot 443");
	free(mm);
	catalogue_free(cat);

	/* i386: statx was put at 397, which is Linux's shmat. */
	cat = catalogue_new();
	snprintf(path, sizeof(path), "%s", tap_shared_path(
	    "netbsd/linux-i386-syscalls.master"));
	(void)catalogue_load_file(cat, path, NULL, &dl);
	snprintf(path, sizeof(path), "%s",
	    tap_shared_path("linux/syscall_32.tbl"));
	(void)catalogue_load_file(cat, path, NULL, &dl);
	is_int(dl.nerrors, 0, "i386 + syscall_32.tbl: no errors");
	mm = catalogue_crosscheck(cat, &n);
	for (i = 0; i < n; i++)
		if (mm[i].netbsd->number == 397 &&
		    strcmp(mm[i].netbsd->own_name, "statx") == 0 &&
		    strcmp(mm[i].ref->name, "shmat") == 0)
			statx = 1;
	ok(statx, "i386: statx at 397 (Linux's shmat) is flagged");
	e = catalogue_find_number(cat, "linux-i386", 213);
	ok(e != NULL && strcmp(e->name, "setuid32") == 0 &&
	    strcmp(e->function, "sys_setuid") == 0,
	    "i386: 213 is setuid32, done by sys_setuid");
	e = catalogue_find_number(cat, "linux-i386", 23);
	ok(e != NULL && strcmp(e->name, "setuid") == 0 &&
	    strcmp(e->function, "sys_setuid") == 0 &&
	    strcmp(e->alias, "linux_setuid16") == 0,
	    "i386: 23 is the 16-bit setuid (name before '{')");
	for (i = 0; i < n; i++)
		tap_diag("i386 disagreement: %ld %s / %s",
		    mm[i].netbsd->number, mm[i].netbsd->own_name,
		    mm[i].ref->name);
	ok(catalogue_same_call("setuid16", "setuid") &&
	    catalogue_same_call("__posix_chown", "chown32") &&
	    !catalogue_same_call("statx", "shmat"), "same_call rules");
	free(mm);
	diag_free(&dl);
	catalogue_free(cat);
}

#define MADEUP	"tests/fixtures/madeup/netbsd/linux-amd64-syscalls.master"

static void
test_cli(void)
{
	const char *bin = tap_bin();
	char cmd[16640], amd64[4096], old[4096], i386[4096], tbl32[4096];
	char *out;
	int st;

	if (tap_have_shared())
		snprintf(amd64, sizeof(amd64), "%s",
		    tap_shared_path("netbsd/linux-amd64-syscalls.master"));
	if (tap_have_shared())
		snprintf(old, sizeof(old), "%s", tap_shared_path(
		    "netbsd/linux-amd64-syscalls.master.v1.74-2024"));
	if (tap_have_shared())
		snprintf(i386, sizeof(i386), "%s",
		    tap_shared_path("netbsd/linux-i386-syscalls.master"));
	if (tap_have_shared())
		snprintf(tbl32, sizeof(tbl32), "%s",
		    tap_shared_path("linux/syscall_32.tbl"));

	/* Made-up tables: a year's changes, and the summary. */
	out = tap_cli(&st, 0, "catalogue --summary -m " MADEUP);
	is_int(st, 0, "cli summary: exit 0");
	has_str(out, "19 numbers, 15 implemented (5 STD, 10 NOARGS), "
	    "4 unimplemented, 0 obsolete", "cli summary: made-up figures");
	free(out);
	out = tap_cli(&st, 0, "catalogue --diff " MADEUP ".older "
	    MADEUP);
	is_int(st, 0, "cli diff: exit 0");
	has_str(out, "39 getpid: UNIMPL -> STD sys_getpid", "cli diff: getpid");
	has_str(out, "2 changed, 0 added, 0 removed", "cli diff: totals");
	free(out);
	if (!tap_skip_shared("catalogue --summary, --diff, --crosscheck on "
	    "the real tables")) {
		out = tap_cli(&st, 0, "catalogue --summary -m '%s'", amd64);
		is_int(st, 0, "cli summary: exit 0");
		has_str(out, "452 numbers, 256 implemented (171 STD, "
		    "85 NOARGS), 196 unimplemented, 0 obsolete",
		    "cli summary: 2025 figures");
		free(out);
		out = tap_cli(&st, 0, "catalogue --summary -m '%s'", old);
		has_str(out, "452 numbers, 250 implemented (165 STD, "
		    "85 NOARGS), 202 unimplemented",
		    "cli summary: 2024 figures");
		free(out);

		out = tap_cli(&st, 0, "catalogue --diff '%s' '%s'", old, amd64);
		is_int(st, 0, "cli diff: exit 0");
		has_str(out, "220 semtimedop: UNIMPL -> STD "
		    "linux_sys_semtimedop", "cli diff: semtimedop");
		has_str(out, "6 changed, 0 added, 0 removed",
		    "cli diff: totals");
		free(out);

		out = tap_cli(&st, 0, "catalogue --crosscheck -m '%s' "
		    "-m '%s'", i386, tbl32);
		is_int(st, 1, "cli crosscheck: exit 1 on disagreement");
		has_str(out, "linux-i386 397: NetBSD has statx "
		    "(linux_sys_statx), Linux has shmat",
		    "cli crosscheck: statx/shmat");
		free(out);
	}

	out = tap_cli(&st, 0, "catalogue --format csv -m "
	    FIX "linux-amd64-quotes.master");
	is_int(st, 0, "cli csv: exit 0");
	has_str(out, "abi,number,name,type,state,function,prototype,guard,"
	    "file,line\n", "cli csv: header");
	has_str(out, "linux-amd64,1,write,STD,implemented-native,sys_write,"
	    "int sys_write(int fd),\"defined(A) && B == \"\"x,\\\"\"y\\\"\""
	    "\"\"\"," FIX "linux-amd64-quotes.master,3\n",
	    "cli csv: RFC 4180 quoting");
	free(out);

	out = tap_cli(&st, 0, "catalogue --format json -m "
	    FIX "linux-amd64-quotes.master");
	is_int(st, 0, "cli json: exit 0");
	has_str(out, "{\"abi\": \"linux-amd64\", \"number\": 1, \"name\": "
	    "\"write\", \"type\": \"STD\", \"state\": \"implemented-native\", "
	    "\"function\": \"sys_write\", \"prototype\": "
	    "\"int sys_write(int fd)\", \"guard\": \"defined(A) && B == "
	    "\\\"x,\\\\\\\"y\\\\\\\"\\\"\", \"file\": \"" FIX
	    "linux-amd64-quotes.master\", \"line\": 3}", "cli json: object");
	has_str(out, "\"guard\": \"CAF\\ufffd\"", "cli json: bad UTF-8");
	ok(out[0] == '[' && strstr(out, "}\n]\n") != NULL,
	    "cli json: an array");
	free(out);

	out = tap_cli(&st, 0, "catalogue -m "
	    FIX "linux-amd64-constructs.master -m " FIX "fixture_64.tbl");
	has_str(out, "5     accept                   compat   STD       "
	    "linux_sys_accept\n", "cli text: Linux name from -m tbl");
	has_str(out, "22    newcall                  absent",
	    "cli text: absent");
	ok(strstr(out, "wrongname") == NULL || strstr(out, "x86_64\n") ==
	    NULL, "cli text: Linux rows not listed beside NetBSD's");
	{
		const char *p;
		int wide = 0;

		for (p = out; *p != '\0';) {
			const char *nl = strchr(p, '\n');

			if (nl == NULL)
				nl = p + strlen(p);
			if (nl - p > 80)
				wide = 1;
			p = *nl != '\0' ? nl + 1 : nl;
		}
		ok(!wide, "cli text: fits 80 columns");
	}
	free(out);

	out = tap_cli(&st, 1, "catalogue -m "
	    FIX "linux-amd64-bad.master");
	is_int(st, 1, "cli errors: exit 1");
	has_str(out, "ltpscope: " FIX "linux-amd64-bad.master:9: unknown "
	    "type 'FROB'\n", "cli errors: ltpscope: file:line: message");
	has_str(out, "getppid", "cli errors: the rest still prints");
	free(out);

	snprintf(cmd, sizeof(cmd), "LTPSCOPE_MASTER=" FIX
	    "linux-i386-percent.master %s catalogue", bin);
	out = tap_run(cmd, &st, 1);
	has_str(out, "ltpscope: catalogue: using " FIX
	    "linux-i386-percent.master", "cli: LTPSCOPE_MASTER is used");
	free(out);

	out = tap_cli(&st, 1, "catalogue --format yaml");
	is_int(st, 2, "cli: bad format is a usage error");
	free(out);
	out = tap_cli(&st, 1, "catalogue --diff onlyone");
	is_int(st, 2, "cli: --diff needs two files");
	free(out);
}

int
main(void)
{
	test_constructs();
	test_linux_tables();
	test_percent();
	test_abi_names();
	test_malformed();
	if (!tap_skip_shared("the real tables of ../shared")) {
		test_shared();
		test_diff();
		test_real_names();
	}
	test_cli();
	return tap_done();
}
