/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * NetBSD's kdump(1) output as a program profile.  A record is
 *
 *	  PID    LID COMMAND  [TIMESTAMP] TYPE  DATA
 *
 * as kdump.c's dumpheader() prints it: "%6d %6d %-8.*s ", the LID only
 * for ktrace records of version 1 and later ("PID/LID" is taken too),
 * the command up to 16 bytes (it may hold blanks), the time stamp of
 * -T (absolute) or -R (relative) as "SECONDS.NANOSECONDS ", then the
 * type in four columns and two blanks.  The records that matter:
 *
 *	EMUL  "linux"			the process's emulation from now on
 *					(at an execve; "linux32" too)
 *	CALL  openat(0xffffff9c,...)	a call made, named by the
 *					emulation's table
 *	RET   openat 3			its return: "94174236626944/0x55a6..."
 *					for a large value, "0x55a6..." with
 *					-n, "3, 4" for two, JUSTRETURN
 *	RET   openat -1 errno 2 No such file or directory
 *					an error: the emulation's number
 *					and NetBSD's message for it (only
 *					the number with -n); RESTART when
 *					the call will be made again
 *
 * The names are those of the emulation's syscalls.master, not always
 * Linux's ("__posix_rename", "pread", "fstatat64"): the report finds
 * Linux's name through the catalogue.  Unimplemented slots read "#332
 * (unimplemented statx)", padding slots "# filler", numbers past the
 * table "[460]".  NAMI, GIO, PSIG, CSW, MISC, ARG, ENV, FD and MIB
 * records say nothing about calls; GIO, ARG and ENV data go on over
 * lines that start with a blank or a tab.  Only calls of processes in
 * a Linux emulation count: a ktrace of a shell that then runs the
 * program shows the shell's NetBSD calls too.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/profile.h"
#include "ltpscope/xmalloc.h"

#include "profile_impl.h"

/*
 * kdump's words for its record types (dumpheader() in kdump.c): MISC
 * is KTR_USER, ARG and ENV an execve's arguments and environment, FD
 * an exec's file descriptor, SAU a scheduler activation upcall; older
 * releases said USER, EXEC_ARG ... and had Mach's MMSG, MOOL.
 */
static const char *const kd_types[] = {
	"CALL", "RET", "NAMI", "GIO", "PSIG", "EMUL", "CSW", "MISC", "ARG",
	"ENV", "FD", "SAU", "MIB", "USER", "EXEC_ARG", "EXEC_ENV",
	"SAUPCALL", "MMSG", "MOOL", "MSEND"
};
#define NTYPES	(sizeof(kd_types) / sizeof(kd_types[0]))
#define KD_TYPE_WITHIN	64

/* Per thread: its emulation and the call it is in. */
struct kd_thread {
	long	 pid, lid;
	int	 linux_emul;	/* 1 linux, 0 other, -1 not said */
	int	 incall;
	int	 restart;	/* its call returned RESTART */
	size_t	 call;
};

struct kd_state {
	struct kd_thread *v;
	size_t		  n;
	int		  dump;	/* the last record may continue */
};

struct kd_record {
	long		 pid, lid;
	const char	*type;
	const char	*data;
	size_t		 len;
};

