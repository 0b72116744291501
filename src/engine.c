/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The engine (see engine.h): a queue of tests, run one at a time
 * through the runner, parsed by ltpout, committed to the store under
 * the crash protocol.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/compat.h"
#include "ltpscope/conflicts.h"
#include "ltpscope/engine.h"
#include "ltpscope/ipcleft.h"
#include "ltpscope/kmsg.h"
#include "ltpscope/rmtree.h"
#include "ltpscope/spool.h"
#include "ltpscope/verdict.h"
#include "ltpscope/remote.h"
#include "ltpscope/xmalloc.h"

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

struct engine;
static void	engine_leftover(struct engine *, const char *, const char *);
static void	engine_ipc_begin(struct engine *, const char *);

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
	struct kmsg		*kmsg;		/* this machine's log, or NULL */
	char			 kmsg_why[300];	/* why there is none */
	unsigned		 nkmarked;	/* tests the kernel marked */
	char			*reset_test;	/* tainted the box: reset it */
	struct epending		*pending;	/* told after the commit */
	size_t			 npending;
	size_t			 ncommitted;	/* of them, committed */
};

static void
engine_line_cb(const struct ltpout_line *line, void *arg)
{
	struct eworker *w = arg;
	struct engine *e = w->e;

	w->envwarn += (unsigned long)verdict_env_line(e->opts.rules, line);
	if (e->ev.line != NULL)
		e->ev.line(e->ev.arg, line);
	if (e->ev.worker_line != NULL)
		e->ev.worker_line(e->ev.arg, w->index, line);
}

/* A line of ltpscope's own, stored with the output and shown live. */
static void
engine_meta(struct eworker *w, const char *fmt, ...)
	__attribute__((__format__(__printf__, 2, 3)));

/*
 * The output goes to the spool and through the parser, which is all the
 * verdict needs: it is judged from the parser's tally, line by line.
 */
static void
engine_output_cb(void *arg, const char *buf, size_t len)
{
	struct eworker *w = arg;

	if (spool_write(w->spool, buf, len) == -1)
		engine_meta(w, "ltpscope: %s; output after byte %llu is "
		    "counted, not kept", spool_error(w->spool),
		    (unsigned long long)spool_length(w->spool));
	ltpout_feed(w->parser, buf, len, engine_line_cb, w);
}

static void
engine_meta(struct eworker *w, const char *fmt, ...)
{
	struct ltpout_line l;
	char buf[512];
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if ((size_t)len > sizeof(buf) - 2)
		len = (int)sizeof(buf) - 2;
	memset(&l, 0, sizeof(l));
	l.cls = LC_META;
	l.text = l.msg = buf;
	l.len = l.msglen = (size_t)len;
	engine_line_cb(&l, w);
	buf[len++] = '\n';
	spool_note(w->spool, buf, (size_t)len);
}

static void
engine_worker_init(struct engine *e, struct eworker *w, size_t index)
{
	memset(w, 0, sizeof(*w));
	w->e = e;
	w->index = index;
	w->parser = ltpout_new();
}

static struct engine *
engine_alloc(struct store *st, const struct engine_opts *opts,
    const struct engine_events *ev)
{
	struct engine *e = xcalloc(1, sizeof(*e));
	size_t i;

	e->st = st;
	e->opts = *opts;
	/* A caller's own spares win; else the run keeps a set. */
	if (opts->runner.spares == NULL)
		e->spares = e->opts.runner.spares = runner_spares_new();
	if (ev != NULL)
		e->ev = *ev;
	e->nw = opts->jobs > 1 ? (size_t)opts->jobs : 1;
	e->w = xcalloc(e->nw, sizeof(*e->w));
	for (i = 0; i < e->nw; i++)
		engine_worker_init(e, &e->w[i], i);
	engine_worker_init(e, &e->instant, ENGINE_NO_WORKER);
	/* From now on what the kernel logs is the tests'. */
	if (opts->runner.remote == NULL)
		e->kmsg = kmsg_open(e->kmsg_why, sizeof(e->kmsg_why));
	return e;
}

static void
engine_add(struct engine *e, const struct engine_test *src, int64_t seq)
{
	struct etest *t;

	e->tests = xreallocarray(e->tests, e->n + 1, sizeof(*e->tests));
	t = &e->tests[e->n++];
	t->tag = xstrdup(src->tag);
	t->syscall = xstrdup(src->syscall ? src->syscall : "");
	t->cmdline = xstrdup(src->cmdline ? src->cmdline : src->tag);
	t->notrun = src->notrun != NULL ? xstrdup(src->notrun) : NULL;
	t->conflicts = xstrdup(src->conflicts != NULL ? src->conflicts : "");
	t->explicit = src->explicit;
	t->parallel = src->parallel;
	t->seq = seq;
}

/* Longest expected first; unknown (-1) after, in their order. */
struct engine_key {
	struct engine_test	 t;
	int			 klass;		/* 0 instant, 1 par, 2 ser */
	int64_t			 ms;
	size_t			 pos;
};

