/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The skip list: the format and its errors (file:line), globs, entries
 * that hold on some systems only (os=) or some arches only (arch=, as
 * run --skip-culprit writes them), --skip files adding to
 * data/skiplist, and data/skiplist itself against the real
 * runtest/syscalls of LTP 20260529.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/diag.h"
#include "ltpscope/skiplist.h"
#include "tap.h"

static const char text[] =
    "# comment\n"
    "\n"
    "   \t\n"
    "kill13\t\tneeds CONFIG_UBSAN  \n"
    "nothing_here\n"
    "  mmap[0-9]*   maps too much\r\n"
    "bad[01  unclosed bracket\n"
    "sig[!a]x  negated class\n"
    "last    no newline at the end";

static void
test_parse(void)
{
	struct skiplist sl;
	struct diaglist dl;
	char buf[256];

	skiplist_init(&sl);
	diag_init(&dl);
	is_int(skiplist_parse(&sl, "t.skip", text, sizeof(text) - 1, &dl), 2,
	    "two bad lines");
	is_int(sl.n, 4, "four entries");
	is_int(dl.nerrors, 2, "two errors reported");
	if (dl.n >= 2) {
		diag_format(&dl.v[0], buf, sizeof(buf));
		is_str(buf, "t.skip:5: error: 'nothing_here' has no reason: "
		    "write why it is skipped",
		    "missing reason, with file:line");
		diag_format(&dl.v[1], buf, sizeof(buf));
		is_str(buf, "t.skip:7: error: unclosed '[' in pattern 'bad[01'",
		    "bad glob, with file:line");
	}
	is_str(skiplist_lookup(&sl, "kill13"), "needs CONFIG_UBSAN",
	    "reason trimmed");
	ok(skiplist_lookup(&sl, "kill131") == NULL, "no prefix match");
	is_str(skiplist_lookup(&sl, "mmap12"), "maps too much",
	    "glob, CRLF and leading blanks");
	ok(skiplist_lookup(&sl, "mmap") == NULL, "glob needs a digit");
	ok(skiplist_lookup(&sl, "sigbx") != NULL &&
	    skiplist_lookup(&sl, "sigax") == NULL, "negated class");
	is_str(skiplist_lookup(&sl, "last"), "no newline at the end",
	    "last line without newline");
	if (sl.n >= 1) {
		is_str(sl.v[0].file, "t.skip", "entry remembers its file");
		is_int(sl.v[0].line, 4, "and its line");
	}
	skiplist_add(&sl, "getpid*", "by hand");
	is_str(skiplist_lookup(&sl, "getpid02"), "by hand", "added by hand");
	skiplist_free(&sl);
	diag_free(&dl);

	skiplist_init(&sl);
	diag_init(&dl);
	is_int(skiplist_load(&sl, "tests/fixtures/skiplist-bad", &dl), 1,
	    "bad file: one error");
	if (dl.n > 0) {
		diag_format(&dl.v[0], buf, sizeof(buf));
		is_str(buf, "tests/fixtures/skiplist-bad:4: error: "
		    "'bad_entry_without_reason' has no reason: write why it "
		    "is skipped", "error names the file and line");
	}
	ok(sl.n == 2 && skiplist_lookup(&sl, "msgctl04") != NULL,
	    "good lines around it still load");
	skiplist_free(&sl);
	diag_free(&dl);

	skiplist_init(&sl);
	diag_init(&dl);
	is_int(skiplist_load(&sl, "tests/fixtures/no-such-file", &dl), -1,
	    "missing file");
	if (dl.n > 0)
		has_str(dl.v[0].msg, "cannot open skip list", "says so");
	ok(dl.n > 0 && dl.v[0].file != NULL &&
	    strcmp(dl.v[0].file, "tests/fixtures/no-such-file") == 0,
	    "and names the file");
	skiplist_free(&sl);
	diag_free(&dl);
}

