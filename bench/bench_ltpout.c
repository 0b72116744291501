/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How much the LTP output parser costs over merely finding line ends:
 * 50 MB of synthetic LTP output (both library formats, colour, Summary
 * blocks), parsed in 64 KiB reads as from a pipe, against a memchr()
 * line count over the same buffer in the same run.  Prints ratios, not
 * absolute times, so results compare across machines.
 *
 * Benchmarks: each ratio is the parser's time over the time memchr()
 * takes to find the same line ends: the price of classifying every
 * line (and, second, of also sanitizing each for display, as the
 * explorer does) relative to the least any line-based reader must do.
 * The MB/s figures say whether that matters: LTP tests write a few KB
 * to a few MB, so anything above 100 MB/s is never the bottleneck.
 * ROUNDS interleaved rounds; in each, every pass (memchr, parser,
 * parser and sanitizer) counts as the fastest of PASSES, all alike:
 * on a busy machine a long pass is more often interrupted than a short
 * one, and the fastest of three short memchr() passes against a single
 * parser pass charged the parser for other programs' time.  For the
 * same reason the times are the thread's CPU time, not the wall
 * clock's.  Figures are the median round, ratios the median of the
 * rounds' ratios.  Target: parsing and classifying cost at most 5
 * times the memchr() count (the sanitizer, an extra pass that
 * allocates each line, has none).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpscope/ltpout.h"
#include "ltpscope/textsafe.h"
#include "ltpscope/xmalloc.h"
#include "bench.h"

#define BENCH_SIZE	(50u * 1024 * 1024)
#define READ_SIZE	65536
#define ROUNDS		5
#define PASSES		3
#define TARGET		5.0

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

/* The CPU time this thread has used, in seconds. */
static double
cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return bench_now();
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Parses the whole buffer in pipe-sized reads; returns the seconds of
 * the fastest of PASSES passes.
 */
static double
run_parser(const char *buf, size_t len, ltpout_cb cb, unsigned long *lines,
    enum test_status *st)
{
	struct ltpout *p;
	struct test_end end = { TEST_EXITED, 0 };
	size_t off, n;
	double t, best = 0;
	int pass;

	for (pass = 0; pass < PASSES; pass++) {
		p = ltpout_new();
		*lines = 0;
		t = cpu_now();
		for (off = 0; off < len; off += n) {
			n = len - off < READ_SIZE ? len - off : READ_SIZE;
			ltpout_feed(p, buf + off, n, cb, lines);
		}
		ltpout_finish(p, cb, lines);
		*st = ltpout_status(ltpout_tally(p), &end, NULL, 0);
		t = cpu_now() - t;
		ltpout_free(p);
		if (pass == 0 || t < best)
			best = t;
	}
	return best > 0 ? best : 1e-9;
}

/* Seconds for the fastest of PASSES memchr() passes; *nl: lines. */
static double
run_memchr(const char *buf, size_t len, unsigned long *nl)
{
	const char *p, *end = buf + len;
	double t, best = 0;
	int pass;

	for (pass = 0; pass < PASSES; pass++) {
		*nl = 0;
		t = cpu_now();
		for (p = buf; (p = memchr(p, '\n', (size_t)(end - p))) !=
		    NULL; p++)
			(*nl)++;
		t = cpu_now() - t;
		if (pass == 0 || t < best)
			best = t;
	}
	return best > 0 ? best : 1e-9;
}

int
main(void)
{
	char *buf = xmalloc(BENCH_SIZE);
	size_t len = 0, k, i = 0;
	unsigned long nl = 0, lines, slines;
	double tb[ROUNDS], tp[ROUNDS], ts[ROUNDS], rp[ROUNDS], rs[ROUNDS];
	double tbase, tparse, tsan;
	enum test_status st;
	int r;

	while (len + 512 < BENCH_SIZE) {
		k = strlen(sample[i % (sizeof(sample) / sizeof(sample[0]))]);
		memcpy(buf + len, sample[i % (sizeof(sample) /
		    sizeof(sample[0]))], k);
		len += k;
		i++;
	}

	for (r = 0; r < ROUNDS; r++) {
		tb[r] = run_memchr(buf, len, &nl);
		tp[r] = run_parser(buf, len, count_line, &lines, &st);
		ts[r] = run_parser(buf, len, sanitize_line, &slines, &st);
		rp[r] = tp[r] / tb[r];
		rs[r] = ts[r] / tb[r];
	}
	tbase = bench_median(tb, ROUNDS);
	tparse = bench_median(tp, ROUNDS);
	tsan = bench_median(ts, ROUNDS);

	printf("bench_ltpout: %.1f MB, %lu lines (memchr saw %lu), "
	    "verdict %s\n", (double)len / 1e6, lines, nl,
	    test_status_name(st));
	printf("bench_ltpout: %d rounds, each pass the fastest of %d (CPU "
	    "time); median round, median ratio\n", ROUNDS, PASSES);
	printf("bench_ltpout: memchr line count   1.0x (baseline, "
	    "%.0f MB/s)\n", (double)len / 1e6 / tbase);
	printf("bench_ltpout: parse + classify  %5.1fx memchr (%.0f MB/s; "
	    "target <= %.0fx)\n", bench_median(rp, ROUNDS),
	    (double)len / 1e6 / tparse, TARGET);
	printf("bench_ltpout: + textsafe each   %5.1fx memchr (%.0f MB/s)\n",
	    bench_median(rs, ROUNDS), (double)len / 1e6 / tsan);
	free(buf);
	return lines == nl ? 0 : 1;
}
