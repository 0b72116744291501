/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The README against the program: every code block that follows a line
 * "<!-- demo-commands -->" is run, in order, on the demo data
 * (build/demo-ltp, from "make demo-build"), in a scratch directory that
 * stands for the source tree, with a HOME of its own and no XDG or
 * LTPSCOPE_* settings, so that the README's commands cannot drift from
 * the program again.
 *
 * In such a block, a line whose first word is ./ltpscope, export, mkdir
 * or printf is a command (a line ending in \ or | goes on on the next);
 * make lines are not run, their targets are checked against the
 * Makefile.  The lines after a command are what it prints: each must be
 * a line of its output, in order, with blanks collapsed, "..." standing
 * for any text and a duration ("0.01s") for any duration.  A command
 * exits 0 unless its comment says "exits N"; one that exits 0 prints no
 * "usage:" and no "error" on stderr.  export lines stay in force for
 * the commands after them, as in the user's shell.
 *
 * On every ltpscope line of every block, run or not (a box, ../shared),
 * the subcommand exists and its usage names each option the line gives.
 * Every make target any block names is a target of the Makefile, and
 * the Makefile's first target, what a plain "make" builds, is all.
 *
 * tests/test_readme FILE checks another README, e.g. an old one.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"

#define MARKER		"<!-- demo-commands -->"
#define MAXEXPECT	32
#define MAXEXPORTS	16

/* A command of a demo block and what it should print. */
struct demo_cmd {
	char	*text;			/* as the shell gets it */
	int	 line;			/* in the README */
	int	 exits;
	char	*expect[MAXEXPECT];
	size_t	 nexpect;
};

static char	scratch[1200];
static char	errpath[1300];

/* The words a demo block's command may start with. */
static int
is_command(const char *s)
{
	static const char *const first[] = { "./ltpscope", "export", "mkdir",
	    "printf", "make", NULL };
	size_t i, n;

	for (i = 0; first[i] != NULL; i++) {
		n = strlen(first[i]);
		if (strncmp(s, first[i], n) == 0 &&
		    (s[n] == ' ' || s[n] == '\0'))
			return 1;
	}
	return 0;
}

/* Whether s (of length n) ends, past trailing blanks, with c. */
static int
ends_with(const char *s, size_t n, char c)
{
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	return n > 0 && s[n - 1] == c;
}

