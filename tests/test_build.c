/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The build as a newcomer and a packager meet it, on a fresh clone of
 * HEAD: plain "make", with GNU make and with BSD make, gives ./ltpscope
 * and builds nothing it does not need; "make install DESTDIR=..."
 * installs exactly mk/pkgsrc/PLIST, under the Makefile's own directories
 * and under those the pkgsrc package passes, and "make uninstall" takes
 * every file back.  The package passes only variables the Makefile
 * takes, and builds only targets it has.
 *
 * Each clone is built once, the two makes at the same time (each a
 * plain, serial make: two cores).  Under ASan the program checks
 * nothing: the build is the same, so it runs once, in the plain pass.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

/* pkgsrc's PREFIX and PKGMANDIR on NetBSD, as DESTDIR sees them. */
#define PKG_PREFIX	"usr/pkg"
#define PKG_MANDIR	"man"

struct make {
	const char	*name;		/* "GNU make", "BSD make" */
	const char	*dir;		/* its clone, under the tmpdir */
	char		 cmd[64];	/* the program, "" when absent */
};

static char root[1024];
static char version[64];
/* The directory arguments the pkgsrc package gives make. */
static char pkgdirs[1024];

/* Runs a command made as printf(3) makes it: its output, stderr too. */
static char *
sh(int *status, const char *fmt, ...)
	__attribute__((__format__(__printf__, 2, 3)));

static char *
sh(int *status, const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return tap_run(cmd, status, 1);
}

/* The output of a command with its trailing newline cut, in buf. */
static int
sh_line(char *buf, size_t len, const char *cmd)
{
	char *out;
	int st;

	out = tap_run(cmd, &st, 0);
	buf[0] = '\0';
	if (out != NULL) {
		out[strcspn(out, "\n")] = '\0';
		snprintf(buf, len, "%s", out);
	}
	free(out);
	return st == 0 && buf[0] != '\0';
}

/*
 * GNU make says so in --version; BSD make (bmake, NetBSD's make) knows
 * -V and MAKE_VERSION, which GNU make refuses.
 */
static void
find_makes(struct make *gnu, struct make *bsd)
{
	static const char *const gnus[] = { "gmake", "make", NULL };
	static const char *const bsds[] = { "bmake", "make", NULL };
	char buf[256], cmd[256];
	int i;

	gnu->cmd[0] = bsd->cmd[0] = '\0';
	for (i = 0; gnus[i] != NULL && gnu->cmd[0] == '\0'; i++) {
		snprintf(cmd, sizeof(cmd), "%s --version 2>/dev/null | "
		    "grep '^GNU Make'", gnus[i]);
		if (tap_have(gnus[i]) && sh_line(buf, sizeof(buf), cmd))
			snprintf(gnu->cmd, sizeof(gnu->cmd), "%s", gnus[i]);
	}
	for (i = 0; bsds[i] != NULL && bsd->cmd[0] == '\0'; i++) {
		snprintf(cmd, sizeof(cmd), "%s -f /dev/null -V MAKE_VERSION "
		    "2>/dev/null | grep '^[0-9]'", bsds[i]);
		if (tap_have(bsds[i]) && sh_line(buf, sizeof(buf), cmd))
			snprintf(bsd->cmd, sizeof(bsd->cmd), "%s", bsds[i]);
	}
}

/*
 * What the make this test runs under hands its children (jobserver,
 * level, its own command-line variables) and what a user's environment
 * would change in the build: the clones get a newcomer's plain make.
 */
static void
clean_make_env(void)
{
	static const char *const vars[] = {
		"MAKEFLAGS", "MFLAGS", "GNUMAKEFLAGS", "MAKELEVEL",
		"MAKEOVERRIDES", "MAKEFILES", "MAKEOBJDIR", "MAKEOBJDIRPREFIX",
		"MAKESYSPATH", "PREFIX", "BINDIR", "MANDIR", "DATADIR",
		"DESTDIR", "CFLAGS", "COPTS", "LDFLAGS", "WERROR", "V", NULL
	};
	int i;

	for (i = 0; vars[i] != NULL; i++)
		(void)unsetenv(vars[i]);
}

