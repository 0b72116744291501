/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * How fast the kernel function index (kindex.h) indexes a whole
 * NetBSD-sized sys/ tree, and reuses its cache, against merely reading
 * (and, for the cache, merely stat()ing) the same files in the same run.
 *
 * The tree is made here, in a temporary directory, never committed:
 * NFILES KNF files of LINES lines each (about 4 M lines, as NetBSD's
 * sys/ has), with comments, prototypes, #ifdefs, K&R and ANSI
 * definitions, spread over directories like sys/'s.
 *
 * Benchmarks: "index" is a first build into an empty cache (every file
 * read and scanned, the cache written); its baseline reads every file
 * and does nothing with it.  "cached" is what a second run does: open
 * the index from the cache (kindex_open) and look up NLOOKUPS functions,
 * each checked against its own file, as an export of a shopping list
 * does.  "walked" is a second build (every file stat()ed, nothing
 * read), what a lookup of a changed file costs.  Their baseline walks
 * the tree and stat()s every file.  Each figure is the median of ROUNDS
 * interleaved rounds.
 * The targets, under 2 s and under 50 ms, are printed beside.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/kindex.h"
#include "ltpscope/store.h"
#include "bench.h"
#include "tap.h"

#define ROUNDS		5
#define NFILES		8000
#define LINES		500	/* per file, about */
#define NLOOKUPS	40

static const char *const dirs[] = {
	"compat/linux/common", "compat/linux/arch/amd64",
	"compat/linux32/common", "compat/common", "kern", "uvm",
	"miscfs/genfs", "ufs/ffs", "dev/pci", "dev/usb", "net", "netinet",
	"nfs", "fs/tmpfs", "arch/amd64/amd64", "crypto/aes",
};
#define NDIRS	(sizeof(dirs) / sizeof(dirs[0]))

static char base[1024];

static void
mkdirs(const char *path)
{
	char buf[1200], *p;

	(void)snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p != '\0'; p++)
		if (*p == '/') {
			*p = '\0';
			(void)mkdir(buf, 0755);
			*p = '/';
		}
	(void)mkdir(buf, 0755);
}

/* One made-up KNF file of about LINES lines; returns its lines. */
static unsigned
make_file(FILE *fp, unsigned fileno)
{
	unsigned n = 0, f = 0, k;

	n += (unsigned)fprintf(fp, "/*\t$NetBSD: made%u.c $\t*/\n\n/*\n"
	    " * A made-up file for bench_kindex.\n */\n#include "
	    "<sys/param.h>\n\nstatic int\tf%u_proto(int, char *);\n\n",
	    fileno, fileno) > 0 ? 9 : 0;
	while (n < LINES) {
		if (f % 7 == 3) {
			fprintf(fp, "#ifdef DIAGNOSTIC\n/*\n * Why f%u_%u does "
			    "what it does.\n */\n#endif\n", fileno, f);
			n += 5;
		}
		if (f % 5 == 1) {
			fprintf(fp, "int\nf%u_%u(a, b)\n\tint a;\n\tchar *b;\n"
			    "{\n", fileno, f);
			n += 5;
		} else {
			fprintf(fp, "static int\nf%u_%u(struct lwp *l, const "
			    "void *v,\n    register_t *retval)\n{\n", fileno,
			    f);
			n += 4;
		}
		for (k = 0; k < 14; k++)
			fprintf(fp, "\tif (l->l_proc->p_pid == %u)\n\t\treturn "
			    "EINVAL;\t/* a comment */\n", k), n += 2;
		fputs("\treturn 0;\n}\n\n", fp);
		n += 3;
		f++;
	}
	return n;
}

static unsigned long
make_tree(void)
{
	char dir[1200], path[1300];
	unsigned long lines = 0;
	unsigned i;
	FILE *fp;

	for (i = 0; i < NFILES; i++) {
		(void)snprintf(dir, sizeof(dir), "%s/sys/%s/d%u", base,
		    dirs[i % NDIRS], i / 100);
		mkdirs(dir);
		(void)snprintf(path, sizeof(path), "%s/f%u.c", dir, i);
		if ((fp = fopen(path, "w")) == NULL) {
			perror(path);
			exit(1);
		}
		lines += make_file(fp, i);
		(void)fclose(fp);
	}
	return lines;
}

/*
 * The baselines: read (or only stat) every file in the directory open
 * as dfd, looking each up from its directory as kindex.c does, so that
 * the ratio is to the least any walk of the tree costs.
 */
static void
walk(int dfd, int doread, size_t *bytes)
{
	static char buf[1 << 16];
	struct dirent *de;
	struct stat sb;
	ssize_t r;
	DIR *d;
	int fd;

	if ((d = fdopendir(dfd)) == NULL) {
		(void)close(dfd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || fstatat(dirfd(d), de->d_name, &sb,
		    AT_SYMLINK_NOFOLLOW) == -1)
			continue;
		if (S_ISDIR(sb.st_mode)) {
			if ((fd = openat(dirfd(d), de->d_name,
			    O_RDONLY | O_DIRECTORY)) != -1)
				walk(fd, doread, bytes);
		} else if (doread && (fd = openat(dirfd(d), de->d_name,
		    O_RDONLY)) != -1) {
			while ((r = read(fd, buf, sizeof(buf))) > 0)
				*bytes += (size_t)r;
			(void)close(fd);
		}
	}
	(void)closedir(d);
}

