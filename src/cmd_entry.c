/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The option loop every subcommand shares (see cmd.h): a command line
 * parsed by the subcommand's declared options, its errors said one way,
 * its synopsis printed.  Our own parser rather than getopt_long(3), whose
 * messages differ between glibc and NetBSD and name argv[0]; it takes
 * what getopt_long does: options and operands in any order, "--" to end
 * the options, -abc, -xARG and -x ARG, --name=ARG and --name ARG, and a
 * long name cut short where that names one option.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/numparse.h"
#include "ltpscope/xmalloc.h"

#define USAGE_WIDTH	80

/* Not an option of the entry: what a cmd_optval index cannot be. */
#define OPT_HELP	-1
#define OPT_FORMAT	-2
#define OPT_NONE	-3

/*
 * One form, "ltpscope " and the form after lead, wrapped before
 * USAGE_WIDTH at blanks outside brackets; a continuation lines up
 * after the subcommand's name.
 */
static void
usage_form(FILE *fp, const char *lead, const char *form, size_t len)
{
	const char *p = form, *end = form + len, *tok;
	size_t col, indent = 0, toklen;
	int depth;

	col = (size_t)fprintf(fp, "%sltpscope", lead);
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		for (tok = p, depth = 0; p < end && (depth > 0 || *p != ' ');
		    p++)
			depth += *p == '[' ? 1 : *p == ']' ? -1 : 0;
		toklen = (size_t)(p - tok);
		if (indent == 0)
			indent = col + 1 + toklen + 1;
		else if (col + 1 + toklen > USAGE_WIDTH) {
			fprintf(fp, "\n%*s", (int)indent - 1, "");
			col = indent - 1;
		}
		col += (size_t)fprintf(fp, " %.*s", (int)toklen, tok);
	}
	fputc('\n', fp);
}

void
cmd_entry_usage(FILE *fp, const struct cmd_entry *e, const char *lead)
{
	const char *p, *nl, *first = "usage: ";

	if (e->parent != NULL)
		e = e->parent;
	if (lead != NULL)
		first = lead;
	else
		lead = "       ";
	for (p = e->usage; *p != '\0'; p = *nl == '\n' ? nl + 1 : nl) {
		nl = p + strcspn(p, "\n");
		usage_form(fp, first, p, (size_t)(nl - p));
		first = lead;
	}
}

int
cmd_entry_takes(const struct cmd_entry *e, int letter, const char *longname)
{
	const struct cmd_option *o;
	size_t i;

	for (o = e->options; o != NULL && o->name != NULL; o++)
		if (o->letter == letter && strcmp(o->name, longname) == 0)
			return 1;
	for (i = 0; e->actions != NULL && e->actions[i] != NULL; i++)
		if (cmd_entry_takes(e->actions[i], letter, longname))
			return 1;
	return 0;
}

int
cmd_error(const struct cmd_args *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(a->name, fmt, ap);
	va_end(ap);
	return 2;
}

int
cmd_usage_error(const struct cmd_args *a)
{
	cmd_entry_usage(stderr, a->entry, NULL);
	return 2;
}

/* A usage error said in words, then the synopsis: 2. */
static int
parse_error(const struct cmd_args *a, const char *fmt, ...)
    __attribute__((__format__(__printf__, 2, 3)));

static int
parse_error(const struct cmd_args *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(a->name, fmt, ap);
	va_end(ap);
	return cmd_usage_error(a);
}

int
cmd_number(const struct cmd_args *a, const char *what, const char *word,
    long long min, long long max, long long *out)
{
	char msg[160];

	if (numparse_ll(word, min, max, out, msg, sizeof(msg)) == 0)
		return 0;
	(void)cmd_error(a, "%s: %s", what, msg);
	return -1;
}

/* An option as the messages spell it: -x if it has a letter. */
static const char *
opt_spelling(const struct cmd_option *o, char *buf, size_t size)
{
	if (o->letter != 0)
		snprintf(buf, size, "-%c", o->letter);
	else
		snprintf(buf, size, "--%s", o->name);
	return buf;
}

