/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Made-up runs for tests (see fixture_store.h).
 */
#include <string.h>

#include "ltpscope/store.h"
#include "fixture_store.h"

void
fixture_run_init(struct store_run *run)
{
	memset(run, 0, sizeof(*run));
	run->host = (char *)"h";
	run->os_name = (char *)"NetBSD";
	run->os_version = (char *)"11.0";
	run->arch = (char *)"amd64";
	run->ltp_version = (char *)"20260529";
	run->label = (char *)"t";
}

void
fixture_queue(struct store_queue_item *q, const char *const *tags, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		memset(&q[i], 0, sizeof(q[i]));
		q[i].pos = (int64_t)i;
		q[i].tag = (char *)tags[i];
		q[i].syscall = (char *)"";
		q[i].cmdline = (char *)tags[i];
		q[i].notrun = NULL;
	}
}
