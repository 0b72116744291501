/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The syscall catalogue: which system call sits at which number for
 * which ABI, what NetBSD does about it, and what Linux calls it.
 *
 * A catalogue is filled from one or more tables: NetBSD syscalls.master
 * files (compat_linux of any arch, compat_linux32, the native table),
 * Linux syscall_*.tbl files and Linux <asm/unistd_*.h> headers.  The
 * format is detected from the contents.  Entries are keyed by (abi,
 * number).
 *
 * ABIs: NetBSD tables are "netbsd", "linux-ARCH" (compat_linux) and
 * "linux32-ARCH" (compat_linux32), ARCH in NetBSD's words ("amd64").
 * Linux's own tables use Linux's words: "x86_64" (common and 64 rows of
 * syscall_64.tbl, unistd_64.h), "i386" (syscall_32.tbl, unistd_32.h);
 * x32 rows are skipped; names files say their ABI in their first line
 * ("arm64", "arm", "mips", ...).  A Linux table whose ABI matches a loaded
 * NetBSD table (catalogue_linux_abi(): linux-amd64 -> x86_64,
 * linux-i386 and linux32-amd64 -> i386) supplies the Linux names of
 * that table's entries and turns numbers NetBSD lacks into "absent"
 * entries.
 *
 * Names files (data/syscalls/ABI, made by mk/linuxnames.sh from
 * Linux's headers; see catalogue_load_names()) stand in for a Linux
 * table that was not given: their rows name the slots of the matching
 * NetBSD ABI and serve catalogue_crosscheck(), but they are never
 * listed, counted or turned into absent entries, and a Linux table of
 * the same ABI, when loaded, names the slots instead.
 *
 * Ownership: the catalogue owns every entry and every string reachable
 * from one; they stay valid until catalogue_free(), even across further
 * loads.  String fields are never NULL ("" when there is nothing).
 * Arrays returned by catalogue_names(), catalogue_diff() and
 * catalogue_crosscheck() are the caller's, to free() (only the array,
 * never the entries or strings it points at).  Loaders never print:
 * problems go into the caller's diaglist as "file:line: message".
 */
#ifndef LTPSCOPE_CATALOGUE_H
#define LTPSCOPE_CATALOGUE_H

#include <stddef.h>

#include "ltpscope/diag.h"

/* What NetBSD does with a slot.  Stable names: see cat_state_name(). */
enum cat_state {
	CS_NATIVE,	/* "implemented-native": sys_, compat_NN_sys_,
			   netbsd32_: any prefix not starting "linux" */
	CS_COMPAT,	/* "implemented-compat": linux_sys_, linux32_sys_ */
	CS_UNIMPL,	/* "unimplemented": UNIMPL */
	CS_OBSOLETE,	/* "obsolete": OBSOL, EXCL, IGNORED */
	CS_ABSENT,	/* "absent": in the Linux table, not in NetBSD's */
	CS_LINUX,	/* "linux": a row of a Linux table itself */
	CS__COUNT
};

/* The type field of a syscalls.master line (its first word). */
enum cat_type {
	CT_NONE,	/* Linux table rows and absent entries */
	CT_STD,
	CT_NOARGS,
	CT_NODEF,
	CT_NOERR,
	CT_INDIR,
	CT_EXTERN,
	CT_COMPAT,	/* COMPAT_43, COMPAT_50, ...: see type_name */
	CT_UNIMPL,
	CT_OBSOL,
	CT_IGNORED,
	CT_EXCL,
	CT__COUNT
};

/* Where an entry came from. */
enum cat_format {
	CF_UNKNOWN,
	CF_MASTER,	/* NetBSD syscalls.master */
	CF_TBL,		/* Linux arch/.../syscall_*.tbl */
	CF_UNISTD,	/* Linux <asm/unistd_*.h> */
	CF_NAMES	/* ltpscope's names file: data/syscalls/ABI */
};

struct cat_entry {
	const char	*abi;		/* "linux-amd64", "netbsd", ... */
	long		 number;
	/*
	 * name: what Linux calls the slot.  From the Linux table of the
	 * matching ABI when one is loaded, else from its names file when
	 * one is loaded and has the number, else own_name: the alias (the
	 * word after '}' or before '{'), else the name in an UNIMPL or
	 * OBSOL comment, else the basename in the prototype.
	 */
	const char	*name;
	const char	*own_name;
	enum cat_type	 type;
	const char	*type_name;	/* "STD", "COMPAT_50", "" */
	const char	*modifiers;	/* "RUMP", "MODULAR compat_50", "" */
	enum cat_state	 state;
	const char	*function;	/* "linux_sys_open", "sys___msync13" */
	const char	*prototype;	/* "int linux_sys_open(...)", "" */
	const char	*guard;		/* "SYSVSHM", "!SYSVSHM", "" */
	const char	*alias;		/* word after '}', or "" */
	const char	*basename;	/* name in the prototype, or "" */
	const char	*comment;	/* rest of an UNIMPL/OBSOL line */
	const char	*file;		/* path as given to the loader */
	unsigned long	 line;		/* first line of the entry */
	int		 alternate;	/* 1: in an #else (not default) */
	enum cat_format	 format;
};

struct catalogue;

struct catalogue	*catalogue_new(void);
void			 catalogue_free(struct catalogue *);

/*
 * Loads one table.  abi NULL derives the ABI from the path (e.g.
 * ".../compat/linux/arch/amd64/syscalls.master" or
 * "linux-amd64-syscalls.master" give "linux-amd64") or, failing that,
 * the contents.  Returns the number of errors added to dl (0 on
 * success), or -1 when the file cannot be read at all.  What can be
 * parsed of a damaged file is kept.
 */
