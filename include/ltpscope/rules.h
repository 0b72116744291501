/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Triage rules: pcre2 patterns that suggest a category for a failure.
 * A rules file has one rule a line, "#" comments:
 *
 *	category  [field:]pattern
 *
 * The pattern is the rest of the line (leading blanks dropped).  field
 * is "line" (the default: a line of the test's output), "test" (the
 * test's tag), "syscall" (the syscall it exercises), "envwarn" (a
 * TWARN line that is the environment's, not the test's: e.g. LTP's
 * tst_kconfig.c warning on a box without a kernel config; such a line
 * does not make a test "warn", see ltpout_status()) or "linux" (how
 * the test did on the Linux reference run of the arch, linuxref.h:
 * "fail same" when it failed there the same way, "fail other" when it
 * failed otherwise, "pass", "conf"...; no reference, no match).
 * Patterns match bytes (no UTF mode: output need not be UTF-8).
 * data/rules holds the defaults; $XDG_CONFIG_HOME/ltpscope/rules (else
 * ~/.config/...) is read first, so the user's rules win.
 *
 * Which rule wins, first match: name rules (test:, syscall:) in file
 * order; then linux: rules; then output lines saying TFAIL or TBROK,
 * or that ltpscope or LTP stopped the test, in output order, each
 * tried against the line rules in file order; then the TWARN and TCONF
 * lines the same way.  TINFO and plain lines are never judged: they
 * chat too much.
 *
 * A pattern that does not compile is reported as "file:line:col:
 * message", col being the column of the offending byte in the file.
 * A runaway pattern is stopped by a match limit (RULES_MATCH_LIMIT):
 * that is a warning naming the rule, and counts as no match.  JIT is
 * used when pcre2 offers it; a JIT failure (NetBSD PaX) is not fatal.
 *
 * Ownership: a struct rules owns its rules and compiled patterns;
 * rules_free() releases them.  A suggestion's strings are its own:
 * rules_suggestion_clear() frees them.
 */
#ifndef LTPSCOPE_RULES_H
#define LTPSCOPE_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/categories.h"
#include "ltpscope/diag.h"

#define RULES_MATCH_LIMIT	100000u

enum rule_field {
	RF_LINE,
	RF_TEST,
	RF_SYSCALL,
	RF_ENVWARN,	/* TWARN lines that do not change the verdict */
	RF_LINUX	/* how the Linux reference did (linuxref.h) */
};

struct rule {
	enum rule_field	 field;
	char		*category;
	char		*pattern;
	char		*file;
	unsigned long	 line;
	void		*re;		/* pcre2_code */
};

struct rules;

struct rules	*rules_new(void);
void		 rules_free(struct rules *);
/* Parses and compiles rules (added after those loaded already). */
int		 rules_parse(struct rules *, const char *name,
		    const char *buf, size_t len, struct diaglist *);
/* The same for a file; -1 if it cannot be read. */
int		 rules_load_file(struct rules *, const char *path,
		    struct diaglist *);
/* The user's rules if any, then data/rules; -1 if data/rules is unreadable. */
int		 rules_load_default(struct rules *, struct diaglist *);
/* Warns (file:line) about rules naming a category cats lacks. */
int		 rules_check(const struct rules *, const struct categories *,
		    struct diaglist *);
void		 rules_set_match_limit(struct rules *, uint32_t);
size_t		 rules_count(const struct rules *);
const struct rule *rules_get(const struct rules *, size_t);

/*
 * The first rule of field whose pattern matches s (len bytes), or NULL.
 * A match-limit stop is warned about in dl (may be NULL) and skipped.
 */
const struct rule *rules_match(struct rules *, enum rule_field,
		    const char *s, size_t len, struct diaglist *);

/*
 * Whether a TWARN line (its whole text) is the environment's: some
 * envwarn rule matches it.
 */
int		 rules_env_warning(struct rules *, const char *line,
		    size_t len, struct diaglist *);
/*
 * A fingerprint of the envwarn rules (16 hex digits into buf, len >=
 * RULES_DIGEST_LEN), so that results judged under other rules can be
 * found and judged again.  r may be NULL: no envwarn rules.
 */
#define RULES_DIGEST_LEN	17
const char	*rules_env_digest(const struct rules *, char *buf,
		    size_t len);

struct rules_suggestion {
	const struct rule *rule;	/* NULL: nothing matched */
	char		*line;		/* output line matched; "" for names */
	unsigned long	 lineno;	/* its line number, 0 for names */
};

/*
 * Suggests a category for a test from its tag, syscall (may be "") and
 * output (len exact bytes, LTP's raw output).  Returns 1 with *sg set
 * when a rule matched, else 0 (sg->rule NULL).
 */
int	rules_suggest(struct rules *, const char *test, const char *syscall,
	    const char *output, size_t len, struct rules_suggestion *sg,
	    struct diaglist *);
/*
 * The same, with lref the subject of "linux:" rules
 * (linuxref_subject(); NULL or "": no reference result, no such rule
 * matches).
 */
int	rules_suggest_ref(struct rules *, const char *test,
	    const char *syscall, const char *lref, const char *output,
	    size_t len, struct rules_suggestion *sg, struct diaglist *);
void	rules_suggestion_clear(struct rules_suggestion *);

#endif
