/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * TAP producer (see tap.h).
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "ltpscope/diag.h"
#include "tap.h"

static int	tap_count;
static int	tap_failed;
static char	tap_tmp[256];
static pid_t	tap_owner;	/* the process that made tap_tmp */
static char	tap_tmpbase_buf[200];	/* TMPDIR before tap_tmpdir() */
static char	tap_binpath[2048];
/* Where tap_shared_path() looks: NULL for ../shared (see tap_layer()). */
static const char	*tap_layer_root;

#define TAP_MADEUP	"tests/fixtures/madeup"

static void
tap_vline(int pass, const char *fmt, va_list ap)
{
	tap_count++;
	if (!pass)
		tap_failed++;
	printf("%sok %d - ", pass ? "" : "not ", tap_count);
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
}

static void
tap_where(const char *file, int line)
{
	printf("#   at %s line %d\n", file, line);
}

int
tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vline(pass, fmt, ap);
	va_end(ap);
	if (!pass)
		tap_where(file, line);
	return pass;
}

int
tap_is_int(long long got, long long want, const char *file, int line,
    const char *fmt, ...)
{
	va_list ap;
	int pass = got == want;

	va_start(ap, fmt);
	tap_vline(pass, fmt, ap);
	va_end(ap);
	if (!pass) {
		tap_where(file, line);
		printf("#   got: %lld\n#  want: %lld\n", got, want);
	}
	return pass;
}

static void
tap_show(const char *label, const char *s)
{
	size_t i, n;

	if (s == NULL) {
		printf("# %6s: (null)\n", label);
		return;
	}
	/* Each line behind "# ": quoted TAP is not this program's. */
	n = strlen(s);
	if (n > 2000)
		n = 2000;
	printf("# %6s: '", label);
	for (i = 0; i < n; i++) {
		putchar(s[i]);
		if (s[i] == '\n' && i + 1 < n)
			printf("#         ");
	}
	printf("'%s\n", strlen(s) > 2000 ? "..." : "");
}

int
tap_is_str(const char *got, const char *want, const char *file, int line,
    const char *fmt, ...)
{
	va_list ap;
	int pass;

	pass = got != NULL && want != NULL ? strcmp(got, want) == 0 :
	    got == want;
	va_start(ap, fmt);
	tap_vline(pass, fmt, ap);
	va_end(ap);
	if (!pass) {
		tap_where(file, line);
		tap_show("got", got);
		tap_show("want", want);
	}
	return pass;
}

int
tap_has_str(const char *hay, const char *needle, const char *file, int line,
    const char *fmt, ...)
{
	va_list ap;
	int pass;

	pass = hay != NULL && needle != NULL && strstr(hay, needle) != NULL;
	va_start(ap, fmt);
	tap_vline(pass, fmt, ap);
	va_end(ap);
	if (!pass) {
		tap_where(file, line);
		tap_show("in", hay);
		tap_show("want", needle);
	}
	return pass;
}

void
tap_diag(const char *fmt, ...)
{
	char buf[8192], *line, *nl;
	va_list ap;

	/*
	 * Each line its own "# ": a child's TAP quoted here must not be
	 * counted as this program's tests.
	 */
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (line = buf;; line = nl + 1) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		printf("# %s\n", line);
		if (nl == NULL || nl[1] == '\0')
			break;
	}
}

int
tap_tmp_remove(void)
{
	char cmd[300];

	if (tap_tmp[0] == '\0' || getpid() != tap_owner)
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tap_tmp);
	tap_tmp[0] = '\0';
	return system(cmd) == 0 ? 0 : -1;
}

int
tap_done(void)
{
	char path[sizeof(tap_tmp)];

	snprintf(path, sizeof(path), "%s", tap_tmp);
	if (tap_tmp_remove() == -1)
		tap_diag("could not remove %s", path);
	printf("1..%d\n", tap_count);
	fflush(stdout);
	return tap_failed != 0 || tap_count == 0;
}

/*
 * The harness's own variables survive the clean environment; the
 * program's (LTPSCOPE_DB, _MASTER, _DATA, ...) must come from the test.
 */