int	catalogue_load_file(struct catalogue *, const char *path,
	    const char *abi, struct diaglist *);
/* The same from memory; name is used in messages and entries. */
int	catalogue_load_buffer(struct catalogue *, const char *name,
	    const char *abi, const char *buf, size_t len, struct diaglist *);
/* What a buffer looks like; CF_UNKNOWN if nothing fits. */
enum cat_format	catalogue_detect(const char *buf, size_t len);

/*
 * The default view in (abi, number) order: #if branches only (the
 * GENERIC kernels have those options), plus absent entries and the
 * rows of Linux tables.  Index i < catalogue_count().
 */
size_t			 catalogue_count(struct catalogue *);
const struct cat_entry	*catalogue_entry(struct catalogue *, size_t i);
/* Everything, including #else alternatives, in the same order. */
size_t			 catalogue_count_all(struct catalogue *);
const struct cat_entry	*catalogue_entry_all(struct catalogue *, size_t i);

/* The default-view entry at (abi, number), or NULL. */
const struct cat_entry	*catalogue_find_number(struct catalogue *,
			    const char *abi, long number);
/*
 * Default-view entries whose Linux name is name, in any ABI when abi is
 * NULL.  Stores up to max pointers in out; returns how many there are.
 */
size_t	catalogue_find_name(struct catalogue *, const char *abi,
	    const char *name, const struct cat_entry **out, size_t max);
/*
 * Sorted, distinct, non-empty Linux names of an ABI's default view
 * (absent entries included: LTP tests those too).  *np gets the count.
 * The array is the caller's; the strings are the catalogue's.
 */
const char	**catalogue_names(struct catalogue *, const char *abi,
		    size_t *np);
/* Distinct ABIs of the default view, in order; like catalogue_names. */
const char	**catalogue_abis(struct catalogue *, size_t *np);

/* The Linux table ABI that names a NetBSD ABI's slots. */
const char	*catalogue_linux_abi(const char *abi);
/*
 * The Linux row that names slot number of NetBSD ABI abi: from a Linux
 * table when one of that ABI is loaded, else from a names file; NULL
 * when neither has the number.
 */
const struct cat_entry	*catalogue_linux_row(struct catalogue *,
			    const char *abi, long number);
/*
 * The default-view slot of NetBSD table abi that the table itself calls
 * name (its own name, prototype name, alias, or function without the
 * sys_ prefix: "__posix_rename", "pread", "__msync13"), as kdump(1)
 * names calls; NULL when none does.
 */
const struct cat_entry	*catalogue_find_table_name(struct catalogue *,
			    const char *abi, const char *name);
/*
 * The Linux row that names call name in the Linux ABI of NetBSD ABI abi
 * (a Linux table's, else a names file's): a call Linux has there, in
 * NetBSD's table or not.  NULL when Linux has no such call.
 */
const struct cat_entry	*catalogue_linux_name(struct catalogue *,
			    const char *abi, const char *name);
/*
 * For every NetBSD ABI loaded so far whose Linux ABI has no Linux table
 * loaded, loads the names file dir/LINUX-ABI ("x86_64", "i386", "arm",
 * ...) when there is one.  Returns how many files it loaded, or -1
 * when one exists but cannot be read (dl says why).
 */
int	catalogue_load_names(struct catalogue *, const char *dir,
	    struct diaglist *);

const char	*cat_state_name(enum cat_state);
int		 cat_state_from_name(const char *);	/* -1: unknown */
const char	*cat_type_name(enum cat_type);
/* Implemented in some way: native or compat. */
int		 cat_state_is_implemented(enum cat_state);

/*
 * Counts over the default view of one source file (NULL: all).  Absent
 * entries count for the ABI of the file's entries.
 */
struct cat_counts {
	size_t	numbers;		/* distinct numbers, absent excluded */
	size_t	state[CS__COUNT];
	size_t	type[CT__COUNT];	/* implemented and other types */
	size_t	alternates;		/* #else entries not counted */
};
void	catalogue_counts(struct catalogue *, const char *file,
	    struct cat_counts *);
/* Distinct source files in load order; like catalogue_names. */
const char	**catalogue_files(struct catalogue *, size_t *np);

/* One difference between two catalogues, matched by (abi, number). */
enum cat_change {
	CC_ADDED,
	CC_REMOVED,
	CC_CHANGED
};
struct cat_diff {
	enum cat_change		 change;
	const struct cat_entry	*old;	/* NULL when added */
	const struct cat_entry	*new;	/* NULL when removed */
};
/*
 * Changes from old to new in (abi, number) order; *np gets the count.
 * An entry changes when its type, state, function or prototype does.
 * When each catalogue holds a single ABI, the ABIs need not match (so
 * two copies of a file under different names compare).
 */
struct cat_diff	*catalogue_diff(struct catalogue *old, struct catalogue *new,
		    size_t *np);

/* A slot whose NetBSD name and Linux name disagree. */
struct cat_mismatch {
	const struct cat_entry	*netbsd;
	const struct cat_entry	*ref;	/* the Linux table row */
};
/*
 * Every default-view NetBSD slot with a name of its own whose Linux
 * row at the same number (catalogue_linux_row()) names another call.
 * Known renames (pread/pread64, fstatat64/newfstatat, the 16-bit uid
 * calls of i386, ...) are not disagreements.  *np gets the count.
 */
struct cat_mismatch	*catalogue_crosscheck(struct catalogue *,
			    size_t *np);
/* Whether NetBSD's name a and Linux's name b mean the same call. */
int	catalogue_same_call(const char *a, const char *b);

#endif
