/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Made-up runs for the tests that need a store with runs in it: the
 * fields every such run has, and its queue, filled the same way.
 */
#ifndef LTPSCOPE_TESTS_FIXTURE_STORE_H
#define LTPSCOPE_TESTS_FIXTURE_STORE_H

#include <stddef.h>

struct store_queue_item;
struct store_run;

/*
 * A run of LTP 20260529 on NetBSD 11.0 amd64, host "h", label "t", no
 * uname: a test sets what it checks before store_run_begin().
 */
void	fixture_run_init(struct store_run *);
/* q[0..n): tags[i] at position i, run by its own name, no syscall. */
void	fixture_queue(struct store_queue_item *q, const char *const *tags,
	    size_t n);

#endif