static const char *const tap_keep[] = {
	"LTPSCOPE_BIN", "LTPSCOPE_ASAN", "LTPSCOPE_SHARED", "LTPSCOPE_MAN",
	"LTPSCOPE_MEMCHECK", NULL
};

/* What ltpscope or the LTP tests it starts would read of the host. */
static const char *const tap_unset[] = {
	"LTP_DEV", "LTP_TIMEOUT_MUL", "LTP_COLORIZE_OUTPUT",
	"LTP_REPRODUCIBLE_OUTPUT", "KCONFIG_PATH", "NO_COLOR", "VISUAL",
	"EDITOR", "XDG_CONFIG_DIRS", "XDG_DATA_DIRS", "XDG_RUNTIME_DIR",
	NULL
};

static int
tap_kept(const char *var, size_t len)
{
	size_t i;

	for (i = 0; tap_keep[i] != NULL; i++)
		if (strlen(tap_keep[i]) == len &&
		    strncmp(tap_keep[i], var, len) == 0)
			return 1;
	return 0;
}

static void
tap_envdir(const char *var, const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", tap_tmpdir(), rel);
	if (mkdir(path, 0700) == -1 && errno != EEXIST) {
		printf("Bail out! mkdir %s: %s\n", path, strerror(errno));
		exit(1);
	}
	(void)setenv(var, path, 1);
}

/*
 * The ltpscope under test, found before main() so that a test may
 * change directory and still run it.
 */
static void
tap_find_bin(void)
{
	const char *b = getenv("LTPSCOPE_BIN");
	char cwd[1024];

	if (b == NULL || *b == '\0')
		b = "ltpscope";
	if (b[0] == '/')
		snprintf(tap_binpath, sizeof(tap_binpath), "%s", b);
	else if (getcwd(cwd, sizeof(cwd)) != NULL)
		snprintf(tap_binpath, sizeof(tap_binpath), "%s/%s", cwd, b);
	else
		snprintf(tap_binpath, sizeof(tap_binpath), "./%s", b);
}

/*
 * Before main(): every test program, however started, sees none of the
 * host's configuration: HOME and the XDG directories are its own
 * temporary directory, LTPROOT a directory that does not exist (as on a
 * machine without LTP), no LTPSCOPE_* setting of the user's, a kernel
 * log that stays empty, and no NetBSD source tree (kindex.h).
 */
__attribute__((__constructor__)) static void
tap_clean_env(void)
{
	extern char **environ;
	char name[256], path[512];
	const char *eq;
	size_t i, len;
	int again;

	do {
		again = 0;
		for (i = 0; environ[i] != NULL; i++) {
			if (strncmp(environ[i], "LTPSCOPE_", 9) != 0 ||
			    (eq = strchr(environ[i], '=')) == NULL)
				continue;
			len = (size_t)(eq - environ[i]);
			if (tap_kept(environ[i], len) || len >= sizeof(name))
				continue;
			memcpy(name, environ[i], len);
			name[len] = '\0';
			/* unsetenv() reshuffles environ: start over. */
			(void)unsetenv(name);
			again = 1;
			break;
		}
	} while (again);
	for (i = 0; tap_unset[i] != NULL; i++)
		(void)unsetenv(tap_unset[i]);
	tap_envdir("HOME", "home");
	tap_envdir("XDG_CONFIG_HOME", "config");
	tap_envdir("XDG_DATA_HOME", "data");
	tap_envdir("XDG_STATE_HOME", "state");
	tap_envdir("XDG_CACHE_HOME", "cache");
	snprintf(path, sizeof(path), "%s/no-ltp", tap_tmpdir());
	(void)setenv("LTPROOT", path, 1);
	/* The kernel says nothing, whatever the host's says (kmsg.h). */
	(void)setenv("LTPSCOPE_KMSG", "/dev/null", 1);
	(void)setenv("LTPSCOPE_TAINTED", "/dev/null", 1);
	/*
	 * No kernel tree unless the test gives one: a NetBSD developer's
	 * /usr/src, the default, would change what export and func say.
	 */
	snprintf(path, sizeof(path), "%s/no-kernel-src", tap_tmpdir());
	(void)setenv("LTPSCOPE_KERNEL_SRC", path, 1);
	tap_find_bin();
}

