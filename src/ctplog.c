/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reader and writer of compat_linux_test_project's per-test log files
 * (see ctplog.h).  The writer is the reader's inverse: a log written
 * here parses back to the same pairs and body.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/ctplog.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"

void
ctplog_init(struct ctplog *log)
{
	memset(log, 0, sizeof(*log));
}

void
ctplog_free(struct ctplog *log)
{
	size_t i;

	for (i = 0; i < log->npairs; i++) {
		free(log->pairs[i].key);
		free(log->pairs[i].value);
	}
	free(log->pairs);
	free(log->body);
	ctplog_init(log);
}

static int
key_ok(const char *k, size_t n)
{
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (k[i] == ':' || k[i] == ' ' || k[i] == '\t' ||
		    k[i] == '\n' || k[i] == '\r' || k[i] == '\0')
			return 0;
	return 1;
}

static void
pair_push(struct ctplog *log, const char *k, size_t klen, const char *v,
    size_t vlen)
{
	if (log->npairs == log->cap) {
		log->cap = log->cap ? log->cap * 2 : 16;
		log->pairs = xreallocarray(log->pairs, log->cap,
		    sizeof(*log->pairs));
	}
	log->pairs[log->npairs].key = xstrndup(k, klen);
	log->pairs[log->npairs].value = xstrndup(v, vlen);
	log->npairs++;
}

int
ctplog_add(struct ctplog *log, const char *key, const char *value)
{
	if (!key_ok(key, strlen(key)) || strpbrk(value, "\r\n") != NULL)
		return -1;
	pair_push(log, key, strlen(key), value, strlen(value));
	return 0;
}

void
ctplog_set_body(struct ctplog *log, const char *s, size_t len)
{
	free(log->body);
	log->body = xmalloc(len + 1);
	memcpy(log->body, s, len);
	log->body[len] = '\0';
	log->bodylen = len;
}

const char *
ctplog_get(const struct ctplog *log, const char *key)
{
	size_t i;

	for (i = 0; i < log->npairs; i++)
		if (strcmp(log->pairs[i].key, key) == 0)
			return log->pairs[i].value;
	return NULL;
}

/* A line made of dashes only, long enough not to be an accident. */
static int
is_dashes(const char *s, size_t n)
{
	size_t i;

	if (n < 10)
		return 0;
	for (i = 0; i < n; i++)
		if (s[i] != '-')
			return 0;
	return 1;
}

int
ctplog_parse(struct ctplog *log, const char *buf, size_t len,
    const char *name, struct diaglist *dl)
{
	const char *p = buf, *end = buf + len, *nl, *colon, *val;
	size_t n, startlen = strlen(CTPLOG_START);
	unsigned long lineno = 0;
	int closed = 0;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = (nl != NULL ? nl : end) - p;
		lineno++;
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (lineno == 1) {
			if (n != startlen || memcmp(p, CTPLOG_START, n) != 0) {
				diag_error(dl, name, 1,
				    "not a compat_linux_test_project log: "
				    "expected '%s'", CTPLOG_START);
				return -1;
			}
		} else if (is_dashes(p, n)) {
			closed = 1;
		} else if ((colon = memchr(p, ':', n)) == NULL ||
		    !key_ok(p, (size_t)(colon - p))) {
			diag_error(dl, name, lineno,
			    "header line is not 'key: value'");
		} else {
			val = colon + 1;
			if (val < p + n && *val == ' ')
				val++;
			pair_push(log, p, (size_t)(colon - p), val,
			    (size_t)(p + n - val));
		}
		p = nl != NULL ? nl + 1 : end;
		if (closed)
			break;
	}
	if (!closed) {
		diag_error(dl, name, lineno,
		    "header not closed by a line of dashes");
		return -1;
	}
	/* The writer puts one empty line between header and output. */
	if (p < end && *p == '\n')
		p++;
	else if (end - p >= 2 && p[0] == '\r' && p[1] == '\n')
		p += 2;
	ctplog_set_body(log, p, (size_t)(end - p));
	return 0;
}

