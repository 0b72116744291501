/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LTP's own metadata: $LTPROOT/metadata/ltp.json, which LTP installs
 * beside its tests.  Per test it says which syscall group the test
 * belongs to, what the test checks (doc), what it needs (root, a block
 * device, kernel config options, commands, an architecture, a kernel
 * version), how long it may take, and which Linux commits or CVEs it
 * looks for (tags).
 *
 * A runtest tag is not always a metadata name: fcntl34_64 runs the
 * 64-bit build of fcntl34, mmap21_01 runs "mmap21 -m 1".
 * ltpmeta_bind() resolves every tag of an index once (the tag itself,
 * else the program its command line runs, else either without a _64 or
 * _16 suffix); the lookups below then take runtest tags.
 *
 * Ownership: struct ltpmeta owns every test, string and vector in it
 * until ltpmeta_free(); the pointers the lookups return are borrowed
 * from it.  Nothing here prints or exits; problems go to the caller's
 * struct diaglist as "file:line:col: message".
 */
#ifndef LTPSCOPE_LTPMETA_H
#define LTPSCOPE_LTPMETA_H

#include <stddef.h>

#include "ltpscope/diag.h"
#include "ltpscope/ltpindex.h"

/* Where an LTP install keeps its metadata, below LTPROOT. */
#define LTPMETA_RELPATH	"metadata/ltp.json"

/* A tag: kind "linux-git" (a commit), "CVE" ("2014-0196"), and more. */
struct ltpmeta_tag {
	char	*kind;
	char	*value;
};

/* A list of strings; v is NULL-terminated (and NULL when n == 0). */
struct ltpmeta_strv {
	char	**v;
	size_t	  n;
};

/* One test as ltp.json describes it; absent facts are 0, -1 or empty. */
struct ltpmeta_test {
	char			*name;		/* the metadata key */
	char			*fname;		/* source, e.g.
						   testcases/.../fcntl34.c */
	struct ltpmeta_strv	 groups;	/* [0] is the syscall group */
	struct ltpmeta_strv	 doc;		/* description, one line each */
	int			 needs_root;
	int			 needs_device;
	int			 mount_device;
	int			 format_device;
	int			 all_filesystems;
	int			 needs_tmpdir;
	char			*mntpoint;	/* NULL unless stated */
	struct ltpmeta_strv	 needs_kconfigs; /* "CONFIG_A=y | CONFIG_B" */
	struct ltpmeta_strv	 filesystems;	/* types it runs on */
	struct ltpmeta_strv	 skip_filesystems;
	char			*min_kver;	/* "4.10.0", NULL */
	struct ltpmeta_strv	 supported_archs; /* LTP's names: x86_64 */
	struct ltpmeta_strv	 needs_cmds;	/* required ones only */
	struct ltpmeta_strv	 resource_files;
	struct ltpmeta_strv	 save_restore;	/* /proc or /sys paths */
	int			 timeout;	/* s; -1 not stated; 0 none */
	int			 max_runtime;	/* s ("runtime"); -1 */
	struct ltpmeta_tag	*tags;
	size_t			 ntags;
};

struct ltpmeta {
	char			*file;
	char			*version;	/* testsuite.version, or "" */
	int			 default_timeout; /* defaults.timeout, s */
	struct ltpmeta_test	*tests;		/* in file order */
	size_t			 ntests;
	size_t			*hash;		/* name -> index + 1 */
	size_t			 hashcap;
	/* Runtest tag -> test, filled by ltpmeta_bind(). */
	char			**alias_tag;
	size_t			*alias_idx;
	size_t			 nalias;
	size_t			*ahash;
	size_t			 ahashcap;
};

/*
 * Loads ltp.json.  NULL on an error (one in dl: unreadable, bad JSON
 * with line:col, not LTP metadata); entries of the wrong shape are
 * warnings and are skipped or read as far as they make sense.
 */
struct ltpmeta	*ltpmeta_load_file(const char *path, struct diaglist *);
struct ltpmeta	*ltpmeta_load_buf(const char *name, const char *buf,
		    size_t len, struct diaglist *);
/*
 * ROOT/metadata/ltp.json when it exists (NULL and nothing in dl when
 * it does not: old installs have none); NULL and an error when it
 * exists but cannot be loaded.
 */
struct ltpmeta	*ltpmeta_load_root(const char *root, struct diaglist *);
void		 ltpmeta_free(struct ltpmeta *);

/* The entry with this metadata name, or NULL. */
const struct ltpmeta_test *ltpmeta_find(const struct ltpmeta *,
		    const char *name);
/*
 * The entry a runtest test runs: tag, the program of cmdline (may be
 * NULL), then each without a _64 or _16 suffix.  NULL: no metadata.
 */
const struct ltpmeta_test *ltpmeta_resolve(const struct ltpmeta *,
		    const char *tag, const char *cmdline);
/* Resolves every test of idx once, for the tag lookups below. */
void		 ltpmeta_bind(struct ltpmeta *, const struct ltpindex *);
/* By runtest tag (bound, else resolved by name alone); NULL: none. */
const struct ltpmeta_test *ltpmeta_test(const struct ltpmeta *,
		    const char *tag);

