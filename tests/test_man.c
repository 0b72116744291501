/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The manual against the program: man/ltpscope.1 lints clean with
 * mandoc, its SYNOPSIS (as mandoc renders it) is form for form the
 * synopsis "ltpscope help" prints, each subcommand's -h prints its own
 * forms of it on stdout (a usage error on stderr), no line is wider than
 * 80 columns, its SUBCOMMANDS section has an entry for every subcommand
 * "ltpscope help" lists, each entry documents every long option the
 * subcommand's usage prints, and its KEYS section lists exactly the keys
 * of the explorer's help screen (ui_keys[] in src/ui_keys.c).  Each
 * subcommand's -h names the options its SYNOPSIS forms name, and the
 * options its struct cmd_entry declares (src/cmd_*.c) are those its
 * usage names.  A new option or key without a line in the manual fails
 * here, naming what is missing where.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define MAXITEMS	256
#define ITEMLEN		128
#define MAXFORMS	64
#define WIDTH		80

/* The forms of a synopsis, each whole on one line. */
struct forms {
	char	*v[MAXFORMS];
	size_t	 n;
};

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

/*
 * Every other page of man/ (ltpscope-design.7, ...) lints clean too,
 * and ltpscope.1's SEE ALSO names it, so that a reader finds it.
 */
static void
test_other_pages(const char *man, const char *manpath)
{
	struct dirent *de;
	const char *sec;
	char *see;
	char path[1024], xr[ITEMLEN + 8], *dot;
	size_t n = 0, len = 0;
	DIR *d;

	if (!ok((d = opendir("man")) != NULL, "man/ readable"))
		return;
	/* SEE ALSO runs to the next section: cut it there. */
	see = NULL;
	if (man != NULL && (sec = section(man, "SEE ALSO", &len)) != NULL &&
	    (see = strndup(sec, len)) == NULL)
		abort();
	while ((de = readdir(d)) != NULL) {
		dot = strrchr(de->d_name, '.');
		if (de->d_name[0] == '.' || dot == NULL || dot[1] < '1' ||
		    dot[1] > '9' || dot[2] != '\0' ||
		    strlen(de->d_name) >= ITEMLEN)
			continue;
		snprintf(path, sizeof(path), "man/%s", de->d_name);
		if (strcmp(path, manpath) == 0 ||
		    strcmp(de->d_name, "ltpscope.1") == 0)
			continue;
		n++;
		test_lint(path);
		snprintf(xr, sizeof(xr), ".Xr %.*s %c", (int)(dot -
		    de->d_name), de->d_name, dot[1]);
		ok(see != NULL && strstr(see, xr) != NULL,
		    "%s: SEE ALSO has '%s'", manpath, xr);
	}
	closedir(d);
	free(see);
	ok(n >= 1, "man/ has pages beside ltpscope.1 (%zu), e.g. "
	    "ltpscope-design.7", n);
}

/* Subcommand names from "ltpscope help", after its "Subcommands:". */
static void
help_subcommands(struct strset *subs)
{
	const char *p, *line, *q;
	char *out;
	size_t n;
	int st, in = 0;

	out = tap_cli(&st, 1, "help");
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
	char *out;
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
		out = tap_cli(&st, 1, "%s --help", subs.v[i]);
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

static void
forms_free(struct forms *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->v[i]);
	f->n = 0;
}

/*
 * Adds text to the form being built: a new form when start, else a
 * continuation.  Blanks collapse and " | " becomes "|", as mandoc and
 * the program space alternatives differently.
 */
static void
forms_add(struct forms *f, const char *text, size_t len, int start)
{
	char *cur;
	size_t have, i;

	if (start) {
		if (f->n == MAXFORMS)
			return;
		if ((f->v[f->n++] = strdup("")) == NULL)
			abort();
	} else if (f->n == 0)
		return;
	have = strlen(f->v[f->n - 1]);
	if ((cur = realloc(f->v[f->n - 1], have + len + 2)) == NULL)
		abort();
	f->v[f->n - 1] = cur;
	for (i = 0; i < len; i++) {
		if (isspace((unsigned char)text[i]))
			continue;
		if (text[i] == '|') {
			while (have > 0 && cur[have - 1] == ' ')
				have--;
			cur[have++] = '|';
			while (i + 1 < len && text[i + 1] == ' ')
				i++;
			continue;
		}
		if (i > 0 && isspace((unsigned char)text[i - 1]) && have > 0 &&
		    cur[have - 1] != '|')
			cur[have++] = ' ';
		cur[have++] = text[i];
	}
	cur[have] = '\0';
}

