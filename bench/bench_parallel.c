/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What -j 2 buys: 16 tests that sleep 250 ms each (the "sleepy" fake),
 * run through the engine serially and with two workers, both measured
 * here, now, on this machine; the ratio serial / -j 2 should approach
 * 2 (the target is > 1.8 on 2 cores).  Run from the repository root
 * (make bench).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/engine.h"
#include "ltpscope/store.h"
#include "bench.h"

#define NTESTS	16
#define SLEEPY	"tests/ltpfake/bin/sleepy 250"

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
bench_run(struct store *st, int jobs)
{
	struct engine_test t[NTESTS];
	struct engine_opts eo;
	struct engine *e;
	struct diaglist dl;
	char tags[NTESTS][16];
	double t0;
	int i;

	memset(t, 0, sizeof(t));
	for (i = 0; i < NTESTS; i++) {
		snprintf(tags[i], sizeof(tags[i]), "sleepy%02d", i);
		t[i].tag = tags[i];
		t[i].cmdline = SLEEPY;
		t[i].parallel = 1;
	}
	memset(&eo, 0, sizeof(eo));
	eo.runner.kconfig = "";
	eo.jobs = jobs;
	diag_init(&dl);
	t0 = now();
	if ((e = engine_new(st, &eo, t, NTESTS, NULL, &dl)) == NULL ||
	    engine_run(e, &dl) != 0 || engine_counts(e)[TS_PASS] != NTESTS) {
		diag_print(&dl, stderr, "bench_parallel");
		fprintf(stderr, "bench_parallel: the run failed\n");
		exit(1);
	}
	t0 = now() - t0;
	engine_free(e);
	diag_free(&dl);
	return t0;
}

int
main(void)
{
	char path[] = "/tmp/ltpscope-bench-XXXXXX", db[64];
	struct store *st = NULL;
	struct diaglist dl;
	double serial, par;

	if (access("tests/ltpfake/bin/sleepy", X_OK) != 0) {
		fprintf(stderr, "bench_parallel: run make fakes first\n");
		return 1;
	}
	if (mkdtemp(path) == NULL)
		return 1;
	snprintf(db, sizeof(db), "%s/b.db", path);
	diag_init(&dl);
	if (store_open(&st, db, STORE_CREATE, &dl) != STORE_OK) {
		diag_print(&dl, stderr, "bench_parallel");
		return 1;
	}
	serial = bench_run(st, 1);
	par = bench_run(st, 2);
	printf("parallel: %d sleepy tests serial %.3f s; -j 2 %.3f s; "
	    "ratio serial / -j 2 %.2f (target > 1.8)\n", NTESTS, serial, par,
	    serial / par);
	store_close(st);
	diag_free(&dl);
	unlink(db);
	{
		char wal[80];

		snprintf(wal, sizeof(wal), "%s-wal", db);
		unlink(wal);
		snprintf(wal, sizeof(wal), "%s-shm", db);
		unlink(wal);
		snprintf(wal, sizeof(wal), "%s-lock", db);
		unlink(wal);
	}
	rmdir(path);
	return 0;
}