/*
 * The option whose long name is the len bytes at s: exact, else the
 * one it begins; OPT_NONE when none, or several, match.
 */
static int
find_long(const struct cmd_entry *e, const char *s, size_t len,
    int *ambiguous)
{
	static const struct cmd_option help = { "help", 'h', CMD_FLAG, 0, 0 };
	static const struct cmd_option format = { "format", 0, CMD_STR, 0,
	    0 };
	const struct cmd_option *o;
	int i, found = OPT_NONE, n = 0, idx;

	*ambiguous = 0;
	for (i = -2; ; i++) {
		if (i == -2)
			o = &help, idx = OPT_HELP;
		else if (i == -1) {
			if (e->formats == NULL)
				continue;
			o = &format, idx = OPT_FORMAT;
		} else if (e->options == NULL ||
		    (o = &e->options[i])->name == NULL)
			break;
		else
			idx = i;
		if (strncmp(o->name, s, len) != 0)
			continue;
		if (o->name[len] == '\0')
			return idx;
		found = idx;
		n++;
	}
	*ambiguous = n > 1;
	return n == 1 ? found : OPT_NONE;
}

static int
find_letter(const struct cmd_entry *e, int c)
{
	int i;

	if (c == 'h')
		return OPT_HELP;
	for (i = 0; e->options != NULL && e->options[i].name != NULL; i++)
		if (e->options[i].letter == c)
			return i;
	/* -f for --format, as getopt_long's loops took it, unless taken. */
	return c == 'f' && e->formats != NULL ? OPT_FORMAT : OPT_NONE;
}

static int
takes_arg(const struct cmd_entry *e, int idx)
{
	if (idx == OPT_FORMAT)
		return 1;
	if (idx < 0)
		return 0;
	return e->options[idx].kind != CMD_FLAG &&
	    e->options[idx].kind != CMD_OPTARG;
}

/* Whether word is one of the formats "a|b|c". */
static int
format_ok(const char *formats, const char *word)
{
	const char *p = formats;
	size_t n = strlen(word);

	while (*p != '\0') {
		if (strncmp(p, word, n) == 0 && (p[n] == '|' || p[n] == '\0'))
			return 1;
		p += strcspn(p, "|");
		p += *p == '|';
	}
	return 0;
}

/* "text, csv or json" for "text|csv|json". */
static void
format_list(const char *formats, char *buf, size_t size)
{
	const char *p = formats, *bar;
	size_t len = 0;

	buf[0] = '\0';
	while (*p != '\0' && len < size) {
		bar = p + strcspn(p, "|");
		len += (size_t)snprintf(buf + len, size - len, "%s%.*s",
		    p == formats ? "" : *bar == '\0' ? " or " : ", ",
		    (int)(bar - p), p);
		p = *bar == '|' ? bar + 1 : bar;
	}
}

/*
 * Option idx given, with arg (NULL for a flag).  -1 to go on, else the
 * exit status.
 */
static int
take(struct cmd_args *a, int idx, const char *arg)
{
	const struct cmd_entry *e = a->entry;
	const struct cmd_option *o;
	struct cmd_optval *v;
	char what[128], list[256];

	if (idx == OPT_HELP) {
		cmd_entry_usage(stdout, e, NULL);
		return 0;
	}
	if (idx == OPT_FORMAT) {
		if (!format_ok(e->formats, arg)) {
			format_list(e->formats, list, sizeof(list));
			return parse_error(a, "unknown format '%s' (%s)", arg,
			    list);
		}
		a->format = arg;
		return -1;
	}
	o = &e->options[idx];
	v = &a->val[idx];
	if (o->kind == CMD_NUM && cmd_number(a, opt_spelling(o, what,
	    sizeof(what)), arg, o->min, o->max, &v->num) != 0)
		return 2;
	v->v[v->n++] = arg;
	v->seq = ++a->nseq;
	return -1;
}