static char *
dupn(const char *s, size_t n)
{
	char *d;

	if ((d = malloc(n + 1)) == NULL)
		abort();
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static char *
append(char *a, const char *sep, const char *b, size_t n)
{
	size_t la = strlen(a), ls = strlen(sep);

	if ((a = realloc(a, la + ls + n + 1)) == NULL)
		abort();
	memcpy(a + la, sep, ls);
	memcpy(a + la + ls, b, n);
	a[la + ls + n] = '\0';
	return a;
}

/* The exit status a command's comment announces ("# exits 1"), or 0. */
static int
announced_exit(const char *text)
{
	const char *p = strstr(text, "# exits ");

	return p != NULL ? atoi(p + 8) : 0;
}

/*
 * The commands of the marked blocks of readme, into v (at most max).
 * Returns how many; *blocks gets the number of marked blocks.
 */
static size_t
demo_commands(const char *readme, struct demo_cmd *v, size_t max,
    size_t *blocks)
{
	const char *p = readme, *line, *nl, *body;
	size_t n, len, ncmd = 0;
	int lineno = 0, armed = 0, inblock = 0, cont = 0;

	*blocks = 0;
	for (; *p != '\0'; p = *nl == '\n' ? nl + 1 : nl) {
		line = p;
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		len = (size_t)(nl - line);
		lineno++;
		if (len == strlen(MARKER) && strncmp(line, MARKER, len) == 0) {
			armed = 1;
			inblock = 0;
			continue;
		}
		for (n = 0; n < len && line[n] == ' '; n++)
			;
		if (n == len) {		/* blank: a block may go on */
			cont = 0;
			continue;
		}
		if (n < 4) {		/* text: a block has ended */
			armed = inblock = cont = 0;
			continue;
		}
		if (!armed && !inblock)
			continue;
		if (armed) {
			armed = 0;
			inblock = 1;
			(*blocks)++;
		}
		body = line + 4;
		len -= 4;
		if (cont && ncmd > 0) {
			v[ncmd - 1].text = append(v[ncmd - 1].text, "\n", body,
			    len);
		} else if (is_command(body) && ncmd < max) {
			memset(&v[ncmd], 0, sizeof(v[ncmd]));
			v[ncmd].text = dupn(body, len);
			v[ncmd].line = lineno;
			ncmd++;
		} else if (ncmd > 0 && v[ncmd - 1].nexpect < MAXEXPECT) {
			v[ncmd - 1].expect[v[ncmd - 1].nexpect++] =
			    dupn(body, len);
		} else
			ok(0, "README line %d: output before any command: %.*s",
			    lineno, (int)len, body);
		cont = ncmd > 0 && (ends_with(body, len, '\\') ||
		    ends_with(body, len, '|'));
	}
	for (n = 0; n < ncmd; n++)
		v[n].exits = announced_exit(v[n].text);
	return ncmd;
}

/*
 * A line as the comparison sees it: blanks collapsed and trimmed, and
 * every duration ("0.01s", "2.02s") written "#s".
 */
static char *
normalize(const char *s, size_t n)
{
	char *out, *o;
	size_t i, j;

	if ((out = malloc(n + 1)) == NULL)
		abort();
	o = out;
	for (i = 0; i < n; ) {
		if (isspace((unsigned char)s[i])) {
			while (i < n && isspace((unsigned char)s[i]))
				i++;
			if (o > out && i < n)
				*o++ = ' ';
			continue;
		}
		/* A word of digits, one dot, digits and an s: a duration. */
		for (j = i; j < n && isdigit((unsigned char)s[j]); j++)
			;
		if ((i == 0 || isspace((unsigned char)s[i - 1])) && j > i &&
		    j < n && s[j] == '.') {
			size_t k = j + 1;

			while (k < n && isdigit((unsigned char)s[k]))
				k++;
			if (k > j + 1 && k < n && s[k] == 's' &&
			    (k + 1 == n || isspace((unsigned char)s[k + 1]))) {
				*o++ = '#';
				*o++ = 's';
				i = k + 1;
				continue;
			}
		}
		*o++ = s[i++];
	}
	*o = '\0';
	return out;
}

/* Whether line matches pattern, in which "..." stands for any text. */
static int
line_matches(const char *line, const char *pat)
{
	const char *dots = strstr(pat, "...");
	size_t head;

	if (dots == NULL)
		return strcmp(line, pat) == 0;
	head = (size_t)(dots - pat);
	if (strncmp(line, pat, head) != 0)
		return 0;
	line += head;
	pat = dots + 3;
	/* The rest of the pattern anywhere in the rest of the line. */
	for (;; line++) {
		if (line_matches(line, pat))
			return 1;
		if (*line == '\0')
			return 0;
	}
}

/*
 * Whether the normalized pattern matches a line of out at or after
 * *from; *from moves past the line found.
 */
static int
find_line(const char *out, const char *pat, const char **from)
{
	const char *p = *from, *nl;
	char *norm;
	int found;

	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		norm = normalize(p, (size_t)(nl - p));
		found = line_matches(norm, pat);
		free(norm);
		p = *nl == '\n' ? nl + 1 : nl;
		if (found) {
			*from = p;
			return 1;
		}
	}
	return 0;
}

/* The first line of a command, for the test's messages. */
static const char *
first_line(const char *text)
{
	static char buf[100];

	snprintf(buf, sizeof(buf), "%.*s", (int)strcspn(text, "\n"), text);
	return buf;
}

/*
 * Runs one command in the scratch tree after the exports before it,
 * and checks its exit status and output.
 */
static void
run_demo(const char *readme_path, struct demo_cmd *c, char **exports,
    size_t nexports)
{
	char *script, *out, *err, *both, *pat;
	const char *from;
	size_t i;
	int st;

	if ((script = malloc(strlen(scratch) + strlen(errpath) + 64)) == NULL)
		abort();
	sprintf(script, "cd '%s' || exit 125\nexec </dev/null 2>'%s'\n",
	    scratch, errpath);
	for (i = 0; i < nexports; i++)
		script = append(script, "", exports[i], strlen(exports[i]));
	script = append(script, "\n", c->text, strlen(c->text));
	script = append(script, "\n", "", 0);
	out = tap_run(script, &st, 0);
	free(script);
	if ((err = tap_slurp(errpath, NULL)) == NULL)
		err = strdup("");
	is_int(st, c->exits, "%s:%d: '%s' exits %d", readme_path, c->line,
	    first_line(c->text), c->exits);
	if (c->exits == 0) {
		ok(strstr(err, "usage:") == NULL && strstr(err, "error") ==
		    NULL, "%s:%d: '%s' prints no usage or error on stderr",
		    readme_path, c->line, first_line(c->text));
	}
	both = append(strdup(out), "", err, strlen(err));
	from = both;
	for (i = 0; i < c->nexpect; i++) {
		pat = normalize(c->expect[i], strlen(c->expect[i]));
		if (strcmp(pat, "...") != 0 && !ok(find_line(both, pat, &from),
		    "%s:%d: '%s' prints '%s'", readme_path, c->line,
		    first_line(c->text), pat))
			tap_diag("it printed:\n%s", both);
		free(pat);
	}
	free(both);
	free(out);
	free(err);
}

