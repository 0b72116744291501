/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * System V IPC objects a test leaves behind are removed and said, in
 * the summary and in the test's output; those a test removed itself
 * are not mentioned; a segment made before the run survives it.  The
 * fake "sysvipc" prints the ids it made, which are looked for after
 * the run, in the kernel and with ipcs(1).  Objects made while a test
 * runs by a process that lives on and uses them (this program) are not
 * the test's: they survive.
 */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include <sys/wait.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/ipcleft.h"
#include "tap.h"

#define LINUX_TBL	"tests/fixtures/linux/syscall_64.tbl"

static char bin[2048];

/* The number after "what id " in out, or -1. */
static int
id_in(const char *out, const char *what)
{
	char want[64];
	const char *p;

	snprintf(want, sizeof(want), "TINFO: %s id ", what);
	if (out == NULL || (p = strstr(out, want)) == NULL)
		return -1;
	return atoi(p + strlen(want));
}

/* 1 if `ipcs -FLAG` lists id as a word. */
static int
ipcs_lists(char flag, int id)
{
	char cmd[64], want[32], *out;
	int st, found;

	snprintf(cmd, sizeof(cmd), "ipcs -%c", flag);
	out = tap_run(cmd, &st, 1);
	snprintf(want, sizeof(want), " %d ", id);
	found = out != NULL && strstr(out, want) != NULL;
	free(out);
	return found;
}

