/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Linux's own syscall tables (arch/x86/entry/syscalls/syscall_*.tbl and
 * the installed <asm/unistd_*.h>), ltpscope's names files made from
 * them (data/syscalls), and how ABIs are named: which file describes
 * which ABI, on the NetBSD side and on the Linux side.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/catalogue.h"
#include "catalogue_impl.h"

struct cat_line {
	const char	*s;
	size_t		 n;
	unsigned long	 no;
};

/* Calls f for each line of buf, stopping early if the parse gave up. */
static int
next_line(struct cat_parse *p, const char **pos, const char *end,
    struct cat_line *l)
{
	const char *nl;

	if (*pos >= end || p->gave_up)
		return 0;
	if ((nl = memchr(*pos, '\n', (size_t)(end - *pos))) == NULL)
		nl = end;
	l->s = *pos;
	l->n = (size_t)(nl - *pos);
	l->no++;
	*pos = nl + 1;
	return 1;
}

/* Splits a line into up to max blank-separated fields. */
static int
split_fields(const char *s, size_t n, const char **f, size_t *fl, int max)
{
	const char *end = s + n;
	int nf = 0;

	while (s < end && nf < max) {
		while (s < end && isspace((unsigned char)*s))
			s++;
		if (s == end || *s == '#')
			break;
		f[nf] = s;
		while (s < end && !isspace((unsigned char)*s))
			s++;
		fl[nf] = (size_t)(s - f[nf]);
		nf++;
	}
	return nf;
}

static int
line_sane(struct cat_parse *p, const struct cat_line *l)
{
	if (memchr(l->s, '\0', l->n) != NULL) {
		cat_error(p, l->no, "binary data (NUL byte)");
		return 0;
	}
	if (l->n >= CAT_MAX_LINE) {
		cat_error(p, l->no, "line longer than %d bytes",
		    CAT_MAX_LINE);
		return 0;
	}
	return 1;
}

