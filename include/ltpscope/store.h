/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The results store: one SQLite database holding every run, every
 * test result and every test's exact output, built to survive kill -9
 * and kernel panics (WAL, synchronous=FULL, one transaction per step).
 *
 * Crash protocol, as the runner uses it:
 *	store_run_begin()	the run and its planned tests (the queue)
 *	store_test_start()	commits a TS_RUNNING row before the test runs
 *	store_test_finish()	replaces it with result + output, atomically
 *	store_run_end()		marks the run finished
 * A run whose process died leaves a TS_RUNNING row (or none, if it died
 * between tests); store_interrupted_runs() finds it on the next open and
 * store_run_resume() marks that test TS_INTERRUPTED and returns the
 * queued tests that have no result yet, so no test runs twice.
 *
 * A live run holds an fcntl lock on "<db>-lock" (see store_lock.c) so
 * that a run in progress in another process is never mistaken for an
 * interrupted one.  One process writes runs into one database at a time.
 *
 * Per-run counts and the latest result of each test are kept by
 * triggers (store_schema.c), so listing 200 runs of 1,300 results, or
 * the latest results, reads a few thousand rows at most.
 *
 * Ownership: every struct and string the store_* functions hand out is
 * malloc'd and belongs to the caller, who releases it with the matching
 * *_free function.  Errors go to the diaglist as "DBFILE: error: ...",
 * always naming the database file.
 */
#ifndef LTPSCOPE_STORE_H
#define LTPSCOPE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/diag.h"
#include "ltpscope/status.h"

/* Schema version this code writes; older files are migrated on open. */
#define STORE_SCHEMA_VERSION	12
/* Output kept per test; beyond it the stored text ends with a note. */
#define STORE_OUTPUT_CAP	(16u * 1024 * 1024)
/* How long a writer waits for another ltpscope to release the file. */
#define STORE_BUSY_TIMEOUT_MS	5000

/* Sizes of a result's verdict inputs and of the rules' fingerprint. */
#define STORE_RAW_MAX		256
#define STORE_JUDGED_MAX	24

/* Return codes of every store_* function that can fail. */
enum store_err {
	STORE_OK = 0,
	STORE_ELOCKED,		/* another process held the lock too long */
	STORE_EREADONLY,	/* file, directory or open mode is read-only */
	STORE_ECANTOPEN,	/* cannot create or open the file */
	STORE_EFULL,		/* disk (or max_page_count) full */
	STORE_ECORRUPT,		/* the file is damaged */
	STORE_ENOTADB,		/* not an SQLite database at all */
	STORE_ENEWER,		/* schema newer than this ltpscope knows */
	STORE_ENOTFOUND,	/* no such run, result or test */
	STORE_EIO,		/* any other SQLite or system error */
	STORE_EINVAL		/* bad argument (e.g. no HOME) */
};

/* Flags for store_open(). */
#define STORE_READONLY	0x01	/* SQLITE_OPEN_READONLY; writers fail */
#define STORE_CREATE	0x02	/* create the file if missing */
#define STORE_MKDIRS	0x04	/* also create missing parent directories */
#define STORE_IF_EXISTS	0x08	/* store_open_db(): a missing file is fine */
#define STORE_WRITE	0x10	/* the caller writes: a database (or its
				   log) this user may not write is an error
				   at once, not at the first write */

enum store_run_state {
	RUN_RUNNING = 0,
	RUN_FINISHED,
	RUN_INTERRUPTED,
	RUN_RESUMED,		/* resumed, now running again */
	RUN__COUNT
};

struct store;			/* one open database; opaque */

