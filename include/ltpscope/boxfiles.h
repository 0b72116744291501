/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a run on a box selects from, read from the box itself: its
 * compat_linux syscalls.master, the runtest files and LTP's metadata of
 * its LTP install, so that nothing of the box needs a copy here.  Each
 * file is read whole through the run's master connection (remote.h)
 * and kept in a cache directory of the caller's (a box's own), where
 * the suite loads it as it loads local files; a file is replaced only
 * once it has come whole.
 *
 * Ownership: the boxfiles owns its strings until boxfiles_free().
 */
#ifndef LTPSCOPE_BOXFILES_H
#define LTPSCOPE_BOXFILES_H

#include <stddef.h>

#include "ltpscope/diag.h"
#include "ltpscope/suite.h"

struct remote;

/* The box's syscalls.master when none is named; %m: its uname -m. */
#define BOXFILES_MASTER	"/usr/src/sys/compat/linux/arch/%m/syscalls.master"

/* What to read; the strings are borrowed. */
struct boxfiles_req {
	const char		*cachedir;	/* made if missing */
	int			 want_master;
	const char		*master;	/* on the box; NULL: the
						   default, %m as there */
	int			 want_runtests;
	const char *const	*runtests;	/* names in $LTPROOT/runtest;
						   none: syscalls (and
						   syscalls-ipc if there) */
	size_t			 nruntests;
	int			 want_metadata;	/* $LTPROOT/metadata/ltp.json,
						   when the box has it */
};

struct boxfiles {
	char	*master;	/* the local copy, or NULL: the box has
				   none at the default path (the caller
				   falls back on its own default) */
	char	*master_box;	/* where it was on the box */
	char	**runtests;	/* local copies */
	char	**runtests_box;
	size_t	 nruntests;
	char	*metadata;	/* the local copy, or NULL (none there) */
	char	*metadata_box;	/* where it was looked for */
};

/*
 * Reads what req asks for from the box into req->cachedir.  0, or -1
 * with dl naming the box and the path that could not be read (or the
 * cache file that could not be written); the boxfiles must be freed
 * either way.
 */
int	boxfiles_fetch(struct boxfiles *, const struct remote *,
	    const struct boxfiles_req *, struct diaglist *);
void	boxfiles_free(struct boxfiles *);

/*
 * Where a box's files are kept: boxes/KEY beside the database (dbpath,
 * or the default one), so that a run and what it selected from stay
 * together.  KEY is boxfiles_key()'s.  malloc'd; NULL after an error
 * in dl.
 */
/*
 * The key of a box's files: a named box's name (NAME.box in buf, of
 * len bytes), else its host.  By name, because a QEMU box's host is
 * 127.0.0.1 on another port each time it starts.
 */
const char *boxfiles_key(const char *box, const char *host, char *buf,
	    size_t len);
char	*boxfiles_cachedir(const char *dbpath, const char *host,
	    struct diaglist *);

/*
 * What a suite on a box loads: reads from the box, into cachedir, what
 * so does not name here -- its syscalls.master unless so has tables
 * (box_master, or the default, %m its machine), the runtest files so
 * names bare (paths are local files) or the default ones, its metadata
 * unless so names some or none -- and points so at the copies.
 * *rtallp (the runtest list so then points at, or NULL) is the
 * caller's to free; *localrt and *nlocalrt are the local part of it.
 * 0, or -1 with dl; bf is to be freed either way.
 */
int	boxfiles_suite(struct boxfiles *, const struct remote *,
	    struct suite_opts *, const char *box_master, const char *cachedir,
	    const char ***rtallp, const char *const **localrt,
	    size_t *nlocalrt, struct diaglist *);

#endif
