/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * strace(1) output as a program profile: the trace of "strace -o FILE"
 * with any of -f, -y/-yy, -t/-tt/-ttt, -r, -T, -i and -n, and the
 * "-c"/"-C" summary table.  A call split by another process's call ("read(3,
 * <unfinished ...>" ... "<... read resumed>...) = 18") is one call,
 * counted when its result comes.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/profile.h"
#include "ltpscope/xmalloc.h"

#include "profile_impl.h"

static const char unfinished[] = "<unfinished ...>";
static const char resumed[] = " resumed>";

/* A call begun and not yet returned, by the process that made it. */
struct pending {
	long		 pid;
	size_t		 call;
	char		*args;
};

struct strace_state {
	struct pending	*v;
	size_t		 n;
};

static int
has_prefix(const char *s, size_t len, const char *pfx)
{
	size_t n = strlen(pfx);

	return len >= n && memcmp(s, pfx, n) == 0;
}

static int
has_suffix(const char *s, size_t len, const char *sfx)
{
	size_t n = strlen(sfx);

	return len >= n && memcmp(s + len - n, sfx, n) == 0;
}

static size_t
skip_blanks(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* find_bytes(3) is no POSIX call. */
static const char *
find_bytes(const char *s, size_t len, const char *what, size_t n)
{
	size_t i;

	for (i = 0; n <= len && i <= len - n; i++)
		if (memcmp(s + i, what, n) == 0)
			return s + i;
	return NULL;
}

static int
is_name_char(int c)
{
	return isalnum(c) || c == '_';
}

/*
 * Past the "[pid N] " or "N " and the time stamp of -t, -tt, -ttt or
 * -r: *pidp gets the pid (0 without -f), the return is where the call
 * starts.
 */
static size_t
strace_prefix(const char *s, size_t len, long *pidp)
{
	size_t i = skip_blanks(s, 0, len), j, k;
	int stamp;

	*pidp = 0;
	if (has_prefix(s + i, len - i, "[pid ")) {
		for (j = i + 5; j < len && s[j] == ' '; j++)
			continue;
		i = j;
		while (j < len && isdigit((unsigned char)s[j]))
			j++;
		if (j > i && j < len && s[j] == ']') {
			*pidp = strtol(s + i, NULL, 10);
			i = skip_blanks(s, j + 1, len);
		}
	} else {
		for (j = i; j < len && isdigit((unsigned char)s[j]); j++)
			continue;
		if (j > i && j - i < 10 && j < len && s[j] == ' ') {
			*pidp = strtol(s + i, NULL, 10);
			i = skip_blanks(s, j, len);
		}
	}
	for (j = i, stamp = 0; j < len && (isdigit((unsigned char)s[j]) ||
	    s[j] == ':' || s[j] == '.'); j++)
		stamp |= s[j] == ':' || s[j] == '.';
	if (stamp && j > i && j < len && s[j] == ' ')
		i = skip_blanks(s, j, len);
	/* -i's "[00007f3a...] " and -n's "[  0] ". */
	for (k = 0; k < 2 && i < len && s[i] == '['; k++) {
		j = i + 1 + pb_span(s + i + 1, len - i - 1,
		    " 0123456789abcdefx?");
		if (j >= len || s[j] != ']' || j + 1 >= len || s[j + 1] != ' ')
			break;
		i = skip_blanks(s, j + 1, len);
	}
	return i;
}

/* From the '<' of an fd's path to its '>', past any "[...]" in it. */
static size_t
fd_path_end(const char *s, size_t i, size_t len)
{
	int depth = 0;

	for (i++; i < len; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '[')
			depth++;
		else if (s[i] == ']' && depth > 0)
			depth--;
		else if (s[i] == '>' && depth == 0)
			return i;
	}
	return len;
}

/*
 * From s[i], inside depth open brackets, to just past the bracket that
 * closes the call's argument list; len when the line ends first.
 */
static size_t
args_end(const char *s, size_t i, size_t len, int depth)
{
	int quoted = 0;

	for (; i < len; i++) {
		if (quoted) {
			if (s[i] == '\\')
				i++;
			else if (s[i] == '"')
				quoted = 0;
			continue;
		}
		switch (s[i]) {
		case '"':
			quoted = 1;
			break;
		case '<':
			/* -y, -yy: "3</a (b>" and "3<TCP:[a:1->b:2]>". */
			if (i > 0 && isdigit((unsigned char)s[i - 1]))
				i = fd_path_end(s, i, len);
			break;
		case '(': case '[': case '{':
			depth++;
			break;
		case ')': case ']': case '}':
			if (--depth == 0)
				return i + 1;
			break;
		}
	}
	return len;
}

/*
 * The result after ") ": "= 3", "= -1 ENOENT (...)", "= ? ...".
 * Returns 0 with *err NULL (success) or the errno name in errbuf, -1
 * when there is no "=".
 */
