/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: the earlier shell tool's logs (ltplog_parse), the
 * verdict on their output, and the writer: a log that parses and is
 * written again must read back the same.
 */
#include "ltpscope/import.h"
#include "ltpscope/ltplog.h"
#include "fuzz.h"

static void
fz_ltplog_roundtrip(const struct ltplog *in)
{
	struct ltplog out, back;
	struct diaglist dl;
	char *text;
	size_t i, len;

	ltplog_init(&out);
	for (i = 0; i < in->npairs; i++)
		(void)ltplog_add(&out, in->pairs[i].key, in->pairs[i].value);
	ltplog_set_body(&out, in->body, in->bodylen);
	text = ltplog_format(&out, &len);
	FUZZ_CHECK(strlen(text) <= len && text[len] == '\0');
	diag_init(&dl);
	ltplog_init(&back);
	FUZZ_CHECK(ltplog_parse(&back, text, len, "again.log", &dl) == 0);
	FUZZ_CHECK(dl.nerrors == 0);
	FUZZ_CHECK(back.npairs == out.npairs);
	for (i = 0; i < back.npairs; i++) {
		FUZZ_CHECK(strcmp(back.pairs[i].key, out.pairs[i].key) == 0);
		FUZZ_CHECK(strcmp(back.pairs[i].value,
		    out.pairs[i].value) == 0);
	}
	FUZZ_CHECK(back.bodylen == out.bodylen && (back.bodylen == 0 ||
	    memcmp(back.body, out.body, back.bodylen) == 0));
	ltplog_free(&back);
	ltplog_free(&out);
	diag_free(&dl);
	free(text);
}

/* The body read as a run's "key=value" config, each key looked up. */
static void
fz_ltplog_config(const struct ltplog *log)
{
	char *v;
	size_t i;

	for (i = 0; i < log->npairs; i++) {
		v = import_config_get(log->body, log->pairs[i].key);
		free(v);
	}
	free(import_config_get(log->body, ""));
}

FUZZ_TARGET(ltplog)
{
	struct ltpout_tally t;
	struct ltplog log;
	struct diaglist dl;
	char why[256];

	diag_init(&dl);
	ltplog_init(&log);
	if (ltplog_parse(&log, (const char *)data, size, "open01.log",
	    &dl) == 0) {
		FUZZ_CHECK(log.body != NULL &&
		    log.body[log.bodylen] == '\0');
		(void)ltplog_status(&log, &t, why, sizeof(why));
		(void)ltplog_get(&log, "exit_code");
		/* What an import does with the header. */
		if (log.npairs > 0) {
			(void)import_parse_date(log.pairs[0].value);
			free(import_tag_syscall(log.pairs[0].value));
		}
		fz_ltplog_config(&log);
		fz_ltplog_roundtrip(&log);
	}
	ltplog_free(&log);
	diag_free(&dl);
	return 0;
}