int
ctplog_read(struct ctplog *log, const char *path, struct diaglist *dl)
{
	char *buf;
	size_t len;
	int rc;

	if (slurp_file_diag(path, 0, &buf, &len, dl) == -1)
		return -1;
	rc = ctplog_parse(log, buf, len, path, dl);
	free(buf);
	return rc;
}

char *
ctplog_format(const struct ctplog *log, size_t *outlen)
{
	size_t i, len, off;
	char *out;

	len = strlen(CTPLOG_START) + 1 + CTPLOG_DASHES + 2 + log->bodylen;
	for (i = 0; i < log->npairs; i++)
		len += strlen(log->pairs[i].key) + 2 +
		    strlen(log->pairs[i].value) + 1;
	out = xmalloc(len + 1);
	off = (size_t)sprintf(out, "%s\n", CTPLOG_START);
	for (i = 0; i < log->npairs; i++)
		off += (size_t)sprintf(out + off, "%s: %s\n",
		    log->pairs[i].key, log->pairs[i].value);
	memset(out + off, '-', CTPLOG_DASHES);
	off += CTPLOG_DASHES;
	out[off++] = '\n';
	out[off++] = '\n';
	if (log->bodylen > 0)
		memcpy(out + off, log->body, log->bodylen);
	off += log->bodylen;
	out[off] = '\0';
	if (outlen != NULL)
		*outlen = off;
	return out;
}

int
ctplog_write(const struct ctplog *log, const char *path,
    struct diaglist *dl)
{
	char *text, *tmp;
	size_t len, i;
	FILE *fp;
	int fd, bad = 0;

	for (i = 0; i < log->npairs; i++)
		if (!key_ok(log->pairs[i].key, strlen(log->pairs[i].key)) ||
		    strpbrk(log->pairs[i].value, "\r\n") != NULL) {
			diag_error(dl, path, 0, "header key '%s' or its value "
			    "cannot be written", log->pairs[i].key);
			bad = 1;
		}
	if (bad)
		return -1;
	(void)xasprintf(&tmp, "%s.tmpXXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1 || (fp = fdopen(fd, "wb")) == NULL) {
		diag_error(dl, path, 0, "cannot create: %s", strerror(errno));
		if (fd != -1) {
			(void)close(fd);
			(void)unlink(tmp);
		}
		free(tmp);
		return -1;
	}
	text = ctplog_format(log, &len);
	if (fwrite(text, 1, len, fp) != len || fflush(fp) != 0 ||
	    fsync(fileno(fp)) != 0) {
		diag_error(dl, path, 0, "cannot write: %s", strerror(errno));
		bad = 1;
	}
	if (fclose(fp) != 0 && !bad) {
		diag_error(dl, path, 0, "cannot write: %s", strerror(errno));
		bad = 1;
	}
	if (!bad && rename(tmp, path) != 0) {
		diag_error(dl, path, 0, "cannot rename: %s", strerror(errno));
		bad = 1;
	}
	if (bad)
		(void)unlink(tmp);
	free(text);
	free(tmp);
	return bad ? -1 : 0;
}

void
ctplog_end(const struct ctplog *log, struct test_end *end)
{
	const char *ec;
	char *ep;
	long v;

	end->how = TEST_NOEXIT;
	end->code = 0;
	if ((ec = ctplog_get(log, "exit_code")) != NULL) {
		errno = 0;
		v = strtol(ec, &ep, 10);
		if (ep != ec && *ep == '\0' && errno == 0 && v >= 0 &&
		    v <= 255) {
			end->how = TEST_EXITED;
			end->code = (int)v;
		}
	}
}

enum test_status
ctplog_status(const struct ctplog *log, struct ltpout_tally *tally,
    char *why, size_t whylen)
{
	struct ltpout *p = ltpout_new();
	struct ltpout_line l;
	struct test_end end;
	const char *cur = log->body != NULL ? log->body : "";
	size_t len = log->bodylen;
	enum test_status st;

	while (ltpout_scan(p, &cur, &len, &l))
		continue;
	while (ltpout_flush(p, &l))
		continue;
	ctplog_end(log, &end);
	st = ltpout_status(ltpout_tally(p), &end, why, whylen);
	if (tally != NULL)
		*tally = *ltpout_tally(p);
	ltpout_free(p);
	return st;
}
