/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tmux driver for TUI tests (see tmux.h).  Each test program gets its
 * own server socket, so tests never see each other's sessions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "tmux.h"

static char	tmux_sock[64];
static char	tmux_buf[65536];

static void
tmux_sleep_ms(int ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (long)(ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
}

int
tmux_start(const char *cmd, int w, int h)
{
	char line[4096];
	int st;
	char *out;

	static int seq;

	/* A server of its own per start: a dying one cannot take us along. */
	snprintf(tmux_sock, sizeof(tmux_sock), "ltpscope-test-%ld-%d",
	    (long)getpid(), ++seq);
	snprintf(line, sizeof(line), "tmux -L %s -f /dev/null new-session -d "
	    "-x %d -y %d \"%s\" \\; set-option -g remain-on-exit on",
	    tmux_sock, w, h, cmd);
	out = tap_run(line, &st, 1);
	if (st != 0)
		tap_diag("tmux failed: %s", out);
	free(out);
	return st;
}

int
tmux_explorer(const char *args, int w, int h)
{
	const char *t = tap_tmpdir();
	char cmd[8192], cwd[1024];

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return -1;
	snprintf(cmd, sizeof(cmd), "env HOME=%s XDG_DATA_HOME=%s/data "
	    "XDG_CONFIG_HOME=%s/config XDG_STATE_HOME=%s/state "
	    "LTPSCOPE_MASTER=%s/tests/fixtures/linux/unistd_64.h %s %s", t, t,
	    t, t, cwd, tap_bin(), args);
	if (tmux_start(cmd, w, h) != 0)
		return -1;
	return tmux_wait_for("? help", 8000) ? 0 : -1;
}

void
tmux_keys(const char *keys)
{
	char line[4096];
	char *out;

	snprintf(line, sizeof(line), "tmux -L %s send-keys %s", tmux_sock,
	    keys);
	out = tap_run(line, NULL, 1);
	free(out);
	/* Let the program read the keys before the next capture. */
	tmux_sleep_ms(60);
}

const char *
tmux_screen(void)
{
	char line[256];
	char *out;

	snprintf(line, sizeof(line), "tmux -L %s capture-pane -p", tmux_sock);
	out = tap_run(line, NULL, 1);
	snprintf(tmux_buf, sizeof(tmux_buf), "%s", out);
	free(out);
	return tmux_buf;
}

const char *
tmux_line(const char *text)
{
	return tap_line_of(tmux_screen(), text);
}

int
tmux_wait_for(const char *text, int ms)
{
	for (; ms > 0; ms -= 50) {
		if (strstr(tmux_screen(), text) != NULL)
			return 1;
		tmux_sleep_ms(50);
	}
	return strstr(tmux_screen(), text) != NULL;
}

int
tmux_wait_gone(const char *text, int ms)
{
	for (; ms > 0; ms -= 50) {
		if (strstr(tmux_screen(), text) == NULL)
			return 1;
		tmux_sleep_ms(50);
	}
	return strstr(tmux_screen(), text) == NULL;
}

int
tmux_alive(void)
{
	char line[256];
	char *out;
	int dead;

	snprintf(line, sizeof(line), "tmux -L %s display-message -p "
	    "'#{pane_dead}'", tmux_sock);
	out = tap_run(line, NULL, 1);
	dead = out[0] == '1';
	free(out);
	return !dead;
}

int
tmux_wait_dead(int ms)
{
	for (; ms > 0; ms -= 50) {
		if (!tmux_alive())
			return 1;
		tmux_sleep_ms(50);
	}
	return !tmux_alive();
}

long
tmux_pane_pid(void)
{
	char line[256];
	char *out;
	long pid;

	snprintf(line, sizeof(line), "tmux -L %s display-message -p "
	    "'#{pane_pid}'", tmux_sock);
	out = tap_run(line, NULL, 1);
	pid = atol(out);
	free(out);
	return pid;
}

void
tmux_resize(int w, int h)
{
	char line[256];
	char *out;

	snprintf(line, sizeof(line), "tmux -L %s resize-window -x %d -y %d",
	    tmux_sock, w, h);
	out = tap_run(line, NULL, 1);
	free(out);
	tmux_sleep_ms(100);
}

void
tmux_stop(void)
{
	char line[256];
	char *out;

	snprintf(line, sizeof(line), "tmux -L %s kill-server", tmux_sock);
	out = tap_run(line, NULL, 1);
	free(out);
}
