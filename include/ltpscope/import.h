/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Results from elsewhere, as runs in the store, and runs back out in
 * the earlier shell tool's layout.
 *
 *   import_ctp_dir()	a compat_linux_test_project log tree,
 *			DIR/<syscall>/<test>.log (DIR may also hold several
 *			such trees a level or two down), as one run
 *   import_kirk()	kirk's results.json as one run
 *   export_ctp_logs()	a run as DIR/<syscall>/<test>.log, for the shell
 *			tool's comparison (-c)
 *
 * An import goes through the store's crash protocol (store_run_begin
 * with the imported tests as the queue, store_test_start/finish per
 * test, store_run_end), so a crash halfway leaves an interrupted run
 * holding the tests done so far, never a half-written one.  The run's
 * config says where it came from ("source=ctp-logs" or "source=kirk").
 *
 * What the store has no column for is kept in the run's config lines
 * so that an export gives back the shell tool's headers byte for byte:
 *
 *	ctp.keys=date netbsd_version ...	header keys, in file order
 *	ctp.KEY=VALUE				a value every log shares
 *	ctp@SYSCALL/TEST:KEY=VALUE		a value of one log (date)
 *	ctp@SYSCALL/TEST:=KEY KEY ...		one log's own key order,
 *						when it differs
 *
 * syscall_tested is not kept when it names the log's directory, as it
 * does in every log the tool writes.  A log whose header has the same
 * key twice exports it with the first value twice; logs are re-written
 * with one empty line between header and output and LF line ends.
 *
 * Ownership: nothing is kept from the caller's arguments; results are
 * plain counts.  Problems with single files (unreadable, no header,
 * binary) are warnings "file:line: message" in dl and the file is
 * skipped; only what stops the whole operation is an error.
 */
#ifndef LTPSCOPE_IMPORT_H
#define LTPSCOPE_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/diag.h"
#include "ltpscope/status.h"
#include "ltpscope/store.h"

/* How deep below DIR a log may lie: DIR/a/b/<syscall>/<test>.log. */
#define IMPORT_DEPTH_MAX	4
/* Key under which the origin of an imported run is kept in config. */
#define IMPORT_SOURCE_CTP	"ctp-logs"
#define IMPORT_SOURCE_KIRK	"kirk"
#define IMPORT_SOURCE_OWN	"ltpscope-json"

struct rules;

struct import_opts {
	const char	*label;		/* NULL: DIR's name; for kirk
					   "kirk DISTRIBUTION VERSION" */
	/* Called (when not NULL) after each result is stored. */
	void		(*progress)(void *arg, size_t done, size_t total);
	void		*progress_arg;
	struct rules	*rules;		/* envwarn rules (verdict.h); NULL:
					   every warning counts */
	/*
	 * import --reference of this path: a run not made on Linux is
	 * refused with an error naming it, and nothing is stored.
	 */
	const char	*linux_only;
};

struct import_stats {
	int64_t		 run_id;	/* 0 when no run was made */
	unsigned	 ntests;	/* results stored */
	unsigned	 nbad;		/* files or entries skipped */
	unsigned	 counts[TS__COUNT];	/* results per status */
	unsigned	 nenvmarked;	/* pass or conf with an env warning */
};

/*
 * Imports a log tree as one finished run.  Returns 0, or -1 when no run
 * could be made (no logs at all, or the store failed: a run begun is
 * then marked interrupted).
 */
int	import_ctp_dir(struct store *, const char *dir,
	    const struct import_opts *, struct import_stats *,
	    struct diaglist *);

/*
 * Imports kirk's results.json: one result per entry of "results", its
 * tag the entry's test_fqn, its verdict from the log and exit status
 * (test.log, test.retval) by the same rules as ltpscope's own runs, its
 * counts from test.passed/failed/broken/skipped/warnings, its duration
 * from test.duration.  kirk names no syscall: the tag's name less its
 * trailing digits (and a '_' before them) is used ("accept4_01" ->
 * "accept4").  Host, OS and architecture come from "environment".
 * Returns 0, or -1 when the file is not such JSON or the store failed.
 *
 * A file that another ltpscope wrote with "show RUN --format json"
 * (its "run" a number; --with-outputs to bring the outputs too) is
 * imported as that run instead: its statuses and counts as written,
 * its system from the file.
 */
int	import_kirk(struct store *, const char *path,
	    const struct import_opts *, struct import_stats *,
	    struct diaglist *);
/* The syscall import_kirk() guesses from a tag; caller frees. */
char	*import_tag_syscall(const char *tag);

struct export_opts {
	int		 force;		/* overwrite existing files */
};

struct export_stats {
	unsigned	 nwritten;	/* logs written */
	unsigned	 nskipped;	/* not-run, running or unnamable */
};

/*
 * Writes run_id into dir (created if missing) as <syscall>/<tag>.log
 * with the shell tool's header (see above; runs not imported from logs
 * get date, netbsd_version, netbsd_build, arch, ltp_version,
 * script_invocation, syscall_tested, reproducible from the run and the
 * result) plus exit_code when known, then the stored output.  A test
 * with results twice in the run (resumed) gives its last.  Tests not
 * run (skip list) or still running are skipped.  Unless opts->force,
 * nothing is written when any target file exists (error).  Returns 0
 * or -1.
 */
int	export_ctp_logs(struct store *, int64_t run_id, const char *dir,
	    const struct export_opts *, struct export_stats *,
	    struct diaglist *);

/*
 * "Wed, 26 Aug 2026 03:23:42 +0000" (date -R, the logs' date) to Unix
 * seconds; -1 when it is not such a date.  import_format_date() writes
 * the same form in UTC into buf (at least 32 bytes).
 */
int64_t	import_parse_date(const char *);
void	import_format_date(int64_t, char *, size_t);

/*
 * A value from "key=value" config lines, or NULL; caller frees.  Also
 * used by the export for the ctp.* and ctp@* lines above.
 */
char	*import_config_get(const char *config, const char *key);

#endif
