/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How the store's UI queries scale: a database of 200 runs x 1,300
 * results, then the run list (with counts), one run's results, a
 * test's history and the latest result per test, each timed against
 * one run's results as the baseline measured in the same run.
 *
 * Benchmarks: each ratio is a query's time over the time to read one
 * run's results, which the explorer does whenever a run is opened and
 * which grows only with the run, not the history.  A ratio near or
 * below 1 means that query stays as cheap as opening a run however
 * many runs the database holds; one far above 1 would make the UI
 * slower as the history grows.  ROUNDS interleaved rounds of REPEAT
 * queries each; figures are the median round, ratios the median of
 * the rounds' ratios.
 */
#include <sys/time.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/store.h"
#include "bench.h"

#define NRUNS		200
#define NRESULTS	1300
#define REPEAT		10
#define ROUNDS		5

enum { Q_BASE, Q_LIST, Q_HIST, Q_LATEST, NQ };

/* Milliseconds per query q, over REPEAT of them. */
static double
time_query(struct store *st, int q, struct diaglist *dl)
{
	struct store_result *res;
	struct store_run *runs;
	double t = bench_now();
	size_t n;
	int i;

	for (i = 0; i < REPEAT; i++)
		switch (q) {
		case Q_BASE:
			store_run_results(st, 100, &res, &n, dl);
			store_results_free(res, n);
			break;
		case Q_LIST:
			store_list_runs(st, &runs, &n, dl);
			store_runs_free(runs, n);
			break;
		case Q_HIST:
			store_test_history(st, "test0650", 20, &res, &n, dl);
			store_results_free(res, n);
			break;
		default:
			store_latest_results(st, &res, &n, dl);
			store_results_free(res, n);
			break;
		}
	return (bench_now() - t) * 1e3 / REPEAT;
}

/* Bulk fill in one transaction: a bench needs data, not durability. */
static void
fill(sqlite3 *db)
{
	sqlite3_stmt *r, *s;
	char tag[32];
	int i, j;

	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO runs (label, started, ended, "
	    "state) VALUES ('bench', ?, ?, 'finished')", -1, &r, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO results (run_id, seq, tag, "
	    "status, started) VALUES (?, ?, ?, ?, 0)", -1, &s, NULL);
	for (i = 1; i <= NRUNS; i++) {
		sqlite3_bind_int64(r, 1, 1700000000 + i * 3600);
		sqlite3_bind_int64(r, 2, 1700000000 + i * 3600 + 1800);
		sqlite3_step(r);
		sqlite3_reset(r);
		for (j = 0; j < NRESULTS; j++) {
			snprintf(tag, sizeof(tag), "test%04d", j);
			sqlite3_bind_int(s, 1, i);
			sqlite3_bind_int(s, 2, j);
			sqlite3_bind_text(s, 3, tag, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int(s, 4, (i + j) % 8);
			sqlite3_step(s);
			sqlite3_reset(s);
		}
	}
	sqlite3_finalize(r);
	sqlite3_finalize(s);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
}

int
main(void)
{
	static const char *const sfx[] = { "", "-wal", "-shm", "-lock" };
	struct diaglist dl;
	struct store *st;
	char path[256], p[300];
	double t[NQ][ROUNDS], ratio[NQ][ROUNDS], med[NQ], rat[NQ];
	size_t i;
	int q, r;

	snprintf(path, sizeof(path), "%s/ltpscope-bench-%d.db",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp",
	    (int)getpid());
	diag_init(&dl);
	if (store_open(&st, path, STORE_CREATE, &dl) != STORE_OK) {
		diag_print(&dl, stderr, "bench_store");
		return 1;
	}
	fill(store_sqlite_handle(st));

	for (q = 0; q < NQ; q++)	/* warm the caches */
		(void)time_query(st, q, &dl);
	for (r = 0; r < ROUNDS; r++) {
		for (q = 0; q < NQ; q++)
			t[q][r] = time_query(st, q, &dl);
		for (q = 0; q < NQ; q++)
			ratio[q][r] = t[q][r] / t[Q_BASE][r];
	}
	for (q = 0; q < NQ; q++) {
		med[q] = bench_median(t[q], ROUNDS);
		rat[q] = bench_median(ratio[q], ROUNDS);
	}
	if (dl.nerrors > 0) {
		diag_print(&dl, stderr, "bench_store");
		return 1;
	}

	printf("bench_store: %d runs x %d results; %d rounds, median round "
	    "and ratio\n", NRUNS, NRESULTS, ROUNDS);
	printf("bench_store: baseline: one run's results %.2f ms\n",
	    med[Q_BASE]);
	printf("bench_store: list runs with counts   %6.2f ms  x%.2f\n",
	    med[Q_LIST], rat[Q_LIST]);
	printf("bench_store: history of one test     %6.2f ms  x%.2f\n",
	    med[Q_HIST], rat[Q_HIST]);
	printf("bench_store: latest result per test  %6.2f ms  x%.2f\n",
	    med[Q_LATEST], rat[Q_LATEST]);
	store_close(st);
	diag_free(&dl);
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		(void)snprintf(p, sizeof(p), "%s%s", path, sfx[i]);
		(void)unlink(p);
	}
	return 0;
}