/* A test's syscall group (groups[0]), or NULL. */
const char	*ltpmeta_group(const struct ltpmeta *, const char *tag);
/*
 * What the test checks, for the explorer: *np lines, NULL-terminated;
 * NULL (and *np 0) when the test has no metadata or no doc.  Lines are
 * plain text as LTP wrote them (with its RST-like markup, and possibly
 * control bytes: sanitize before display); empty lines separate
 * paragraphs.
 */
char *const	*ltpmeta_doc(const struct ltpmeta *, const char *tag,
		    size_t *np);
/*
 * The tags of a test (linux-git commits, CVEs, ...): *np pairs, NULL
 * when none.  For triage: a failing test with a "linux-git" or "CVE"
 * tag is a candidate for the linux-bug-test category.
 */
const struct ltpmeta_tag *ltpmeta_tags(const struct ltpmeta *,
		    const char *tag, size_t *np);
/* 1 when the test has a "linux-git" or "CVE" tag. */
int		 ltpmeta_checks_linux_bug(const struct ltpmeta_test *);
/* A link for a tag (commit or CVE page) into buf; 0, or -1: none. */
int		 ltpmeta_tag_url(const struct ltpmeta_tag *, char *, size_t);
/*
 * The same with a template for "linux-git" commits (the linux-git-url
 * setting: %c the commit, %% a '%'; NULL or "": the default).
 */
int		 ltpmeta_tag_link(const struct ltpmeta_tag *,
		    const char *linux_git_url, char *, size_t);
/* "CVE-2017-1000380", "linux-git 086e774a57fb": a tag for people. */
void		 ltpmeta_tag_name(const struct ltpmeta_tag *, char *, size_t);

/*
 * Whether a test may run beside others: none of needs_root,
 * needs_device, mount_device, mntpoint, resource_files, format_device,
 * save_restore, max_runtime.  NULL (no metadata) is never safe.
 * Returns 1, or 0 with the first reason in why (may be NULL).
 */
int		 ltpmeta_parallel_safe(const struct ltpmeta_test *, char *why,
		    size_t len);
/* The requirements a test states, one line for display ("" if none). */
void		 ltpmeta_requirements(const struct ltpmeta_test *, char *,
		    size_t);

/*
 * The environment a test would run in, for ltpmeta_runnable().  A NULL
 * member is not checked.  ltpmeta_env_init() fills it from this
 * process and machine (see ltpmeta_env.c); the caller may then
 * override members (--dev, --kconfig) and must ltpmeta_env_free() it.
 */
struct ltpmeta_env {
	int		 euid;
	const char	*ltp_dev;	/* LTP_DEV; NULL or "": none */
	const char	*arch;		/* LTP's arch name: x86_64, x86 */
	const char	*kernel;	/* Linux release the tests see */
	const char	*kconfig;	/* kernel config file; NULL: skip */
	const char	*path;		/* PATH for needs_cmds; NULL: skip */
	const char	*ltproot;	/* its testcases/bin is searched too */
	/* Owned by the env: */
	char		*arch_buf;
	char		*kernel_buf;
	char		*path_buf;
	char		**kc_names;	/* the kernel config, parsed */
	char		**kc_values;
	size_t		  nkc;
	int		  kc_loaded;	/* 1 read, -1 unreadable */
};

void	ltpmeta_env_init(struct ltpmeta_env *);
/*
 * The kernel config a run gives LTP (KCONFIG_PATH) when none is named,
 * for the system os (uname -s): on NetBSD the bundled data/kconfig,
 * compat_linux's, which LTP cannot find itself; elsewhere none, so that
 * LTP reads the host's own (and the pre-check, knowing no config,
 * rules out nothing by kernel option).  Returns buf, or NULL: none.
 */
const char	*ltpmeta_kconfig_default(const char *os, char *buf,
		    size_t len);
void	ltpmeta_env_free(struct ltpmeta_env *);
/* LTP's architecture name for a uname(3) machine ("amd64" -> x86_64). */
const char	*ltpmeta_arch_name(const char *machine);
/*
 * Why a test cannot run here: returns 1 and "needs root (running as
 * uid 1000)" or the like in why, or 0 when nothing stated stands in
 * the way (it may still TCONF).  NULL metadata is runnable.  The first
 * reason is given in the order LTP's own checks would find it (so that
 * it is the one LTP would TCONF with, tst_test.c's do_setup()): the
 * architecture, the kernel config, root, the kernel version, then
 * commands and block devices.  A need that cannot be checked here (no
 * kernel config or kernel version known) ends the check: what comes
 * after it may not be LTP's reason, so the test runs and LTP says.
 */
int	ltpmeta_runnable(const struct ltpmeta_test *, struct ltpmeta_env *,
	    char *why, size_t len);
/*
 * One needs_kconfigs entry against a config file's options: "CONFIG_A",
 * "CONFIG_A=y", alternatives with '|', all-of with '&', a leading '!'.
 * Returns 1 satisfied, 0 not (the first missing term in miss).
 */
int	ltpmeta_kconfig_ok(const struct ltpmeta_env *, const char *expr,
	    char *miss, size_t len);
/* Compares Linux versions "5.10" and "5.4.0-rc1" numerically. */
int	ltpmeta_kver_cmp(const char *, const char *);

#endif
