/*
 * The manual against the program: man/ltpscope.1 lints clean with
 * mandoc, its SUBCOMMANDS section has an entry for every subcommand
 * "ltpscope help" lists, each entry documents every long option the
 * subcommand's usage prints, and its KEYS section lists exactly the keys
 * of the explorer's help screen (ui_keys[] in src/ui_keys.c).  A new option
 * or key without a line in the manual fails here, naming what is
 * missing where.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define MAXITEMS	256
#define ITEMLEN		128

/* A set of short strings; small enough to search linearly. */
struct strset {
	char	v[MAXITEMS][ITEMLEN];
	size_t	n;
};

/* One top-level entry of SUBCOMMANDS: its name and its mdoc lines. */
struct entry {
	char		 name[ITEMLEN];
	const char	*start;
	size_t		 len;
};

static const char	*bin;

static int
set_has(const struct strset *s, const char *item)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->v[i], item) == 0)
			return 1;
	return 0;
}

static void
set_add(struct strset *s, const char *item, size_t len)
{
	char buf[ITEMLEN];

	if (len >= ITEMLEN)
		len = ITEMLEN - 1;
	memcpy(buf, item, len);
	buf[len] = '\0';
	if (s->n < MAXITEMS && !set_has(s, buf))
		memcpy(s->v[s->n++], buf, len + 1);
}

/* The next line of text at *p, as (start, length); 0 at the end. */
static int
next_line(const char **p, const char **line, size_t *len)
{
	const char *nl;

	if (**p == '\0')
		return 0;
	*line = *p;
	if ((nl = strchr(*p, '\n')) == NULL)
		nl = *p + strlen(*p);
	*len = (size_t)(nl - *p);
	*p = *nl == '\n' ? nl + 1 : nl;
	return 1;
}

/* The lines of section name, from after its .Sh line to the next .Sh. */
static const char *
section(const char *man, const char *name, size_t *len)
{
	char head[ITEMLEN];
	const char *p = man, *line, *start = NULL;
	size_t n;

	snprintf(head, sizeof(head), ".Sh %s", name);
	while (next_line(&p, &line, &n)) {
		if (n < 4 || strncmp(line, ".Sh ", 4) != 0)
			continue;
		if (start != NULL) {
			*len = (size_t)(line - start);
			return start;
		}
		if (n == strlen(head) && strncmp(line, head, n) == 0)
			start = p;
	}
	if (start != NULL)
		*len = strlen(start);
	return start;
}

/*
 * Splits a macro line into words: blanks separate, double quotes group,
 * and the escapes \& (nothing), \- (a hyphen) and \e (a backslash) are
 * undone.  Returns the number of words.
 */
static size_t
macro_words(const char *line, size_t len, char words[][ITEMLEN],
    size_t max)
{
	size_t i = 0, n = 0, w;
	int quoted;

	while (i < len && n < max) {
		while (i < len && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == len)
			break;
		quoted = line[i] == '"';
		if (quoted)
			i++;
		for (w = 0; i < len && w < ITEMLEN - 1; i++) {
			if (quoted ? line[i] == '"' :
			    (line[i] == ' ' || line[i] == '\t'))
				break;
			if (line[i] == '\\' && i + 1 < len) {
				i++;
				if (line[i] == '&')
					continue;
				words[n][w++] = line[i] == 'e' ? '\\' :
				    line[i];
				continue;
			}
			words[n][w++] = line[i];
		}
		if (quoted && i < len)
			i++;
		words[n++][w] = '\0';
	}
	return n;
}

/*
 * The long options documented in mdoc text: "Fl Fl name", "Fl -name"
 * and "Fl \-name" all render as --name.
 */
