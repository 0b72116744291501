/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The fuzz targets (fuzz/) replayed on the inputs that once broke a
 * parser, kept in tests/fixtures/fuzz/TARGET/, so that every crash,
 * leak or hang "make fuzz" found stays fixed.  The targets check the
 * parsers' promises themselves (abort on a broken one); under the
 * .asan build an over-read or a leak fails the program.  Each target
 * also gets an empty input and the bytes of each other's inputs.
 */
#define FUZZ_REPLAY

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#include "../fuzz/fuzz_categories.c"
#include "../fuzz/fuzz_cmdline.c"
#include "../fuzz/fuzz_fundamental.c"
#include "../fuzz/fuzz_json.c"
#include "../fuzz/fuzz_kconfig.c"
#include "../fuzz/fuzz_kirk.c"
#include "../fuzz/fuzz_linuxtbl.c"
#include "../fuzz/fuzz_ctplog.c"
#include "../fuzz/fuzz_ltpmeta.c"
#include "../fuzz/fuzz_ltpout.c"
#include "../fuzz/fuzz_master.c"
#include "../fuzz/fuzz_profile.c"
#include "../fuzz/fuzz_rules.c"
#include "../fuzz/fuzz_runtest.c"
#include "../fuzz/fuzz_settings.c"
#include "../fuzz/fuzz_skiplist.c"
#include "../fuzz/fuzz_testmap.c"
#include "../fuzz/fuzz_textsafe.c"
#include "../fuzz/fuzz_theme.c"

static const struct {
	const char	*name;
	int		(*fn)(const uint8_t *, size_t);
} targets[] = {
	{ "categories", fuzz_categories },
	{ "cmdline", fuzz_cmdline },
	{ "fundamental", fuzz_fundamental },
	{ "json", fuzz_json },
	{ "kconfig", fuzz_kconfig },
	{ "kirk", fuzz_kirk },
	{ "linuxtbl", fuzz_linuxtbl },
	{ "ctplog", fuzz_ctplog },
	{ "ltpmeta", fuzz_ltpmeta },
	{ "ltpout", fuzz_ltpout },
	{ "master", fuzz_master },
	{ "profile", fuzz_profile },
	{ "rules", fuzz_rules },
	{ "runtest", fuzz_runtest },
	{ "settings", fuzz_settings },
	{ "skiplist", fuzz_skiplist },
	{ "testmap", fuzz_testmap },
	{ "textsafe", fuzz_textsafe },
	{ "theme", fuzz_theme },
};
#define NTARGETS	(sizeof(targets) / sizeof(targets[0]))

#define REGRESS_DIR	"tests/fixtures/fuzz"

/* The file in a buffer of exactly its size, so over-reads show. */
static uint8_t *
regress_read(const char *path, size_t *lenp)
{
	char *text;
	uint8_t *buf;

	if ((text = tap_slurp(path, lenp)) == NULL)
		return NULL;
	buf = malloc(*lenp ? *lenp : 1);
	if (buf == NULL)
		abort();
	memcpy(buf, text, *lenp);
	free(text);
	return buf;
}

/* Every input kept for target i; returns how many. */
static size_t
regress_target(size_t i)
{
	char dir[256], path[1024];
	struct dirent *de;
	uint8_t *buf;
	size_t len, n = 0, j;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/%s", REGRESS_DIR, targets[i].name);
	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if ((buf = regress_read(path, &len)) == NULL) {
			ok(0, "%s: cannot read", path);
			continue;
		}
		is_int(targets[i].fn(buf, len), 0, "%s/%s replayed",
		    targets[i].name, de->d_name);
		/* What broke one parser is hostile input for the rest. */
		for (j = 0; j < NTARGETS; j++)
			if (j != i)
				(void)targets[j].fn(buf, len);
		free(buf);
		n++;
	}
	closedir(d);
	return n;
}

int
main(void)
{
	static const uint8_t one = '\n';
	size_t i, n = 0;

	/* The kconfig target writes its input to a temporary file. */
	setenv("TMPDIR", tap_tmpdir(), 1);
	for (i = 0; i < NTARGETS; i++) {
		is_int(targets[i].fn(&one, 0), 0, "%s: empty input",
		    targets[i].name);
		n += regress_target(i);
	}
	ok(n > 0, "%zu kept inputs replayed", n);
	return tap_done();
}
