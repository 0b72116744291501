/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Program profiles: the system calls one Linux program made, read from
 * a trace of it, so that the catalogue and the LTP results can answer
 * "will this program run under compat_linux?".
 *
 * Traces read (profile_parse() tells them apart by their lines):
 *  strace	"strace [-f] [-y|-yy] [-t|-tt|-ttt|-r] [-T] [-i] [-n] -o FILE
 *		prog": one call a line, "[pid N] " or "N " first with -f,
 *		unfinished and resumed halves joined by pid; signals,
 *		exits and strace's own notes skipped.
 *  summary	"strace -c" / "-C" tables: calls and error counts per call,
 *		without errno names (a -C file's calls lines win).
 *  kdump	NetBSD's kdump(1) of a ktrace(1)d program: "PID [LID] COMM
 *		[TIME] CALL name(args)" and "RET name value" or "RET name
 *		-1 errno N message"; only processes whose last EMUL line
 *		says "linux" or "linux32" (or that have none) count.  The
 *		message names the error (N is the emulation's number; with
 *		kdump -n, alone, it is read as Linux's).  Names are the
 *		table's ("__getcwd": the report finds Linux's through the
 *		catalogue); unimplemented slots read "#332 (unimplemented
 *		statx)" (statx), "#334 (unimplemented)" or "[435]" ("#334",
 *		"#435": the report finds them by number), padding slots
 *		"# filler" ("#filler").  See profile_kdump.c.
 *
 * Besides counts and errors a call keeps its suspect flags: symbolic
 * flags (O_TMPFILE) seen in calls that failed with EINVAL or EOPNOTSUPP
 * and in none that succeeded: the flag, not the call, is what is
 * missing.
 *
 * Ownership: a struct profile owns everything in it; profile_free().
 */
#ifndef LTPSCOPE_PROFILE_H
#define LTPSCOPE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "ltpscope/diag.h"

/* Longest call name kept; longer "names" are malformed lines. */
#define PROFILE_NAME_MAX	64
/* Errors reported per trace before "and N more". */
#define PROFILE_MAX_ERRORS	20

enum profile_format {
	PF_UNKNOWN,
	PF_STRACE,
	PF_SUMMARY,
	PF_KDUMP
};

struct profile_err {
	char		*name;		/* "ENOENT"; "" when not known */
	unsigned long	 count;
};

struct profile_call {
	char		*name;		/* Linux name: "openat" */
	unsigned long	 count;		/* times called */
	unsigned long	 nerrors;	/* of those, how many failed */
	struct profile_err *errs;	/* by count, highest first */
	size_t		 nerrs;
	char		*flags;		/* suspect flags, blank separated */
};

struct profile {
	char		*name;
	char		*source;	/* the trace's path as given */
	enum profile_format format;
	char		*emul;		/* kdump's emulation, else "" */
	int64_t		 imported;	/* Unix seconds; 0 if not stored */
	struct profile_call *calls;	/* by name */
	size_t		 ncalls;
};

/* "strace", "summary", "kdump"; profile_format_from_name(): -1. */
const char	*profile_format_name(enum profile_format);
int		 profile_format_from_name(const char *);
/* What the first lines of buf look like; PF_UNKNOWN if none fits. */
enum profile_format	profile_detect(const char *buf, size_t len);

/*
 * Reads a trace from memory (file names it in errors; buf needs no NUL)
 * into p, which profile_init() has cleared.  Returns the number of
 * errors added to dl, each naming file:line; a trace with any is not a
 * profile to store.
 */
int	profile_parse(struct profile *, const char *file, const char *buf,
	    size_t len, struct diaglist *);
/* The same from a file; -1 when it cannot be read. */
int	profile_load_file(struct profile *, const char *path,
	    struct diaglist *);
void	profile_init(struct profile *);
void	profile_free(struct profile *);

const struct profile_call	*profile_find(const struct profile *,
				    const char *name);
/* How many times call c failed with errno name err. */
unsigned long	profile_call_errors(const struct profile_call *,
		    const char *err);