static void
documented_longopts(const char *text, size_t textlen, struct strset *out)
{
	char words[64][ITEMLEN];
	const char *p, *line;
	size_t n, nw, i;
	char *copy;

	/* A NUL-terminated copy: next_line() must stop at the entry's end. */
	if ((copy = malloc(textlen + 1)) == NULL)
		abort();
	memcpy(copy, text, textlen);
	copy[textlen] = '\0';
	p = copy;
	while (next_line(&p, &line, &n)) {
		if (n == 0 || line[0] != '.')
			continue;
		nw = macro_words(line + 1, n - 1, words, 64);
		for (i = 0; i + 1 < nw; i++) {
			if (strcmp(words[i], "Fl") != 0)
				continue;
			if (strcmp(words[i + 1], "Fl") == 0 && i + 2 < nw &&
			    isalnum((unsigned char)words[i + 2][0]))
				set_add(out, words[i + 2],
				    strlen(words[i + 2]));
			else if (words[i + 1][0] == '-' &&
			    isalnum((unsigned char)words[i + 1][1]))
				set_add(out, words[i + 1] + 1,
				    strlen(words[i + 1] + 1));
		}
	}
	free(copy);
}

/* The long options ("--name") a usage text prints, without the dashes. */
static void
usage_longopts(const char *text, struct strset *out)
{
	const char *p, *q;

	for (p = text; (p = strstr(p, "--")) != NULL; p = q) {
		q = p + 2;
		if ((p > text && (isalnum((unsigned char)p[-1]) ||
		    p[-1] == '-')) || !isalnum((unsigned char)p[2]))
			continue;
		while (isalnum((unsigned char)*q) || *q == '-')
			q++;
		if (q > p + 2)
			set_add(out, p + 2, (size_t)(q - p - 2));
	}
}

/*
 * The top-level entries of a list section: an entry runs from an .It of
 * the outermost .Bl to the next one, and is named by its first Cm word.
 */
static size_t
list_entries(const char *sec, size_t seclen, struct entry *v, size_t max)
{
	char words[64][ITEMLEN];
	const char *p = sec, *line, *end = sec + seclen;
	size_t n, nw, i, nent = 0;
	int depth = 0, named = 0;

	while (p < end && next_line(&p, &line, &n)) {
		if (n >= 3 && strncmp(line, ".Bl", 3) == 0)
			depth++;
		else if (n >= 3 && strncmp(line, ".El", 3) == 0)
			depth--;
		else if (depth == 1 && n >= 3 && strncmp(line, ".It", 3) == 0 &&
		    nent < max) {
			if (nent > 0)
				v[nent - 1].len = (size_t)(line -
				    v[nent - 1].start);
			v[nent].start = line;
			v[nent].len = (size_t)(end - line);
			v[nent].name[0] = '\0';
			nent++;
			named = 0;
		}
		if (nent == 0 || named || n == 0 || line[0] != '.')
			continue;
		nw = macro_words(line + 1, n - 1, words, 64);
		for (i = 0; i + 1 < nw && !named; i++)
			if (strcmp(words[i], "Cm") == 0) {
				snprintf(v[nent - 1].name, ITEMLEN, "%s",
				    words[i + 1]);
				named = 1;
			}
	}
	return nent;
}

/* Appends s to the string in buf, cutting it to fit. */
static void
append(char *buf, size_t size, const char *s)
{
	size_t len = strlen(buf);

	while (*s != '\0' && len + 1 < size)
		buf[len++] = *s++;
	buf[len] = '\0';
}

/*
 * The keys of KEYS as the help screen spells them: ".It Cm j , Cm Down"
 * is "j, Down", ".It Cm \&?" is "?".
 */
static void
man_keys(const char *sec, size_t seclen, struct strset *out)
{
	char words[64][ITEMLEN], key[ITEMLEN];
	const char *p = sec, *line, *end = sec + seclen;
	size_t n, nw, i;
	int depth = 0;

	while (p < end && next_line(&p, &line, &n)) {
		if (n >= 3 && strncmp(line, ".Bl", 3) == 0)
			depth++;
		else if (n >= 3 && strncmp(line, ".El", 3) == 0)
			depth--;
		if (depth != 1 || n < 4 || strncmp(line, ".It ", 4) != 0)
			continue;
		nw = macro_words(line + 4, n - 4, words, 64);
		key[0] = '\0';
		for (i = 0; i < nw; i++) {
			if (strcmp(words[i], "Cm") == 0)
				continue;
			if (key[0] != '\0' && strcmp(words[i], ",") != 0)
				append(key, sizeof(key), " ");
			append(key, sizeof(key), words[i]);
		}
		set_add(out, key, strlen(key));
	}
}

