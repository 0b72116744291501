/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Private to src/engine*.c: the engine and its workers, and what the
 * engine's files share.  engine.c (the run: tests started, finished,
 * committed) is above the others; each of those calls only the ones
 * listed after it here.
 */
#ifndef LTPSCOPE_ENGINE_IMPL_H
#define LTPSCOPE_ENGINE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/engine.h"
#include "ltpscope/ipcleft.h"
#include "ltpscope/kmsg.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/remote.h"
#include "ltpscope/runner.h"
#include "ltpscope/spool.h"
#include "ltpscope/store.h"

/*
 * Output spooled for the store (which cuts it to its cap and notes the
 * cut); beyond it only counted.
 */
#define ENGINE_OUTPUT_KEEP	(STORE_OUTPUT_CAP + 4096)
/* How often a caller polling engine_fd() alone must come back. */
#define ENGINE_MULTI_POLL_MS	50
/*
 * Every TMPDIR of a run (and the spare made ahead) goes below one
 * directory of the run's own, named in its config, so that --resume
 * after a kill -9 finds all it left, and nothing else.
 */
#define ENGINE_RUNDIR_PREFIX	"ltpscope-run."
#define ENGINE_RUNDIR_KEY	"tmpdirs="
#define ENGINE_RUNDIR_MODE	0711	/* tests as "nobody" reach theirs */

struct etest {
	char	*tag;
	char	*syscall;
	char	*cmdline;
	char	*notrun;
	char	*conflicts;	/* "" when in no group */
	int	 explicit;
	int	 parallel;
	int64_t	 seq;
};

/* One test in flight: its runner, parser and output. */
struct eworker {
	struct engine		*e;
	size_t			 index;		/* or ENGINE_NO_WORKER */
	struct runner		*r;		/* NULL: idle */
	size_t			 idx;		/* test */
	int64_t			 result_id;
	int64_t			 started;
	int			 serial;	/* runs alone */
	struct ltpout		*parser;
	struct spool		*spool;		/* the output, for the store */
	unsigned long		 envwarn;	/* TWARN lines the rules
						   excuse (verdict.h) */
};

/* A result written but not committed yet, and what to tell of it. */
struct epending {
	struct store_result	 r;
	char			*why;
	size_t			 idx;
	size_t			 worker;
};

struct engine {
	struct store		*st;
	struct engine_opts	 opts;
	struct engine_events	 ev;
	struct etest		*tests;
	size_t			 n;
	size_t			 next;		/* next test to start */
	size_t			 ndone;
	int64_t			 run_id;

	struct eworker		*w;		/* jobs of them */
	size_t			 nw;
	struct runner_spares	*spares;	/* next test's TMPDIR, pty */
	size_t			 nbusy;
	struct eworker		 instant;	/* tests that never start */

	unsigned		 counts[TS__COUNT];
	char			**left;		/* what tests left behind */
	size_t			 nleft;
	char			**cleaned;	/* what we cleaned after */
	size_t			 ncleaned;
	struct ipcleft		*ipc;		/* SysV IPC before the tests
						   running now, or NULL */
	struct ipcleft		*ipc_after;	/* what the last sweep left:
						   the next test's "before"
						   when nothing ran since */
	long long		 ipc_after_ms;	/* when, monotonic */
	long long		 euid;
	char			 ipc_tags[160];	/* those tests */
	unsigned		 ipc_ntests;
	unsigned		 nenvmarked;
	int			 lazy;		/* commits not synced each
						   (store_sync_each()) */
	int			 box_lost;
	char			*lost_test;	/* the culprit, or NULL */
	char			*blamed;	/* engine_blame()'s test */
	char			*lost_why;	/* engine_box_gone()'s */
	int64_t			 lost_result;	/* its crash result */
	int			 stop_all;
	int			 finished;
	char			*rundir;	/* parent of the TMPDIRs */
	char			*ltproot;	/* absolute, where local */
	char			*kconfig;	/* found once; "": none */
	struct kmsg		*kmsg;		/* this machine's log, or NULL */
	char			 kmsg_why[300];	/* why there is none */
	unsigned		 nkmarked;	/* tests the kernel marked */
	char			*reset_test;	/* tainted the box: reset it */
	struct epending		*pending;	/* told after the commit */
	size_t			 npending;
	size_t			 ncommitted;	/* of them, committed */
};

/* engine_pick.c */
int	engine_conflicting(const struct engine *, const struct etest *);
int	engine_instant(const struct engine *, const struct etest *);
size_t	engine_pick(const struct engine *);
int	engine_can_start(const struct engine *);

/* engine_crash.c */
void	engine_lose_box(struct engine *);
int	engine_crash(struct engine *, struct eworker *, double,
	    struct diaglist *);

/* engine_rundir.c */
int	engine_rundir_make(struct engine *, struct diaglist *);
char	*engine_rundir_of(const char *);
void	engine_rundir_clean(struct engine *, const char *);
char	*engine_config_with_rundir(const char *, const char *);

/* engine_system.c */
void	engine_describe_remote(struct store_run *, const struct remote *);

/* engine_leftover.c */
void	engine_cleaned(struct engine *, struct eworker *, const char *,
	    const char *);
void	engine_ipc_begin(struct engine *, const char *);
void	engine_ipc_end(struct engine *, struct eworker *);
void	engine_leftover(struct engine *, const char *, const char *);

/* engine_output.c, below the others */
void	engine_line_cb(const struct ltpout_line *, void *);
void	engine_output_cb(void *, const char *, size_t);
/* A line of ltpscope's own, stored with the output and shown live. */
void	engine_meta(struct eworker *, const char *, ...)
	__attribute__((__format__(__printf__, 2, 3)));
void	engine_reset_output(struct eworker *);
int	engine_record(struct engine *, struct eworker *,
	    struct store_result *, const char *, struct diaglist *);
int	engine_record_kmsg(struct engine *, struct eworker *,
	    struct store_result *, const char *, struct kmsg_take *,
	    struct diaglist *);

#endif