/* data/skiplist, plus an extra file, against LTP's real runtest file. */
static void
test_shipped(void)
{
	struct skiplist sl;
	struct diaglist dl;
	char *rt, *line, *save = NULL, tag[128];
	const struct skip_entry *e;
	size_t i;
	int skipped = 0, *used;

	skiplist_init(&sl);
	diag_init(&dl);
	is_int(skiplist_load(&sl, "data/skiplist", &dl), 0,
	    "data/skiplist parses cleanly");
	diag_print(&dl, stdout, "# ");
	ok(sl.n >= 4, "data/skiplist has entries (%zu)", sl.n);
	is_int(skiplist_load(&sl, "tests/fixtures/skiplist-extra", &dl), 0,
	    "--skip file adds to it");
	is_str(skiplist_lookup(&sl, "getpid01"), "already covered, saves time",
	    "entry from the extra file");
	has_str(skiplist_lookup(&sl, "rt_sigqueueinfo01"), "panic",
	    "rt_sigqueueinfo01: panics");
	has_str(skiplist_lookup(&sl, "copy_file_range03"), "panic",
	    "copy_file_range03: panics");
	has_str(skiplist_lookup(&sl, "sigprocmask01"), "hang",
	    "sigprocmask01: hangs");
	has_str(skiplist_lookup(&sl, "sigrelse01"), "hang",
	    "sigrelse01: hangs");
	ok(skiplist_lookup(&sl, "rt_sigprocmask01") == NULL,
	    "rt_sigprocmask01 still runs");
	ok(skiplist_lookup(&sl, "getpid02") == NULL, "getpid02 still runs");
	e = skiplist_match(&sl, "sigrelse01");
	ok(e != NULL && strcmp(e->file, "data/skiplist") == 0 && e->line > 1,
	    "match tells where the entry is");

	/* Every shipped pattern names real tests; count what it skips. */
	if (tap_skip_shared("shipped patterns against LTP's runtest file")) {
		skiplist_free(&sl);
		diag_free(&dl);
		return;
	}
	rt = tap_slurp(tap_shared_path("ltp/runtest-syscalls"), NULL);
	if (!ok(rt != NULL, "runtest-syscalls readable")) {
		skiplist_free(&sl);
		diag_free(&dl);
		return;
	}
	used = calloc(sl.n, sizeof(*used));
	for (line = strtok_r(rt, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || sscanf(line, "%127s", tag) != 1)
			continue;
		if ((e = skiplist_match(&sl, tag)) == NULL)
			continue;
		used[e - sl.v]++;
		if (strcmp(e->file, "data/skiplist") == 0)
			skipped++;
	}
	for (i = 0; i < sl.n; i++)
		if (strcmp(sl.v[i].file, "data/skiplist") == 0)
			ok(used[i] > 0, "'%s' matches a runtest tag (%d)",
			    sl.v[i].pattern, used[i]);
	is_int(skipped, 7, "data/skiplist skips 7 of the syscall tests");
	free(used);
	free(rt);
	skiplist_free(&sl);
	diag_free(&dl);
}

static const char ostext[] =
    "panic01\tos=NetBSD\tpanics NetBSD\n"
    "both*  os=netbsd,Linux  hangs both\n"
    "every01 hangs everywhere\n"
    "bad01 os= empty list\n"
    "bad02 os=Net/BSD a slash\n"
    "bad03 os=NetBSD,,Linux an empty name\n"
    "bad04 os=NetBSD\n";

