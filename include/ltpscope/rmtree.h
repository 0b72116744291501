/*
 * Removing a test's TMPDIR, whatever the test left in it: read-only
 * and unreadable directories, symlinks (never followed), deep trees.
 */
#ifndef LTPSCOPE_RMTREE_H
#define LTPSCOPE_RMTREE_H

/*
 * Removes path and everything below it, making directories writable
 * and searchable as needed.  Returns 0, or -1 with errno from the
 * first thing that could not be removed (it removes what it can).
 */
int	rmtree(const char *path);

#endif
