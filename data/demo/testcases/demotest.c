/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * One program that plays every test of the demo LTP install: it looks at
 * the name it was called by and prints what a real LTP test of that name
 * might print under compat_linux, in LTP's own formats, with LTP's exit
 * status bits (1 TFAIL, 2 TBROK, 4 TWARN, 32 TCONF).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct demo {
	const char	*name;
	const char	*lines;	/* "CLASS|message" separated by '\n' */
	int		 slow_ms;	/* pause between lines */
	int		 hang;
};

static const struct demo demos[] = {
	{ "open01", "TPASS|open() with sticky bit returned fd\n"
	    "TPASS|open() with sirectory bit returned fd", 0, 0 },
	{ "open02", "TPASS|open() new file without O_CREAT: ENOENT\n"
	    "TFAIL|open(O_TMPFILE) failed: EINVAL (22)", 0, 0 },
	{ "close01", "TPASS|close a file fd\nTPASS|close a pipe fd\n"
	    "TPASS|close a socket fd", 0, 0 },
	{ "close02", "TPASS|close(-1) : EBADF (9)", 0, 0 },
	{ "read01", "TPASS|read(2) returned 512", 0, 0 },
	{ "write01", "TPASS|write(2) wrote 1024 bytes", 0, 0 },
	{ "readv01", "TPASS|readv() with 1 iovec\nTPASS|readv() with 2 iovecs",
	    0, 0 },
	{ "readv02", "TPASS|readv() with iovcnt -1: EINVAL (22)", 0, 0 },
	{ "writev01", "TPASS|writev() with 0 iov_len\n"
	    "TPASS|writev() with NULL iovec: EFAULT (14)", 0, 0 },
	{ "writev07", "TFAIL|writev() with iovcnt 0 returned -1 EINVAL, "
	    "expected 0", 0, 0 },
	{ "lseek07", "TPASS|lseek(SEEK_SET) to 5\n"
	    "TFAIL|lseek(SEEK_DATA) failed: EINVAL (22)", 0, 0 },
	{ "getpid01", "TPASS|getpid() returned a fresh pid 10 times", 0, 0 },
	{ "dup201", "TPASS|dup2() to the same fd\nTPASS|dup2() to fd 1000",
	    0, 0 },
	{ "pipe201", "TPASS|pipe2(O_CLOEXEC)\nTPASS|pipe2(O_NONBLOCK)", 0, 0 },
	{ "clone301", "TCONF|syscall(435) __NR_clone3 not supported on "
	    "your arch", 0, 0 },
	{ "statx01", "TCONF|syscall(332) __NR_statx not supported on "
	    "your arch", 0, 0 },
	{ "capget01", "TFAIL|capget() failed: ENOSYS (38)", 0, 0 },
	{ "fcntl14", "TINFO|locking 1 of 6\nTPASS|F_SETLK shared\n"
	    "TINFO|locking 2 of 6\nTPASS|F_SETLK exclusive\n"
	    "TINFO|locking 3 of 6\nTPASS|F_SETLKW wait\n"
	    "TINFO|locking 4 of 6\nTPASS|F_GETLK\n"
	    "TINFO|locking 5 of 6\nTPASS|F_UNLCK\n"
	    "TINFO|locking 6 of 6\nTPASS|lock released on close", 400, 0 },
	{ "kill01", "TPASS|kill(SIGKILL) delivered\n"
	    "TWARN|could not restore the signal mask", 0, 0 },
	{ "futex_wait01", "TBROK|futex(FUTEX_WAIT_BITSET) failed: ENOSYS (38)",
	    0, 0 },
	{ "gettid01", "TPASS|gettid() == getpid() in the main thread", 0, 0 },
	{ "getrandom01", "TPASS|getrandom(GRND_NONBLOCK)\n"
	    "TPASS|getrandom(GRND_RANDOM)\nTPASS|getrandom(0)", 100, 0 },
	{ "sigrelse01", "TINFO|waiting for the signal to be released", 0, 1 },
	{ "copy_file_range01", "TINFO|this test panicked a NetBSD kernel "
	    "once; the demo only pretends", 0, 0 },
	{ "mmap01", "TPASS|mmap() a file\n"
	    "TINFO|raw bytes in output: \033[31mred\033[0m \007 \001 \377", 0,
	    0 },
	{ NULL, NULL, 0, 0 }
};

static void
pause_ms(int ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
}

int
main(int argc, char **argv)
{
	const struct demo *d;
	const char *name, *p, *nl;
	int counts[5] = { 0, 0, 0, 0, 0 }, line = 40, status = 0;

	(void)argc;
	name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	for (d = demos; d->name != NULL; d++)
		if (strcmp(d->name, name) == 0)
			break;
	if (d->name == NULL) {
		fprintf(stderr, "demotest: no demo called %s\n", name);
		return 2;
	}
	setvbuf(stderr, NULL, _IOLBF, 0);
	fprintf(stderr, "tst_test.c:1890: TINFO: LTP version: demo\n");
	fprintf(stderr, "tst_test.c:1894: TINFO: Tested kernel: demo\n");
	for (p = d->lines; p != NULL && *p != '\0'; p = nl ? nl + 1 : NULL) {
		const char *bar = strchr(p, '|');

		nl = strchr(p, '\n');
		if (d->slow_ms > 0)
			pause_ms(d->slow_ms);
		fprintf(stderr, "%s.c:%d: %.*s: %.*s\n", d->name, line++,
		    (int)(bar - p), p,
		    (int)((nl ? nl : p + strlen(p)) - bar - 1), bar + 1);
		if (strncmp(p, "TPASS", 5) == 0)
			counts[0]++;
		else if (strncmp(p, "TFAIL", 5) == 0)
			counts[1]++, status |= 1;
		else if (strncmp(p, "TBROK", 5) == 0)
			counts[2]++, status |= 2;
		else if (strncmp(p, "TCONF", 5) == 0)
			counts[3]++, status |= 32;
		else if (strncmp(p, "TWARN", 5) == 0)
			counts[4]++, status |= 4;
	}
	if (d->hang)
		for (;;)
			pause();
	if (counts[0] > 0)
		status &= ~32;
	fprintf(stderr, "\nSummary:\npassed   %d\nfailed   %d\nbroken   %d\n"
	    "skipped  %d\nwarnings %d\n", counts[0], counts[1], counts[2],
	    counts[3], counts[4]);
	return status;
}
