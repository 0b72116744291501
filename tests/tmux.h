/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Driving the explorer in a real terminal: tmux on a private socket,
 * send-keys to type, capture-pane to read the screen.
 */
#ifndef LTPSCOPE_TESTS_TMUX_H
#define LTPSCOPE_TESTS_TMUX_H

/* Starts cmd in a detached session of w x h; returns 0 on success. */
int	 tmux_start(const char *, int, int);
/*
 * Starts the ltpscope under test with args in a w x h session and waits
 * for its status line; 0 when it is there.  It gets a home of its own in
 * tap_tmpdir() (no history, config or database leaks in) and our Linux
 * header where the demo would add the host's.  Run from the
 * repository root.
 */
int	 tmux_explorer(const char *, int, int);
/* Sends keys as tmux send-keys words (e.g. "j", "Enter", "-l", "abc"). */
void	 tmux_keys(const char *);
/* The screen as text (static buffer, valid until the next call). */
const char *tmux_screen(void);
/*
 * The screen's line holding text's first match, in a static buffer
 * (valid until the next call); "" when there is none.
 */
const char *tmux_line(const char *);
/* Waits up to ms for text to appear on screen; returns 1 if it did. */
int	 tmux_wait_for(const char *, int);
/* Waits up to ms for text to disappear; returns 1 if it did. */
int	 tmux_wait_gone(const char *, int);
/* 1 while the program still runs in the pane. */
int	 tmux_alive(void);
/* Waits up to ms for the program to exit; returns 1 if it did. */
int	 tmux_wait_dead(int);
/* The process tmux started in the pane (the shell running the command). */
long	 tmux_pane_pid(void);
void	 tmux_resize(int, int);
void	 tmux_stop(void);

#endif