static int
strace_result(const char *s, size_t i, size_t len, char *errbuf,
    size_t size, const char **err)
{
	size_t j;

	*err = NULL;
	i = skip_blanks(s, i, len);
	if (i >= len || s[i] != '=')
		return -1;
	i = skip_blanks(s, i + 1, len);
	if (has_prefix(s + i, len - i, "-1 "))
		i += 3;
	else if (has_prefix(s + i, len - i, "? "))
		i += 2;
	else
		return 0;
	for (j = i; j < len && is_name_char((unsigned char)s[j]); j++)
		continue;
	if (j == i || s[i] != 'E' || j - i >= size) {
		/* "-1" alone (or "errno 512"): failed, errno unknown. */
		if (s[i - 2] == '1')
			*err = "";
		return 0;
	}
	/* To be restarted: the call comes again, as itself. */
	if (has_prefix(s + i, j - i, "ERESTART"))
		return 0;
	memcpy(errbuf, s + i, j - i);
	errbuf[j - i] = '\0';
	*err = errbuf;
	return 0;
}

static int
failed_on_flags(const char *err)
{
	return err != NULL && (strcmp(err, "EINVAL") == 0 ||
	    strcmp(err, "EOPNOTSUPP") == 0 || strcmp(err, "ENOTSUP") == 0);
}

static struct pending *
pending_take(struct strace_state *st, long pid, size_t call)
{
	size_t k;

	for (k = 0; k < st->n; k++)
		if (st->v[k].pid == pid && st->v[k].call == call)
			return &st->v[k];
	return NULL;
}

static void
pending_drop(struct strace_state *st, struct pending *pd)
{
	free(pd->args);
	*pd = st->v[--st->n];
}

static void
pending_add(struct strace_state *st, long pid, size_t call,
    const char *args, size_t len)
{
	struct pending *pd;
	size_t k;

	/*
	 * One call at a time per process: an older one never returned.
	 * By index: st->v is NULL until the first call is pending.
	 */
	for (k = 0; k < st->n; k++)
		if ((pd = &st->v[k])->pid == pid) {
			free(pd->args);
			pd->call = call;
			pd->args = xstrndup(args, len);
			return;
		}
	st->v = xreallocarray(st->v, st->n + 1, sizeof(*st->v));
	st->v[st->n].pid = pid;
	st->v[st->n].call = call;
	st->v[st->n++].args = xstrndup(args, len);
}

/* One call's result; args (of both halves) carry its flags. */
static void
strace_done(struct pb *b, size_t call, const char *args1,
    const char *args2, size_t len2, const char *err)
{
	pb_result(b, call, err);
	if (err != NULL && !failed_on_flags(err))
		return;
	if (args1 != NULL)
		pb_flags(b, call, args1, strlen(args1), err != NULL);
	pb_flags(b, call, args2, len2, err != NULL);
}

/* "<... NAME resumed>rest) = result" */
static int
strace_resumed(struct pb *b, struct strace_state *st, long pid,
    const char *s, size_t i, size_t len)
{
	const char *name = s + i + 5, *end, *err;
	struct pending *pd;
	char errbuf[PROFILE_NAME_MAX];
	size_t call, a, e;

	end = find_bytes(name, len - (size_t)(name - s), resumed,
	    sizeof(resumed) - 1);
	if (end == NULL || end == name || end - name > PROFILE_NAME_MAX)
		return -1;
	call = pb_call(b, name, (size_t)(end - name));
	a = (size_t)(end - s) + sizeof(resumed) - 1;
	e = args_end(s, a, len, 1);
	pd = pending_take(st, pid, call);
	if (e == len && has_suffix(s, len, unfinished))
		return 0;	/* stopped again: still pending */
	if (e == len || strace_result(s, e, len, errbuf, sizeof(errbuf),
	    &err) != 0)
		return -1;
	strace_done(b, call, pd != NULL ? pd->args : NULL, s + a, e - a, err);
	if (pd != NULL)
		pending_drop(st, pd);
	return 0;
}

/* "name(args) = result" or "name(args <unfinished ...>" */
static int
strace_call(struct pb *b, struct strace_state *st, long pid,
    const char *s, size_t i, size_t len)
{
	const char *err;
	char errbuf[PROFILE_NAME_MAX];
	size_t n, e, call;

	for (n = i; n < len && is_name_char((unsigned char)s[n]); n++)
		continue;
	if (n == i || n - i > PROFILE_NAME_MAX || n >= len || s[n] != '(')
		return -1;
	e = args_end(s, n + 1, len, 1);
	if (e == len && !has_suffix(s, len, unfinished))
		return -1;
	call = pb_call(b, s + i, n - i);
	if (e == len) {
		pending_add(st, pid, call, s + n + 1, len - n - 1);
		return 0;
	}
	if (e == len || strace_result(s, e, len, errbuf, sizeof(errbuf),
	    &err) != 0)
		return -1;
	strace_done(b, call, NULL, s + n + 1, e - n - 1, err);
	return 0;
}

int
profile_strace_line(const char *s, size_t len)
{
	size_t i, n;
	long pid;

	i = strace_prefix(s, len, &pid);
	if (has_prefix(s + i, len - i, "<... ") ||
	    has_prefix(s + i, len - i, "--- SIG") ||
	    has_prefix(s + i, len - i, "+++ "))
		return 1;
	for (n = i; n < len && is_name_char((unsigned char)s[n]); n++)
		continue;
	return n > i && n < len && s[n] == '(' && (args_end(s, n + 1, len,
	    1) < len || has_suffix(s, len, unfinished));
}

