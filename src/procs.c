/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Listing a session's processes (see procs.h).  The one place that
 * knows how each system lists processes: /proc on Linux, sysctl
 * KERN_PROC2 on NetBSD.  Elsewhere listing fails and the callers fall
 * back to the process group.
 */
#if defined(__NetBSD__)
#include <sys/param.h>
#include <sys/sysctl.h>
#endif
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/procs.h"
#include "ltpscope/xmalloc.h"

struct procent {
	pid_t	pid;
	pid_t	ppid;
	pid_t	sid;
};

static void
procent_push(struct procent **v, size_t *n, size_t *cap, pid_t pid,
    pid_t ppid, pid_t sid)
{
	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		*v = xreallocarray(*v, *cap, sizeof(**v));
	}
	(*v)[*n].pid = pid;
	(*v)[*n].ppid = ppid;
	(*v)[*n].sid = sid;
	(*n)++;
}

#if defined(__linux__)
/*
 * /proc/PID/stat is "pid (comm) state ppid pgrp session ..."; comm may
 * hold blanks and parentheses, so parse from the last ')'.
 */
static int
procs_read_stat(const char *name, pid_t *ppid, pid_t *sid)
{
	char path[300], buf[512], state, *p;
	int fd, pp, pg, s;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%s/stat", name);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	if ((p = strrchr(buf, ')')) == NULL)
		return -1;
	if (sscanf(p + 1, " %c %d %d %d", &state, &pp, &pg, &s) != 4)
		return -1;
	if (state == 'Z' || state == 'X' || state == 'x')
		return -1;	/* dead already: nothing to kill */
	*ppid = pp;
	*sid = s;
	return 0;
}

/*
 * With ppids, each /proc/PID/stat is read, which costs about 10 us a
 * process; without, getsid(2) answers in well under 1 us, and zombies
 * are not told apart (killing one is harmless).
 */
static long
procs_list(struct procent **out, int want_ppid)
{
	struct procent *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	pid_t pid, ppid, sid;
	DIR *d;

	if ((d = opendir("/proc")) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		pid = (pid_t)strtol(de->d_name, NULL, 10);
		if (!want_ppid) {
			if ((sid = getsid(pid)) != -1)
				procent_push(&v, &n, &cap, pid, 0, sid);
		} else if (procs_read_stat(de->d_name, &ppid, &sid) == 0)
			procent_push(&v, &n, &cap, pid, ppid, sid);
	}
	closedir(d);
	if (n == 0) {		/* /proc not mounted, or not procfs */
		free(v);
		return -1;
	}
	*out = v;
	return (long)n;
}

#elif defined(__NetBSD__)

static long
procs_list(struct procent **out, int want_ppid)
{
	struct kinfo_proc2 *kp = NULL;
	struct procent *v = NULL;
	size_t n = 0, cap = 0, len, i, cnt;
	int mib[6], tries;

	mib[0] = CTL_KERN;
	mib[1] = KERN_PROC2;
	mib[2] = KERN_PROC_ALL;
	mib[3] = 0;
	mib[4] = (int)sizeof(struct kinfo_proc2);
	for (tries = 0; tries < 5; tries++) {
		mib[5] = 0;
		if (sysctl(mib, 6, NULL, &len, NULL, 0) == -1)
			return -1;
		len += len / 4 + sizeof(struct kinfo_proc2);
		kp = xmalloc(len);
		mib[5] = (int)(len / sizeof(struct kinfo_proc2));
		if (sysctl(mib, 6, kp, &len, NULL, 0) == 0)
			break;
		free(kp);
		kp = NULL;
		if (errno != ENOMEM)
			return -1;
	}
	(void)want_ppid;	/* one sysctl gives everything */
	if (kp == NULL)
		return -1;
	cnt = len / sizeof(struct kinfo_proc2);
	for (i = 0; i < cnt; i++) {
		if (kp[i].p_stat == LSZOMB || kp[i].p_stat == LSDEAD)
			continue;
		procent_push(&v, &n, &cap, kp[i].p_pid, kp[i].p_ppid,
		    kp[i].p_sid);
	}
	free(kp);
	*out = v;
	return (long)n;
}

#else

static long
procs_list(struct procent **out, int want_ppid)
{
	(void)out;
	(void)want_ppid;
	return -1;
}

#endif

static int
pid_in(const pid_t *v, long n, pid_t pid)
{
	long i;

	for (i = 0; i < n; i++)
		if (v[i] == pid)
			return 1;
	return 0;
}

long
procs_session(pid_t sid, int flags, pid_t **pids)
{
	struct procent *all = NULL;
	pid_t *v;
	long n, i, found = 0;
	int grew;

	*pids = NULL;
	if ((n = procs_list(&all, flags & PROCS_DESCENDANTS)) < 0)
		return -1;
	v = xcalloc((size_t)n + 1, sizeof(*v));
	for (i = 0; i < n; i++)
		if (all[i].sid == sid)
			v[found++] = all[i].pid;
	/* Descendants that left the session, while their parents live. */
	do {
		if (!(flags & PROCS_DESCENDANTS))
			break;
		grew = 0;
		for (i = 0; i < n; i++)
			if (all[i].sid != sid && pid_in(v, found, all[i].ppid)
			    && !pid_in(v, found, all[i].pid)) {
				v[found++] = all[i].pid;
				grew = 1;
			}
	} while (grew);
	free(all);
	*pids = v;
	return found;
}

int
procs_signal_session(pid_t sid, int flags, int sig)
{
	pid_t *v;
	long n, i;
	int sent = 0;

	if (sid <= 1 || sid == getsid(0))
		return 0;	/* never our own session, never init's */
	if ((n = procs_session(sid, flags, &v)) < 0) {
		free(v);
		return kill(-sid, sig) == 0 ? 1 : 0;
	}
	for (i = 0; i < n; i++)
		if (v[i] != getpid() && !((flags & PROCS_NOT_LEADER) &&
		    v[i] == sid) && kill(v[i], sig) == 0)
			sent++;
	free(v);
	return sent;
}