static double
time_build(struct store *st, size_t *ndefs, size_t *nread)
{
	static const char *const all[] = { ".", NULL };
	struct diaglist dl;
	struct kindex ki;
	double t0;

	diag_init(&dl);
	t0 = bench_now();
	if (kindex_build(&ki, base, all, st, &dl) != STORE_OK) {
		diag_print(&dl, stderr, "bench_kindex");
		exit(1);
	}
	t0 = bench_now() - t0;
	*ndefs = ki.n;
	*nread = ki.nread;
	kindex_free(&ki);
	diag_free(&dl);
	return t0 * 1e3;
}

/* A second run: the index from the cache, NLOOKUPS answers checked. */
static double
time_open(struct store *st, size_t *nread, size_t *nfound)
{
	static const char *const all[] = { ".", NULL };
	const struct kindex_def *d;
	struct diaglist dl;
	struct kindex ki;
	char name[64];
	double t0;
	int i;

	diag_init(&dl);
	*nfound = 0;
	t0 = bench_now();
	if (kindex_open(&ki, base, all, st, &dl) != STORE_OK) {
		diag_print(&dl, stderr, "bench_kindex");
		exit(1);
	}
	for (i = 0; i < NLOOKUPS; i++) {
		(void)snprintf(name, sizeof(name), "f%d_%d",
		    (i * 397) % NFILES, i % 5);
		*nfound += kindex_lookup(&ki, name, &d, &dl);
	}
	t0 = bench_now() - t0;
	*nread = ki.walked ? ki.nfiles : ki.nread;
	kindex_free(&ki);
	diag_free(&dl);
	return t0 * 1e3;
}

static double
time_walk(int doread)
{
	char sys[1100];
	size_t bytes = 0;
	double t0 = bench_now();
	int fd;

	(void)snprintf(sys, sizeof(sys), "%s/sys", base);
	if ((fd = open(sys, O_RDONLY | O_DIRECTORY)) != -1)
		walk(fd, doread, &bytes);
	return (bench_now() - t0) * 1e3;
}

int
main(void)
{
	double first[ROUNDS], cached[ROUNDS], rd[ROUNDS], st_[ROUNDS];
	double rf[ROUNDS], rc[ROUNDS], walked[ROUNDS], rw[ROUNDS];
	char db[1200], cmd[1300];
	size_t ndefs = 0, nread = 0, ncached = 0, nopened = 0, nfound = 0;
	unsigned long lines;
	struct diaglist dl;
	struct store *st;
	int i;

	(void)snprintf(base, sizeof(base), "%s/ksrc", tap_tmpdir());
	lines = make_tree();
	/* Warm the page cache as a developer's tree is. */
	(void)time_walk(1);
	diag_init(&dl);
	for (i = 0; i < ROUNDS; i++) {
		(void)snprintf(db, sizeof(db), "%s/k%d.db", tap_tmpdir(), i);
		if (store_open(&st, db, STORE_CREATE, &dl) != STORE_OK) {
			diag_print(&dl, stderr, "bench_kindex");
			return 1;
		}
		rd[i] = time_walk(1);
		first[i] = time_build(st, &ndefs, &nread);
		st_[i] = time_walk(0);
		walked[i] = time_build(st, &ndefs, &ncached);
		cached[i] = time_open(st, &nopened, &nfound);
		rf[i] = first[i] / rd[i];
		rc[i] = cached[i] / st_[i];
		rw[i] = walked[i] / st_[i];
		store_close(st);
		(void)unlink(db);
	}
	printf("kindex: a made-up sys/ of %d files, %lu lines, %zu "
	    "definitions\n", NFILES, lines, ndefs);
	printf("  index:  %.0f ms (target < 2000 ms), %zu files read; "
	    "reading them alone %.0f ms; ratio %.2f\n",
	    bench_median(first, ROUNDS), nread, bench_median(rd, ROUNDS),
	    bench_median(rf, ROUNDS));
	printf("  stat()ing every file (baseline): %.1f ms\n",
	    bench_median(st_, ROUNDS));
	printf("  cached: %.1f ms (target < 50 ms): from the cache, %d "
	    "lookups (%zu found) each checked against its file, %zu files "
	    "read; ratio %.2f\n", bench_median(cached, ROUNDS), NLOOKUPS,
	    nfound, nopened, bench_median(rc, ROUNDS));
	printf("  walked: %.1f ms, every file stat()ed, %zu read (a lookup "
	    "whose file changed); ratio %.2f\n", bench_median(walked, ROUNDS),
	    ncached, bench_median(rw, ROUNDS));
	diag_free(&dl);
	(void)snprintf(cmd, sizeof(cmd), "rm -rf %s", base);
	(void)system(cmd);
	return 0;
}