/* The width of the widest line of text, and that line's number. */
static size_t
widest(const char *text, size_t *lineno)
{
	const char *p = text, *line;
	size_t n, max = 0, no = 0;

	while (next_line(&p, &line, &n)) {
		no++;
		if (n > max) {
			max = n;
			*lineno = no;
		}
	}
	return max;
}

/*
 * The forms of a synopsis printed by the program: "usage: ltpscope" or
 * "       ltpscope" starts one, a line indented further continues it.
 * Stops at the first empty line.
 */
static void
program_forms(const char *out, struct forms *f)
{
	const char *p = out, *line;
	size_t n;

	while (next_line(&p, &line, &n) && n > 0) {
		if (n > 15 && (strncmp(line, "usage: ltpscope", 15) == 0 ||
		    strncmp(line, "       ltpscope", 15) == 0))
			forms_add(f, line + 16, n - 16, 1);
		else if (n > 8 && strncmp(line, "        ", 8) == 0)
			forms_add(f, line, n, 0);
	}
}

/* The forms of the manual's SYNOPSIS, as mandoc renders them. */
static int
manual_forms(const char *manpath, struct forms *f)
{
	char cmd[1200], *out, *w, *r;
	const char *p, *line;
	size_t n;
	int st, in = 0;

	snprintf(cmd, sizeof(cmd), "mandoc -Tascii -O width=1000 %s",
	    manpath);
	out = tap_run(cmd, &st, 0);
	/* Bold and underline are overstruck: "x\bx", "_\bx". */
	for (w = r = out; *r != '\0'; r++) {
		if (*r == '\b' && w > out)
			w--;
		else
			*w++ = *r;
	}
	*w = '\0';
	p = out;
	while (next_line(&p, &line, &n)) {
		if (n > 0 && !isspace((unsigned char)line[0])) {
			if (in)
				break;
			in = n == 8 && strncmp(line, "SYNOPSIS", 8) == 0;
			continue;
		}
		if (!in)
			continue;
		while (n > 0 && isspace((unsigned char)*line)) {
			line++;
			n--;
		}
		if (n > 9 && strncmp(line, "ltpscope ", 9) == 0)
			forms_add(f, line + 9, n - 9, 1);
		else if (n > 0)
			forms_add(f, line, n, 0);
	}
	free(out);
	return st;
}

/* The subcommand a form is of: its first word, "[ui]" as "ui". */
static void
form_subcommand(const char *form, char *sub, size_t size)
{
	size_t n = strcspn(form, " ");

	if (n > 2 && form[0] == '[' && form[n - 1] == ']')
		snprintf(sub, size, "%.*s", (int)(n - 2), form + 1);
	else
		snprintf(sub, size, "%.*s", (int)n, form);
}

/*
 * The forms the manual's SYNOPSIS gives are those "ltpscope help" prints,
 * in the same order; help's lines fit 80 columns.
 */
static void
test_synopsis(const char *manpath)
{
	struct forms prog = { { NULL }, 0 }, man = { { NULL }, 0 };
	size_t i, lineno = 0, w;
	char *out;
	int st;

	out = tap_cli(&st, 1, "help");
	is_int(st, 0, "ltpscope help exits 0");
	w = widest(out, &lineno);
	ok(w <= WIDTH, "ltpscope help: no line is wider than %d columns "
	    "(line %zu has %zu)", WIDTH, lineno, w);
	program_forms(out, &prog);
	free(out);
	ok(prog.n >= 10, "ltpscope help prints a synopsis (%zu forms)",
	    prog.n);
	is_int(manual_forms(manpath, &man), 0, "mandoc renders %s", manpath);
	is_int((long long)man.n, (long long)prog.n, "%s: SYNOPSIS has as "
	    "many forms as ltpscope help prints", manpath);
	for (i = 0; i < prog.n || i < man.n; i++)
		is_str(i < man.n ? man.v[i] : "(none)",
		    i < prog.n ? prog.v[i] : "(none)", "%s: SYNOPSIS form %zu "
		    "is ltpscope help's", manpath, i + 1);
	forms_free(&prog);
	forms_free(&man);
}

