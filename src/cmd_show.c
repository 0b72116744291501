/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ltpscope show: the results of one run, or with --output the stored
 * output of one of its tests, made safe for a terminal; with --source,
 * the lines of the test's source around each line that failed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/cli.h"
#include "ltpscope/cmd.h"
#include "ltpscope/json.h"
#include "ltpscope/kmsg.h"
#include "ltpscope/ltpmeta.h"
#include "ltpscope/ltpout.h"
#include "ltpscope/ltpsrc.h"
#include "ltpscope/paths.h"
#include "ltpscope/settings.h"
#include "ltpscope/textsafe.h"

/* Lines shown before and after a failing line. */
#define SHOW_CONTEXT	3

/*
 * Writes test output so that it cannot drive the terminal: the same
 * placeholders as the explorer (textsafe.h), newlines kept.
 */
static void
show_sanitized(FILE *fp, const unsigned char *p, size_t len)
{
	const char *s = (const char *)p;
	size_t left = len, n, outlen;
	char *safe;

	/* Newlines and tabs go through as they are; they cannot harm. */
	while (left > 0) {
		for (n = 0; n < left && s[n] != '\n' && s[n] != '\t'; n++)
			continue;
		safe = textsafe_display(s, n, 0, &outlen);
		fwrite(safe, 1, outlen, fp);
		free(safe);
		if (n < left) {
			putc(s[n], fp);
			n++;
		}
		s += n;
		left -= n;
	}
}

/*
 * show_sanitized() a piece at a time, as store_read_output() hands the
 * output out: what is shown of each byte depends on no byte after it
 * but those of its own UTF-8 character, so only a character cut at a
 * piece's end waits for the next piece.  Memory: one piece.
 */
struct show_stream {
	FILE		*fp;
	unsigned char	 held[4];	/* a character's first bytes */
	size_t		 nheld;
};