static int
engine_key_cmp(const void *a, const void *b)
{
	const struct engine_key *x = a, *y = b;

	if (x->klass != y->klass)
		return x->klass < y->klass ? -1 : 1;
	if (x->klass == 1 && x->ms != y->ms)
		return x->ms > y->ms ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int
engine_res_cmp(const void *a, const void *b)
{
	return strcmp(((const struct store_result *)a)->tag,
	    ((const struct store_result *)b)->tag);
}

void
engine_order(struct engine_test *v, size_t n, struct store *st)
{
	struct store_result *res = NULL, key, *hit;
	struct engine_key *k;
	struct diaglist dl;
	size_t nres = 0, i;

	if (n == 0)
		return;
	diag_init(&dl);
	if (st != NULL && store_latest_results(st, &res, &nres, &dl) !=
	    STORE_OK)
		nres = 0;
	diag_free(&dl);
	/* store_latest_results is ordered by tag: bsearch it. */
	if (nres > 0)
		qsort(res, nres, sizeof(*res), engine_res_cmp);
	k = xcalloc(n, sizeof(*k));
	for (i = 0; i < n; i++) {
		k[i].t = v[i];
		k[i].pos = i;
		k[i].ms = -1;
		k[i].klass = v[i].notrun != NULL ? 0 : v[i].parallel ? 1 : 2;
		memset(&key, 0, sizeof(key));
		key.tag = (char *)(uintptr_t)v[i].tag;
		hit = nres > 0 ? bsearch(&key, res, nres, sizeof(*res),
		    engine_res_cmp) : NULL;
		if (hit != NULL && hit->status != TS_NOTRUN)
			k[i].ms = hit->duration_ms;
	}
	qsort(k, n, sizeof(*k), engine_key_cmp);
	for (i = 0; i < n; i++)
		v[i] = k[i].t;
	free(k);
	store_results_free(res, nres);
}

/*
 * The arch a run is filed under (compare --arch's columns): uname -m,
 * but where that names a family of boards (NetBSD's evbarm, evbmips,
 * evbppc), the processor, so that a 32- and a 64-bit arm box are two.
 */
static char *
engine_arch(const char *machine, const char *processor)
{
	if (strncmp(machine, "evb", 3) == 0 && processor[0] != '\0')
		return xstrdup(processor);
	return xstrdup(machine);
}

void
engine_describe_system(struct store_run *run, const char *ltproot)
{
	struct utsname u;
	char path[4096], ver[256] = "", proc[64];
	FILE *fp;

	if (uname(&u) == 0) {
		char full[5 * sizeof(u.sysname) + 8];

		snprintf(full, sizeof(full), "%s %s %s %s %s", u.sysname,
		    u.nodename, u.release, u.version, u.machine);
		run->host = xstrdup(u.nodename);
		run->uname = xstrdup(full);
		run->os_name = xstrdup(u.sysname);
		run->os_version = xstrdup(u.release);
		run->arch = engine_arch(u.machine, compat_machine_arch(proc,
		    sizeof(proc)));
	} else {
		run->host = xstrdup("");
		run->uname = xstrdup("");
		run->os_name = xstrdup("");
		run->os_version = xstrdup("");
		run->arch = xstrdup("");
	}
	if (ltproot != NULL) {
		snprintf(path, sizeof(path), "%s/Version", ltproot);
		if ((fp = fopen(path, "r")) != NULL) {
			if (fgets(ver, sizeof(ver), fp) == NULL)
				ver[0] = '\0';
			ver[strcspn(ver, "\r\n")] = '\0';
			fclose(fp);
		}
	}
	run->ltp_version = xstrdup(ver);
}

/* A run on a box: the box's facts, as it gave them when we connected. */
static void
engine_describe_remote(struct store_run *run, const struct remote *rm)
{
	const struct remote_box *b = remote_box(rm);

	run->host = xstrdup(remote_spec(rm));
	xasprintf(&run->uname, "%s %s %s %s %s", b->sysname, b->nodename,
	    b->release, b->version, b->machine);
	run->os_name = xstrdup(b->sysname);
	run->os_version = xstrdup(b->release);
	run->arch = engine_arch(b->machine, b->processor);
	run->ltp_version = xstrdup(b->ltp_version);
}

/*
 * Makes the run's directory below the TMPDIR base the runner would use
 * and points the runner there.  -1 with an error naming the base (a
 * TMPDIR that is not writable stops the run before it starts).
 */
static int
engine_rundir_make(struct engine *e, struct diaglist *dl)
{
	const char *base = e->opts.runner.tmpbase;
	char *dir, *abs;
	int en;

	if (base == NULL && ((base = getenv("TMPDIR")) == NULL ||
	    base[0] != '/'))
		base = "/tmp";
	xasprintf(&dir, "%s/" ENGINE_RUNDIR_PREFIX "XXXXXX", base);
	if (mkdtemp(dir) == NULL || chmod(dir, ENGINE_RUNDIR_MODE) == -1) {
		en = errno;
		(void)rmdir(dir);
		diag_error(dl, NULL, 0, "cannot create a directory for the "
		    "tests in %s: %s (set TMPDIR to a writable directory "
		    "with room)", base, strerror(en));
		free(dir);
		return -1;
	}
	/* --resume removes it by the name recorded: absolute. */
	if (dir[0] != '/' && (abs = realpath(dir, NULL)) != NULL) {
		free(dir);
		dir = abs;
	}
	e->rundir = dir;
	e->opts.runner.tmpbase = dir;
	return 0;
}

/* The run's directory named in config, or NULL; malloc'd. */
static char *
engine_rundir_of(const char *config)
{
	const char *p, *nl;
	size_t klen = strlen(ENGINE_RUNDIR_KEY);
	char *v;

	for (p = config; p != NULL && *p != '\0'; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (strncmp(p, ENGINE_RUNDIR_KEY, klen) != 0)
			continue;
		p += klen;
		v = nl != NULL ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
		return v;
	}
	return NULL;
}

/*
 * Removes what a dead run left below its directory: only a directory
 * of ours by that name pattern (the database is input, and root must
 * not remove what it names blindly); mounts are unmounted, never
 * crossed.  What stays becomes a leftover.
 */
static void
engine_rundir_clean(struct engine *e, const char *dir)
{
	const char *base = strrchr(dir, '/');
	char why[256], what[sizeof(why) + 32];
	struct stat st;

	if (dir[0] != '/' || base == NULL || strncmp(base + 1,
	    ENGINE_RUNDIR_PREFIX, strlen(ENGINE_RUNDIR_PREFIX)) != 0 ||
	    lstat(dir, &st) == -1 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid())
		return;
	if (rmtree_unmount(dir, why, sizeof(why)) == 0)
		return;
	snprintf(what, sizeof(what), "tmpdir_left: %s", why[0] != '\0' ?
	    why : dir);
	snprintf(why, sizeof(why), "run %lld", (long long)e->run_id);
	engine_leftover(e, why, what);
}

/* config with its tmpdirs line (if any) replaced by dir; malloc'd. */
static char *
engine_config_with_rundir(const char *config, const char *dir)
{
	const char *p, *nl;
	size_t klen = strlen(ENGINE_RUNDIR_KEY), n;
	char *out, *o;

	out = o = xmalloc(strlen(config) + klen + strlen(dir) + 2);
	for (p = config; *p != '\0'; p = nl != NULL ? nl + 1 : p + n) {
		nl = strchr(p, '\n');
		n = nl != NULL ? (size_t)(nl - p) + 1 : strlen(p);
		if (strncmp(p, ENGINE_RUNDIR_KEY, klen) == 0)
			continue;
		memcpy(o, p, n);
		o += n;
		if (nl == NULL)
			break;
	}
	if (o > out && o[-1] != '\n')
		*o++ = '\n';
	o += sprintf(o, "%s%s\n", ENGINE_RUNDIR_KEY, dir);
	return out;
}

struct engine *
engine_new(struct store *st, const struct engine_opts *opts,
    const struct engine_test *tests, size_t n,
    const struct engine_events *ev, struct diaglist *dl)
{
	struct engine *e;
	struct store_run run;
	struct store_queue_item *q;
	char config[2048];
	size_t i;

	e = engine_alloc(st, opts, ev);
	if (engine_rundir_make(e, dl) == -1) {
		engine_free(e);
		return NULL;
	}
	q = xcalloc(n ? n : 1, sizeof(*q));
	for (i = 0; i < n; i++) {
		engine_add(e, &tests[i], (int64_t)i);
		q[i].pos = (int64_t)i;
		q[i].tag = e->tests[i].tag;
		q[i].syscall = e->tests[i].syscall;
		q[i].cmdline = e->tests[i].cmdline;
		q[i].notrun = e->tests[i].notrun;
		q[i].named = e->tests[i].explicit;
		q[i].parallel = e->tests[i].parallel;
		q[i].conflicts = e->tests[i].conflicts;
	}
	memset(&run, 0, sizeof(run));
	if (opts->runner.remote != NULL)
		engine_describe_remote(&run, opts->runner.remote);
	else
		engine_describe_system(&run, opts->runner.ltproot);
	run.label = xstrdup(opts->label ? opts->label : "");
	/* What --resume needs to run the rest the same way. */
	snprintf(config, sizeof(config), "ltproot=%s\ntimeout=%d\n"
	    "kconfig=%s\ntimeout_mul=%s\ndev=%s\nreproducible=%d\n"
	    "pipe=%d\njobs=%d\n" ENGINE_RUNDIR_KEY "%s\n",
	    opts->runner.ltproot ? opts->runner.ltproot : "",
	    opts->timeout_s,
	    opts->runner.kconfig ? opts->runner.kconfig : "",
	    opts->runner.timeout_mul ? opts->runner.timeout_mul : "",
	    opts->runner.ltp_dev ? opts->runner.ltp_dev : "",
	    opts->runner.reproducible, opts->runner.use_pipe,
	    (int)e->nw, e->rundir);
	if (opts->runner.remote != NULL) {
		/* The box to resume on; compat_linux's Linux release. */
		size_t len = strlen(config);

		snprintf(config + len, sizeof(config) - len, "host=%s\n"
		    "ssh_config=%s\nemul_linux=%s\n",
		    remote_spec(opts->runner.remote),
		    remote_ssh_config(opts->runner.remote) != NULL ?
		    remote_ssh_config(opts->runner.remote) : "",
		    remote_box(opts->runner.remote)->emul_release);
	}
	run.config = xstrdup(config);
	run.timeout_s = opts->timeout_s;
	if (store_run_begin(st, &run, q, n, dl) != STORE_OK) {
		store_run_clear(&run);
		free(q);
		engine_free(e);
		return NULL;
	}
	e->run_id = run.id;
	store_run_clear(&run);
	free(q);
	return e;
}

struct engine *
engine_resume(struct store *st, const struct engine_opts *opts,
    int64_t run_id, const struct engine_events *ev, struct diaglist *dl)
{
	struct engine *e;
	struct store_queue_item *q = NULL;
	size_t i, n = 0;

	struct store_run run;
	char *old, *config;
	int rv;

	if (store_run_resume(st, run_id, &q, &n, dl) != STORE_OK)
		return NULL;
	e = engine_alloc(st, opts, ev);
	e->run_id = run_id;
	/* The dead run's TMPDIRs go; this run's are named before use. */
	memset(&run, 0, sizeof(run));
	rv = store_get_run(st, run_id, &run, dl);
	if (rv == STORE_OK && (old = engine_rundir_of(run.config)) != NULL) {
		engine_rundir_clean(e, old);
		free(old);
	}
	if (rv == STORE_OK && engine_rundir_make(e, dl) == 0) {
		config = engine_config_with_rundir(run.config, e->rundir);
		rv = store_run_set_config(st, run_id, config, dl);
		free(config);
	} else if (rv == STORE_OK)
		rv = STORE_EIO;
	store_run_clear(&run);
	if (rv != STORE_OK) {
		store_queue_free(q, n);
		(void)store_run_end(st, run_id, RUN_INTERRUPTED, dl);
		engine_free(e);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		struct engine_test t;

		memset(&t, 0, sizeof(t));
		t.tag = q[i].tag;
		t.syscall = q[i].syscall;
		t.cmdline = q[i].cmdline;
		t.notrun = q[i].notrun != NULL && q[i].notrun[0] != '\0' ?
		    q[i].notrun : NULL;
		t.explicit = q[i].named;
		/* Side by side as the run began: its marks and groups. */
		t.parallel = q[i].parallel && e->nw > 1;
		t.conflicts = q[i].conflicts;
		engine_add(e, &t, q[i].pos);
	}
	store_queue_free(q, n);
	return e;
}

int64_t
engine_run_id(const struct engine *e)
{
	return e->run_id;
}

size_t
engine_total(const struct engine *e)
{
	return e->n;
}

size_t
engine_done_count(const struct engine *e)
{
	return e->ndone;
}

const char *
engine_current(const struct engine *e)
{
	size_t i;

	for (i = 0; i < e->nw; i++)
		if (e->w[i].r != NULL)
			return e->tests[e->w[i].idx].tag;
	return NULL;
}

size_t
engine_workers(const struct engine *e)
{
	return e->nw;
}

const char *
engine_worker_tag(const struct engine *e, size_t w)
{
	return w < e->nw && e->w[w].r != NULL ? e->tests[e->w[w].idx].tag :
	    NULL;
}

size_t
engine_running(const struct engine *e)
{
	return e->nbusy;
}

const unsigned *
engine_counts(const struct engine *e)
{
	return e->counts;
}

const char *const *
engine_leftovers(const struct engine *e, size_t *n)
{
	*n = e->nleft;
	return (const char *const *)e->left;
}

const char *const *
engine_cleanups(const struct engine *e, size_t *n)
{
	*n = e->ncleaned;
	return (const char *const *)e->cleaned;
}

unsigned
engine_env_marked(const struct engine *e)
{
	return e->nenvmarked;
}

const char *
engine_reset_due(const struct engine *e)
{
	return e->reset_test;
}

const char *
engine_kmsg_missing(const struct engine *e)
{
	return e->opts.runner.remote == NULL && e->kmsg == NULL ?
	    e->kmsg_why : NULL;
}

unsigned
engine_kmsg_marked(const struct engine *e)
{
	return e->nkmarked;
}

int
engine_box_lost(const struct engine *e)
{
	return e->box_lost;
}

const char *
engine_lost_test(const struct engine *e)
{
	return e->lost_test;
}

int64_t
engine_lost_result(const struct engine *e)
{
	return e->lost_test != NULL ? e->lost_result : 0;
}

/*
 * The box stopped answering: a crash there, as far as we can tell.
 * Nothing more is started, and the run is left as a crash leaves it.
 */
static void
engine_lose_box(struct engine *e)
{
	e->box_lost = 1;
	e->stop_all = 1;
}

size_t
engine_pollfds(const struct engine *e, struct pollfd *pfd, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < e->nw && n < max; i++)
		if (e->w[i].r != NULL)
			n += (size_t)runner_pollfds(e->w[i].r, pfd + n,
			    max - n > RUNNER_NPOLL ? RUNNER_NPOLL :
			    (int)(max - n));
	return n;
}