int
tap_have_shared(void)
{
	const char *s = getenv("LTPSCOPE_SHARED");

	if (s == NULL || *s == '\0')
		s = "../shared";
	return access(s, R_OK | X_OK) == 0;
}

int
tap_skip_shared(const char *what)
{
	if (tap_have_shared())
		return 0;
	tap_count++;
	printf("ok %d - %s # SKIP ../shared not found\n", tap_count, what);
	fflush(stdout);
	return 1;
}

const char *
tap_shared(void)
{
	const char *s = getenv("LTPSCOPE_SHARED");

	/*
	 * Callers check tap_skip_shared() first; one that did not skips
	 * the rest of its program rather than read files that are not
	 * there.
	 */
	if (tap_skip_shared("the rest of this program"))
		exit(tap_done());
	if (s == NULL || *s == '\0')
		s = "../shared";
	return s;
}

int
tap_layer(int i)
{
	tap_layer_root = NULL;
	if (i == 0) {
		tap_layer_root = TAP_MADEUP;
		tap_diag("layer: made-up material in %s", TAP_MADEUP);
		return 1;
	}
	if (i == 1 && !tap_skip_shared("the same checks on real material")) {
		tap_diag("layer: real material in %s", tap_shared());
		return 1;
	}
	return 0;
}

int
tap_layer_real(void)
{
	return tap_layer_root == NULL;
}

const char *
tap_shared_path(const char *rel)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/%s", tap_layer_root != NULL ?
	    tap_layer_root : tap_shared(), rel);
	return buf;
}

const char *
tap_tmpdir(void)
{
	const char *base;

	if (tap_tmp[0] != '\0')
		return tap_tmp;
	if ((base = getenv("TMPDIR")) == NULL || *base == '\0')
		base = "/tmp";
	snprintf(tap_tmpbase_buf, sizeof(tap_tmpbase_buf), "%s", base);
	snprintf(tap_tmp, sizeof(tap_tmp), "%s/ltpscope-test.XXXXXX", base);
	if (mkdtemp(tap_tmp) == NULL) {
		printf("Bail out! mkdtemp: %s\n", strerror(errno));
		exit(1);
	}
	tap_owner = getpid();
	/*
	 * What the programs a test starts leave in TMPDIR (the TMPDIRs of
	 * an ltpscope killed with SIGKILL, say) goes with this directory.
	 */
	(void)setenv("TMPDIR", tap_tmp, 1);
	return tap_tmp;
}

const char *
tap_tmpbase(void)
{
	(void)tap_tmpdir();
	return tap_tmpbase_buf;
}

int
tap_user_access(uid_t uid, gid_t gid, const char *path, int mode)
{
	pid_t pid;
	int st;

	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		if (setgid(gid) == -1 || setuid(uid) == -1)
			_exit(2);
		_exit(access(path, mode) == -1);
	}
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

const char *
tap_bin_for_user(uid_t uid, gid_t gid, char *why, size_t len)
{
	static char copy[512];
	char src[1024], dir[400], cmd[8192], data[600], *slash;
	const char *base;

	if (snprintf(src, sizeof(src), "%s", tap_bin()) >= (int)sizeof(src) ||
	    (slash = strrchr(src, '/')) == NULL) {
		snprintf(why, len, "%s: too long or no path", tap_bin());
		return NULL;
	}
	*slash = '\0';
	base = slash + 1;
	snprintf(dir, sizeof(dir), "%s/for-uid%ld", tap_tmpdir(), (long)uid);
	snprintf(copy, sizeof(copy), "%s/%s", dir, base);
	snprintf(data, sizeof(data), "%s/data/demo", dir);
	/*
	 * What the binary reads beside it comes along: without data/ it
	 * would read the installed one (paths_datadir()).
	 */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir '%s' && "
	    "cp '%s/%s' '%s' && cp -R '%s/data' '%s/themes' '%s' && "
	    "chmod -R go+rX '%s'", dir, dir, src, base, copy, src, src,
	    dir, dir);
	if (chmod(tap_tmpdir(), 0755) == -1 || system(cmd) != 0) {
		snprintf(why, len, "cannot copy %s/%s for uid %ld to %s", src,
		    base, (long)uid, dir);
		return NULL;
	}
	if (tap_user_access(uid, gid, copy, X_OK) != 0 ||
	    tap_user_access(uid, gid, data, X_OK) != 0) {
		snprintf(why, len, "uid %ld cannot reach %s (is %s in a "
		    "private directory?)", (long)uid, copy, tap_tmpbase());
		return NULL;
	}
	return copy;
}