/* The targets "make" is asked for on a line of text: words sans = or -. */
static void
make_targets(const char *text, void (*each)(const char *, void *),
    void *arg)
{
	char word[128];
	const char *p = text + 4;
	size_t n;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '\n' || *p == '#')
			return;
		n = strcspn(p, " \t\n");
		if (n < sizeof(word) && memchr(p, '=', n) == NULL &&
		    *p != '-') {
			memcpy(word, p, n);
			word[n] = '\0';
			each(word, arg);
		}
		p += n;
	}
}

/*
 * The value of a variable the Makefile sets plainly ("PROG=\tltpscope"),
 * into buf; "" when it sets none.
 */
static void
make_var(const char *mk, const char *name, size_t len, char *buf,
    size_t size)
{
	const char *p, *v;

	buf[0] = '\0';
	for (p = mk; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, name, len) != 0)
			continue;
		for (v = p + len; *v == ' ' || *v == '\t'; v++)
			;
		if (*v == '?')
			v++;
		if (*v != '=')
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		snprintf(buf, size, "%.*s", (int)strcspn(v, " \t\n"), v);
		return;
	}
}

/* Whether a rule of the Makefile, its head's ${VAR} expanded, is target's. */
static int
has_target(const char *mk, const char *target)
{
	const char *p, *head;
	char value[128];
	size_t n, len;
	int found = 0;

	for (p = mk; p != NULL && *p != '\0' && !found; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		head = p;
		n = strlen(target);
		if (strncmp(p, "${", 2) == 0 && (len = strcspn(p + 2,
		    "}\n")) > 0 && p[2 + len] == '}') {
			make_var(mk, p + 2, len, value, sizeof(value));
			if (strcmp(value, target) != 0)
				continue;
			head = target;
			p += 3 + len;
			n = 0;
		}
		found = strncmp(head, target, n) == 0 && strchr(": \t",
		    p[n]) != NULL && strcspn(p, ":") < strcspn(p, "\n") &&
		    p[strcspn(p, ":") + 1] != '=';
	}
	return found;
}

static void
check_target(const char *target, void *arg)
{
	ok(has_target(arg, target), "README: 'make %s': the Makefile has "
	    "that target", target);
}

/* Every "make ..." line of every indented block of the README. */
static void
test_make_lines(const char *readme)
{
	const char *p, *q;
	char *mk;
	int n = 0;

	if (!ok((mk = tap_slurp("Makefile", NULL)) != NULL,
	    "Makefile readable"))
		return;
	for (p = readme; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, "    ", 4) != 0)
			continue;
		for (q = p; *q == ' '; q++)
			;
		if (strncmp(q, "make", 4) != 0 || (q[4] != ' ' &&
		    q[4] != '\n' && q[4] != '\0'))
			continue;
		n++;
		make_targets(q, check_target, mk);
	}
	ok(n > 0, "README: make lines found (%d)", n);
	free(mk);
}

/* Whether usage names opt ("--name" or "-x") as a whole word. */
static int
usage_names(const char *usage, const char *opt)
{
	const char *hit;
	size_t k = strlen(opt);

	for (hit = usage; (hit = strstr(hit, opt)) != NULL; hit += k)
		if ((hit == usage || (!isalnum((unsigned char)hit[-1]) &&
		    hit[-1] != '-')) && !isalnum((unsigned char)hit[k]) &&
		    hit[k] != '-')
			return 1;
	return 0;
}

/*
 * The options of one ltpscope command line of the README (its words up
 * to a comment, pipe or redirection), each in the usage "ltpscope help
 * SUB" prints: an option renamed or dropped since the README was
 * written fails here, on lines no test runs (a box, ../shared) too.
 * The global -d, -L and -m before the subcommand are every one's.
 */