/* Whether test t shares a conflict group with a test running now. */
static int
engine_conflicting(const struct engine *e, const struct etest *t)
{
	size_t i;

	if (t->conflicts[0] == '\0')
		return 0;
	for (i = 0; i < e->nw; i++)
		if (e->w[i].r != NULL && conflicts_share(t->conflicts,
		    e->tests[e->w[i].idx].conflicts))
			return 1;
	return 0;
}

/* Whether t goes without a worker: ruled out, or skipped. */
static int
engine_instant(const struct engine *e, const struct etest *t)
{
	return t->notrun != NULL || (!t->explicit && e->opts.skip != NULL &&
	    skiplist_match(e->opts.skip, t->tag) != NULL);
}

/*
 * The test to start next beside those running: the next in the queue,
 * or, when its conflict group is busy, the first parallel test after it
 * that is free to run (never past a test that runs alone).  e->n: none.
 */
static size_t
engine_pick(const struct engine *e)
{
	const struct etest *t;
	size_t k;

	for (k = e->next; k < e->n; k++) {
		t = &e->tests[k];
		if (engine_instant(e, t))
			continue;
		if (!t->parallel)
			break;
		if (!engine_conflicting(e, t))
			return k;
	}
	return e->n;
}

/* Whether the next test could start now (so there is work at once). */
static int
engine_can_start(const struct engine *e)
{
	const struct etest *t;
	size_t i;

	if (e->stop_all || e->next >= e->n)
		return e->nbusy == 0;
	t = &e->tests[e->next];
	/* Serially, results come in queue order; in parallel, at once. */
	if (engine_instant(e, t))
		return e->nw > 1 || e->nbusy == 0;
	if (e->nbusy == 0)
		return 1;
	if (e->nw < 2 || !t->parallel || e->nbusy >= e->nw)
		return 0;
	for (i = 0; i < e->nw; i++)
		if (e->w[i].r != NULL && e->w[i].serial)
			return 0;
	return engine_pick(e) < e->n;
}