/* The line after p's, or NULL at the end. */
static const char *
next_line(const char *p)
{
	p = strchr(p, '\n');
	return p != NULL && p[1] != '\0' ? p + 1 : NULL;
}

/* The value of the line "MAKE_FLAGS+=<tabs>VAR=value" of text, or NULL. */
static const char *
pkg_value(const char *text, const char *var, char *buf, size_t len)
{
	const char *p, *e;
	size_t n = strlen(var);

	for (p = text; p != NULL; p = next_line(p)) {
		if (strncmp(p, "MAKE_FLAGS+=", 12) != 0)
			continue;
		p += 12;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, var, n) != 0 || p[n] != '=')
			continue;
		e = p + n + 1 + strcspn(p + n + 1, "\n");
		snprintf(buf, len, "%.*s", (int)(e - (p + n + 1)), p + n + 1);
		return buf;
	}
	return NULL;
}

/* s with every "from" replaced by "to", in buf. */
static void
subst(char *buf, size_t len, const char *s, const char *from,
    const char *to)
{
	size_t o = 0, n = strlen(from);

	while (*s != '\0' && o + 1 < len) {
		if (strncmp(s, from, n) == 0) {
			o += snprintf(buf + o, len - o, "%s", to);
			s += n;
		} else
			buf[o++] = *s++;
		if (o >= len)
			o = len - 1;
	}
	buf[o] = '\0';
}

/* 1 if the Makefile has a line starting with what. */
static int
makefile_has(const char *mk, const char *what)
{
	size_t n = strlen(what);
	const char *p;

	if (strncmp(mk, what, n) == 0)
		return 1;
	for (p = strchr(mk, '\n'); p != NULL; p = strchr(p + 1, '\n'))
		if (strncmp(p + 1, what, n) == 0)
			return 1;
	return 0;
}

/*
 * Every variable the package gives make (MAKE_FLAGS, MAKE_ENV) is one
 * the Makefile takes from outside ("VAR?="), and every target it builds
 * or installs with is the Makefile's; pkgdirs gets the directories.
 */
static void
test_pkgsrc_options(void)
{
	static const char *const dirs[] = {
		"PREFIX", "BINDIR", "MANDIR", "DATADIR", NULL
	};
	/* A line of variables gives one, a line of targets several. */
	static const struct {
		const char	*start;
		int		 target;
	} lines[] = {
		{ "MAKE_FLAGS+=", 0 }, { "MAKE_ENV+=", 0 },
		{ "BUILD_TARGET=", 1 }, { "INSTALL_TARGET=", 1 }, { NULL, 0 }
	};
	char *pkg, *mk, word[128], want[160], val[512], v1[512], v2[512];
	const char *p, *q;
	size_t n, o;
	int i, k, target, nvars = 0;

	pkg = tap_slurp("mk/pkgsrc/Makefile", NULL);
	mk = tap_slurp("Makefile", NULL);
	if (!ok(pkg != NULL && mk != NULL, "mk/pkgsrc/Makefile and Makefile "
	    "are there")) {
		free(pkg);
		free(mk);
		return;
	}
	for (p = pkg; p != NULL; p = next_line(p)) {
		for (k = 0; lines[k].start != NULL; k++)
			if (strncmp(p, lines[k].start,
			    strlen(lines[k].start)) == 0)
				break;
		if (lines[k].start == NULL)
			continue;
		target = lines[k].target;
		q = p + strlen(lines[k].start);
		for (;;) {
			while (*q == ' ' || *q == '\t')
				q++;
			if (*q == '\0' || *q == '\n' || *q == '#')
				break;
			n = target ? strcspn(q, " \t\n") : strcspn(q, "=\n");
			snprintf(word, sizeof(word), "%.*s", (int)n, q);
			if (target) {
				snprintf(want, sizeof(want), "%s:", word);
				ok(makefile_has(mk, want), "the package's "
				    "target %s is the Makefile's", word);
				q += n;
				continue;
			}
			snprintf(want, sizeof(want), "%s?=", word);
			ok(makefile_has(mk, want), "the package passes %s, "
			    "which the Makefile takes (%s)", word, want);
			nvars++;
			break;
		}
	}
	ok(nvars >= 4, "the package passes its directories and flags "
	    "(%d variables)", nvars);
	o = 0;
	pkgdirs[0] = '\0';
	for (i = 0; dirs[i] != NULL; i++) {
		if (pkg_value(pkg, dirs[i], val, sizeof(val)) == NULL)
			continue;
		subst(v1, sizeof(v1), val, "${PREFIX}", "/" PKG_PREFIX);
		subst(v2, sizeof(v2), v1, "${PKGMANDIR}", PKG_MANDIR);
		o += snprintf(pkgdirs + o, sizeof(pkgdirs) - o, " %s=%s",
		    dirs[i], v2);
		if (o >= sizeof(pkgdirs))
			o = sizeof(pkgdirs) - 1;
	}
	ok(strstr(pkgdirs, "PREFIX=") != NULL && strstr(pkgdirs, "MANDIR=")
	    != NULL, "the package gives PREFIX and MANDIR:%s", pkgdirs);
	free(pkg);
	free(mk);
}

