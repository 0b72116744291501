/*
 * LTP's metadata (see ltpmeta.h): ltp.json read into per-test records,
 * looked up by metadata name and by runtest tag.
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpmeta_json.h"
#include "ltpscope/ltpmeta.h"
#include "ltpscope/xmalloc.h"

/* A metadata file larger than this is not LTP's. */
#define LTPMETA_MAX_SIZE	(64u * 1024 * 1024)

static size_t
ltpmeta_hash_str(const char *s)
{
	size_t h = 5381;

	while (*s != '\0')
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void
strv_add(struct ltpmeta_strv *sv, const char *s)
{
	sv->v = xreallocarray(sv->v, sv->n + 2, sizeof(*sv->v));
	sv->v[sv->n++] = xstrdup(s);
	sv->v[sv->n] = NULL;
}

static void
strv_free(struct ltpmeta_strv *sv)
{
	size_t i;

	for (i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}

static void
meta_warn(struct diaglist *dl, const char *file, const struct mj_value *v,
    const char *test, const char *key, const char *want)
{
	diag_add(dl, DIAG_WARNING, file, v->line, v->col, "test \"%s\": "
	    "\"%s\" should be %s; ignored", test, key, want);
}

/* A boolean member; LTP writes true, and rarely 1. */
static int
meta_bool(const struct mj_value *v, const char *file, const char *test,
    const char *key, struct diaglist *dl)
{
	if (v->type == MJ_TRUE)
		return 1;
	if (v->type == MJ_FALSE || v->type == MJ_NULL)
		return 0;
	if (v->type == MJ_NUMBER)
		return v->num != 0;
	meta_warn(dl, file, v, test, key, "true or false");
	return 0;
}

/* Seconds from "30" or 30; TST_UNLIMITED_TIMEOUT is 0 (none). */
static int
meta_seconds(const struct mj_value *v, const char *file, const char *test,
    const char *key, struct diaglist *dl)
{
	const char *s = v->str;
	char *end;
	long n;

	if (v->type == MJ_NUMBER && v->num >= 0 && v->num < 1e7)
		return (int)v->num;
	if (v->type == MJ_STRING) {
		if (strcmp(s, "TST_UNLIMITED_TIMEOUT") == 0 ||
		    strcmp(s, "TST_UNLIMITED_RUNTIME") == 0)
			return 0;
		errno = 0;
		n = strtol(s, &end, 10);
		if (errno == 0 && end != s && *end == '\0' && n >= 0 &&
		    n < 10000000)
			return (int)n;
	}
	meta_warn(dl, file, v, test, key, "a number of seconds");
	return -1;
}

/*
 * A list of strings.  An element that is itself a list contributes its
 * first string (save_restore: [path, value, action]); an object its
 * member "member" (needs_cmds: {"cmd": ...}, filesystems: {"type":
 * ...}) unless it says "optional": true.  A lone string is a list of
 * one (resource_files is sometimes written so).
 */
static void
meta_strv(struct ltpmeta_strv *sv, const struct mj_value *v,
    const char *member, const char *file, const char *test,
    const char *key, struct diaglist *dl)
{
	const struct mj_value *it, *opt;
	const char *s;
	size_t i;

	if (v->type == MJ_STRING) {
		strv_add(sv, v->str);
		return;
	}
	if (v->type != MJ_ARRAY) {
		meta_warn(dl, file, v, test, key, "a list");
		return;
	}
	for (i = 0; i < v->n; i++) {
		it = &v->items[i];
		s = NULL;
		if (it->type == MJ_STRING)
			s = it->str;
		else if (it->type == MJ_ARRAY && it->n > 0)
			s = mj_str(&it->items[0]);
		else if (it->type == MJ_OBJECT && member != NULL) {
			opt = mj_get(it, "optional");
			if (opt != NULL && (opt->type == MJ_TRUE ||
			    (mj_str(opt) != NULL && strcmp(opt->str, "1") ==
			    0)))
				continue;
			/* Settings without one ({"mnt_flags": ...} for
			   the default filesystem) add no name. */
			if (mj_get(it, member) == NULL)
				continue;
			s = mj_str(mj_get(it, member));
		}
		if (s == NULL) {
			meta_warn(dl, file, it, test, key, "a list of "
			    "strings");
			continue;
		}
		strv_add(sv, s);
	}
}

static void
meta_tags(struct ltpmeta_test *t, const struct mj_value *v,
    const char *file, struct diaglist *dl)
{
	const struct mj_value *it;
	size_t i;

	if (v->type != MJ_ARRAY) {
		meta_warn(dl, file, v, t->name, "tags", "a list of pairs");
		return;
	}
	for (i = 0; i < v->n; i++) {
		it = &v->items[i];
		if (it->type != MJ_ARRAY || it->n != 2 ||
		    mj_str(&it->items[0]) == NULL ||
		    mj_str(&it->items[1]) == NULL) {
			meta_warn(dl, file, it, t->name, "tags",
			    "a list of [kind, value] pairs");
			continue;
		}
		t->tags = xreallocarray(t->tags, t->ntags + 1,
		    sizeof(*t->tags));
		t->tags[t->ntags].kind = xstrdup(it->items[0].str);
		t->tags[t->ntags].value = xstrdup(it->items[1].str);
		t->ntags++;
	}
}

static void
meta_test(struct ltpmeta_test *t, const char *name, const struct mj_value *o,
    const char *file, struct diaglist *dl)
{
	const struct mj_value *v;
	const char *k;
	size_t i;

	memset(t, 0, sizeof(*t));
	t->name = xstrdup(name);
	t->timeout = -1;
	t->max_runtime = -1;
	for (i = 0; i < o->n; i++) {
		k = o->keys[i];
		v = &o->items[i];
		if (strcmp(k, "fname") == 0 && v->type == MJ_STRING) {
			free(t->fname);
			t->fname = xstrdup(v->str);
		} else if (strcmp(k, "groups") == 0)
			meta_strv(&t->groups, v, NULL, file, name, k, dl);
		else if (strcmp(k, "doc") == 0)
			meta_strv(&t->doc, v, NULL, file, name, k, dl);
		else if (strcmp(k, "needs_root") == 0)
			t->needs_root = meta_bool(v, file, name, k, dl);
		else if (strcmp(k, "needs_device") == 0)
			t->needs_device = meta_bool(v, file, name, k, dl);
		else if (strcmp(k, "mount_device") == 0)
			t->mount_device = meta_bool(v, file, name, k, dl);
		else if (strcmp(k, "format_device") == 0)
			t->format_device = meta_bool(v, file, name, k, dl);
		else if (strcmp(k, "all_filesystems") == 0)
			t->all_filesystems = meta_bool(v, file, name, k, dl);
		else if (strcmp(k, "needs_tmpdir") == 0)
			t->needs_tmpdir = meta_bool(v, file, name, k, dl);
		else if (strcmp(k, "mntpoint") == 0 && v->type == MJ_STRING) {
			free(t->mntpoint);
			t->mntpoint = xstrdup(v->str);
		} else if (strcmp(k, "needs_kconfigs") == 0)
			meta_strv(&t->needs_kconfigs, v, NULL, file, name, k,
			    dl);
		else if (strcmp(k, "filesystems") == 0)
			meta_strv(&t->filesystems, v, "type", file, name, k,
			    dl);
		else if (strcmp(k, "skip_filesystems") == 0)
			meta_strv(&t->skip_filesystems, v, NULL, file, name, k,
			    dl);
		else if (strcmp(k, "min_kver") == 0 && v->type == MJ_STRING) {
			free(t->min_kver);
			t->min_kver = xstrdup(v->str);
		} else if (strcmp(k, "supported_archs") == 0)
			meta_strv(&t->supported_archs, v, NULL, file, name, k,
			    dl);
		else if (strcmp(k, "needs_cmds") == 0)
			meta_strv(&t->needs_cmds, v, "cmd", file, name, k, dl);
		else if (strcmp(k, "resource_files") == 0)
			meta_strv(&t->resource_files, v, NULL, file, name, k,
			    dl);
		else if (strcmp(k, "save_restore") == 0)
			meta_strv(&t->save_restore, v, NULL, file, name, k,
			    dl);
		else if (strcmp(k, "timeout") == 0)
			t->timeout = meta_seconds(v, file, name, k, dl);
		else if (strcmp(k, "runtime") == 0 ||
		    strcmp(k, "max_runtime") == 0)
			t->max_runtime = meta_seconds(v, file, name, k, dl);
		else if (strcmp(k, "tags") == 0)
			meta_tags(t, v, file, dl);
		/* Anything else (caps, ulimit, hugepages...) is not used. */
	}
}

static void
meta_test_free(struct ltpmeta_test *t)
{
	size_t i;

	free(t->name);
	free(t->fname);
	free(t->mntpoint);
	free(t->min_kver);
	strv_free(&t->groups);
	strv_free(&t->doc);
	strv_free(&t->needs_kconfigs);
	strv_free(&t->filesystems);
	strv_free(&t->skip_filesystems);
	strv_free(&t->supported_archs);
	strv_free(&t->needs_cmds);
	strv_free(&t->resource_files);
	strv_free(&t->save_restore);
	for (i = 0; i < t->ntags; i++) {
		free(t->tags[i].kind);
		free(t->tags[i].value);
	}
	free(t->tags);
}

static void
meta_hash_build(struct ltpmeta *m)
{
	size_t i, h;

	m->hashcap = 16;
	while (m->hashcap < m->ntests * 2)
		m->hashcap *= 2;
	m->hash = xcalloc(m->hashcap, sizeof(*m->hash));
	for (i = 0; i < m->ntests; i++) {
		h = ltpmeta_hash_str(m->tests[i].name) & (m->hashcap - 1);
		while (m->hash[h] != 0)
			h = (h + 1) & (m->hashcap - 1);
		m->hash[h] = i + 1;
	}
}

struct ltpmeta *
ltpmeta_load_buf(const char *name, const char *buf, size_t len,
    struct diaglist *dl)
{
	struct mj_value *root;
	const struct mj_value *tests, *v, *d;
	struct ltpmeta *m;
	size_t i;

	if ((root = mj_parse(buf, len, name, dl)) == NULL)
		return NULL;
	tests = mj_get(root, "tests");
	if (tests == NULL || tests->type != MJ_OBJECT) {
		diag_add(dl, DIAG_ERROR, name, root->line, root->col,
		    "not LTP metadata: no \"tests\" object");
		mj_free(root);
		return NULL;
	}
	m = xcalloc(1, sizeof(*m));
	m->file = xstrdup(name);
	v = mj_get(mj_get(root, "testsuite"), "version");
	m->version = xstrdup(mj_str(v) != NULL ? v->str : "");
	m->default_timeout = 30;	/* LTP's own default */
	d = mj_get(mj_get(root, "defaults"), "timeout");
	if (d != NULL && (d->type == MJ_NUMBER || d->type == MJ_STRING)) {
		int s = meta_seconds(d, name, "defaults", "timeout", dl);

		if (s >= 0)
			m->default_timeout = s;
	}
	m->tests = xcalloc(tests->n ? tests->n : 1, sizeof(*m->tests));
	for (i = 0; i < tests->n; i++) {
		v = &tests->items[i];
		if (v->type != MJ_OBJECT) {
			diag_add(dl, DIAG_WARNING, name, v->line, v->col,
			    "test \"%s\" is not an object; skipped",
			    tests->keys[i]);
			continue;
		}
		if (ltpmeta_find(m, tests->keys[i]) != NULL)
			continue;	/* the parser warned already */
		meta_test(&m->tests[m->ntests++], tests->keys[i], v, name,
		    dl);
		/* The hash is rebuilt at the end; ltpmeta_find scans. */
	}
	mj_free(root);
	free(m->hash);
	meta_hash_build(m);
	return m;
}

struct ltpmeta *
ltpmeta_load_file(const char *path, struct diaglist *dl)
{
	struct ltpmeta *m;
	struct stat sb;
	FILE *fp;
	char *buf;
	size_t len;

	if ((fp = fopen(path, "r")) == NULL) {
		diag_error(dl, path, 0, "cannot open: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fileno(fp), &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (size_t)sb.st_size > LTPMETA_MAX_SIZE) {
		diag_error(dl, path, 0, "not a regular file of at most "
		    "%u MB", LTPMETA_MAX_SIZE >> 20);
		fclose(fp);
		return NULL;
	}
	buf = xmalloc((size_t)sb.st_size + 1);
	len = fread(buf, 1, (size_t)sb.st_size, fp);
	if (ferror(fp)) {
		diag_error(dl, path, 0, "read error: %s", strerror(errno));
		fclose(fp);
		free(buf);
		return NULL;
	}
	fclose(fp);
	m = ltpmeta_load_buf(path, buf, len, dl);
	free(buf);
	return m;
}

struct ltpmeta *
ltpmeta_load_root(const char *root, struct diaglist *dl)
{
	struct ltpmeta *m;
	char *path;

	xasprintf(&path, "%s/%s", root, LTPMETA_RELPATH);
	if (access(path, F_OK) != 0) {
		free(path);
		return NULL;
	}
	m = ltpmeta_load_file(path, dl);
	free(path);
	return m;
}

void
ltpmeta_free(struct ltpmeta *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->ntests; i++)
		meta_test_free(&m->tests[i]);
	for (i = 0; i < m->nalias; i++)
		free(m->alias_tag[i]);
	free(m->alias_tag);
	free(m->alias_idx);
	free(m->ahash);
	free(m->tests);
	free(m->hash);
	free(m->file);
	free(m->version);
	free(m);
}

const struct ltpmeta_test *
ltpmeta_find(const struct ltpmeta *m, const char *name)
{
	size_t h, i;

	if (m == NULL || name == NULL)
		return NULL;
	if (m->hash == NULL) {
		for (i = 0; i < m->ntests; i++)
			if (strcmp(m->tests[i].name, name) == 0)
				return &m->tests[i];
		return NULL;
	}
	h = ltpmeta_hash_str(name) & (m->hashcap - 1);
	for (; m->hash[h] != 0; h = (h + 1) & (m->hashcap - 1))
		if (strcmp(m->tests[m->hash[h] - 1].name, name) == 0)
			return &m->tests[m->hash[h] - 1];
	return NULL;
}

/* name, else name without a trailing _64 or _16 (the other ABI builds). */
static const struct ltpmeta_test *
meta_find_abi(const struct ltpmeta *m, const char *name, size_t len)
{
	const struct ltpmeta_test *t;
	char buf[256];

	if (len == 0 || len >= sizeof(buf))
		return NULL;
	memcpy(buf, name, len);
	buf[len] = '\0';
	if ((t = ltpmeta_find(m, buf)) != NULL)
		return t;
	if (len > 3 && buf[len - 3] == '_' && (strcmp(buf + len - 2, "64") ==
	    0 || strcmp(buf + len - 2, "16") == 0)) {
		buf[len - 3] = '\0';
		return ltpmeta_find(m, buf);
	}
	return NULL;
}

const struct ltpmeta_test *
ltpmeta_resolve(const struct ltpmeta *m, const char *tag,
    const char *cmdline)
{
	const struct ltpmeta_test *t;
	const char *p, *s, *e;

	if (m == NULL || tag == NULL)
		return NULL;
	if ((t = ltpmeta_find(m, tag)) != NULL)
		return t;
	/* The program the line runs: its first word, without a path. */
	if (cmdline != NULL) {
		for (p = cmdline; *p == ' ' || *p == '\t'; p++)
			continue;
		for (e = p; *e != '\0' && *e != ' ' && *e != '\t'; e++)
			continue;
		for (s = e; s > p && s[-1] != '/'; s--)
			continue;
		if ((t = meta_find_abi(m, s, (size_t)(e - s))) != NULL)
			return t;
	}
	return meta_find_abi(m, tag, strlen(tag));
}

static void
meta_alias_insert(struct ltpmeta *m, size_t a)
{
	size_t h = ltpmeta_hash_str(m->alias_tag[a]) & (m->ahashcap - 1);

	while (m->ahash[h] != 0)
		h = (h + 1) & (m->ahashcap - 1);
	m->ahash[h] = a + 1;
}

void
ltpmeta_bind(struct ltpmeta *m, const struct ltpindex *idx)
{
	const struct ltpmeta_test *t;
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nalias; i++)
		free(m->alias_tag[i]);
	free(m->alias_tag);
	free(m->alias_idx);
	free(m->ahash);
	m->alias_tag = NULL;
	m->alias_idx = NULL;
	m->nalias = 0;
	m->ahashcap = 16;
	while (m->ahashcap < idx->ntests * 2)
		m->ahashcap *= 2;
	m->ahash = xcalloc(m->ahashcap, sizeof(*m->ahash));
	m->alias_tag = xcalloc(idx->ntests ? idx->ntests : 1,
	    sizeof(*m->alias_tag));
	m->alias_idx = xcalloc(idx->ntests ? idx->ntests : 1,
	    sizeof(*m->alias_idx));
	for (i = 0; i < idx->ntests; i++) {
		t = ltpmeta_resolve(m, idx->tests[i].tag,
		    idx->tests[i].cmdline);
		if (t == NULL)
			continue;
		m->alias_tag[m->nalias] = xstrdup(idx->tests[i].tag);
		m->alias_idx[m->nalias] = (size_t)(t - m->tests);
		meta_alias_insert(m, m->nalias);
		m->nalias++;
	}
}

const struct ltpmeta_test *
ltpmeta_test(const struct ltpmeta *m, const char *tag)
{
	size_t h;

	if (m == NULL || tag == NULL)
		return NULL;
	if (m->ahash != NULL) {
		h = ltpmeta_hash_str(tag) & (m->ahashcap - 1);
		for (; m->ahash[h] != 0; h = (h + 1) & (m->ahashcap - 1))
			if (strcmp(m->alias_tag[m->ahash[h] - 1], tag) == 0)
				return &m->tests[m->alias_idx[m->ahash[h] -
				    1]];
	}
	return ltpmeta_resolve(m, tag, NULL);
}

const char *
ltpmeta_group(const struct ltpmeta *m, const char *tag)
{
	const struct ltpmeta_test *t = ltpmeta_test(m, tag);

	return t != NULL && t->groups.n > 0 ? t->groups.v[0] : NULL;
}

char *const *
ltpmeta_doc(const struct ltpmeta *m, const char *tag, size_t *np)
{
	const struct ltpmeta_test *t = ltpmeta_test(m, tag);

	*np = t != NULL ? t->doc.n : 0;
	return t != NULL ? t->doc.v : NULL;
}

const struct ltpmeta_tag *
ltpmeta_tags(const struct ltpmeta *m, const char *tag, size_t *np)
{
	const struct ltpmeta_test *t = ltpmeta_test(m, tag);

	*np = t != NULL ? t->ntags : 0;
	return t != NULL && t->ntags > 0 ? t->tags : NULL;
}

int
ltpmeta_checks_linux_bug(const struct ltpmeta_test *t)
{
	size_t i;

	if (t == NULL)
		return 0;
	for (i = 0; i < t->ntags; i++)
		if (strcmp(t->tags[i].kind, "linux-git") == 0 ||
		    strcmp(t->tags[i].kind, "CVE") == 0)
			return 1;
	return 0;
}

int
ltpmeta_tag_url(const struct ltpmeta_tag *tag, char *buf, size_t len)
{
	static const struct {
		const char	*kind;
		const char	*fmt;
	} urls[] = {
		{ "linux-git", "https://git.kernel.org/pub/scm/linux/kernel/"
		    "git/torvalds/linux.git/commit/?id=%s" },
		{ "linux-stable-git", "https://git.kernel.org/pub/scm/linux/"
		    "kernel/git/stable/linux.git/commit/?id=%s" },
		{ "CVE", "https://www.cve.org/CVERecord?id=CVE-%s" },
		{ "glibc-git", "https://sourceware.org/git/?p=glibc.git;"
		    "a=commit;h=%s" },
		{ "musl-git", "https://git.musl-libc.org/cgit/musl/commit/"
		    "?id=%s" },
	};
	const char *p;
	size_t i;

	/* The value lands in a URL: only the characters ids are made of. */
	for (p = tag->value; *p != '\0'; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z') || *p == '-'))
			return -1;
	for (i = 0; i < sizeof(urls) / sizeof(urls[0]); i++)
		if (strcmp(tag->kind, urls[i].kind) == 0) {
			snprintf(buf, len, urls[i].fmt, tag->value);
			return 0;
		}
	return -1;
}

int
ltpmeta_parallel_safe(const struct ltpmeta_test *t, char *why, size_t len)
{
	const char *r = NULL;

	if (t == NULL)
		r = "no metadata";
	else if (t->needs_root)
		r = "needs_root";
	else if (t->needs_device)
		r = "needs_device";
	else if (t->mount_device)
		r = "mount_device";
	else if (t->mntpoint != NULL)
		r = "mntpoint";
	else if (t->resource_files.n > 0)
		r = "resource_files";
	else if (t->format_device)
		r = "format_device";
	else if (t->save_restore.n > 0)
		r = "save_restore";
	else if (t->max_runtime >= 0)
		r = "max_runtime";
	else if (t->all_filesystems)
		r = "all_filesystems";
	if (why != NULL && len > 0)
		snprintf(why, len, "%s", r != NULL ? r : "");
	return r == NULL;
}

static void
req_add(char *buf, size_t len, size_t *o, const char *fmt, ...)
	__attribute__((__format__(__printf__, 4, 5)));

static void
req_add(char *buf, size_t len, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*o >= len)
		return;
	if (*o > 0) {
		n = snprintf(buf + *o, len - *o, "; ");
		*o += n > 0 ? (size_t)n : 0;
		if (*o >= len)
			return;
	}
	va_start(ap, fmt);
	n = vsnprintf(buf + *o, len - *o, fmt, ap);
	va_end(ap);
	*o += n > 0 ? (size_t)n : 0;
}

static void
req_list(char *buf, size_t len, size_t *o, const char *what,
    const struct ltpmeta_strv *sv)
{
	char list[512];
	size_t i, l = 0;

	if (sv->n == 0)
		return;
	list[0] = '\0';
	for (i = 0; i < sv->n && l < sizeof(list); i++)
		l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s",
		    i ? ", " : "", sv->v[i]);
	req_add(buf, len, o, "%s %s", what, list);
}

void
ltpmeta_requirements(const struct ltpmeta_test *t, char *buf, size_t len)
{
	size_t o = 0;

	if (len == 0)
		return;
	buf[0] = '\0';
	if (t == NULL)
		return;
	if (t->needs_root)
		req_add(buf, len, &o, "root");
	if (t->needs_device || t->format_device || t->mount_device)
		req_add(buf, len, &o, "a block device");
	if (t->all_filesystems)
		req_add(buf, len, &o, "all filesystems");
	req_list(buf, len, &o, "filesystems", &t->filesystems);
	req_list(buf, len, &o, "not on", &t->skip_filesystems);
	req_list(buf, len, &o, "kernel config", &t->needs_kconfigs);
	if (t->min_kver != NULL)
		req_add(buf, len, &o, "Linux >= %s", t->min_kver);
	req_list(buf, len, &o, "archs", &t->supported_archs);
	req_list(buf, len, &o, "commands", &t->needs_cmds);
	if (t->timeout >= 0)
		req_add(buf, len, &o, "timeout %d s", t->timeout);
	if (t->max_runtime >= 0)
		req_add(buf, len, &o, "runtime %d s", t->max_runtime);
}
