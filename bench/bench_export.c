/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What exporting the shopping list costs: a database of 200 runs x
 * 1,300 results (a third of them failing, with output), then the CSV
 * export of the newest run (rules, tags, first failing lines, ranking)
 * as a ratio to the sqlite3 command-line tool dumping the same rows
 * with -csv, both measured here in the same run: ROUNDS interleaved
 * rounds of REPEAT of each, so that a busy spell hits both alike; the
 * figures are the median round, the ratio the median of the rounds'.
 * Target: the export costs at most 1.2 times the baseline.
 */
#include <sys/time.h>

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/export.h"
#include "ltpscope/store_triage.h"
#include "bench.h"

#define NRUNS		200
#define NRESULTS	1300
#define ROUNDS		5
#define REPEAT		3
#define TARGET		1.2

static const char *const calls[] = { "read", "write", "open", "close",
    "mmap", "fcntl", "readv", "writev", "lseek", "pipe", "dup", "ioctl",
    "statx", "unshare", "epoll_wait", "inotify_init1", "kill", "getpid" };
#define NCALLS	(sizeof(calls) / sizeof(calls[0]))

/* Bulk fill in one transaction: a bench needs data, not durability. */
static void
fill(sqlite3 *db)
{
	sqlite3_stmt *r, *s, *o;
	char tag[32], out[256];
	int i, j, status;

	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO runs (label, arch, os_name, "
	    "os_version, started, ended, state) VALUES ('bench', 'amd64', "
	    "'NetBSD', '11.0', ?, ?, 'finished')", -1, &r, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO results (run_id, seq, tag, "
	    "syscall, status, n_fail, started) VALUES (?, ?, ?, ?, ?, ?, 0)",
	    -1, &s, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO outputs (result_id, data, "
	    "stored_size, original_size) VALUES (last_insert_rowid(), ?, ?, "
	    "?)", -1, &o, NULL);
	for (i = 1; i <= NRUNS; i++) {
		sqlite3_bind_int64(r, 1, 1700000000 + i * 3600);
		sqlite3_bind_int64(r, 2, 1700000000 + i * 3600 + 1800);
		sqlite3_step(r);
		sqlite3_reset(r);
		for (j = 0; j < NRESULTS; j++) {
			snprintf(tag, sizeof(tag), "%s%02d",
			    calls[j % NCALLS], j / (int)NCALLS % 100);
			status = j % 3 == 0 ? 1 : 0;
			sqlite3_bind_int(s, 1, i);
			sqlite3_bind_int(s, 2, j);
			sqlite3_bind_text(s, 3, tag, -1, SQLITE_TRANSIENT);
			sqlite3_bind_text(s, 4, calls[j % NCALLS], -1,
			    SQLITE_STATIC);
			sqlite3_bind_int(s, 5, status);
			sqlite3_bind_int(s, 6, status);
			sqlite3_step(s);
			sqlite3_reset(s);
			snprintf(out, sizeof(out), "tst_test.c:1: TINFO: "
			    "start\n%s.c:42: %s: %s returned -1: %s\n\n"
			    "Summary:\npassed   3\nfailed   %d\n", tag,
			    status ? "TFAIL" : "TPASS", calls[j % NCALLS],
			    j % 2 ? "ENOSYS (Function not implemented)" :
			    "EINVAL (Invalid argument)", status);
			sqlite3_bind_text(o, 1, out, -1, SQLITE_TRANSIENT);
			sqlite3_bind_int(o, 2, (int)strlen(out));
			sqlite3_bind_int(o, 3, (int)strlen(out));
			sqlite3_step(o);
			sqlite3_reset(o);
		}
	}
	sqlite3_finalize(r);
	sqlite3_finalize(s);
	sqlite3_finalize(o);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
}

int
main(void)
{
	struct categories cats;
	struct fundamental fund;
	struct shop_opts o;
	struct shoplist l;
	struct triage_tag t;
	struct rules *rules;
	struct diaglist dl;
	struct store *st;
	char path[256], cmd[512];
	double t0, base[ROUNDS], exp[ROUNDS], ratio[ROUNDS];
	FILE *devnull;
	int i, r;

	setenv("LTPSCOPE_DATA", "data", 0);
	snprintf(path, sizeof(path), "%s/ltpscope-bench-export-%d.db",
	    getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp",
	    (int)getpid());
	diag_init(&dl);
	if (store_open(&st, path, STORE_CREATE, &dl) != STORE_OK) {
		diag_print(&dl, stderr, "bench_export");
		return 1;
	}
	fill(store_sqlite_handle(st));
	memset(&t, 0, sizeof(t));
	t.tag = (char *)"read00";
	t.category = (char *)"missing-syscall";
	t.note = (char *)"a note, \"quoted\"";
	(void)store_tag_set(st, &t, &dl);

	categories_init(&cats);
	(void)categories_load_default(&cats, &dl);
	rules = rules_new();
	(void)rules_load_default(rules, &dl);
	(void)fundamental_load_default(&fund, &dl);
	memset(&o, 0, sizeof(o));
	o.cats = &cats;
	o.rules = rules;
	o.fund = &fund;
	o.all = 1;
	devnull = fopen("/dev/null", "w");

	/* The same rows: the newest run's results with their output. */
	snprintf(cmd, sizeof(cmd), "sqlite3 -csv %s \"SELECT r.syscall, "
	    "r.tag, r.status, o.data FROM results r LEFT JOIN outputs o ON "
	    "o.result_id = r.id WHERE r.run_id = %d AND r.status <> 0 "
	    "ORDER BY r.seq\" >/dev/null", path, NRUNS);
	for (r = 0; r < ROUNDS; r++) {
		t0 = bench_now();
		for (i = 0; i < REPEAT; i++)
			if (system(cmd) != 0) {
				fprintf(stderr, "bench_export: sqlite3 failed\n");
				return 1;
			}
		base[r] = (bench_now() - t0) * 1000 / REPEAT;
		t0 = bench_now();
		for (i = 0; i < REPEAT; i++) {
			if (shoplist_build(st, &o, &l, &dl) != STORE_OK) {
				diag_print(&dl, stderr, "bench_export");
				return 1;
			}
			export_write(&l, EXPORT_CSV, devnull);
			shoplist_free(&l);
		}
		exp[r] = (bench_now() - t0) * 1000 / REPEAT;
		ratio[r] = exp[r] / base[r];
	}

	printf("bench_export: %d runs x %d results; %d rounds; median round, "
	    "median ratio\n", NRUNS, NRESULTS, ROUNDS);
	printf("bench_export: sqlite3 -csv of the newest run's failures "
	    "%6.2f ms  (baseline)\n", bench_median(base, ROUNDS));
	printf("bench_export: export --format csv      %6.2f ms  x%.2f "
	    "(target <= %.1f)\n", bench_median(exp, ROUNDS),
	    bench_median(ratio, ROUNDS), TARGET);
	fclose(devnull);
	fundamental_free(&fund);
	rules_free(rules);
	categories_free(&cats);
	store_close(st);
	diag_free(&dl);
	(void)unlink(path);
	return 0;
}
