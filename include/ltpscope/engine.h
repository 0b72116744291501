/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine: runs a queue of LTP tests one after another, each through
 * the runner, its output through the LTP output parser, and every step
 * into the store under the crash protocol (a "running" row committed
 * before a test starts, the result and output replacing it after).
 * `ltpscope run` and the explorer drive the same engine, so a result is
 * stored the same way whichever started it.
 *
 * Like the runner it never blocks: the caller polls the descriptors of
 * engine_pollfds() with engine_poll_timeout() and calls
 * engine_service().  engine_run() is that loop for callers that can
 * wait.
 *
 * Parallel runs (opts.jobs > 1): tests marked parallel run up to jobs
 * at a time, each in a worker of its own (its own runner, TMPDIR,
 * parser and output); a test not marked parallel runs alone, after the
 * workers drained.  Tests of one conflict group never run at once: when
 * the next test's group is busy, a later parallel test that is free to
 * run goes first.  Every test still gets its TS_RUNNING row before it
 * starts, so a crash leaves one such row per worker and --resume marks
 * them all interrupted.
 *
 * Ownership: the engine copies the tests it is given and borrows the
 * store, skip list and options, which must outlive it.
 */
#ifndef LTPSCOPE_ENGINE_H
#define LTPSCOPE_ENGINE_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "ltpscope/diag.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/runner.h"
#include "ltpscope/skiplist.h"
#include "ltpscope/status.h"
#include "ltpscope/store.h"

/* One test to run. */
struct engine_test {
	const char	*tag;
	const char	*syscall;	/* "" when unmapped */
	const char	*cmdline;
	int		 explicit;	/* named by the user: the skip list
					   warns instead of skipping it */
	const char	*notrun;	/* non-NULL: ruled out beforehand
					   ("not runnable here: needs
					   root"): not started, stored as
					   TS_CONF (one TCONF), as LTP's
					   own check would have it */
	int		 parallel;	/* may run beside others (-j) */
	const char	*conflicts;	/* conflict groups ("sysv-shm,x",
					   conflicts.h); NULL or "": none.
					   Never two of a group at once */
};

/* The worker index of events about a test that never started. */
#define ENGINE_NO_WORKER	((size_t)-1)

/* What the engine tells its caller as it goes; any member may be NULL. */
struct engine_events {
	void	(*test_start)(void *, const char *tag, size_t idx, size_t n);
	/* A skip-list entry matched a test that runs anyway. */
	void	(*skip_warning)(void *, const char *tag, const char *reason);
	/* Each classified line of output, as it arrives. */
	void	(*line)(void *, const struct ltpout_line *);
	/* The stored result; why explains the verdict. */
	void	(*test_end)(void *, const struct store_result *,
		    const char *why, size_t idx, size_t n);
	void	*arg;
	/*
	 * The same three with the worker (0 .. jobs-1, or
	 * ENGINE_NO_WORKER) that runs the test; called after the ones
	 * above.  With -j the output of several tests interleaves: use
	 * worker_line to keep it apart.
	 */
	void	(*worker_start)(void *, size_t worker, const char *tag,
		    size_t idx, size_t n);
	void	(*worker_line)(void *, size_t worker,
		    const struct ltpout_line *);
	void	(*worker_end)(void *, size_t worker,
		    const struct store_result *, const char *why, size_t idx,
		    size_t n);
};

struct rules;

struct engine_opts {
	struct runner_opts	 runner;	/* output members are the
						   engine's own */
	const struct skiplist	*skip;		/* may be NULL */
	const char		*label;
	int			 timeout_s;	/* recorded with the run */
	int			 jobs;		/* workers; 0 or 1: serial;
						   recorded with the run, and
						   engine_resume() takes the
						   run's own when this is 0 */
	struct rules		*rules;		/* envwarn rules; may be
						   NULL (verdict.h) */
	int			 reset_on_taint;	/* on a box: stop
						   after a test that changed
						   the kernel's taint flags
						   (engine_reset_due()) */
	int			 durable_each;	/* on a box too, each test's
						   running row on disk before
						   it starts, as a local run's
						   must be (make bench's
						   "before"); else on a box
						   the commits reach the disk
						   at the run's end
						   (store_sync_each()) */
	const char		*config_extra;	/* lines recorded with the
						   run's own for --resume (its
						   sources, skip list, box),
						   in the same commit; may be
						   NULL */
};

struct engine;

/*
 * Starts a new run of tests in the store; the queue is committed in
 * one transaction before anything runs.  NULL on a store error (dl).
 */
struct engine	*engine_new(struct store *, const struct engine_opts *,
		    const struct engine_test *, size_t,
		    const struct engine_events *, struct diaglist *);
/*
 * Resumes run_id: the test it was running becomes "interrupted" and
 * the tests it had not run yet are run.  NULL on error (dl).
 */
struct engine	*engine_resume(struct store *, const struct engine_opts *,
		    int64_t run_id, const struct engine_events *,
		    struct diaglist *);
