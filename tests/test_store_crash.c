/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kill -9 at random moments: a child records results as fast as it can
 * and reports each result id on a pipe only after its commit returned;
 * the parent kills it at a random time, again and again.  Afterwards
 * the file must pass integrity_check and hold every reported result,
 * finished and with its exact output: committed means durable.
 * TORTURE_KILLS sets the number of kills ("make torture").
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/store.h"
#include "tap.h"

#define KILLS		25
#define MAXIDS		100000

/* Output of result id: its size and bytes follow from the id alone. */
static size_t
output_size(int64_t id)
{
	return (size_t)((id * 7919) % 20000);
}

static void
output_fill(int64_t id, unsigned char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = (unsigned char)(id * 31 + i);
}

static void __attribute__((__noreturn__))
writer(const char *path, int fd)
{
	struct store_queue_item q[50];
	static unsigned char buf[20000];
	struct store_result r;
	struct store_run run;
	struct diaglist dl;
	struct store *st;
	char tags[50][16];
	int64_t id;
	size_t i, n;

	diag_init(&dl);
	if (store_open(&st, path, STORE_CREATE, &dl) != STORE_OK)
		_exit(3);
	memset(q, 0, sizeof(q));
	for (i = 0; i < 50; i++) {
		snprintf(tags[i], sizeof(tags[i]), "crash%02zu", i);
		q[i].pos = (int64_t)i;
		q[i].tag = tags[i];
		q[i].syscall = (char *)"";
		q[i].cmdline = tags[i];
	}
	for (;;) {
		memset(&run, 0, sizeof(run));
		run.label = (char *)"crash";
		if (store_run_begin(st, &run, q, 50, &dl) != STORE_OK)
			_exit(4);
		for (i = 0; i < 50; i++) {
			if (store_test_start(st, run.id, tags[i], "",
			    (int64_t)i, &id, &dl) != STORE_OK)
				_exit(5);
			n = output_size(id);
			output_fill(id, buf, n);
			memset(&r, 0, sizeof(r));
			r.tag = tags[i];
			r.status = (enum test_status)(id % 5);
			if (store_test_finish(st, id, &r, buf, n, &dl) !=
			    STORE_OK)
				_exit(6);
			/* Only now is it committed: tell the parent. */
			if (write(fd, &id, sizeof(id)) != sizeof(id))
				_exit(7);
		}
		store_run_end(st, run.id, RUN_FINISHED, &dl);
	}
}

/*
 * The writer's first committed id from fd, waited for up to ms; 1 when
 * it came in time.
 */
static int
first_commit(int fd, int64_t *idp, int ms)
{
	struct pollfd p;

	p.fd = fd;
	p.events = POLLIN;
	while (poll(&p, 1, ms) == -1)
		if (errno != EINTR)
			return 0;
	return (p.revents & POLLIN) != 0 &&
	    read(fd, idp, sizeof(*idp)) == sizeof(*idp);
}

static int
check_result(sqlite3 *db, int64_t id, unsigned char *want)
{
	sqlite3_stmt *s;
	size_t n = output_size(id);
	int good = 0;

	sqlite3_prepare_v2(db, "SELECT r.status, o.data, o.stored_size FROM "
	    "results r JOIN outputs o ON o.result_id = r.id WHERE r.id = ?",
	    -1, &s, NULL);
	sqlite3_bind_int64(s, 1, id);
	if (sqlite3_step(s) == SQLITE_ROW) {
		output_fill(id, want, n);
		good = sqlite3_column_int(s, 0) == (int)(id % 5) &&
		    (size_t)sqlite3_column_bytes(s, 1) == n &&
		    sqlite3_column_int64(s, 2) == (int64_t)n &&
		    (n == 0 || memcmp(sqlite3_column_blob(s, 1), want, n) == 0);
	}
	sqlite3_finalize(s);
	return good;
}

