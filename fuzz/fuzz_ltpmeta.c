/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: LTP's metadata/ltp.json (ltpmeta_load_buf), then what
 * the explorer and the runner ask of it: binding runtest tags, each
 * test's requirements, whether it may run here or in parallel, its
 * doc and its tag links.
 */
#include "ltpscope/ltpindex.h"
#include "ltpscope/ltpmeta.h"
#include "fuzz.h"

static const char fz_ltpmeta_runtest[] =
    "fcntl34 fcntl34\n"
    "fcntl34_64 fcntl34_64\n"
    "mmap21_01 mmap21 -m 1\n"
    "open01 open01\n"
    "cve-2014-0196 cve-2014-0196\n";

static void
fz_ltpmeta_ask(struct ltpmeta *m, const struct ltpmeta_test *t,
    struct ltpmeta_env *env)
{
	char why[512], url[256];
	size_t i, n;

	FUZZ_CHECK(t->name != NULL);
	FUZZ_CHECK(ltpmeta_find(m, t->name) != NULL);
	ltpmeta_requirements(t, why, sizeof(why));
	(void)ltpmeta_parallel_safe(t, why, sizeof(why));
	why[0] = '\0';
	(void)ltpmeta_runnable(t, env, why, sizeof(why));
	FUZZ_CHECK(strlen(why) < sizeof(why));
	(void)ltpmeta_checks_linux_bug(t);
	for (i = 0; i < t->ntags; i++)
		(void)ltpmeta_tag_url(&t->tags[i], url, sizeof(url));
	(void)ltpmeta_doc(m, t->name, &n);
	(void)ltpmeta_tags(m, t->name, &n);
	(void)ltpmeta_group(m, t->name);
	if (t->min_kver != NULL)
		(void)ltpmeta_kver_cmp(t->min_kver, "5.10.0-rc1");
}

FUZZ_TARGET(ltpmeta)
{
	struct ltpmeta_env env;
	struct ltpindex idx;
	struct diaglist dl;
	struct ltpmeta *m;
	size_t i;

	diag_init(&dl);
	if ((m = ltpmeta_load_buf("ltp.json", (const char *)data, size,
	    &dl)) == NULL) {
		FUZZ_CHECK(dl.nerrors > 0);
		diag_free(&dl);
		return 0;
	}
	ltpindex_init(&idx);
	(void)ltpindex_load_buf(&idx, "syscalls", fz_ltpmeta_runtest,
	    sizeof(fz_ltpmeta_runtest) - 1, &dl);
	ltpmeta_bind(m, &idx);
	for (i = 0; i < idx.ntests; i++) {
		(void)ltpmeta_test(m, idx.tests[i].tag);
		(void)ltpmeta_resolve(m, idx.tests[i].tag,
		    idx.tests[i].cmdline);
	}
	/* A machine of our own: nothing of the host is looked at. */
	memset(&env, 0, sizeof(env));
	env.euid = 1000;
	env.arch = "x86_64";
	env.kernel = "5.10.0";
	for (i = 0; i < m->ntests; i++)
		fz_ltpmeta_ask(m, &m->tests[i], &env);
	ltpmeta_env_free(&env);
	ltpindex_free(&idx);
	ltpmeta_free(m);
	diag_free(&dl);
	return 0;
}
