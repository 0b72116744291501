/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: Linux syscall_*.tbl files and <asm/unistd_*.h> headers,
 * loaded beside a small compat_linux table so that the Linux names,
 * the absent entries and the cross-check all run on what was read.
 */
#include "ltpscope/catalogue.h"
#include "fuzz.h"

static const char fz_linuxtbl_master[] =
    "%%\n"
    "0\tSTD\t\t{ ssize_t|linux_sys||read(int fd, void *buf, size_t n); }\n"
    "1\tSTD\t\t{ ssize_t|sys||write(int fd, const void *buf, size_t n); }\n"
    "2\tUNIMPL\t\topen\n"
    "17\tNOARGS\t\t{ ssize_t|sys||pread(int fd, void *b, size_t n, "
    "off_t o); } pread64\n"
    "18\tOBSOL\t\tpwrite64\n";

FUZZ_TARGET(linuxtbl)
{
	static const char *const names[] = {
		"syscall_64.tbl", "unistd_64.h", "syscall_32.tbl",
		"unistd_32.h"
	};
	const struct cat_entry *e;
	struct catalogue *c;
	struct diaglist dl;
	struct cat_counts cc;
	const char **v;
	size_t i, n;

	diag_init(&dl);
	c = catalogue_new();
	(void)catalogue_load_buffer(c, "linux-amd64-syscalls.master", NULL,
	    fz_linuxtbl_master, sizeof(fz_linuxtbl_master) - 1, &dl);
	(void)catalogue_load_buffer(c, names[size % 4], NULL,
	    (const char *)data, size, &dl);
	(void)catalogue_load_buffer(c, "tbl", "x86_64", (const char *)data,
	    size, &dl);
	for (i = 0; i < catalogue_count_all(c); i++) {
		e = catalogue_entry_all(c, i);
		FUZZ_CHECK(e->name != NULL && e->abi != NULL &&
		    e->function != NULL && e->file != NULL);
	}
	free(catalogue_crosscheck(c, &n));
	free(catalogue_names(c, "linux-amd64", &n));
	free(catalogue_names(c, "x86_64", &n));
	v = catalogue_files(c, &n);
	for (i = 0; i < n; i++)
		catalogue_counts(c, v[i], &cc);
	free(v);
	catalogue_free(c);
	diag_free(&dl);
	return 0;
}