/* Builds the clones at once, each with a plain make: NAME.rc says how. */
static void
build(struct make *m, int nm, const char *tmp)
{
	char cmd[2048];
	size_t o;
	int i, st;
	char *out;

	o = snprintf(cmd, sizeof(cmd), "cd '%s' && {", tmp);
	for (i = 0; i < nm; i++) {
		if (m[i].cmd[0] == '\0')
			continue;
		o += snprintf(cmd + o, sizeof(cmd) - o, " (cd %s && %s "
		    ">../%s.log 2>&1; echo $? >../%s.rc) &", m[i].dir,
		    m[i].cmd, m[i].dir, m[i].dir);
	}
	snprintf(cmd + o, sizeof(cmd) - o, " wait; }");
	out = tap_run(cmd, &st, 1);
	free(out);
}

static void
test_plain_make(const struct make *m, const char *tmp)
{
	char path[1200], rc[32], want[128];
	char *out, *log;
	int st;

	snprintf(path, sizeof(path), "%s/%s.rc", tmp, m->dir);
	out = tap_slurp(path, NULL);
	snprintf(rc, sizeof(rc), "%s", out != NULL ? out : "none");
	rc[strcspn(rc, "\n")] = '\0';
	free(out);
	if (!ok(strcmp(rc, "0") == 0, "%s: plain make in a fresh clone "
	    "succeeds (exit %s)", m->name, rc)) {
		snprintf(path, sizeof(path), "tail -n 30 '%s/%s.log'", tmp,
		    m->dir);
		log = tap_run(path, &st, 1);
		tap_diag("%s", log != NULL ? log : "");
		free(log);
	}
	snprintf(path, sizeof(path), "%s/%s/ltpscope", tmp, m->dir);
	ok(access(path, X_OK) == 0, "%s: plain make gives ./ltpscope",
	    m->name);
	out = sh(&st, "cd '%s/%s' && ./ltpscope --version", tmp, m->dir);
	snprintf(want, sizeof(want), "ltpscope %s\n", version);
	is_str(out, want, "%s: ./ltpscope --version says its version",
	    m->name);
	free(out);
	/*
	 * Everything the build left that git does not know: ltpscope,
	 * its library and objects and the dependency file, no bench,
	 * test, ASan or demo builds.
	 */
	out = sh(&st, "cd '%s/%s' && git ls-files -o | grep -v "
	    "-e '^ltpscope$' -e '^libltpscope[.]a$' -e '^src/[^/]*[.]o$' "
	    "-e '^build/depend[.]mk$'", tmp, m->dir);
	is_str(out, "", "%s: plain make builds ltpscope and nothing else",
	    m->name);
	free(out);
}

/*
 * "make install" with args into a fresh DESTDIR installs exactly PLIST,
 * its man/ under mandir and all of it under prefix (both relative to
 * DESTDIR); "make uninstall" with the same args removes every file.
 */
