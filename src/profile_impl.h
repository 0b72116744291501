/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the trace parsers share and nobody else needs: a builder that
 * gathers calls by name (hashed: a hostile trace may name a million
 * calls), their errors and the flags their arguments carried, and a
 * capped error list that names file:line.
 */
#ifndef LTPSCOPE_PROFILE_IMPL_H
#define LTPSCOPE_PROFILE_IMPL_H

#include <stddef.h>

#include "ltpscope/profile.h"

struct pb_words {
	char		**v;
	size_t		  n;
};

/* Per call, beside p->calls[i]: the flags its calls carried. */
struct pb_extra {
	struct pb_words	 ok;		/* in calls that succeeded */
	struct pb_words	 bad;		/* in EINVAL/EOPNOTSUPP failures */
};

struct pb {
	struct profile	*p;
	struct pb_extra	*x;
	size_t		*hash;		/* index + 1; 0: empty */
	size_t		 hsize;		/* a power of two */
	size_t		 cap;
	const char	*file;
	struct diaglist	*dl;
	size_t		 nerrors;	/* all, reported or not */
};

void	pb_init(struct pb *, struct profile *, const char *file,
	    struct diaglist *);
/* The call's index, added with count 0 if new; name need not end. */
size_t	pb_call(struct pb *, const char *name, size_t len);
/* One call made; err NULL when it succeeded, "" when unknown. */
void	pb_result(struct pb *, size_t i, const char *err);
/* n calls, each succeeded (err NULL) or failed with err. */
void	pb_results(struct pb *, size_t i, const char *err, unsigned long n);
/*
 * The symbolic flags (upper-case words with an '_') in args, counted
 * as those of a failed (EINVAL/EOPNOTSUPP) or successful call.
 */
void	pb_flags(struct pb *, size_t i, const char *args, size_t len,
	    int failed);
/* An error at line; past PROFILE_MAX_ERRORS only counted. */
void	pb_error(struct pb *, unsigned long line, const char *, ...)
	    __attribute__((__format__(__printf__, 3, 4)));
/* Sorts, works out the flags, frees the builder; returns its errors. */
int	pb_finish(struct pb *);

/* One line of buf at a time: *linep and *lenp, 0 at the end. */
struct pb_lines {
	const char	*p, *end;
	unsigned long	 lineno;
};
int	pb_next_line(struct pb_lines *, const char **linep, size_t *lenp);
/*
 * strspn() within a line of len bytes: lines are slices of the trace,
 * not NUL-terminated strings.
 */
size_t	pb_span(const char *s, size_t len, const char *set);

int	profile_parse_strace(struct pb *, const char *, size_t);
int	profile_parse_summary(struct pb *, const char *, size_t);
int	profile_parse_kdump(struct pb *, const char *, size_t);

/* Is this line one of the format's?  For profile_detect(). */
int	profile_strace_line(const char *, size_t);
int	profile_summary_header(const char *, size_t);
int	profile_kdump_line(const char *, size_t);

#endif