static size_t
kd_skip(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* A number ending in a blank (or in '/' when slash is set). */
static size_t
kd_number(const char *s, size_t i, size_t len, long *out, int slash)
{
	size_t j;
	long v = 0;

	/*
	 * By hand, not strtol(): the line is not NUL-terminated, and nine
	 * digits fit a 32-bit long.
	 */
	for (j = i; j < len && j - i < 9 && isdigit((unsigned char)s[j]);
	    j++)
		v = v * 10 + (s[j] - '0');
	if (j == i || (j < len && s[j] != ' ' && !(slash && s[j] == '/')))
		return 0;
	*out = v;
	return j;
}

/* Splits a record; -1 when the line is none. */
static int
kd_record(const char *s, size_t len, struct kd_record *r)
{
	size_t i, j, k, n, best = len, tlen = 0;
	long second;

	i = kd_skip(s, 0, len);
	if ((j = kd_number(s, i, len, &r->pid, 1)) == 0)
		return -1;
	r->lid = 0;
	/* "PID LID COMM", "PID COMM" (no LID before ktrace v1), "PID/LID". */
	if (j < len && s[j] == '/') {
		if ((j = kd_number(s, j + 1, len, &r->lid, 0)) == 0)
			return -1;
		i = kd_skip(s, j, len);
	} else {
		i = kd_skip(s, j, len);
		if ((j = kd_number(s, i, len, &second, 0)) != 0) {
			r->lid = second;
			i = kd_skip(s, j, len);
		}
	}
	/*
	 * The first " TYPE " after the command (MAXCOMLEN is 16 bytes) and
	 * the time stamp of -T, -R or -E: within KD_TYPE_WITHIN bytes.
	 */
	for (k = 0; k < NTYPES; k++) {
		n = strlen(kd_types[k]);
		for (j = i; j + n + 1 < len && j < best &&
		    j < i + KD_TYPE_WITHIN; j++)
			if (s[j] == ' ' && memcmp(s + j + 1, kd_types[k], n) ==
			    0 && (j + 1 + n == len || s[j + 1 + n] == ' ')) {
				best = j + 1;
				tlen = n;
				r->type = kd_types[k];
				break;
			}
	}
	if (best == len)
		return -1;
	j = kd_skip(s, best + tlen, len);
	r->data = s + j;
	r->len = len - j;
	return 0;
}

int
profile_kdump_line(const char *s, size_t len)
{
	struct kd_record r;

	return kd_record(s, len, &r) == 0;
}

static struct kd_thread *
kd_thread(struct kd_state *st, long pid, long lid)
{
	struct kd_thread *t;
	size_t k;

	for (k = 0; k < st->n; k++)
		if (st->v[k].pid == pid && st->v[k].lid == lid)
			return &st->v[k];
	st->v = xreallocarray(st->v, st->n + 1, sizeof(*st->v));
	t = &st->v[st->n++];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->lid = lid;
	t->linux_emul = -1;
	/* A new thread of a known process shares its emulation. */
	for (k = 0; k + 1 < st->n; k++)
		if (st->v[k].pid == pid)
			t->linux_emul = st->v[k].linux_emul;
	return t;
}

/*
 * The call's name at the start of s, as the emulation's table names it:
 * "open", "linux_sys_open" (meaning "open"), "#332 (unimplemented
 * statx)" (meaning "statx"), "#440 (unimplemented)" and "[460]" (a
 * number past the table: "#460").  *namep and *np get the name,
 * *usedp how many bytes of s it took; 0 when there is none.
 */
static int
kd_name(const char *s, size_t len, const char **namep, size_t *np,
    size_t *usedp, char *numbuf, size_t numsize)
{
	static const char *const pfx[] = { "linux_sys_", "linux_", "sys_" };
	static const char *const why[] = { " (unimplemented", " (obsolete",
	    " (excluded" };
	size_t n, k, pl, w, e;

	/* A slot the table pads with: kdump says not which. */
	if (len >= 8 && memcmp(s, "# filler", 8) == 0) {
		*namep = "#filler";
		*np = 7;
		*usedp = 8;
		return 1;
	}
	if (len > 0 && s[0] == '[') {
		n = 1 + pb_span(s + 1, len - 1, "0123456789");
		if (n == 1 || n >= len || s[n] != ']' || n + 1 >= numsize)
			return 0;
		(void)snprintf(numbuf, numsize, "#%.*s", (int)(n - 1), s + 1);
		*namep = numbuf;
		*np = strlen(numbuf);
		*usedp = n + 1;
		return 1;
	}
	for (n = 0; n < len && (isalnum((unsigned char)s[n]) || s[n] == '_' ||
	    (n == 0 && s[n] == '#')); n++)
		continue;
	*namep = s;
	*np = n;
	*usedp = n;
	if (n > 1 && s[0] == '#') {
		/* "#332 (unimplemented statx)": the Linux name in it. */
		for (k = 0; k < sizeof(why) / sizeof(why[0]); k++) {
			pl = strlen(why[k]);
			if (len - n < pl || memcmp(s + n, why[k], pl) != 0)
				continue;
			e = n + pl;
			while (e < len && s[e] != ')')
				e++;
			if (e == len)
				return 0;
			w = n + pl + (s[n + pl] == ' ');
			if (e > w && pb_span(s + w, e - w,
			    "abcdefghijklmnopqrstuvwxyz0123456789_") == e - w) {
				*namep = s + w;
				*np = e - w;
			}
			*usedp = e + 1;
			return 1;
		}
		return 1;
	}
	for (k = 0; k < sizeof(pfx) / sizeof(pfx[0]); k++) {
		pl = strlen(pfx[k]);
		if (n > pl && strncmp(s, pfx[k], pl) == 0) {
			*namep = s + pl;
			*np = n - pl;
			break;
		}
	}
	return n > 0;
}

static int
kd_emul(struct kd_state *st, struct profile *p, const struct kd_record *r)
{
	struct kd_thread *t = kd_thread(st, r->pid, r->lid);
	size_t k;
	int lx;

	if (r->len < 2 || r->data[0] != '"' || r->data[r->len - 1] != '"')
		return -1;
	/* compat_linux32 (32-bit Linux on a 64-bit kernel) is Linux too. */
	lx = (r->len == 7 && memcmp(r->data, "\"linux\"", 7) == 0) ||
	    (r->len == 9 && memcmp(r->data, "\"linux32\"", 9) == 0);
	/* The emulation is the process's, all its threads'. */
	for (k = 0; k < st->n; k++)
		if (st->v[k].pid == r->pid)
			st->v[k].linux_emul = lx;
	t->linux_emul = lx;
	if (lx) {
		free(p->emul);
		p->emul = xstrndup(r->data + 1, r->len - 2);
	}
	return 0;
}

static int
kd_call(struct pb *b, struct kd_state *st, const struct kd_record *r)
{
	struct kd_thread *t = kd_thread(st, r->pid, r->lid);
	const char *name;
	char num[24];
	size_t n, used;

	if (!kd_name(r->data, r->len, &name, &n, &used, num, sizeof(num)) ||
	    n > PROFILE_NAME_MAX || (used < r->len && r->data[used] != '('))
		return -1;
	/*
	 * One that never returned: exit, or an execve that worked; but a
	 * call made again after RESTART is the same call.
	 */
	if (t->incall && !(t->restart && strncmp(b->p->calls[t->call].name,
	    name, n) == 0 && b->p->calls[t->call].name[n] == '\0'))
		pb_result(b, t->call, NULL);
	t->incall = 0;
	t->restart = 0;
	if (t->linux_emul == 0)
		return 0;
	t->call = pb_call(b, name, n);
	t->incall = 1;
	return 0;
}

/*
 * Linux's errno numbers: kdump prints the emulation's number, and with
 * -n no message beside it.
 */
static const struct {
	int		 num;
	const char	*name;
} linux_errnos[] = {
	{ 1, "EPERM" }, { 2, "ENOENT" }, { 3, "ESRCH" }, { 4, "EINTR" },
	{ 5, "EIO" }, { 6, "ENXIO" }, { 7, "E2BIG" }, { 8, "ENOEXEC" },
	{ 9, "EBADF" }, { 10, "ECHILD" }, { 11, "EAGAIN" }, { 12, "ENOMEM" },
	{ 13, "EACCES" }, { 14, "EFAULT" }, { 16, "EBUSY" }, { 17, "EEXIST" },
	{ 18, "EXDEV" }, { 19, "ENODEV" }, { 20, "ENOTDIR" },
	{ 21, "EISDIR" }, { 22, "EINVAL" }, { 23, "ENFILE" },
	{ 24, "EMFILE" }, { 25, "ENOTTY" }, { 27, "EFBIG" }, { 28, "ENOSPC" },
	{ 29, "ESPIPE" }, { 30, "EROFS" }, { 31, "EMLINK" }, { 32, "EPIPE" },
	{ 34, "ERANGE" }, { 35, "EDEADLK" }, { 36, "ENAMETOOLONG" },
	{ 37, "ENOLCK" }, { 38, "ENOSYS" }, { 39, "ENOTEMPTY" },
	{ 40, "ELOOP" }, { 61, "ENODATA" }, { 75, "EOVERFLOW" },
	{ 84, "EILSEQ" }, { 88, "ENOTSOCK" }, { 92, "ENOPROTOOPT" },
	{ 93, "EPROTONOSUPPORT" }, { 95, "EOPNOTSUPP" },
	{ 97, "EAFNOSUPPORT" }, { 98, "EADDRINUSE" }, { 110, "ETIMEDOUT" },
	{ 111, "ECONNREFUSED" }, { 114, "EALREADY" }, { 115, "EINPROGRESS" }
};

/*
 * A return value's error: "-1 errno 38 Function not implemented" (the
 * message names it), "-1 errno 38" of kdump -n (Linux's number, in the
 * linux emulation), "-1 unknown errno 524" (no NetBSD errno maps to
 * it); NULL for a success, "errno N" in errbuf when not known.
 */
static const char *
kd_errno(const char *s, size_t len, int linux_emul, char *errbuf,
    size_t size)
{
	const char *e, *msg;
	char text[128];
	size_t i, k, at;
	long num;

	if (len > 17 && memcmp(s, "-1 unknown errno ", 17) == 0)
		at = 17;
	else if (len > 9 && memcmp(s, "-1 errno ", 9) == 0)
		at = 9;
	else
		return NULL;
	/* The line ends without a NUL: no strtol(). */
	for (i = at, num = 0; i < len && i - at <= 6 &&
	    isdigit((unsigned char)s[i]); i++)
		num = num * 10 + (s[i] - '0');
	if (i == at || i - at > 6)
		return "";
	msg = s + i + (i < len);
	(void)snprintf(text, sizeof(text), "%.*s", (int)(len - (size_t)(msg -
	    s)), msg);
	if (at == 9 && text[0] != '\0' &&
	    (e = profile_errno_by_message(text)) != NULL)
		return e;
	for (k = 0; at == 9 && text[0] == '\0' && linux_emul == 1 &&
	    k < sizeof(linux_errnos) / sizeof(linux_errnos[0]); k++)
		if (linux_errnos[k].num == num)
			return linux_errnos[k].name;
	(void)snprintf(errbuf, size, "errno %ld", num);
	return errbuf;
}

static int
kd_ret(struct pb *b, struct kd_state *st, const struct kd_record *r)
{
	struct kd_thread *t = kd_thread(st, r->pid, r->lid);
	const char *name, *err, *v;
	char errbuf[32], num[24];
	size_t n, used, call;

	if (!kd_name(r->data, r->len, &name, &n, &used, num, sizeof(num)) ||
	    n > PROFILE_NAME_MAX || used >= r->len || r->data[used] != ' ')
		return -1;
	v = r->data + used + 1;
	err = kd_errno(v, r->len - (size_t)(v - r->data), t->linux_emul,
	    errbuf, sizeof(errbuf));
	if (t->linux_emul == 0) {
		t->incall = 0;
		return 0;
	}
	/*
	 * RESTART: the kernel makes the call again, which kdump shows as
	 * a CALL of its own; until then the call is still pending.
	 */
	if (r->len - (size_t)(v - r->data) == 7 && memcmp(v, "RESTART", 7) ==
	    0) {
		t->restart = t->incall;
		return 0;
	}
	call = pb_call(b, name, n);
	/* The CALL may lie before the trace began: count it here. */
	if (t->incall && t->call != call)
		pb_result(b, t->call, NULL);
	pb_result(b, call, err);
	t->incall = 0;
	return 0;
}

int
profile_parse_kdump(struct pb *b, const char *buf, size_t len)
{
	struct kd_state st;
	struct kd_record r;
	struct pb_lines l;
	const char *s;
	size_t n, k;
	int rc;

	memset(&st, 0, sizeof(st));
	l.p = buf;
	l.end = buf + len;
	l.lineno = 0;
	while (pb_next_line(&l, &s, &n)) {
		if (n == 0)
			continue;
		if (memchr(s, '\0', n) == NULL && kd_record(s, n, &r) == 0) {
			st.dump = strcmp(r.type, "CALL") != 0 &&
			    strcmp(r.type, "RET") != 0 &&
			    strcmp(r.type, "EMUL") != 0;
			if (strcmp(r.type, "EMUL") == 0)
				rc = kd_emul(&st, b->p, &r);
			else if (strcmp(r.type, "CALL") == 0)
				rc = kd_call(b, &st, &r);
			else if (strcmp(r.type, "RET") == 0)
				rc = kd_ret(b, &st, &r);
			else
				rc = 0;
			if (rc != 0)
				pb_error(b, l.lineno, "malformed %s record: "
				    "'%.*s%s'", r.type, (int)(r.len > 40 ? 40 :
				    r.len), r.data, r.len > 40 ? "..." : "");
			continue;
		}
		/* A data dump goes on over lines of its own. */
		if (st.dump && (s[0] == '\t' || s[0] == ' '))
			continue;
		pb_error(b, l.lineno, "not a kdump line");
	}
	for (k = 0; k < st.n; k++)
		if (st.v[k].incall)
			pb_result(b, st.v[k].call, NULL);
	free(st.v);
	return 0;
}
