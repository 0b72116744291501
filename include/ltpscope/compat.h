/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The one place where Linux and the BSDs differ in headers we need.
 * Everything else in the tree is plain POSIX.1-2008 and C11.
 */
#ifndef LTPSCOPE_COMPAT_H
#define LTPSCOPE_COMPAT_H

#if defined(__linux__)
#include <pty.h>		/* openpty(3), forkpty(3) */
#elif defined(__FreeBSD__) || defined(__DragonFly__)
#include <libutil.h>
#else				/* NetBSD, OpenBSD, macOS */
#include <util.h>
#endif

#include <stddef.h>

#ifndef __dead
#define __dead	__attribute__((__noreturn__))
#endif

/* Name of the operating system's own Linux syscall header, if any. */
#if defined(__linux__)
#define COMPAT_HAVE_LINUX_UNISTD	1
#else
#define COMPAT_HAVE_LINUX_UNISTD	0
#endif

/* strlcpy(3) is in NetBSD libc and only recently in glibc. */
size_t	compat_strlcpy(char *, const char *, size_t);
/*
 * The system the tests run on, as uname -s names it ("NetBSD",
 * "Linux"): the skip list and the default kernel config depend on it.
 * $LTPSCOPE_OS, when set, wins, so that the test suite can play either
 * system on any machine.  Returns buf, "" when unknown.
 */
const char *compat_os_name(char *buf, size_t len);
/*
 * The processor family programs are built for (uname -p): NetBSD's
 * MACHINE_ARCH, which tells aarch64 from earmv7hf where uname -m says
 * evbarm for both; uname -m elsewhere.  Returns buf, "" when unknown.
 */
const char *compat_machine_arch(char *buf, size_t len);

/*
 * The mount table: Linux has /proc/self/mounts, the BSDs getmntinfo(3).
 * A test killed before its cleanup leaves its mounts behind, and they
 * must be found, since a directory of the same file system bind-mounted
 * has the st_dev of its parent.
 */
struct compat_mount {
	char	*path;		/* where it is mounted, as the table says */
	char	*fstype;	/* "tmpfs", "ext4", "null"... */
};

/*
 * The file systems mounted on dir (a path without symbolic links, as
 * realpath(3) gives) or below it, in the table's order (a mount after
 * the one it sits on).  Returns how many, *v allocated (free it with
 * compat_mounts_free), or -1 with errno if the table cannot be read.
 */
long	compat_mounts_below(const char *dir, struct compat_mount **v);
void	compat_mounts_free(struct compat_mount *, long n);

/*
 * Takes the file system mounted on path away even if it is busy: a
 * lazy detach on Linux (a forced unmount if that fails), a forced
 * unmount on the BSDs.  A symbolic link at path is not followed where
 * the system can refuse it.  0, or -1 with errno.
 */
int	compat_unmount(const char *path);

/*
 * 1 if the file open at fd carries extended attributes other than the
 * system's own labels (security.*): an ACL, a default ACL for what is
 * made in a directory, a user attribute.  A test's TMPDIR is handed on
 * to the next test only without them.  Linux only; elsewhere 0 (NetBSD's
 * extended attributes are off unless a file system is mounted with
 * them).  -1 when it cannot tell.
 */
int	compat_dir_extra_attrs(int fd);

/*
 * The slave of the pty whose master is open at master, opened again
 * after every descriptor of it was closed (O_NOCTTY, close-on-exec),
 * so that a pty can serve one test after another: opening a fresh one
 * costs the kernel a line discipline's buffers each time.  Linux's
 * TIOCGPTPEER opens the very slave of that master, whatever is in
 * /dev/pts.  Elsewhere -1 with errno ENOTSUP: a fresh pty each test.
 */
int	compat_pty_reopen(int master);


/*
 * The kernel's message log, followed from where it stood when opened:
 * on Linux the records of /dev/kmsg ("prio,seq,usec,flags;text", lines
 * of " KEY=VALUE" after), on NetBSD the message buffer's new lines
 * (sysctl kern.msgbuf).  $LTPSCOPE_KMSG, when set, names a file or FIFO
 * read instead, in /dev/kmsg's record format, so that the test suite
 * can play any kernel.
 */
#define COMPAT_KMSG_RECORDS	1	/* /dev/kmsg records */
#define COMPAT_KMSG_LINES	2	/* plain lines of text */

struct compat_kmsg;

/*
 * Opens the log; NULL with errno when there is none to read (no
 * /dev/kmsg, not permitted).  *formatp gets COMPAT_KMSG_*.
 */
struct compat_kmsg *compat_kmsg_open(int *formatp);
/*
 * Reads what was logged since the last read into buf, at most len
 * bytes; a line may be cut between two reads.  0 when there is
 * nothing new.  *lostp is set when the kernel overwrote records before
 * they were read.  -1 with errno on an error.
 */
long	compat_kmsg_read(struct compat_kmsg *, char *buf, size_t len,
	    int *lostp);
void	compat_kmsg_close(struct compat_kmsg *);
/*
 * NetBSD's message buffer has no counter of what was written: where
 * the text new since the last copy begins in this copy cur, that is
 * after the last place the old copy's end (tail) appears; 0 with
 * *lostp set when it is gone (the buffer went round), 0 without a
 * tail.  Every system's, so that the test suite runs it.
 */
size_t	compat_msgbuf_new_from(const char *cur, size_t ncur,
	    const char *tail, size_t ntail, int *lostp);
/*
 * The kernel's taint flags (Linux: /proc/sys/kernel/tainted, or the
 * file $LTPSCOPE_TAINTED names); -1 where the kernel keeps none.
 */
long long compat_kernel_tainted(void);

/*
 * System V IPC objects, to find what a test created and left behind:
 * /proc/sysvipc on Linux, sysctl kern.ipc.sysvipc_info on NetBSD (what
 * ipcs(1) reads there).  Elsewhere the list fails with ENOSYS.
 */
#define COMPAT_IPC_SHM	'm'	/* shared memory segment */
#define COMPAT_IPC_SEM	's'	/* semaphore set */
#define COMPAT_IPC_MSG	'q'	/* message queue */

struct compat_ipc {
	char		kind;	/* COMPAT_IPC_* */
	long long	id;
	long long	key;
	long long	cuid;	/* creator uid */
	long long	cpid;	/* creator pid (shm only), else 0 */
	/*
	 * The last to use it (shm: shmat/shmdt; msg: send, receive), 0
	 * when none or not known (sem).
	 */
	long long	upid[2];
	long long	nattch;	/* processes attached (shm only), else 0 */
};

/*
 * Every object there is; returns how many, *v allocated (free(3) it),
 * or -1 with errno if they cannot be listed.
 */
long	compat_ipc_list(struct compat_ipc **v);
/* Removes o (IPC_RMID): 0, or -1 with errno. */
int	compat_ipc_remove(const struct compat_ipc *o);

/* compat_socket.c: the longest path a unix socket may have. */
size_t	compat_unix_path_max(void);
/* A stream socket connected to path; -1 with errno. */
int	compat_unix_connect(const char *path);
/* A TCP port free now on 127.0.0.1 (bound to 0, then let go), or -1. */
int	compat_free_tcp_port(void);

#endif
