/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A run on a box does not wait for the disk before each test: the
 * kernel that may panic there is the box's, not the one holding the
 * database.  A local run does, once a test: every test starts after a
 * sync.  Counted as the calls themselves (strace), the same queue of
 * tiny tests run both ways, and
 * every result of the box's run is stored, the run ended; killed with
 * SIGKILL, the box's run has kept every result it told.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sshd.h"
#include "tap.h"

#define NTINY	24
#define NFEW	4
#define NSLEEPY	6

static char bin[2048], root[1200];
static struct sshd_box box;

static void
mkroot(void)
{
	static const char *const fakes[] = { "tiny", "sleepy", NULL };
	char path[1300];
	FILE *fp;
	int i;

	tap_fake_ltproot(root, fakes);
	snprintf(path, sizeof(path), "%s/runtest/tiny", root);
	if ((fp = fopen(path, "w")) == NULL)
		return;
	for (i = 0; i < NTINY; i++)
		fprintf(fp, "tiny%02d tiny\n", i);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/runtest/few", root);
	if ((fp = fopen(path, "w")) == NULL)
		return;
	for (i = 0; i < NFEW; i++)
		fprintf(fp, "few%02d tiny\n", i);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/runtest/sleepy", root);
	if ((fp = fopen(path, "w")) == NULL)
		return;
	for (i = 0; i < NSLEEPY; i++)
		fprintf(fp, "sleepy%02d sleepy 400\n", i);
	fclose(fp);
}

/*
 * fsync(2) and fdatasync(2) calls of `ltpscope run ARGS` and all it
 * starts, -1 if strace could not trace it; *st its exit status.
 */
static int
syncs_of(const char *name, const char *args, int *st)
{
	char log[1300], cmd[8192], *text, *p;
	int n = 0;

	snprintf(log, sizeof(log), "%s/%s.strace", tap_tmpdir(), name);
	/* LeakSanitizer refuses to run under ptrace(2). */
	snprintf(cmd, sizeof(cmd), "ASAN_OPTIONS=\"$ASAN_OPTIONS:"
	    "detect_leaks=0\" strace -f -qq -e trace=fsync,fdatasync "
	    "-e signal=none -o %s %s run %s </dev/null >/dev/null 2>&1", log,
	    bin, args);
	free(tap_run(cmd, st, 1));
	if ((text = tap_slurp(log, NULL)) == NULL)
		return -1;
	for (p = text; (p = strstr(p, "sync(")) != NULL; p++)
		n++;
	free(text);
	return n;
}

/*
 * The tests of `ltpscope run ARGS` that started (their execve(2) in the
 * trace) after a sync since the one before: each must, in a local run.
 * -1 if strace could not trace it; *st its exit status; *ntests how
 * many tests started.
 */
static int
synced_starts(const char *name, const char *args, int *st, int *ntests)
{
	char log[1300], cmd[8192], *text, *p, *nl;
	int synced = 0, seen = 0;

	*ntests = 0;
	snprintf(log, sizeof(log), "%s/%s.strace", tap_tmpdir(), name);
	snprintf(cmd, sizeof(cmd), "ASAN_OPTIONS=\"$ASAN_OPTIONS:"
	    "detect_leaks=0\" strace -f -qq -e trace=fsync,fdatasync,execve "
	    "-e signal=none -o %s %s run %s </dev/null >/dev/null 2>&1", log,
	    bin, args);
	free(tap_run(cmd, st, 1));
	if ((text = tap_slurp(log, NULL)) == NULL)
		return -1;
	for (p = text; p != NULL; p = nl) {
		if ((nl = strchr(p, '\n')) != NULL)
			*nl++ = '\0';
		if (strstr(p, "sync(") != NULL)
			seen = 1;
		else if (strstr(p, "execve(") != NULL &&
		    strstr(p, "/testcases/bin/") != NULL) {
			(*ntests)++;
			synced += seen;
			seen = 0;
		}
	}
	free(text);
	return synced;
}

/* An SQL answer about db, as text (caller frees). */
static char *
sql(const char *db, const char *query)
{
	char cmd[4096];
	int st;

	snprintf(cmd, sizeof(cmd), "sqlite3 %s \"%s\"", db, query);
	return tap_run(cmd, &st, 0);
}

/*
 * The syncs a run of the NTINY tests makes over one of the NFEW:
 * what the tests cost, without what a run costs whatever its length
 * (the schema, the run's begin and end).  Both on db, made before.
 */
