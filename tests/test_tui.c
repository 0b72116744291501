/*
 * The explorer in a real terminal (tmux): start on the demo data, move,
 * filter with a regular expression, filter by state, mark, open the
 * detail pane and help, survive a bad pattern and a resize, and quit
 * with the terminal given back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tmux.h"

static const char *
bin(void)
{
	const char *b = getenv("LTPSCOPE_BIN");

	return b != NULL ? b : "./ltpscope";
}

/* The screen line holding text, copied into buf; "" if none. */
static const char *
line_with(const char *text, char *buf, size_t len)
{
	const char *s = tmux_screen(), *p, *start, *end;

	buf[0] = '\0';
	if ((p = strstr(s, text)) == NULL)
		return buf;
	for (start = p; start > s && start[-1] != '\n'; start--)
		continue;
	end = strchr(p, '\n');
	snprintf(buf, len, "%.*s", (int)(end ? end - start :
	    (long)strlen(start)), start);
	return buf;
}

static void
test_small_terminal(void)
{
	char cmd[512], buf[512];
	const char *s;

	snprintf(cmd, sizeof(cmd), "%s --demo", bin());
	if (tmux_start(cmd, 80, 24) != 0) {
		ok(0, "tmux starts");
		return;
	}
	ok(tmux_wait_for("? help", 5000), "80x24: status line shows");
	s = tmux_screen();
	has_str(s, "ltpscope  demo:", "header names the demo source");
	has_str(s, "NR  NAME", "column header");
	has_str(line_with("  open ", buf, sizeof(buf)), "compat",
	    "open is implemented by a compat shim");
	has_str(line_with(" close ", buf, sizeof(buf)), "native",
	    "close is native");
	has_str(s, " 1/", "cursor on the first row");
	has_str(s, "linux-amd64 0 read: native", "status describes read");

	tmux_keys("j j");
	ok(tmux_wait_for("linux-amd64 2 open: compat", 2000),
	    "j twice moves to open");
	tmux_keys("k");
	ok(tmux_wait_for("linux-amd64 1 write", 2000), "k moves back up");

	tmux_keys("/");
	tmux_keys("-l 'shm(get|at)$'");
	ok(tmux_wait_for("/shm(get|at)$", 2000), "prompt echoes the pattern");
	s = tmux_screen();
	has_str(s, "shmget", "incremental filter shows shmget");
	ok(strstr(s, " close ") == NULL, "close filtered out while typing");
	tmux_keys("Enter");
	ok(tmux_wait_for("show:all  /shm(get|at)$", 2000),
	    "filter kept after Enter");
	has_str(tmux_screen(), "/2  sort:", "two syscalls match");

	tmux_keys("/ C-u");
	tmux_keys("-l '(unclosed'");
	ok(tmux_wait_for("bad pattern", 2000), "bad regex reported");
	has_str(tmux_screen(), "missing closing parenthesis",
	    "pcre2's reason is shown");
	tmux_keys("Enter");
	ok(tmux_wait_for("pattern not applied", 2000),
	    "Enter on a bad pattern keeps the old one");
	tmux_keys("/ C-u Enter");
	ok(tmux_wait_gone("/shm", 2000), "empty pattern clears the filter");

	tmux_keys("3");
	ok(tmux_wait_for("show:unimplemented", 2000), "3 shows unimplemented");
	s = tmux_screen();
	has_str(s, "sendfile", "sendfile is unimplemented");
	ok(strstr(s, " native ") == NULL && strstr(s, " compat ") == NULL,
	    "no implemented rows remain");
	tmux_keys("1");
	ok(tmux_wait_for("show:all", 2000), "1 shows all again");

	tmux_keys("Space");
	ok(tmux_wait_for("1 marked", 2000), "Space marks a syscall");
	tmux_keys("Enter");
	ok(tmux_wait_for("detail", 2000), "Enter opens the detail pane");
	s = tmux_screen();
	/* Space moved the cursor on, from write to open. */
	has_str(s, "function  linux_sys_open", "detail shows the function");
	has_str(s, "prototype int linux_sys_open(const char *path",
	    "detail shows the prototype");
	has_str(s, "syscalls.master:", "detail shows the source line");

	tmux_keys("?");
	ok(tmux_wait_for("ltpscope help", 2000), "? opens help");
	has_str(tmux_screen(), "filter by a regular expression",
	    "help lists the filter key");
	tmux_keys("q");
	ok(tmux_wait_gone("ltpscope help", 2000), "q closes help");

	tmux_resize(120, 40);
	ok(tmux_wait_for("? help", 2000), "status line after resize");
	s = tmux_screen();
	line_with("? help", buf, sizeof(buf));
	ok(strlen(buf) >= 100, "status line spans the wider terminal (%zu)",
	    strlen(buf));
	tmux_resize(80, 24);
	ok(tmux_wait_for("? help", 2000), "status line after shrinking");
	line_with("? help", buf, sizeof(buf));
	ok(strlen(buf) <= 80, "status line fits 80 columns again");

	tmux_keys("q");
	ok(tmux_wait_dead(3000), "q quits");
	ok(strstr(tmux_screen(), "? help") == NULL,
	    "the terminal is given back (no explorer on screen)");
	tmux_stop();
}

int
main(void)
{
	test_small_terminal();
	return tap_done();
}