int
engine_poll_timeout(const struct engine *e)
{
	size_t i;
	int ms = -1, t;

	if (e->finished)
		return -1;
	if (engine_can_start(e))
		return 0;
	for (i = 0; i < e->nw; i++) {
		if (e->w[i].r == NULL)
			continue;
		t = runner_poll_timeout(e->w[i].r);
		if (t >= 0 && (ms < 0 || t < ms))
			ms = t;
	}
	/* One fd polled by an older caller must not starve the others. */
	if (e->nbusy > 1 && (ms < 0 || ms > ENGINE_MULTI_POLL_MS))
		ms = ENGINE_MULTI_POLL_MS;
	return ms;
}

static void
engine_reset_output(struct eworker *w)
{
	/* Made once the run's directory is: the file goes there. */
	if (w->spool == NULL)
		w->spool = spool_new(w->e->rundir != NULL ? w->e->rundir :
		    "/tmp", ENGINE_OUTPUT_KEEP);
	spool_reset(w->spool);
	w->envwarn = 0;
	ltpout_reset(w->parser);
}

static int
engine_spool_read(void *arg, void *buf, size_t len, uint64_t off)
{
	return spool_read(arg, buf, len, off);
}

/*
 * Writes a result; it is committed with the next test's running row
 * (or at the end of engine_service), and told only once committed, so
 * what the caller shows as finished is durable.  0 or -1 (store error).
 */