/*
 * The keynames of ui_keys[] in src/ui_keys.c: in each "{ KEY, "name", ..."
 * line, the string after the first field; NULL names are hidden keys.
 */
static void
source_keys(const char *src, struct strset *out)
{
	const char *p, *line, *q;
	char name[ITEMLEN];
	size_t n, w;
	int in_table = 0, depth;

	p = src;
	while (next_line(&p, &line, &n)) {
		if (!in_table) {
			in_table = strstr(line, "ui_keys[] = {") != NULL &&
			    (size_t)(strstr(line, "ui_keys[] = {") - line) < n;
			continue;
		}
		if (n >= 2 && strncmp(line, "};", 2) == 0)
			break;
		for (q = line; q < line + n && (*q == ' ' || *q == '\t'); q++)
			;
		if (q + 2 > line + n || strncmp(q, "{ ", 2) != 0)
			continue;
		q += 2;
		/* Skip the first field: a char literal or an expression. */
		if (*q == '\'') {
			for (q++; q < line + n && *q != '\''; q++)
				if (*q == '\\')
					q++;
			q++;
		}
		for (depth = 0; q < line + n && (*q != ',' || depth > 0); q++)
			depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
		for (q++; q < line + n && *q == ' '; q++)
			;
		if (q >= line + n || *q != '"')
			continue;
		for (q++, w = 0; q < line + n && *q != '"' &&
		    w < ITEMLEN - 1; q++) {
			if (*q == '\\')
				q++;
			name[w++] = *q;
		}
		name[w] = '\0';
		set_add(out, name, w);
	}
}

static char *
run_bin(const char *args, int *status)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "%s %s", bin, args);
	return tap_run(cmd, status, 1);
}

/* The parsers, on text whose answer is known, so they can fail. */
static void
test_parsers(void)
{
	static const char man[] =
	    ".Sh SUBCOMMANDS\n"
	    ".Bl -tag -width Ds\n"
	    ".It Xo\n"
	    ".Cm alpha\n"
	    ".Op Fl Fl one\n"
	    ".Xc\n"
	    "Text.\n"
	    ".Bl -tag -width Ds\n"
	    ".It Fl \\-two , Fl -three Ns = Ns Ar x\n"
	    ".It Cm inner\n"
	    ".El\n"
	    ".It Cm beta Fl Fl four\n"
	    ".El\n"
	    ".Sh KEYS\n"
	    ".Bl -tag -width Ds\n"
	    ".It Cm j , Cm Down\n"
	    ".It Cm \\&?\n"
	    ".El\n"
	    ".Sh SEE ALSO\n";
	static const char src[] =
	    "const struct ui_key ui_keys[] = {\n"
	    "\t{ 'j', \"j, Down\", \"move down\", ui_key_down },\n"
	    "\t{ KEY_DOWN, NULL, NULL, ui_key_down },\n"
	    "\t{ UI_CTRL('l'), \"^L\", \"redraw\", ui_key_redraw },\n"
	    "\t{ ',', \"\\\"\", \"quote\", ui_key_quote },\n"
	    "\t{ 0, NULL, NULL, NULL }\n"
	    "};\n"
	    "\t{ 'x', \"after\", \"not a key\", NULL },\n";
	struct entry ent[8];
	struct strset opts, keys;
	const char *sec;
	size_t len, n;

	sec = section(man, "SUBCOMMANDS", &len);
	ok(sec != NULL && strncmp(sec, ".Bl", 3) == 0,
	    "parser: SUBCOMMANDS section found");
	if (sec == NULL)
		return;
	n = list_entries(sec, len, ent, 8);
	is_int((long long)n, 2, "parser: two top-level entries, not the "
	    "nested .It");
	if (n != 2)
		return;
	is_str(ent[0].name, "alpha", "parser: entry named by .Cm after Xo");
	is_str(ent[1].name, "beta", "parser: entry named on its .It line");
	memset(&opts, 0, sizeof(opts));
	documented_longopts(ent[0].start, ent[0].len, &opts);
	ok(set_has(&opts, "one") && set_has(&opts, "two") &&
	    set_has(&opts, "three") && !set_has(&opts, "four"),
	    "parser: Fl Fl one, Fl \\-two, Fl -three in alpha, not four");
	memset(&opts, 0, sizeof(opts));
	usage_longopts("usage: x [--one] [--two-b x]|--three a--b ---", &opts);
	is_int((long long)opts.n, 3, "parser: three long options in usage");
	ok(set_has(&opts, "two-b") && !set_has(&opts, "b"),
	    "parser: --two-b whole, a--b is no option");

	memset(&keys, 0, sizeof(keys));
	sec = section(man, "KEYS", &len);
	if (sec != NULL)
		man_keys(sec, len, &keys);
	ok(keys.n == 2 && set_has(&keys, "j, Down") && set_has(&keys, "?"),
	    "parser: KEYS gives 'j, Down' and '?'");
	memset(&keys, 0, sizeof(keys));
	source_keys(src, &keys);
	ok(keys.n == 3 && set_has(&keys, "j, Down") &&
	    set_has(&keys, "^L") && set_has(&keys, "\""),
	    "parser: ui_keys[] gives 'j, Down', '^L' and '\"', nothing "
	    "hidden or after the table");
}

