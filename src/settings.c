/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The explorer's settings file (see settings.h).  Lines are split by
 * hand on a bounded buffer: the file is the user's, but anything may
 * end up there, so no line length or byte may upset the parser.
 */
#include <errno.h>
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

static int
settings_line(struct settings *s, const char *name, unsigned long lineno,
    const char *p, const char *e, struct diaglist *dl)
{
	const char *key, *val, *ve;
	size_t klen, vlen;

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
	if (klen == 10 && memcmp(key, "reboot-cmd", 10) == 0 && vlen > 0) {
		for (ve = e; ve > val && (ve[-1] == ' ' || ve[-1] == '\t');
		    ve--)
			continue;
		vlen = (size_t)(ve - val);
		ve = e;
	}
	if (vlen == 0) {
		diag_error(dl, name, lineno, "'%.*s' wants a value",
		    (int)klen, key);
		return 1;
	}
	if (ve != e) {
		diag_error(dl, name, lineno, "'%.*s' takes one value",
		    (int)klen, key);
		return 1;
	}
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
	unsigned long lineno = 0;
	size_t n;
	int errors = 0;

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
		errors += settings_line(s, name, lineno, p, e, dl);
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