/* Calls that returned ENOSYS, EINVAL or EOPNOTSUPP: the suspects. */
int	profile_call_suspect(const struct profile_call *);
/* "ENOENT x3, ENOSYS x1" into buf. */
void	profile_errs_format(const struct profile_call *, char *, size_t);
/*
 * A valid profile name: 1 to 64 of [A-Za-z0-9._+-], not starting with
 * '-' or '.'; "ls", "python3", "sqlite3".  Otherwise 0.
 */
int	profile_name_valid(const char *);
/* The name a trace's path suggests: its basename up to the first '.'. */
void	profile_name_from_path(const char *, char *, size_t);

/* The errno name of a message ("Function not implemented": ENOSYS). */
const char	*profile_errno_by_message(const char *);

/* --- against the catalogue and the results (profile_report.c) --- */

struct catalogue;
struct store_result;
struct triage_tag;

/* One call of a profile as compat_linux stands with it. */
struct profile_row {
	const struct profile_call *call;	/* the profile's */
	const char	*linux_name;	/* for "#N": the catalogue's name
					   of slot N, else NULL */
	const char	*state;		/* catalogue state, "unknown" */
	int		 implemented;	/* native or compat */
	int		 known;		/* in the catalogue, or a call
					   Linux has (absent) */
	int		 absent;	/* Linux has it, NetBSD's table
					   not at all */
	int		 suspect;	/* ENOSYS/EINVAL/EOPNOTSUPP seen */
	unsigned	 ntests;	/* latest results of its tests */
	unsigned	 nbad;		/* of those, fail/broken/... */
	char		*tags;		/* its failing tests' triage
					   categories, ", " separated */
};

struct profile_report {
	struct profile_row *rows;	/* suspects first, then not
					   implemented, then failing tests,
					   then most called */
	size_t		 nrows;
	size_t		 nunimpl;	/* in the table, not implemented */
	size_t		 nabsent;	/* Linux has it, the table not */
	size_t		 nunknown;	/* not a call Linux has either */
	size_t		 nfailing;	/* with failing tests */
	size_t		 nflags;	/* suspect flags */
	char		 verdict[512];	/* "3 calls unimplemented, ..." */
};

/*
 * The report of p on abi (NULL: any ABI) of cat (NULL: no states),
 * with the latest results res (their syscall, else the name their tag
 * suggests) and the triage tags; the report points into p, which must
 * outlive it.
 */
void	profile_report_build(struct profile_report *, const struct profile *,
	    struct catalogue *cat, const char *abi,
	    const struct store_result *res, size_t nres,
	    const struct triage_tag *tags, size_t ntags);
void	profile_report_free(struct profile_report *);
/*
 * The ABI a profile is shown on: arch's ("amd64" is "linux-amd64"),
 * else the first compat_linux ABI of cat; in buf, or NULL when there is
 * none (cat NULL or without one).
 */
const char	*profile_abi(struct catalogue *cat, const char *arch, char *buf,
		    size_t size);

/* A row's cells as profile show and the explorer print them. */
struct profile_cells {
	char	name[160];	/* "pread (pread64)" */
	char	errs[256];	/* "EBADF x1, ENOENT x2"; "-": none */
	char	tests[64];	/* "3, 1 failing"; "-": no tests */
	char	notes[1024];	/* its tags, then "flags failed: ..." */
};
void	profile_row_cells(const struct profile_row *, struct profile_cells *);
/*
 * The Linux name of a call of a profile on abi: its own, but for a slot
 * number ("#334", "syscall_0x1c2") the name the catalogue or Linux's
 * table gives that slot, and for a name only NetBSD's table uses
 * (kdump's "__posix_rename") its slot's Linux name ("rename").  Points
 * into the catalogue or at name.
 */
const char	*profile_linux_name(struct catalogue *, const char *abi,
		    const char *name);

/* --- in the store (store_profile.c) --- */

struct store;

/* Stores p under p->name, replacing a profile of that name. */
int	store_profile_put(struct store *, struct profile *,
	    struct diaglist *);
/* STORE_ENOTFOUND (and a message) when there is none of that name. */
int	store_profile_get(struct store *, const char *name,
	    struct profile *, struct diaglist *);
/* Profile names, sorted; xfreev() the array. */
int	store_profile_names(struct store *, char ***namesp, size_t *np,
	    struct diaglist *);
int	store_profile_delete(struct store *, const char *name,
	    struct diaglist *);

#endif
