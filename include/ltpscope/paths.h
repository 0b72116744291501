/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where ltpscope finds its files: the data directory (categories, rules,
 * skip list, kernel config, demo) and the themes, whether it runs from a
 * source tree or from an installed prefix.
 */
#ifndef LTPSCOPE_PATHS_H
#define LTPSCOPE_PATHS_H

#include <stddef.h>

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

#endif
