/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The strict JSON reader: valid documents give the tree they should
 * (escapes, surrogate pairs, big numbers, NULs in strings), and every
 * kind of invalid input is refused with the line and column of the
 * offending byte; nesting and size limits hold.  The string writer
 * escapes what JSON needs, and each flag keeps its output's bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/json.h"
#include "tap.h"

static struct json *
parse(const char *s, struct diaglist *dl)
{
	struct json *v;

	diag_init(dl);
	if (json_parse(&v, s, strlen(s), "t.json", NULL, dl) != 0)
		return NULL;
	return v;
}

static void
check_scalars(void)
{
	/* Documents that are an int64. */
	static const struct {
		const char	*doc;
		int64_t		 want;
		const char	*what;
	} ints[] = {
		{ "-12", -12, "negative integer" },
		{ "9223372036854775807", INT64_MAX, "INT64_MAX exact" },
		{ "2.5e3", 2500, "2.5e3 is the integer 2500" },
		{ "-0", 0, "-0" },
	};
	struct diaglist dl;
	struct json *v;
	int64_t i;
	size_t k;

	v = parse(" null ", &dl);
	ok(v != NULL && v->type == JSON_NULL, "null");
	json_free(v);
	diag_free(&dl);
	v = parse("true", &dl);
	is_int(json_bool(v, -1), 1, "true");
	json_free(v);
	diag_free(&dl);
	v = parse("false", &dl);
	is_int(json_bool(v, -1), 0, "false");
	json_free(v);
	diag_free(&dl);

	for (k = 0; k < sizeof(ints) / sizeof(ints[0]); k++) {
		v = parse(ints[k].doc, &dl);
		ok(json_int64(v, &i) == 0 && i == ints[k].want, "%s",
		    ints[k].what);
		json_free(v);
		diag_free(&dl);
	}
	v = parse("123456789012345678901234567890", &dl);
	ok(v != NULL, "a number beyond int64 parses");
	ok(json_int64(v, &i) == -1, "... but is no int64");
	is_str(v != NULL ? v->str : NULL, "123456789012345678901234567890",
	    "... and keeps its literal text");
	ok(json_number(v, 0) > 1.2e29 && json_number(v, 0) < 1.3e29,
	    "... and its double value");
	json_free(v);
	diag_free(&dl);
	v = parse("1e400", &dl);
	ok(v != NULL && json_int64(v, &i) == -1, "1e400 parses, no int");
	json_free(v);
	diag_free(&dl);
	v = parse("0.5", &dl);
	ok(json_int64(v, &i) == -1 && json_number(v, 0) == 0.5,
	    "0.5 is a number, not an integer");
	json_free(v);
	diag_free(&dl);
}

static void
check_strings(void)
{
	/* Strings without a NUL: what they read as. */
	static const struct {
		const char	*doc;
		const char	*want;
		const char	*what;
	} strs[] = {
		{ "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"", "a\"b\\c/d\b\f\n\r\t",
		    "simple escapes" },
		{ "\"\\u00e9\\u20AC\"", "\xc3\xa9\xe2\x82\xac",
		    "\\u escapes to UTF-8 (2 and 3 bytes)" },
		{ "\"\\ud83d\\ude00\"", "\xf0\x9f\x98\x80",
		    "surrogate pair to one 4-byte character" },
		{ "\"raw \xf0\x9f\x98\x80 \xc3\xa9\"",
		    "raw \xf0\x9f\x98\x80 \xc3\xa9", "raw UTF-8 kept" },
	};
	struct diaglist dl;
	struct json *v;
	size_t k;

	for (k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
		v = parse(strs[k].doc, &dl);
		is_str(json_string(v, NULL), strs[k].want, "%s", strs[k].what);
		json_free(v);
		diag_free(&dl);
	}
	v = parse("\"a\\u0000b\"", &dl);
	ok(v != NULL && v->len == 3 && memcmp(v->str, "a\0b", 3) == 0,
	    "\\u0000 kept, length exact");
	json_free(v);
	diag_free(&dl);
	v = parse("\"\"", &dl);
	ok(v != NULL && v->len == 0 && json_string(v, NULL)[0] == '\0',
	    "empty string");
	json_free(v);
	diag_free(&dl);
}

