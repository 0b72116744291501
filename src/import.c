/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Importing a compat_linux_test_project log tree as one run (see
 * import.h), plus what every importer shares: storing results through
 * the crash protocol, the logs' dates, the run's config lines.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ltpscope/ctplog.h"
#include "ltpscope/import.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/slurp.h"
#include "ltpscope/verdict.h"
#include "ltpscope/xmalloc.h"
#include "import_impl.h"

/* One log found in the tree. */
struct ctp_file {
	char		*path;
	char		*syscall;
	char		*tag;
	struct ctplog	 log;
	int		 ok;
};

struct ctp_scan {
	struct ctp_file	*v;
	size_t		 n;
	size_t		 cap;
};

static const char *const wdays[] = { "Sun", "Mon", "Tue", "Wed", "Thu",
    "Fri", "Sat" };
static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May",
    "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

void
textbuf_add(struct textbuf *b, const char *s, size_t n)
{
	if (b->cap - b->len < n + 1) {
		while (b->cap - b->len < n + 1)
			b->cap = b->cap ? b->cap * 2 : 256;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
textbuf_printf(struct textbuf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	(void)vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	textbuf_add(b, s, (size_t)n);
	free(s);
}

/* Days since 1970-01-01 of a civil date (proleptic Gregorian). */
static int64_t
days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int64_t
import_parse_date(const char *s)
{
	char mon[4], zone[8];
	int d, y, hh, mm, ss, m, n = 0, off;
	const char *p = s;

	/* The weekday is optional in RFC 5322 and carries nothing. */
	if (strlen(p) > 5 && p[3] == ',' && p[4] == ' ')
		p += 5;
	if (sscanf(p, "%2d %3s %4d %2d:%2d:%2d %7s%n", &d, mon, &y, &hh, &mm,
	    &ss, zone, &n) != 7 || p[n] != '\0')
		return -1;
	for (m = 0; m < 12; m++)
		if (strcmp(mon, months[m]) == 0)
			break;
	if (m == 12 || d < 1 || d > 31 || hh > 23 || mm > 59 || ss > 60 ||
	    hh < 0 || mm < 0 || ss < 0)
		return -1;
	if (strcmp(zone, "UTC") == 0 || strcmp(zone, "GMT") == 0)
		off = 0;
	else if ((zone[0] == '+' || zone[0] == '-') && strlen(zone) == 5 &&
	    strspn(zone + 1, "0123456789") == 4) {
		off = ((zone[1] - '0') * 10 + (zone[2] - '0')) * 3600 +
		    ((zone[3] - '0') * 10 + (zone[4] - '0')) * 60;
		if (zone[0] == '-')
			off = -off;
	} else
		return -1;
	return days_from_civil(y, m + 1, d) * 86400 + hh * 3600 + mm * 60 +
	    ss - off;
}

void
import_format_date(int64_t t, char *buf, size_t len)
{
	time_t tt = (time_t)t;
	struct tm tm;

	/* By hand: strftime's %a and %b follow the locale. */
	if (gmtime_r(&tt, &tm) == NULL) {
		(void)snprintf(buf, len, "Thu, 01 Jan 1970 00:00:00 +0000");
		return;
	}
	(void)snprintf(buf, len, "%s, %02d %s %04d %02d:%02d:%02d +0000",
	    wdays[tm.tm_wday % 7], tm.tm_mday, months[tm.tm_mon % 12],
	    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

char *
import_config_get(const char *config, const char *key)
{
	const char *p, *nl;
	size_t klen = strlen(key);

	for (p = config; p != NULL && *p != '\0'; p = nl != NULL ? nl + 1 :
	    NULL) {
		nl = strchr(p, '\n');
		if (strncmp(p, key, klen) == 0 && p[klen] == '=')
			return nl != NULL ? xstrndup(p + klen + 1,
			    (size_t)(nl - p - (ptrdiff_t)klen - 1)) :
			    xstrdup(p + klen + 1);
	}
	return NULL;
}

int
import_store_items(struct store *st, struct store_run *run,
    const struct import_item *items, size_t n, const struct import_opts *opts,
    struct import_stats *stats, struct diaglist *dl)
{
	struct store_queue_item *q;
	int64_t rid;
	size_t i;
	int err;

	if (opts != NULL && opts->linux_only != NULL &&
	    strcmp(run->os_name, "Linux") != 0) {
		diag_error(dl, opts->linux_only, 0, "a run made on %s, not "
		    "Linux: not a Linux reference; nothing imported",
		    run->os_name[0] != '\0' ? run->os_name :
		    "an unknown system");
		return -1;
	}
	q = xcalloc(n ? n : 1, sizeof(*q));
	for (i = 0; i < n; i++) {
		q[i].pos = (int64_t)i;
		q[i].tag = items[i].r.tag;
		q[i].syscall = items[i].r.syscall;
		q[i].cmdline = (char *)(items[i].cmdline != NULL ?
		    items[i].cmdline : items[i].r.tag);
	}
	err = store_run_begin(st, run, q, n, dl);
	free(q);
	if (err != STORE_OK)
		return -1;
	stats->run_id = run->id;
	for (i = 0; i < n; i++) {
		if (store_test_start(st, run->id, items[i].r.tag,
		    items[i].r.syscall, (int64_t)i, &rid, dl) != STORE_OK ||
		    store_test_finish(st, rid, &items[i].r, items[i].out,
		    items[i].outlen, dl) != STORE_OK) {
			(void)store_run_end(st, run->id, RUN_INTERRUPTED, dl);
			return -1;
		}
		stats->ntests++;
		stats->counts[items[i].r.status]++;
		if (test_status_env_marked(items[i].r.status,
		    items[i].r.nenvwarn))
			stats->nenvmarked++;
		if (opts != NULL && opts->progress != NULL)
			opts->progress(opts->progress_arg, i + 1, n);
	}
	if (store_run_end(st, run->id, RUN_FINISHED, dl) != STORE_OK)
		return -1;
	return 0;
}

/* --- finding the logs --- */

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* What cannot be a tag or syscall: it could not be kept or exported. */
static int
name_ok(const char *s)
{
	return s[0] != '\0' && strcmp(s, ".") != 0 && strcmp(s, "..") != 0 &&
	    strpbrk(s, "/:=\n\r\t ") == NULL;
}

static void
scan_add(struct ctp_scan *sc, const char *path, const char *syscall,
    const char *name)
{
	struct ctp_file *f;

	if (sc->n == sc->cap) {
		sc->cap = sc->cap ? sc->cap * 2 : 64;
		sc->v = xreallocarray(sc->v, sc->cap, sizeof(*sc->v));
	}
	f = &sc->v[sc->n++];
	memset(f, 0, sizeof(*f));
	f->path = xstrdup(path);
	f->syscall = xstrdup(syscall);
	f->tag = xstrndup(name, strlen(name) - 4);
	ctplog_init(&f->log);
}

static void
scan_dir(struct ctp_scan *sc, const char *dir, const char *dirname,
    int depth, struct import_stats *stats, struct diaglist *dl)
{
	char **names = NULL, *path;
	size_t n = 0, cap = 0, i, len;
	struct dirent *de;
	struct stat sb;
	DIR *d;

	if ((d = opendir(dir)) == NULL) {
		diag_add(dl, DIAG_WARNING, dir, 0, 0, "cannot read the "
		    "directory: %s", strerror(errno));
		stats->nbad++;
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = xreallocarray(names, cap, sizeof(*names));
		}
		names[n++] = xstrdup(de->d_name);
	}
	(void)closedir(d);
	/* Sorted, so a run's order does not depend on the file system. */
	if (n > 1)
		qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		(void)xasprintf(&path, "%s/%s", dir, names[i]);
		len = strlen(names[i]);
		if (stat(path, &sb) != 0) {
			diag_add(dl, DIAG_WARNING, path, 0, 0, "cannot read: "
			    "%s", strerror(errno));
			stats->nbad++;
		} else if (S_ISDIR(sb.st_mode)) {
			if (depth < IMPORT_DEPTH_MAX)
				scan_dir(sc, path, names[i], depth + 1, stats,
				    dl);
		} else if (len > 4 && strcmp(names[i] + len - 4, ".log") == 0) {
			if (depth == 0) {
				diag_add(dl, DIAG_WARNING, path, 0, 0, "not "
				    "in a <syscall>/ directory; skipped");
				stats->nbad++;
			} else if (!S_ISREG(sb.st_mode)) {
				diag_add(dl, DIAG_WARNING, path, 0, 0, "not "
				    "a regular file; skipped");
				stats->nbad++;
			} else
				scan_add(sc, path, dirname, names[i]);
		}
		free(path);
		free(names[i]);
	}
	free(names);
}

/* Reads a whole file; NULL and a warning when it cannot. */
static char *
slurp(const char *path, size_t *lenp, struct diaglist *dl)
{
	char *buf;
	int rc;

	if ((rc = slurp_file(path, 0, &buf, lenp)) != SLURP_OK) {
		diag_add(dl, DIAG_WARNING, path, 0, 0, "cannot %s: %s; "
		    "skipped", rc == SLURP_EOPEN ? "open" : "read",
		    strerror(errno));
		return NULL;
	}
	return buf;
}

/* Problems ctplog found become warnings: the import carries on. */
static void
copy_as_warnings(struct diaglist *dl, const struct diaglist *from,
    const char *suffix)
{
	size_t i;

	for (i = 0; i < from->n; i++)
		diag_add(dl, DIAG_WARNING, from->v[i].file, from->v[i].line,
		    from->v[i].col, "%s%s", from->v[i].msg, suffix);
}

/* A key with '=' cannot be kept in "key=value" config lines. */
static void
drop_bad_keys(struct ctp_file *f, struct diaglist *dl)
{
	struct ctplog *log = &f->log;
	size_t i, j;

	for (i = j = 0; i < log->npairs; i++) {
		if (strchr(log->pairs[i].key, '=') != NULL) {
			diag_add(dl, DIAG_WARNING, f->path, 0, 0, "header key "
			    "'%s' holds '='; not kept", log->pairs[i].key);
			free(log->pairs[i].key);
			free(log->pairs[i].value);
			continue;
		}
		log->pairs[j++] = log->pairs[i];
	}
	log->npairs = j;
}

static int
read_log(struct ctp_file *f, struct diaglist *dl)
{
	struct diaglist pdl;
	const char *nul;
	unsigned long line;
	size_t len, i;
	char *buf;
	int rc;

	if ((buf = slurp(f->path, &len, dl)) == NULL)
		return -1;
	diag_init(&pdl);
	rc = ctplog_parse(&f->log, buf, len, f->path, &pdl);
	/* A header is text; the output after it may be anything. */
	if (rc == 0 && (nul = memchr(buf, '\0', len - f->log.bodylen)) !=
	    NULL) {
		for (line = 1, i = 0; buf + i < nul; i++)
			line += buf[i] == '\n';
		diag_add(dl, DIAG_WARNING, f->path, line, 0,
		    "binary data in the header; skipped");
		rc = -1;
	} else
		copy_as_warnings(dl, &pdl, rc != 0 ? "; skipped" : "");
	diag_free(&pdl);
	free(buf);
	if (rc == 0)
		drop_bad_keys(f, dl);
	return rc;
}

/* --- the run's config: what the store has no column for --- */

static int
same_keys(const struct ctplog *a, const struct ctplog *b)
{
	size_t i;

	if (a->npairs != b->npairs)
		return 0;
	for (i = 0; i < a->npairs; i++)
		if (strcmp(a->pairs[i].key, b->pairs[i].key) != 0)
			return 0;
	return 1;
}

/* The value every log has for key, or NULL when they differ. */
static const char *
common_value(const struct ctp_file *v, size_t n, const char *key)
{
	const char *first = NULL, *val;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!v[i].ok)
			continue;
		if ((val = ctplog_get(&v[i].log, key)) == NULL)
			return NULL;
		if (first == NULL)
			first = val;
		else if (strcmp(first, val) != 0)
			return NULL;
	}
	return first;
}

