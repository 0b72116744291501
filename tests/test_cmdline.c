/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ":" command line's parsing (cmdline.c): what each line asks for,
 * the words of :run, and the errors the explorer shows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cmdline.h"
#include "tap.h"

static void
test_kinds(void)
{
	struct cmdline cl;

	is_int(cmdline_parse(&cl, "  \t "), CL_EMPTY, "blanks: nothing");
	cmdline_free(&cl);
	is_int(cmdline_parse(&cl, "q"), CL_QUIT, "q quits");
	cmdline_free(&cl);
	is_int(cmdline_parse(&cl, " quit"), CL_QUIT, "quit quits");
	cmdline_free(&cl);
	is_int(cmdline_parse(&cl, "ui"), CL_SELF, "ui is the explorer");
	cmdline_free(&cl);
	is_int(cmdline_parse(&cl, "tag open01 'bug compat' \"a \\\"b\\\"\""),
	    CL_OTHER, "a subcommand");
	if (cl.argv != NULL && cl.argv[0] != NULL && cl.argv[1] != NULL &&
	    cl.argv[2] != NULL && cl.argv[3] != NULL) {
		is_str(cl.argv[0], "tag", "its name");
		is_str(cl.argv[2], "bug compat", "single quotes kept a word");
		is_str(cl.argv[3], "a \"b\"", "escaped double quotes");
		ok(cl.argv[4] == NULL, "four words");
	} else
		ok(0, "four words");
	cmdline_free(&cl);
}

static void
test_errors(void)
{
	struct cmdline cl;

	is_int(cmdline_parse(&cl, "export > /tmp/x"), CL_ERROR,
	    "shell syntax refused");
	has_str(cl.why, "no shell syntax", "and said why");
	ok(cl.argv == NULL, "no words on an error");
	cmdline_free(&cl);
	is_int(cmdline_parse(&cl, "tag 'open01"), CL_ERROR,
	    "unterminated quote");
	has_str(cl.why, "quote", "and said so");
	cmdline_free(&cl);
	is_int(cmdline_parse(&cl, "run"), CL_ERROR, ":run alone");
	is_str(cl.why, ":run needs -s syscall,... or test names", "why");
	cmdline_free(&cl);
	is_int(cmdline_parse(&cl, "run -j 4 open01"), CL_ERROR,
	    ":run -j refused");
	has_str(cl.why, "-j is for `ltpscope run` in a shell", "why");
	cmdline_free(&cl);
}

/* Two -s lists: the first one's names must outlive the second. */
static void
test_run(void)
{
	struct cmdline cl;

	is_int(cmdline_parse(&cl, "run -s open,read -s fcntl,,close open01 "
	    "mmap21_01"), CL_RUN, ":run with names and tests");
	is_int(cl.nsys, 4, "four syscall names");
	if (cl.nsys == 4) {
		is_str(cl.sys[0], "open", "first of the first -s");
		is_str(cl.sys[1], "read", "second of the first -s");
		is_str(cl.sys[2], "fcntl", "first of the second -s");
		is_str(cl.sys[3], "close", "empty names dropped");
	}
	is_int(cl.ntags, 2, "two tests");
	if (cl.ntags == 2) {
		is_str(cl.tags[0], "open01", "first test");
		is_str(cl.tags[1], "mmap21_01", "second test");
	}
	cmdline_free(&cl);
	is_int(cmdline_parse(&cl, "run -s"), CL_ERROR,
	    "-s with nothing after it is an option :run lacks");
	cmdline_free(&cl);
}

int
main(void)
{
	test_kinds();
	test_errors();
	test_run();
	return tap_done();
}