static void
check_options(const char *text, int line)
{
	char word[128], sub[128] = "", *usage = NULL;
	const char *p = text, *q;
	size_t n;
	int st, after_global = 0;

	while (*p == ' ')
		p++;
	p += strcspn(p, " \n");	/* ./ltpscope or ltpscope */
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\\')
			p++;
		if (*p == '\0' || *p == '#' || *p == '|' || *p == '>' ||
		    *p == '<')
			break;
		n = strcspn(p, " \t\n");
		if (*p == '\'' || *p == '"') {
			/* A quoted argument: skip to its closing quote. */
			q = strchr(p + 1, *p);
			p = q != NULL ? q + 1 : p + n;
			continue;
		}
		if (n >= sizeof(word)) {
			p += n;
			continue;
		}
		memcpy(word, p, n);
		word[n] = '\0';
		p += n;
		if (sub[0] == '\0') {
			if (strcmp(word, "-d") == 0 ||
			    strcmp(word, "-L") == 0 ||
			    strcmp(word, "-m") == 0) {
				after_global = 1;
				continue;
			}
			if (after_global) {
				after_global = 0;
				continue;
			}
			if (word[0] == '-')
				break;	/* the explorer's options: no sub */
			snprintf(sub, sizeof(sub), "%s", word);
			usage = tap_cli(&st, 1, "help %s", sub);
			if (!ok(st == 0, "README line %d: ltpscope %s: a "
			    "subcommand (ltpscope help %s exits %d)", line,
			    sub, sub, st))
				break;
			continue;
		}
		if (word[0] != '-' || word[1] == '\0' ||
		    isdigit((unsigned char)word[1]))
			continue;
		word[strcspn(word, "=")] = '\0';
		ok(usage_names(usage, word), "README line %d: ltpscope %s "
		    "takes %s (its usage names it)", line, sub, word);
	}
	free(usage);
}

/* Every ltpscope command line of every indented block of the README. */
static void
test_option_lines(const char *readme)
{
	const char *p, *q, *nl;
	char *text;
	int line = 0, n = 0;

	for (p = readme; *p != '\0'; p = *nl == '\n' ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		line++;
		if (strncmp(p, "    ", 4) != 0)
			continue;
		for (q = p; *q == ' '; q++)
			;
		if (strncmp(q, "ltpscope ", 9) != 0 &&
		    strncmp(q, "./ltpscope ", 11) != 0)
			continue;
		/* With the lines a trailing \ continues it on. */
		while (nl > p && nl[-1] == '\\' && *nl == '\n') {
			nl++;
			nl += strcspn(nl, "\n");
		}
		text = dupn(q, (size_t)(nl - q));
		/* A usage error on purpose shows what the user sees. */
		if (announced_exit(text) != 2)
			check_options(text, line);
		free(text);
		n++;
	}
	ok(n >= 20, "README: ltpscope command lines found (%d)", n);
}

/*
 * The first rule of the Makefile, the includes it reads first taken in
 * their place: what a plain "make" builds.
 */
static int
first_target(const char *path, char *buf, size_t size, int depth)
{
	const char *p, *end;
	char inc[512], *text;
	size_t n;
	int found = 0;

	if (depth > 2 || (text = tap_slurp(path, NULL)) == NULL)
		return 0;
	for (p = text; p != NULL && *p != '\0' && !found; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		end = p + strcspn(p, "\n");
		if (strncmp(p, "include ", 8) == 0 ||
		    strncmp(p, ".include ", 9) == 0) {
			p += p[0] == '.' ? 9 : 8;
			while (*p == ' ' || *p == '"' || *p == '<')
				p++;
			n = strcspn(p, "\">\n ");
			snprintf(inc, sizeof(inc), "%.*s", (int)n, p);
			found = first_target(inc, buf, size, depth + 1);
			continue;
		}
		if (*p == '\t' || *p == '#' || *p == '.' || *p == '\n' ||
		    isspace((unsigned char)*p))
			continue;
		n = strcspn(p, ":=!?+\n");
		if (p + n >= end || p[n] != ':' || p[n + 1] == '=')
			continue;
		while (n > 0 && isspace((unsigned char)p[n - 1]))
			n--;
		snprintf(buf, size, "%.*s", (int)n, p);
		found = 1;
	}
	free(text);
	return found;
}