static int
key_listed(const struct ctplog *log, size_t upto, const char *key)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (strcmp(log->pairs[i].key, key) == 0)
			return 1;
	return 0;
}

/* The value of ref's key j that every log shares, or NULL. */
static const char **
common_values(const struct ctp_file *v, size_t n, const struct ctp_file *ref)
{
	const char **common;
	size_t j;

	common = xcalloc(ref->log.npairs + 1, sizeof(*common));
	for (j = 0; j < ref->log.npairs; j++)
		if (!key_listed(&ref->log, j, ref->log.pairs[j].key))
			common[j] = common_value(v, n, ref->log.pairs[j].key);
	return common;
}

/* Whether key has a shared value, so no log needs its own line. */
static int
key_common(const struct ctp_file *ref, const char **common, const char *key)
{
	size_t j;

	for (j = 0; j < ref->log.npairs; j++)
		if (strcmp(ref->log.pairs[j].key, key) == 0)
			return common[j] != NULL;
	return 0;
}

static char *
build_config(const struct ctp_file *v, size_t n, const struct ctp_file *ref)
{
	struct textbuf b;
	const char **common, *val;
	size_t i, j;

	memset(&b, 0, sizeof(b));
	common = common_values(v, n, ref);
	textbuf_printf(&b, "source=%s\nctp.keys=", IMPORT_SOURCE_CTP);
	for (j = 0; j < ref->log.npairs; j++)
		textbuf_printf(&b, "%s%s", j > 0 ? " " : "",
		    ref->log.pairs[j].key);
	textbuf_add(&b, "\n", 1);
	for (j = 0; j < ref->log.npairs; j++)
		if (common[j] != NULL &&
		    strcmp(ref->log.pairs[j].key, "syscall_tested") != 0)
			textbuf_printf(&b, "ctp.%s=%s\n",
			    ref->log.pairs[j].key, common[j]);
	for (i = 0; i < n; i++) {
		const struct ctplog *log = &v[i].log;

		if (!v[i].ok)
			continue;
		if (!same_keys(log, &ref->log)) {
			textbuf_printf(&b, "ctp@%s/%s:=", v[i].syscall,
			    v[i].tag);
			for (j = 0; j < log->npairs; j++)
				textbuf_printf(&b, "%s%s", j > 0 ? " " : "",
				    log->pairs[j].key);
			textbuf_add(&b, "\n", 1);
		}
		for (j = 0; j < log->npairs; j++) {
			const char *k = log->pairs[j].key;

			if (key_listed(log, j, k))
				continue;
			val = log->pairs[j].value;
			/* The tool names the directory after it. */
			if (strcmp(k, "syscall_tested") == 0) {
				if (strcmp(val, v[i].syscall) == 0)
					continue;
			} else if (key_common(ref, common, k))
				continue;
			textbuf_printf(&b, "ctp@%s/%s:%s=%s\n", v[i].syscall,
			    v[i].tag, k, val);
		}
	}
	free(common);
	return b.s;
}

