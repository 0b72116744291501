/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer under stress, in a real terminal (tmux): killed with
 * SIGKILL at random moments of a run it started (the file stays whole,
 * nothing committed is lost, the run resumes with no test run twice),
 * and a 50 MiB flood of output that keeps it small (under 20 MiB
 * resident at its peak, storing the output included; 11 MiB since a
 * test's output is spooled to a file, 27 when it was held in memory)
 * and answering every key.  TORTURE_KILLS sets the number of kills
 * ("make torture" asks for many more).
 */
#include <sys/types.h>

#include <dirent.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "tmux.h"

#define NSLEEPY		12
#define RSS_MAX_KB	(20 * 1024)
#define LINUX_TBL	"tests/fixtures/linux/syscall_64.tbl"

static char	cwd[1024];
static char	env[4096];
static char	db[1200];
static int	kills = 12;

static void
sleep_ms(long ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) == -1)
		continue;
}

/* /proc/PID/NAME's first line starting with key, its number; -1 if none. */
static long
proc_field(long pid, const char *name, const char *key)
{
	char path[64], line[256];
	long v = -1;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%ld/%s", pid, name);
	if ((fp = fopen(path, "r")) == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp) != NULL)
		if (strncmp(line, key, strlen(key)) == 0) {
			v = atol(line + strlen(key));
			break;
		}
	fclose(fp);
	return v;
}

static int
is_ltpscope(long pid)
{
	char path[64], comm[64];
	FILE *fp;
	int yes = 0;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	if ((fp = fopen(path, "r")) == NULL)
		return 0;
	if (fgets(comm, sizeof(comm), fp) != NULL)
		yes = strncmp(comm, "ltpscope", 8) == 0;
	fclose(fp);
	return yes;
}

/*
 * The explorer's pid: the pane's process itself when the shell exec'd
 * it, else the child of it (or of that child) that is ltpscope.
 */
static long
explorer_pid(void)
{
	long pane = tmux_pane_pid(), parent[3], pid;
	struct dirent *de;
	DIR *d;
	int depth;

	if (pane <= 0 || is_ltpscope(pane))
		return pane;
	parent[0] = pane;
	for (depth = 0; depth < 2; depth++) {
		if ((d = opendir("/proc")) == NULL)
			return -1;
		parent[depth + 1] = -1;
		while ((de = readdir(d)) != NULL) {
			if ((pid = atol(de->d_name)) <= 0 ||
			    proc_field(pid, "status", "PPid:") != parent[depth])
				continue;
			if (is_ltpscope(pid)) {
				closedir(d);
				return pid;
			}
			parent[depth + 1] = pid;
		}
		closedir(d);
		if (parent[depth + 1] == -1)
			break;
	}
	return -1;
}

static long long
peek(const char *sql, long long a)
{
	sqlite3_stmt *s;
	sqlite3 *h;
	long long n = -1;

	if (sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
		sqlite3_close(h);
		return -1;
	}
	sqlite3_busy_timeout(h, 5000);
	if (sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK) {
		sqlite3_bind_int64(s, 1, a);
		if (sqlite3_step(s) == SQLITE_ROW)
			n = sqlite3_column_int64(s, 0);
	}
	sqlite3_finalize(s);
	sqlite3_close(h);
	return n;
}