int
profile_parse_strace(struct pb *b, const char *buf, size_t len)
{
	struct strace_state st;
	struct pb_lines l;
	const char *s;
	size_t n, i, k;
	long pid;
	int rc;

	memset(&st, 0, sizeof(st));
	l.p = buf;
	l.end = buf + len;
	l.lineno = 0;
	while (pb_next_line(&l, &s, &n)) {
		if (n == 0)
			continue;
		if (memchr(s, '\0', n) != NULL) {
			pb_error(b, l.lineno, "binary data, not a strace "
			    "line");
			continue;
		}
		/* strace -C: the summary counts the calls again. */
		if (profile_summary_header(s, n))
			break;
		i = strace_prefix(s, n, &pid);
		if (i == n || has_prefix(s + i, n - i, "--- ") ||
		    has_prefix(s + i, n - i, "+++ ") ||
		    has_prefix(s + i, n - i, "strace: ") ||
		    has_prefix(s + i, n - i, "> ") ||
		    has_prefix(s + i, n - i, "System call usage summary"))
			continue;
		if (has_prefix(s + i, n - i, "<... "))
			rc = strace_resumed(b, &st, pid, s, i, n);
		else
			rc = strace_call(b, &st, pid, s, i, n);
		if (rc != 0)
			pb_error(b, l.lineno, "not a strace line: '%.*s%s'",
			    (int)(n - i > 40 ? 40 : n - i), s + i, n - i > 40 ?
			    "..." : "");
	}
	/* Calls that never returned (the process exited in them). */
	for (k = 0; k < st.n; k++) {
		pb_result(b, st.v[k].call, NULL);
		free(st.v[k].args);
	}
	free(st.v);
	return 0;
}

/* "% time     seconds  usecs/call     calls    errors syscall" */
int
profile_summary_header(const char *s, size_t len)
{
	size_t i = skip_blanks(s, 0, len);

	return has_prefix(s + i, len - i, "% time") &&
	    find_bytes(s, len, "calls", 5) != NULL &&
	    find_bytes(s, len, "syscall", 7) != NULL;
}

/* Whitespace-separated words of a line, at most max. */
static size_t
split_words(const char *s, size_t len, const char **w, size_t *wl,
    size_t max)
{
	size_t i = 0, j, n = 0;

	while ((i = skip_blanks(s, i, len)) < len) {
		for (j = i; j < len && s[j] != ' ' && s[j] != '\t'; j++)
			continue;
		if (n == max)
			return max + 1;
		w[n] = s + i;
		wl[n++] = j - i;
		i = j;
	}
	return n;
}

static int
summary_number(const char *s, size_t len, unsigned long *out)
{
	char buf[24];
	char *end;

	if (len == 0 || len >= sizeof(buf) || pb_span(s, len, "0123456789") < len)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	*out = strtoul(buf, &end, 10);
	return 0;
}

/* "  0.00    0.000000           0         7         2 ioctl" */
static int
summary_row(struct pb *b, const char *s, size_t len)
{
	const char *w[7];
	size_t wl[7], nw, i, k;
	unsigned long calls, errors = 0;

	nw = split_words(s, len, w, wl, 6);
	if (nw < 5 || nw > 6 || summary_number(w[3], wl[3], &calls) != 0 ||
	    (nw == 6 && summary_number(w[4], wl[4], &errors) != 0) ||
	    wl[nw - 1] > PROFILE_NAME_MAX || errors > calls)
		return -1;
	for (k = 0; k < wl[nw - 1]; k++)
		if (!is_name_char((unsigned char)w[nw - 1][k]))
			return -1;
	if (wl[nw - 1] == 5 && memcmp(w[nw - 1], "total", 5) == 0)
		return 0;
	i = pb_call(b, w[nw - 1], wl[nw - 1]);
	pb_results(b, i, NULL, calls - errors);
	/* The table counts errors but does not say which. */
	pb_results(b, i, "", errors);
	return 0;
}

int
profile_parse_summary(struct pb *b, const char *buf, size_t len)
{
	struct pb_lines l;
	const char *s;
	size_t n, i;
	int header = 0;

	l.p = buf;
	l.end = buf + len;
	l.lineno = 0;
	while (pb_next_line(&l, &s, &n)) {
		i = skip_blanks(s, 0, n);
		if (i == n || pb_span(s + i, n - i, "- ") >= n - i ||
		    has_prefix(s + i, n - i, "System call usage summary") ||
		    has_prefix(s + i, n - i, "strace: "))
			continue;
		if (profile_summary_header(s, n)) {
			header = 1;
			continue;
		}
		if (!header || memchr(s, '\0', n) != NULL ||
		    summary_row(b, s, n) != 0)
			pb_error(b, l.lineno, "not a row of strace's "
			    "summary: '%.*s%s'", (int)(n - i > 40 ? 40 : n - i),
			    s + i, n - i > 40 ? "..." : "");
	}
	return 0;
}
