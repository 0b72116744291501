/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * System V IPC objects (shared memory segments, semaphore sets,
 * message queues) that tests created and left behind: a snapshot of
 * what exists before, and after, the removal of what is new and was
 * created by this user.  Nothing that was there at the snapshot is ever
 * touched.
 */
#ifndef LTPSCOPE_IPCLEFT_H
#define LTPSCOPE_IPCLEFT_H

#include <stddef.h>

struct ipcleft;

/*
 * What exists now.  NULL where the system's objects cannot be listed
 * (then nothing is cleaned).  The caller owns it: ipcleft_free().
 */
struct ipcleft	*ipcleft_snap(void);
/*
 * Removes the objects made since snap by processes of uid, still
 * there and used by no live process; says what it removed in buf
 * ("shm id 32769 key 0x2a, sem id 3 key 0x0"), "" when nothing.
 * Returns how many it removed.  after, if not NULL, gets what is left
 * (the snapshot ipcleft_snap() would take now), or NULL.
 */
int		 ipcleft_sweep(const struct ipcleft *snap, long long uid,
		    char *buf, size_t len, struct ipcleft **after);
void		 ipcleft_free(struct ipcleft *);

#endif