static void
check_tree(void)
{
	static const char doc[] =
	    "\xef\xbb\xbf{\n"
	    "  \"name\": \"kirk\",\n"
	    "  \"list\": [1, [2, 3], {\"x\": null}],\n"
	    "  \"empty\": {}, \"none\": [],\n"
	    "  \"n\\u0041me\": true\n"
	    "}\n";
	struct diaglist dl;
	struct json *v;
	const struct json *l;
	int64_t i;

	v = parse(doc, &dl);
	if (!ok(v != NULL, "an object parses (BOM skipped)")) {
		diag_print(&dl, stdout, "# ");
		diag_free(&dl);
		return;
	}
	is_int(json_count(v), 5, "five members");
	is_str(json_string(json_get(v, "name"), NULL), "kirk", "get by key");
	ok(json_get(v, "nope") == NULL, "missing key: NULL");
	is_int(json_bool(json_get(v, "nAme"), 0), 1,
	    "escaped key differs from 'name'");
	l = json_get(v, "list");
	is_int(json_count(l), 3, "array of three");
	ok(json_int64(json_at(l, 0), &i) == 0 && i == 1, "item 0");
	is_int(json_count(json_at(l, 1)), 2, "nested array");
	ok(json_get(json_at(l, 2), "x") != NULL &&
	    json_get(json_at(l, 2), "x")->type == JSON_NULL,
	    "object in array");
	ok(json_at(l, 3) == NULL, "out of range: NULL");
	is_int(json_count(json_get(v, "empty")), 0, "empty object");
	is_int(json_count(json_get(v, "none")), 0, "empty array");
	is_int(l->line, 3, "a value knows its line");
	is_int(l->col, 11, "... and its column");
	is_str(json_type_name(l->type), "array", "type name");
	json_free(v);
	diag_free(&dl);
}

/* Each bad document: the message part and line:col expected. */
static const struct badcase {
	const char	*doc;
	unsigned long	 line;
	unsigned	 col;
	const char	*msg;
} bad[] = {
	{ "", 1, 1, "unexpected end of input" },
	{ "   \n  ", 2, 3, "unexpected end of input" },
	{ "[1, 2,]", 1, 7, "unexpected ']'" },
	{ "{\"a\": 1,}", 1, 9, "object key (a string) expected" },
	{ "{\"a\" 1}", 1, 6, "':' expected" },
	{ "{\"a\": 1 \"b\": 2}", 1, 9, "',' or '}' expected" },
	{ "[1 2]", 1, 4, "',' or ']' expected" },
	{ "[1,\n  2,\n  x]", 3, 3, "unexpected 'x'" },
	{ "{'a': 1}", 1, 2, "object key (a string) expected" },
	{ "01", 1, 1, "leading zero" },
	{ "1.", 1, 3, "digit expected after '.'" },
	{ "1e+", 1, 4, "digit expected in exponent" },
	{ "-", 1, 1, "invalid number" },
	{ "+1", 1, 1, "unexpected '+'" },
	{ "NaN", 1, 1, "unexpected 'N'" },
	{ "tru", 1, 1, "unexpected 't'" },
	{ "nul", 1, 1, "unexpected 'n'" },
	{ "\"abc", 1, 1, "unterminated string" },
	{ "[\"a\nb\"]", 1, 4, "control character 0x0a" },
	{ "\"\t\"", 1, 2, "control character 0x09" },
	{ "\"\\x\"", 1, 2, "unknown escape '\\x'" },
	{ "\"\\u12G4\"", 1, 2, "four hex digits" },
	{ "\"\\ud800\"", 1, 2, "not followed by a low one" },
	{ "\"\\ud800\\u0041\"", 1, 2, "not followed by a low one" },
	{ "\"\\udc00\"", 1, 2, "lone low surrogate" },
	{ "\"\xc3\x28\"", 1, 2, "invalid UTF-8" },
	{ "\"\xed\xa0\x80\"", 1, 2, "invalid UTF-8" },
	{ "\"\xc0\xaf\"", 1, 2, "invalid UTF-8" },
	{ "{\"a\": 1, \"a\": 2}", 1, 10, "duplicate key \"a\"" },
	{ "{} {}", 1, 4, "unexpected data after the value" },
	{ "[1] x", 1, 5, "unexpected data after the value" },
	{ "/* c */ 1", 1, 1, "unexpected '/'" },
	{ "\x01", 1, 1, "unexpected byte 0x01" },
	{ "[[[[", 1, 5, "unexpected end of input" },
	{ "{\"a\":", 1, 6, "unexpected end of input" },
};

static void
check_errors(void)
{
	struct diaglist dl;
	struct json *v;
	size_t i;
	int good;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		diag_init(&dl);
		good = json_parse(&v, bad[i].doc, strlen(bad[i].doc),
		    "bad.json", NULL, &dl) == -1 && v == NULL &&
		    dl.n == 1 && dl.nerrors == 1;
		ok(good, "bad %zu refused with one error", i);
		if (good) {
			is_int(dl.v[0].line, bad[i].line, "bad %zu: line", i);
			is_int(dl.v[0].col, bad[i].col, "bad %zu: column", i);
			has_str(dl.v[0].msg, bad[i].msg, "bad %zu: message", i);
			is_str(dl.v[0].file, "bad.json", "bad %zu: file", i);
		}
		diag_free(&dl);
	}
}

