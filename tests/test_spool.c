/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The output spool: exact bytes back whether they stayed in memory or
 * went to the file, no file left in its directory, nothing inherited
 * by a child, the limit and the count beyond it, and a file system
 * that fills up (a small tmpfs, as root): what fitted kept exactly,
 * ltpscope's own lines still kept after it, the error said once.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/spool.h"
#include "tap.h"

/* Entries in dir, "." and ".." aside; -1 if it cannot be read. */
static int
entries(const char *dir)
{
	struct dirent *d;
	DIR *dp;
	int n = 0;

	if ((dp = opendir(dir)) == NULL)
		return -1;
	while ((d = readdir(dp)) != NULL)
		n += strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") !=
		    0;
	closedir(dp);
	return n;
}

/* Byte i of a test pattern no shorter period repeats inside a chunk. */
static char
pat(uint64_t i)
{
	return (char)((i * 7 + i / 251) & 0xff);
}

/* Writes n pattern bytes from off on, in pieces of step. */
static int
feed(struct spool *sp, uint64_t off, uint64_t n, size_t step)
{
	static char buf[70000];
	size_t k, i;
	int failed = 0;

	while (n > 0) {
		k = n < step ? (size_t)n : step;
		for (i = 0; i < k; i++)
			buf[i] = pat(off + i);
		failed += spool_write(sp, buf, k) == -1;
		off += k;
		n -= k;
	}
	return failed;
}

/* Whether [0, n) reads back as the pattern, in odd-sized pieces. */
static int
same(struct spool *sp, uint64_t n)
{
	static char buf[9999];
	uint64_t off;
	size_t k, i;

	for (off = 0; off < n; off += k) {
		k = n - off < sizeof(buf) ? (size_t)(n - off) : sizeof(buf);
		if (spool_read(sp, buf, k, off) != 0)
			return 0;
		for (i = 0; i < k; i++)
			if (buf[i] != pat(off + i)) {
				tap_diag("byte %llu differs",
				    (unsigned long long)(off + i));
				return 0;
			}
	}
	return 1;
}

