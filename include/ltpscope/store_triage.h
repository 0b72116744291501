/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The triage part of the results store: tags (a category and a note on
 * a failing test, or on one failing line of it) and baselines (one run
 * per arch that compare measures against).  Schema step 3 of
 * store_schema.c holds their tables.
 *
 * A tag belongs to a test name, not to a run: it was made on a run
 * (run_id, status_at) but shows on every later run of the same test.
 * Read against a run, it is "failing" while that run's result is bad,
 * "resolved?" once the test passes there (until a user confirms it
 * with store_tag_resolve()), and failing again if it regresses.
 *
 * Notes and lines are exact bytes (quotes, SQL, invalid UTF-8, any
 * length); only NUL cannot be part of them, since they are C strings.
 *
 * Ownership: like store.h, everything handed out is the caller's and is
 * released with the matching *_free function; strings passed in are
 * copied.  Errors go to the diaglist naming the database file.
 */
#ifndef LTPSCOPE_STORE_TRIAGE_H
#define LTPSCOPE_STORE_TRIAGE_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/store.h"

/* A tag read against one run (see store_tags_list()). */
enum tag_state {
	TAG_FAILING,		/* the test's result there is bad */
	TAG_RESOLVED_Q,		/* it passes there: "resolved?" */
	TAG_RESOLVED,		/* it passes and a user confirmed it */
	TAG_SKIPPED,		/* skipped (TCONF) or not run there */
	TAG_NORESULT,		/* the run has no result for the test */
	TAG__COUNT
};

struct triage_tag {
	int64_t		 id;
	char		*tag;		/* the test, e.g. "writev01" */
	char		*line;		/* one failing line, "" for the test */
	char		*category;
	char		*note;		/* any bytes but NUL; never NULL */
	char		*author;
	int64_t		 created;	/* Unix seconds; 0: now when set */
	int64_t		 run_id;	/* run it was made on; 0: none */
	int		 status_at;	/* enum test_status then, -1: unknown */
	int		 resolved;	/* a user confirmed "resolved" */
	/* Filled by store_tags_list(): */
	int64_t		 seen_run;	/* run the state was read from */
	int		 seen_status;	/* status there, -1: no result */
	enum tag_state	 state;
};

/*
 * Creates the tag, or replaces the category, note, author, run and
 * status of the one on the same (test, line); resolved is cleared.
 * Fields tag and category must be non-empty; NULL strings read as "".
 */
int	store_tag_set(struct store *, const struct triage_tag *,
	    struct diaglist *);
/*
 * Creates the tag only if (test, line) has none: a suggestion accepted
 * never replaces a tag someone made since it was read.  *addedp (may be
 * NULL) gets 1 if it was created, 0 if one was there.
 */
int	store_tag_add(struct store *, const struct triage_tag *, int *addedp,
	    struct diaglist *);
/*
 * Removes the tag on (test, line), or every tag of the test when line
 * is NULL.  *np (may be NULL) gets how many went; none is not an error.
 */
int	store_tag_remove(struct store *, const char *test, const char *line,
	    size_t *np, struct diaglist *);
/* Confirms "resolved?" (or undoes it with 0); STORE_ENOTFOUND if none. */
int	store_tag_resolve(struct store *, const char *test, const char *line,
	    int resolved, struct diaglist *);
/*
 * Tags ordered by test then line, with their state read against run_id
 * (0: each test's newest result).  test non-NULL lists that test only.
 */
int	store_tags_list(struct store *, int64_t run_id, const char *test,
	    struct triage_tag **vp, size_t *np, struct diaglist *);
void	store_tag_clear(struct triage_tag *);
void	store_tags_free(struct triage_tag *, size_t);
const char	*tag_state_name(enum tag_state);

/* Makes run_id the baseline of its run's arch (replacing any other). */
int	store_baseline_set(struct store *, int64_t run_id,
	    struct diaglist *);
/* The baseline run of arch; STORE_ENOTFOUND (no message) if none. */
int	store_baseline_get(struct store *, const char *arch, int64_t *idp,
	    struct diaglist *);
/* Removes arch's baseline; none is not an error. */
int	store_baseline_clear(struct store *, const char *arch,
	    struct diaglist *);
/*
 * The rows of linux_refs (linuxref.h says what a reference is and
 * which arch names it takes): as the baselines, but set for the arch
 * given, the run unchecked.
 */
int	store_linux_ref_set(struct store *, const char *arch, int64_t run_id,
	    struct diaglist *);
int	store_linux_ref_get(struct store *, const char *arch, int64_t *idp,
	    struct diaglist *);
int	store_linux_ref_clear(struct store *, const char *arch,
	    struct diaglist *);
/* Newest run of arch ("" or NULL: of any arch); STORE_ENOTFOUND if none. */
int	store_latest_run_arch(struct store *, const char *arch, int64_t *idp,
	    struct diaglist *);
/* Newest run of arch before run before; 0 (and STORE_OK) if none. */
int	store_previous_run(struct store *, const char *arch, int64_t before,
	    int64_t *idp, struct diaglist *);

#endif