static void
test_install(const struct make *m, const char *tmp, const char *what,
    const char *args, const char *prefix, const char *mandir)
{
	char dest[1200];
	char *out;
	int st;

	snprintf(dest, sizeof(dest), "%s/%s-dest-%s", tmp, m->dir, what);
	out = sh(&st, "cd '%s/%s' && %s install DESTDIR='%s'%s", tmp, m->dir,
	    m->cmd, dest, args);
	if (!is_int(st, 0, "%s: make install with the %s directories "
	    "succeeds after plain make", m->name, what))
		tap_diag("%s", out != NULL ? out : "");
	free(out);
	/* PLIST says man/ or ${PKGMANDIR}/: pkgsrc reads both alike. */
	out = sh(&st, "cd '%s' && find . -type f -o -type l | "
	    "sed 's,^[.]/,,' | LC_ALL=C sort >'%s.got' && "
	    "grep -v '^@' '%s/mk/pkgsrc/PLIST' | "
	    "sed 's,^[$]{PKGMANDIR}/,man/,' >'%s.plist' && "
	    "{ sed -n 's,^man/,%s/,p' '%s.plist'; "
	    "grep -v '^man/' '%s.plist' | sed 's,^,%s/,'; } | "
	    "LC_ALL=C sort >'%s.want' && diff '%s.want' '%s.got'",
	    dest, dest, root, dest, mandir, dest, dest, prefix, dest, dest,
	    dest);
	is_str(out, "", "%s: make install with the %s directories installs "
	    "exactly mk/pkgsrc/PLIST under %s", m->name, what, prefix);
	free(out);
	out = sh(&st, "cd '%s/%s' && %s uninstall DESTDIR='%s'%s >/dev/null "
	    "2>&1; echo $?; find '%s' -type f -o -type l | head -n 5", tmp,
	    m->dir, m->cmd, dest, args, dest);
	is_str(out, "0\n", "%s: make uninstall with the %s directories "
	    "leaves no file behind", m->name, what);
	free(out);
}

int
main(void)
{
	struct make makes[2] = {
		{ "GNU make", "gnu", "" }, { "BSD make", "bsd", "" }
	};
	char head[64], cmd[2048];
	const char *tmp;
	char *out;
	int i, st;

	if (getenv("LTPSCOPE_ASAN") != NULL) {
		ok(1, "# SKIP the build is checked once, in the plain pass");
		return tap_done();
	}
	clean_make_env();
	sh_line(version, sizeof(version),
	    "sed -n 's/^VERSION=[[:space:]]*//p' Makefile");
	ok(isdigit((unsigned char)version[0]), "the Makefile's VERSION: %s",
	    version);
	test_pkgsrc_options();

	if (!tap_have("git") ||
	    !sh_line(root, sizeof(root), "git rev-parse --show-toplevel "
	    "2>/dev/null") ||
	    !sh_line(head, sizeof(head), "git rev-parse HEAD 2>/dev/null")) {
		ok(1, "# SKIP not in a git checkout: no fresh clone to build");
		return tap_done();
	}
	out = tap_run("git status --porcelain --untracked-files=no", &st, 0);
	if (out != NULL && *out != '\0')
		tap_diag("uncommitted changes are not checked: the clones "
		    "are of HEAD %s", head);
	free(out);
	find_makes(&makes[0], &makes[1]);
	tmp = tap_tmpdir();
	for (i = 0; i < 2; i++) {
		if (makes[i].cmd[0] == '\0')
			continue;
		snprintf(cmd, sizeof(cmd), "cd '%s' && git clone -q '%s' %s "
		    "&& cd %s && git checkout -q %s", tmp, root, makes[i].dir,
		    makes[i].dir, head);
		out = tap_run(cmd, &st, 1);
		if (!ok(st == 0, "%s: a fresh clone of HEAD", makes[i].name)) {
			tap_diag("%s", out != NULL ? out : "");
			makes[i].cmd[0] = '\0';
		}
		free(out);
	}
	build(makes, 2, tmp);
	for (i = 0; i < 2; i++) {
		if (makes[i].cmd[0] == '\0') {
			ok(1, "# SKIP %s not found (%s)", makes[i].name,
			    i == 0 ? "gmake or make" : "bmake or make");
			continue;
		}
		test_plain_make(&makes[i], tmp);
		test_install(&makes[i], tmp, "default", "", "usr/local",
		    "usr/local/share/man");
		test_install(&makes[i], tmp, "pkgsrc", pkgdirs,
		    PKG_PREFIX, PKG_PREFIX "/" PKG_MANDIR);
	}
	return tap_done();
}