static void
mkroot(const char *dir)
{
	static const char *const fakes[] = { "sleepy", "flood", NULL };
	char path[1300];
	FILE *fp;
	int i;

	tap_fake_ltproot(dir, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", dir);
	fp = fopen(path, "w");
	for (i = 1; i <= NSLEEPY; i++)
		fprintf(fp, "getpid%02d sleepy 40\n", i);
	/* At least 50 MiB, then on until the test has seen enough. */
	fprintf(fp, "read01 flood 50 %s/flood.stop\nread02 sleepy 1\n", dir);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/Version", dir);
	fp = fopen(path, "w");
	fprintf(fp, "20260529-fake\n");
	fclose(fp);
}

static int
start(const char *root, int w, int h)
{
	char cmd[16384];

	snprintf(cmd, sizeof(cmd), "%s %s -L %s -m %s/%s -d %s --timeout 120",
	    env, tap_bin(), root, cwd, LINUX_TBL, db);
	if (tmux_start(cmd, w, h) != 0)
		return -1;
	return tmux_wait_for("? help", 8000) ? 0 : -1;
}

static void
test_kill_explorer(const char *root)
{
	char cmd[4096], *out;
	int k, st, started = 0, killed = 0, bad_integrity = 0, lost = 0;
	int bad_resume = 0, twice = 0, missing = 0, hit = 0;
	long long run, prev = 0, seen;
	long pid;

	for (k = 0; k < kills; k++) {
		if (start(root, 120, 30) != 0) {
			tap_diag("the explorer did not open: %s",
			    tmux_screen());
			tmux_stop();
			continue;
		}
		started++;
		tmux_keys("/");
		tmux_keys("-l '^getpid$'");
		tmux_keys("Enter r");
		if (!tmux_wait_for("running getpid", 10000))
			tap_diag("no run seen: %s", tmux_screen());
		sleep_ms(rand() % 500);
		run = peek("SELECT max(id) FROM runs WHERE ?1 = ?1", 0);
		seen = peek("SELECT count(*) FROM results WHERE run_id = ?1 "
		    "AND status = 0", run);
		pid = explorer_pid();
		if (pid > 0 && kill((pid_t)pid, SIGKILL) == 0)
			killed++;
		else
			tap_diag("no explorer process to kill");
		tmux_wait_dead(5000);
		tmux_stop();

		bad_integrity += !tap_db_integrity_ok(db);
		run = peek("SELECT max(id) FROM runs WHERE ?1 = ?1", 0);
		if (run <= prev)
			continue;
		prev = run;
		hit++;
		lost += peek("SELECT count(*) FROM results WHERE run_id = ?1 "
		    "AND status = 0", run) < seen;
		if (peek("SELECT count(*) FROM runs WHERE id = ?1 AND state = "
		    "'finished'", run) != 1) {
			snprintf(cmd, sizeof(cmd), "%s run --resume %lld -d %s "
			    "--no-skip-culprit </dev/null 2>&1", tap_bin(), run,
			    db);
			out = tap_run(cmd, &st, 0);
			if (st != 0) {
				tap_diag("run --resume %lld: %d: %s", run, st,
				    out);
				bad_resume++;
			}
			free(out);
		}
		twice += peek("SELECT count(*) FROM (SELECT tag FROM results "
		    "WHERE run_id = ?1 GROUP BY tag HAVING count(*) > 1)",
		    run) != 0;
		missing += peek("SELECT count(DISTINCT tag) FROM results "
		    "WHERE run_id = ?1", run) != NSLEEPY;
	}
	tap_diag("explorer: %d kills, %d runs to resume", killed, hit);
	is_int(started, kills, "the explorer opened %d times", kills);
	is_int(killed, kills, "and was killed with SIGKILL each time");
	ok(hit > kills / 2, "most kills landed in a run (%d)", hit);
	is_int(bad_integrity, 0, "integrity_check ok after every kill");
	is_int(lost, 0, "every result committed before the kill is there");
	is_int(bad_resume, 0, "every killed run resumes");
	is_int(twice, 0, "no test ran twice");
	is_int(missing, 0, "every resumed run has all its tests");
}

/*
 * 50 MiB and more of output: the explorer keeps only the newest lines,
 * so its resident size stays small, and it answers every key meanwhile.
 */
static void
test_flood(const char *root)
{
	char stop[1300];
	long pid, rss = 0, hwm, v;
	int i, moved = 0;
	FILE *fp;

	snprintf(db, sizeof(db), "%s/flood.db", tap_tmpdir());
	if (!ok(start(root, 120, 40) == 0, "the explorer opens")) {
		tmux_stop();
		return;
	}
	pid = explorer_pid();
	ok(pid > 0, "its process is found (%ld)", pid);
	tmux_keys("/");
	tmux_keys("-l '^read$'");
	tmux_keys("Enter Enter");
	ok(tmux_wait_for("tests of read: 2", 3000), "the tests of read");
	tmux_keys("r");
	ok(tmux_wait_for("running read01", 30000), "the flood runs");
	ok(tmux_wait_for("of the flood, as long as", 30000),
	    "and streams in");
	for (i = 0; i < 5; i++) {
		tmux_keys("j");
		moved += tmux_wait_for(" 2/2  ? help", 15000);
		tmux_keys("k");
		moved += tmux_wait_for(" 1/2  ? help", 15000);
		if ((v = proc_field(pid, "status", "VmRSS:")) > rss)
			rss = v;
	}
	is_int(moved, 10, "every key answered during the flood");
	snprintf(stop, sizeof(stop), "%s/flood.stop", root);
	if ((fp = fopen(stop, "w")) != NULL)
		fclose(fp);
	ok(tmux_wait_for("== read01: pass", 120000), "the flood finishes");
	hwm = proc_field(pid, "status", "VmHWM:");
	tap_diag("explorer: VmRSS up to %ld kB during the flood, VmHWM %ld kB",
	    rss, hwm);
	/* Sanitizers' shadow memory is no measure of ours. */
	if (getenv("LTPSCOPE_ASAN") == NULL)
		ok(hwm > 0 && hwm < RSS_MAX_KB, "peak resident size %ld kB "
		    "< %d kB", hwm, RSS_MAX_KB);
	/* Its 16 MiB stored: read in pieces into the pane's ring. */
	tmux_keys("Enter");
	ok(tmux_wait_for("read01: pass (stored output)", 30000),
	    "its stored output opens");
	hwm = proc_field(pid, "status", "VmHWM:");
	tap_diag("explorer: VmHWM %ld kB with the stored output open", hwm);
	if (getenv("LTPSCOPE_ASAN") == NULL)
		ok(hwm > 0 && hwm < RSS_MAX_KB, "  peak resident size %ld kB "
		    "< %d kB still", hwm, RSS_MAX_KB);

	tmux_keys("q");
	tmux_keys("Q");
	if (!tmux_wait_dead(5000))
		tmux_keys("y");
	tmux_wait_dead(10000);
	tmux_stop();
}

int
main(void)
{
	const char *t = tap_tmpdir();
	const char *n = getenv("TORTURE_KILLS");
	char root[1200];

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	if (n != NULL && atoi(n) > 0)
		kills = atoi(n);
	snprintf(env, sizeof(env), "env HOME=%s XDG_DATA_HOME=%s/data "
	    "XDG_CONFIG_HOME=%s/config XDG_STATE_HOME=%s/state", t, t, t, t);
	snprintf(db, sizeof(db), "%s/explorer.db", t);
	snprintf(root, sizeof(root), "%s/ltp", t);
	srand((unsigned)time(NULL) ^ (unsigned)getpid());
	mkroot(root);
	test_kill_explorer(root);
	test_flood(root);
	return tap_done();
}
