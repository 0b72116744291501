/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A small TAP producer for ltpscope's unit tests.
 *
 * Each tests/test_*.c is its own program: it calls the checks below and
 * ends with "return tap_done();".  Linking tap.o gives the program a
 * clean environment before main() (see tap_clean_env() in tap.c).  tests/runtests.c runs every program,
 * reads its TAP and prints the closing "N passed, N failed" line.
 */
#ifndef LTPSCOPE_TAP_H
#define LTPSCOPE_TAP_H

#include <sys/types.h>

#include <stddef.h>

/* Each returns its condition so a test can stop early on failure. */
int	tap_ok(int, const char *, int, const char *, ...)
	    __attribute__((__format__(__printf__, 4, 5)));
int	tap_is_int(long long, long long, const char *, int, const char *, ...)
	    __attribute__((__format__(__printf__, 5, 6)));
int	tap_is_str(const char *, const char *, const char *, int,
	    const char *, ...)
	    __attribute__((__format__(__printf__, 5, 6)));
int	tap_has_str(const char *, const char *, const char *, int,
	    const char *, ...)
	    __attribute__((__format__(__printf__, 5, 6)));
void	tap_diag(const char *, ...)
	    __attribute__((__format__(__printf__, 1, 2)));
int	tap_done(void);

/*
 * ../shared (LTPSCOPE_SHARED overrides) holds real material, an extra
 * layer over the fixtures: tap_skip_shared(what) reports what as
 * "# SKIP ../shared not found" and returns 1 when it is absent, so
 * "if (tap_skip_shared(...)) return;" guards a block that reads it.
 */
int	tap_have_shared(void);
int	tap_skip_shared(const char *);
/*
 * Path of ../shared; unguarded, when it is absent, skips the rest of
 * the program (exits through tap_done()).
 */
const char	*tap_shared(void);
/*
 * Layers: checks written against files of ../shared run first on
 * made-up files of the same layout and kind in tests/fixtures/madeup,
 * then on the real ones:
 *	for (i = 0; tap_layer(i); i++)
 *		checks using tap_shared_path(rel);
 * tap_layer(0) selects the made-up layer, tap_layer(1) ../shared (or
 * reports the SKIP and returns 0), anything else ends the loop with
 * ../shared selected again.  tap_layer_real() tells which is selected,
 * for checks that hold only of the real files.
 */
int	tap_layer(int);
int	tap_layer_real(void);
/* rel in the selected layer (../shared unless told), in a static buffer. */
const char	*tap_shared_path(const char *);
/* A fresh temporary directory removed by tap_done(). */
const char	*tap_tmpdir(void);
/*
 * Removes tap_tmpdir() and all in it, as tap_done() does, without a
 * plan (programs that are not tests: the benchmarks), and only in the
 * process that made it: 0, or -1 if rm failed.
 */
int		 tap_tmp_remove(void);
/* Where tap_tmpdir() was made: $TMPDIR as the program found it, or /tmp. */
const char	*tap_tmpbase(void);
/*
 * For a check that runs the ltpscope under test as another user (uid,
 * gid): the tree it was built in may sit in a directory only its owner
 * may enter (a clone in root's 0700 home), so tap_bin() and the data/
 * and themes/ beside it are copied to a directory below tap_tmpdir(),
 * which becomes 0755, and go with it.  Returns the copy (a static
 * buffer), or NULL with the reason in why when it cannot be made or uid
 * cannot reach it even there: the caller SKIPs with that reason.
 */
/*
 * 0 when uid (in group gid) may do mode (as access(2)) to path, 1 when
 * not, -1 when that cannot be found out.  Needs root.
 */
int	tap_user_access(uid_t uid, gid_t gid, const char *path, int mode);
const char	*tap_bin_for_user(uid_t uid, gid_t gid, char *why,
		    size_t len);
