/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's settings file, $XDG_CONFIG_HOME/ltpscope/config: one
 * setting a line, "#" starts a comment.
 *
 *	theme NAME		a theme (as --theme takes it)
 *	timeout SECONDS		per-test timeout, 0 for none
 *	jobs N			tests run at once, 1 to 64
 *	host [USER@]HOST[:PORT]	runs go to this box over ssh (remote.h)
 *	ssh-config FILE		ssh -F FILE for it
 *	box-master PATH		where the box keeps its syscalls.master
 *				(run --box-master; %m its uname -m)
 *	reboot-cmd COMMAND ...	run (sh -c, the rest of the line) when
 *				the box stops answering, as run
 *				--reboot-cmd; the explorer then waits
 *				for the box and resumes the run there
 *	box-wait SECONDS	how long it waits at most (run --box-wait)
 *	reset-on-taint yes|no	with a reboot-cmd, reset the box when a
 *				test tainted its kernel, before the next
 *				(run --reset-on-taint)
 *	kernel-src DIR		a NetBSD source tree (export, func)
 *	source-url TEMPLATE	a kernel function's web page, %f its
 *				file, %l its line (export)
 *	ltp-src DIR		an LTP source tree (--ltp-src): the
 *				test's source at a failing line; with a
 *				host, the tree on the box
 *	linux-git-url URL	a Linux commit's web page, %c the commit
 *				(links of "linux-git" tags in exports)
 *
 * and named boxes, each a block from a "box NAME" line to the next
 * one (as ssh_config's Host), for run --box NAME and the others:
 *
 *	box NAME
 *	    host, ssh-config, ltproot, box-master, kconfig, reboot-cmd,
 *	    console, box-wait	as the run options of those names
 *	    skip-culprit [yes|no], reset-on-taint [yes|no]
 *	    qemu COMMAND ...	a QEMU box ltpscope starts (qemubox.h)
 *	    qemu-snapshot yes|no	its -snapshot (yes)
 *
 * Parsed here in the core so that a bad file is a diagnostic, not the
 * explorer's business; command-line options win over these (the
 * caller's job).  A line not understood is an error naming file and
 * line and is skipped; the lines that parse still count.
 */
#ifndef LTPSCOPE_SETTINGS_H
#define LTPSCOPE_SETTINGS_H

#include <limits.h>
#include <stddef.h>

#include "ltpscope/diag.h"

/* As run -j; the runner's timeout is in milliseconds in an int. */
#define SETTINGS_JOBS_MAX	64
#define SETTINGS_TIMEOUT_MAX	(INT_MAX / 1000)

/* The longest a box's name may be; names are [A-Za-z0-9._-]. */
#define SETTINGS_BOXNAME_MAX	64

/* One box block; a string not given is "", a number -1. */
struct settings_box {
	char		name[SETTINGS_BOXNAME_MAX];
	unsigned long	line;		/* of its "box" line */
	char		host[256];
	char		ssh_config[1024];
	char		ltproot[1024];
	char		box_master[1024];
	char		kconfig[1024];
	char		reboot_cmd[1024];
	char		console[1024];
	char		qemu[4096];
	int		box_wait;	/* seconds */
	int		skip_culprit;	/* 1 yes, 0 no */
	int		reset_on_taint;
	int		qemu_snapshot;
};

/* What the file set; has_* say which lines were there. */
struct settings {
	int	has_theme;
	char	theme[256];
	int	has_timeout;
	int	timeout;	/* seconds, 0: none */
	int	has_jobs;
	int	jobs;
	int	has_host;
	char	host[256];
	int	has_ssh_config;
	char	ssh_config[1024];
	int	has_box_master;
	char	box_master[1024];
	int	has_reboot_cmd;
	char	reboot_cmd[1024];
	int	has_box_wait;
	int	box_wait;	/* seconds, 0: no wait */
	char	path[1100];	/* the file read, for messages */
	struct settings_box *boxes;	/* owned; settings_free() */
	size_t	nboxes;
	int	has_reset_on_taint;
	int	reset_on_taint;
	int	has_kernel_src;
	char	kernel_src[1024];	/* a NetBSD tree (kindex.h) */
	int	has_source_url;
	char	source_url[1024];	/* %f file, %l line */
	int	has_ltp_src;
	char	ltp_src[1024];
	int	has_linux_git_url;
	char	linux_git_url[1024];
};

void	settings_init(struct settings *);
void	settings_free(struct settings *);
/* The box of that name, or NULL. */
const struct settings_box *settings_box(const struct settings *,
	    const char *name);
/*
 * Applies the lines of buf (len bytes; name in messages) over *s.
 * Returns the number of errors added to dl.
 */
int	settings_parse(struct settings *, const char *name, const char *buf,
	    size_t len, struct diaglist *);
/*
 * The same for a file.  A missing file is no error (returns 0, nothing
 * in dl); an unreadable one returns -1 with a diagnostic.
 */
int	settings_load_file(struct settings *, const char *path,
	    struct diaglist *);

#endif