/* --- the import --- */

/* The exit_code header as ctplog_status() reads it, else -1. */
static int
log_exit_code(const struct ctplog *log)
{
	const char *s = ctplog_get(log, "exit_code");
	char *ep;
	long v;

	if (s == NULL)
		return -1;
	errno = 0;
	v = strtol(s, &ep, 10);
	if (ep == s || *ep != '\0' || errno != 0 || v < 0 || v > 255)
		return -1;
	return (int)v;
}

static const char *
hdr(const struct ctp_file *ref, const char *key)
{
	const char *v = ref != NULL ? ctplog_get(&ref->log, key) : NULL;

	return v != NULL ? v : "";
}

static char *
dir_label(const char *dir)
{
	const char *end = dir + strlen(dir), *start;

	while (end > dir + 1 && end[-1] == '/')
		end--;
	for (start = end; start > dir && start[-1] != '/'; start--)
		continue;
	if (start == end)
		return xstrdup(dir);
	return xstrndup(start, (size_t)(end - start));
}

static int
dup_name(const struct ctp_scan *sc, size_t upto, const struct ctp_file *f)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (sc->v[i].ok && strcmp(sc->v[i].tag, f->tag) == 0 &&
		    strcmp(sc->v[i].syscall, f->syscall) == 0)
			return 1;
	return 0;
}

