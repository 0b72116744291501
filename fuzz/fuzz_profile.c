/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: program traces (profile_parse: strace -f/-y/-tt/-c and
 * NetBSD kdump, told apart by their lines), then the report held
 * against a small compat_linux table, which is where kdump's table
 * names and slot numbers are looked up.
 */
#include "ltpscope/catalogue.h"
#include "ltpscope/profile.h"
#include "fuzz.h"

static const char fz_profile_master[] =
    "%%\n"
    "0\tSTD\t\t{ int|linux_sys||read(int fd, void *buf, size_t n); }\n"
    "2\tSTD\t\t{ int|linux_sys||open(const char *path, int flags); }\n"
    "17\tNOARGS\t\t{ ssize_t|sys||pread(int fd, void *buf, size_t n, "
    "off_t off); }\n"
    "79\tNOARGS\t\t{ int|sys||__getcwd(char *bufp, size_t length); }\n"
    "332\tUNIMPL\t\tstatx\n";

FUZZ_TARGET(profile)
{
	struct profile p;
	struct profile_report r;
	struct catalogue *cat;
	struct diaglist dl;
	char errs[256];
	size_t i;

	(void)profile_detect((const char *)data, size);
	diag_init(&dl);
	profile_init(&p);
	cat = catalogue_new();
	(void)catalogue_load_buffer(cat, "linux-amd64-syscalls.master",
	    "linux-amd64", fz_profile_master, sizeof(fz_profile_master) - 1,
	    &dl);
	if (profile_parse(&p, "trace", (const char *)data, size, &dl) == 0) {
		for (i = 0; i < p.ncalls; i++) {
			FUZZ_CHECK(p.calls[i].name != NULL);
			FUZZ_CHECK(profile_find(&p, p.calls[i].name) != NULL);
			profile_errs_format(&p.calls[i], errs, sizeof(errs));
			(void)profile_call_suspect(&p.calls[i]);
			FUZZ_CHECK(profile_linux_name(cat, "linux-amd64",
			    p.calls[i].name) != NULL);
		}
		profile_report_build(&r, &p, cat, "linux-amd64", NULL, 0,
		    NULL, 0);
		FUZZ_CHECK(r.nrows == p.ncalls);
		profile_report_free(&r);
	}
	profile_free(&p);
	catalogue_free(cat);
	diag_free(&dl);
	return 0;
}
