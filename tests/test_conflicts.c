/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Conflict groups: the format and its errors (file:line), a test in
 * several groups, groups spread over lines and files, and the shipped
 * data/conflicts itself: it parses cleanly, keeps the System V IPC
 * tests of issue 25 together, and every pattern names a real test of
 * LTP 20260529's runtest/syscalls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/conflicts.h"
#include "ltpscope/diag.h"
#include "tap.h"

static const char text[] =
    "# comment\n"
    "\n"
    "shm\tshmget*,shmctl05   counts segments  \n"
    "noreason shmat01\n"
    "bad/name x01 reason\n"
    "shm2 shmctl05,kill0[1-3] churns\r\n"
    "shm  shmdt01 one group over two lines\n"
    "empty a01,,b01 an empty pattern\n"
    "last x0* no newline at the end";

static void
test_parse(void)
{
	struct conflicts c;
	struct diaglist dl;
	char buf[256];

	conflicts_init(&c);
	diag_init(&dl);
	is_int(conflicts_parse(&c, "t.conf", text, sizeof(text) - 1, &dl), 3,
	    "three bad lines");
	is_int(dl.nerrors, 3, "three errors reported");
	if (dl.n >= 3) {
		diag_format(&dl.v[0], buf, sizeof(buf));
		has_str(buf, "t.conf:4: ", "the first names file and line: %s",
		    buf);
		has_str(buf, "want GROUP PATTERN[,PATTERN]... REASON",
		    "and says the format");
		diag_format(&dl.v[1], buf, sizeof(buf));
		has_str(buf, "t.conf:5: ", "a bad group name: %s", buf);
		diag_format(&dl.v[2], buf, sizeof(buf));
		has_str(buf, "t.conf:8: ", "an empty pattern: %s", buf);
	}
	is_int((long long)conflicts_of(&c, "shmget03", buf, sizeof(buf)), 1,
	    "shmget03 in one group");
	is_str(buf, "shm", "... shm");
	is_int((long long)conflicts_of(&c, "shmctl05", buf, sizeof(buf)), 2,
	    "shmctl05 in two");
	is_str(buf, "shm,shm2", "... shm and shm2");
	conflicts_of(&c, "shmdt01", buf, sizeof(buf));
	is_str(buf, "shm", "a later line adds to a group");
	is_int((long long)conflicts_of(&c, "open01", buf, sizeof(buf)), 0,
	    "open01 in none");
	is_str(buf, "", "... an empty list");
	conflicts_of(&c, "x01", buf, sizeof(buf));
	is_str(buf, "last", "the last line, without a newline, counts");
	is_str(conflicts_reason(&c, "shm2"), "churns", "the reason, trimmed");
	is_str(conflicts_reason(&c, "shm"), "counts segments",
	    "a group's reason is its first line's");
	ok(conflicts_share("shm,shm2", "shm2") &&
	    conflicts_share("a", "b,a") && !conflicts_share("shm", "shm2") &&
	    !conflicts_share("", "shm") && !conflicts_share("shm", "") &&
	    !conflicts_share(NULL, "shm"), "conflicts_share");
	conflicts_describe(&c, buf, sizeof(buf));
	is_str(buf, "t.conf (4 groups)", "describe: the file and its groups");
	conflicts_free(&c);
	diag_free(&dl);
}

static void
test_shipped(void)
{
	static const char *const together[][2] = {
		{ "shmget03", "shmctl05" }, { "shmget03", "shmctl01" },
		{ "msgget03", "msgctl01" }, { "semget05", "semctl01" },
	};
	struct conflicts c;
	struct diaglist dl;
	char a[256], b[256], *rt, *line, *save = NULL, tag[128];
	size_t i, unused = 0, *hits;

	conflicts_init(&c);
	diag_init(&dl);
	is_int(conflicts_load(&c, "data/conflicts", &dl), 0,
	    "data/conflicts parses cleanly");
	diag_print(&dl, stdout, "# ");
	for (i = 0; i < sizeof(together) / sizeof(together[0]); i++) {
		conflicts_of(&c, together[i][0], a, sizeof(a));
		conflicts_of(&c, together[i][1], b, sizeof(b));
		ok(conflicts_share(a, b), "%s and %s are kept apart (%s)",
		    together[i][0], together[i][1], a);
	}
	conflicts_of(&c, "open01", a, sizeof(a));
	is_str(a, "", "open01 is in no group");
	conflicts_of(&c, "shm_open01", a, sizeof(a));
	is_str(a, "", "POSIX shared memory is not System V's");
	if (tap_skip_shared("shipped patterns against LTP's runtest file")) {
		conflicts_free(&c);
		diag_free(&dl);
		return;
	}
	hits = calloc(c.n + 1, sizeof(*hits));
	rt = tap_slurp(tap_shared_path("ltp/runtest-syscalls"), NULL);
	for (line = rt != NULL ? strtok_r(rt, "\n", &save) : NULL;
	    line != NULL; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || sscanf(line, "%127s", tag) != 1)
			continue;
		for (i = 0; i < c.n; i++) {
			struct conflicts one;
			char g[64];

			one = c;
			one.n = 1;
			one.v = &c.v[i];
			hits[i] += conflicts_of(&one, tag, g, sizeof(g)) > 0;
		}
	}
	for (i = 0; i < c.n; i++)
		if (hits[i] == 0) {
			tap_diag("%s: pattern %s matches no test",
			    c.v[i].group, c.v[i].pattern);
			unused++;
		}
	ok(rt != NULL, "LTP's runtest file read");
	is_int((long long)unused, 0, "every shipped pattern names real tests");
	free(hits);
	free(rt);
	conflicts_free(&c);
	diag_free(&dl);
}

int
main(void)
{
	test_parse();
	test_shipped();
	return tap_done();
}