/* A long option at argv[*i], "--" stripped into s. */
static int
parse_long(struct cmd_args *a, int argc, char **argv, int *i, const char *s)
{
	const struct cmd_entry *e = a->entry;
	const char *eq = strchr(s, '=');
	size_t len = eq != NULL ? (size_t)(eq - s) : strlen(s);
	const char *arg = eq != NULL ? eq + 1 : NULL;
	int idx, ambiguous;

	idx = find_long(e, s, len, &ambiguous);
	if (idx == OPT_NONE)
		return parse_error(a, "%s option '--%.*s'", ambiguous ?
		    "ambiguous" : "unknown", (int)len, s);
	if (!takes_arg(e, idx)) {
		if (arg != NULL && (idx < 0 || e->options[idx].kind !=
		    CMD_OPTARG))
			return parse_error(a, "--%.*s takes no argument",
			    (int)len, s);
		return take(a, idx, arg);
	}
	if (arg == NULL) {
		if (*i + 1 >= argc)
			return parse_error(a, "--%.*s needs an argument",
			    (int)len, s);
		arg = argv[++*i];
	}
	return take(a, idx, arg);
}

/* Short options at argv[*i], "-" stripped into s: -abc, -xARG, -x ARG. */
static int
parse_short(struct cmd_args *a, int argc, char **argv, int *i, const char *s)
{
	int idx, rv;

	for (; *s != '\0'; s++) {
		if ((idx = find_letter(a->entry, (unsigned char)*s)) ==
		    OPT_NONE)
			return parse_error(a, "unknown option '-%c'", *s);
		if (!takes_arg(a->entry, idx)) {
			if ((rv = take(a, idx, NULL)) >= 0)
				return rv;
			continue;
		}
		if (s[1] != '\0')
			return take(a, idx, s + 1);
		if (*i + 1 >= argc)
			return parse_error(a, "-%c needs an argument", *s);
		return take(a, idx, argv[++*i]);
	}
	return -1;
}

static size_t
noptions(const struct cmd_entry *e)
{
	size_t n = 0;

	while (e->options != NULL && e->options[n].name != NULL)
		n++;
	return n;
}

/*
 * An entry with actions: the action is its first word that is neither
 * an option nor an option's argument ("ltpscope -d x.db profile show ls"
 * reaches here as "profile -d x.db show ls"); it runs with the words
 * before and after it.
 */
static int
run_action(const struct cmd_entry *e, const char *name, int argc,
    char **argv)
{
	struct cmd_args a;
	const struct cmd_entry *act = NULL;
	char **nargv, sub[128];
	int i, j, ambiguous, idx, rv;

	memset(&a, 0, sizeof(a));
	a.entry = e;
	a.name = name;
	for (j = 1; j < argc; j++) {
		if (strcmp(argv[j], "-h") == 0 || strcmp(argv[j], "--help") ==
		    0) {
			cmd_entry_usage(stdout, e, NULL);
			return 0;
		}
		if (argv[j][0] != '-')
			break;
		/* An option of any action that takes its argument apart. */
		for (i = 0; e->actions[i] != NULL; i++) {
			if (argv[j][1] == '-') {
				if (strchr(argv[j], '=') != NULL)
					continue;
				idx = find_long(e->actions[i], argv[j] + 2,
				    strlen(argv[j] + 2), &ambiguous);
			} else if (argv[j][1] != '\0' && argv[j][2] == '\0')
				idx = find_letter(e->actions[i],
				    (unsigned char)argv[j][1]);
			else
				continue;
			if (takes_arg(e->actions[i], idx)) {
				j++;
				break;
			}
		}
	}
	for (i = 0; j < argc && e->actions[i] != NULL; i++)
		if (strcmp(e->actions[i]->name, argv[j]) == 0)
			act = e->actions[i];
	if (act == NULL) {
		if (j < argc)
			return parse_error(&a, "unknown action '%s'", argv[j]);
		return cmd_usage_error(&a);
	}
	nargv = xcalloc((size_t)argc, sizeof(*nargv));
	nargv[0] = argv[j];
	memcpy(nargv + 1, argv + 1, (size_t)(j - 1) * sizeof(*nargv));
	memcpy(nargv + j, argv + j + 1, (size_t)(argc - j - 1) *
	    sizeof(*nargv));
	snprintf(sub, sizeof(sub), "%s %s", name != NULL ? name : e->name,
	    act->name);
	rv = cmd_entry_run(act, sub, argc - 1, nargv);
	free(nargv);
	return rv;
}

