/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's settings file (see settings.h).  Lines are split by
 * hand on a bounded buffer: the file is the user's, but anything may
 * end up there, so no line length or byte may upset the parser.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/numparse.h"
#include "ltpscope/settings.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"

/* No setting needs more; a bigger file is not a settings file. */
#define SETTINGS_FILE_MAX	(1024 * 1024)

void
settings_init(struct settings *s)
{
	memset(s, 0, sizeof(*s));
}

void
settings_free(struct settings *s)
{
	free(s->boxes);
	s->boxes = NULL;
	s->nboxes = 0;
}

const struct settings_box *
settings_box(const struct settings *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nboxes; i++)
		if (strcmp(s->boxes[i].name, name) == 0)
			return &s->boxes[i];
	return NULL;
}

static int
settings_is(const char *key, size_t klen, const char *word)
{
	return strlen(word) == klen && memcmp(key, word, klen) == 0;
}

/* "yes" or "no" (nothing: yes) into *out; 0, or -1 said in dl. */
static int
settings_yesno(const char *name, unsigned long lineno, const char *key,
    size_t klen, const char *val, size_t vlen, int *out,
    struct diaglist *dl)
{
	if (vlen == 0 || settings_is(val, vlen, "yes"))
		*out = 1;
	else if (settings_is(val, vlen, "no"))
		*out = 0;
	else {
		diag_error(dl, name, lineno, "'%.*s' takes yes or no",
		    (int)klen, key);
		return -1;
	}
	return 0;
}

/* key's value as a whole number in [lo, hi]; 0, or -1 said in dl. */
static int
settings_number(const char *name, unsigned long lineno, const char *key,
    const char *val, size_t vlen, long long lo, long long hi, int *out,
    struct diaglist *dl)
{
	char *v = xstrndup(val, vlen), msg[160];
	long long n;
	int rv = 0;

	if (numparse_ll(v, lo, hi, &n, msg, sizeof(msg)) == 0)
		*out = (int)n;
	else {
		diag_error(dl, name, lineno, "%s: %s", key, msg);
		rv = -1;
	}
	free(v);
	return rv;
}

/* A string value into dst; 0, or -1 said in dl when it does not fit. */
static int
settings_string(char *dst, size_t dlen, const char *val, size_t vlen,
    const char *name, unsigned long lineno, const char *what,
    struct diaglist *dl)
{
	if (vlen >= dlen) {
		diag_error(dl, name, lineno, "%s too long", what);
		return -1;
	}
	memcpy(dst, val, vlen);
	dst[vlen] = '\0';
	return 0;
}

/* Where the lines of a box block that could not be read go. */
static struct settings_box settings_discard;

/* A "box NAME" line: a new block; 0, or 1 said in dl. */
static int
settings_new_box(struct settings *s, const char *name, unsigned long lineno,
    const char *val, size_t vlen, struct settings_box **cur,
    struct diaglist *dl)
{
	struct settings_box *b;
	size_t i;

	*cur = &settings_discard;
	if (vlen == 0) {
		diag_error(dl, name, lineno, "'box' wants a name");
		return 1;
	}
	for (i = 0; i < vlen; i++)
		if (!((val[i] >= 'a' && val[i] <= 'z') || (val[i] >= 'A' &&
		    val[i] <= 'Z') || (val[i] >= '0' && val[i] <= '9') ||
		    val[i] == '.' || val[i] == '_' || val[i] == '-') ||
		    vlen >= SETTINGS_BOXNAME_MAX || val[0] == '.') {
			diag_error(dl, name, lineno, "box name: letters, "
			    "digits, '.', '_' and '-', at most %d",
			    SETTINGS_BOXNAME_MAX - 1);
			return 1;
		}
	for (i = 0; i < s->nboxes; i++)
		if (settings_is(val, vlen, s->boxes[i].name)) {
			diag_error(dl, name, lineno, "box '%s' again (line "
			    "%lu)", s->boxes[i].name, s->boxes[i].line);
			return 1;
		}
	s->boxes = xreallocarray(s->boxes, s->nboxes + 1, sizeof(*b));
	b = *cur = &s->boxes[s->nboxes++];
	memset(b, 0, sizeof(*b));
	memcpy(b->name, val, vlen);
	b->line = lineno;
	b->box_wait = b->skip_culprit = b->reset_on_taint = -1;
	b->qemu_snapshot = 1;
	return 0;
}