/* A run: what was tested where.  Strings are never NULL when read. */
struct store_run {
	int64_t		 id;
	char		*host;
	char		*uname;		/* full uname -a style string */
	char		*os_name;	/* "NetBSD", "Linux" */
	char		*os_version;	/* "11.0", "6.1.0-18-amd64" */
	char		*arch;
	char		*ltp_version;
	char		*label;
	char		*config;	/* free-form "key=value\n" lines */
	int		 timeout_s;	/* per-test timeout the run used */
	int64_t		 pid;		/* process that ran it */
	int64_t		 started;	/* Unix seconds */
	int64_t		 ended;		/* 0 while running */
	enum store_run_state state;	/* as listed: a dead "running" run
					   reads as RUN_INTERRUPTED */
	/* Filled by store_list_runs() and store_get_run(): */
	unsigned	 counts[TS__COUNT];	/* results per status */
	unsigned	 nenvmarked;	/* pass or conf with an env warning */
	unsigned	 nkmarked;	/* the kernel warned or was tainted
					   (store_result_kmsg_marked) */
	unsigned	 nqueued;	/* tests planned */
};

/* One test of the queue: what the runner is to run, in order. */
struct store_queue_item {
	int64_t		 pos;		/* 0-based order in the run */
	char		*tag;		/* runtest tag, e.g. "abort01" */
	char		*syscall;	/* may be "" */
	char		*cmdline;	/* may be "" */
	char		*notrun;	/* why the run ruled it out when it
					   began (engine_test.notrun); NULL
					   or "": it runs */
	int		 named;		/* named by the user: runs though a
					   skip list names it
					   (engine_test.explicit) */
	int		 parallel;	/* may run beside others (-j) */
	char		*conflicts;	/* conflict groups, "a,b"; NULL or
					   "": none (engine_test) */
};

/*
 * What the kernel said while a test ran (kmsg.h), as stored: its log's
 * new lines and the taint flags before and after (-1: unknown).
 */
struct store_kmsg {
	const char	*text;		/* len bytes; read back: malloc'd,
					   NUL-terminated */
	size_t		 len;
	unsigned	 nlines;
	unsigned	 nwarn;
	unsigned	 nlost;
	int		 capped;
	long long	 taint_before;
	long long	 taint_after;
};

/* One result; counts are those of LTP's summary or of its lines. */
struct store_result {
	int64_t		 id;
	int64_t		 run_id;
	int64_t		 seq;		/* order of execution in the run */
	char		*tag;
	char		*syscall;
	enum test_status status;
	int		 exit_code;	/* -1 when killed by a signal */
	int		 signal;	/* 0 when it exited */
	int64_t		 duration_ms;
	unsigned	 npass, nfail, nbroken, nconf, nwarn;
	unsigned	 nenvwarn;	/* TWARN lines that are the
					   environment's (rules.h) */
	int64_t		 started;	/* Unix seconds */
	int64_t		 ended;
	/* Written, not read back: what judged the verdict (verdict.h). */
	char		 raw[STORE_RAW_MAX];	/* ltpout_raw_format(); ""
						   if not recorded */
	char		 judged[STORE_JUDGED_MAX];	/* rules' digest */
	const struct store_kmsg *kmsg;	/* the kernel's lines; NULL or
					   empty and untainted: none */
	/* Filled when read back (zero when no output was stored): */
	int64_t		 output_size;	/* original size in bytes */
	int64_t		 stored_size;	/* bytes kept */
	int		 capped;
	/* The kernel's lines during it (zero when there were none): */
	unsigned	 kmsg_lines;
	unsigned	 kmsg_warnings;
	int		 kmsg_tainted;	/* its taint flags changed */
};

/* A run that died, and the test(s) it was running when it did. */
struct store_interrupted {
	int64_t		 run_id;
	char		*label;
	int64_t		 started;
	char		**running;	/* tags left in TS_RUNNING */
	size_t		 nrunning;	/* 0: it died between tests */
};

/* A test's output as stored: exact bytes, NUL-terminated for ease. */
struct store_output {
	char		*data;		/* stored_size bytes + a '\0' */
	size_t		 stored_size;
	int64_t		 original_size;
	int		 capped;
};

/*
 * Resolves $LTPSCOPE_DB if set, else $XDG_DATA_HOME/ltpscope/ltpscope.db,
 * falling back to $HOME/.local/share/ltpscope/ltpscope.db (a relative
 * XDG_DATA_HOME is ignored, as the XDG spec asks).  Creates nothing.  *pathp is malloc'd.
 */