/*
 * A fake LTP install at dir: runtest/, and testcases/bin/ with links to
 * the programs of tests/ltpfake/bin named in fakes (NULL-terminated).
 * Run from the repository root.
 */
void	tap_fake_ltproot(const char *dir, const char *const *fakes);
/*
 * In the fake LTP install at dir: testcases/bin/execve99, a test that
 * runs its helper execve_child by name through PATH, as LTP's exec
 * tests run their children; it passes if PATH finds it.
 */
void	tap_fake_helper_test(const char *dir);
struct diaglist;
/* The first message of dl as diag_format() words it, or "". */
const char	*tap_first_diag(const struct diaglist *);
/* Writes text to path (replacing it); a diagnostic if it cannot. */
void	tap_write(const char *path, const char *text);
/* Reads a whole file; NULL if it cannot. Caller frees. */
char	*tap_slurp(const char *, size_t *);
/*
 * The whole line of out (NULL: none) holding needle's first match, in
 * a static buffer; "" when there is none.
 */
const char	*tap_line_of(const char *out, const char *needle);
/* Runs a shell command, captures stdout (and stderr if merge), exit code. */
char	*tap_run(const char *, int *, int);
/*
 * Runs "bin args" with stdin from /dev/null: *out gets its stdout, *err
 * its stderr (both the caller's to free).  Returns the exit status.
 */
int	tap_run3(const char *bin, const char *args, char **out, char **err);
/*
 * Runs the ltpscope under test ($LTPSCOPE_BIN, else ./ltpscope) with the
 * rest of a shell command line made as printf(3) makes it from fmt (so it
 * may quote, redirect and pipe): what tap_run(cmd, status, merge) gives.
 */
char	*tap_cli(int *status, int merge, const char *fmt, ...)
	    __attribute__((__format__(__printf__, 3, 4)));
/*
 * The ltpscope under test as an absolute path: $LTPSCOPE_BIN, else
 * ltpscope, in the directory the program started in.
 */
const char	*tap_bin(void);
/*
 * One run of the ltpscope under test, kept for the checks after it:
 * tap_cmd() frees what r held, runs tap_bin() with the rest of a shell
 * command line made as printf(3) makes it from fmt and stdin from
 * /dev/null, fills r and returns the exit status.  tap_cmd_free() frees
 * the last run.  Start from TAP_CMD_INIT.
 */
struct tap_cmd {
	int	 status;
	char	*out;		/* its stdout */
	char	*err;		/* its stderr */
};
#define TAP_CMD_INIT	{ 0, NULL, NULL }
int	tap_cmd(struct tap_cmd *r, const char *fmt, ...)
	    __attribute__((__format__(__printf__, 2, 3)));
void	tap_cmd_free(struct tap_cmd *r);
/* 1 if prog is on the PATH. */
int	tap_have(const char *prog);
/*
 * Runs headless chromium (no network, a profile of its own under
 * tap_tmpdir()) with opt, e.g. "--dump-dom" or "--screenshot=FILE", on
 * the page at the absolute path page: its stdout, or NULL when chromium
 * is not on the PATH.  Caller frees.
 */
char	*tap_chromium(const char *opt, const char *page);
/* Where needle starts in hay, or -1 (hay NULL too): "comes before". */
long	tap_pos(const char *hay, const char *needle);
/*
 * 1 if the SQLite database db passes PRAGMA integrity_check, opened
 * read-write (a killed writer's WAL is recovered) with a 5 s busy
 * timeout.
 */
int	tap_db_integrity_ok(const char *db);

#define ok(c, ...)		tap_ok(!!(c), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(g, e, ...)	tap_is_int((g), (e), __FILE__, __LINE__, __VA_ARGS__)
#define is_str(g, e, ...)	tap_is_str((g), (e), __FILE__, __LINE__, __VA_ARGS__)
/* Passes when needle occurs in haystack. */
#define has_str(h, n, ...)	tap_has_str((h), (n), __FILE__, __LINE__, __VA_ARGS__)

#endif
