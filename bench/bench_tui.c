/*
 * Time to the explorer's first full frame with a big history: 200 runs
 * of 1,300 results each, the real compat_linux table and the real LTP
 * runtest file, in a pseudo-terminal.  The baseline, measured in the
 * same run, is the sqlite3 shell counting the same results: how long
 * merely opening the database and touching every row takes.  A ratio
 * near 1 means the explorer opens as fast as the data can be read.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/store.h"

#define NRUNS		200
#define NRESULTS	1300
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
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	(void)system(cmd);
	return 0;
}