/*
 * The lines of help's synopsis that are sub's forms, as its -h prints
 * them: the first with "usage: " for its lead.  Caller frees.
 */
static char *
help_block(const char *help, const char *sub)
{
	const char *p = help, *line;
	char *buf, name[ITEMLEN];
	size_t n, len = 0;
	int mine = 0;

	if ((buf = malloc(strlen(help) + 1)) == NULL)
		abort();
	buf[0] = '\0';
	while (next_line(&p, &line, &n) && n > 0) {
		if (n > 16 && (strncmp(line, "usage: ltpscope ", 16) == 0 ||
		    strncmp(line, "       ltpscope ", 16) == 0)) {
			form_subcommand(line + 16, name, sizeof(name));
			mine = strcmp(name, sub) == 0;
			if (mine && len == 0) {
				memcpy(buf, "usage: ", 7);
				memcpy(buf + 7, line + 7, n - 7);
				len = n;
				buf[len++] = '\n';
				continue;
			}
		}
		if (mine) {
			memcpy(buf + len, line, n);
			len += n;
			buf[len++] = '\n';
		}
	}
	buf[len] = '\0';
	return buf;
}

/* The synopsis parsers, on text whose answer is known. */
static void
test_form_parsers(void)
{
	static const char help[] =
	    "usage: ltpscope [-d db] sub [arg ...]\n"
	    "       ltpscope [ui] [--demo]\n"
	    "       ltpscope run [-v] [--format text|json]\n"
	    "                    [tag ...]\n"
	    "       ltpscope run --resume [run]\n"
	    "       ltpscope runs [-d db]\n"
	    "\n"
	    "       ltpscope after the blank line\n";
	static const char tags[] =
	    "  tags  [-d db]   [--format  text | csv |  json]";
	struct forms f = { { NULL }, 0 };
	char sub[ITEMLEN], *block;
	size_t lineno = 0;

	program_forms(help, &f);
	is_int((long long)f.n, 5, "parser: five forms before the blank line");
	if (f.n == 5) {
		is_str(f.v[2], "run [-v] [--format text|json] [tag ...]",
		    "parser: a continuation joins its form");
		form_subcommand(f.v[1], sub, sizeof(sub));
		is_str(sub, "ui", "parser: [ui] is of ui");
	}
	forms_free(&f);
	forms_add(&f, tags, strlen(tags), 1);
	forms_add(&f, "\t  [test]", 9, 0);
	is_str(f.n == 1 ? f.v[0] : "", "tags [-d db] [--format text|csv|json] "
	    "[test]", "parser: blanks collapse, \" | \" is \"|\"");
	forms_free(&f);
	block = help_block(help, "run");
	is_str(block, "usage: ltpscope run [-v] [--format text|json]\n"
	    "                    [tag ...]\n"
	    "       ltpscope run --resume [run]\n",
	    "parser: run's block, \"usage: \" first, not runs'");
	free(block);
	is_int((long long)widest("ab\nabcd\nabc\n", &lineno), 4,
	    "parser: the widest line has 4 columns");
	is_int((long long)lineno, 2, "parser: it is line 2");
}

/*
 * Each subcommand's -h prints its forms of help's synopsis, on stdout,
 * and exits 0; "help sub" prints them too; a usage error prints them on
 * stderr and exits 2.
 */