/* os=: an entry holds only on the systems it names. */
static void
test_os(void)
{
	struct skiplist sl;
	struct diaglist dl;
	char buf[512];

	skiplist_init(&sl);
	diag_init(&dl);
	is_int(skiplist_parse(&sl, "os.skip", ostext, sizeof(ostext) - 1,
	    &dl), 4, "four bad os= lines");
	is_int(sl.n, 3, "three entries");
	if (dl.n >= 4) {
		diag_format(&dl.v[0], buf, sizeof(buf));
		is_str(buf, "os.skip:4: error: 'bad01': os= wants system names "
		    "as uname -s prints them, comma-separated (os=NetBSD), not "
		    "''", "empty os=, with file:line");
		diag_format(&dl.v[1], buf, sizeof(buf));
		has_str(buf, "os.skip:5: error: 'bad02': os= wants", "a bad "
		    "name");
		diag_format(&dl.v[2], buf, sizeof(buf));
		has_str(buf, "os.skip:6: error: 'bad03': os= wants", "an empty "
		    "name in the list");
		diag_format(&dl.v[3], buf, sizeof(buf));
		is_str(buf, "os.skip:7: error: 'bad04' has no reason: write "
		    "why it is skipped", "os= is not a reason");
	}
	if (sl.n >= 3) {
		is_str(sl.v[0].os, "NetBSD", "the entry keeps its systems");
		is_str(sl.v[0].reason, "panics NetBSD", "and its reason");
		ok(sl.v[2].os == NULL, "no os=: every system");
	}
	ok(skiplist_lookup(&sl, "panic01") != NULL, "no system set: every "
	    "entry holds");

	skiplist_set_os(&sl, "Linux");
	ok(skiplist_lookup(&sl, "panic01") == NULL, "a NetBSD entry does not "
	    "hold on Linux");
	is_str(skiplist_lookup(&sl, "both01"), "hangs both", "one naming "
	    "Linux does");
	is_str(skiplist_lookup(&sl, "every01"), "hangs everywhere", "and one "
	    "naming none");
	skiplist_describe(&sl, buf, sizeof(buf));
	is_str(buf, "os.skip (2 of 3 entries hold on Linux)", "describe: "
	    "what holds here");

	skiplist_set_os(&sl, "NetBSD");
	is_str(skiplist_lookup(&sl, "panic01"), "panics NetBSD", "NetBSD: the "
	    "NetBSD entry holds");
	is_str(skiplist_lookup(&sl, "both02"), "hangs both", "names match in "
	    "any case");
	skiplist_add(&sl, "getpid*", "by hand");
	skiplist_describe(&sl, buf, sizeof(buf));
	is_str(buf, "os.skip (3 entries); added here (1 entry)", "describe "
	    "on NetBSD, with an entry added by hand");
	skiplist_free(&sl);
	skiplist_init(&sl);
	skiplist_describe(&sl, buf, sizeof(buf));
	is_str(buf, "none", "an empty list is none");
	skiplist_free(&sl);
	diag_free(&dl);
}

static const char archtext[] =
    "# as an older ltpscope wrote a culprit: every arch\n"
    "old01\tos=Linux\tcrashed box x (Linux 6.1 aarch64) during run 1\n"
    "kill11\tos=Linux\tarch=aarch64\tcrashed box arm64 during run 2\n"
    "kill12  arch=amd64  os=NetBSD  crashed an amd64 NetBSD\n"
    "kill13  arch=i386,aarch64  two arches\n"
    "bad01 arch= empty\n"
    "bad02 arch=aarch64 arch=x86_64 twice\n"
    "bad03 arch=aarch64\n";

/*
 * arch=: a crash of one arch's kernel keeps the test from that arch's
 * boxes only; amd64 and x86_64 name one arch; older entries (no arch=)
 * hold on every arch.
 */
