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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

#define PROCS_PF_EXITING	0x4	/* Linux's task flag: in do_exit() */

/* A "Key:\thex" mask of /proc/PID/status; bit N-1 is signal N. */
static uint64_t
status_mask(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);

	return p != NULL ? (uint64_t)strtoull(p + strlen(key), NULL, 16) : 0;
}

static enum procs_fate	fate_of(int running, uint64_t pend, uint64_t blk,
			    uint64_t ign, uint64_t cgt);

enum procs_fate
procs_fate(pid_t pid)
{
	char path[64], buf[4096], state, *p;
	unsigned flags;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return errno == ENOENT ? PROCS_GONE : PROCS_UNKNOWN;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return PROCS_GONE;
	buf[len] = '\0';
	if ((p = strrchr(buf, ')')) == NULL ||
	    sscanf(p + 1, " %c %*d %*d %*d %*d %*d %u", &state, &flags) != 2)
		return PROCS_UNKNOWN;
	if (state == 'Z' || state == 'X' || state == 'x' ||
	    (flags & PROCS_PF_EXITING))
		return PROCS_GONE;
	snprintf(path, sizeof(path), "/proc/%ld/status", (long)pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return PROCS_GONE;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return PROCS_GONE;
	buf[len] = '\0';
	return fate_of(state == 'R', status_mask(buf, "\nSigPnd:") |
	    status_mask(buf, "\nShdPnd:"), status_mask(buf, "\nSigBlk:"),
	    status_mask(buf, "\nSigIgn:"), status_mask(buf, "\nSigCgt:"));
}

#elif defined(__NetBSD__)

static enum procs_fate	fate_of(int running, uint64_t pend, uint64_t blk,
			    uint64_t ign, uint64_t cgt);

static uint64_t
ki_mask(const ki_sigset_t *s)
{
	return (uint64_t)s->__bits[0] | (uint64_t)s->__bits[1] << 32;
}

enum procs_fate
procs_fate(pid_t pid)
{
	struct kinfo_proc2 kp;
	size_t len = sizeof(kp);
	int mib[6];

	mib[0] = CTL_KERN;
	mib[1] = KERN_PROC2;
	mib[2] = KERN_PROC_PID;
	mib[3] = (int)pid;
	mib[4] = (int)sizeof(kp);
	mib[5] = 1;
	if (sysctl(mib, 6, &kp, &len, NULL, 0) == -1)
		return PROCS_UNKNOWN;
	if (len < sizeof(kp) || kp.p_realstat == SZOMB ||
	    kp.p_realstat == SDYING || kp.p_realstat == SDEAD ||
	    (kp.p_realflag & P_WEXIT))
		return PROCS_GONE;
	return fate_of(kp.p_stat == LSRUN || kp.p_stat == LSONPROC,
	    ki_mask(&kp.p_siglist), ki_mask(&kp.p_sigmask),
	    ki_mask(&kp.p_sigignore), ki_mask(&kp.p_sigcatch));
}

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

enum procs_fate
procs_fate(pid_t pid)
{
	(void)pid;
	return PROCS_UNKNOWN;
}

#endif

#if defined(__linux__) || defined(__NetBSD__)
/* Whether signal sig, left to its default action, ends the process. */
static int
sig_ends(int sig)
{
	switch (sig) {
	case SIGCHLD:
	case SIGCONT:
	case SIGURG:
	case SIGWINCH:
	case SIGSTOP:
	case SIGTSTP:
	case SIGTTIN:
	case SIGTTOU:
		return 0;
	}
	return 1;
}

/*
 * A live process's fate from its signal masks (bit N-1 for signal N):
 * a pending signal it neither blocks, ignores nor catches, and whose
 * default ends it, has it dying already.
 */
static enum procs_fate
fate_of(int running, uint64_t pend, uint64_t blk, uint64_t ign,
    uint64_t cgt)
{
	uint64_t act = pend & ~blk & ~ign;
	int sig;

	if (pend & ((uint64_t)1 << (SIGKILL - 1)))
		return PROCS_GONE;
	for (sig = 1; sig <= 64; sig++)
		if ((act & ~cgt & ((uint64_t)1 << (sig - 1))) &&
		    sig_ends(sig))
			return PROCS_GONE;
	return running || (act & cgt) ? PROCS_MOVING : PROCS_STAYING;
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

static long long
procs_now_ms(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * How many of v (but sid and us) stay: those on the move are looked at
 * again, every couple of milliseconds, until they exit or settle or
 * PROCS_SETTLE_MS is up.  One that cannot be told counts.
 */
static int
procs_settle(const pid_t *v, long n, pid_t sid)
{
	struct timespec nap = { 0, 2 * 1000 * 1000 };
	enum procs_fate *f;
	long long until = procs_now_ms() + PROCS_SETTLE_MS;
	long i;
	int moving, left;

	f = xcalloc((size_t)n + 1, sizeof(*f));
	for (i = 0; i < n; i++)
		f[i] = PROCS_MOVING;
	for (;;) {
		moving = left = 0;
		for (i = 0; i < n; i++) {
			if (v[i] == sid || v[i] == getpid())
				continue;
			if (f[i] == PROCS_MOVING)
				f[i] = procs_fate(v[i]);
			moving += f[i] == PROCS_MOVING;
			left += f[i] != PROCS_GONE;
		}
		if (moving == 0 || procs_now_ms() >= until)
			break;
		(void)nanosleep(&nap, NULL);
	}
	free(f);
	return left;
}

int
procs_kill_left(pid_t sid)
{
	pid_t *v, *w;
	long n, m, i;
	int left;

	if (sid <= 1 || sid == getsid(0))
		return 0;
	if ((n = procs_session(sid, PROCS_DESCENDANTS, &v)) < 0) {
		free(v);
		return kill(-sid, SIGKILL) == 0 ? 1 : 0;
	}
	left = procs_settle(v, n, sid);
	for (i = 0; i < n; i++)
		if (v[i] != sid && v[i] != getpid())
			(void)kill(v[i], SIGKILL);
	/* Forked while we looked: alive, since nothing signalled them. */
	if ((m = procs_session(sid, PROCS_DESCENDANTS, &w)) > 0)
		for (i = 0; i < m; i++)
			if (w[i] != sid && w[i] != getpid() &&
			    !pid_in(v, n, w[i]) && kill(w[i], SIGKILL) == 0)
				left++;
	free(v);
	free(w);
	return left;
}
