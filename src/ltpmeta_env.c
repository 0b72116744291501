/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * "Not runnable here: WHY" (see ltpmeta.h): a test's stated needs held
 * against the environment it would run in -- the user, LTP_DEV, the
 * kernel config given to LTP, the architecture, the Linux version the
 * tests see, and the commands on PATH -- so that `ltpscope run` can say
 * so before running rather than after a confusing TBROK.  The test is
 * then stored as skipped (conf), as LTP's own TCONF would have it.
 *
 * On NetBSD the Linux version the tests see is compat_linux's, not
 * uname(3)'s: it is read from the emul.linux.kern.osrelease sysctl.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#ifdef __NetBSD__
#include <sys/sysctl.h>
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ltpscope/ltpmeta.h"
#include "ltpscope/paths.h"
#include "ltpscope/xmalloc.h"

const char *
ltpmeta_arch_name(const char *m)
{
	static const struct {
		const char	*machine;
		const char	*ltp;
	} map[] = {
		{ "x86_64", "x86_64" }, { "amd64", "x86_64" },
		{ "i386", "x86" }, { "i486", "x86" }, { "i586", "x86" },
		{ "i686", "x86" }, { "aarch64", "aarch64" },
		{ "arm64", "aarch64" }, { "evbarm", "aarch64" },
		{ "ppc64", "ppc64" }, { "ppc64le", "ppc64" },
		{ "powerpc64", "ppc64" }, { "ppc", "ppc" },
		{ "powerpc", "ppc" }, { "macppc", "ppc" },
		{ "s390x", "s390x" }, { "s390", "s390" },
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(m, map[i].machine) == 0)
			return map[i].ltp;
	return m;
}

/* The Linux release Linux binaries see here, or NULL when unknown. */
static char *
env_linux_release(const struct utsname *u)
{
	const char *e = getenv("LTPSCOPE_LINUX_RELEASE");

	if (e != NULL && *e != '\0')
		return xstrdup(e);
	if (strcmp(u->sysname, "Linux") == 0)
		return xstrdup(u->release);
#ifdef __NetBSD__
	{
		char buf[128];
		size_t len = sizeof(buf);

		if (sysctlbyname("emul.linux.kern.osrelease", buf, &len,
		    NULL, 0) == 0 && len > 0 && len <= sizeof(buf)) {
			buf[len - 1] = '\0';
			return xstrdup(buf);
		}
	}
#endif
	return NULL;
}

void
ltpmeta_env_init(struct ltpmeta_env *env)
{
	struct utsname u;
	const char *p;

	memset(env, 0, sizeof(*env));
	env->euid = (int)geteuid();
	p = getenv("LTP_DEV");
	env->ltp_dev = p != NULL && *p != '\0' ? p : NULL;
	if (uname(&u) == 0) {
		env->arch = env->arch_buf = xstrdup(ltpmeta_arch_name(
		    u.machine));
		env->kernel = env->kernel_buf = env_linux_release(&u);
	}
	if ((p = getenv("PATH")) != NULL)
		env->path = env->path_buf = xstrdup(p);
}

const char *
ltpmeta_kconfig_default(const char *os, char *buf, size_t len)
{
	if (os == NULL || strcasecmp(os, "NetBSD") != 0)
		return NULL;
	return paths_kconfig(buf, len);
}

static void
env_kc_free(struct ltpmeta_env *env)
{
	size_t i;

	for (i = 0; i < env->nkc; i++) {
		free(env->kc_names[i]);
		free(env->kc_values[i]);
	}
	free(env->kc_names);
	free(env->kc_values);
	env->kc_names = env->kc_values = NULL;
	env->nkc = 0;
	env->kc_loaded = 0;
}

void
ltpmeta_env_free(struct ltpmeta_env *env)
{
	env_kc_free(env);
	free(env->arch_buf);
	free(env->kernel_buf);
	free(env->path_buf);
	memset(env, 0, sizeof(*env));
}

