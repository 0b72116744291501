/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the trace parsers share (profile_impl.h): the builder that
 * gathers calls, their errors and flags, the errno names by message and
 * the line walk.  Below the parsers and profile.c's dispatch both.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/profile.h"
#include "ltpscope/xmalloc.h"

#include "profile_impl.h"

/*
 * strerror(3) texts, NetBSD's first where Linux says it differently:
 * kdump prints NetBSD's number and text, and the text is what both
 * systems agree on far more often than the number.
 */
static const struct {
	const char	*name;
	const char	*msg;
} errno_msgs[] = {
	{ "EPERM", "Operation not permitted" },
	{ "ENOENT", "No such file or directory" },
	{ "ESRCH", "No such process" },
	{ "EINTR", "Interrupted system call" },
	{ "EIO", "Input/output error" },
	{ "ENXIO", "Device not configured" },
	{ "ENXIO", "No such device or address" },
	{ "E2BIG", "Argument list too long" },
	{ "ENOEXEC", "Exec format error" },
	{ "EBADF", "Bad file descriptor" },
	{ "ECHILD", "No child processes" },
	{ "EDEADLK", "Resource deadlock avoided" },
	{ "ENOMEM", "Cannot allocate memory" },
	{ "EACCES", "Permission denied" },
	{ "EFAULT", "Bad address" },
	{ "EBUSY", "Device busy" },
	{ "EBUSY", "Device or resource busy" },
	{ "EEXIST", "File exists" },
	{ "EXDEV", "Cross-device link" },
	{ "ENODEV", "Operation not supported by device" },
	{ "ENODEV", "No such device" },
	{ "ENOTDIR", "Not a directory" },
	{ "EISDIR", "Is a directory" },
	{ "EINVAL", "Invalid argument" },
	{ "ENFILE", "Too many open files in system" },
	{ "EMFILE", "Too many open files" },
	{ "ENOTTY", "Inappropriate ioctl for device" },
	{ "EFBIG", "File too large" },
	{ "ENOSPC", "No space left on device" },
	{ "ESPIPE", "Illegal seek" },
	{ "EROFS", "Read-only file system" },
	{ "EMLINK", "Too many links" },
	{ "EPIPE", "Broken pipe" },
	{ "ERANGE", "Result too large" },
	{ "ERANGE", "Numerical result out of range" },
	{ "EAGAIN", "Resource temporarily unavailable" },
	{ "EINPROGRESS", "Operation now in progress" },
	{ "EALREADY", "Operation already in progress" },
	{ "ENOTSOCK", "Socket operation on non-socket" },
	{ "EAFNOSUPPORT", "Address family not supported by protocol "
	    "family" },
	{ "EAFNOSUPPORT", "Address family not supported by protocol" },
	{ "EADDRINUSE", "Address already in use" },
	{ "ECONNREFUSED", "Connection refused" },
	{ "ENOPROTOOPT", "Protocol not available" },
	{ "EPROTONOSUPPORT", "Protocol not supported" },
	{ "EOPNOTSUPP", "Operation not supported" },
	{ "ELOOP", "Too many levels of symbolic links" },
	{ "ENAMETOOLONG", "File name too long" },
	{ "ENOTEMPTY", "Directory not empty" },
	{ "ETIMEDOUT", "Operation timed out" },
	{ "ETIMEDOUT", "Connection timed out" },
	{ "ENOLCK", "No locks available" },
	{ "ENOSYS", "Function not implemented" },
	{ "EFTYPE", "Inappropriate file type or format" },
	{ "EOVERFLOW", "Value too large to be stored in data type" },
	{ "EOVERFLOW", "Value too large for defined data type" },
	{ "EILSEQ", "Illegal byte sequence" },
	{ "ENOTSUP", "Not supported" },
	{ "ENODATA", "No message available" },
	{ "ENODATA", "No data available" },
	{ "ENOATTR", "Attribute not found" },
};

