/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A test killed at its timeout, or one that failed before its cleanup,
 * leaves System V segments, semaphores and queues behind, and the next
 * test that counts them (shmget03) fails for it.  An object is the
 * test's only if it was not there before: an object is known by kind,
 * id and key (ids carry a sequence number, so a removed and remade
 * object gets another), and a segment also by its creator's pid.  One
 * a live process still uses (attached, or the last to send or receive)
 * is left alone: the test's processes are gone by the time it is
 * looked at, so it is someone else's (another program of the same
 * user, a test of another run).
 */
#include <sys/types.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/compat.h"
#include "ltpscope/ipcleft.h"
#include "ltpscope/xmalloc.h"

struct ipcleft {
	struct compat_ipc	*v;
	long			 n;
};

static const char *
ipcleft_kind(char kind)
{
	switch (kind) {
	case COMPAT_IPC_SHM:
		return "shm";
	case COMPAT_IPC_SEM:
		return "sem";
	default:
		return "msg";
	}
}

static int
ipcleft_same(const struct compat_ipc *a, const struct compat_ipc *b)
{
	return a->kind == b->kind && a->id == b->id && a->key == b->key &&
	    a->cpid == b->cpid;
}

static int
ipcleft_had(const struct ipcleft *s, const struct compat_ipc *o)
{
	long i;

	for (i = 0; i < s->n; i++)
		if (ipcleft_same(&s->v[i], o))
			return 1;
	return 0;
}

static int
ipcleft_alive(long long pid)
{
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

static int
ipcleft_in_use(const struct compat_ipc *o)
{
	return o->nattch > 0 || ipcleft_alive(o->cpid) ||
	    ipcleft_alive(o->upid[0]) || ipcleft_alive(o->upid[1]);
}

struct ipcleft *
ipcleft_snap(void)
{
	struct ipcleft *s;
	struct compat_ipc *v;
	long n;

	if ((n = compat_ipc_list(&v)) < 0)
		return NULL;
	s = xmalloc(sizeof(*s));
	s->v = v;
	s->n = n;
	return s;
}

int
ipcleft_sweep(const struct ipcleft *snap, long long uid, char *buf,
    size_t len, struct ipcleft **after)
{
	struct compat_ipc *v;
	size_t at = 0;
	long i, n, kept = 0;
	int k, removed = 0;

	if (len > 0)
		buf[0] = '\0';
	if (after != NULL)
		*after = NULL;
	if (snap == NULL || (n = compat_ipc_list(&v)) < 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (v[i].cuid != uid || ipcleft_had(snap, &v[i]) ||
		    ipcleft_in_use(&v[i]) || compat_ipc_remove(&v[i]) == -1) {
			v[kept++] = v[i];
			continue;
		}
		removed++;
		if (at >= len)
			continue;
		k = snprintf(buf + at, len - at, "%s%s id %lld key 0x%llx",
		    at > 0 ? ", " : "", ipcleft_kind(v[i].kind), v[i].id,
		    (unsigned long long)v[i].key & 0xffffffffULL);
		at = k < 0 ? len : at + (size_t)k;
	}
	if (after == NULL) {
		free(v);
		return removed;
	}
	*after = xmalloc(sizeof(**after));
	(*after)->v = v;
	(*after)->n = kept;
	return removed;
}

void
ipcleft_free(struct ipcleft *s)
{
	if (s == NULL)
		return;
	free(s->v);
	free(s);
}
