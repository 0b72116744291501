/*
 * A small strict JSON parser (RFC 8259) private to the metadata module:
 * it reads LTP's metadata/ltp.json into a tree.  Strict means what the
 * RFC says and nothing more: no comments, no trailing commas, no
 * single quotes, no NaN, no control bytes or bad UTF-8 in strings, one
 * value per document.  Errors name "file:line:col".
 *
 * Ownership: mj_parse() returns a tree the caller frees with mj_free();
 * every string and child belongs to the tree.
 */
#ifndef LTPSCOPE_LTPMETA_JSON_H
#define LTPSCOPE_LTPMETA_JSON_H

#include <stddef.h>

#include "ltpscope/diag.h"

/* Deeper nesting than this is refused (a stack-depth guard). */
#define MJ_MAX_DEPTH	64

enum mj_type {
	MJ_NULL,
	MJ_FALSE,
	MJ_TRUE,
	MJ_NUMBER,
	MJ_STRING,
	MJ_ARRAY,
	MJ_OBJECT
};

struct mj_value {
	enum mj_type	  type;
	double		  num;		/* MJ_NUMBER */
	char		 *str;		/* MJ_STRING: UTF-8, NUL-terminated
					   (\u0000 is refused); MJ_NUMBER:
					   as written */
	size_t		  len;
	struct mj_value	 *items;	/* MJ_ARRAY, MJ_OBJECT: n values */
	char		**keys;		/* MJ_OBJECT: n keys */
	size_t		  n;
	unsigned long	  line;		/* where the value starts */
	unsigned int	  col;
};

/*
 * Parses len bytes named name (for messages).  Returns the tree, or
 * NULL after one error in dl: "name:line:col: what is wrong".
 * Duplicate keys in an object are a warning; the first one counts.
 */
struct mj_value	*mj_parse(const char *buf, size_t len, const char *name,
		    struct diaglist *);
void		 mj_free(struct mj_value *);

/* The member key of an object (the first one), or NULL. */
const struct mj_value	*mj_get(const struct mj_value *, const char *key);
/* The string of v when it is one, else NULL. */
const char		*mj_str(const struct mj_value *);

#endif