int
cmd_entry_run(const struct cmd_entry *e, const char *name, int argc,
    char **argv)
{
	struct cmd_args a;
	size_t n, k;
	int i, rv = -1, dashdash = 0;

	if (e->actions != NULL)
		return run_action(e, name, argc, argv);
	memset(&a, 0, sizeof(a));
	a.entry = e;
	a.name = name;
	n = noptions(e);
	a.val = xcalloc(n + 1, sizeof(*a.val));
	for (k = 0; k < n; k++)
		a.val[k].v = xcalloc((size_t)argc + 1, sizeof(*a.val[k].v));
	a.argv = xcalloc((size_t)argc + 1, sizeof(*a.argv));
	for (i = 1; i < argc && rv < 0; i++) {
		if (dashdash || argv[i][0] != '-' || argv[i][1] == '\0')
			a.argv[a.argc++] = argv[i];
		else if (strcmp(argv[i], "--") == 0)
			dashdash = 1;
		else if (argv[i][1] == '-')
			rv = parse_long(&a, argc, argv, &i, argv[i] + 2);
		else
			rv = parse_short(&a, argc, argv, &i, argv[i] + 1);
	}
	if (rv < 0 && (a.argc < e->args_min || (e->args_max != CMD_ANY &&
	    a.argc > e->args_max)))
		rv = cmd_usage_error(&a);
	if (rv < 0)
		rv = e->exec(&a);
	for (k = 0; k < n; k++)
		free(a.val[k].v);
	free(a.val);
	free(a.argv);
	return rv;
}

/* The index of option name of a's entry; a name it lacks is a bug. */
static const struct cmd_optval *
val_of(const struct cmd_args *a, const char *name)
{
	size_t i;

	for (i = 0; a->entry->options != NULL &&
	    a->entry->options[i].name != NULL; i++)
		if (strcmp(a->entry->options[i].name, name) == 0)
			return &a->val[i];
	fprintf(stderr, "ltpscope: %s has no option --%s\n", a->entry->name,
	    name);
	abort();
}

size_t
cmd_has(const struct cmd_args *a, const char *name)
{
	return val_of(a, name)->n;
}

const char *
cmd_str(const struct cmd_args *a, const char *name)
{
	const struct cmd_optval *v = val_of(a, name);

	return v->n > 0 ? v->v[v->n - 1] : NULL;
}

const char **
cmd_list(const struct cmd_args *a, const char *name, size_t *np)
{
	const struct cmd_optval *v = val_of(a, name);

	*np = v->n;
	return v->v;
}

int
cmd_later(const struct cmd_args *a, const char *first, const char *second)
{
	const struct cmd_optval *v1 = val_of(a, first), *v2 = val_of(a,
	    second);

	if (v1->seq == 0 && v2->seq == 0)
		return -1;
	return v2->seq > v1->seq;
}

long long
cmd_num(const struct cmd_args *a, const char *name, long long dflt)
{
	const struct cmd_optval *v = val_of(a, name);

	return v->n > 0 ? v->num : dflt;
}

int
cmd_real(const struct cmd_args *a, const char *name, double min,
    double max, double *out)
{
	const char *s = cmd_str(a, name);
	char msg[160];

	if (s == NULL || numparse_double(s, min, max, out, msg,
	    sizeof(msg)) == 0)
		return 0;
	(void)cmd_error(a, "--%s: %s", name, msg);
	return -1;
}

int
cmd_json(const struct cmd_args *a)
{
	return a->format != NULL && strcmp(a->format, "json") == 0;
}