int	store_default_path(char **pathp, struct diaglist *);

/*
 * Opens (and with STORE_CREATE creates) the database and migrates an
 * older schema.  On failure *stp is NULL and the diaglist says why.
 */
int	store_open(struct store **stp, const char *path, int flags,
	    struct diaglist *);
/*
 * What the subcommands' -d means: opens db, or the default database
 * (store_default_path()) when db is NULL.  With STORE_IF_EXISTS a file
 * that does not exist yet is no error: STORE_OK with *stp NULL.  When
 * pathp is not NULL it gets the path tried, malloc'd for the caller to
 * free (NULL when there was no default).
 */
int	store_open_db(struct store **stp, const char *db, int flags,
	    char **pathp, struct diaglist *);
/* Closes; releases a run lock this process held.  NULL is fine. */
void	store_close(struct store *);
const char *store_path(const struct store *);
/* Schema version of the open file (after migration). */
int	store_schema_version(struct store *);
/* For tests and config: per-test output cap (0: STORE_OUTPUT_CAP). */
void	store_set_output_cap(struct store *, size_t);
/* For tests: how long writers wait for a lock. */
void	store_set_busy_timeout(struct store *, int ms);
/* The open sqlite3 handle, for tests only (void * keeps sqlite3.h out). */
void	*store_sqlite_handle(struct store *);

/* --- writing a run (the runner) --- */

/*
 * Creates a run from *run (id, pid, started, state and the counts are
 * set here; started is taken from run->started when non-zero) with its
 * queue, in one transaction, and locks it as live.  run->id is set.
 */
int	store_run_begin(struct store *, struct store_run *run,
	    const struct store_queue_item *queue, size_t nqueue,
	    struct diaglist *);
/*
 * Replaces a run's config lines (what --resume needs, e.g. where its
 * TMPDIRs are), committed before the caller goes on.
 */
int	store_run_set_config(struct store *, int64_t run_id,
	    const char *config, struct diaglist *);
/*
 * Marks the run finished (or another state) and sets ended.  In a
 * batch it is one of the batch's steps: the run stays locked as live
 * until the batch's commit has made the end durable, so that nobody
 * takes it for dead in between.
 */
int	store_run_end(struct store *, int64_t run_id,
	    enum store_run_state, struct diaglist *);
/*
 * Commits a TS_RUNNING row for tag before the test starts; *result_idp
 * names it for store_test_finish().  seq is the order of execution.
 */
int	store_test_start(struct store *, int64_t run_id, const char *tag,
	    const char *syscall, int64_t seq, int64_t *result_idp,
	    struct diaglist *);
/*
 * Replaces the running row with the result and its output (len exact
 * bytes, any content) in one transaction.  Output beyond the cap is cut
 * and a note appended; the original size is kept: r->output_size when
 * it is larger than len (the caller kept only the head of a flood).
 */
int	store_test_finish(struct store *, int64_t result_id,
	    const struct store_result *, const void *output, size_t len,
	    struct diaglist *);

/*
 * An output to store that is not held whole in memory (a spool file):
 * read() copies its bytes [off, off + len) into buf, returning 0, or -1
 * with errno set.  len bytes are there, of total the test wrote.
 */
struct store_outsrc {
	int		(*read)(void *arg, void *buf, size_t len,
			    uint64_t off);
	void		*arg;
	uint64_t	 len;
	uint64_t	 total;
};

/*
 * store_test_finish() with the output read from src in pieces, written
 * into the database in place: a 16 MiB output costs a buffer of 64 KiB.
 */
int	store_test_finish_src(struct store *, int64_t result_id,
	    const struct store_result *, const struct store_outsrc *,
	    struct diaglist *);

/*
 * Appends len bytes to a finished result's output (kept under the cap
 * as store_test_finish() keeps it), in one transaction: what the
 * kernel said about a crash, read once the box is back (crashlog.h).
 */
int	store_output_append(struct store *, int64_t result_id,
	    const void *text, size_t len, struct diaglist *);