static void
test_dash_h(void)
{
	struct strset subs;
	char want_err[ITEMLEN + 32], *help, *want;
	char *out, *err;
	size_t i, lineno = 0, w;
	int st;

	memset(&subs, 0, sizeof(subs));
	help_subcommands(&subs);
	help = tap_cli(&st, 1, "help");
	for (i = 0; i < subs.n; i++) {
		want = help_block(help, subs.v[i]);
		ok(want[0] != '\0', "ltpscope help prints a synopsis of %s",
		    subs.v[i]);

		out = tap_cli(&st, 0, "%s -h", subs.v[i]);
		is_int(st, 0, "ltpscope %s -h exits 0", subs.v[i]);
		is_str(out, want, "ltpscope %s -h prints, on stdout, the "
		    "forms of %s in ltpscope help", subs.v[i], subs.v[i]);
		w = widest(out, &lineno);
		ok(w <= WIDTH, "ltpscope %s -h: no line is wider than %d "
		    "columns (line %zu has %zu)", subs.v[i], WIDTH, lineno, w);
		free(out);
		out = tap_cli(&st, 0, "%s -h 2>&1 >/dev/null", subs.v[i]);
		is_str(out, "", "ltpscope %s -h prints nothing on stderr",
		    subs.v[i]);
		free(out);

		out = tap_cli(&st, 0, "help %s", subs.v[i]);
		is_int(st, 0, "ltpscope help %s exits 0", subs.v[i]);
		ok(strncmp(out, want, strlen(want)) == 0, "ltpscope help %s "
		    "starts with the same synopsis", subs.v[i]);
		free(out);

		out = tap_cli(&st, 0, "%s --no-such-option "
		    "</dev/null 2>/dev/null", subs.v[i]);
		is_int(st, 2, "ltpscope %s --no-such-option exits 2",
		    subs.v[i]);
		is_str(out, "", "ltpscope %s --no-such-option: nothing on "
		    "stdout", subs.v[i]);
		free(out);
		err = tap_cli(&st, 0, "%s --no-such-option "
		    "</dev/null 2>&1 >/dev/null", subs.v[i]);
		snprintf(want_err, sizeof(want_err), "usage: ltpscope %s%s%s",
		    strcmp(subs.v[i], "ui") == 0 ? "[" : "", subs.v[i],
		    strcmp(subs.v[i], "ui") == 0 ? "]" : "");
		has_str(err, want_err, "ltpscope %s --no-such-option: the "
		    "usage on stderr", subs.v[i]);
		free(err);
		free(want);
	}
	free(help);
}