static void
test_arch(void)
{
	struct skiplist sl;
	struct diaglist dl;
	char buf[512];

	skiplist_init(&sl);
	diag_init(&dl);
	is_int(skiplist_parse(&sl, "arch.skip", archtext,
	    sizeof(archtext) - 1, &dl), 3, "three bad arch= lines");
	is_int(sl.n, 4, "four entries");
	if (dl.n >= 3) {
		diag_format(&dl.v[0], buf, sizeof(buf));
		is_str(buf, "arch.skip:6: error: 'bad01': arch= wants "
		    "architectures as uname -m prints them, comma-separated "
		    "(arch=aarch64), not ''", "empty arch=, with file:line");
		diag_format(&dl.v[1], buf, sizeof(buf));
		is_str(buf, "arch.skip:7: error: 'bad02': arch= given twice",
		    "arch= twice");
		diag_format(&dl.v[2], buf, sizeof(buf));
		is_str(buf, "arch.skip:8: error: 'bad03' has no reason: write "
		    "why it is skipped", "arch= is not a reason");
	}
	if (sl.n >= 4) {
		ok(sl.v[0].arch == NULL, "an older entry has no arch");
		is_str(sl.v[1].arch, "aarch64", "the entry keeps its arch");
		is_str(sl.v[1].os, "Linux", "and its system");
		is_str(sl.v[1].reason, "crashed box arm64 during run 2",
		    "and its reason");
		is_str(sl.v[2].os, "NetBSD", "os= after arch=");
	}
	ok(skiplist_lookup(&sl, "kill11") != NULL, "no arch set: every entry "
	    "holds");

	skiplist_set_os(&sl, "Linux");
	skiplist_set_arch(&sl, "x86_64");
	ok(skiplist_lookup(&sl, "kill11") == NULL, "an aarch64 crash does not "
	    "keep kill11 from an x86_64 box");
	is_str(skiplist_lookup(&sl, "old01"), "crashed box x (Linux 6.1 "
	    "aarch64) during run 1", "an older entry holds on every arch");
	ok(skiplist_lookup(&sl, "kill13") == NULL, "nor does one naming "
	    "i386 and aarch64");
	skiplist_describe(&sl, buf, sizeof(buf));
	is_str(buf, "arch.skip (1 of 4 entries hold on Linux x86_64)",
	    "describe names the arch");

	skiplist_set_arch(&sl, "aarch64");
	ok(skiplist_lookup(&sl, "kill11") != NULL, "on aarch64 it holds");
	is_str(skiplist_lookup(&sl, "kill13"), "two arches", "as does the one "
	    "of two arches");

	skiplist_set_os(&sl, "NetBSD");
	skiplist_set_arch(&sl, "x86_64");
	is_str(skiplist_lookup(&sl, "kill12"), "crashed an amd64 NetBSD",
	    "arch=amd64 holds on x86_64 (one arch)");
	skiplist_set_arch(&sl, "aarch64");
	ok(skiplist_lookup(&sl, "kill12") == NULL, "but not on aarch64");
	skiplist_set_arch(&sl, NULL);
	ok(skiplist_lookup(&sl, "kill12") != NULL, "no arch: it holds again");
	skiplist_free(&sl);
	diag_free(&dl);
}

/* The shipped list holds on NetBSD only: Linux runs every test. */
static void
test_shipped_os(void)
{
	struct skiplist sl;
	struct diaglist dl;
	static const char *const tags[] = { "rt_sigqueueinfo01",
	    "rt_sigqueueinfo02", "copy_file_range01", "copy_file_range02",
	    "copy_file_range03", "sigprocmask01", "sigrelse01", NULL };
	char buf[512];
	size_t i;
	int held;

	skiplist_init(&sl);
	diag_init(&dl);
	skiplist_set_os(&sl, "Linux");
	(void)skiplist_load(&sl, "data/skiplist", &dl);
	for (i = 0, held = 0; tags[i] != NULL; i++)
		held += skiplist_lookup(&sl, tags[i]) != NULL;
	is_int(held, 0, "on Linux none of the 7 is skipped");
	skiplist_describe(&sl, buf, sizeof(buf));
	is_str(buf, "data/skiplist (0 of 4 entries hold on Linux)",
	    "and the description says so");
	skiplist_set_os(&sl, "NetBSD");
	for (i = 0, held = 0; tags[i] != NULL; i++)
		held += skiplist_lookup(&sl, tags[i]) != NULL;
	is_int(held, 7, "on NetBSD all 7 are");
	skiplist_free(&sl);
	diag_free(&dl);
}

int
main(void)
{
	test_parse();
	test_os();
	test_arch();
	test_shipped_os();
	test_shipped();
	return tap_done();
}
