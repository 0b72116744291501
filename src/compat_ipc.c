/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The System V IPC objects that exist (shared memory segments,
 * semaphore sets, message queues) and their removal.  Linux lists them
 * in /proc/sysvipc, cheap to read.  NetBSD, where the Linux tests'
 * objects are the native kernel's, through sysctl kern.ipc
 * (KERN_SYSVIPC_INFO), as its ipcs(1) and ipcrm(1) do; the structures
 * live in sys/shm.h, sys/sem.h and sys/msg.h, which the NetBSD header
 * sysroot does not hold (make check-netbsd says so).  Elsewhere the
 * list is said unavailable and nothing is ever removed.
 */
#if defined(__linux__)
/* SHM_INFO, SEM_INFO, MSG_INFO and their structures. */
#define _GNU_SOURCE	1
#endif
#if defined(__linux__) || defined(__NetBSD__)
#include <sys/types.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#endif
#if defined(__NetBSD__)
#include <sys/sysctl.h>
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/compat.h"
#include "ltpscope/xmalloc.h"

#if defined(__linux__) || defined(__NetBSD__)
static void
ipc_add(struct compat_ipc **v, long *n, size_t *cap,
    const struct compat_ipc *o)
{
	if ((size_t)*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[(*n)++] = *o;
}

int
compat_ipc_remove(const struct compat_ipc *o)
{
	int id = (int)o->id;

	switch (o->kind) {
	case COMPAT_IPC_SHM:
		return shmctl(id, IPC_RMID, NULL);
	case COMPAT_IPC_SEM:
		return semctl(id, 0, IPC_RMID);
	case COMPAT_IPC_MSG:
		return msgctl(id, IPC_RMID, NULL);
	}
	errno = EINVAL;
	return -1;
}
#endif

#if defined(__linux__)
/*
 * The columns of /proc/sysvipc/<file> that matter, counted from 0, as
 * the kernel has printed them since 2.6: key and id first; cuid after
 * uid and gid; pids and attaches where the kind has them.
 */
static const struct ipc_table {
	const char	*file;
	char		 kind;
	int		 cuid_col;
	int		 cpid_col;	/* -1: none */
	int		 upid_col[2];	/* -1: none */
	int		 nattch_col;	/* -1: none */
} ipc_tables[] = {
	{ "/proc/sysvipc/shm", COMPAT_IPC_SHM, 9, 4, { 5, -1 }, 6 },
	{ "/proc/sysvipc/sem", COMPAT_IPC_SEM, 6, -1, { -1, -1 }, -1 },
	{ "/proc/sysvipc/msg", COMPAT_IPC_MSG, 9, -1, { 5, 6 }, -1 },
};

static long long
ipc_col(const long long *f, int col)
{
	return col >= 0 ? f[col] : 0;
}

/* One line of a table into o; 0, or -1 if it is not one. */
static int
ipc_parse(const struct ipc_table *t, char *line, struct compat_ipc *o)
{
	long long f[12];
	char *p = line, *end;
	int i;

	for (i = 0; i < 12; i++) {
		f[i] = strtoll(p, &end, 10);
		if (end == p)
			break;
		p = end;
	}
	if (i <= t->cuid_col)
		return -1;
	memset(o, 0, sizeof(*o));
	o->kind = t->kind;
	o->key = f[0];
	o->id = f[1];
	o->cuid = f[t->cuid_col];
	o->cpid = ipc_col(f, t->cpid_col);
	o->upid[0] = ipc_col(f, t->upid_col[0]);
	o->upid[1] = ipc_col(f, t->upid_col[1]);
	o->nattch = ipc_col(f, t->nattch_col);
	return 0;
}

/* Linux leaves it to the caller to declare. */
union ipc_semun {
	int		 val;
	struct semid_ds	*buf;
	unsigned short	*array;
	struct seminfo	*__buf;
};

/*
 * How many objects there are, in three calls and no file: the list is
 * read once per test and its end, and on most machines it is empty.
 * -1 when the kernel does not say.
 */
static long
ipc_count(void)
{
	struct shm_info shm;
	struct seminfo sem;
	struct msginfo msg;
	union ipc_semun arg;

	arg.__buf = &sem;
	if (shmctl(0, SHM_INFO, (struct shmid_ds *)(void *)&shm) == -1 ||
	    semctl(0, 0, SEM_INFO, arg) == -1 ||
	    msgctl(0, MSG_INFO, (struct msqid_ds *)(void *)&msg) == -1)
		return -1;
	return (long)shm.used_ids + (long)sem.semusz + (long)msg.msgpool;
}

long
compat_ipc_list(struct compat_ipc **v)
{
	struct compat_ipc o;
	char line[512];
	size_t i, cap = 0;
	long n = 0;
	FILE *fp;

	*v = NULL;
	if (ipc_count() == 0)
		return 0;
	for (i = 0; i < sizeof(ipc_tables) / sizeof(ipc_tables[0]); i++) {
		if ((fp = fopen(ipc_tables[i].file, "re")) == NULL) {
			free(*v);
			*v = NULL;
			return -1;
		}
		/* The first line names the columns. */
		(void)fgets(line, sizeof(line), fp);
		while (fgets(line, sizeof(line), fp) != NULL)
			if (ipc_parse(&ipc_tables[i], line, &o) == 0)
				ipc_add(v, &n, &cap, &o);
		(void)fclose(fp);
	}
	return n;
}
#elif defined(__NetBSD__)
/*
 * One of kern.ipc.sysvipc_info's tables, whole: a header of limits and
 * then one slot per possible id, used or not.  NULL with errno if the
 * kernel has no such facility.
 */
static void *
ipc_table(int which)
{
	int mib[4] = { CTL_KERN, KERN_SYSVIPC, KERN_SYSVIPC_INFO, which };
	size_t len;
	void *buf;
	int tries;

	for (tries = 0; tries < 4; tries++) {
		if (sysctl(mib, 4, NULL, &len, NULL, 0) == -1)
			return NULL;
		buf = xmalloc(len);
		if (sysctl(mib, 4, buf, &len, NULL, 0) == 0)
			return buf;
		free(buf);
		if (errno != ENOMEM)
			return NULL;
	}
	return NULL;
}

/* The id of slot ix, as ipcs(1) tells it: index and sequence number. */
static long long
ipc_id(size_t ix, const struct ipc_perm_sysctl *perm)
{
	return (long long)IXSEQ_TO_IPCID(ix, *perm);
}

static void
ipc_perm(char kind, size_t ix, const struct ipc_perm_sysctl *perm,
    struct compat_ipc *o)
{
	memset(o, 0, sizeof(*o));
	o->kind = kind;
	o->id = ipc_id(ix, perm);
	o->key = (long long)perm->_key;
	o->cuid = (long long)perm->cuid;
}

static int
ipc_list_shm(struct compat_ipc **v, long *n, size_t *cap)
{
	struct shm_sysctl_info *si;
	struct shmid_ds_sysctl *d;
	struct compat_ipc o;
	size_t i;

	if ((si = ipc_table(KERN_SYSVIPC_SHM_INFO)) == NULL)
		return -1;
	for (i = 0; i < si->shminfo.shmmni; i++) {
		d = &si->shmids[i];
		/* SHMSEG_ALLOCATED, which only the kernel sees by name. */
		if ((d->shm_perm.mode & 0x0800) == 0)
			continue;
		ipc_perm(COMPAT_IPC_SHM, i, &d->shm_perm, &o);
		o.cpid = d->shm_cpid;
		o.upid[0] = d->shm_lpid;
		o.nattch = d->shm_nattch;
		ipc_add(v, n, cap, &o);
	}
	free(si);
	return 0;
}

static int
ipc_list_sem(struct compat_ipc **v, long *n, size_t *cap)
{
	struct sem_sysctl_info *si;
	struct semid_ds_sysctl *d;
	struct compat_ipc o;
	size_t i;

	if ((si = ipc_table(KERN_SYSVIPC_SEM_INFO)) == NULL)
		return -1;
	for (i = 0; i < (size_t)si->seminfo.semmni; i++) {
		d = &si->semids[i];
		if ((d->sem_perm.mode & SEM_ALLOC) == 0)
			continue;
		ipc_perm(COMPAT_IPC_SEM, i, &d->sem_perm, &o);
		ipc_add(v, n, cap, &o);
	}
	free(si);
	return 0;
}

static int
ipc_list_msg(struct compat_ipc **v, long *n, size_t *cap)
{
	struct msg_sysctl_info *si;
	struct msgid_ds_sysctl *d;
	struct compat_ipc o;
	size_t i;

	if ((si = ipc_table(KERN_SYSVIPC_MSG_INFO)) == NULL)
		return -1;
	for (i = 0; i < (size_t)si->msginfo.msgmni; i++) {
		d = &si->msgids[i];
		/* A free slot has no room for messages. */
		if (d->msg_qbytes == 0)
			continue;
		ipc_perm(COMPAT_IPC_MSG, i, &d->msg_perm, &o);
		o.upid[0] = d->msg_lspid;
		o.upid[1] = d->msg_lrpid;
		ipc_add(v, n, cap, &o);
	}
	free(si);
	return 0;
}

long
compat_ipc_list(struct compat_ipc **v)
{
	size_t cap = 0;
	long n = 0;

	*v = NULL;
	if (ipc_list_shm(v, &n, &cap) == -1 ||
	    ipc_list_sem(v, &n, &cap) == -1 ||
	    ipc_list_msg(v, &n, &cap) == -1) {
		free(*v);
		*v = NULL;
		return -1;
	}
	return n;
}
#else
long
compat_ipc_list(struct compat_ipc **v)
{
	*v = NULL;
	errno = ENOSYS;
	return -1;
}

int
compat_ipc_remove(const struct compat_ipc *o)
{
	(void)o;
	errno = ENOSYS;
	return -1;
}
#endif