/* The usage lines of "ltpscope help" (the command table's own). */
static void
test_help_usage(const char *man, const char *manpath)
{
	struct entry ent[64];
	struct strset used, documented;
	struct forms prog = { { NULL }, 0 };
	const char *sec;
	char sub[ITEMLEN], *out;
	size_t len, nent, i, j;
	int st;

	sec = section(man, "SUBCOMMANDS", &len);
	if (sec == NULL)
		return;
	nent = list_entries(sec, len, ent, 64);
	out = tap_cli(&st, 1, "help");
	program_forms(out, &prog);
	free(out);
	for (i = 0; i < prog.n; i++) {
		form_subcommand(prog.v[i], sub, sizeof(sub));
		memset(&used, 0, sizeof(used));
		memset(&documented, 0, sizeof(documented));
		usage_longopts(prog.v[i], &used);
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
	forms_free(&prog);
}

/*
 * The options a synopsis form names, as "-x" and "--name": a dash after
 * a blank, '[' or '|', then a letter alone or a long name.
 */
static void
form_opts(const char *form, struct strset *out)
{
	const char *p, *q;

	for (p = form; *p != '\0'; p++) {
		if (*p != '-' || (p > form && strchr(" [|", p[-1]) == NULL))
			continue;
		if (p[1] == '-' && isalnum((unsigned char)p[2])) {
			for (q = p + 2; isalnum((unsigned char)*q) || *q == '-';
			    q++)
				;
			set_add(out, p, (size_t)(q - p));
			p = q - 1;
		} else if (isalnum((unsigned char)p[1]) &&
		    (p[2] == '\0' || strchr(" ]|", p[2]) != NULL))
			set_add(out, p, 2);
	}
}

/* The options of the forms of f that are sub's (and action's, if any). */
static void
sub_opts(const struct forms *f, const char *sub, const char *action,
    struct strset *out)
{
	char name[ITEMLEN];
	const char *rest;
	size_t i, n;

	for (i = 0; i < f->n; i++) {
		form_subcommand(f->v[i], name, sizeof(name));
		if (strcmp(name, sub) != 0)
			continue;
		rest = f->v[i] + strcspn(f->v[i], " ");
		rest += *rest == ' ';
		n = action != NULL ? strlen(action) : 0;
		if (action != NULL && (strncmp(rest, action, n) != 0 ||
		    (rest[n] != ' ' && rest[n] != '\0')))
			continue;
		form_opts(f->v[i], out);
	}
}

/*
 * Each subcommand's -h names the options the manual's SYNOPSIS forms
 * of it name, no more and no fewer.
 */
static void
test_usage_vs_synopsis(const char *manpath)
{
	struct forms man = { { NULL }, 0 }, prog = { { NULL }, 0 };
	struct strset subs, inman, inprog;
	char *out;
	size_t i, j;
	int st;

	memset(&subs, 0, sizeof(subs));
	help_subcommands(&subs);
	(void)manual_forms(manpath, &man);
	for (i = 0; i < subs.n; i++) {
		out = tap_cli(&st, 0, "%s -h", subs.v[i]);
		program_forms(out, &prog);
		free(out);
		memset(&inman, 0, sizeof(inman));
		memset(&inprog, 0, sizeof(inprog));
		sub_opts(&man, subs.v[i], NULL, &inman);
		sub_opts(&prog, subs.v[i], NULL, &inprog);
		ok(inprog.n > 0 || strcmp(subs.v[i], "help") == 0,
		    "ltpscope %s -h names options (%zu)", subs.v[i], inprog.n);
		for (j = 0; j < inprog.n; j++)
			ok(set_has(&inman, inprog.v[j]), "%s: SYNOPSIS of %s "
			    "has %s (ltpscope %s -h has it)", manpath,
			    subs.v[i], inprog.v[j], subs.v[i]);
		for (j = 0; j < inman.n; j++)
			ok(set_has(&inprog, inman.v[j]), "ltpscope %s -h has "
			    "%s (SYNOPSIS of %s in %s has it)", subs.v[i],
			    inman.v[j], subs.v[i], manpath);
		forms_free(&prog);
	}
	forms_free(&man);
}

/* A subcommand's declaration in the source (struct cmd_entry). */
struct decl {
	char		var[ITEMLEN];	/* cmd_run_entry */
	char		name[ITEMLEN];	/* run */
	char		options[ITEMLEN];	/* run_options */
	char		parent[ITEMLEN];	/* an action's: its var */
	char		file[ITEMLEN];
	int		formats;
	int		actions;	/* its actions declare the options */
	struct strset	spelled[2];	/* [0] "--name", [1] "-x" or "" */
};

/* Whether the n bytes at line (in a longer text) hold key. */
static int
line_has(const char *line, size_t n, const char *key)
{
	const char *q = strstr(line, key);

	return q != NULL && q + strlen(key) <= line + n;
}

/* The quoted string or identifier after "key" in line, into buf. */
static int
field(const char *line, size_t n, const char *key, char *buf, size_t size)
{
	const char *p, *end = line + n;
	size_t len = 0;

	if ((p = strstr(line, key)) == NULL || p >= end)
		return 0;
	p += strlen(key);
	while (p < end && (*p == ' ' || *p == '=' || *p == '&' || *p == '"' ||
	    *p == '\''))
		p++;
	while (p < end && len + 1 < size && (isalnum((unsigned char)*p) ||
	    *p == '_' || *p == '-'))
		buf[len++] = *p++;
	buf[len] = '\0';
	return len > 0;
}

/*
 * The entries of one source file and the options of each: from
 * "struct cmd_option NAME[] = {" and "struct cmd_entry VAR = {" to
 * their "};", one ".name = ..." a line, as the files write them.
 */
static size_t
source_decls(const char *src, const char *file, struct decl *v, size_t nv,
    size_t max)
{
	struct decl opts[32];
	const char *p = src, *line, *q;
	char arr[ITEMLEN], buf[ITEMLEN - 2];
	size_t n, nopts = 0, i, k, first = nv;
	int in = 0;	/* 1: an option array, 2: an entry */

	while (next_line(&p, &line, &n)) {
		if (in == 0 && line_has(line, n, "struct cmd_option ") &&
		    memchr(line, '{', n) != NULL && nopts < 32) {
			q = strstr(line, "struct cmd_option ");
			(void)field(q, n - (size_t)(q - line),
			    "struct cmd_option", arr, sizeof(arr));
			memset(&opts[nopts], 0, sizeof(opts[nopts]));
			snprintf(opts[nopts++].options, ITEMLEN, "%s", arr);
			in = 1;
		} else if (in == 0 && line_has(line, n, "struct cmd_entry ") &&
		    memchr(line, '{', n) != NULL && nv < max) {
			q = strstr(line, "struct cmd_entry ");
			memset(&v[nv], 0, sizeof(v[nv]));
			(void)field(q, n - (size_t)(q - line),
			    "struct cmd_entry", v[nv].var, ITEMLEN);
			snprintf(v[nv].file, ITEMLEN, "%s", file);
			nv++;
			in = 2;
		} else if (n >= 2 && strncmp(line, "};", 2) == 0)
			in = 0;
		else if (in == 1 && line_has(line, n, ".name = \"") &&
		    field(line, n, ".name", buf, sizeof(buf)) &&
		    (k = opts[nopts - 1].spelled[0].n) < MAXITEMS) {
			snprintf(opts[nopts - 1].spelled[0].v[k], ITEMLEN,
			    "--%s", buf);
			opts[nopts - 1].spelled[0].n = k + 1;
			if (!field(line, n, ".letter", buf, sizeof(buf)))
				buf[0] = '\0';
			snprintf(opts[nopts - 1].spelled[1].v[k], ITEMLEN,
			    "%s%s", buf[0] != '\0' ? "-" : "", buf);
			opts[nopts - 1].spelled[1].n = k + 1;
		} else if (in == 2) {
			(void)field(line, n, ".name", v[nv - 1].name, ITEMLEN);
			(void)field(line, n, ".options", v[nv - 1].options,
			    ITEMLEN);
			(void)field(line, n, ".parent", v[nv - 1].parent,
			    ITEMLEN);
			v[nv - 1].formats |= line_has(line, n, ".formats");
			v[nv - 1].actions |= line_has(line, n, ".actions");
		}
	}
	/* Each entry's options, by the array's name. */
	for (i = first; i < nv; i++)
		for (k = 0; k < nopts; k++)
			if (strcmp(v[i].options, opts[k].options) == 0) {
				v[i].spelled[0] = opts[k].spelled[0];
				v[i].spelled[1] = opts[k].spelled[1];
			}
	return nv;
}

/* Every entry of src/cmd_*.c and src/main.c. */
static size_t
all_decls(struct decl *v, size_t max)
{
	struct dirent *de;
	char path[1024], *src;
	size_t n = 0;
	DIR *d;

	if ((d = opendir("src")) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if ((strncmp(de->d_name, "cmd_", 4) != 0 &&
		    strcmp(de->d_name, "main.c") != 0) ||
		    strcmp(de->d_name + strlen(de->d_name) - 2, ".c") != 0)
			continue;
		snprintf(path, sizeof(path), "src/%s", de->d_name);
		if ((src = tap_slurp(path, NULL)) == NULL)
			continue;
		n = source_decls(src, path, v, n, max);
		free(src);
	}
	closedir(d);
	return n;
}

/* The declaration parser, on text whose answer is known. */
static void
test_decl_parser(void)
{
	static const char src[] =
	    "static const struct cmd_option x_options[] = {\n"
	    "\t{ .name = \"db\", .letter = 'd', .kind = CMD_STR },\n"
	    "\t{ .name = \"all\", .kind = CMD_FLAG },\n"
	    "\t{ .name = NULL }\n"
	    "};\n"
	    "\n"
	    "const struct cmd_entry cmd_x_entry = {\n"
	    "\t.name = \"x\",\n"
	    "\t.options = x_options,\n"
	    "\t.formats = \"text|json\",\n"
	    "\t.parent = &cmd_y_entry,\n"
	    "};\n";
	struct decl *v;
	size_t n;

	if ((v = calloc(2, sizeof(*v))) == NULL)
		abort();
	n = source_decls(src, "x.c", v, 0, 2);
	is_int((long long)n, 1, "decl parser: one entry");
	is_str(v[0].name, "x", "decl parser: its name");
	is_str(v[0].parent, "cmd_y_entry", "decl parser: its parent");
	ok(v[0].formats, "decl parser: it takes --format");
	is_int((long long)v[0].spelled[0].n, 2, "decl parser: two options");
	is_str(v[0].spelled[0].v[0], "--db", "decl parser: --db");
	is_str(v[0].spelled[1].v[0], "-d", "decl parser: ... as -d");
	is_str(v[0].spelled[1].v[1], "", "decl parser: --all has no letter");
	free(v);
}

/*
 * What each struct cmd_entry declares against the usage it prints: an
 * option it takes that its synopsis does not name is undocumented; an
 * option its synopsis names that it does not take is an error waiting
 * for a user.
 */
static void
test_decls_vs_usage(void)
{
	struct forms prog = { { NULL }, 0 };
	struct strset used;
	struct decl *v;
	const char *sub, *action;
	char *out;
	size_t n, i, j, k;
	int st, found;

	if ((v = calloc(64, sizeof(*v))) == NULL)
		abort();
	n = all_decls(v, 64);
	ok(n >= 17, "src/cmd_*.c and src/main.c declare the subcommands "
	    "(%zu entries)", n);
	out = tap_cli(&st, 1, "help");
	program_forms(out, &prog);
	free(out);
	for (i = 0; i < n; i++) {
		if (v[i].name[0] == '\0' || v[i].actions)
			continue;
		sub = v[i].name;
		action = NULL;
		for (j = 0; v[i].parent[0] != '\0' && j < n; j++)
			if (strcmp(v[j].var, v[i].parent) == 0) {
				sub = v[j].name;
				action = v[i].name;
			}
		memset(&used, 0, sizeof(used));
		sub_opts(&prog, sub, action, &used);
		for (k = 0; k < v[i].spelled[0].n; k++)
			ok(set_has(&used, v[i].spelled[0].v[k]) ||
			    set_has(&used, v[i].spelled[1].v[k]), "%s: %s%s%s "
			    "takes %s: its usage names it", v[i].file, sub,
			    action != NULL ? " " : "", action != NULL ?
			    action : "", v[i].spelled[0].v[k]);
		if (v[i].formats)
			ok(set_has(&used, "--format"), "%s: %s takes --format: "
			    "its usage names it", v[i].file, v[i].name);
		for (k = 0; k < used.n; k++) {
			found = set_has(&v[i].spelled[0], used.v[k]) ||
			    (v[i].formats && strcmp(used.v[k], "--format") ==
			    0);
			for (j = 0; j < v[i].spelled[1].n; j++)
				found |= strcmp(v[i].spelled[1].v[j],
				    used.v[k]) == 0;
			ok(found, "%s: %s%s%s declares %s (its usage names it)",
			    v[i].file, sub, action != NULL ? " " : "",
			    action != NULL ? action : "", used.v[k]);
		}
	}
	forms_free(&prog);
	free(v);
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

	/* The explorer's -h would read the host's settings otherwise. */
	setenv("HOME", tap_tmpdir(), 1);
	setenv("XDG_CONFIG_HOME", tap_tmpdir(), 1);
	setenv("XDG_DATA_HOME", tap_tmpdir(), 1);
	/* LTPSCOPE_MAN checks another page, e.g. a draft. */
	if ((manpath = getenv("LTPSCOPE_MAN")) == NULL)
		manpath = "man/ltpscope.1";

	test_parsers();
	test_lint(manpath);
	man = tap_slurp(manpath, NULL);
	if (ok(man != NULL, "%s readable", manpath)) {
		test_subcommands(man, manpath);
		test_help_usage(man, manpath);
		test_form_parsers();
		test_synopsis(manpath);
		test_dash_h();
		test_usage_vs_synopsis(manpath);
		test_decl_parser();
		test_decls_vs_usage();
		test_keys(man, manpath);
	}
	test_other_pages(man, manpath);
	free(man);
	return tap_done();
}
