/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The store's VFS: SQLite's own (the system's default), with one
 * thing changed.  SQLite writes each frame of its write-ahead log as
 * two writes, the frame's 24-byte header and then its page, at the
 * offset right after it (wal.c, walWriteOneFrame()); a commit of the
 * engine's is 7 frames, so 14 pwrite(2)s on the way from one test to
 * the next.  Here the header is held back and goes out with its page
 * in one write of the same bytes to the same place: 7 system calls a
 * commit fewer.  Anything else done to the file first writes out a
 * header still held, so nothing -- a read, a sync, a lock, the
 * shared-memory index that tells other connections of the frames,
 * which SQLite updates only after the page is written -- ever sees
 * the log without it.  Files other than write-ahead logs are the
 * default VFS's, untouched.
 *
 * SQLite's list of VFSes is the process's; this one is put on it once
 * and never changed after (store_vfs_name()).
 */
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "store_impl.h"

#define STORE_VFS_NAME		"ltpscope"
#define WAL_FRAME_HDRSIZE	24	/* SQLite's, wal.c */

struct vfs_file {
	sqlite3_file	 base;		/* pMethods: ours, or NULL */
	sqlite3_file	*real;		/* the default VFS's, after us */
	int		 wal;		/* a write-ahead log */
	int		 held;		/* hdr holds a frame's header */
	sqlite3_int64	 held_off;
	unsigned char	 hdr[WAL_FRAME_HDRSIZE];
	unsigned char	*buf;		/* header and page, joined */
	int		 bufsz;
};

/* Writes out a header still held back: SQLITE_OK or the write's error. */
static int
vfs_flush(struct vfs_file *f)
{
	if (!f->held)
		return SQLITE_OK;
	f->held = 0;
	return f->real->pMethods->xWrite(f->real, f->hdr, WAL_FRAME_HDRSIZE,
	    f->held_off);
}

#define REAL(p)		(((struct vfs_file *)(void *)(p))->real)
#define FLUSHED(p)	(vfs_flush((struct vfs_file *)(void *)(p)))

static int
vfs_close(sqlite3_file *p)
{
	struct vfs_file *f = (struct vfs_file *)(void *)p;
	int rc = vfs_flush(f), rc2;

	rc2 = f->real->pMethods->xClose(f->real);
	free(f->buf);
	f->buf = NULL;
	return rc != SQLITE_OK ? rc : rc2;
}

static int
vfs_read(sqlite3_file *p, void *b, int n, sqlite3_int64 off)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xRead(REAL(p), b, n, off);
}

static int
vfs_write(sqlite3_file *p, const void *b, int n, sqlite3_int64 off)
{
	struct vfs_file *f = (struct vfs_file *)(void *)p;
	unsigned char *nb;
	int rc;

	if (f->wal && !f->held && n == WAL_FRAME_HDRSIZE) {
		memcpy(f->hdr, b, WAL_FRAME_HDRSIZE);
		f->held_off = off;
		f->held = 1;
		return SQLITE_OK;
	}
	if (f->held && off == f->held_off + WAL_FRAME_HDRSIZE && n > 0 &&
	    n <= 65536) {
		if (f->bufsz < n + WAL_FRAME_HDRSIZE) {
			if ((nb = realloc(f->buf, (size_t)n +
			    WAL_FRAME_HDRSIZE)) == NULL)
				goto apart;
			f->buf = nb;
			f->bufsz = n + WAL_FRAME_HDRSIZE;
		}
		memcpy(f->buf, f->hdr, WAL_FRAME_HDRSIZE);
		memcpy(f->buf + WAL_FRAME_HDRSIZE, b, (size_t)n);
		f->held = 0;
		return f->real->pMethods->xWrite(f->real, f->buf,
		    n + WAL_FRAME_HDRSIZE, f->held_off);
	}
apart:
	if ((rc = vfs_flush(f)) != SQLITE_OK)
		return rc;
	return f->real->pMethods->xWrite(f->real, b, n, off);
}

