/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A QEMU box: the user's own qemu command (a "qemu" line of a box
 * block, settings.h) started by ltpscope when a run needs it, with
 * what ltpscope manages itself added: -snapshot, the serial console
 * into a file, the monitor on a unix socket (resets go there) and user
 * networking with ssh forwarded from a free port on 127.0.0.1.  Its
 * files live in one directory (the caller's: beside the database).
 *
 * A QEMU started by an earlier ltpscope and still running is taken
 * over, and left running at the end; one started here is stopped.
 */
#ifndef LTPSCOPE_QEMUBOX_H
#define LTPSCOPE_QEMUBOX_H

#include <stddef.h>

#include "ltpscope/diag.h"

/* How long QEMU may take to open its monitor (s); the guest boots after. */
#define QEMUBOX_START_S		60
/* Ports tried when another program takes the one found free first. */
#define QEMUBOX_PORT_TRIES	5

struct qemubox_conf {
	const char	*name;		/* the box's, for messages */
	const char	*command;	/* the qemu line, run by sh */
	const char	*dir;		/* its files; made if missing */
	int		 snapshot;	/* add -snapshot */
};

struct qemubox;

/*
 * The box's QEMU: the running one taken over, or started.  Returns 0,
 * or -1 with dl (what QEMU said, made safe to print).  *qp is the
 * caller's, for qemubox_close().
 */
int	qemubox_up(struct qemubox **qp, const struct qemubox_conf *,
	    struct diaglist *);
/* Where ssh reaches it: 127.0.0.1 at this port. */
int	qemubox_port(const struct qemubox *);
/*
 * Where ssh reaches it as a host spec, into buf: the user of host (a
 * box block's "host", "user" or "user@anything"; NULL or "" for none)
 * at 127.0.0.1 and its port.
 */
void	qemubox_host(const struct qemubox *, const char *host, char *buf,
	    size_t len);
/* The serial console's file. */
const char *qemubox_console(const struct qemubox *);
/*
 * The last nlines lines the console (a file appended to) wrote since
 * QEMU last started, or of all of it for a QEMU taken over, within its
 * last 4 KiB; made safe to show (textsafe_display(): no escape
 * sequence, no CR), each ending in '\n': malloc'd, "" when it wrote
 * nothing, NULL when the file cannot be read.
 */
char	*qemubox_console_said(const struct qemubox *, size_t nlines);
/* 1 if it ran before qemubox_up(): it is left running. */
int	qemubox_was_running(const struct qemubox *);
/*
 * A reset: system_reset on the monitor, or QEMU started again when it
 * is gone (the port may change: ask qemubox_port()).  0, or -1 with
 * dl.  *what says which (a short phrase).
 */
int	qemubox_reset(struct qemubox *, const char **what,
	    struct diaglist *);
/* Stops QEMU unless it ran before; frees.  NULL is fine. */
void	qemubox_close(struct qemubox *);
/*
 * The arguments ltpscope adds to the user's command for port (a NULL
 * ended, malloc'd vector of malloc'd strings; qemubox_argv_free()).
 */
char	**qemubox_argv(const struct qemubox_conf *, int port);
void	qemubox_argv_free(char **);
/* 1 if a QEMU runs for this directory (its pid file and monitor). */
int	qemubox_running(const char *dir);

#endif
