/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A small, strict JSON (RFC 8259) reader: a buffer in, a tree out.
 *
 * Strict means: no comments, no trailing commas, no leading zeros, no
 * bare control characters or invalid UTF-8 in strings, no lone UTF-16
 * surrogates in \u escapes, no duplicate keys in one object (see
 * json_limits.flags for a looser reading), nothing but white space
 * after the value.  A UTF-8 byte order mark at the start is skipped.
 * Errors go to the diaglist as "name:line:col: message" (line and
 * column 1-based, the column counted in bytes unless JSON_COL_CHARS)
 * and the parse stops at the first one.
 *
 * Nesting deeper than the depth limit and documents larger than the
 * size limit are refused, so hostile input cannot exhaust the stack or
 * memory.
 *
 * Numbers keep their literal text as well as a double, so integers too
 * big for a double (or for int64_t) lose nothing; json_int64() says
 * whether a number is an exact integer that fits.
 *
 * Ownership: json_parse() hands the caller a tree that json_free()
 * releases whole; every pointer got from a node (strings, members,
 * items) lives as long as the tree.
 *
 * json_write_str() is the other direction: the one JSON string writer
 * of every JSON output.
 */
#ifndef LTPSCOPE_JSON_H
#define LTPSCOPE_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ltpscope/diag.h"

/* Default limits: nesting depth, document size in bytes. */
#define JSON_DEPTH_MAX	256
#define JSON_SIZE_MAX	(256u * 1024 * 1024)

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT
};

struct json;

struct json_member {
	char		*key;		/* NUL-terminated; may hold
					   NULs (\u0000): use keylen */
	size_t		 keylen;
	struct json	*value;
};

struct json {
	enum json_type	 type;
	unsigned long	 line;		/* where the value starts */
	unsigned int	 col;
	/* JSON_STRING: UTF-8, NUL-terminated, may hold NULs (use len).
	   JSON_NUMBER: the literal as written. */
	char		*str;
	size_t		 len;
	double		 num;		/* JSON_NUMBER; +-HUGE_VAL when
					   out of range */
	struct json	**items;	/* JSON_ARRAY, in order */
	struct json_member *members;	/* JSON_OBJECT, in order */
	size_t		 n;		/* items or members */
};

/*
 * json_limits.flags, for readers of files that others write loosely
 * (LTP's metadata): a duplicate key is a warning and the first one
 * counts; \u0000 is refused so every string is a C string; columns
 * in diagnostics and nodes count UTF-8 characters, not bytes.
 */
#define JSON_DUPKEY_WARN	0x1u
#define JSON_NO_NUL		0x2u
#define JSON_COL_CHARS		0x4u

struct json_limits {
	unsigned	 max_depth;	/* 0: JSON_DEPTH_MAX */
	size_t		 max_size;	/* 0: JSON_SIZE_MAX */
	unsigned	 flags;		/* JSON_DUPKEY_WARN | ... */
};

/*
 * Parses len bytes of buf.  name is used in diagnostics.  limits may
 * be NULL (the defaults).  Returns 0 and sets *rootp, or -1 with
 * *rootp NULL and one error in dl.
 */
int	json_parse(struct json **rootp, const char *buf, size_t len,
	    const char *name, const struct json_limits *, struct diaglist *);
/* The same for a file (its path is the name); -1 if unreadable. */
int	json_parse_file(struct json **rootp, const char *path,
	    const struct json_limits *, struct diaglist *);
void	json_free(struct json *);

/* "null", "false", "true", "number", "string", "array", "object". */
const char	*json_type_name(enum json_type);

/* Member of an object by key (keys are unique), or NULL. */
const struct json	*json_get(const struct json *, const char *key);
/* Item i of an array, or NULL when out of range or not an array. */
const struct json	*json_at(const struct json *, size_t);
/* Items of an array or members of an object; 0 for anything else. */
size_t			 json_count(const struct json *);

/* The string, or dflt when v is NULL or not a string. */
const char	*json_string(const struct json *, const char *dflt);
/*
 * 0 and *out when v is a number that is an integer within int64_t
 * ("3", "-7", "1e3", "4.0"); -1 otherwise.
 */
int		 json_int64(const struct json *, int64_t *out);
/* The number, or dflt when v is NULL or not a number. */
double		 json_number(const struct json *, double dflt);
/* 1 for true, 0 for false, dflt for anything else. */
int		 json_bool(const struct json *, int dflt);

/*
 * Writes len bytes of s (any content) to fp as a JSON string, quotes
 * included.  '"', '\\', \n, \t and \r get short escapes, other
 * control bytes and DEL \u00XX; a byte that does not start well-formed
 * UTF-8 becomes \ufffd.  The flags keep older outputs as they were:
 * JSON_W_LONE_DC writes such a byte as \udcXX (a lone surrogate, so
 * the bytes can be recovered); JSON_W_DEL_RAW writes DEL as it is;
 * JSON_W_BYTES escapes only '"', '\\' and control bytes (all as \u00XX)
 * and passes every other byte, UTF-8 or not.
 */
#define JSON_W_LONE_DC		0x1u
#define JSON_W_DEL_RAW		0x2u
#define JSON_W_BYTES		0x4u

void		 json_write_str(FILE *, const char *, size_t, unsigned flags);

#endif
