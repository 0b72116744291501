/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fuzz target: the JSON reader under both its readings (strict, and
 * the looser one for LTP's metadata), every node walked, and every
 * string and number written back out by the JSON writer.
 */
#include <stdint.h>

#include "ltpscope/json.h"
#include "fuzz.h"

static void
fz_json_walk(const struct json *v, FILE *fp, unsigned depth)
{
	int64_t i64;
	size_t i;

	FUZZ_CHECK(depth <= JSON_DEPTH_MAX + 1);
	(void)json_type_name(v->type);
	switch (v->type) {
	case JSON_STRING:
		FUZZ_CHECK(v->str != NULL && v->str[v->len] == '\0');
		json_write_str(fp, v->str, v->len, 0);
		json_write_str(fp, v->str, v->len, JSON_W_LONE_DC);
		json_write_str(fp, v->str, v->len, JSON_W_BYTES);
		break;
	case JSON_NUMBER:
		FUZZ_CHECK(v->str != NULL);
		(void)json_int64(v, &i64);
		(void)json_number(v, 0);
		break;
	case JSON_ARRAY:
		FUZZ_CHECK(json_count(v) == v->n);
		for (i = 0; i < v->n; i++)
			fz_json_walk(json_at(v, i), fp, depth + 1);
		FUZZ_CHECK(json_at(v, v->n) == NULL);
		break;
	case JSON_OBJECT:
		for (i = 0; i < v->n; i++) {
			FUZZ_CHECK(v->members[i].key != NULL);
			json_write_str(fp, v->members[i].key,
			    v->members[i].keylen, 0);
			/* The first of duplicate keys is the one found. */
			if (strlen(v->members[i].key) == v->members[i].keylen)
				FUZZ_CHECK(json_get(v, v->members[i].key) !=
				    NULL);
			fz_json_walk(v->members[i].value, fp, depth + 1);
		}
		break;
	default:
		(void)json_bool(v, -1);
		break;
	}
}

FUZZ_TARGET(json)
{
	struct json_limits loose;
	struct diaglist dl;
	struct json *root;
	FILE *fp;

	if ((fp = fopen("/dev/null", "w")) == NULL)
		abort();
	diag_init(&dl);
	if (json_parse(&root, (const char *)data, size, "x.json", NULL,
	    &dl) == 0) {
		fz_json_walk(root, fp, 0);
		json_free(root);
	} else
		FUZZ_CHECK(root == NULL && dl.nerrors == 1);
	memset(&loose, 0, sizeof(loose));
	loose.flags = JSON_DUPKEY_WARN | JSON_NO_NUL | JSON_COL_CHARS;
	loose.max_depth = 16;
	if (json_parse(&root, (const char *)data, size, "ltp.json", &loose,
	    &dl) == 0) {
		fz_json_walk(root, fp, 0);
		json_free(root);
	}
	diag_free(&dl);
	fclose(fp);
	return 0;
}