static void
check_limits(void)
{
	struct json_limits lim;
	struct diaglist dl;
	struct json *v;
	char *deep, buf[200];
	size_t i, n = 100000;

	/* Deep enough to overflow a naive parser's stack. */
	deep = malloc(2 * n + 1);
	for (i = 0; i < n; i++) {
		deep[i] = '[';
		deep[n + i] = ']';
	}
	deep[2 * n] = '\0';
	diag_init(&dl);
	ok(json_parse(&v, deep, 2 * n, "deep.json", NULL, &dl) == -1,
	    "100000 levels refused");
	ok(dl.n == 1 && dl.v[0].line == 1 && dl.v[0].col == JSON_DEPTH_MAX + 1,
	    "... at the bracket that is one too deep");
	has_str(dl.n == 1 ? dl.v[0].msg : "", "nesting deeper than 256",
	    "... saying why");
	diag_free(&dl);

	memset(&lim, 0, sizeof(lim));
	lim.max_depth = 3;
	diag_init(&dl);
	ok(json_parse(&v, "[[[1]]]", 7, "t", &lim, &dl) == 0, "3 levels ok");
	json_free(v);
	ok(json_parse(&v, "[[[[1]]]]", 9, "t", &lim, &dl) == -1,
	    "4 levels over a limit of 3");
	ok(json_parse(&v, "{\"a\":{\"b\":[{}]}}", 16, "t", &lim, &dl) == -1,
	    "objects count as levels too");
	diag_free(&dl);
	free(deep);

	lim.max_depth = 0;
	lim.max_size = 10;
	diag_init(&dl);
	snprintf(buf, sizeof(buf), "[1,2,3,4,5]");
	ok(json_parse(&v, buf, strlen(buf), "big.json", &lim, &dl) == -1,
	    "11 bytes over a 10-byte limit");
	has_str(dl.n == 1 ? dl.v[0].msg : "", "larger than the limit",
	    "... saying why");
	ok(json_parse(&v, buf, 10, "big.json", &lim, &dl) == -1,
	    "10 bytes within the limit, then a syntax error");
	diag_free(&dl);
}

static void
check_file(void)
{
	char path[1024];
	struct diaglist dl;
	struct json *v;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/f.json", tap_tmpdir());
	fp = fopen(path, "w");
	fputs("{\"k\": [\"v\"]}\n", fp);
	fclose(fp);
	diag_init(&dl);
	ok(json_parse_file(&v, path, NULL, &dl) == 0, "a file parses");
	is_str(json_string(json_at(json_get(v, "k"), 0), NULL), "v",
	    "... into its tree");
	json_free(v);
	snprintf(path, sizeof(path), "%s/missing.json", tap_tmpdir());
	ok(json_parse_file(&v, path, NULL, &dl) == -1 && v == NULL,
	    "a missing file fails");
	has_str(dl.n > 0 ? dl.v[dl.n - 1].msg : "", "cannot open",
	    "... saying so");
	diag_free(&dl);
}

/* json_write_str() of len bytes of s, as a string. */
static const char *
written(const char *s, size_t len, unsigned flags)
{
	static char out[256];
	char *buf = NULL;
	size_t n = 0;
	FILE *fp;

	out[0] = '\0';
	if ((fp = open_memstream(&buf, &n)) == NULL)
		return "open_memstream failed";
	json_write_str(fp, s, len, flags);
	(void)fclose(fp);
	snprintf(out, sizeof(out), "%s", buf);
	free(buf);
	return out;
}

static void
check_write(void)
{
	const char *s = "a\"\\\n\t\r\x01\x7f caf\xc3\xa9 \xff\xc3 \xc0\xaf";
	size_t len = strlen(s);

	is_str(written(s, len, 0), "\"a\\\"\\\\\\n\\t\\r\\u0001"
	    "\\u007f caf\xc3\xa9 \\ufffd\\ufffd \\ufffd\\ufffd\"",
	    "writer: short escapes, controls, DEL, UTF-8 kept, bad bytes "
	    "U+FFFD");
	is_str(written(s, len, JSON_W_LONE_DC), "\"a\\\"\\\\\\n\\t\\r"
	    "\\u0001\\u007f caf\xc3\xa9 \\udcff\\udcc3 \\udcc0\\udcaf\"",
	    "writer: JSON_W_LONE_DC keeps bad bytes as lone surrogates");
	is_str(written(s, len, JSON_W_DEL_RAW), "\"a\\\"\\\\\\n\\t\\r"
	    "\\u0001\x7f caf\xc3\xa9 \\ufffd\\ufffd \\ufffd\\ufffd\"",
	    "writer: JSON_W_DEL_RAW writes DEL as it is");
	is_str(written(s, len, JSON_W_BYTES), "\"a\\\"\\\\\\u000a\\u0009"
	    "\\u000d\\u0001\x7f caf\xc3\xa9 \xff\xc3 \xc0\xaf\"",
	    "writer: JSON_W_BYTES escapes only quotes and controls");
	is_str(written("x\0y", 3, 0), "\"x\\u0000y\"",
	    "writer: a NUL inside the length");
}

int
main(void)
{
	check_scalars();
	check_strings();
	check_tree();
	check_errors();
	check_limits();
	check_file();
	check_write();
	return tap_done();
}
