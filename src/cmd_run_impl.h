/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What ltpscope run's files share and nobody else needs: the command
 * line (struct run_opts), what one run holds (struct run_state), and
 * the run's recorded config (cmd_run_config.c), which --resume replays
 * (cmd_run_resume.c), and a run on a box, what it reads from there and
 * how it goes on when the box goes down (cmd_run_box.c).  Each file
 * calls only those listed after it: cmd_run.c, cmd_run_resume.c,
 * cmd_run_dry.c, cmd_run_box.c, cmd_run_named.c, cmd_run_culprit.c,
 * cmd_run_config.c, cmd_run_loop.c.
 */
#ifndef LTPSCOPE_CMD_RUN_IMPL_H
#define LTPSCOPE_CMD_RUN_IMPL_H

#include <sys/types.h>

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "ltpscope/boxfiles.h"
#include "ltpscope/conflicts.h"
#include "ltpscope/crashlog.h"
#include "ltpscope/engine.h"
#include "ltpscope/qemubox.h"
#include "ltpscope/remote.h"
#include "ltpscope/settings.h"
#include "ltpscope/skiplist.h"
#include "ltpscope/store.h"
#include "ltpscope/suite.h"

#define RUN_MAXJOBS	64
/* Boxes one run command drives side by side (--host ... --host). */
#define RUN_MAXHOSTS	16
/* How often --console is read while tests run on a box (ms). */
#define RUN_WATCH_MS	250
/* How long the console may take to name the crash's task (ms). */
#define RUN_COMM_MS	2000
/* How often a box's run forked by another looks whether it is alive. */
#define RUN_PARENT_MS	500
/* What of --reboot-cmd's output is kept with the crash (bytes). */
#define RUN_REBOOT_KEEP	8192
/* The try right after a crash, for a box up again already (s). */
#define RUN_QUICK_TRY_S	3
/* A try for a box coming back lasts at least this long (s). */
#define RUN_TRY_S	5
/* How long the console may take to say the kernel reboots (ms). */
#define RUN_FATE_MS	3000
/* How long a box rebooting by itself is waited for, before a reset. */
#define RUN_SELF_REBOOT_S	120
/* The runner's timeout is in milliseconds, in an int. */
#define RUN_TIMEOUT_MAX	(INT_MAX / 1000)

struct run_ctx {
	int	tty;		/* stderr is a terminal: progress line */
	int	progress_shown;
	int	verbose;	/* -v: every output line */
	int	jobs;
	struct engine	*e;	/* for the progress line */
	const char *prefix;	/* several boxes: each result line's box */
	struct crashlog_watch *watch;	/* --console, while tests run */
	int	watch_fired;	/* it told of a panic: tests lost */
	char	watch_line[300];	/* that panic line */
	long long watch_ms;	/* when (run_now_ms()), the box not yet
				   given up: waiting for the task's name */
};

/* Lines added to a run's recorded config. */
struct sbuf_lines {
	char	*s;
	size_t	 len;
	size_t	 cap;
};

/*
 * What the command line says; the strings and the lists of -m, -f and
 * --skip are the parsed command line's (struct cmd_args), but for the
 * -s items (ours) and what --resume replays (run_state's).
 */
struct run_opts {
	const char	**tables, **runtests, **skips, **conflicts;
	size_t		  ntables, nruntests, nskips, nconflicts;
	const char	**sysv;
	size_t		  nsys;
	const char	 *dbpath, *ltpdir, *pattern, *label, *timeout_mul;
	const char	 *dev, *kconfig, *metadata;
	const char	 *host, *ssh_config, *reboot_cmd, *console;
	const char	 *box_master;
	const char	 *box;		/* --box, or what --resume found */
	const char	**boxes;	/* every --box */
	size_t		  nboxes;
	const char	 *hosts[RUN_MAXHOSTS];
	size_t		  nhosts;
	long		  box_wait, jobs, timeout_s, grace_ms;
	int		  timeout_given, jobs_given, no_metadata;
	int		  no_skiplist;
	int		  resume, culprit_mode, use_pipe, reproducible;
	int		  reset_on_taint;
	int		  dry, verbose, reference;
	int64_t		  run_id;	/* --resume N; 0: the newest */
	char		**tags;		/* the operands */
	int		  ntags;
};

/*
 * What one run holds from its skip lists to its end; run_state_free()
 * lets go of it all, however far the run got.
 */