static int
vfs_truncate(sqlite3_file *p, sqlite3_int64 size)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xTruncate(REAL(p), size);
}

static int
vfs_sync(sqlite3_file *p, int flags)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xSync(REAL(p), flags);
}

static int
vfs_file_size(sqlite3_file *p, sqlite3_int64 *size)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xFileSize(REAL(p), size);
}

static int
vfs_lock(sqlite3_file *p, int lock)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xLock(REAL(p), lock);
}

static int
vfs_unlock(sqlite3_file *p, int lock)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xUnlock(REAL(p), lock);
}

static int
vfs_check_reserved(sqlite3_file *p, int *out)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xCheckReservedLock(REAL(p), out);
}

static int
vfs_file_control(sqlite3_file *p, int op, void *arg)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xFileControl(REAL(p), op, arg);
}

static int
vfs_sector_size(sqlite3_file *p)
{
	return REAL(p)->pMethods->xSectorSize(REAL(p));
}

static int
vfs_device_characteristics(sqlite3_file *p)
{
	return REAL(p)->pMethods->xDeviceCharacteristics(REAL(p));
}

static int
vfs_shm_map(sqlite3_file *p, int pg, int pgsz, int extend,
    void volatile **pp)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xShmMap(REAL(p), pg, pgsz, extend, pp);
}

static int
vfs_shm_lock(sqlite3_file *p, int off, int n, int flags)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xShmLock(REAL(p), off, n, flags);
}

static void
vfs_shm_barrier(sqlite3_file *p)
{
	(void)FLUSHED(p);
	REAL(p)->pMethods->xShmBarrier(REAL(p));
}

static int
vfs_shm_unmap(sqlite3_file *p, int del)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xShmUnmap(REAL(p), del);
}

static int
vfs_fetch(sqlite3_file *p, sqlite3_int64 off, int n, void **pp)
{
	int rc;

	if ((rc = FLUSHED(p)) != SQLITE_OK)
		return rc;
	return REAL(p)->pMethods->xFetch(REAL(p), off, n, pp);
}

static int
vfs_unfetch(sqlite3_file *p, sqlite3_int64 off, void *pg)
{
	return REAL(p)->pMethods->xUnfetch(REAL(p), off, pg);
}

/* Ours, at the version of the default VFS's file methods, at most 3. */
static const sqlite3_io_methods vfs_methods[3] = {
	{ 1, vfs_close, vfs_read, vfs_write, vfs_truncate, vfs_sync,
	    vfs_file_size, vfs_lock, vfs_unlock, vfs_check_reserved,
	    vfs_file_control, vfs_sector_size, vfs_device_characteristics,
	    NULL, NULL, NULL, NULL, NULL, NULL },
	{ 2, vfs_close, vfs_read, vfs_write, vfs_truncate, vfs_sync,
	    vfs_file_size, vfs_lock, vfs_unlock, vfs_check_reserved,
	    vfs_file_control, vfs_sector_size, vfs_device_characteristics,
	    vfs_shm_map, vfs_shm_lock, vfs_shm_barrier, vfs_shm_unmap,
	    NULL, NULL },
	{ 3, vfs_close, vfs_read, vfs_write, vfs_truncate, vfs_sync,
	    vfs_file_size, vfs_lock, vfs_unlock, vfs_check_reserved,
	    vfs_file_control, vfs_sector_size, vfs_device_characteristics,
	    vfs_shm_map, vfs_shm_lock, vfs_shm_barrier, vfs_shm_unmap,
	    vfs_fetch, vfs_unfetch },
};

static int
vfs_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *p, int flags,
    int *oflags)
{
	struct vfs_file *f = (struct vfs_file *)(void *)p;
	sqlite3_vfs *real = vfs->pAppData;
	int rc, v;

	memset(f, 0, sizeof(*f));
	f->real = (sqlite3_file *)(void *)(f + 1);
	rc = real->xOpen(real, name, f->real, flags, oflags);
	if (f->real->pMethods == NULL)
		return rc;
	v = f->real->pMethods->iVersion;
	f->base.pMethods = &vfs_methods[(v < 1 ? 1 : v > 3 ? 3 : v) - 1];
	f->wal = (flags & SQLITE_OPEN_WAL) != 0;
	return rc;
}