void
tap_fake_ltproot(const char *dir, const char *const *fakes)
{
	char cwd[1024], path[2048], target[2048];
	size_t i;

	if (getcwd(cwd, sizeof(cwd)) == NULL) {
		printf("Bail out! getcwd: %s\n", strerror(errno));
		exit(1);
	}
	(void)mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/testcases", dir);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/testcases/bin", dir);
	(void)mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/runtest", dir);
	(void)mkdir(path, 0755);
	for (i = 0; fakes[i] != NULL; i++) {
		snprintf(target, sizeof(target), "%s/tests/ltpfake/bin/%s",
		    cwd, fakes[i]);
		snprintf(path, sizeof(path), "%s/testcases/bin/%s", dir,
		    fakes[i]);
		if (symlink(target, path) != 0 && errno != EEXIST)
			tap_diag("symlink %s: %s", path, strerror(errno));
	}
}

void
tap_fake_helper_test(const char *dir)
{
	char path[2048];

	snprintf(path, sizeof(path), "%s/testcases/bin/execve_child", dir);
	tap_write(path, "#!/bin/sh\nexit 0\n");
	(void)chmod(path, 0755);
	snprintf(path, sizeof(path), "%s/testcases/bin/execve99", dir);
	tap_write(path, "#!/bin/sh\nif execve_child; then\n"
	    "  echo 'execve99.c:9: TPASS: the child ran'; exit 0\nfi\n"
	    "echo \"execve99.c:9: TFAIL: no child in PATH=$PATH\"\n"
	    "exit 1\n");
	(void)chmod(path, 0755);
}

const char *
tap_first_diag(const struct diaglist *dl)
{
	static char buf[1024];

	buf[0] = '\0';
	if (dl->n > 0)
		(void)diag_format(&dl->v[0], buf, sizeof(buf));
	return buf;
}

void
tap_write(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	if (fp == NULL) {
		tap_diag("%s: %s", path, strerror(errno));
		return;
	}
	fputs(text, fp);
	if (fclose(fp) != 0)
		tap_diag("%s: %s", path, strerror(errno));
}

char *
tap_slurp(const char *path, size_t *lenp)
{
	FILE *fp;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 131072;
			buf = realloc(buf, cap + 1);
			if (buf == NULL)
				abort();
		}
		n = fread(buf + len, 1, cap - len, fp);
		if (n == 0)
			break;
		len += n;
	}
	fclose(fp);
	buf[len] = '\0';
	if (lenp != NULL)
		*lenp = len;
	return buf;
}

char *
tap_run(const char *cmd, int *status, int merge)
{
	char *full, *buf = NULL;
	size_t len = 0, cap = 0, n;
	FILE *fp;
	int st;

	if ((full = malloc(strlen(cmd) + 8)) == NULL)
		abort();
	snprintf(full, strlen(cmd) + 8, "%s%s", cmd, merge ? " 2>&1" : "");
	if ((fp = popen(full, "r")) == NULL)
		abort();
	for (;;) {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 131072;
			if ((buf = realloc(buf, cap + 1)) == NULL)
				abort();
		}
		n = fread(buf + len, 1, cap - len, fp);
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	st = pclose(fp);
	free(full);
	if (status != NULL)
		*status = WIFEXITED(st) ? WEXITSTATUS(st) :
		    WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
	return buf;
}

