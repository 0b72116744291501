/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Time to the explorer's first full frame with a big history: 200 runs
 * of 1,500 results each, the real compat_linux table and the real LTP
 * runtest file, in a pseudo-terminal.  The baseline, measured in the
 * same run, is the sqlite3 shell counting the same results: how long
 * merely opening the database and touching every row takes.  A ratio
 * near 1 means the explorer opens as fast as the data can be read
 * (issue 13 wants 2 at most).  Then the explorer's peak resident size:
 * at that first frame, and through a run of a test that writes 50 MiB,
 * typed into it as a user would; no baseline there, so the ratio is to
 * the 30 MiB issue 13 asks for.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/store.h"
#include "bench.h"

#define NRUNS		200
#define NRESULTS	1500
#define FLOOD_GOAL_KB	(30 * 1024)
#define ROUNDS		7

static char	tags[NRESULTS][40];
static int	ntags;

static double
now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1000.0 + tv.tv_usec / 1000.0;
}

static const char *
shared(const char *rel)
{
	static char buf[2][2048];
	static int k;
	const char *s = getenv("LTPSCOPE_SHARED");

	k ^= 1;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", s && *s ? s : "../shared",
	    rel);
	return buf[k];
}

static void
read_tags(void)
{
	FILE *fp = fopen(shared("ltp/runtest-syscalls"), "r");
	char line[4096];

	if (fp == NULL) {
		perror("runtest-syscalls");
		exit(1);
	}
	while (ntags < NRESULTS && fgets(line, sizeof(line), fp) != NULL) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		line[strcspn(line, " \t\n")] = '\0';
		line[sizeof(tags[0]) - 1] = '\0';
		memcpy(tags[ntags++], line, strlen(line) + 1);
	}
	fclose(fp);
}

static void
fill(const char *path)
{
	struct store *st;
	struct diaglist dl;
	sqlite3 *db;
	sqlite3_stmt *r, *s;
	int i, j;

	diag_init(&dl);
	if (store_open(&st, path, STORE_CREATE, &dl) != STORE_OK) {
		diag_print(&dl, stderr, "bench_tui");
		exit(1);
	}
	store_close(st);
	diag_free(&dl);
	sqlite3_open(path, &db);
	sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO runs (label, started, ended, "
	    "state) VALUES ('bench', ?, ?, 'finished')", -1, &r, NULL);
	sqlite3_prepare_v2(db, "INSERT INTO results (run_id, seq, tag, "
	    "status, started, duration_ms) VALUES (?, ?, ?, ?, 0, 100)", -1,
	    &s, NULL);
	for (i = 1; i <= NRUNS; i++) {
		sqlite3_bind_int64(r, 1, 1700000000 + i * 3600);
		sqlite3_bind_int64(r, 2, 1700000000 + i * 3600 + 1800);
		sqlite3_step(r);
		sqlite3_reset(r);
		for (j = 0; j < ntags; j++) {
			sqlite3_bind_int(s, 1, i);
			sqlite3_bind_int(s, 2, j);
			sqlite3_bind_text(s, 3, tags[j], -1, SQLITE_STATIC);
			sqlite3_bind_int(s, 4, (i + j) % 8);
			sqlite3_step(s);
			sqlite3_reset(s);
		}
	}
	sqlite3_finalize(r);
	sqlite3_finalize(s);
	sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
	sqlite3_close(db);
}

/* Runs argv on a pseudo-terminal; returns wall milliseconds. */
static double
timed_pty(char *const argv[])
{
	int master, slave, st;
	pid_t pid;
	double t0;
	char buf[65536];

	if (openpty(&master, &slave, NULL, NULL, NULL) == -1) {
		perror("openpty");
		exit(1);
	}
	t0 = now_ms();
	if ((pid = fork()) == 0) {
		setsid();
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		close(master);
		close(slave);
		execv(argv[0], argv);
		_exit(127);
	}
	close(slave);
	while (read(master, buf, sizeof(buf)) > 0)
		continue;
	waitpid(pid, &st, 0);
	close(master);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "bench_tui: %s exited with %#x\n", argv[0], st);
		exit(1);
	}
	return now_ms() - t0;
}

/* The largest peak resident size of the children waited for, in kB. */
static long
children_maxrss_kb(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
		return -1;
	return ru.ru_maxrss;
}

static void
sleep_ms(long ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
}

/* Reads what is there on the pty, for at most ms. */
static void
drain(int fd, int ms)
{
	struct pollfd p;
	char buf[65536];

	p.fd = fd;
	p.events = POLLIN;
	while (poll(&p, 1, ms) > 0 && read(fd, buf, sizeof(buf)) > 0)
		continue;
}

/* Whether the database holds a finished read01. */
static int
flood_done(const char *db)
{
	sqlite3_stmt *s;
	sqlite3 *h;
	int done = 0;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, "SELECT count(*) FROM results WHERE tag = "
	    "'read01' AND ended IS NOT NULL", -1, &s, NULL) == SQLITE_OK) {
		done = sqlite3_step(s) == SQLITE_ROW &&
		    sqlite3_column_int(s, 0) > 0;
		sqlite3_finalize(s);
	}
	sqlite3_close(h);
	return done;
}

/*
 * The explorer on a fake LTP install whose read01 writes 50 MiB: "/",
 * "^read$", Enter and r typed into it, the pty drained as a terminal
 * would, until the result is stored; then its peak resident size.
 */
