/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where ltpscope finds its files: the data directory (categories, rules,
 * skip list, kernel config, demo) and the themes, whether it runs from a
 * source tree or from an installed prefix; and the other defaults found
 * on the system: the LTP install and the syscall table.  Each is written
 * here once, never relative to the current directory.
 */
#ifndef LTPSCOPE_PATHS_H
#define LTPSCOPE_PATHS_H

#include <stddef.h>

/* Where LTP is installed when neither -L nor $LTPROOT says; on a box too. */
#define PATHS_LTPROOT	"/opt/ltp"

/*
 * The LTP install to use: dir if non-NULL, else $LTPROOT if set and not
 * empty, else PATHS_LTPROOT.  The result is one of those strings, not a
 * copy.
 */
const char	*paths_ltproot(const char *dir);
/*
 * Records argv[0] once at start-up so that a binary run from a source
 * tree (./ltpscope) finds ./data and ./themes beside it.  This is the
 * only state the module keeps, set once before anything else runs.
 */
void	paths_init(const char *);
/* The program as it was started (argv[0]), to run it again. */
const char *paths_program(void);
/* $LTPSCOPE_DATA, else data/ beside the binary, else the install dir. */
void	paths_datadir(char *, size_t);
/*
 * The user's file rel: $XDG_CONFIG_HOME/ltpscope/rel (a relative
 * XDG_CONFIG_HOME is ignored), else $HOME/.config/ltpscope/rel.
 * Returns buf, or NULL (buf "") when neither is set.
 */
const char *paths_config(const char *, char *, size_t);
/* Colon-separated theme directories, the user's first. */
void	paths_themedirs(char *, size_t);
/* The data directory joined with rel. */
void	paths_data(const char *, char *, size_t);
/*
 * The bundled kernel config, the data directory's kconfig (compat_linux's):
 * fills buf and returns it, or NULL when it is not readable.
 */
const char *paths_kconfig(char *, size_t);
/*
 * The syscall table read when none is named: $LTPSCOPE_MASTER, then the
 * running system's /usr/src/sys/compat/linux/arch/MACHINE/syscalls.master,
 * then on Linux the installed asm/unistd_64.h.  Fills buf and returns it,
 * or NULL when none exists.
 */
const char *paths_syscall_table(char *, size_t);
/*
 * path made absolute against the working directory (what a test in its
 * TMPDIR, a box, or a resumed run elsewhere is given); malloc'd.
 */
char	*paths_absolute(const char *path);

#endif