static int
engine_record(struct engine *e, struct eworker *w, struct store_result *r,
    const char *why, struct diaglist *dl)
{
	struct store_outsrc src;
	struct epending *p;
	size_t idx = w->idx;
	int rv;

	r->id = w->result_id;
	r->run_id = e->run_id;
	r->tag = e->tests[idx].tag;
	r->syscall = e->tests[idx].syscall;
	r->seq = e->tests[idx].seq;
	r->output_size = (int64_t)spool_total(w->spool);
	memset(&src, 0, sizeof(src));
	src.read = engine_spool_read;
	src.arg = w->spool;
	src.len = spool_length(w->spool);
	src.total = spool_total(w->spool);
	rv = store_test_finish_src(e->st, w->result_id, r, &src, dl);
	/* Stored (if not yet committed): its disk space goes back now. */
	spool_reset(w->spool);
	if (rv != STORE_OK)
		return -1;
	e->pending = xreallocarray(e->pending, e->npending + 1,
	    sizeof(*e->pending));
	p = &e->pending[e->npending++];
	p->r = *r;
	/* The kernel's lines are stored; the counts go on to the caller. */
	p->r.kmsg = NULL;
	p->why = xstrdup(why != NULL ? why : "");
	p->idx = idx;
	p->worker = w->index;
	return 0;
}

/*
 * Commits what was written since the last commit (one fsync).  0, or
 * -1: none of the results it held is stored, and none will be told.
 */
static int
engine_commit(struct engine *e, struct diaglist *dl)
{
	size_t i;

	if (store_batch_commit(e->st, dl) == STORE_OK) {
		e->ncommitted = e->npending;
		return 0;
	}
	for (i = 0; i < e->npending; i++)
		free(e->pending[i].why);
	e->npending = e->ncommitted = 0;
	return -1;
}

/* Counts and tells the results the last commit made durable. */
static void
engine_tell(struct engine *e)
{
	struct epending *p;
	size_t i;

	for (i = 0; i < e->ncommitted; i++) {
		p = &e->pending[i];
		if ((unsigned)p->r.status < TS__COUNT)
			e->counts[p->r.status]++;
		if (test_status_env_marked(p->r.status, p->r.nenvwarn))
			e->nenvmarked++;
		if (store_result_kmsg_marked(&p->r))
			e->nkmarked++;
		e->ndone++;
		if (e->ev.test_end != NULL)
			e->ev.test_end(e->ev.arg, &p->r, p->why, p->idx, e->n);
		if (e->ev.worker_end != NULL)
			e->ev.worker_end(e->ev.arg, p->worker, &p->r, p->why,
			    p->idx, e->n);
		free(p->why);
	}
	/* Written since, not committed yet: told after the next commit. */
	if (e->npending > e->ncommitted)
		memmove(e->pending, e->pending + e->ncommitted,
		    (e->npending - e->ncommitted) * sizeof(*e->pending));
	e->npending -= e->ncommitted;
	e->ncommitted = 0;
}

static int
engine_flush(struct engine *e, struct diaglist *dl)
{
	if (engine_commit(e, dl) != 0)
		return -1;
	engine_tell(e);
	return 0;
}

/* A free worker, or NULL. */
static struct eworker *
engine_free_worker(struct engine *e)
{
	size_t i;

	for (i = 0; i < e->nw; i++)
		if (e->w[i].r == NULL)
			return &e->w[i];
	return NULL;
}

/*
 * Tells the results committed before the test idx, then that it
 * starts (on worker w), and that it runs though skip lists it.
 */
static void
engine_tell_start(struct engine *e, struct eworker *w, size_t idx,
    const struct skip_entry *skip)
{
	const struct etest *t = &e->tests[idx];

	engine_tell(e);
	if (e->ev.test_start != NULL)
		e->ev.test_start(e->ev.arg, t->tag, idx, e->n);
	if (e->ev.worker_start != NULL)
		e->ev.worker_start(e->ev.arg, w->index, t->tag, idx, e->n);
	if (skip != NULL && t->explicit && e->ev.skip_warning != NULL)
		e->ev.skip_warning(e->ev.arg, t->tag, skip->reason);
}

/* Starts the next test, or records why it does not run. */
static int
engine_start_next(struct engine *e, struct diaglist *dl)
{
	struct etest *t = &e->tests[e->next];
	const struct skip_entry *skip = NULL;
	struct eworker *w;
	struct runner_opts ro;
	struct store_result r;
	struct diaglist rdl;
	struct runner *run;
	size_t idx = e->next++;
	char why[600];

	/* Its group is busy: a later one that is free goes first. */
	if (e->nbusy > 0 && !engine_instant(e, t) && t->parallel &&
	    engine_conflicting(e, t)) {
		size_t k = engine_pick(e);
		struct etest tmp;

		if (k < e->n) {
			tmp = e->tests[k];
			memmove(&e->tests[idx + 1], &e->tests[idx],
			    (k - idx) * sizeof(*e->tests));
			e->tests[idx] = tmp;
		}
	}
	if (e->opts.runner.remote != NULL &&
	    !remote_alive(e->opts.runner.remote)) {
		/* Gone between tests: the run stops before this one. */
		e->next--;
		engine_lose_box(e);
		return 0;
	}
	if (e->opts.skip != NULL)
		skip = skiplist_match(e->opts.skip, t->tag);
	if ((skip != NULL && !t->explicit) || t->notrun != NULL ||
	    (w = engine_free_worker(e)) == NULL)
		w = &e->instant;
	engine_reset_output(w);
	w->idx = idx;
	w->started = (int64_t)time(NULL);
	/* Committed with the result before it, before the test starts. */
	if (store_test_start(e->st, e->run_id, t->tag, t->syscall, t->seq,
	    &w->result_id, dl) != STORE_OK || engine_commit(e, dl) != 0)
		return -1;
	memset(&r, 0, sizeof(r));
	r.started = r.ended = w->started;
	/* Judged by ltpscope, not by output: never judged again. */
	(void)snprintf(r.raw, sizeof(r.raw), "-");
	(void)rules_env_digest(e->opts.rules, r.judged, sizeof(r.judged));
	if ((skip != NULL && !t->explicit) || t->notrun != NULL)
		engine_tell_start(e, w, idx, skip);
	if (skip != NULL && !t->explicit) {
		engine_meta(w, "ltpscope: not run: %s (skip list %s:%lu)",
		    skip->reason, skip->file ? skip->file : "", skip->line);
		r.status = TS_NOTRUN;
		r.exit_code = -1;
		snprintf(why, sizeof(why), "skip list: %s", skip->reason);
		return engine_record(e, w, &r, why, dl);
	}
	if (t->notrun != NULL) {
		/*
		 * LTP would have skipped it (TCONF) for the same need: stored
		 * alike, a baseline made by another runner compares equal.
		 */
		engine_meta(w, "ltpscope: not started, skipped (conf): %s",
		    t->notrun);
		r.status = TS_CONF;
		r.nconf = 1;
		r.exit_code = -1;
		return engine_record(e, w, &r, t->notrun, dl);
	}
	ro = e->opts.runner;
	ro.output = engine_output_cb;
	ro.output_arg = w;
	diag_init(&rdl);
	if (e->opts.runner.remote == NULL)
		engine_ipc_begin(e, t->tag);
	run = runner_start(&ro, t->cmdline, &rdl);
	/*
	 * Told once the test is on its way (what came before it is
	 * committed): printing and the caller's updates are not on the
	 * path from one test to the next.
	 */
	engine_tell_start(e, w, idx, skip);
	if (run == NULL) {
		char msg[400] = "cannot start";

		if (rdl.n > 0)
			diag_format(&rdl.v[0], msg, sizeof(msg));
		diag_free(&rdl);
		engine_meta(w, "ltpscope: %s", msg);
		r.status = TS_BROKEN;
		r.exit_code = -1;
		snprintf(why, sizeof(why), "could not start: %s", msg);
		return engine_record(e, w, &r, why, dl);
	}
	diag_free(&rdl);
	w->r = run;
	w->serial = !(t->parallel && e->nw > 1);
	e->nbusy++;
	return 0;
}