const char *
profile_errno_by_message(const char *msg)
{
	size_t i;

	for (i = 0; i < sizeof(errno_msgs) / sizeof(errno_msgs[0]); i++)
		if (strcmp(errno_msgs[i].msg, msg) == 0)
			return errno_msgs[i].name;
	return NULL;
}

size_t
pb_span(const char *s, size_t len, const char *set)
{
	size_t i;

	for (i = 0; i < len && s[i] != '\0' && strchr(set, s[i]) != NULL; i++)
		continue;
	return i;
}

int
pb_next_line(struct pb_lines *l, const char **linep, size_t *lenp)
{
	const char *nl;
	size_t n;

	if (l->p >= l->end)
		return 0;
	if ((nl = memchr(l->p, '\n', (size_t)(l->end - l->p))) == NULL)
		nl = l->end;
	n = (size_t)(nl - l->p);
	if (n > 0 && l->p[n - 1] == '\r')
		n--;
	*linep = l->p;
	*lenp = n;
	l->p = nl + 1;
	l->lineno++;
	return 1;
}

void
pb_init(struct pb *b, struct profile *p, const char *file,
    struct diaglist *dl)
{
	memset(b, 0, sizeof(*b));
	b->p = p;
	b->file = file;
	b->dl = dl;
	b->hsize = 256;
	b->hash = xcalloc(b->hsize, sizeof(*b->hash));
}

static size_t
pb_hash(const char *s, size_t len)
{
	size_t h = 5381, i;

	for (i = 0; i < len; i++)
		h = h * 33 + (unsigned char)s[i];
	return h;
}

static void
pb_grow(struct pb *b)
{
	size_t i, h, n = b->hsize * 2;
	const char *s;

	free(b->hash);
	b->hash = xcalloc(n, sizeof(*b->hash));
	b->hsize = n;
	for (i = 0; i < b->p->ncalls; i++) {
		s = b->p->calls[i].name;
		for (h = pb_hash(s, strlen(s)) & (n - 1); b->hash[h] != 0;
		    h = (h + 1) & (n - 1))
			continue;
		b->hash[h] = i + 1;
	}
}

size_t
pb_call(struct pb *b, const char *name, size_t len)
{
	struct profile *p = b->p;
	const char *s;
	size_t h;

	for (h = pb_hash(name, len) & (b->hsize - 1); b->hash[h] != 0;
	    h = (h + 1) & (b->hsize - 1)) {
		s = p->calls[b->hash[h] - 1].name;
		if (strncmp(s, name, len) == 0 && s[len] == '\0')
			return b->hash[h] - 1;
	}
	if (p->ncalls == b->cap) {
		b->cap = b->cap == 0 ? 64 : b->cap * 2;
		p->calls = xreallocarray(p->calls, b->cap, sizeof(*p->calls));
		b->x = xreallocarray(b->x, b->cap, sizeof(*b->x));
	}
	memset(&p->calls[p->ncalls], 0, sizeof(*p->calls));
	memset(&b->x[p->ncalls], 0, sizeof(*b->x));
	p->calls[p->ncalls].name = xstrndup(name, len);
	b->hash[h] = ++p->ncalls;
	if (p->ncalls * 2 > b->hsize)
		pb_grow(b);
	return p->ncalls - 1;
}

void
pb_results(struct pb *b, size_t i, const char *err, unsigned long n)
{
	struct profile_call *c = &b->p->calls[i];
	size_t k;

	c->count += n;
	if (err == NULL || n == 0)
		return;
	c->nerrors += n;
	for (k = 0; k < c->nerrs; k++)
		if (strcmp(c->errs[k].name, err) == 0) {
			c->errs[k].count += n;
			return;
		}
	c->errs = xreallocarray(c->errs, c->nerrs + 1, sizeof(*c->errs));
	c->errs[c->nerrs].name = xstrdup(err);
	c->errs[c->nerrs++].count = n;
}