static int
shell(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Whether process pid (0: the shell's child itself) has a spool open. */
static int
spool_open_in(long pid)
{
	char who[32] = "self";

	if (pid != 0)
		snprintf(who, sizeof(who), "%ld", pid);
	return shell("ls -l /proc/%s/fd/ 2>/dev/null | grep -q "
	    "ltpscope-spool", who) == 0;
}

static void
test_memory_and_file(const char *dir)
{
	struct spool *sp = spool_new(dir, 1u << 20);
	char buf[16];

	is_int(feed(sp, 0, 1000, 333), 0, "a small output");
	is_int((long long)spool_length(sp), 1000, "  kept whole");
	is_int(entries(dir), 0, "  in memory: no file");
	ok(same(sp, 1000), "  and read back exactly");

	is_int(feed(sp, 1000, 300000, 4096), 0, "it outgrows memory");
	is_int((long long)spool_length(sp), 301000, "  kept whole");
	is_int(entries(dir), 0, "  in a file unlinked at once");
	ok(same(sp, 301000), "  read back exactly, the head included");
	ok(spool_open_in((long)getpid()), "  open here");
	ok(!spool_open_in(0), "  which a child does not inherit");
	ok(spool_read(sp, buf, 2, 300999) == -1 && errno == EINVAL,
	    "  no read past the end");

	is_int(feed(sp, 301000, 1000000, 65536), 0, "past the limit");
	is_int((long long)spool_length(sp), 1 << 20, "  keeps the limit");
	is_int((long long)spool_total(sp), 1301000, "  counts all");
	ok(same(sp, 1 << 20), "  exact up to it");
	ok(spool_error(sp) == NULL, "  no error");
	spool_note(sp, "meta\n", 5);
	is_int((long long)spool_length(sp), 1 << 20, "  a note past the "
	    "limit is only counted, as before");

	spool_reset(sp);
	is_int((long long)spool_length(sp) + (long long)spool_total(sp), 0,
	    "reset empties it");
	feed(sp, 0, 10, 10);
	spool_note(sp, "ltpscope: x\n", 12);
	ok(spool_length(sp) == 22 && spool_read(sp, buf, 12, 10) == 0 &&
	    memcmp(buf, "ltpscope: x\n", 12) == 0, "  notes go in line");
	spool_free(sp);
	is_int(entries(dir), 0, "nothing left in the directory");
}

static void
test_cannot_create(const char *dir)
{
	struct spool *sp = spool_new(dir, 1u << 20);
	char buf[32];

	if (geteuid() == 0) {
		/* root writes anywhere: a directory that is not there. */
		spool_free(sp);
		sp = spool_new("/nonexistent/ltpscope", 1u << 20);
	} else
		(void)chmod(dir, 0500);
	is_int(feed(sp, 0, SPOOL_MEM, 1000), 0, "memory needs no file");
	is_int(feed(sp, SPOOL_MEM, 5000, 5000), 1, "no file to be made: "
	    "the write that needs one fails");
	has_str(spool_error(sp), "cannot create the output spool in ",
	    "  and says why");
	is_int(feed(sp, SPOOL_MEM + 5000, 5000, 5000), 0, "  once");
	is_int((long long)spool_total(sp), SPOOL_MEM + 10000, "  all "
	    "counted");
	spool_note(sp, "ltpscope: it failed\n", 20);
	is_int((long long)spool_length(sp), SPOOL_MEM + 21, "  the head "
	    "and the note kept");
	ok(same(sp, SPOOL_MEM), "  the head exact");
	ok(spool_read(sp, buf, 21, SPOOL_MEM) == 0 && memcmp(buf,
	    "\nltpscope: it failed\n", 21) == 0, "  the note after it, on a "
	    "line of its own");
	spool_note(sp, "ltpscope: more\n", 15);
	ok(spool_length(sp) == SPOOL_MEM + 36 && spool_read(sp, buf, 15,
	    SPOOL_MEM + 21) == 0 && memcmp(buf, "ltpscope: more\n", 15) == 0,
	    "  notes after it in line");
	spool_reset(sp);
	ok(spool_error(sp) == NULL && feed(sp, 0, 10, 10) == 0,
	    "reset clears the error");
	spool_free(sp);
	(void)chmod(dir, 0700);
}

static void
test_full(const char *mnt)
{
	struct spool *sp;
	uint64_t kept;
	char buf[64];

	if (geteuid() != 0) {
		ok(1, "# SKIP full file system: needs root to mount tmpfs");
		return;
	}
	(void)mkdir(mnt, 0700);
	if (shell("mount -t tmpfs -o size=256k ltpscope-test %s", mnt) !=
	    0) {
		ok(1, "# SKIP full file system: cannot mount tmpfs");
		return;
	}
	sp = spool_new(mnt, 4u << 20);
	is_int(feed(sp, 0, 1u << 20, 10000), 1, "a full file system: one "
	    "write fails");
	has_str(spool_error(sp), "No space left on device", "  says why");
	kept = spool_length(sp);
	ok(kept > SPOOL_MEM && kept <= 256 * 1024, "  what fitted is kept "
	    "(%llu bytes)", (unsigned long long)kept);
	ok(same(sp, kept), "  exactly");
	is_int((long long)spool_total(sp), 1 << 20, "  all is counted");
	spool_note(sp, "ltpscope: full\n", 15);
	ok(spool_length(sp) == kept + 16 && spool_read(sp, buf, 16, kept) ==
	    0 && memcmp(buf, "\nltpscope: full\n", 16) == 0, "  a note is "
	    "still kept after it");
	spool_free(sp);
	is_int(entries(mnt), 0, "  and nothing is left there");
	is_int(shell("umount %s", mnt), 0, "  unmounted");
}

int
main(void)
{
	char dir[1200], mnt[1200];

	snprintf(dir, sizeof(dir), "%s/spool", tap_tmpdir());
	snprintf(mnt, sizeof(mnt), "%s/spoolmnt", tap_tmpdir());
	(void)mkdir(dir, 0700);
	test_memory_and_file(dir);
	test_cannot_create(dir);
	test_full(mnt);
	return tap_done();
}
