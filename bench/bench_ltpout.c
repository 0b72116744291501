/*
 * How much the LTP output parser costs over merely finding line ends:
 * 50 MB of synthetic LTP output (both library formats, colour, Summary
 * blocks), parsed in 64 KiB reads as from a pipe, against a memchr()
 * line count over the same buffer in the same run.  Prints ratios, not
 * absolute times, so results compare across machines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpscope/ltpout.h"
#include "ltpscope/textsafe.h"
#include "ltpscope/xmalloc.h"

#define BENCH_SIZE	(50u * 1024 * 1024)
#define READ_SIZE	65536

static const char *const sample[] = {
	"tst_test.c:2048: TINFO: LTP version: 20260529\n",
	"copy_file_range02.c:140: TPASS: copy_file_range failed as expected:"
	    " EBADF (9)\n",
	"tst_tmpdir.c:308: \x1b[1;34mTINFO: \x1b[0mUsing /tmp/LTP_ope2yjcIq"
	    " as tmpdir (ext2/ext3/ext4 filesystem)\n",
	"open01.c:56: \x1b[1;32mTPASS: \x1b[0msticky bit is set as expected\n",
	"fcntl07     1  TBROK  :  fcntl07.c:128: exec failed\n",
	"exec(fcntl07, fcntl07, -T, 3) failed.  Errno No such file or "
	    "directory [2]\n",
	"../../../../include/tst_fuzzy_sync.h:255: TINFO: end_a - start_a  :"
	    " { avg =  9741ns, avg_dev =  1645ns, dev_ratio = 0.17 }\n",
	"fcntl35.c:81: TFAIL: a privileged user init the capacity of a pipe "
	    "to 4096 unexpectedly, expected 65536\n",
	"\nSummary:\npassed   1\nfailed   1\nbroken   0\nskipped  0\n"
	    "warnings 0\n",
};

static double
now(void)
{
	struct timespec ts;

	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
count_line(const struct ltpout_line *l, void *arg)
{
	unsigned long *n = arg;

	(*n)++;
}

static void
sanitize_line(const struct ltpout_line *l, void *arg)
{
	unsigned long *n = arg;
	size_t len;

	free(textsafe_display(l->text, l->len, 0, &len));
	(*n)++;
}

/* Parses the whole buffer in pipe-sized reads; returns seconds. */
static double
run_parser(const char *buf, size_t len, ltpout_cb cb, unsigned long *lines,
    enum test_status *st)
{
	struct ltpout *p = ltpout_new();
	struct test_end end = { TEST_EXITED, 0 };
	size_t off, n;
	double t0 = now();

	*lines = 0;
	for (off = 0; off < len; off += n) {
		n = len - off < READ_SIZE ? len - off : READ_SIZE;
		ltpout_feed(p, buf + off, n, cb, lines);
	}
	ltpout_finish(p, cb, lines);
	*st = ltpout_status(ltpout_tally(p), &end, NULL, 0);
	t0 = now() - t0;
	ltpout_free(p);
	return t0;
}

int
main(void)
{
	char *buf = xmalloc(BENCH_SIZE);
	const char *p, *end;
	size_t len = 0, k, i = 0;
	unsigned long nl = 0, lines, slines;
	double tbase, tparse, tsan;
	enum test_status st;

	while (len + 512 < BENCH_SIZE) {
		k = strlen(sample[i % (sizeof(sample) / sizeof(sample[0]))]);
		memcpy(buf + len, sample[i % (sizeof(sample) /
		    sizeof(sample[0]))], k);
		len += k;
		i++;
	}

	tbase = now();
	for (p = buf, end = buf + len; (p = memchr(p, '\n', (size_t)(end -
	    p))) != NULL; p++)
		nl++;
	tbase = now() - tbase;
	if (tbase <= 0)
		tbase = 1e-9;

	tparse = run_parser(buf, len, count_line, &lines, &st);
	tsan = run_parser(buf, len, sanitize_line, &slines, &st);

	printf("bench_ltpout: %.1f MB, %lu lines (memchr saw %lu), "
	    "verdict %s\n", (double)len / 1e6, lines, nl,
	    test_status_name(st));
	printf("bench_ltpout: memchr line count   1.0x (baseline, "
	    "%.0f MB/s)\n", (double)len / 1e6 / tbase);
	printf("bench_ltpout: parse + classify  %5.1fx memchr (%.0f MB/s)\n",
	    tparse / tbase, (double)len / 1e6 / tparse);
	printf("bench_ltpout: + textsafe each   %5.1fx memchr\n",
	    tsan / tbase);
	free(buf);
	return lines == nl ? 0 : 1;
}