int64_t		 engine_run_id(const struct engine *);
size_t		 engine_total(const struct engine *);
/* Tests finished so far (run, skipped or failed to start). */
size_t		 engine_done_count(const struct engine *);
/* The tag running now (the first busy worker's), or NULL. */
const char	*engine_current(const struct engine *);
/* How many workers there are (jobs, at least 1). */
size_t		 engine_workers(const struct engine *);
/* The tag worker w is running, or NULL when it is idle. */
const char	*engine_worker_tag(const struct engine *, size_t w);
/* How many workers are busy. */
size_t		 engine_running(const struct engine *);
/* Results so far per status. */
const unsigned	*engine_counts(const struct engine *);
/*
 * What the tests finished so far left behind and the runner could not
 * clean, or had to kill, one line each in the order they ended:
 * "tag: killed 2 processes left behind in the test's session",
 * "tag: tmpdir_left: tmpfs mounted at /tmp/ltpscope.x/mnt".  Sets *n;
 * owned by the engine.
 */
const char *const *engine_leftovers(const struct engine *, size_t *n);
/*
 * What ltpscope cleaned up after the tests finished so far, one line
 * each: "tag: unmounted tmpfs at /tmp/ltpscope.x/mnt".  Sets *n; owned
 * by the engine.
 */
const char *const *engine_cleanups(const struct engine *, size_t *n);
/* Of those, passes and skips with the "env warning" mark. */
unsigned	 engine_env_marked(const struct engine *);
/*
 * 1 when a run on a box (runner_opts.remote) ended because the box
 * stopped answering: the test it was running, if any, is stored as
 * TS_CRASH with the output it gave (others running beside it with -j
 * as TS_INTERRUPTED), and the run is left, still "running", for
 * --resume or the caller to go on with once the box is back.
 */
int		 engine_box_lost(const struct engine *);
/*
 * Why a local run cannot see what the kernel says ("/dev/kmsg:
 * Permission denied"), for the caller to say once; NULL when it can,
 * or the run is on a box.
 */
const char	*engine_kmsg_missing(const struct engine *);
/*
 * With opts.reset_on_taint: the test after which the box's kernel
 * became tainted, when tests were left to run; the run then ended as
 * after a lost box (left "running", for the caller to reset the box
 * and resume).  NULL otherwise.
 */
const char	*engine_reset_due(const struct engine *);
/* Tests so far after which the kernel warned or became tainted. */
unsigned	 engine_kmsg_marked(const struct engine *);
/* The tag of the test the box was lost during, or NULL (between tests). */
const char	*engine_lost_test(const struct engine *);
/* Its crash result (to add the kernel's words to), or 0. */
int64_t		 engine_lost_result(const struct engine *);

/*
 * Fills up to max pollfds (POLLIN) with every busy worker's descriptors,
 * at most ENGINE_NPOLL a worker; returns how many.  Poll them with
 * engine_poll_timeout().
 */
#define ENGINE_NPOLL	2	/* = RUNNER_NPOLL */
size_t		 engine_pollfds(const struct engine *, struct pollfd *,
		    size_t max);
int		 engine_poll_timeout(const struct engine *);
/*
 * Does what is due: starts the next test, reads output, finishes a
 * test.  Returns 1 when the whole queue is done (the run is marked
 * finished or stopped in the store), 0 while work remains, -1 on a
 * store error (dl), after which the run is left as interrupted.
 */
int		 engine_service(struct engine *, struct diaglist *);
/* Stops the current test(s) (x); the queue goes on with the next. */
void		 engine_stop_test(struct engine *);
/* Stops the test worker w runs; the queue goes on. */
void		 engine_stop_worker(struct engine *, size_t w);
/*
 * Stops the current test and the queue (X): the run ends "interrupted"
 * so that --resume can finish it later.
 */
void		 engine_stop_all(struct engine *);
/*
 * The box is known dead (its console told of a panic): each test
 * running there is lost at the next engine_service(), a crash as when
 * the box stops answering (engine_box_lost()), at once.  why words it
 * for the crash's output ("its console told of a panic"); copied.
 */
void		 engine_box_gone(struct engine *, const char *why);
/*
 * The kernel named the task it crashed in (Linux's "Comm: NAME", cut
 * to 15 bytes): of the tests running, the one whose tag or program
 * has that name is the crash, the others (-j) are interrupted and run
 * again.  Without a match (a child of another name, no name: comm
 * NULL or "") the first test found lost is the crash.  Before
 * engine_box_gone().
 */
void		 engine_blame(struct engine *, const char *comm);
/* Runs until done; 0, or -1 on a store error. */
int		 engine_run(struct engine *, struct diaglist *);
void		 engine_free(struct engine *);

/*
 * Orders tests for a parallel run: those that never start first, then
 * the parallel ones, longest expected first (their newest duration in
 * the store; unknown ones after, in their order), then the serial ones
 * in their order.  st may be NULL (no history).  Stable.
 */
void		 engine_order(struct engine_test *, size_t n, struct store *);

/* Fills a run record with this machine's facts (uname, LTP version). */
void		 engine_describe_system(struct store_run *, const char *ltproot);

#endif