/*
 * One fsync for several steps: between store_batch_begin() and
 * store_batch_end(), each writing step above still succeeds or fails
 * whole, but none is durable (nor visible to others) until
 * store_batch_commit() or store_batch_end() commits them all at once;
 * a failed commit loses them all.  The engine commits a test's result
 * with the next test's running row this way, before that test starts.
 */
void	store_batch_begin(struct store *);
int	store_batch_commit(struct store *, struct diaglist *);
int	store_batch_end(struct store *, struct diaglist *);

/*
 * For a moment nobody waits on (the engine: a test has just started).
 * Once the write-ahead log has grown past STORE_WAL_CYCLE pages, copies
 * it into the database, so that the next commits write over the log's
 * first pages again instead of growing the file: an fsync that also
 * has to record a new file size costs about twice one that does not
 * (ext4).  Best effort, never blocks on another process: a reader in
 * the way only leaves the log to grow until the next call.
 */
#define STORE_WAL_CYCLE		256
void	store_checkpoint_idle(struct store *);

/*
 * each (the default): every commit reaches the disk before it returns
 * (synchronous=FULL), as it must where the kernel that may panic is the
 * one holding the database.  0: a commit is whole and survives kill -9
 * (it is in the kernel's cache) but reaches the disk only at a
 * checkpoint or the next commit made with each set (synchronous=NORMAL):
 * for a run on a box, whose panic this machine outlives.  Setting it
 * again makes every commit made since durable at once (the write-ahead
 * log is synced).  STORE_OK or an error (dl).
 */
int	store_sync_each(struct store *, int each, struct diaglist *);

/* --- crashes and resume --- */

/* Runs left "running" by a dead process, newest first. */
int	store_interrupted_runs(struct store *, struct store_interrupted **vp,
	    size_t *np, struct diaglist *);
void	store_interrupted_free(struct store_interrupted *, size_t);
/*
 * Resumes a dead run: its TS_RUNNING tests become TS_INTERRUPTED (with
 * a note that it likely crashed the system), the run becomes
 * RUN_RESUMED and is locked as live, and *qp gets the queued tests that
 * have no result, in queue order.  STORE_EINVAL if the run is live.
 */
int	store_run_resume(struct store *, int64_t run_id,
	    struct store_queue_item **qp, size_t *np, struct diaglist *);
void	store_queue_free(struct store_queue_item *, size_t);

/* --- queries (UI and CLI) --- */

/*
 * Many queries as one snapshot (a list, a report): one read
 * transaction instead of one lock and unlock per statement.  Pairs
 * nest; nothing may be written in between.
 */
int	store_read_begin(struct store *, struct diaglist *);
void	store_read_end(struct store *);

/* All runs, newest first, with counts per status. */
int	store_list_runs(struct store *, struct store_run **vp, size_t *np,
	    struct diaglist *);
/* One run with counts; STORE_ENOTFOUND if there is none. */
int	store_get_run(struct store *, int64_t run_id, struct store_run *,
	    struct diaglist *);
/* Id of the newest run; STORE_ENOTFOUND when the store is empty. */
int	store_latest_run(struct store *, int64_t *idp, struct diaglist *);
/*
 * The results of the last m runs up to run_id on run_id's system (same
 * uname, OS, OS version, arch and LTP version), none still running, to
 * fn run by run, the oldest first, within a run in no set order (the
 * result's id tells which came last); fn returning non-zero stops early.
 * Without with_run, the m runs before run_id: for a caller who has its
 * results already.
 */
int	store_recent_history(struct store *, int64_t run_id, unsigned m,
	    int with_run, int (*fn)(void *, const char *tag, size_t taglen,
	    int64_t run_id, int64_t result_id, enum test_status), void *,
	    struct diaglist *);
void	store_run_clear(struct store_run *);
/* *dst made a copy of *src that owns its own strings. */
void	store_run_copy(struct store_run *dst, const struct store_run *src);
void	store_runs_free(struct store_run *, size_t);
/* Results of a run in execution order. */
int	store_run_results(struct store *, int64_t run_id,
	    struct store_result **vp, size_t *np, struct diaglist *);
