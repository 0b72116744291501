/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Following the kernel's message log, which every system keeps its own
 * way: Linux hands out numbered records one read(2) at a time from
 * /dev/kmsg; NetBSD only copies out its whole message buffer (sysctl
 * kern.msgbuf), oldest byte first, with no counter of what was written,
 * so what is new is what follows the end of the copy seen last.
 */
#include <sys/types.h>
#ifdef __NetBSD__
#include <sys/sysctl.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/xmalloc.h"

/*
 * How much of the message buffer's end is kept to find it again in the
 * next copy: long enough that the same lines logged again are unlikely
 * to match it, short enough to compare at every test's end.
 */
#define MSGBUF_TAIL	1024

struct compat_kmsg {
	int	 fd;		/* -1: the message buffer */
	int	 device;	/* /dev/kmsg: a record a read */
	char	*cur;		/* the last copy of the message buffer */
	size_t	 ncur;
	size_t	 off;		/* of it, handed out up to here */
	char	 tail[MSGBUF_TAIL];	/* its end, as seen last */
	size_t	 ntail;
};

/* A file or FIFO in /dev/kmsg's format, followed from its end. */
static struct compat_kmsg *
kmsg_open_fd(const char *path, int device)
{
	struct compat_kmsg *k;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1)
		return NULL;
	/* A FIFO cannot seek: what is written to it is new anyway. */
	(void)lseek(fd, 0, SEEK_END);
	k = xcalloc(1, sizeof(*k));
	k->fd = fd;
	k->device = device;
	return k;
}

#ifdef __NetBSD__
/* Copies the message buffer, without the NULs of a buffer not full yet. */
static int
msgbuf_copy(struct compat_kmsg *k)
{
	int mib[2] = { CTL_KERN, KERN_MSGBUF };
	size_t n = 0, i, j;

	if (sysctl(mib, 2, NULL, &n, NULL, 0) == -1)
		return -1;
	k->cur = xrealloc(k->cur, n + 1);
	if (sysctl(mib, 2, k->cur, &n, NULL, 0) == -1)
		return -1;
	for (i = j = 0; i < n; i++)
		if (k->cur[i] != '\0')
			k->cur[j++] = k->cur[i];
	k->ncur = j;
	return 0;
}

static void
msgbuf_keep_tail(struct compat_kmsg *k)
{
	k->ntail = k->ncur < MSGBUF_TAIL ? k->ncur : MSGBUF_TAIL;
	memcpy(k->tail, k->cur + k->ncur - k->ntail, k->ntail);
}
#endif

size_t
compat_msgbuf_new_from(const char *cur, size_t ncur, const char *tail,
    size_t ntail, int *lostp)
{
	size_t i;

	if (ntail == 0)
		return 0;
	if (ncur >= ntail && memcmp(cur + ncur - ntail, tail, ntail) == 0)
		return ncur;
	for (i = ncur >= ntail ? ncur - ntail + 1 : 0; i > 0; i--)
		if (memcmp(cur + i - 1, tail, ntail) == 0)
			return i - 1 + ntail;
	*lostp = 1;
	return 0;
}

struct compat_kmsg *
compat_kmsg_open(int *formatp)
{
	const char *e = getenv("LTPSCOPE_KMSG");

	*formatp = COMPAT_KMSG_RECORDS;
	if (e != NULL && *e != '\0')
		return kmsg_open_fd(e, 0);
#if defined(__linux__)
	return kmsg_open_fd("/dev/kmsg", 1);
#elif defined(__NetBSD__)
	{
		struct compat_kmsg *k = xcalloc(1, sizeof(*k));

		k->fd = -1;
		*formatp = COMPAT_KMSG_LINES;
		if (msgbuf_copy(k) == -1) {
			compat_kmsg_close(k);
			return NULL;
		}
		/* What is there already is not the tests'. */
		msgbuf_keep_tail(k);
		k->off = k->ncur;
		return k;
	}
#else
	errno = ENOSYS;
	return NULL;
#endif
}

/* /dev/kmsg: as many whole records as fit (a record needs 8 KiB). */
static long
kmsg_read_device(struct compat_kmsg *k, char *buf, size_t len, int *lostp)
{
	size_t got = 0;
	ssize_t n;

	while (len - got >= 8192) {
		n = read(k->fd, buf + got, len - got);
		if (n == -1 && errno == EPIPE) {
			/* Overwritten before we read them; the next is there. */
			*lostp = 1;
			continue;
		}
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && errno == EAGAIN)
			break;
		if (n == -1)
			return got > 0 ? (long)got : -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (long)got;
}

long
compat_kmsg_read(struct compat_kmsg *k, char *buf, size_t len, int *lostp)
{
	ssize_t n;

	*lostp = 0;
	if (k->device)
		return kmsg_read_device(k, buf, len, lostp);
	if (k->fd != -1) {
		do
			n = read(k->fd, buf, len);
		while (n == -1 && errno == EINTR);
		if (n == -1 && errno == EAGAIN)
			return 0;
		return (long)n;
	}
#ifdef __NetBSD__
	if (k->off == k->ncur) {
		if (msgbuf_copy(k) == -1)
			return -1;
		k->off = compat_msgbuf_new_from(k->cur, k->ncur, k->tail,
		    k->ntail, lostp);
		msgbuf_keep_tail(k);
	}
	n = (ssize_t)(k->ncur - k->off < len ? k->ncur - k->off : len);
	memcpy(buf, k->cur + k->off, (size_t)n);
	k->off += (size_t)n;
	return (long)n;
#else
	return 0;
#endif
}

void
compat_kmsg_close(struct compat_kmsg *k)
{
	if (k == NULL)
		return;
	if (k->fd != -1)
		(void)close(k->fd);
	free(k->cur);
	free(k);
}

/* The flags in buf[0..n), or -1 if there is nothing to read. */
static long long
taint_value(char *buf, ssize_t n)
{
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtoll(buf, NULL, 10);
}

long long
compat_kernel_tainted(void)
{
	const char *path = getenv("LTPSCOPE_TAINTED");
	char buf[32];
	ssize_t n;
	int fd;

	if (path == NULL || *path == '\0') {
#if defined(__linux__)
		/*
		 * Opened once and read from its start each time: it is read
		 * before and after every test, and the lookup of a file in
		 * /proc/sys costs several times the read.
		 */
		static int procfd = -1;

		if (procfd == -1 && (procfd = open("/proc/sys/kernel/tainted",
		    O_RDONLY | O_CLOEXEC)) == -1)
			return -1;
		return taint_value(buf, pread(procfd, buf, sizeof(buf) - 1,
		    0));
#else
		return -1;
#endif
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	(void)close(fd);
	return taint_value(buf, n);
}
