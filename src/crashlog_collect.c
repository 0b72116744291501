/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's words fetched for a run's crashes once the box is back
 * (see crashlog.h): from the console log kept here, or from dmesg on
 * the box, appended to each crash result that has none yet.
 */
#include <sys/types.h>
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltpscope/crashlog.h"
#include "ltpscope/remote.h"
#include "ltpscope/store.h"
#include "ltpscope/xmalloc.h"

/* What dmesg on the box may take. */
#define CRASHLOG_DMESG_S	60
/* A console log's end holds the crash: what is kept of a long one. */
#define CRASHLOG_CONSOLE_KEEP	(4u * 1024 * 1024)

off_t
crashlog_console_end(const char *path)
{
	struct stat sb;

	return path != NULL && stat(path, &sb) == 0 ? sb.st_size : 0;
}

/* The console log from off on (its last 4 MiB at most); malloc'd. */
static char *
crashlog_console_read(const char *path, off_t off, size_t *lenp,
    struct diaglist *dl)
{
	char *buf = NULL, chunk[8192];
	size_t len = 0, n;
	FILE *fp;

	*lenp = 0;
	if ((fp = fopen(path, "r")) == NULL) {
		diag_error(dl, path, 0, "cannot read the console log: %s",
		    strerror(errno));
		return NULL;
	}
	if (off > 0 && fseeko(fp, off, SEEK_SET) != 0)
		rewind(fp);
	while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0) {
		if (len > CRASHLOG_CONSOLE_KEEP) {
			memmove(buf, buf + len / 2, len - len / 2);
			len -= len / 2;
		}
		buf = xrealloc(buf, len + n + 1);
		memcpy(buf + len, chunk, n);
		len += n;
	}
	fclose(fp);
	*lenp = len;
	return buf != NULL ? buf : xstrdup("");
}

int
crashlog_console_fate(const char *path, off_t from)
{
	struct diaglist quiet;
	char *log;
	size_t len;
	int fate = CRASHLOG_UNKNOWN;

	diag_init(&quiet);
	if ((log = crashlog_console_read(path, from, &len, &quiet)) != NULL)
		fate = crashlog_fate(log, len);
	diag_free(&quiet);
	free(log);
	return fate;
}

/* Whether result id's stored output has the kernel's words already. */
static int
crashlog_has_words(struct store *st, int64_t id, struct diaglist *dl)
{
	struct store_output o;
	int has;

	memset(&o, 0, sizeof(o));
	has = store_get_output(st, id, &o, dl) == STORE_OK &&
	    crashlog_find(o.data, o.stored_size, NULL, 0);
	store_output_clear(&o);
	return has;
}

int
crashlog_collect(struct store *st, int64_t run_id, const struct remote *box,
    const char *console, off_t *console_off, crashlog_told_fn *told,
    void *arg, struct diaglist *dl)
{
	struct store_result *v = NULL;
	struct diaglist quiet;
	char *log = NULL, *block, source[1200], first[300];
	size_t n = 0, i, len = 0, blen;
	int done = 0;

	if (store_run_results(st, run_id, &v, &n, dl) != STORE_OK)
		return -1;
	diag_init(&quiet);
	for (i = 0; i < n; i++) {
		if (v[i].status != TS_CRASH ||
		    crashlog_has_words(st, v[i].id, &quiet))
			continue;
		/* One read serves every crash still without words. */
		if (log == NULL && console != NULL) {
			log = crashlog_console_read(console, console_off !=
			    NULL ? *console_off : 0, &len, dl);
			if (console_off != NULL)
				*console_off = crashlog_console_end(console);
			snprintf(source, sizeof(source), "console %s",
			    console);
		} else if (log == NULL && box != NULL) {
			(void)remote_capture(box, "dmesg", CRASHLOG_DMESG_S,
			    &log, &len, dl);
			snprintf(source, sizeof(source), "dmesg on %s",
			    remote_spec(box));
		}
		if (log == NULL)
			break;
		(void)crashlog_block(source, log, len, &block, &blen, first,
		    sizeof(first));
		if (store_output_append(st, v[i].id, block, blen, dl) ==
		    STORE_OK) {
			done++;
			if (told != NULL)
				told(arg, v[i].tag, first);
		}
		free(block);
	}
	diag_free(&quiet);
	free(log);
	store_results_free(v, n);
	return done;
}