void
pb_result(struct pb *b, size_t i, const char *err)
{
	pb_results(b, i, err, 1);
}

static void
words_add(struct pb_words *w, const char *s, size_t len)
{
	size_t k;

	for (k = 0; k < w->n; k++)
		if (strncmp(w->v[k], s, len) == 0 && w->v[k][len] == '\0')
			return;
	/* A trace that varies its flags without end is no program's. */
	if (w->n >= 64)
		return;
	w->v = xreallocarray(w->v, w->n + 1, sizeof(*w->v));
	w->v[w->n++] = xstrndup(s, len);
}

void
pb_flags(struct pb *b, size_t i, const char *args, size_t len, int failed)
{
	const char *p = args, *end = args + len, *w;
	int quoted = 0, under;

	while (p < end) {
		if (*p == '"') {
			quoted = !quoted;
			p++;
			continue;
		}
		if (quoted) {
			p += *p == '\\' && p + 1 < end ? 2 : 1;
			continue;
		}
		if (!isupper((unsigned char)*p) || (p > args &&
		    (isalnum((unsigned char)p[-1]) || p[-1] == '_'))) {
			p++;
			continue;
		}
		for (w = p, under = 0; p < end && (isupper((unsigned char)*p) ||
		    isdigit((unsigned char)*p) || *p == '_'); p++)
			under |= *p == '_';
		if (under && p - w <= PROFILE_NAME_MAX && (p == end ||
		    !islower((unsigned char)*p)))
			words_add(failed ? &b->x[i].bad : &b->x[i].ok, w,
			    (size_t)(p - w));
	}
}

void
pb_error(struct pb *b, unsigned long line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (b->nerrors++ >= PROFILE_MAX_ERRORS)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	diag_error(b->dl, b->file, line, "%s", msg);
}

static void
words_free(struct pb_words *w)
{
	size_t k;

	for (k = 0; k < w->n; k++)
		free(w->v[k]);
	free(w->v);
}

static int
words_has(const struct pb_words *w, const char *s)
{
	size_t k;

	for (k = 0; k < w->n; k++)
		if (strcmp(w->v[k], s) == 0)
			return 1;
	return 0;
}

/* The flags of failed calls that no successful call had. */
static char *
suspect_flags(const struct pb_extra *x)
{
	char *s = xstrdup(""), *t;
	size_t k;

	for (k = 0; k < x->bad.n; k++) {
		if (words_has(&x->ok, x->bad.v[k]))
			continue;
		xasprintf(&t, "%s%s%s", s, s[0] != '\0' ? " " : "",
		    x->bad.v[k]);
		free(s);
		s = t;
	}
	return s;
}

static int
call_by_name(const void *a, const void *b)
{
	return strcmp(((const struct profile_call *)a)->name,
	    ((const struct profile_call *)b)->name);
}

static int
err_by_count(const void *a, const void *b)
{
	const struct profile_err *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

int
pb_finish(struct pb *b)
{
	struct profile *p = b->p;
	size_t i;

	for (i = 0; i < p->ncalls; i++) {
		p->calls[i].flags = suspect_flags(&b->x[i]);
		words_free(&b->x[i].ok);
		words_free(&b->x[i].bad);
		if (p->calls[i].nerrs > 1)
			qsort(p->calls[i].errs, p->calls[i].nerrs,
			    sizeof(*p->calls[i].errs), err_by_count);
	}
	if (p->ncalls > 1)
		qsort(p->calls, p->ncalls, sizeof(*p->calls), call_by_name);
	if (b->nerrors > PROFILE_MAX_ERRORS)
		diag_error(b->dl, b->file, 0, "and %zu more errors",
		    b->nerrors - PROFILE_MAX_ERRORS);
	free(b->x);
	free(b->hash);
	b->x = NULL;
	b->hash = NULL;
	return b->nerrors > (size_t)1 << 30 ? 1 << 30 : (int)b->nerrors;
}