static int
syncs_per_queue(const char *name, const char *db, const char *where,
    int *st)
{
	char args[8192];
	int many, few;

	snprintf(args, sizeof(args), "-d %s -L %s -f few %s", db, root,
	    where);
	(void)syncs_of(name, args, st);
	snprintf(args, sizeof(args), "-d %s -L %s -f tiny %s", db, root,
	    where);
	many = syncs_of(name, args, st);
	if (*st != 0)
		return -1;
	snprintf(args, sizeof(args), "-d %s -L %s -f few %s", db, root,
	    where);
	few = syncs_of(name, args, st);
	return many < 0 || few < 0 ? -1 : many - few;
}

static void
test_syncs(void)
{
	char db[1300], where[2048], args[4096], *out;
	int st, local, remote, ntests;

	snprintf(db, sizeof(db), "%s/local.db", tap_tmpdir());
	snprintf(args, sizeof(args), "-d %s -L %s -f tiny", db, root);
	local = synced_starts("local", args, &st, &ntests);
	is_int(st, 0, "the local run passes");
	is_int(ntests, NTINY, "its %d tests started", NTINY);
	is_int(local, NTINY, "a local run syncs before each test: %d of %d "
	    "after a sync since the one before", local, NTINY);
	snprintf(db, sizeof(db), "%s/box.db", tap_tmpdir());
	snprintf(where, sizeof(where), "--host %s --ssh-config %s", box.spec,
	    box.config);
	remote = syncs_per_queue("box", db, where, &st);
	is_int(st, 0, "the box's runs pass");
	/*
	 * Give or take a checkpoint: the log the store keeps may hold a
	 * whole cycle when either run starts.
	 */
	ok(st == 0 && remote > -(NTINY - NFEW) / 4 &&
	    remote < (NTINY - NFEW) / 4, "a box's run does not: %d more "
	    "syncs for %d more tests", remote, NTINY - NFEW);
	out = sql(db, "SELECT count(*) FROM results WHERE status = 0 AND "
	    "run_id = 2");
	has_str(out, "24", "every result of the box's run is stored");
	free(out);
	out = sql(db, "SELECT group_concat(state) FROM runs");
	has_str(out, "finished,finished,finished", "and the runs ended");
	free(out);
}

/* A line of the file at path with needle, waited for up to 60 s. */
static int
wait_for(const char *path, const char *needle)
{
	struct timespec tenth = { 0, 100000000 };
	char *text;
	int i, found = 0;

	for (i = 0; i < 600 && !found; i++) {
		if ((text = tap_slurp(path, NULL)) != NULL)
			found = strstr(text, needle) != NULL;
		free(text);
		if (!found)
			(void)nanosleep(&tenth, NULL);
	}
	return found;
}

static void
test_kill9(void)
{
	char db[1300], log[1300], *out;
	pid_t pid;
	int fd, st;

	snprintf(db, sizeof(db), "%s/kill.db", tap_tmpdir());
	snprintf(log, sizeof(log), "%s/kill.log", tap_tmpdir());
	if ((pid = fork()) == 0) {
		if ((fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if ((fd = open("/dev/null", O_RDONLY)) >= 0)
			dup2(fd, 0);
		execl(bin, bin, "run", "-v", "-d", db, "-L", root, "-f",
		    "sleepy", "--host", box.spec, "--ssh-config", box.config,
		    (char *)NULL);
		_exit(127);
	}
	/* Told once committed: three told, three kept. */
	ok(wait_for(log, "sleepy02"), "the box's run tells the third test "
	    "started, so two have ended");
	kill(pid, SIGKILL);
	(void)waitpid(pid, &st, 0);
	out = sql(db, "SELECT group_concat(tag) FROM (SELECT tag FROM "
	    "results WHERE status = 0 ORDER BY tag)");
	has_str(out, "sleepy00,sleepy01", "killed with SIGKILL, it has kept "
	    "the results it told");
	free(out);
}

int
main(void)
{
	char cwd[1024], dir[1300], why[256];
	const char *b = getenv("LTPSCOPE_BIN");

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	snprintf(bin, sizeof(bin), "%s/%s", cwd, b ? b : "ltpscope");
	if (!tap_have("strace") || !tap_have("sqlite3")) {
		printf("1..0 # SKIP needs strace and sqlite3\n");
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/box", tap_tmpdir());
	if (sshd_start(&box, dir, why, sizeof(why)) != 0) {
		printf("1..0 # SKIP no test box: %s\n", why);
		return 0;
	}
	setenv("XDG_CONFIG_HOME", tap_tmpdir(), 1);
	setenv("XDG_DATA_HOME", tap_tmpdir(), 1);
	snprintf(root, sizeof(root), "%s/ltp", tap_tmpdir());
	mkroot();
	test_syncs();
	test_kill9();
	sshd_stop(&box);
	return tap_done();
}
