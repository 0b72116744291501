/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The subcommands' small CLI layer: opening the results database named
 * by -d (or the default one), reading a run argument (a number or
 * "last"), the rules, categories and tables the triage subcommands
 * load, and printing what went wrong, so that every subcommand says
 * the same thing the same way ("ltpscope: CMD: ..." for the
 * subcommand's own words, "ltpscope: FILE: error: ..." for a
 * diagnostic).  Program code: prints to stdout and stderr, so it
 * belongs to the program, not to the core.
 */
#ifndef LTPSCOPE_CLI_H
#define LTPSCOPE_CLI_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "ltpscope/catalogue.h"
#include "ltpscope/categories.h"
#include "ltpscope/diag.h"
#include "ltpscope/rules.h"
#include "ltpscope/store.h"

/* "ltpscope: cmd: " ("ltpscope: " for NULL) and the message on stderr. */
void	cli_error(const char *cmd, const char *fmt, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
void	cli_verror(const char *cmd, const char *fmt, va_list)
	    __attribute__((__format__(__printf__, 2, 0)));
/* Every diagnostic of dl on stderr, "ltpscope: FILE: error: ..." */
void	cli_diags(const struct diaglist *);
/*
 * For a QEMU box whose ssh never answered: on stderr, what its console
 * wrote since QEMU started (the last lines), or that it wrote nothing.
 */
struct qemubox;
void	cli_box_console(const struct qemubox *);

/* cli_open(): a database that does not exist is no error. */
#define CLI_MISSING_OK	0x01

/*
 * Opens db (NULL: the default database) read-write, never creating it,
 * and judges its verdicts again under the current rules
 * (cli_rejudge()).  Returns 0 and sets *stp, which the caller closes;
 * 1 after printing why.  A database that does not exist is said the
 * same way by every subcommand, "ltpscope: PATH: no such database; no
 * runs yet"; with CLI_MISSING_OK it is then 0 with *stp NULL.
 */
int	cli_open(const char *db, int flags, struct store **stp);
/* Whether word has the shape of a run argument: digits or "last". */
int	cli_is_run_word(const char *word);
/*
 * A run number or "last" (the newest run), which must be in the
 * store; 0 after printing why ("ltpscope: cmd: 'x' is not a run
 * number (see ltpscope runs)" or the store's "no run N").
 */
int64_t	cli_run(struct store *, const char *arg, const char *cmd);
/*
 * What "show RUN" and "export-logs RUN" share: runarg must have the
 * shape of a run argument (else 2, after a message naming cmd), the
 * database (db, or the default) must exist and hold the run (else 1,
 * after a message).  0 sets *stp, which the caller closes, and
 * *run_idp.
 */
int	cli_open_run(const char *db, const char *runarg, const char *cmd,
	    struct store **stp, int64_t *run_idp);

/* Prints "run N was interrupted while TEST was running" warnings. */
void	cli_warn_interrupted(struct store *);
/* "2026-12-03 06:51:00" in UTC, or "-" for 0. */
void	cli_time(int64_t, char *, size_t);
/*
 * A short field (label, host) fit for a table: control bytes become
 * '?'.  Returns one of two static buffers, so two may share a printf.
 */
const char	*cli_field(const char *);

/*
 * The rules that judge verdicts (the user's, then data/rules), after
 * printing any error in them; NULL (after printing why) when data/rules
 * cannot be read.  The caller frees with rules_free().
 */
struct rules	*cli_verdict_rules(void);
/*
 * Judges again the results that rules (may be NULL: loaded here) did
 * not judge (verdict_rejudge()); a store that cannot be written keeps
 * its verdicts, with a warning.  cli_open() calls it.
 */
void	cli_rejudge(struct store *, struct rules *);
/* --author, else $LTPSCOPE_AUTHOR, $USER, $LOGNAME; never NULL. */
const char	*cli_author(const char *opt);
/* Default categories (+ the user's); -1 after printing why. */
int	cli_categories(struct categories *);
/* Default rules (user's first); NULL after printing why. */
struct rules	*cli_rules(const struct categories *);
/*
 * The syscall tables given (-m), else the default one if there is
 * any, with Linux's names; NULL after printing an error in a table
 * given.
 */
struct catalogue	*cli_catalogue(const char *const *tables, size_t n);
/*
 * The configuration file (settings.h) into *s, what is wrong in it
 * printed as warnings: a subcommand goes on with what it could read.
 */
struct settings;
void	cli_settings(struct settings *s);

struct kindex;
struct settings;
/* The config file's settings (settings.h); bad lines said on stderr. */
void	cli_settings(struct settings *);
/*
 * Indexes the kernel tree opt names (NULL: the config's kernel-src,
 * else /usr/src), cached in st (may be NULL).  0, or 1 after saying on
 * stderr where it looked and how to point at a tree; with
 * CLI_KINDEX_QUIET, a missing default tree is not said.
 */
#define CLI_KINDEX_QUIET	0x01
int	cli_kindex(const char *opt, const struct settings *, struct store *,
	    struct kindex *, int flags);

#endif