/* What ltpscope cleaned up after w's test (or tags'), said twice. */
static void
engine_cleaned(struct engine *e, struct eworker *w, const char *tags,
    const char *what)
{
	engine_meta(w, "ltpscope: cleaned up after the test: %s", what);
	e->cleaned = xreallocarray(e->cleaned, e->ncleaned + 1,
	    sizeof(*e->cleaned));
	xasprintf(&e->cleaned[e->ncleaned++], "%s: %s", tags, what);
}

/*
 * System V IPC objects have no owner a test can be told by once it is
 * gone, and tests side by side may each make some: what exists is noted
 * when a test starts with none running, and what is new when the last
 * of the tests that ran since ends is theirs.  With -j 1 that is one
 * test's.
 */
static void
engine_ipc_begin(struct engine *e, const char *tag)
{
	size_t n;

	if (e->nbusy == 0) {
		ipcleft_free(e->ipc);
		e->ipc = ipcleft_snap();
		e->ipc_tags[0] = '\0';
		e->ipc_ntests = 0;
	}
	n = strlen(e->ipc_tags);
	if (e->ipc_ntests++ == 0)
		(void)snprintf(e->ipc_tags, sizeof(e->ipc_tags), "%s", tag);
	else if (n + strlen(tag) + 16 < sizeof(e->ipc_tags))
		(void)snprintf(e->ipc_tags + n, sizeof(e->ipc_tags) - n,
		    ", %s", tag);
	else if (strcmp(e->ipc_tags + n - 3, "...") != 0)
		(void)snprintf(e->ipc_tags + n, sizeof(e->ipc_tags) - n,
		    ", ...");
}

static void
engine_ipc_end(struct engine *e, struct eworker *w)
{
	char objs[360], what[440];
	int n;

	if (e->ipc == NULL)
		return;
	n = ipcleft_sweep(e->ipc, (long long)geteuid(), objs, sizeof(objs));
	ipcleft_free(e->ipc);
	e->ipc = NULL;
	if (n == 0)
		return;
	(void)snprintf(what, sizeof(what), "removed %d System V IPC "
	    "object%s left behind%s: %s", n, n == 1 ? "" : "s",
	    e->ipc_ntests > 1 ? " by the tests that ran side by side" : "",
	    objs);
	engine_cleaned(e, w, e->ipc_ntests > 1 ? e->ipc_tags :
	    e->tests[w->idx].tag, what);
}

/* A line for engine_leftovers(): "tag: what". */
static void
engine_leftover(struct engine *e, const char *tag, const char *what)
{
	e->left = xreallocarray(e->left, e->nleft + 1, sizeof(*e->left));
	xasprintf(&e->left[e->nleft++], "%s: %s", tag, what);
}

/*
 * The box stopped answering while w's test ran: that test is the crash,
 * the likely cause of a panic there, stored with the output it gave
 * until then.  Tests running beside it (-j) are interrupted: the one
 * the kernel named (engine_blame()) did it, else the first to be
 * missed is as good a guess as any.
 */
static int
engine_crash(struct engine *e, struct eworker *w, double duration,
    struct diaglist *dl)
{
	struct store_result r;
	const char *tag = e->tests[w->idx].tag;
	char why[300];

	memset(&r, 0, sizeof(r));
	if (e->blamed != NULL && strcmp(e->blamed, tag) != 0) {
		engine_meta(w, "ltpscope: the box %s stopped answering after "
		    "%.1f s: its kernel crashed in %s, running beside this "
		    "test", remote_spec(e->opts.runner.remote), duration,
		    e->blamed);
		r.status = TS_INTERRUPTED;
		snprintf(why, sizeof(why), "the box's kernel crashed in %s, "
		    "running beside it", e->blamed);
	} else if (e->lost_test == NULL) {
		engine_meta(w, "ltpscope: the box %s %s after %.1f s: crash",
		    remote_spec(e->opts.runner.remote), e->lost_why != NULL ?
		    e->lost_why : "stopped answering", duration);
		r.status = TS_CRASH;
		e->lost_test = xstrdup(e->tests[w->idx].tag);
		e->lost_result = w->result_id;
		snprintf(why, sizeof(why), "the box stopped answering");
	} else {
		engine_meta(w, "ltpscope: the box %s stopped answering after "
		    "%.1f s, while %s ran beside this test",
		    remote_spec(e->opts.runner.remote), duration,
		    e->lost_test);
		r.status = TS_INTERRUPTED;
		snprintf(why, sizeof(why), "the box stopped answering while "
		    "%s ran beside it", e->lost_test);
	}
	r.exit_code = -1;
	r.duration_ms = (int64_t)(duration * 1000.0 + 0.5);
	r.started = w->started;
	r.ended = (int64_t)time(NULL);
	/* Judged by ltpscope, not by output: never judged again. */
	(void)snprintf(r.raw, sizeof(r.raw), "-");
	(void)rules_env_digest(e->opts.rules, r.judged, sizeof(r.judged));
	runner_free(w->r);
	w->r = NULL;
	e->nbusy--;
	engine_lose_box(e);
	return engine_record(e, w, &r, why, dl);
}