int
import_ctp_dir(struct store *st, const char *dir,
    const struct import_opts *opts, struct import_stats *stats,
    struct diaglist *dl)
{
	struct ctp_scan sc;
	struct ctp_file *ref = NULL, *f;
	struct import_item *items;
	struct store_run run;
	struct ltpout_tally t;
	struct test_end end;
	struct rules *rules = opts != NULL ? opts->rules : NULL;
	struct stat sb;
	char *label, *config;
	int64_t when, started = 0;
	size_t i, nitems = 0;
	int rc;

	memset(stats, 0, sizeof(*stats));
	if (stat(dir, &sb) != 0) {
		diag_error(dl, dir, 0, "%s", strerror(errno));
		return -1;
	}
	if (!S_ISDIR(sb.st_mode)) {
		diag_error(dl, dir, 0, "not a directory");
		return -1;
	}
	memset(&sc, 0, sizeof(sc));
	scan_dir(&sc, dir, "", 0, stats, dl);
	items = xcalloc(sc.n ? sc.n : 1, sizeof(*items));
	for (i = 0; i < sc.n; i++) {
		f = &sc.v[i];
		if (!name_ok(f->tag) || !name_ok(f->syscall)) {
			diag_add(dl, DIAG_WARNING, f->path, 0, 0, "the name "
			    "cannot be a test tag or syscall; skipped");
			stats->nbad++;
			continue;
		}
		if (dup_name(&sc, i, f)) {
			diag_add(dl, DIAG_WARNING, f->path, 0, 0, "%s/%s was "
			    "seen already in this tree; skipped", f->syscall,
			    f->tag);
			stats->nbad++;
			continue;
		}
		if (read_log(f, dl) != 0) {
			stats->nbad++;
			continue;
		}
		f->ok = 1;
		if (ref == NULL)
			ref = f;
		when = import_parse_date(hdr(f, "date"));
		if (when > 0 && (started == 0 || when < started))
			started = when;
		memset(&items[nitems], 0, sizeof(items[nitems]));
		items[nitems].r.tag = f->tag;
		items[nitems].r.syscall = f->syscall;
		(void)ctplog_status(&f->log, &t, NULL, 0);
		ctplog_end(&f->log, &end);
		t.env_warn = verdict_env_count(rules, f->log.body,
		    f->log.bodylen);
		(void)verdict_judge(rules, &items[nitems].r, &t, &end, NULL,
		    0);
		/* No exit status in these logs unless exit_code says. */
		items[nitems].r.exit_code = log_exit_code(&f->log);
		items[nitems].out = f->log.body;
		items[nitems].outlen = f->log.bodylen;
		nitems++;
	}
	rc = -1;
	if (nitems == 0)
		diag_error(dl, dir, 0, "no compat_linux_test_project logs "
		    "(<syscall>/<test>.log) found");
	else {
		label = opts != NULL && opts->label != NULL ?
		    xstrdup(opts->label) : dir_label(dir);
		config = build_config(sc.v, sc.n, ref);
		memset(&run, 0, sizeof(run));
		run.host = (char *)"";
		run.uname = (char *)hdr(ref, "netbsd_build");
		run.os_name = (char *)(strncmp(hdr(ref, "netbsd_build"),
		    "NetBSD", 6) == 0 || hdr(ref, "netbsd_version")[0] !=
		    '\0' ? "NetBSD" : "");
		run.os_version = (char *)hdr(ref, "netbsd_version");
		run.arch = (char *)hdr(ref, "arch");
		run.ltp_version = (char *)hdr(ref, "ltp_version");
		run.label = label;
		run.config = config;
		run.started = started;
		rc = import_store_items(st, &run, items, nitems, opts, stats,
		    dl);
		free(label);
		free(config);
	}
	for (i = 0; i < sc.n; i++) {
		free(sc.v[i].path);
		free(sc.v[i].syscall);
		free(sc.v[i].tag);
		ctplog_free(&sc.v[i].log);
	}
	free(sc.v);
	free(items);
	return rc;
}