int
main(void)
{
	static int64_t ids[MAXIDS];
	static unsigned char want[20000];
	struct store_interrupted *iv;
	struct diaglist dl;
	struct store *st;
	struct timespec ts;
	char path[1024];
	sqlite3_stmt *s;
	sqlite3 *db;
	size_t nids = 0, i, n, bad = 0, multi = 0;
	int k, fds[2], status, killed = 0, opens = 0, kills = KILLS;
	int64_t id;
	pid_t pid;

	if (getenv("TORTURE_KILLS") != NULL && atoi(getenv("TORTURE_KILLS")) >
	    0)
		kills = atoi(getenv("TORTURE_KILLS"));
	snprintf(path, sizeof(path), "%s/crash.db", tap_tmpdir());
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	for (k = 0; k < kills; k++) {
		if (pipe(fds) != 0)
			return 1;
		if ((pid = fork()) == 0) {
			close(fds[0]);
			writer(path, fds[1]);
		}
		close(fds[1]);
		/*
		 * Every other writer gets the time after its first commit,
		 * not after its start: on a busy machine a slow start would
		 * take every kill before anything was committed.
		 */
		if (k % 2 == 1 && first_commit(fds[0], &id, 60000) &&
		    nids < MAXIDS)
			ids[nids++] = id;
		/* 1..80 ms: lands in opens, starts, commits, checkpoints. */
		ts.tv_sec = 0;
		ts.tv_nsec = (long)(1 + rand() % 80) * 1000000L;
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
			killed++;
		else
			tap_diag("writer exited with %d", WEXITSTATUS(status));
		while (read(fds[0], &id, sizeof(id)) == sizeof(id))
			if (nids < MAXIDS)
				ids[nids++] = id;
		close(fds[0]);
		/*
		 * Each crash must leave a file that opens cleanly, or none:
		 * a writer slow to start may die before it made one.
		 */
		diag_init(&dl);
		if (access(path, F_OK) == -1 && errno == ENOENT) {
			opens++;
			tap_diag("writer %d killed before it made %s", k + 1,
			    path);
		} else if (store_open(&st, path, 0, &dl) == STORE_OK) {
			opens++;
			store_close(st);
		} else
			diag_print(&dl, stdout, "# reopen");
		diag_free(&dl);
	}
	is_int(killed, kills, "writer killed by SIGKILL %d times", kills);
	is_int(opens, kills, "the database opened after every crash (or "
	    "was not made yet)");
	ok(nids > 0, "the writer committed results (%zu)", nids);

	sqlite3_open(path, &db);
	sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL);
	ok(sqlite3_step(s) == SQLITE_ROW && strcmp((const char *)
	    sqlite3_column_text(s, 0), "ok") == 0, "integrity_check is ok");
	sqlite3_finalize(s);
	for (i = 0; i < nids; i++)
		if (!check_result(db, ids[i], want)) {
			if (bad++ < 5)
				tap_diag("result %lld lost or damaged",
				    (long long)ids[i]);
		}
	is_int(bad, 0, "every reported result is there with its output");
	/* The trigger-kept counts and latest table agree with the rows. */
	sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM (SELECT run_id, "
	    "status, count(*) AS c FROM results GROUP BY 1, 2) a LEFT JOIN "
	    "run_counts b USING (run_id, status) WHERE b.n IS NOT a.c) + "
	    "(SELECT count(*) FROM run_counts b WHERE n <> (SELECT count(*) "
	    "FROM results r WHERE r.run_id = b.run_id AND r.status = "
	    "b.status)) + (SELECT count(*) FROM (SELECT tag, max(id) AS m "
	    "FROM results WHERE status <> 9 GROUP BY tag) x LEFT JOIN "
	    "latest l USING (tag) WHERE l.result_id IS NOT x.m)", -1, &s,
	    NULL);
	ok(sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0) == 0,
	    "counts and latest results kept by triggers agree with results");
	sqlite3_finalize(s);
	sqlite3_close(db);

	diag_init(&dl);
	store_open(&st, path, 0, &dl);
	is_int(store_interrupted_runs(st, &iv, &n, &dl), STORE_OK,
	    "interrupted runs found");
	ok(n >= 1 && n <= (size_t)kills, "one per killed writer at most (%zu)",
	    n);
	for (i = 0; i < n; i++)
		if (iv[i].nrunning > 1)
			multi++;
	is_int(multi, 0, "never more than one test left running per run");
	store_interrupted_free(iv, n);
	store_close(st);
	diag_free(&dl);
	return tap_done();
}
