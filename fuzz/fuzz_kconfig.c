/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: kernel config files (KCONFIG_PATH, data/kconfig) as the
 * metadata checks read them, and the needs_kconfigs expressions of
 * ltp.json against them.  The reader takes a path only, so the bytes
 * go to a temporary file.  Lines of the input starting with '?' are
 * also tried as expressions.
 */
#include <unistd.h>

#include "ltpscope/ltpmeta.h"
#include "fuzz.h"

static const char *const fz_kconfig_exprs[] = {
	"CONFIG_USER_NS", "CONFIG_HZ=250", "!CONFIG_NET_NS",
	"CONFIG_A | CONFIG_B=m & !CONFIG_C", "", "|", "&", "!", "=",
	"CONFIG_X=", " CONFIG_ZRAM = m "
};

/* The input's "?EXPR" lines, NULL-terminated; caller frees. */
static char **
fz_kconfig_lines(char *text, size_t *np)
{
	char **v = NULL, *p, *nl;
	size_t n = 0;

	for (p = text; p != NULL && *p != '\0'; p = nl) {
		if ((nl = strchr(p, '\n')) != NULL)
			*nl++ = '\0';
		if (*p != '?' || n == 64)
			continue;
		if ((v = realloc(v, (n + 2) * sizeof(*v))) == NULL)
			abort();
		v[n++] = p + 1;
		v[n] = NULL;
	}
	*np = n;
	return v;
}

FUZZ_TARGET(kconfig)
{
	struct ltpmeta_test t;
	struct ltpmeta_env env;
	char path[1100], why[512], miss[256], *text;
	const char *tmp = getenv("TMPDIR");
	size_t i, n;
	int fd;

	snprintf(path, sizeof(path), "%s/ltpscope-fuzz-kconfig.XXXXXX",
	    tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
	if ((fd = mkstemp(path)) == -1)
		abort();
	if (size > 0 && write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	memset(&env, 0, sizeof(env));
	memset(&t, 0, sizeof(t));
	env.kconfig = path;
	t.name = (char *)"kconfig01";
	t.needs_kconfigs.v = (char **)fz_kconfig_exprs;
	t.needs_kconfigs.n = sizeof(fz_kconfig_exprs) /
	    sizeof(fz_kconfig_exprs[0]);
	(void)ltpmeta_runnable(&t, &env, why, sizeof(why));
	unlink(path);
	for (i = 0; i < t.needs_kconfigs.n; i++)
		(void)ltpmeta_kconfig_ok(&env, fz_kconfig_exprs[i], miss,
		    sizeof(miss));
	text = fuzz_cstr(data, size);
	t.needs_kconfigs.v = fz_kconfig_lines(text, &n);
	for (i = 0; i < n; i++)
		(void)ltpmeta_kconfig_ok(&env, t.needs_kconfigs.v[i], miss,
		    sizeof(miss));
	free(t.needs_kconfigs.v);
	free(text);
	ltpmeta_env_free(&env);
	return 0;
}