static void
test_default_target(const char *readme)
{
	char target[256] = "";
	const char *from = readme;

	if (!ok(find_line(readme, "make # builds ./ltpscope", &from),
	    "README says a plain make builds ./ltpscope"))
		return;
	ok(first_target("Makefile", target, sizeof(target), 0),
	    "the Makefile has a first rule");
	is_str(target, "all", "a plain make builds 'all' (the Makefile's first "
	    "rule, its includes taken in their place)");
}

/* A scratch tree standing for the source tree: its build/ is ours. */
static int
make_scratch(void)
{
	char cwd[1024], from[1300], to[2100];

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		return 0;
	snprintf(scratch, sizeof(scratch), "%s/src", tap_tmpdir());
	snprintf(errpath, sizeof(errpath), "%s/stderr", tap_tmpdir());
	snprintf(from, sizeof(from), "%s/build", scratch);
	if (mkdir(scratch, 0700) != 0 || mkdir(from, 0700) != 0)
		return 0;
	snprintf(from, sizeof(from), "%s/ltpscope", scratch);
	if (symlink(tap_bin(), from) != 0)
		return 0;
	snprintf(from, sizeof(from), "%s/data", scratch);
	snprintf(to, sizeof(to), "%s/data", cwd);
	if (symlink(to, from) != 0)
		return 0;
	snprintf(from, sizeof(from), "%s/build/demo-ltp", scratch);
	snprintf(to, sizeof(to), "%s/build/demo-ltp", cwd);
	return symlink(to, from) == 0;
}

static void
test_demo_commands(const char *readme, const char *readme_path)
{
	struct demo_cmd *v;
	char *exports[MAXEXPORTS];
	size_t n, i, j, blocks, nexports = 0;

	if ((v = calloc(128, sizeof(*v))) == NULL)
		abort();
	n = demo_commands(readme, v, 128, &blocks);
	ok(blocks >= 5, "%s: blocks marked %s (%zu)", readme_path, MARKER,
	    blocks);
	ok(n >= 20, "%s: commands in them (%zu)", readme_path, n);
	if (!ok(access("build/demo-ltp/Version", R_OK) == 0,
	    "build/demo-ltp is built (make demo-build)") ||
	    !ok(make_scratch(), "a scratch tree in %s", tap_tmpdir()))
		n = 0;
	for (i = 0; i < n; i++) {
		if (strncmp(v[i].text, "make", 4) == 0)
			continue;	/* checked by test_make_lines() */
		run_demo(readme_path, &v[i], exports, nexports);
		if (strncmp(v[i].text, "export ", 7) == 0 &&
		    nexports < MAXEXPORTS)
			exports[nexports++] = append(strdup(v[i].text), "\n",
			    "", 0);
	}
	for (i = 0; i < 128; i++) {
		free(v[i].text);
		for (j = 0; j < v[i].nexpect; j++)
			free(v[i].expect[j]);
	}
	for (i = 0; i < nexports; i++)
		free(exports[i]);
	free(v);
}

/* The matching rules, on lines whose answer is known. */
static void
test_matcher(void)
{
	char *s;
	const char *from;
	static const char out[] = "a\nFAIL   capget01   0.02s  1 fail\nb\n";
	static const char usage[] = "usage: ltpscope run [-j jobs] "
	    "[--timeout-mul x] [--dry-run]";

	s = normalize("  FAIL \t capget01  12.01s  1 fail ", 34);
	is_str(s, "FAIL capget01 #s 1 fail", "matcher: blanks collapse, a "
	    "duration is any duration");
	free(s);
	s = normalize("v0.1s 2.5 3s", 12);
	is_str(s, "v0.1s 2.5 3s", "matcher: only whole words are durations");
	free(s);
	ok(line_matches("capget01 fail missing-syscall - ./data/rules:39",
	    "capget01 fail missing-syscall - ..."), "matcher: ... at the end");
	ok(line_matches("run 7 is the baseline", "run ... the baseline"),
	    "matcher: ... inside");
	ok(!line_matches("run 7 is the baseline", "run ... the base"),
	    "matcher: ... does not free the end");
	ok(!line_matches("capget01 pass", "capget01 fail"),
	    "matcher: a different line does not match");
	from = out;
	ok(find_line(out, "FAIL capget01 #s 1 fail", &from) &&
	    find_line(out, "b", &from) && !find_line(out, "a", &from),
	    "matcher: lines in order, not before the last found");
	is_int(announced_exit("./ltpscope run   # exits 1: a test failed"), 1,
	    "matcher: '# exits 1' announces exit status 1");
	ok(usage_names(usage, "--dry-run") && usage_names(usage, "-j"),
	    "usage: --dry-run and -j are named");
	ok(!usage_names(usage, "--timeout") && !usage_names(usage, "--dry") &&
	    !usage_names(usage, "-m"), "usage: --timeout, --dry and -m are "
	    "not (parts of longer words)");
}

