/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A test's output spooled to an unlinked file once it outgrows a small
 * buffer (spool.h), so that a flood costs the process SPOOL_MEM bytes
 * a test, not the 16 MiB the store keeps of it.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/spool.h"
#include "ltpscope/xmalloc.h"

struct spool {
	char		*dir;
	uint64_t	 limit;
	char		*mem;		/* the head, until there is a file */
	int		 fd;		/* -1: all kept is in mem */
	uint64_t	 len;		/* output kept, trailer aside */
	uint64_t	 total;
	char		 last;		/* byte kept last */
	int		 failed;
	char		 err[512];
	size_t		 tlen;
	char		 trailer[SPOOL_TRAILER];
};

struct spool *
spool_new(const char *dir, uint64_t limit)
{
	struct spool *sp = xcalloc(1, sizeof(*sp));

	sp->dir = xstrdup(dir);
	sp->limit = limit;
	sp->fd = -1;
	return sp;
}

void
spool_reset(struct spool *sp)
{
	if (sp->fd != -1)
		(void)close(sp->fd);
	sp->fd = -1;
	sp->len = sp->total = 0;
	sp->failed = 0;
	sp->err[0] = '\0';
	sp->tlen = 0;
}

void
spool_free(struct spool *sp)
{
	if (sp == NULL)
		return;
	spool_reset(sp);
	free(sp->mem);
	free(sp->dir);
	free(sp);
}

/* Stops keeping: what was kept stays, the rest is counted. */
static int
spool_fail(struct spool *sp, const char *what, int en)
{
	sp->failed = 1;
	(void)snprintf(sp->err, sizeof(sp->err), "cannot %s the output "
	    "spool in %s: %s", what, sp->dir, strerror(en));
	return -1;
}

/* Appends to the file; on a failure what was written still counts. */
static int
spool_put(struct spool *sp, const char *buf, size_t len)
{
	ssize_t n;

	while (len > 0) {
		n = write(sp->fd, buf, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			return spool_fail(sp, "write to", n == 0 ? ENOSPC :
			    errno);
		sp->len += (uint64_t)n;
		sp->last = buf[n - 1];
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The output outgrew memory: a file, unlinked at once (nothing to clean
 * after a kill -9), and not inherited by the tests started later.  No
 * --resume could use it: most outputs never reach a file, and one not
 * synced holds nothing reliable after a panic.
 */
static int
spool_open(struct spool *sp)
{
	char *path, last = sp->last;
	uint64_t head = sp->len;
	int en;

	xasprintf(&path, "%s/ltpscope-spool.XXXXXX", sp->dir);
	if ((sp->fd = mkstemp(path)) == -1) {
		en = errno;
		free(path);
		return spool_fail(sp, "create", en);
	}
	(void)unlink(path);
	free(path);
	if (fcntl(sp->fd, F_SETFD, FD_CLOEXEC) == -1) {
		en = errno;
		(void)close(sp->fd);
		sp->fd = -1;
		return spool_fail(sp, "create", en);
	}
	/* Until the head is in the file, the memory copy stays the truth. */
	sp->len = 0;
	if (spool_put(sp, sp->mem, (size_t)head) == -1) {
		(void)close(sp->fd);
		sp->fd = -1;
		sp->len = head;
		sp->last = last;
		return -1;
	}
	return 0;
}

int
spool_write(struct spool *sp, const void *buf, size_t len)
{
	uint64_t room;

	sp->total += len;
	if (sp->failed || sp->len >= sp->limit)
		return 0;
	room = sp->limit - sp->len;
	if (len > room)
		len = (size_t)room;
	if (sp->fd == -1 && sp->len + len <= SPOOL_MEM) {
		if (sp->mem == NULL)
			sp->mem = xmalloc(SPOOL_MEM);
		memcpy(sp->mem + sp->len, buf, len);
		sp->len += len;
		if (len > 0)
			sp->last = ((const char *)buf)[len - 1];
		return 0;
	}
	if (sp->fd == -1 && spool_open(sp) == -1)
		return -1;
	return spool_put(sp, buf, len);
}

void
spool_note(struct spool *sp, const void *buf, size_t len)
{
	uint64_t before = sp->len;
	size_t done = 0, room;

	if (!sp->failed) {
		(void)spool_write(sp, buf, len);
		if (!sp->failed)
			return;
		/* The part that did not fit, after what did. */
		done = (size_t)(sp->len - before);
		buf = (const char *)buf + done;
		len -= done;
	} else
		sp->total += len;
	/* Not glued to the end of a line the output did not finish. */
	if (sp->tlen == 0 && done == 0 && sp->len > 0 && sp->last != '\n' &&
	    len > 0)
		sp->trailer[sp->tlen++] = '\n';
	room = sizeof(sp->trailer) - sp->tlen;
	if (len > room)
		len = room;
	memcpy(sp->trailer + sp->tlen, buf, len);
	sp->tlen += len;
}

uint64_t
spool_length(const struct spool *sp)
{
	return sp->len + sp->tlen;
}

uint64_t
spool_total(const struct spool *sp)
{
	return sp->total;
}

const char *
spool_error(const struct spool *sp)
{
	return sp->failed ? sp->err : NULL;
}

int
spool_read(struct spool *sp, void *buf, size_t len, uint64_t off)
{
	char *p = buf;
	size_t n;
	ssize_t got;

	if (off > spool_length(sp) || len > spool_length(sp) - off) {
		errno = EINVAL;
		return -1;
	}
	while (len > 0 && off < sp->len) {
		n = sp->len - off < len ? (size_t)(sp->len - off) : len;
		if (sp->fd == -1)
			memcpy(p, sp->mem + off, n);
		else if ((got = pread(sp->fd, p, n, (off_t)off)) <= 0) {
			if (got == -1 && errno == EINTR)
				continue;
			if (got == 0)
				errno = EIO;
			return -1;
		} else
			n = (size_t)got;
		p += n;
		off += n;
		len -= n;
	}
	if (len > 0)
		memcpy(p, sp->trailer + (off - sp->len), len);
	return 0;
}