static int
parse_number(const char *s, size_t n, long *out)
{
	long v = 0;
	size_t i;

	if (n == 0 || n > 6)
		return -1;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/*
 * The fields of a "number ..." line of a .tbl or names file, the number
 * in *num; 0 for a line to pass over (blank, or said to be bad).
 */
static int
numbered_fields(struct cat_parse *p, const struct cat_line *l,
    const char **f, size_t *fl, int max, long *num)
{
	int nf;

	if (!line_sane(p, l) || (nf = split_fields(l->s, l->n, f, fl,
	    max)) == 0)
		return 0;
	if (parse_number(f[0], fl[0], num) != 0) {
		cat_error(p, l->no, "bad syscall number '%.*s'",
		    (int)(fl[0] > 32 ? 32 : fl[0]), f[0]);
		return 0;
	}
	return nf;
}

/* A Linux syscall read from a file of format fmt. */
static struct cat_entry *
linux_entry(struct cat_parse *p, long num, const struct cat_line *l,
    enum cat_format fmt, const char *name, size_t namelen)
{
	struct cat_entry *e = cat_new_entry(p);

	e->number = num;
	e->line = l->no;
	e->format = fmt;
	e->state = CS_LINUX;
	e->own_name = cat_strndup(p->cat, name, namelen);
	return e;
}

/* What a Linux ABI name is made of; keeps names file paths plain. */
static int
is_abi_char(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
}

int
cat_abi_name_ok(const char *abi)
{
	const char *s;

	for (s = abi; *s != '\0'; s++)
		if (!is_abi_char((unsigned char)*s))
			return 0;
	return s != abi && s - abi < 32;
}

const char *
cat_linux_file_abi(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	if (strstr(base, "x32") != NULL)
		return "x32";
	if (strstr(base, "_64") != NULL || strstr(base, "-64") != NULL)
		return "x86_64";
	if (strstr(base, "_32") != NULL || strstr(base, "-32") != NULL)
		return "i386";
	return "unknown";
}

void
cat_parse_tbl(struct cat_parse *p, const char *buf, size_t len)
{
	const char *pos = buf, *end = buf + len, *f[5];
	const char *fileabi = cat_linux_file_abi(p->file);
	struct cat_line l;
	size_t fl[5];
	long num;
	int nf;

	memset(&l, 0, sizeof(l));
	while (next_line(p, &pos, end, &l)) {
		struct cat_entry *e;

		if ((nf = numbered_fields(p, &l, f, fl, 5, &num)) == 0)
			continue;
		if (nf < 3) {
			cat_error(p, l.no, "expected 'number abi name "
			    "[entry]' for syscall %ld", num);
			continue;
		}
		/* x32 rows belong to another ABI we do not test. */
		if (fl[1] == 3 && memcmp(f[1], "x32", 3) == 0)
			continue;
		e = linux_entry(p, num, &l, CF_TBL, f[2], fl[2]);
		if (nf > 3)
			e->function = cat_strndup(p->cat, f[3], fl[3]);
		if (p->abi != NULL)
			continue;
		if ((fl[1] == 6 && memcmp(f[1], "common", 6) == 0) ||
		    (fl[1] == 2 && memcmp(f[1], "64", 2) == 0)) {
			e->abi = strcmp(fileabi, "unknown") == 0 ?
			    "common" : fileabi;
		} else
			e->abi = cat_strndup(p->cat, f[1], fl[1]);
	}
}

void
cat_parse_unistd(struct cat_parse *p, const char *buf, size_t len)
{
	const char *pos = buf, *end = buf + len, *f[4];
	struct cat_line l;
	size_t fl[4];
	long num;
	int nf;

	memset(&l, 0, sizeof(l));
	while (next_line(p, &pos, end, &l)) {
		const char *v;
		size_t vl;

		if (!line_sane(p, &l))
			continue;
		/* "#define __NR_name value": split_fields stops at '#'. */
		if (l.n < 13 || memcmp(l.s, "#define", 7) != 0)
			continue;
		nf = split_fields(l.s + 7, l.n - 7, f, fl, 4);
		if (nf < 2 || fl[0] <= 5 || memcmp(f[0], "__NR_", 5) != 0)
			continue;
		v = f[1];
		vl = fl[1];
		/* x32: "(__X32_SYSCALL_BIT + 0)" */
		if (vl > 0 && v[0] == '(' && nf == 4 && fl[2] == 1 &&
		    f[2][0] == '+') {
			v = f[3];
			vl = fl[3];
			while (vl > 0 && v[vl - 1] == ')')
				vl--;
		}
		if (parse_number(v, vl, &num) != 0) {
			cat_error(p, l.no, "bad syscall number '%.*s' for %.*s",
			    (int)(fl[1] > 32 ? 32 : fl[1]), f[1],
			    (int)(fl[0] > 64 ? 64 : fl[0]), f[0]);
			continue;
		}
		(void)linux_entry(p, num, &l, CF_UNISTD, f[0] + 5, fl[0] - 5);
	}
}

/*
 * "number name" lines under a comment header (mk/linuxnames.sh): kept
 * this small so that a names file reads like the table it came from.
 */
void
cat_parse_names(struct cat_parse *p, const char *buf, size_t len)
{
	const char *pos = buf, *end = buf + len, *f[3];
	struct cat_line l;
	size_t fl[3];
	long num;
	int nf;

	memset(&l, 0, sizeof(l));
	while (next_line(p, &pos, end, &l)) {
		if ((nf = numbered_fields(p, &l, f, fl, 3, &num)) == 0)
			continue;
		if (nf != 2) {
			cat_error(p, l.no, "expected 'number name' for "
			    "syscall %ld", num);
			continue;
		}
		(void)linux_entry(p, num, &l, CF_NAMES, f[1], fl[1]);
	}
}

/* The ABI a names file states in its first line, or NULL. */
const char *
cat_names_abi(struct catalogue *cat, const char *buf, size_t len)
{
	size_t ml = strlen(CAT_NAMES_MAGIC), n;

	if (len <= ml || memcmp(buf, CAT_NAMES_MAGIC, ml) != 0)
		return NULL;
	for (n = 0; ml + n < len && is_abi_char(buf[ml + n]); n++)
		continue;
	return n > 0 && n < 32 ? cat_strndup(cat, buf + ml, n) : NULL;
}

/* strstr() for a buffer that need not end in NUL. */
static const char *
strstr_n(const char *buf, size_t n, const char *needle)
{
	size_t nl = strlen(needle);
	const char *p = buf, *end = buf + n;

	while ((size_t)(end - p) >= nl &&
	    (p = memchr(p, needle[0], (size_t)(end - p) - nl + 1)) != NULL) {
		if (memcmp(p, needle, nl) == 0)
			return p;
		p++;
	}
	return NULL;
}

static int
is_arch_char(int c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/*
 * The NetBSD ABI of a syscalls.master: from names that say it
 * ("linux-amd64-syscalls.master", ".../compat/linux32/arch/amd64/..."),
 * else from the contents.
 */
const char *
cat_master_abi(struct catalogue *cat, const char *path, const char *buf,
    size_t len)
{
	const char *base = strrchr(path, '/'), *s, *e;
	char tmp[128];

	base = base != NULL ? base + 1 : path;
	if (strncmp(base, "netbsd", 6) == 0)
		return "netbsd";
	/* "linux-ARCH-..." and "linux32-ARCH-...": the first two words. */
	if ((strncmp(base, "linux-", 6) == 0 ||
	    strncmp(base, "linux32-", 8) == 0) &&
	    is_arch_char(base[strchr(base, '-') - base + 1])) {
		e = strchr(base, '-') + 1;
		while (is_arch_char(*e))
			e++;
		return cat_strndup(cat, base, (size_t)(e - base));
	}
	if ((s = strstr(path, "compat/linux")) != NULL &&
	    (e = strstr(s, "/arch/")) != NULL) {
		const char *arch = e + 6, *ae = strchr(arch, '/');
		size_t kind = (size_t)(e - (s + 7));

		if (ae != NULL && kind < 16 && (size_t)(ae - arch) < 64) {
			(void)snprintf(tmp, sizeof(tmp), "%.*s-%.*s",
			    (int)kind, s + 7, (int)(ae - arch), arch);
			return cat_strdup(cat, tmp);
		}
	}
	if (strstr(path, "kern/syscalls.master") != NULL)
		return "netbsd";
	/* Contents: the prefix of the shims says which layer. */
	if (len > 0 && memchr(buf, '|', len) != NULL) {
		size_t n = len > 65536 ? 65536 : len;
		int l32 = 0, l = 0;

		for (s = buf; s + 12 < buf + n; s++) {
			if (*s != '|')
				continue;
			if (memcmp(s + 1, "linux32_sys|", 12) == 0)
				l32 = 1;
			else if (memcmp(s + 1, "linux_sys|", 10) == 0)
				l = 1;
		}
		if (l32)
			return "linux32";
		/* "; NetBSD amd64 COMPAT_LINUX system call name/number" */
		if (l && (s = strstr_n(buf, n, "; NetBSD ")) != NULL) {
			const char *a = s + 9;

			for (e = a; e < buf + n && is_arch_char(*e); e++)
				continue;
			if (e > a && e - a < 32 && buf + n - e > 14 &&
			    memcmp(e, " COMPAT_LINUX ", 14) == 0) {
				(void)snprintf(tmp, sizeof(tmp), "linux-%.*s",
				    (int)(e - a), a);
				return cat_strdup(cat, tmp);
			}
		}
		if (l)
			return "linux";
	}
	return "netbsd";
}

/*
 * Names NetBSD gives a Linux call under another name.  Each pair is
 * NetBSD's name, Linux's name.  The i386 table keeps Linux's old 16-bit
 * uid calls under their plain names and the 32-bit ones as *32.
 */
static const char *const cat_renames[][2] = {
	{ "pread", "pread64" },
	{ "pwrite", "pwrite64" },
	{ "fstatat64", "newfstatat" },
	{ "rt_queueinfo", "rt_sigqueueinfo" },
	{ "stat64", "stat" },
	{ "lstat64", "lstat" },
	{ "fstat64", "fstat" },
	{ "truncate64", "truncate" },
	{ "ftruncate64", "ftruncate" },
	{ "__sysctl", "_sysctl" },
	{ "__getcwd", "getcwd" },
	{ "__futex_set_robust_list", "set_robust_list" },
	{ "__futex_get_robust_list", "get_robust_list" },
	{ "uname", "newuname" },
	{ "olduname", "oldolduname" },
	{ "uname", "olduname" },
	{ "llseek", "_llseek" },
	{ "select", "_newselect" },
	{ "oldselect", "select" },
	{ "old_mmap", "mmap" },
	{ "siggetmask", "sgetmask" },
	{ "sigsetmask", "ssetmask" },
	{ "perf_counter_open", "perf_event_open" },
	{ "lstat43", "oldlstat" },
	{ "oolstat", "oldlstat" },
	{ "break", "brk" },
	{ "obreak", "brk" },
};

/* "setuid16" is Linux i386's "setuid", "setuid" there is "setuid32". */
static int
uid_pair(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la > 2 && strcmp(a + la - 2, "16") == 0 && la - 2 == lb &&
	    strncmp(a, b, lb) == 0)
		return 1;
	if (lb > 2 && strcmp(b + lb - 2, "32") == 0 && lb - 2 == la &&
	    strncmp(a, b, la) == 0)
		return 1;
	return 0;
}

int
catalogue_same_call(const char *a, const char *b)
{
	size_t i;

	if (strcmp(a, b) == 0)
		return 1;
	for (i = 0; i < sizeof(cat_renames) / sizeof(cat_renames[0]); i++)
		if (strcmp(cat_renames[i][0], a) == 0 &&
		    strcmp(cat_renames[i][1], b) == 0)
			return 1;
	/* NetBSD's POSIX-behaviour variants: __posix_chown is chown. */
	if (strncmp(a, "__posix_", 8) == 0)
		return catalogue_same_call(a + 8, b);
	if (uid_pair(a, b))
		return 1;
	/* NetBSD names old versions "oname", Linux "oldname". */
	if (a[0] == 'o' && (strcmp(a + 1, b) == 0 ||
	    (strncmp(b, "old", 3) == 0 && strcmp(a + 1, b + 3) == 0)))
		return 1;
	return 0;
}