/*
 * What the kernel logged since the last test's end goes with this
 * test, in *k (pointing into *t) and r's counts.  With -j that is all
 * the tests running then: the log does not say whose a line is.
 */
static void
engine_kmsg_take(const struct kmsg_take *t, struct store_kmsg *k,
    struct store_result *r)
{
	memset(k, 0, sizeof(*k));
	k->text = t->text;
	k->len = t->len;
	k->nlines = t->nlines;
	k->nwarn = t->nwarn;
	k->nlost = t->nlost;
	k->capped = t->capped;
	k->taint_before = t->taint_before;
	k->taint_after = t->taint_after;
	r->kmsg = k;
	r->kmsg_lines = t->nlines;
	r->kmsg_warnings = t->nwarn;
	r->kmsg_tainted = t->taint_before != t->taint_after &&
	    t->taint_before != -1 && t->taint_after != -1;
}

/* engine_record() with what the kernel said during the test. */
static int
engine_record_kmsg(struct engine *e, struct eworker *w,
    struct store_result *r, const char *why, struct kmsg_take *t,
    struct diaglist *dl)
{
	struct store_kmsg k;
	int rv;

	engine_kmsg_take(t, &k, r);
	rv = engine_record(e, w, r, why, dl);
	kmsg_take_clear(t);
	return rv;
}

static int
engine_finish(struct engine *e, struct eworker *w, struct diaglist *dl)
{
	const struct runner_result *rr = runner_result(w->r);
	struct store_result r;
	struct ltpout_tally t;
	struct test_end end;
	struct ltpout_line line;
	struct kmsg_take kt;
	const char *ktext;
	size_t klen;
	int krec;
	char why[256], left[sizeof(rr->tmpdir_why) + 32];

	while (ltpout_flush(w->parser, &line))
		engine_line_cb(&line, w);
	if (rr->lost)
		return engine_crash(e, w, rr->duration, dl);
	if (rr->stopped)
		engine_meta(w, "ltpscope: stopped by the user after %.1f s",
		    rr->duration);
	else if (rr->timed_out)
		engine_meta(w, "ltpscope: timed out after %.1f s; the "
		    "session was killed%s", rr->duration,
		    rr->killed ? " (SIGKILL was needed)" : "");
	if (rr->stragglers > 0) {
		snprintf(left, sizeof(left), "killed %d process%s left behind "
		    "in the test's session", rr->stragglers,
		    rr->stragglers == 1 ? "" : "es");
		engine_meta(w, "ltpscope: %s", left);
		engine_leftover(e, e->tests[w->idx].tag, left);
	}
	if (rr->cleaned[0] != '\0')
		engine_cleaned(e, w, e->tests[w->idx].tag, rr->cleaned);
	if (e->nbusy == 1)
		engine_ipc_end(e, w);
	if (rr->tmpdir_left) {
		snprintf(left, sizeof(left), "tmpdir_left: %s",
		    rr->tmpdir_why);
		engine_meta(w, "ltpscope: %s", left);
		engine_leftover(e, e->tests[w->idx].tag, left);
	}
	memset(&end, 0, sizeof(end));
	if (rr->stopped)
		end.how = TEST_INTERRUPTED;
	else if (rr->timed_out)
		end.how = TEST_TIMEDOUT;
	else if (!rr->exited) {
		end.how = TEST_SIGNALLED;
		end.code = rr->signo;
	} else {
		end.how = TEST_EXITED;
		end.code = rr->exit_code;
	}
	memset(&r, 0, sizeof(r));
	t = *ltpout_tally(w->parser);
	t.env_warn = w->envwarn;
	(void)verdict_judge(e->opts.rules, &r, &t, &end, why, sizeof(why));
	r.exit_code = rr->exited ? rr->exit_code : -1;
	r.signal = rr->exited ? 0 : rr->signo;
	r.duration_ms = (int64_t)(rr->duration * 1000.0 + 0.5);
	r.started = w->started;
	r.ended = (int64_t)time(NULL);
	kmsg_take_init(&kt);
	if (e->kmsg != NULL)
		kmsg_collect(e->kmsg, &kt);
	else if ((ktext = runner_box_kmsg(w->r, &klen, &krec,
	    &kt.taint_before, &kt.taint_after)) != NULL) {
		kmsg_take_add(&kt, krec ? KMSG_RECORDS : KMSG_LINES, ktext,
		    klen);
		kmsg_take_end(&kt, krec ? KMSG_RECORDS : KMSG_LINES);
	}
	/* No test more on a tainted kernel: the caller resets the box. */
	if (e->opts.reset_on_taint && e->opts.runner.remote != NULL &&
	    kt.taint_before != kt.taint_after && kt.taint_before != -1 &&
	    kt.taint_after != -1 && e->next < e->n && e->reset_test == NULL) {
		e->reset_test = xstrdup(e->tests[w->idx].tag);
		e->stop_all = 1;
	}
	runner_free(w->r);
	w->r = NULL;
	e->nbusy--;
	return engine_record_kmsg(e, w, &r, why, &kt, dl);
}

/*
 * On a box, the kernel that may panic is not the one holding the
 * database: a test's running row need not be on disk before the test
 * starts, only survive kill -9, and the fsync a test is saved (issue
 * 25).  Once the run ends, or stops, all of it is synced at once.
 */
static void
engine_lazy(struct engine *e, struct diaglist *dl)
{
	if (!e->lazy && e->opts.runner.remote != NULL &&
	    !e->opts.durable_each && !e->finished &&
	    store_sync_each(e->st, 0, dl) == STORE_OK)
		e->lazy = 1;
}

