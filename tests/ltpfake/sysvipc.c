/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test that makes a System V shared memory segment, semaphore
 * set and message queue, as the shm*, sem* and msg* tests do.  "sysvipc
 * leave" ends without removing them, as shmget03 did after its false
 * TFAIL: the runner must remove them and say so.  "sysvipc tidy"
 * removes its own, as a test that passes does: nothing to say.  Each id
 * is printed, so that a check can look for it after the run.
 * "sysvipc wait FILE" makes nothing: it writes FILE.started and waits
 * (30 s at most) for FILE, while the check makes objects of its own
 * that a live process uses, which the runner must leave alone.
 */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpfake.h"

static int
wait_for_file(const char *file)
{
	struct timespec tenth = { 0, 100000000 };
	char started[1024];
	FILE *fp;
	int i;

	(void)snprintf(started, sizeof(started), "%s.started", file);
	if ((fp = fopen(started, "w")) == NULL)
		return -1;
	(void)fclose(fp);
	for (i = 0; i < 300; i++) {
		if (access(file, F_OK) == 0)
			return 0;
		(void)nanosleep(&tenth, NULL);
	}
	return -1;
}

int
main(int argc, char **argv)
{
	int tidy = argc > 1 && strcmp(argv[1], "tidy") == 0;
	int shm, sem, msg;

	fake_header();
	if (argc > 2 && strcmp(argv[1], "wait") == 0) {
		if (wait_for_file(argv[2]) == 0)
			fake_res("sysvipc.c", __LINE__, "TPASS", "waited");
		else
			fake_res("sysvipc.c", __LINE__, "TBROK", "%s never came",
			    argv[2]);
		return fake_summary();
	}
	shm = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	sem = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	msg = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (shm == -1 || sem == -1 || msg == -1) {
		fake_res("sysvipc.c", __LINE__, "TCONF", "System V IPC refused");
		return fake_summary();
	}
	fake_res("sysvipc.c", __LINE__, "TINFO", "shm id %d", shm);
	fake_res("sysvipc.c", __LINE__, "TINFO", "sem id %d", sem);
	fake_res("sysvipc.c", __LINE__, "TINFO", "msg id %d", msg);
	if (tidy && (shmctl(shm, IPC_RMID, NULL) == -1 ||
	    semctl(sem, 0, IPC_RMID) == -1 ||
	    msgctl(msg, IPC_RMID, NULL) == -1))
		fake_res("sysvipc.c", __LINE__, "TBROK", "IPC_RMID failed");
	else
		fake_res("sysvipc.c", __LINE__, "TPASS", "%s", tidy ? "removed" :
		    "left behind");
	return fake_summary();
}