/* Reads "CONFIG_X=value" lines; "# CONFIG_X is not set" means absent. */
static void
env_kc_load(struct ltpmeta_env *env)
{
	char line[4096], *eq, *nl;
	FILE *fp;

	env->kc_loaded = -1;
	if (env->kconfig == NULL || (fp = fopen(env->kconfig, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (strncmp(line, "CONFIG_", 7) != 0 ||
		    (eq = strchr(line, '=')) == NULL)
			continue;
		*eq++ = '\0';
		if ((nl = strpbrk(eq, "\r\n")) != NULL)
			*nl = '\0';
		env->kc_names = xreallocarray(env->kc_names, env->nkc + 1,
		    sizeof(*env->kc_names));
		env->kc_values = xreallocarray(env->kc_values, env->nkc + 1,
		    sizeof(*env->kc_values));
		env->kc_names[env->nkc] = xstrdup(line);
		env->kc_values[env->nkc] = xstrdup(eq);
		env->nkc++;
	}
	fclose(fp);
	env->kc_loaded = 1;
}

static const char *
env_kc_value(const struct ltpmeta_env *env, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < env->nkc; i++)
		if (strlen(env->kc_names[i]) == len &&
		    strncmp(env->kc_names[i], name, len) == 0)
			return env->kc_values[i];
	return NULL;
}

/* One term: "CONFIG_A", "CONFIG_A=y", "!CONFIG_A", blanks around. */
static int
kc_term(const struct ltpmeta_env *env, const char *s, const char *e)
{
	const char *eq, *val;
	int neg = 0, ok;
	size_t vlen;

	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	if (s < e && *s == '!') {
		neg = 1;
		s++;
	}
	for (eq = s; eq < e && *eq != '='; eq++)
		continue;
	val = env_kc_value(env, s, (size_t)(eq - s));
	if (eq == e)
		ok = val != NULL && strcmp(val, "n") != 0;
	else {
		vlen = (size_t)(e - eq - 1);
		ok = val != NULL && strlen(val) == vlen &&
		    strncmp(val, eq + 1, vlen) == 0;
	}
	return neg ? !ok : ok;
}

int
ltpmeta_kconfig_ok(const struct ltpmeta_env *env, const char *expr,
    char *miss, size_t len)
{
	const char *alt, *altend, *t, *tend;
	int all;

	/* Alternatives separated by '|', each all of its '&' terms. */
	for (alt = expr; *alt != '\0'; alt = *altend ? altend + 1 : altend) {
		altend = strchr(alt, '|');
		if (altend == NULL)
			altend = alt + strlen(alt);
		all = 1;
		for (t = alt; t < altend; t = tend + 1) {
			for (tend = t; tend < altend && *tend != '&'; tend++)
				continue;
			if (!kc_term(env, t, tend))
				all = 0;
			if (tend == altend)
				break;
		}
		if (all)
			return 1;
	}
	if (miss != NULL && len > 0)
		snprintf(miss, len, "%s", expr);
	return 0;
}

/* Numeric parts compared in turn; "5.10" > "5.4.0-rc1" > "5.4". */
int
ltpmeta_kver_cmp(const char *a, const char *b)
{
	unsigned long x, y;
	char *ea, *eb;

	for (;;) {
		x = strtoul(a, &ea, 10);
		y = strtoul(b, &eb, 10);
		if (ea == a)
			x = 0;
		if (eb == b)
			y = 0;
		if (x != y)
			return x < y ? -1 : 1;
		if (*ea != '.' && *eb != '.')
			return 0;
		a = *ea == '.' ? ea + 1 : ea;
		b = *eb == '.' ? eb + 1 : eb;
	}
}

static int
env_in_dir(const char *dir, size_t dlen, const char *cmd)
{
	char path[4096];
	struct stat sb;

	snprintf(path, sizeof(path), "%.*s/%s", (int)dlen, dir, cmd);
	return stat(path, &sb) == 0 && S_ISREG(sb.st_mode) &&
	    access(path, X_OK) == 0;
}

static int
env_have_cmd(const struct ltpmeta_env *env, const char *cmdspec)
{
	char cmd[256], bin[4096];
	const char *p, *c;
	size_t n;

	/* "mkfs.xfs >= 1.5.0": the command is the first word. */
	n = strcspn(cmdspec, " \t");
	if (n == 0 || n >= sizeof(cmd))
		return 1;
	memcpy(cmd, cmdspec, n);
	cmd[n] = '\0';
	if (strchr(cmd, '/') != NULL)
		return access(cmd, X_OK) == 0;
	if (env->ltproot != NULL) {
		snprintf(bin, sizeof(bin), "%s/testcases/bin", env->ltproot);
		if (env_in_dir(bin, strlen(bin), cmd))
			return 1;
	}
	for (p = env->path; p != NULL && *p != '\0'; p = *c ? c + 1 : c) {
		c = strchr(p, ':');
		if (c == NULL)
			c = p + strlen(p);
		if (c > p && env_in_dir(p, (size_t)(c - p), cmd))
			return 1;
	}
	return 0;
}

int
ltpmeta_runnable(const struct ltpmeta_test *t, struct ltpmeta_env *env,
    char *why, size_t len)
{
	char miss[256];
	size_t i;
	int found;

	if (t == NULL)
		return 0;
	/* LTP's order (tst_test.c, do_setup): the first TCONF is its. */
	if (t->supported_archs.n > 0 && env->arch != NULL) {
		found = 0;
		for (i = 0; i < t->supported_archs.n; i++)
			found |= strcmp(t->supported_archs.v[i],
			    env->arch) == 0;
		if (!found) {
			snprintf(why, len, "runs only on %s%s (this is %s)",
			    t->supported_archs.v[0],
			    t->supported_archs.n > 1 ? " and others" : "",
			    env->arch);
			return 1;
		}
	}
	if (t->needs_kconfigs.n > 0) {
		if (env->kconfig != NULL && env->kc_loaded == 0)
			env_kc_load(env);
		/* Unknown: LTP's own check comes before any we could make. */
		if (env->kconfig == NULL || env->kc_loaded < 0)
			return 0;
		for (i = 0; i < t->needs_kconfigs.n; i++)
			if (!ltpmeta_kconfig_ok(env, t->needs_kconfigs.v[i],
			    miss, sizeof(miss))) {
				snprintf(why, len, "the kernel config lacks "
				    "%s (%s)", miss, env->kconfig);
				return 1;
			}
	}
	if (t->needs_root && env->euid != 0) {
		snprintf(why, len, "needs root (running as uid %d)",
		    env->euid);
		return 1;
	}
	if (t->min_kver != NULL) {
		if (env->kernel == NULL)
			return 0;
		if (ltpmeta_kver_cmp(env->kernel, t->min_kver) < 0) {
			snprintf(why, len, "needs Linux %s or later (the "
			    "tests see %s)", t->min_kver, env->kernel);
			return 1;
		}
	}
	for (i = 0; env->path != NULL && i < t->needs_cmds.n; i++)
		if (!env_have_cmd(env, t->needs_cmds.v[i])) {
			snprintf(why, len, "needs the command %s (not on "
			    "PATH)", t->needs_cmds.v[i]);
			return 1;
		}
	/* As root LTP makes a loop device of its own. */
	if ((t->needs_device || t->mount_device || t->format_device ||
	    t->all_filesystems) && (env->ltp_dev == NULL ||
	    *env->ltp_dev == '\0') && env->euid != 0) {
		snprintf(why, len, "needs a block device: set LTP_DEV or "
		    "--dev (or run as root for a loop device)");
		return 1;
	}
	return 0;
}