static void
test_lint(const char *manpath)
{
	char cmd[1024], *out;
	int st;

	snprintf(cmd, sizeof(cmd), "mandoc -Tlint -Wwarning %s", manpath);
	out = tap_run(cmd, &st, 1);
	is_int(st, 0, "%s: mandoc -Tlint -Wwarning exits 0", manpath);
	is_str(out, "", "%s: mandoc -Tlint -Wwarning prints nothing",
	    manpath);
	free(out);
}

/* Subcommand names from "ltpscope help", after its "Subcommands:". */
static void
help_subcommands(struct strset *subs)
{
	const char *p, *line, *q;
	char *out;
	size_t n;
	int st, in = 0;

	out = run_bin("help", &st);
	is_int(st, 0, "ltpscope help exits 0");
	p = out;
	while (next_line(&p, &line, &n)) {
		if (n >= 12 && strncmp(line, "Subcommands:", 12) == 0) {
			in = 1;
			continue;
		}
		if (!in || n < 3 || line[0] != ' ')
			continue;
		for (q = line; *q == ' '; q++)
			;
		set_add(subs, q, strcspn(q, " \n"));
	}
	ok(subs->n >= 5, "ltpscope help lists the subcommands (%zu found)",
	    subs->n);
	free(out);
}

static void
test_subcommands(const char *man, const char *manpath)
{
	struct entry ent[64];
	struct strset subs, used, documented;
	const char *sec;
	char args[ITEMLEN + 16], *out;
	size_t len, nent, i, j;
	int st, found;

	memset(&subs, 0, sizeof(subs));
	help_subcommands(&subs);
	set_add(&subs, "help", 4);
	sec = section(man, "SUBCOMMANDS", &len);
	if (!ok(sec != NULL, "%s has a SUBCOMMANDS section", manpath))
		return;
	nent = list_entries(sec, len, ent, 64);
	for (i = 0; i < subs.n; i++) {
		found = 0;
		for (j = 0; j < nent; j++)
			found |= strcmp(ent[j].name, subs.v[i]) == 0;
		ok(found, "%s: SUBCOMMANDS has an entry .Cm %s (ltpscope "
		    "help lists it)", manpath, subs.v[i]);
		if (!found || strcmp(subs.v[i], "help") == 0)
			continue;

		memset(&used, 0, sizeof(used));
		memset(&documented, 0, sizeof(documented));
		snprintf(args, sizeof(args), "%s --help", subs.v[i]);
		out = run_bin(args, &st);
		is_int(st, 0, "ltpscope %s --help exits 0", subs.v[i]);
		ok(strstr(out, "usage:") != NULL, "ltpscope %s --help "
		    "prints a usage", subs.v[i]);
		usage_longopts(out, &used);
		free(out);
		for (j = 0; j < nent; j++)
			if (strcmp(ent[j].name, subs.v[i]) == 0)
				documented_longopts(ent[j].start, ent[j].len,
				    &documented);
		for (j = 0; j < used.n; j++)
			ok(set_has(&documented, used.v[j]), "%s: the "
			    "SUBCOMMANDS entry of %s documents --%s "
			    "(ltpscope %s --help prints it)", manpath,
			    subs.v[i], used.v[j], subs.v[i]);
	}
}