int
tap_run3(const char *bin, const char *args, char **out, char **err)
{
	char *cmd, errpath[1200];
	size_t len;
	int st;

	snprintf(errpath, sizeof(errpath), "%s/stderr", tap_tmpdir());
	len = strlen(bin) + strlen(args) + strlen(errpath) + 32;
	if ((cmd = malloc(len)) == NULL)
		abort();
	snprintf(cmd, len, "%s %s 2>%s </dev/null", bin, args, errpath);
	*out = tap_run(cmd, &st, 0);
	free(cmd);
	if ((*err = tap_slurp(errpath, NULL)) == NULL)
		*err = strdup("");
	return st;
}

const char *
tap_bin(void)
{
	return tap_binpath;
}

/* The words printf(3) makes of fmt and ap, in a buffer of their size. */
static char *
tap_vformat(const char *fmt, va_list ap)
{
	va_list again;
	char *s;
	int n;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	if (n < 0 || (s = malloc((size_t)n + 1)) == NULL)
		abort();
	(void)vsnprintf(s, (size_t)n + 1, fmt, again);
	va_end(again);
	return s;
}

char *
tap_cli(int *status, int merge, const char *fmt, ...)
{
	char *args, *cmd, *out;
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	args = tap_vformat(fmt, ap);
	va_end(ap);
	len = strlen(tap_bin()) + strlen(args) + 2;
	if ((cmd = malloc(len)) == NULL)
		abort();
	(void)snprintf(cmd, len, "%s %s", tap_bin(), args);
	out = tap_run(cmd, status, merge);
	free(cmd);
	free(args);
	return out;
}

int
tap_cmd(struct tap_cmd *r, const char *fmt, ...)
{
	char *args;
	va_list ap;

	tap_cmd_free(r);
	va_start(ap, fmt);
	args = tap_vformat(fmt, ap);
	va_end(ap);
	r->status = tap_run3(tap_bin(), args, &r->out, &r->err);
	free(args);
	return r->status;
}

void
tap_cmd_free(struct tap_cmd *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

int
tap_have(const char *prog)
{
	char cmd[256], *out;
	int st;

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
	out = tap_run(cmd, &st, 0);
	free(out);
	return st == 0;
}

char *
tap_chromium(const char *opt, const char *page)
{
	char cmd[4400];

	if (!tap_have("chromium"))
		return NULL;
	/* No network here: keep Chromium from reaching for it. */
	snprintf(cmd, sizeof(cmd), "timeout 120 chromium --headless "
	    "--no-sandbox --disable-gpu --disable-quic --no-first-run "
	    "--disable-background-networking --disable-component-update "
	    "--disable-sync --user-data-dir=%s/chromium %s file://%s "
	    "2>/dev/null", tap_tmpdir(), opt, page);
	return tap_run(cmd, NULL, 0);
}

long
tap_pos(const char *hay, const char *needle)
{
	const char *p = hay != NULL ? strstr(hay, needle) : NULL;

	return p != NULL ? (long)(p - hay) : -1;
}

int
tap_db_integrity_ok(const char *db)
{
	sqlite3_stmt *s;
	sqlite3 *h;
	int good;

	if (sqlite3_open(db, &h) != SQLITE_OK) {
		sqlite3_close(h);
		return 0;
	}
	sqlite3_busy_timeout(h, 5000);
	good = sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &s,
	    NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW &&
	    strcmp((const char *)sqlite3_column_text(s, 0), "ok") == 0;
	sqlite3_finalize(s);
	sqlite3_close(h);
	return good;
}

const char *
tap_line_of(const char *out, const char *needle)
{
	static char line[4096];
	const char *p = out != NULL ? strstr(out, needle) : NULL, *s, *e;

	line[0] = '\0';
	if (p == NULL)
		return line;
	for (s = p; s > out && s[-1] != '\n'; s--)
		continue;
	e = strchr(p, '\n');
	snprintf(line, sizeof(line), "%.*s", (int)(e != NULL ? e - s :
	    (long)strlen(s)), s);
	return line;
}