/* A line inside a box block; 0, or 1 said in dl. */
static int
settings_box_line(struct settings_box *b, const char *name,
    unsigned long lineno, const char *key, size_t klen, const char *val,
    size_t vlen, struct diaglist *dl)
{
	static const struct {
		const char	*key;
		size_t		 off, len;
	} strs[] = {
#define S(k, f) { k, offsetof(struct settings_box, f), \
	sizeof(((struct settings_box *)0)->f) }
		S("host", host), S("ssh-config", ssh_config),
		S("ltproot", ltproot), S("box-master", box_master),
		S("kconfig", kconfig), S("reboot-cmd", reboot_cmd),
		S("console", console), S("qemu", qemu),
#undef S
	};
	size_t i;

	for (i = 0; i < sizeof(strs) / sizeof(strs[0]); i++)
		if (settings_is(key, klen, strs[i].key))
			return settings_string((char *)b + strs[i].off,
			    strs[i].len, val, vlen, name, lineno, strs[i].key,
			    dl) != 0;
	if (settings_is(key, klen, "box-wait"))
		return settings_number(name, lineno, "box-wait", val, vlen, 0,
		    INT_MAX, &b->box_wait, dl) != 0;
	if (settings_is(key, klen, "skip-culprit"))
		return settings_yesno(name, lineno, key, klen, val, vlen,
		    &b->skip_culprit, dl) != 0;
	if (settings_is(key, klen, "reset-on-taint"))
		return settings_yesno(name, lineno, key, klen, val, vlen,
		    &b->reset_on_taint, dl) != 0;
	if (settings_is(key, klen, "qemu-snapshot"))
		return settings_yesno(name, lineno, key, klen, val, vlen,
		    &b->qemu_snapshot, dl) != 0;
	diag_error(dl, name, lineno, "unknown box setting '%.*s' (box '%s', "
	    "line %lu)", (int)klen, key, b->name, b->line);
	return 1;
}