/* The result of tag in a run (the last one if it ran twice). */
int	store_find_result(struct store *, int64_t run_id, const char *tag,
	    struct store_result *, struct diaglist *);
/*
 * Last n results of tag across runs, newest first (history strips); a
 * test running right now shows as TS_RUNNING.
 */
int	store_test_history(struct store *, const char *tag, size_t n,
	    struct store_result **vp, size_t *np, struct diaglist *);
/* Newest result (not TS_RUNNING) of every test, ordered by tag. */
int	store_latest_results(struct store *, struct store_result **vp,
	    size_t *np, struct diaglist *);
/*
 * The same tests' newest statuses only, ordered by tag: fn(arg, tag,
 * syscall, status) for each, the strings valid during the call.  Much
 * lighter than store_latest_results(): what the catalogue counts.
 */
typedef void	store_status_fn(void *, const char *, const char *,
		    enum test_status);
int	store_latest_statuses(struct store *, store_status_fn *, void *,
	    struct diaglist *);
void	store_result_clear(struct store_result *);
void	store_results_free(struct store_result *, size_t);
/*
 * Sets r's five counts from a test's parsed output: LTP's summary when
 * the test printed one, else the TPASS, TFAIL... lines seen.
 */
struct ltpout_tally;
void	store_result_counts(struct store_result *,
	    const struct ltpout_tally *);
/* Output of one result; STORE_ENOTFOUND when none was stored. */
int	store_get_output(struct store *, int64_t result_id,
	    struct store_output *, struct diaglist *);
/*
 * The same for a result store_run_results() read in the read
 * transaction still open (store_read_begin()), whose sizes it has:
 * only the output itself is read.
 */
int	store_get_output_of(struct store *, const struct store_result *,
	    struct store_output *, struct diaglist *);
void	store_output_clear(struct store_output *);
/*
 * The same output handed to fn in order, at most 64 KiB a call, never
 * held whole (the explorer's pane keeps only its newest lines).  *o
 * gets the sizes and the capped flag; its data stays NULL.
 */
int	store_read_output(struct store *, int64_t result_id,
	    void (*fn)(void *, const char *, size_t), void *arg,
	    struct store_output *o, struct diaglist *);

/*
 * The kernel's lines during a result's test; STORE_ENOTFOUND when it
 * said nothing.  Free k->text (malloc'd) with store_kmsg_clear().
 */
int	store_get_kmsg(struct store *, int64_t result_id, struct store_kmsg *k,
	    struct diaglist *);
void	store_kmsg_clear(struct store_kmsg *);
/* 1 if a result gets the kernel mark: a kernel warning or new taint. */
int	store_result_kmsg_marked(const struct store_result *);

/* --- judging again (verdict.c) --- */

/* One result to judge again; the callback sets the three last fields. */
struct store_judge {
	int64_t		 id;
	enum test_status status;	/* as stored */
	int		 exit_code;
	int		 signal;
	unsigned	 nenvwarn;
	const char	*raw;		/* "" for rows older than schema 4 */
	const char	*output;	/* stored output, NUL-terminated */
	size_t		 outlen;
	enum test_status new_status;	/* preset to the stored values */
	unsigned	 new_nenvwarn;
	char		 new_raw[STORE_RAW_MAX];
};
typedef void	(*store_judge_fn)(void *arg, struct store_judge *);

/*
 * Judges again, in one write transaction, the results not yet judged
 * under the rules whose fingerprint is digest and that the rules could
 * change (pass, broken, conf, warn or unknown with warnings, or rows
 * from before schema 4), then marks every result judged by digest.
 * *nchangedp (may be NULL) gets how many verdicts changed.  Cheap when
 * nothing is left to judge: one look-up in an index, nothing written.
 */
int	store_rejudge(struct store *, const char *digest, store_judge_fn,
	    void *arg, unsigned *nchangedp, struct diaglist *);

const char	*store_run_state_name(enum store_run_state);

#endif
