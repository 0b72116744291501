/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's settings file (settings.c): the three settings, the
 * errors naming file and line, and what a bad line leaves alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/diag.h"
#include "ltpscope/settings.h"
#include "tap.h"

static const char text[] =
    "# explorer settings\n"
    "theme light\n"
    "timeout 600   # ten minutes\r\n"
    "\n"
    "jobs 4\n"
    "jobs 99\n"
    "timeout\n"
    "colour red\n"
    "theme a b\n"
    "timeout 12x\n"
    "timeout 99999999999999999999\n"
    "   jobs\t2";

static void
test_parse(void)
{
	static const char *const want[] = {
		"config:6: error: jobs: '99' is not a whole number from 1 "
		"to 64",
		"config:7: error: 'timeout' wants a value",
		"config:8: error: unknown setting 'colour'",
		"config:9: error: 'theme' takes one value",
		"config:10: error: timeout: '12x' is not a whole number from "
		"0 to 2147483",
		"config:11: error: timeout: '99999999999999999999' is not a "
		"whole number from 0 to 2147483",
	};
	struct settings s;
	struct diaglist dl;
	char buf[256];
	size_t i;

	settings_init(&s);
	diag_init(&dl);
	is_int(settings_parse(&s, "config", text, sizeof(text) - 1, &dl), 6,
	    "six bad lines");
	ok(s.has_theme, "theme set");
	is_str(s.theme, "light", "theme light");
	ok(s.has_timeout, "timeout set");
	is_int(s.timeout, 600, "timeout 600 (comment and CR dropped)");
	ok(s.has_jobs, "jobs set");
	is_int(s.jobs, 2, "the last good jobs line wins");
	is_int(dl.n, 6, "six messages");
	for (i = 0; i < dl.n && i < 6; i++) {
		diag_format(&dl.v[i], buf, sizeof(buf));
		is_str(buf, want[i], "message %zu", i + 1);
	}
	diag_free(&dl);
}

/* A box's reboot command is the rest of its line; box-wait a number. */
static void
test_box(void)
{
	static const char box[] =
	    "reboot-cmd virsh reset  nb-amd64 \t # the VM\n"
	    "box-wait 900\n"
	    "box-wait -1\n"
	    "reboot-cmd\n"
	    "box-master /src/sys/compat/linux/arch/%m/syscalls.master\n";
	struct settings s;
	struct diaglist dl;
	char buf[256], longline[2048];
	int n;

	settings_init(&s);
	diag_init(&dl);
	is_int(settings_parse(&s, "config", box, sizeof(box) - 1, &dl), 2,
	    "two bad box lines");
	ok(s.has_box_master, "box-master set");
	is_str(s.box_master, "/src/sys/compat/linux/arch/%m/syscalls.master",
	    "... to the path, %%m kept for the box to fill in");
	ok(s.has_reboot_cmd, "reboot-cmd set");
	is_str(s.reboot_cmd, "virsh reset  nb-amd64", "... the rest of the "
	    "line, its blanks inside kept");
	ok(s.has_box_wait && s.box_wait == 900, "box-wait 900");
	buf[0] = '\0';
	if (dl.n > 1)
		diag_format(&dl.v[1], buf, sizeof(buf));
	is_str(buf, "config:4: error: 'reboot-cmd' wants a value", "an "
	    "empty reboot-cmd is an error");
	diag_free(&dl);

	/* A path longer than the setting holds is said, not cut. */
	n = snprintf(longline, sizeof(longline), "box-master /%01100d\n", 0);
	settings_init(&s);
	diag_init(&dl);
	is_int(settings_parse(&s, "config", longline, (size_t)n, &dl), 1,
	    "a box-master too long is a bad line");
	ok(!s.has_box_master, "... and not set");
	is_str(tap_first_diag(&dl), "config:1: error: box-master path too "
	    "long", "... said so, with file and line");
	diag_free(&dl);

	/* reset-on-taint: yes or no, the last line wins. */
	settings_init(&s);
	diag_init(&dl);
	is_int(settings_parse(&s, "config", "reset-on-taint yes\n", 19, &dl),
	    0, "reset-on-taint yes parses");
	ok(s.has_reset_on_taint && s.reset_on_taint, "... and is set");
	is_int(settings_parse(&s, "config", "reset-on-taint no\n"
	    "reset-on-taint maybe\n", 39, &dl), 1, "reset-on-taint takes "
	    "only yes or no");
	ok(s.has_reset_on_taint && !s.reset_on_taint, "... no unsets it");
	is_str(tap_first_diag(&dl), "config:2: error: reset-on-taint: "
	    "'maybe' is not yes or no", "... a bad value said with its line");
	diag_free(&dl);
}

static void
test_file(void)
{
	struct settings s;
	struct diaglist dl;
	char path[1024];
	FILE *fp;

	settings_init(&s);
	diag_init(&dl);
	snprintf(path, sizeof(path), "%s/none", tap_tmpdir());
	is_int(settings_load_file(&s, path, &dl), 0, "no file: no error");
	is_int(dl.n, 0, "and nothing said");
	snprintf(path, sizeof(path), "%s/explorer.conf", tap_tmpdir());
	if ((fp = fopen(path, "w")) != NULL) {
		fputs("jobs 3\nnul\n", fp);
		fputc('\0', fp);
		fputs("x\n", fp);
		fclose(fp);
	}
	is_int(settings_load_file(&s, path, &dl), 2, "two bad lines");
	is_int(s.jobs, 3, "jobs 3 from the file");
	has_str(tap_first_diag(&dl), "explorer.conf:2: error: 'nul' wants a "
	    "value", "file and line named");
	if (dl.n == 2)
		is_str(dl.v[1].msg, "NUL byte in line", "a NUL refused");
	diag_free(&dl);
}

int
main(void)
{
	test_parse();
	test_box();
	test_file();
	return tap_done();
}
