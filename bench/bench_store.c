/*
 * How the store's UI queries scale: a database of 200 runs x 1,300
 * results, then the run list (with counts), one run's results, a
 * test's history and the latest result per test, each timed against
 * one run's results as the baseline measured in the same run.
 */
#include <sys/time.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/store.h"

#define NRUNS		200
#define NRESULTS	1300
#define REPEAT		20

static double
now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1000.0 + tv.tv_usec / 1000.0;
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
	struct store_result *res;
	struct store_run *runs;
	struct diaglist dl;
	struct store *st;
	char path[256];
	double t, base, list, hist, latest;
	size_t n;
	int i;

	snprintf(path, sizeof(path), "%s/ltpscope-bench-%d.db",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp",
	    (int)getpid());
	diag_init(&dl);
	if (store_open(&st, path, STORE_CREATE, &dl) != STORE_OK) {
		diag_print(&dl, stderr, "bench_store");
		return 1;
	}
	fill(store_sqlite_handle(st));

	t = now_ms();
	for (i = 0; i < REPEAT; i++) {
		store_run_results(st, 100, &res, &n, &dl);
		store_results_free(res, n);
	}
	base = (now_ms() - t) / REPEAT;
	t = now_ms();
	for (i = 0; i < REPEAT; i++) {
		store_list_runs(st, &runs, &n, &dl);
		store_runs_free(runs, n);
	}
	list = (now_ms() - t) / REPEAT;
	t = now_ms();
	for (i = 0; i < REPEAT; i++) {
		store_test_history(st, "test0650", 20, &res, &n, &dl);
		store_results_free(res, n);
	}
	hist = (now_ms() - t) / REPEAT;
	t = now_ms();
	for (i = 0; i < REPEAT; i++) {
		store_latest_results(st, &res, &n, &dl);
		store_results_free(res, n);
	}
	latest = (now_ms() - t) / REPEAT;

	printf("bench_store: %d runs x %d results; baseline: one run's "
	    "results %.2f ms\n", NRUNS, NRESULTS, base);
	printf("bench_store: list runs with counts   %6.2f ms  x%.2f\n",
	    list, list / base);
	printf("bench_store: history of one test     %6.2f ms  x%.2f\n",
	    hist, hist / base);
	printf("bench_store: latest result per test  %6.2f ms  x%.2f\n",
	    latest, latest / base);
	store_close(st);
	diag_free(&dl);
	(void)unlink(path);
	return 0;
}
