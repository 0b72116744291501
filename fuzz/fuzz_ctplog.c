/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: the earlier shell tool's logs (ctplog_parse), the
 * verdict on their output, and the writer: a log that parses and is
 * written again must read back the same.
 */
#include "ltpscope/ctplog.h"
#include "ltpscope/import.h"
#include "fuzz.h"

static void
fz_ctplog_roundtrip(const struct ctplog *in)
{
	struct ctplog out, back;
	struct diaglist dl;
	char *text;
	size_t i, len;

	ctplog_init(&out);
	for (i = 0; i < in->npairs; i++)
		(void)ctplog_add(&out, in->pairs[i].key, in->pairs[i].value);
	ctplog_set_body(&out, in->body, in->bodylen);
	text = ctplog_format(&out, &len);
	FUZZ_CHECK(strlen(text) <= len && text[len] == '\0');
	diag_init(&dl);
	ctplog_init(&back);
	FUZZ_CHECK(ctplog_parse(&back, text, len, "again.log", &dl) == 0);
	FUZZ_CHECK(dl.nerrors == 0);
	FUZZ_CHECK(back.npairs == out.npairs);
	for (i = 0; i < back.npairs; i++) {
		FUZZ_CHECK(strcmp(back.pairs[i].key, out.pairs[i].key) == 0);
		FUZZ_CHECK(strcmp(back.pairs[i].value,
		    out.pairs[i].value) == 0);
	}
	FUZZ_CHECK(back.bodylen == out.bodylen && (back.bodylen == 0 ||
	    memcmp(back.body, out.body, back.bodylen) == 0));
	ctplog_free(&back);
	ctplog_free(&out);
	diag_free(&dl);
	free(text);
}

/* The body read as a run's "key=value" config, each key looked up. */
static void
fz_ctplog_config(const struct ctplog *log)
{
	char *v;
	size_t i;

	for (i = 0; i < log->npairs; i++) {
		v = import_config_get(log->body, log->pairs[i].key);
		free(v);
	}
	free(import_config_get(log->body, ""));
}

FUZZ_TARGET(ctplog)
{
	struct ltpout_tally t;
	struct ctplog log;
	struct diaglist dl;
	char why[256];

	diag_init(&dl);
	ctplog_init(&log);
	if (ctplog_parse(&log, (const char *)data, size, "open01.log",
	    &dl) == 0) {
		FUZZ_CHECK(log.body != NULL &&
		    log.body[log.bodylen] == '\0');
		(void)ctplog_status(&log, &t, why, sizeof(why));
		(void)ctplog_get(&log, "exit_code");
		/* What an import does with the header. */
		if (log.npairs > 0) {
			(void)import_parse_date(log.pairs[0].value);
			free(import_tag_syscall(log.pairs[0].value));
		}
		fz_ctplog_config(&log);
		fz_ctplog_roundtrip(&log);
	}
	ctplog_free(&log);
	diag_free(&dl);
	return 0;
}
