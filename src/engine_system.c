/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The system a run describes in its record (see engine.h): this
 * machine's, or the box's over ssh.
 */
#include <sys/types.h>
#include <sys/utsname.h>

#include <stdio.h>
#include <string.h>

#include "ltpscope/compat.h"
#include "ltpscope/xmalloc.h"
#include "engine_impl.h"

/*
 * The arch a run is filed under (compare --arch's columns): uname -m,
 * but where that names a family of boards (NetBSD's evbarm, evbmips,
 * evbppc), the processor, so that a 32- and a 64-bit arm box are two.
 */
static char *
engine_arch(const char *machine, const char *processor)
{
	if (strncmp(machine, "evb", 3) == 0 && processor[0] != '\0')
		return xstrdup(processor);
	return xstrdup(machine);
}

void
engine_describe_system(struct store_run *run, const char *ltproot)
{
	struct utsname u;
	char path[4096], ver[256] = "", proc[64];
	FILE *fp;

	if (uname(&u) == 0) {
		char full[5 * sizeof(u.sysname) + 8];

		snprintf(full, sizeof(full), "%s %s %s %s %s", u.sysname,
		    u.nodename, u.release, u.version, u.machine);
		run->host = xstrdup(u.nodename);
		run->uname = xstrdup(full);
		run->os_name = xstrdup(u.sysname);
		run->os_version = xstrdup(u.release);
		run->arch = engine_arch(u.machine, compat_machine_arch(proc,
		    sizeof(proc)));
	} else {
		run->host = xstrdup("");
		run->uname = xstrdup("");
		run->os_name = xstrdup("");
		run->os_version = xstrdup("");
		run->arch = xstrdup("");
	}
	if (ltproot != NULL) {
		snprintf(path, sizeof(path), "%s/Version", ltproot);
		if ((fp = fopen(path, "r")) != NULL) {
			if (fgets(ver, sizeof(ver), fp) == NULL)
				ver[0] = '\0';
			ver[strcspn(ver, "\r\n")] = '\0';
			fclose(fp);
		}
	}
	run->ltp_version = xstrdup(ver);
}

/* A run on a box: the box's facts, as it gave them when we connected. */
void
engine_describe_remote(struct store_run *run, const struct remote *rm)
{
	const struct remote_box *b = remote_box(rm);

	run->host = xstrdup(remote_spec(rm));
	xasprintf(&run->uname, "%s %s %s %s %s", b->sysname, b->nodename,
	    b->release, b->version, b->machine);
	run->os_name = xstrdup(b->sysname);
	run->os_version = xstrdup(b->release);
	run->arch = engine_arch(b->machine, b->processor);
	run->ltp_version = xstrdup(b->ltp_version);
}