struct run_state {
	struct diaglist	  dl;
	struct skiplist	  skip;
	struct conflicts  conf;		/* conflict groups */
	char		**groups;	/* each test's, for tests[] */
	struct suite	  suite;
	int		  suite_loaded;
	struct boxfiles	  bf;
	struct sbuf_lines extra;	/* what the run's config gets */
	const char	**rtall;
	char		 *cachedir;
	struct remote	 *box;
	struct store	 *st;
	struct store_run  prev;		/* --resume: the run going on */
	struct engine_test *tests;
	char		**reasons;
	size_t		 *picked, npicked;
	struct rules	 *vrules;
	struct engine	 *e;
	struct run_ctx	  ctx;
	/* What --resume replayed from prev's config. */
	char		 *cfg_root, *cfg_kconfig, *cfg_mul, *cfg_dev;
	char		 *cfg_host, *cfg_ssh, *cfg_boxkc;
	char		 *cfg_console, *cfg_reboot, *cfg_box;
	struct settings	  set;		/* the config file, for --box */
	struct qemubox	 *qemu;		/* a QEMU box's, or NULL */
	char		  qemu_user[256];	/* its block's host: the user */
	char		  qemu_host[300];	/* where its ssh is */
	char		  os[64];
	char		  userskip[2048];	/* where a culprit is added */
	char		  kcpath[2048], kcwhat[2400];
};

/* A run on a box: how to go on after it stops answering. */
struct run_box {
	const char	*name;		/* --box, or NULL */
	const char	*host;
	const char	*ssh_config;
	const char	*reboot_cmd;
	const char	*kconfig;	/* sent again to a box back up */
	long		 wait_s;	/* --box-wait; -1: no limit */
	const char	*console;	/* --console FILE, or NULL */
	off_t		 console_off;	/* read up to here already */
	int		 skip_culprit;	/* --skip-culprit */
	const char	*userskip;	/* the user's skip list file */
	struct skiplist	*skip;
	struct run_state *qs;		/* a QEMU box's, or NULL */
};

/* cmd_run_loop.c, below the others */
struct ltpout_line;
/* The handler of SIGINT and SIGTERM: notes that one came. */
void	 run_on_signal(int);
void	 run_watch_parent(pid_t);
int	 run_was_interrupted(void);
void	 run_clear_progress(struct run_ctx *);
long long run_now_ms(void);
/* The engine's events (struct engine_events), arg a struct run_ctx. */
void	 ev_test_start(void *, const char *, size_t, size_t);
void	 ev_skip_warning(void *, const char *, const char *);
void	 ev_line(void *, const struct ltpout_line *);
void	 ev_wline(void *, size_t, const struct ltpout_line *);
void	 ev_test_end(void *, const struct store_result *, const char *,
	    size_t, size_t);
int	 run_loop(struct engine *, struct run_ctx *, struct diaglist *);
void	 run_crash_report(struct store *, int64_t);
void	 run_summary(struct store *, struct engine *, int64_t);

/* cmd_run_dry.c: --dry-run, what run_select() picked */
void	 run_dry(const struct run_opts *, struct run_state *);

/* cmd_run_box.c */
void	 run_kernel_words(struct store *, int64_t, struct remote *,
	    struct run_box *);
int	 run_box_lost(struct store *, struct engine **, struct remote **,
	    struct engine_opts *, const struct engine_events *,
	    struct run_ctx *, struct run_box *, struct diaglist *);
struct remote	*run_open_box(const char *, const char *, const char *,
	    const char *, struct diaglist *);
int	 run_wait_up(struct run_opts *, struct run_state *);
int	 run_box_files(struct remote **, struct boxfiles *,
	    struct suite_opts *, const char ***, const char *const **,
	    size_t *, const char *, const char *, const char *, const char *,
	    const char *, const char *, char **, struct diaglist *);

/* cmd_run_named.c */
int	 run_load_config(struct settings *, char *, size_t);
const struct settings_box *run_find_box(const struct settings *,
	    const char *, const char *);
int	 run_named_box(struct run_opts *, struct run_state *);
void	 run_qemu_host(struct run_state *);

/* cmd_run_culprit.c */
int	 run_add_culprit(const char *, const char *, int64_t, const char *,
	    const char *, const char *);

/* cmd_run_config.c */
char	*run_config_value(const char *, const char *);
void	 run_config_add(struct sbuf_lines *, const char *, const char *);
void	 run_config_box(struct sbuf_lines *, const struct run_opts *);
void	 run_config_sources(struct sbuf_lines *, const struct boxfiles *,
	    const struct suite *, const char *const *, size_t, const char *,
	    int);

/* cmd_run_resume.c */
int	 run_report_interrupted(struct store *, int64_t *, char *, size_t,
	    int);
int	 run_resume_settings(struct run_opts *, struct run_state *);
void	 run_resume_culprit(struct run_opts *, struct run_state *);

#endif