static int
engine_durable(struct engine *e, struct diaglist *dl)
{
	if (!e->lazy)
		return 0;
	e->lazy = 0;
	return store_sync_each(e->st, 1, dl) == STORE_OK ? 0 : -1;
}

int
engine_service(struct engine *e, struct diaglist *dl)
{
	size_t i;

	if (e->finished)
		return 1;
	engine_lazy(e, dl);
	store_batch_begin(e->st);
	for (i = 0; i < e->nw; i++) {
		if (e->w[i].r == NULL || !runner_service(e->w[i].r))
			continue;
		if (engine_finish(e, &e->w[i], dl) != 0)
			goto fail;
	}
	if ((e->stop_all || e->next >= e->n) && e->nbusy == 0) {
		if (engine_flush(e, dl) != 0 ||
		    store_batch_end(e->st, dl) != STORE_OK ||
		    engine_durable(e, dl) != 0)
			goto fail;
		/* Left "running": --resume goes on after the crash. */
		if (e->box_lost || e->reset_test != NULL) {
			e->finished = 1;
			return 1;
		}
		if (store_run_end(e->st, e->run_id, e->stop_all &&
		    e->next < e->n ? RUN_INTERRUPTED : RUN_FINISHED, dl) !=
		    STORE_OK)
			goto fail;
		e->finished = 1;
		return 1;
	}
	while (!e->stop_all && e->next < e->n && engine_can_start(e))
		if (engine_start_next(e, dl) != 0)
			goto fail;
	if (engine_flush(e, dl) != 0 || store_batch_end(e->st, dl) !=
	    STORE_OK)
		goto fail;
	/* While tests run: the next commit's fsync stays cheap. */
	if (e->nbusy > 0)
		store_checkpoint_idle(e->st);
	return 0;
fail:
	/* What was written before the failure is still worth keeping. */
	(void)engine_flush(e, dl);
	(void)store_batch_end(e->st, dl);
	(void)engine_durable(e, dl);
	e->finished = 1;
	return -1;
}

void
engine_stop_worker(struct engine *e, size_t w)
{
	if (w < e->nw && e->w[w].r != NULL)
		runner_stop(e->w[w].r);
}

void
engine_stop_test(struct engine *e)
{
	size_t i;

	for (i = 0; i < e->nw; i++)
		engine_stop_worker(e, i);
}

void
engine_stop_all(struct engine *e)
{
	e->stop_all = 1;
	engine_stop_test(e);
}

/* Whether the kernel's task name comm (cut to 15 bytes) is name's. */
static int
engine_comm_is(const char *comm, const char *name, size_t len)
{
	size_t n = strlen(comm);

	if (n == 0 || strncmp(comm, name, n) != 0)
		return 0;
	return len == n || (n == 15 && len > n);
}

void
engine_blame(struct engine *e, const char *comm)
{
	const char *tag, *cmd, *base, *end;
	size_t i;

	if (comm == NULL || *comm == '\0' || e->blamed != NULL)
		return;
	for (i = 0; i < e->nw; i++) {
		if (e->w[i].r == NULL)
			continue;
		tag = e->tests[e->w[i].idx].tag;
		cmd = e->tests[e->w[i].idx].cmdline;
		/* The program: the command line's first word, its name. */
		cmd += strspn(cmd, " \t");
		end = cmd + strcspn(cmd, " \t");
		for (base = end; base > cmd && base[-1] != '/'; base--)
			;
		if (engine_comm_is(comm, tag, strlen(tag)) ||
		    engine_comm_is(comm, base, (size_t)(end - base))) {
			e->blamed = xstrdup(tag);
			return;
		}
	}
}

void
engine_box_gone(struct engine *e, const char *why)
{
	size_t i;

	if (e->lost_why == NULL)
		e->lost_why = xstrdup(why);
	for (i = 0; i < e->nw; i++)
		if (e->w[i].r != NULL)
			runner_give_up(e->w[i].r);
}

int
engine_run(struct engine *e, struct diaglist *dl)
{
	struct pollfd *pfd = xcalloc(e->nw, ENGINE_NPOLL * sizeof(*pfd));
	size_t n;
	int rv, ms;

	for (;;) {
		if ((rv = engine_service(e, dl)) != 0)
			break;
		n = engine_pollfds(e, pfd, e->nw * ENGINE_NPOLL);
		if ((ms = engine_poll_timeout(e)) == 0)
			continue;
		(void)poll(pfd, (nfds_t)n, ms);
	}
	free(pfd);
	return rv < 0 ? -1 : 0;
}

static void
engine_worker_free(struct eworker *w)
{
	if (w->r != NULL)
		runner_free(w->r);
	spool_free(w->spool);
	ltpout_free(w->parser);
}

void
engine_free(struct engine *e)
{
	size_t i;

	if (e == NULL)
		return;
	for (i = 0; i < e->nw; i++)
		engine_worker_free(&e->w[i]);
	runner_spares_free(e->spares);
	engine_worker_free(&e->instant);
	kmsg_close(e->kmsg);
	free(e->reset_test);
	/* Empty unless a test left a mount, already told as left behind. */
	if (e->rundir != NULL)
		(void)rmtree(e->rundir);
	free(e->rundir);
	free(e->w);
	for (i = 0; i < e->n; i++) {
		free(e->tests[i].tag);
		free(e->tests[i].syscall);
		free(e->tests[i].cmdline);
		free(e->tests[i].notrun);
		free(e->tests[i].conflicts);
	}
	free(e->tests);
	for (i = 0; i < e->nleft; i++)
		free(e->left[i]);
	free(e->left);
	for (i = 0; i < e->ncleaned; i++)
		free(e->cleaned[i]);
	free(e->cleaned);
	ipcleft_free(e->ipc);
	if (e->lazy) {
		/* Stopped between services: what it stored goes to disk. */
		struct diaglist dl;

		diag_init(&dl);
		(void)engine_durable(e, &dl);
		diag_free(&dl);
	}
	free(e->lost_test);
	free(e->blamed);
	free(e->lost_why);
	for (i = 0; i < e->npending; i++)
		free(e->pending[i].why);
	free(e->pending);
	free(e);
}
