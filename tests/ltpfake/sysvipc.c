/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP-like test that makes a System V shared memory segment, semaphore
 * set and message queue, as the shm*, sem* and msg* tests do.  "sysvipc
 * leave" ends without removing them, as shmget03 did after its false
 * TFAIL: the runner must remove them and say so.  "sysvipc tidy"
 * removes its own, as a test that passes does: nothing to say.  Each id
 * is printed, so that a check can look for it after the run.
 */
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include <string.h>

#include "ltpfake.h"

int
main(int argc, char **argv)
{
	int tidy = argc > 1 && strcmp(argv[1], "tidy") == 0;
	int shm, sem, msg;

	fake_header();
	shm = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	sem = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	msg = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (shm == -1 || sem == -1 || msg == -1) {
		fake_res("sysvipc.c", 30, "TCONF", "System V IPC refused");
		return fake_summary();
	}
	fake_res("sysvipc.c", 33, "TINFO", "shm id %d", shm);
	fake_res("sysvipc.c", 34, "TINFO", "sem id %d", sem);
	fake_res("sysvipc.c", 35, "TINFO", "msg id %d", msg);
	if (tidy && (shmctl(shm, IPC_RMID, NULL) == -1 ||
	    semctl(sem, 0, IPC_RMID) == -1 ||
	    msgctl(msg, IPC_RMID, NULL) == -1))
		fake_res("sysvipc.c", 39, "TBROK", "IPC_RMID failed");
	else
		fake_res("sysvipc.c", 41, "TPASS", "%s", tidy ? "removed" :
		    "left behind");
	return fake_summary();
}
