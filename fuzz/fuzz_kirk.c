/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: kirk's results.json (import_kirk_parse), everything the
 * import does short of the store: the JSON, each result's verdict from
 * its log, the counts, the command line and the run's fields.
 */
#include "ltpscope/import.h"
#include "ltpscope/json.h"
#include "ltpscope/status.h"
#include "../src/import_impl.h"
#include "fuzz.h"

FUZZ_TARGET(kirk)
{
	struct import_stats stats;
	struct import_opts opts;
	struct kirk_file kf;
	struct diaglist dl;
	const struct store_result *r;
	size_t i;

	diag_init(&dl);
	memset(&stats, 0, sizeof(stats));
	memset(&opts, 0, sizeof(opts));
	if (import_kirk_parse(&kf, "results.json", (const char *)data, size,
	    &opts, &stats, &dl) == 0) {
		FUZZ_CHECK(kf.nitems > 0 && kf.run.label != NULL &&
		    kf.run.config != NULL && kf.run.host != NULL);
		for (i = 0; i < kf.nitems; i++) {
			r = &kf.items[i].r;
			FUZZ_CHECK(r->tag != NULL && r->tag[0] != '\0' &&
			    strchr(r->tag, '/') == NULL);
			FUZZ_CHECK(r->syscall != NULL &&
			    kf.items[i].cmdline != NULL &&
			    kf.items[i].out != NULL);
			FUZZ_CHECK(r->status < TS__COUNT);
			FUZZ_CHECK(r->duration_ms >= 0);
		}
		import_kirk_free(&kf);
	}
	diag_free(&dl);
	return 0;
}