static int
settings_line(struct settings *s, const char *name, unsigned long lineno,
    const char *p, const char *e, struct settings_box **cur,
    struct diaglist *dl)
{
	const char *key, *val, *ve;
	size_t klen, vlen;
	int flag;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p == e)
		return 0;
	for (key = p; p < e && *p != ' ' && *p != '\t'; p++)
		continue;
	klen = (size_t)(p - key);
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	for (val = p; p < e && *p != ' ' && *p != '\t'; p++)
		continue;
	vlen = (size_t)(p - val);
	for (ve = p; ve < e && (*ve == ' ' || *ve == '\t'); ve++)
		continue;
	/* A command: the rest of the line, blanks and all. */
	if ((settings_is(key, klen, "reboot-cmd") || (*cur != NULL &&
	    settings_is(key, klen, "qemu"))) && vlen > 0) {
		for (ve = e; ve > val && (ve[-1] == ' ' || ve[-1] == '\t');
		    ve--)
			continue;
		vlen = (size_t)(ve - val);
		ve = e;
	}
	if (settings_is(key, klen, "box")) {
		if (ve == e)
			return settings_new_box(s, name, lineno, val, vlen,
			    cur, dl);
		/* A bad box line's block is skipped, not read as top level. */
		*cur = &settings_discard;
		diag_error(dl, name, lineno, "'box' takes one name");
		return 1;
	}
	flag = settings_is(key, klen, "skip-culprit") ||
	    settings_is(key, klen, "reset-on-taint");
	if (vlen == 0 && !(flag && *cur != NULL)) {
		diag_error(dl, name, lineno, "'%.*s' wants a value",
		    (int)klen, key);
		return 1;
	}
	if (ve != e) {
		diag_error(dl, name, lineno, "'%.*s' takes one value",
		    (int)klen, key);
		return 1;
	}
	if (*cur != NULL)
		return settings_box_line(*cur, name, lineno, key, klen, val,
		    vlen, dl);
	if (klen == 5 && memcmp(key, "theme", 5) == 0) {
		if (settings_string(s->theme, sizeof(s->theme), val, vlen,
		    name, lineno, "theme name", dl) != 0)
			return 1;
		s->has_theme = 1;
	} else if (klen == 4 && memcmp(key, "host", 4) == 0) {
		if (settings_string(s->host, sizeof(s->host), val, vlen, name,
		    lineno, "host", dl) != 0)
			return 1;
		s->has_host = 1;
	} else if (klen == 10 && memcmp(key, "ssh-config", 10) == 0) {
		if (settings_string(s->ssh_config, sizeof(s->ssh_config), val,
		    vlen, name, lineno, "ssh-config path", dl) != 0)
			return 1;
		s->has_ssh_config = 1;
	} else if (klen == 10 && memcmp(key, "box-master", 10) == 0) {
		if (settings_string(s->box_master, sizeof(s->box_master), val,
		    vlen, name, lineno, "box-master path", dl) != 0)
			return 1;
		s->has_box_master = 1;
	} else if (klen == 10 && memcmp(key, "kernel-src", 10) == 0) {
		if (settings_string(s->kernel_src, sizeof(s->kernel_src), val,
		    vlen, name, lineno, "kernel-src path", dl) != 0)
			return 1;
		s->has_kernel_src = 1;
	} else if (klen == 10 && memcmp(key, "source-url", 10) == 0) {
		if (settings_string(s->source_url, sizeof(s->source_url), val,
		    vlen, name, lineno, "source-url template", dl) != 0)
			return 1;
		s->has_source_url = 1;
	} else if (klen == 10 && memcmp(key, "reboot-cmd", 10) == 0) {
		if (settings_string(s->reboot_cmd, sizeof(s->reboot_cmd), val,
		    vlen, name, lineno, "reboot-cmd", dl) != 0)
			return 1;
		s->has_reboot_cmd = 1;
	} else if (klen == 7 && memcmp(key, "ltp-src", 7) == 0) {
		if (settings_string(s->ltp_src, sizeof(s->ltp_src), val, vlen,
		    name, lineno, "ltp-src directory", dl) != 0)
			return 1;
		s->has_ltp_src = 1;
	} else if (klen == 13 && memcmp(key, "linux-git-url", 13) == 0) {
		if (settings_string(s->linux_git_url,
		    sizeof(s->linux_git_url), val, vlen, name, lineno,
		    "linux-git-url template", dl) != 0)
			return 1;
		s->has_linux_git_url = 1;
	} else if (klen == 8 && memcmp(key, "box-wait", 8) == 0) {
		if (settings_number(name, lineno, "box-wait", val, vlen, 0,
		    INT_MAX, &s->box_wait, dl) != 0)
			return 1;
		s->has_box_wait = 1;
	} else if (klen == 14 && memcmp(key, "reset-on-taint", 14) == 0) {
		if (vlen == 3 && memcmp(val, "yes", 3) == 0)
			s->reset_on_taint = 1;
		else if (vlen == 2 && memcmp(val, "no", 2) == 0)
			s->reset_on_taint = 0;
		else {
			diag_error(dl, name, lineno, "reset-on-taint: '%.*s' "
			    "is not yes or no", (int)(vlen > 40 ? 40 : vlen),
			    val);
			return 1;
		}
		s->has_reset_on_taint = 1;
	} else if (klen == 7 && memcmp(key, "timeout", 7) == 0) {
		if (settings_number(name, lineno, "timeout", val, vlen, 0,
		    SETTINGS_TIMEOUT_MAX, &s->timeout, dl) != 0)
			return 1;
		s->has_timeout = 1;
	} else if (klen == 4 && memcmp(key, "jobs", 4) == 0) {
		if (settings_number(name, lineno, "jobs", val, vlen, 1,
		    SETTINGS_JOBS_MAX, &s->jobs, dl) != 0)
			return 1;
		s->has_jobs = 1;
	} else {
		diag_error(dl, name, lineno, "unknown setting '%.*s'",
		    (int)klen, key);
		return 1;
	}
	return 0;
}

int
settings_parse(struct settings *s, const char *name, const char *buf,
    size_t len, struct diaglist *dl)
{
	const char *p = buf, *end = buf + len, *eol, *e;
	struct settings_box *cur = NULL;
	unsigned long lineno = 0;
	size_t n;
	int errors = 0;

	snprintf(s->path, sizeof(s->path), "%s", name);

	for (; p < end; p = eol + 1) {
		lineno++;
		if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
			eol = end;
		if ((e = memchr(p, '#', (size_t)(eol - p))) == NULL)
			e = eol;
		n = (size_t)(e - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		e = p + n;
		if (memchr(p, '\0', n) != NULL) {
			diag_error(dl, name, lineno, "NUL byte in line");
			errors++;
			continue;
		}
		errors += settings_line(s, name, lineno, p, e, &cur, dl);
	}
	return errors;
}

int
settings_load_file(struct settings *s, const char *path, struct diaglist *dl)
{
	char *buf;
	size_t len;
	int rv;

	if (slurp_file(path, SETTINGS_FILE_MAX, &buf, &len) != SLURP_OK) {
		if (errno == ENOENT)
			return 0;
		diag_error(dl, path, 0, "cannot read: %s", strerror(errno));
		return -1;
	}
	if (len > SETTINGS_FILE_MAX) {
		diag_error(dl, path, 0, "too big for a settings file");
		free(buf);
		return -1;
	}
	rv = settings_parse(s, path, buf, len, dl);
	free(buf);
	return rv;
}