static long
flood_rss(const char *self, const char *dir)
{
	char root[512], db[512], path[4096], tbl[1100], cwd[1024];
	char *argv[12];
	int master, slave, st, i;
	pid_t pid;
	FILE *fp;

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return -1;
	snprintf(root, sizeof(root), "%s/flood-ltp", dir);
	snprintf(db, sizeof(db), "%s/flood.db", dir);
	snprintf(path, sizeof(path), "mkdir -p %s/runtest %s/testcases/bin && "
	    "ln -sf %s/tests/ltpfake/bin/flood %s/testcases/bin/flood", root,
	    root, cwd, root);
	if (system(path) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/runtest/syscalls", root);
	if ((fp = fopen(path, "w")) == NULL)
		return -1;
	fprintf(fp, "read01 flood 50\n");
	fclose(fp);
	snprintf(tbl, sizeof(tbl), "%s/tests/fixtures/linux/syscall_64.tbl",
	    cwd);
	i = 0;
	argv[i++] = (char *)self;
	argv[i++] = (char *)"-d";
	argv[i++] = db;
	argv[i++] = (char *)"-L";
	argv[i++] = root;
	argv[i++] = (char *)"-m";
	argv[i++] = tbl;
	argv[i] = NULL;
	if (openpty(&master, &slave, NULL, NULL, NULL) == -1)
		return -1;
	unsetenv("LTPSCOPE_FIRST_FRAME_EXIT");
	if ((pid = fork()) == 0) {
		setsid();
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		close(master);
		close(slave);
		execv(argv[0], argv);
		_exit(127);
	}
	close(slave);
	drain(master, 1000);
	(void)write(master, "/^read$\r", 8);
	drain(master, 300);
	(void)write(master, "r", 1);
	for (i = 0; i < 1200 && !flood_done(db); i++)
		drain(master, 100);
	if (i == 1200)
		fprintf(stderr, "bench_tui: the flood did not finish\n");
	kill(pid, SIGKILL);
	close(master);
	waitpid(pid, &st, 0);
	sleep_ms(10);
	return children_maxrss_kb();
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int
main(void)
{
	char dir[] = "/tmp/ltpscope-bench.XXXXXX";
	char db[256], root[256], rt[2100], cmd[8192], self[1024];
	char *ui[16], *sq[8];
	double a[ROUNDS], b[ROUNDS];
	long rss;
	int i;

	if (mkdtemp(dir) == NULL || getcwd(self, sizeof(self) - 16) == NULL)
		return 1;
	strcat(self, "/ltpscope");
	read_tags();
	snprintf(db, sizeof(db), "%s/big.db", dir);
	snprintf(root, sizeof(root), "%s/ltp", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/runtest %s/testcases/bin && "
	    "cp %s %s/runtest/syscalls", root, root,
	    shared("ltp/runtest-syscalls"), root);
	if (system(cmd) != 0)
		return 1;
	fill(db);
	setenv("TERM", "xterm", 1);
	setenv("LTPSCOPE_FIRST_FRAME_EXIT", "1", 1);
	snprintf(rt, sizeof(rt), "%s", shared("netbsd/linux-amd64-syscalls.master"));
	i = 0;
	ui[i++] = self;
	ui[i++] = (char *)"-d";
	ui[i++] = db;
	ui[i++] = (char *)"-L";
	ui[i++] = root;
	ui[i++] = (char *)"-m";
	ui[i++] = rt;
	ui[i++] = (char *)"-m";
	ui[i++] = (char *)shared("linux/syscall_64.tbl");
	ui[i] = NULL;
	sq[0] = (char *)"/usr/bin/sqlite3";
	sq[1] = db;
	sq[2] = (char *)"SELECT count(*) FROM results";
	sq[3] = NULL;
	if (access(sq[0], X_OK) != 0)
		sq[0] = (char *)"/usr/pkg/bin/sqlite3";
	for (i = 0; i < ROUNDS; i++) {
		a[i] = timed_pty(ui);
		b[i] = timed_pty(sq);
	}
	qsort(a, ROUNDS, sizeof(a[0]), cmp_double);
	qsort(b, ROUNDS, sizeof(b[0]), cmp_double);
	printf("tui: first frame with %d runs x %d results: %.1f ms; "
	    "sqlite3 count(*) over them: %.1f ms; ratio %.2f (median of %d)\n",
	    NRUNS, ntags, a[ROUNDS / 2], b[ROUNDS / 2],
	    a[ROUNDS / 2] / b[ROUNDS / 2], ROUNDS);
	printf("tui: peak resident size at the first frame: %ld kB\n",
	    children_maxrss_kb());
	/* In a child of its own: the peak above would hide a lower one. */
	{
		int fds[2], st;
		pid_t pid;

		rss = -1;
		if (pipe(fds) == 0 && (pid = fork()) == 0) {
			rss = flood_rss(self, dir);
			(void)write(fds[1], &rss, sizeof(rss));
			_exit(0);
		}
		close(fds[1]);
		if (read(fds[0], &rss, sizeof(rss)) != sizeof(rss))
			rss = -1;
		close(fds[0]);
		wait(&st);
	}
	printf("tui: peak resident size through a 50 MiB flood: %ld kB; "
	    "goal %d kB: ratio %.2f\n", rss, FLOOD_GOAL_KB,
	    (double)rss / FLOOD_GOAL_KB);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)system(cmd);
	return 0;
}
