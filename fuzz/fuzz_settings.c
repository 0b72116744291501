/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: the explorer's settings file (settings_parse).
 */
#include "ltpscope/settings.h"
#include "fuzz.h"

FUZZ_TARGET(settings)
{
	struct settings s;
	struct diaglist dl;

	diag_init(&dl);
	settings_init(&s);
	(void)settings_parse(&s, "config", (const char *)data, size, &dl);
	FUZZ_CHECK(!s.has_jobs || (s.jobs >= 1 &&
	    s.jobs <= SETTINGS_JOBS_MAX));
	FUZZ_CHECK(!s.has_timeout || (s.timeout >= 0 &&
	    s.timeout <= SETTINGS_TIMEOUT_MAX));
	FUZZ_CHECK(memchr(s.theme, '\0', sizeof(s.theme)) != NULL);
	FUZZ_CHECK(!s.has_theme || s.theme[0] != '\0');
	FUZZ_CHECK(s.nboxes == 0 || s.boxes != NULL);
	settings_free(&s);
	diag_free(&dl);
	return 0;
}