static int
vfs_delete(sqlite3_vfs *vfs, const char *name, int dirsync)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xDelete(real, name, dirsync);
}

static int
vfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *out)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xAccess(real, name, flags, out);
}

static int
vfs_full_pathname(sqlite3_vfs *vfs, const char *name, int n, char *out)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xFullPathname(real, name, n, out);
}

static void *
vfs_dlopen(sqlite3_vfs *vfs, const char *name)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xDlOpen(real, name);
}

static void
vfs_dlerror(sqlite3_vfs *vfs, int n, char *out)
{
	sqlite3_vfs *real = vfs->pAppData;

	real->xDlError(real, n, out);
}

static void
(*vfs_dlsym(sqlite3_vfs *vfs, void *h, const char *sym))(void)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xDlSym(real, h, sym);
}

static void
vfs_dlclose(sqlite3_vfs *vfs, void *h)
{
	sqlite3_vfs *real = vfs->pAppData;

	real->xDlClose(real, h);
}

static int
vfs_randomness(sqlite3_vfs *vfs, int n, char *out)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xRandomness(real, n, out);
}

static int
vfs_sleep(sqlite3_vfs *vfs, int us)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xSleep(real, us);
}

static int
vfs_current_time(sqlite3_vfs *vfs, double *out)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xCurrentTime(real, out);
}

static int
vfs_last_error(sqlite3_vfs *vfs, int n, char *out)
{
	sqlite3_vfs *real = vfs->pAppData;

	return real->xGetLastError != NULL ?
	    real->xGetLastError(real, n, out) : 0;
}

static int
vfs_current_time64(sqlite3_vfs *vfs, sqlite3_int64 *out)
{
	sqlite3_vfs *real = vfs->pAppData;
	double d;
	int rc;

	if (real->iVersion >= 2 && real->xCurrentTimeInt64 != NULL)
		return real->xCurrentTimeInt64(real, out);
	rc = real->xCurrentTime(real, &d);
	*out = (sqlite3_int64)(d * 86400000.0);
	return rc;
}

/*
 * The name of the store's VFS, put on SQLite's list the first time
 * (not as the default); NULL, and SQLite's default is used, where it
 * cannot be.  The process's one VFS: SQLite keeps the list for the
 * whole process, and this one is never changed once it is on it.
 */
const char *
store_vfs_name(void)
{
	static sqlite3_vfs vfs;
	sqlite3_vfs *real;

	if (sqlite3_vfs_find(STORE_VFS_NAME) != NULL)
		return STORE_VFS_NAME;
	if ((real = sqlite3_vfs_find(NULL)) == NULL || real->szOsFile < 0)
		return NULL;
	vfs.iVersion = 2;
	vfs.szOsFile = (int)sizeof(struct vfs_file) + real->szOsFile;
	vfs.mxPathname = real->mxPathname;
	vfs.zName = STORE_VFS_NAME;
	vfs.pAppData = real;
	vfs.xOpen = vfs_open;
	vfs.xDelete = vfs_delete;
	vfs.xAccess = vfs_access;
	vfs.xFullPathname = vfs_full_pathname;
	vfs.xDlOpen = vfs_dlopen;
	vfs.xDlError = vfs_dlerror;
	vfs.xDlSym = vfs_dlsym;
	vfs.xDlClose = vfs_dlclose;
	vfs.xRandomness = vfs_randomness;
	vfs.xSleep = vfs_sleep;
	vfs.xCurrentTime = vfs_current_time;
	vfs.xGetLastError = vfs_last_error;
	vfs.xCurrentTimeInt64 = vfs_current_time64;
	if (sqlite3_vfs_register(&vfs, 0) != SQLITE_OK)
		return NULL;
	return STORE_VFS_NAME;
}