/* How long the UTF-8 character whose first byte is c says it is. */
static size_t
show_char_len(unsigned char c)
{
	return c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

/* Where a UTF-8 character that the end of p cuts begins, else len. */
static size_t
show_cut_char(const unsigned char *p, size_t len)
{
	size_t i, j;

	for (i = len > 3 ? len - 3 : 0; i < len; i++) {
		if (p[i] < 0xc0)
			continue;
		for (j = i + 1; j < len && (p[j] & 0xc0) == 0x80; j++)
			continue;
		if (j == len && len - i < show_char_len(p[i]))
			return i;
	}
	return len;
}

static void
show_stream_feed(void *arg, const char *buf, size_t len)
{
	struct show_stream *ss = arg;
	const unsigned char *p = (const unsigned char *)buf;
	size_t need, cut;

	if (ss->nheld > 0) {
		/* The rest of the held character, as far as it goes. */
		need = show_char_len(ss->held[0]);
		while (ss->nheld < need && len > 0 && (*p & 0xc0) == 0x80) {
			ss->held[ss->nheld++] = *p++;
			len--;
		}
		if (ss->nheld < need && len == 0)
			return;
		show_sanitized(ss->fp, ss->held, ss->nheld);
		ss->nheld = 0;
	}
	cut = show_cut_char(p, len);
	show_sanitized(ss->fp, p, cut);
	memcpy(ss->held, p + cut, len - cut);
	ss->nheld = len - cut;
}

static void
show_run_header(const struct store_run *r)
{
	char when[32];

	cli_time(r->started, when, sizeof(when));
	printf("run %" PRId64 "%s%s%s: %s UTC, %s, %s %s %s %s, ltp %s\n",
	    r->id, r->label[0] != '\0' ? " \"" : "", cli_field(r->label),
	    r->label[0] != '\0' ? "\"" : "", when,
	    store_run_state_name(r->state),
	    r->host[0] ? cli_field(r->host) : "-",
	    r->arch[0] ? r->arch : "-", r->os_name[0] ? r->os_name : "-",
	    r->os_version, r->ltp_version[0] ? r->ltp_version : "-");
}

/* The run's verdicts in one line, and how many carry the mark. */
static void
show_counts(const struct store_run *run, unsigned nkmarked)
{
	int i, first = 1;

	for (i = 0; i < TS__COUNT; i++) {
		if (run->counts[i] == 0)
			continue;
		printf("%s%u %s", first ? "" : ", ", run->counts[i],
		    test_status_name(i));
		first = 0;
	}
	if (run->nenvmarked > 0)
		printf(" (%u of them with an env warning)", run->nenvmarked);
	if (nkmarked > 0)
		printf(" (%u after which the kernel warned or was tainted)",
		    nkmarked);
	if (!first || run->nenvmarked > 0 || nkmarked > 0)
		printf("\n");
}

static void
show_text(const struct store_run *run, const struct store_result *v,
    size_t n)
{
	char sig[16], code[16], kern[64];
	unsigned nkmarked = 0;
	size_t i;

	show_run_header(run);
	printf("%5s  %-24s %-20s %-11s %4s %5s %9s %4s %4s %4s %4s %4s\n",
	    "SEQ", "TEST", "SYSCALL", "STATUS", "EXIT", "SIG", "MS",
	    "PASS", "FAIL", "BROK", "CONF", "WARN");
	for (i = 0; i < n; i++) {
		const struct store_result *r = &v[i];

		(void)snprintf(sig, sizeof(sig), "%d", r->signal);
		/* No exit status (killed, never run): "-", as for SIG. */
		(void)snprintf(code, sizeof(code), "%d", r->exit_code);
		kern[0] = '\0';
		if (store_result_kmsg_marked(r)) {
			nkmarked++;
			(void)snprintf(kern, sizeof(kern), "  kernel %s",
			    r->kmsg_tainted ? "tainted" : "warned");
		}
		printf("%5" PRId64 "  %-24s %-20s %-11s %4s %5s %9" PRId64
		    " %4u %4u %4u %4u %4u%s%s%s\n", r->seq,
		    cli_field(r->tag),
		    r->syscall[0] ? cli_field(r->syscall) : "-",
		    test_status_name(r->status), r->exit_code >= 0 ? code :
		    "-", r->signal ? sig : "-", r->duration_ms, r->npass,
		    r->nfail, r->nbroken, r->nconf, r->nwarn,
		    test_status_env_marked(r->status, r->nenvwarn) ?
		    "  env warning" : "", kern, r->capped ?
		    "  (output capped)" : "");
	}
	show_counts(run, nkmarked);
}

/* A result's JSON object, but for its closing brace. */
static void
show_json_fields(const struct store_result *r)
{
	printf("{\"seq\": %" PRId64 ", \"tag\": ", r->seq);
	json_write_str(stdout, r->tag, strlen(r->tag), 0);
	printf(", \"syscall\": ");
	json_write_str(stdout, r->syscall, strlen(r->syscall), 0);
	printf(", \"status\": \"%s\", \"exit_code\": ",
	    test_status_name(r->status));
	if (r->exit_code >= 0)
		printf("%d", r->exit_code);
	else
		printf("null");
	printf(", \"signal\": %d, "
	    "\"duration_ms\": %" PRId64 ", \"pass\": %u, \"fail\": %u, "
	    "\"broken\": %u, \"conf\": %u, \"warn\": %u, "
	    "\"env_warnings\": %u, \"env_warning\": %s, "
	    "\"output_size\": %" PRId64 ", \"stored_size\": %" PRId64
	    ", \"capped\": %s", r->signal, r->duration_ms, r->npass,
	    r->nfail, r->nbroken, r->nconf, r->nwarn, r->nenvwarn,
	    test_status_env_marked(r->status, r->nenvwarn) ? "true" :
	    "false", r->output_size, r->stored_size, r->capped ? "true" :
	    "false");
	printf(", \"kernel_lines\": %u, \"kernel_warnings\": %u, "
	    "\"kernel_tainted\": %s, \"kernel_marked\": %s", r->kmsg_lines,
	    r->kmsg_warnings, r->kmsg_tainted ? "true" : "false",
	    store_result_kmsg_marked(r) ? "true" : "false");
}

/* The kernel's lines during the test, when it said any. */
static void
show_json_kernel(struct store *st, const struct store_result *r)
{
	struct store_kmsg k;
	struct diaglist quiet;

	if (r->kmsg_lines == 0)
		return;
	diag_init(&quiet);
	if (store_get_kmsg(st, r->id, &k, &quiet) == STORE_OK) {
		printf(", \"kernel\": ");
		json_write_str(stdout, k.text, k.len, 0);
	}
	store_kmsg_clear(&k);
	diag_free(&quiet);
}

/*
 * After a test's output, what the kernel said while it ran, behind a
 * marker, made safe as the output is.
 */
static void
show_kernel_text(struct store *st, const struct store_result *r)
{
	struct store_kmsg k;
	struct diaglist quiet;
	char marker[160];

	if (r->kmsg_lines == 0 && !r->kmsg_tainted)
		return;
	diag_init(&quiet);
	if (store_get_kmsg(st, r->id, &k, &quiet) == STORE_OK) {
		(void)kmsg_marker(marker, sizeof(marker), k.nlines, k.nwarn,
		    k.taint_before, k.taint_after);
		printf("%s\n", marker);
		show_sanitized(stdout, (const unsigned char *)k.text, k.len);
		if (k.capped)
			printf("[ltpscope: kernel text capped; %u lines in "
			    "all]\n", k.nlines);
		if (k.nlost > 0)
			printf("[ltpscope: %u kernel records were "
			    "overwritten before they were read]\n", k.nlost);
	}
	store_kmsg_clear(&k);
	diag_free(&quiet);
}

static void
show_json_result(const struct store_result *r)
{
	show_json_fields(r);
	printf("}");
}

static void
show_json_kv(const char *key, const char *val)
{
	printf(", \"%s\": ", key);
	json_write_str(stdout, val, strlen(val), 0);
}

/*
 * The run as JSON: what it ran on, so that "ltpscope import" can make
 * it a run elsewhere (a Linux reference, say), and with outputs each
 * test's stored output (bytes that are not UTF-8 read as U+FFFD).
 */
static void
show_json(struct store *st, const struct store_run *run,
    const struct store_result *v, size_t n, int outputs)
{
	struct store_output o;
	struct diaglist quiet;
	unsigned nkmarked = 0;
	size_t i;

	printf("{\"run\": %" PRId64, run->id);
	show_json_kv("label", run->label);
	show_json_kv("host", run->host);
	show_json_kv("uname", run->uname);
	show_json_kv("os_name", run->os_name);
	show_json_kv("os_version", run->os_version);
	show_json_kv("arch", run->arch);
	show_json_kv("ltp_version", run->ltp_version);
	printf(", \"started\": %" PRId64 ", \"ended\": %" PRId64,
	    run->started, run->ended);
	for (i = 0; i < n; i++)
		nkmarked += (unsigned)store_result_kmsg_marked(&v[i]);
	printf(", \"state\": \"%s\", \"env_warned\": %u, "
	    "\"kernel_marked\": %u, \"results\": [",
	    store_run_state_name(run->state), run->nenvmarked, nkmarked);
	for (i = 0; i < n; i++) {
		printf("%s\n  ", i > 0 ? "," : "");
		show_json_fields(&v[i]);
		if (!outputs) {
			printf("}");
			continue;
		}
		diag_init(&quiet);
		if (store_get_output(st, v[i].id, &o, &quiet) != STORE_OK)
			memset(&o, 0, sizeof(o));
		diag_free(&quiet);
		printf(", \"output\": ");
		json_write_str(stdout, o.data != NULL ? o.data : "",
		    o.stored_size, 0);
		show_json_kernel(st, &v[i]);
		printf("}");
		store_output_clear(&o);
	}
	printf("%s]}\n", n > 0 ? "\n" : "");
}

static int
show_output(struct store *st, int64_t run_id, const char *tag, int json)
{
	struct store_result r;
	struct store_output o;
	struct diaglist dl;
	int rv = 0;

	diag_init(&dl);
	if (store_find_result(st, run_id, tag, &r, &dl) != STORE_OK) {
		cli_diags(&dl);
		diag_free(&dl);
		return 1;
	}
	if (!json) {
		struct show_stream ss = { stdout, { 0 }, 0 };

		if (store_read_output(st, r.id, show_stream_feed, &ss, &o,
		    &dl) != STORE_OK) {
			cli_diags(&dl);
			rv = 1;
		}
		/* A character the output's end cut: shown as its bytes. */
		show_sanitized(stdout, ss.held, ss.nheld);
		show_kernel_text(st, &r);
	} else if (store_get_output(st, r.id, &o, &dl) != STORE_OK) {
		cli_diags(&dl);
		rv = 1;
	} else {
		printf("{\"run\": %" PRId64 ", \"result\": ", run_id);
		show_json_result(&r);
		printf(", \"output\": ");
		json_write_str(stdout, o.data, o.stored_size, 0);
		show_json_kernel(st, &r);
		printf("}\n");
	}
	store_output_clear(&o);
	store_result_clear(&r);
	diag_free(&dl);
	return rv;
}

/*
 * --source: the file a failing line names, read once for all its lines
 * (a test fails at several), or the error once.
 */
struct show_src {
	const char	*root;
	const struct ltpmeta_test *meta;
	const char	*tag;
	char		 base[256];	/* the file of text, "" the test's */
	int		 tried;
	char		*text;
	size_t		 len;
	char		 path[LTPSRC_PATHLEN];
	int		 rv;
};

static int
show_src_load(struct show_src *ss, const char *base)
{
	struct diaglist dl;

	if (ss->tried && strcmp(ss->base, base) == 0)
		return ss->text != NULL ? 0 : -1;
	free(ss->text);
	ss->text = NULL;
	ss->tried = 1;
	snprintf(ss->base, sizeof(ss->base), "%s", base);
	diag_init(&dl);
	if (ltpsrc_read(ss->root, ss->meta != NULL ? ss->meta->fname : NULL,
	    ss->tag, *base != '\0' ? base : NULL, &ss->text, &ss->len,
	    ss->path, sizeof(ss->path), &dl) != 0) {
		cli_diags(&dl);
		ss->rv = 1;
	}
	diag_free(&dl);
	return ss->text != NULL ? 0 : -1;
}

/* The lines around lineno, numbered, it marked with '>'. */
static void
show_src_lines(const struct show_src *ss, long lineno)
{
	const char *l;
	size_t len;
	long i;

	printf("%s:%ld\n", ss->path, lineno);
	if (ltpsrc_line(ss->text, ss->len, lineno, &l, &len) != 0) {
		printf("  (the file has fewer lines: not the source that "
		    "ran?)\n");
		return;
	}
	for (i = lineno > SHOW_CONTEXT ? lineno - SHOW_CONTEXT : 1;
	    i <= lineno + SHOW_CONTEXT; i++) {
		if (ltpsrc_line(ss->text, ss->len, i, &l, &len) != 0)
			break;
		printf("%c%6ld  ", i == lineno ? '>' : ' ', i);
		show_sanitized(stdout, (const unsigned char *)l, len);
		putchar('\n');
	}
}

static void
show_src_line(struct show_src *ss, const struct ltpout_line *line,
    int *nfail)
{
	char base[256];
	long lineno;

	if (line->cls != LC_TFAIL && line->cls != LC_TBROK)
		return;
	if ((*nfail)++ > 0)
		putchar('\n');
	show_sanitized(stdout, (const unsigned char *)line->text,
	    line->len);
	putchar('\n');
	/* The old library names no line: the test's file, at its top. */
	if (!ltpsrc_line_ref(line->text, line->len, base, sizeof(base),
	    &lineno))
		base[0] = '\0';
	if (show_src_load(ss, base) != 0)
		return;
	if (lineno > 0)
		show_src_lines(ss, lineno);
	else
		printf("%s (the line names no line of it)\n", ss->path);
}

static int
show_source(struct store *st, int64_t run_id, const char *tag,
    const char *root)
{
	struct show_src ss;
	struct store_result r;
	struct store_output o;
	struct ltpout_line line;
	struct ltpmeta *meta;
	struct ltpout *p;
	struct diaglist dl, quiet;
	const char *buf;
	size_t left;
	int nfail = 0;

	diag_init(&dl);
	if (store_find_result(st, run_id, tag, &r, &dl) != STORE_OK ||
	    store_get_output(st, r.id, &o, &dl) != STORE_OK) {
		cli_diags(&dl);
		diag_free(&dl);
		return 1;
	}
	diag_free(&dl);
	/*
	 * The install's metadata ($LTPROOT, as run finds it) names the
	 * file; without it the file is guessed from the test's name.
	 */
	diag_init(&quiet);
	meta = ltpmeta_load_root(paths_ltproot(NULL), &quiet);
	diag_free(&quiet);
	memset(&ss, 0, sizeof(ss));
	ss.root = root;
	ss.tag = r.tag;
	ss.meta = meta != NULL ? ltpmeta_resolve(meta, r.tag, NULL) : NULL;
	p = ltpout_new();
	buf = o.data != NULL ? o.data : "";
	left = o.stored_size;
	while (ltpout_scan(p, &buf, &left, &line))
		show_src_line(&ss, &line, &nfail);
	while (ltpout_flush(p, &line))
		show_src_line(&ss, &line, &nfail);
	if (nfail == 0)
		printf("%s: no failing line in run %" PRId64 " (%s)\n",
		    cli_field(r.tag), run_id, test_status_name(r.status));
	ltpout_free(p);
	free(ss.text);
	ltpmeta_free(meta);
	store_output_clear(&o);
	store_result_clear(&r);
	return ss.rv;
}

static int
show_run(struct store *st, int64_t run_id, int json, int outputs)
{
	struct store_result *v;
	struct store_run run;
	struct diaglist dl;
	size_t n;
	int rv = 0;

	diag_init(&dl);
	if (store_get_run(st, run_id, &run, &dl) != STORE_OK) {
		cli_diags(&dl);
		diag_free(&dl);
		return 1;
	}
	if (store_run_results(st, run_id, &v, &n, &dl) != STORE_OK) {
		cli_diags(&dl);
		rv = 1;
	} else {
		if (json)
			show_json(st, &run, v, n, outputs);
		else
			show_text(&run, v, n);
		store_results_free(v, n);
	}
	store_run_clear(&run);
	diag_free(&dl);
	return rv;
}

static int
show_exec(struct cmd_args *a)
{
	struct store *st;
	const char *test = cmd_str(a, "output"), *runarg = a->argv[0];
	const char *src = cmd_str(a, "source"), *root;
	struct settings set;
	int64_t run_id;
	int json = cmd_json(a), rv, outputs = cmd_has(a, "with-outputs") > 0;

	if (outputs && (!json || test != NULL))
		return cmd_usage_error(a);
	if (src != NULL && (json || test != NULL || outputs))
		return cmd_usage_error(a);
	root = cmd_str(a, "ltp-src");
	settings_init(&set);
	if (src != NULL && root == NULL) {
		cli_settings(&set);
		root = set.has_ltp_src ? set.ltp_src : NULL;
	}
	if ((rv = cli_open_run(cmd_str(a, "db"), runarg, a->name, &st,
	    &run_id)) == 0) {
		if (src != NULL)
			rv = show_source(st, run_id, src, root);
		else if (test != NULL)
			rv = show_output(st, run_id, test, json);
		else
			rv = show_run(st, run_id, json, outputs);
		store_close(st);
	}
	settings_free(&set);
	return rv;
}

static const struct cmd_option show_options[] = {
	{ .name = "db", .letter = 'd', .kind = CMD_STR },
	{ .name = "output", .letter = 'o', .kind = CMD_STR },
	{ .name = "with-outputs", .kind = CMD_FLAG },
	{ .name = "source", .kind = CMD_STR },
	{ .name = "ltp-src", .kind = CMD_STR },
	{ .name = NULL }
};

const struct cmd_entry cmd_show_entry = {
	.name = "show",
	.exec = show_exec,
	.options = show_options,
	.formats = "text|json",
	.args_min = 1,
	.args_max = 1,
	.usage = "show run|last [-d db] [--format text|json] "
	    "[--output test]\n"
	    "show run|last [-d db] --format json --with-outputs\n"
	    "show run|last [-d db] --source test [--ltp-src dir]",
	.summary = "show a run's results, a test's output or its source",
};