static void
test_sysv_left(void)
{
	static const char *const fakes[] = { "sysvipc", NULL };
	struct shmid_ds ds;
	char lroot[1200], db[1300], path[1400], cmd[8192], want[200];
	char *out, *left, *tidy;
	int st, before, shm, sem, msg;
	FILE *fp;

	snprintf(lroot, sizeof(lroot), "%s/ltp-ipc", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/ipc.db", tap_tmpdir());
	tap_fake_ltproot(lroot, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", lroot);
	if ((fp = fopen(path, "w")) == NULL)
		return;
	fputs("ipc01 sysvipc leave\nipc02 sysvipc tidy\n", fp);
	fclose(fp);
	before = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	ok(before != -1, "a segment made before the run");
	snprintf(cmd, sizeof(cmd), "%s run -d %s -L %s -m %s --timeout 20 "
	    "</dev/null", bin, db, lroot, LINUX_TBL);
	out = tap_run(cmd, &st, 0);
	has_str(out, "\ncleaned up after: ipc01: removed 3 System V IPC "
	    "objects left behind: ", "the summary says what ipc01 left and "
	    "ltpscope removed");
	ok(strstr(out, "cleaned up after: ipc02") == NULL, "ipc02 removed "
	    "its own: nothing said");
	ok(strstr(out, "left behind: ipc0") == NULL, "nor listed as left "
	    "behind");
	snprintf(cmd, sizeof(cmd), "%s show last -d %s --output ipc01", bin,
	    db);
	left = tap_run(cmd, &st, 0);
	has_str(left, "ltpscope: cleaned up after the test: removed 3 System "
	    "V IPC objects left behind: ", "... and so does its output");
	snprintf(cmd, sizeof(cmd), "%s show last -d %s --output ipc02", bin,
	    db);
	tidy = tap_run(cmd, &st, 0);
	has_str(tidy, "TPASS: removed", "ipc02 ran");
	ok(tidy != NULL && strstr(tidy, "cleaned up") == NULL,
	    "and its output says nothing of a cleanup");
	shm = id_in(left, "shm");
	sem = id_in(left, "sem");
	msg = id_in(left, "msg");
	ok(shm >= 0 && sem >= 0 && msg >= 0, "ipc01 said its ids");
	snprintf(want, sizeof(want), "shm id %d key 0x0", shm);
	has_str(out, want, "the summary names the segment");
	snprintf(want, sizeof(want), "sem id %d key 0x0", sem);
	has_str(out, want, "the semaphore set");
	snprintf(want, sizeof(want), "msg id %d key 0x0", msg);
	has_str(out, want, "the message queue");
	ok(shmctl(shm, IPC_STAT, &ds) == -1, "the segment is gone");
	ok(semctl(sem, 0, GETVAL) == -1,
	    "the semaphore set is gone");
	ok(msgctl(msg, IPC_STAT, NULL) == -1, "the queue is gone");
	if (!tap_have("ipcs"))
		ok(1, "# SKIP ipcs(1) not installed");
	else {
		ok(!ipcs_lists('m', shm) && !ipcs_lists('s', sem) &&
		    !ipcs_lists('q', msg), "ipcs lists none of them");
		ok(ipcs_lists('m', before), "ipcs still lists the segment "
		    "made before");
	}
	ok(shmctl(before, IPC_STAT, &ds) == 0, "the segment made before "
	    "the run survives it");
	(void)shmctl(before, IPC_RMID, NULL);
	free(out);
	free(left);
	free(tidy);
}

/* 1 once path exists, 0 after 60 s. */
static int
wait_file(const char *path)
{
	struct timespec tenth = { 0, 100000000 };
	int i;

	for (i = 0; i < 600; i++) {
		if (access(path, F_OK) == 0)
			return 1;
		(void)nanosleep(&tenth, NULL);
	}
	return 0;
}

static void
test_in_use(void)
{
	static const char *const fakes[] = { "sysvipc", NULL };
	struct { long type; char text[8]; } m = { 1, "hello" };
	char lroot[1200], db[1300], path[1400], flag[1300], started[1400];
	char logp[1300], *log;
	struct shmid_ds ds;
	struct msqid_ds qs;
	void *at = (void *)-1;
	pid_t pid;
	int st, fd, shm, msg;
	FILE *fp;

	snprintf(lroot, sizeof(lroot), "%s/ltp-use", tap_tmpdir());
	snprintf(db, sizeof(db), "%s/use.db", tap_tmpdir());
	snprintf(flag, sizeof(flag), "%s/go", tap_tmpdir());
	snprintf(started, sizeof(started), "%s.started", flag);
	snprintf(logp, sizeof(logp), "%s/use.log", tap_tmpdir());
	tap_fake_ltproot(lroot, fakes);
	snprintf(path, sizeof(path), "%s/runtest/syscalls", lroot);
	if ((fp = fopen(path, "w")) == NULL)
		return;
	fprintf(fp, "ipc03 sysvipc wait %s\n", flag);
	fclose(fp);
	if ((pid = fork()) == 0) {
		if ((fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0600)) >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if ((fd = open("/dev/null", O_RDONLY)) >= 0)
			dup2(fd, 0);
		execl(bin, bin, "run", "-d", db, "-L", lroot, "-m", LINUX_TBL,
		    "--timeout", "60", (char *)NULL);
		_exit(127);
	}
	ok(wait_file(started), "ipc03 runs");
	shm = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	if (shm != -1)
		at = shmat(shm, NULL, 0);
	msg = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	ok(shm != -1 && at != (void *)-1 && msg != -1 &&
	    msgsnd(msg, &m, sizeof(m.text), 0) == 0, "while it runs, a "
	    "segment made and attached, a queue made and sent to");
	if ((fp = fopen(flag, "w")) != NULL)
		fclose(fp);
	(void)waitpid(pid, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the run passes");
	log = tap_slurp(logp, NULL);
	ok(log != NULL && strstr(log, "cleaned up after") == NULL,
	    "nothing is said cleaned up");
	/*
	 * Removing an attached segment only marks it (Linux's SHM_DEST,
	 * which _XOPEN_SOURCE does not name): it must not be marked.
	 */
	ok(shm != -1 && shmctl(shm, IPC_STAT, &ds) == 0 &&
	    (ds.shm_perm.mode & 01000) == 0, "the segment a live process is "
	    "attached to survives the run, not even marked for removal");
	ok(msg != -1 && msgctl(msg, IPC_STAT, &qs) == 0, "so does the queue "
	    "a live process sent to last");
	if (at != (void *)-1)
		(void)shmdt(at);
	if (shm != -1)
		(void)shmctl(shm, IPC_RMID, NULL);
	if (msg != -1)
		(void)msgctl(msg, IPC_RMID, NULL);
	free(log);
}

/*
 * A segment made by uid in a process that then exits: what a test
 * leaves.  Its id, or -1.
 */
static int
shm_left_by(uid_t uid)
{
	int fd[2], id = -1;
	pid_t pid;

	if (pipe(fd) == -1)
		return -1;
	if ((pid = fork()) == 0) {
		close(fd[0]);
		if (setuid(uid) == 0)
			id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
		(void)write(fd[1], &id, sizeof(id));
		_exit(0);
	}
	close(fd[1]);
	if (pid == -1 || read(fd[0], &id, sizeof(id)) != sizeof(id))
		id = -1;
	close(fd[0]);
	if (pid != -1)
		(void)waitpid(pid, NULL, 0);
	return id;
}

static int
shm_exists(int id)
{
	struct shmid_ds ds;

	return id != -1 && shmctl(id, IPC_STAT, &ds) == 0;
}

/*
 * What a sweep leaves is the next test's "before" (the engine lists the
 * objects once between two tests, not twice): what was there stays,
 * what is new since goes.  Made as another user, so that the sweeps
 * here touch nothing of the tests running beside this one.
 */
static void
test_sweep_after(void)
{
	const uid_t nobody = 65534;
	struct ipcleft *snap, *after = NULL;
	char buf[360];
	int before, made, later, n;

	if (geteuid() != 0) {
		ok(1, "# SKIP making objects as another user needs root");
		return;
	}
	before = shm_left_by(nobody);
	snap = ipcleft_snap();
	made = shm_left_by(nobody);
	ok(before != -1 && made != -1 && snap != NULL, "a segment before "
	    "the snapshot, one after");
	n = ipcleft_sweep(snap, nobody, buf, sizeof(buf), &after);
	is_int(n, 1, "the sweep removes one");
	ok(!shm_exists(made) && shm_exists(before), "the new one, not the "
	    "one before (%s)", buf);
	ok(after != NULL, "and says what is left");
	later = shm_left_by(nobody);
	n = ipcleft_sweep(after, nobody, buf, sizeof(buf), NULL);
	is_int(n, 1, "with what was left as the snapshot, the next sweep "
	    "removes what came since");
	ok(!shm_exists(later) && shm_exists(before), "and still not the one "
	    "before");
	ipcleft_free(snap);
	ipcleft_free(after);
	if (before != -1)
		(void)shmctl(before, IPC_RMID, NULL);
}

int
main(void)
{
	char cwd[1024];
	const char *b = getenv("LTPSCOPE_BIN");
	FILE *fp;

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 1;
	if ((fp = fopen("/proc/sysvipc/shm", "r")) == NULL) {
		printf("1..0 # SKIP no /proc/sysvipc: leftovers not looked "
		    "for here\n");
		return 0;
	}
	fclose(fp);
	snprintf(bin, sizeof(bin), "%s/%s", cwd, b ? b : "ltpscope");
	setenv("XDG_CONFIG_HOME", tap_tmpdir(), 1);
	setenv("XDG_DATA_HOME", tap_tmpdir(), 1);
	test_sysv_left();
	test_in_use();
	test_sweep_after();
	return tap_done();
}
