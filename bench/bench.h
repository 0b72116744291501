/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helpers every benchmark shares: a monotonic clock, the median of a
 * few rounds, and its scratch directory's removal at exit.  A 2-core
 * machine running other work makes single timings jump by tens of
 * percent; each benchmark therefore measures its subject and its
 * baseline in interleaved rounds, so that a busy spell hits both
 * alike, and reports the median round (or the fastest where it says
 * so).  Header only: the Makefile builds each bench from its one .c
 * file.
 */
#ifndef LTPSCOPE_BENCH_H
#define LTPSCOPE_BENCH_H

#include <stdlib.h>
#include <time.h>

#include "tap.h"

/*
 * Every benchmark links the tests' harness, which makes a scratch
 * directory for HOME and the XDG directories before main() (tap.c);
 * it goes when the benchmark exits, as a test's goes in tap_done().
 */
__attribute__((__destructor__)) static void
bench_scratch_gone(void)
{
	(void)tap_tmp_remove();
}

static inline double
bench_now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static inline int
bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n-1] (n > 0); sorts v. */
static inline double
bench_median(double *v, size_t n)
{
	qsort(v, n, sizeof(v[0]), bench_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The smallest of v[0..n-1] (n > 0). */
static inline double
bench_min(const double *v, size_t n)
{
	double m = v[0];
	size_t i;

	for (i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

#endif