/* The Makefile readers, on makefiles whose answers are known. */
static void
test_make_readers(void)
{
	static const char mk[] =
	    "PROG=\tltpscope\n"
	    "X ?= y\n"
	    "${PROG}: libltpscope.a\n"
	    "demo-build: ${PROG}\n"
	    "COPTS:= -O2\n"
	    "\tdemo: not a rule\n";
	char path[1200], inc[1200], text[1300], target[64];

	ok(has_target(mk, "ltpscope"), "make: ${PROG}: is ltpscope's rule");
	ok(has_target(mk, "demo-build"), "make: demo-build: is a rule");
	ok(!has_target(mk, "demo"), "make: no rule for demo (a command "
	    "line, a longer name)");
	ok(!has_target(mk, "COPTS"), "make: := sets a variable");
	snprintf(inc, sizeof(inc), "%s/inc.mk", tap_tmpdir());
	snprintf(path, sizeof(path), "%s/Makefile", tap_tmpdir());
	tap_write(inc, "# rules\nfoo/bar: foo/bar.c\n");
	snprintf(text, sizeof(text), "V=\t1\n.SUFFIXES: .c\ninclude %s\n"
	    "all: x\n", inc);
	tap_write(path, text);
	ok(first_target(path, target, sizeof(target), 0) &&
	    strcmp(target, "foo/bar") == 0, "make: an include's first rule "
	    "comes first (%s)", target);
	snprintf(text, sizeof(text), "V=\t1\n.SUFFIXES: .c\nall: x\n"
	    "include %s\n", inc);
	tap_write(path, text);
	ok(first_target(path, target, sizeof(target), 0) &&
	    strcmp(target, "all") == 0, "make: all first, before the "
	    "include (%s)", target);
}

/* The block parser, on a README whose commands are known. */
static void
test_parser(void)
{
	static const char md[] =
	    "text\n"
	    "\n"
	    "    ./ltpscope not-marked\n"
	    "\n"
	    MARKER "\n"
	    "\n"
	    "    export A=1\n"
	    "    ./ltpscope x |\n"
	    "        awk '{ print }'\n"
	    "    out 1\n"
	    "\n"
	    "    ./ltpscope y \\\n"
	    "        --z   # exits 2\n"
	    "    out 2\n"
	    "text again\n"
	    "\n"
	    "    ./ltpscope after-text\n";
	struct demo_cmd v[8];
	size_t n, blocks, i, j;

	n = demo_commands(md, v, 8, &blocks);
	is_int((long long)blocks, 1, "parser: one marked block");
	if (!is_int((long long)n, 3, "parser: three commands in it"))
		return;
	is_str(v[1].text, "./ltpscope x |\n    awk '{ print }'",
	    "parser: a line ending in | goes on");
	is_int((long long)v[1].nexpect, 1, "parser: one line of output");
	is_str(v[2].text, "./ltpscope y \\\n    --z   # exits 2",
	    "parser: a line ending in \\ goes on");
	is_int(v[2].exits, 2, "parser: its exit status from its comment");
	is_int(v[2].line, 12, "parser: its line");
	for (i = 0; i < n; i++) {
		free(v[i].text);
		for (j = 0; j < v[i].nexpect; j++)
			free(v[i].expect[j]);
	}
}

int
main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "README.md";
	char *readme;

	/* The README's ~/.config and the like: in the test's own HOME. */
	unsetenv("XDG_CONFIG_HOME");
	unsetenv("XDG_DATA_HOME");
	unsetenv("XDG_STATE_HOME");
	unsetenv("XDG_CACHE_HOME");
	test_matcher();
	test_parser();
	test_make_readers();
	if (!ok((readme = tap_slurp(path, NULL)) != NULL, "%s readable",
	    path))
		return tap_done();
	has_str(readme, "ltpscope-design.7", "%s links the design notes",
	    path);
	test_make_lines(readme);
	test_option_lines(readme);
	test_default_target(readme);
	test_demo_commands(readme, path);
	free(readme);
	return tap_done();
}
