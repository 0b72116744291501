/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Program profiles: the profile's own small functions and the dispatch
 * to a trace's parser (profile_strace.c, profile_kdump.c), which build
 * on what profile_build.c gives them all.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/profile.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"

#include "profile_impl.h"

/* Traces beyond this are refused rather than read into memory. */
#define PROFILE_FILE_MAX	(1024u * 1024 * 1024)

static const char *const format_names[] = {
	"unknown", "strace", "summary", "kdump"
};

const char *
profile_format_name(enum profile_format f)
{
	if ((size_t)f >= sizeof(format_names) / sizeof(format_names[0]))
		return "unknown";
	return format_names[f];
}

int
profile_format_from_name(const char *s)
{
	size_t i;

	for (i = 1; i < sizeof(format_names) / sizeof(format_names[0]); i++)
		if (strcmp(format_names[i], s) == 0)
			return (int)i;
	return -1;
}

void
profile_init(struct profile *p)
{
	memset(p, 0, sizeof(*p));
}

void
profile_free(struct profile *p)
{
	size_t i, j;

	for (i = 0; i < p->ncalls; i++) {
		for (j = 0; j < p->calls[i].nerrs; j++)
			free(p->calls[i].errs[j].name);
		free(p->calls[i].errs);
		free(p->calls[i].name);
		free(p->calls[i].flags);
	}
	free(p->calls);
	free(p->name);
	free(p->source);
	free(p->emul);
	memset(p, 0, sizeof(*p));
}

enum profile_format
profile_detect(const char *buf, size_t len)
{
	struct pb_lines l;
	const char *line;
	size_t n, seen = 0;

	l.p = buf;
	l.end = buf + len;
	l.lineno = 0;
	/* The first lines that say anything; blank ones say nothing. */
	while (seen < 8 && pb_next_line(&l, &line, &n)) {
		if (n == 0)
			continue;
		seen++;
		if (profile_summary_header(line, n))
			return PF_SUMMARY;
		if (profile_kdump_line(line, n))
			return PF_KDUMP;
		if (profile_strace_line(line, n))
			return PF_STRACE;
	}
	return PF_UNKNOWN;
}

int
profile_parse(struct profile *p, const char *file, const char *buf,
    size_t len, struct diaglist *dl)
{
	struct pb b;

	pb_init(&b, p, file, dl);
	if (p->emul == NULL)
		p->emul = xstrdup("");
	if (p->source == NULL)
		p->source = xstrdup(file);
	p->format = profile_detect(buf, len);
	switch (p->format) {
	case PF_STRACE:
		(void)profile_parse_strace(&b, buf, len);
		break;
	case PF_SUMMARY:
		(void)profile_parse_summary(&b, buf, len);
		break;
	case PF_KDUMP:
		(void)profile_parse_kdump(&b, buf, len);
		break;
	default:
		pb_error(&b, 1, "not a trace ltpscope reads (strace, strace "
		    "-c or kdump output)");
		break;
	}
	if (b.nerrors == 0 && p->ncalls == 0)
		pb_error(&b, 0, "no system calls in the trace");
	return pb_finish(&b);
}

int
profile_load_file(struct profile *p, const char *path, struct diaglist *dl)
{
	char *buf;
	size_t len;
	int n;

	if (slurp_file_diag(path, PROFILE_FILE_MAX, &buf, &len, dl) == -1)
		return -1;
	if (len > PROFILE_FILE_MAX) {
		diag_error(dl, path, 0, "larger than %u MiB: not read",
		    PROFILE_FILE_MAX >> 20);
		free(buf);
		return -1;
	}
	n = profile_parse(p, path, buf, len, dl);
	free(buf);
	return n;
}

const struct profile_call *
profile_find(const struct profile *p, const char *name)
{
	size_t lo = 0, hi = p->ncalls, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strcmp(name, p->calls[mid].name)) == 0)
			return &p->calls[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

unsigned long
profile_call_errors(const struct profile_call *c, const char *err)
{
	size_t k;

	for (k = 0; k < c->nerrs; k++)
		if (strcmp(c->errs[k].name, err) == 0)
			return c->errs[k].count;
	return 0;
}

int
profile_call_suspect(const struct profile_call *c)
{
	return profile_call_errors(c, "ENOSYS") > 0 ||
	    profile_call_errors(c, "EINVAL") > 0 ||
	    profile_call_errors(c, "EOPNOTSUPP") > 0 ||
	    profile_call_errors(c, "ENOTSUP") > 0;
}

void
profile_errs_format(const struct profile_call *c, char *buf, size_t size)
{
	size_t k, used = 0;
	int n;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (k = 0; k < c->nerrs && used < size; k++) {
		n = snprintf(buf + used, size - used, "%s%s x%lu",
		    k > 0 ? ", " : "", c->errs[k].name[0] != '\0' ?
		    c->errs[k].name : "errors", c->errs[k].count);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

int
profile_name_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 64 || s[0] == '-' || s[0] == '.')
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789._+-") == n;
}

void
profile_name_from_path(const char *path, char *buf, size_t size)
{
	const char *base = strrchr(path, '/');
	size_t n;

	base = base != NULL ? base + 1 : path;
	n = strcspn(base, ".");
	if (n == 0)
		n = strlen(base);
	(void)snprintf(buf, size, "%.*s", (int)n, base);
}