/* The usage lines of "ltpscope help" (the command table's own). */
static void
test_help_usage(const char *man, const char *manpath)
{
	struct entry ent[64];
	struct strset used, documented;
	const char *sec, *p, *line, *q;
	char sub[ITEMLEN], *out, *text;
	size_t len, nent, n, j;
	int st;

	sec = section(man, "SUBCOMMANDS", &len);
	if (sec == NULL)
		return;
	nent = list_entries(sec, len, ent, 64);
	out = run_bin("help", &st);
	p = out;
	while (next_line(&p, &line, &n)) {
		if (n > 16 && strncmp(line, "usage: ltpscope ", 16) == 0)
			q = line + 16;
		else if (n > 16 && strncmp(line, "       ltpscope ", 16) == 0)
			q = line + 16;
		else
			continue;
		if (*q == '[')
			snprintf(sub, sizeof(sub), "ui");
		else
			snprintf(sub, sizeof(sub), "%.*s",
			    (int)strcspn(q, " \n"), q);
		text = malloc(n + 1);
		if (text == NULL)
			abort();
		memcpy(text, line, n);
		text[n] = '\0';
		memset(&used, 0, sizeof(used));
		memset(&documented, 0, sizeof(documented));
		usage_longopts(text, &used);
		free(text);
		for (j = 0; j < nent; j++)
			if (strcmp(ent[j].name, sub) == 0)
				documented_longopts(ent[j].start, ent[j].len,
				    &documented);
		for (j = 0; j < used.n; j++)
			ok(set_has(&documented, used.v[j]), "%s: the "
			    "SUBCOMMANDS entry of %s documents --%s (its "
			    "usage line in ltpscope help prints it)", manpath,
			    sub, used.v[j]);
	}
	free(out);
}

static void
test_keys(const char *man, const char *manpath)
{
	struct strset inman, insrc;
	const char *sec;
	char *src;
	size_t len, i;

	src = tap_slurp("src/ui_keys.c", NULL);
	if (!ok(src != NULL, "src/ui_keys.c readable"))
		return;
	memset(&insrc, 0, sizeof(insrc));
	source_keys(src, &insrc);
	free(src);
	ok(insrc.n >= 5, "src/ui_keys.c ui_keys[] has named keys (%zu found)",
	    insrc.n);
	sec = section(man, "KEYS", &len);
	if (!ok(sec != NULL, "%s has a KEYS section", manpath))
		return;
	memset(&inman, 0, sizeof(inman));
	man_keys(sec, len, &inman);
	for (i = 0; i < insrc.n; i++)
		ok(set_has(&inman, insrc.v[i]), "%s: KEYS has .It Cm for "
		    "'%s' (src/ui_keys.c ui_keys[] lists it)", manpath,
		    insrc.v[i]);
	for (i = 0; i < inman.n; i++)
		ok(set_has(&insrc, inman.v[i]), "src/ui_keys.c: ui_keys[] has "
		    "the key '%s' (KEYS of %s lists it)", inman.v[i],
		    manpath);
}

int
main(void)
{
	const char *manpath;
	char *man;

	if ((bin = getenv("LTPSCOPE_BIN")) == NULL)
		bin = "./ltpscope";
	/* LTPSCOPE_MAN checks another page, e.g. a draft. */
	if ((manpath = getenv("LTPSCOPE_MAN")) == NULL)
		manpath = "man/ltpscope.1";

	test_parsers();
	test_lint(manpath);
	man = tap_slurp(manpath, NULL);
	if (ok(man != NULL, "%s readable", manpath)) {
		test_subcommands(man, manpath);
		test_help_usage(man, manpath);
		test_keys(man, manpath);
	}
	free(man);
	return tap_done();
}
