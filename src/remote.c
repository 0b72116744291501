/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test boxes over ssh (see remote.h): the spec parser, the master
 * connection, the box's facts and files, and the commands run there
 * through the master.  The agents the tests run in are in
 * remote_agent.c, below this file, and a test's exchange with one in
 * remote_exec.c; what they use (strings, the ssh processes) is in
 * remote_buf.c and remote_proc.c, below them all.
 *
 * The login shell on the box may be csh (root's on NetBSD), which
 * expands "!" even in single quotes and takes no newline in them: all
 * it is given is "exec /bin/sh -s", and the script goes to sh on ssh's
 * stdin, one line that sh reads and parses whole before it runs any of
 * it.  The rest of stdin is then, for the master, its life.
 */
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ltpscope/numparse.h"
#include "ltpscope/paths.h"
#include "ltpscope/remote.h"
#include "ltpscope/rmtree.h"
#include "ltpscope/slurp.h"
#include "ltpscope/xmalloc.h"
#include "remote_impl.h"

#define REMOTE_CONNECT_S	15
#define REMOTE_ALIVE_S		5
#define REMOTE_ALIVE_COUNT	3
/* A unix socket path must fit sun_path (104 bytes on the BSDs). */
#define REMOTE_SOCK_MAX		100
/* What remote_capture() keeps of a command's output. */
#define REMOTE_CAPTURE_MAX	(4u * 1024 * 1024)
/* What remote_fetch() takes of a file: LTP's ltp.json is a few MiB. */
#define REMOTE_FETCH_MAX	(64u * 1024 * 1024)
/* A kernel config is a few hundred KiB; more is not one. */
#define REMOTE_KCONFIG_MAX	(16u * 1024 * 1024)

static int	remote_send_kconfig(struct remote *, struct diaglist *);

/* Characters that would let a host or user name act as an option. */
static int
remote_bad_name(const char *s)
{
	const unsigned char *p;

	if (*s == '\0' || *s == '-')
		return 1;
	for (p = (const unsigned char *)s; *p != '\0'; p++)
		if (*p <= ' ' || *p == 0x7f || strchr("'\"\\`$;&|<>(){}*?!",
		    *p) != NULL)
			return 1;
	return 0;
}

int
remote_parse(const char *spec, struct remote_addr *a, struct diaglist *dl)
{
	const char *at, *hp, *colon = NULL, *hend;
	char msg[160];
	long long port;

	memset(a, 0, sizeof(*a));
	if (spec == NULL || *spec == '\0') {
		diag_error(dl, NULL, 0, "--host: empty host");
		return -1;
	}
	hp = spec;
	if ((at = strrchr(spec, '@')) != NULL) {
		a->user = xstrndup(spec, (size_t)(at - spec));
		hp = at + 1;
		if (remote_bad_name(a->user)) {
			diag_error(dl, NULL, 0, "--host %s: bad user name '%s'",
			    spec, a->user);
			goto fail;
		}
	}
	if (*hp == '[') {
		/* An IPv6 literal: [addr] or [addr]:port. */
		if ((hend = strchr(hp, ']')) == NULL) {
			diag_error(dl, NULL, 0, "--host %s: no ']' after the "
			    "address", spec);
			goto fail;
		}
		a->host = xstrndup(hp + 1, (size_t)(hend - hp - 1));
		if (hend[1] == ':')
			colon = hend + 1;
		else if (hend[1] != '\0') {
			diag_error(dl, NULL, 0, "--host %s: junk after ']'",
			    spec);
			goto fail;
		}
	} else {
		colon = strchr(hp, ':');
		if (colon != NULL && strchr(colon + 1, ':') != NULL) {
			diag_error(dl, NULL, 0, "--host %s: an IPv6 address "
			    "goes in brackets: [addr]:port", spec);
			goto fail;
		}
		a->host = colon != NULL ? xstrndup(hp, (size_t)(colon - hp)) :
		    xstrdup(hp);
	}
	if (remote_bad_name(a->host)) {
		diag_error(dl, NULL, 0, "--host %s: bad host name '%s'", spec,
		    a->host);
		goto fail;
	}
	if (colon != NULL) {
		if (colon[1] < '0' || colon[1] > '9' || numparse_ll(colon + 1,
		    1, 65535, &port, msg, sizeof(msg)) != 0) {
			diag_error(dl, NULL, 0, "--host %s: the port must be "
			    "1 to 65535, not '%s'", spec, colon + 1);
			goto fail;
		}
		a->port = (int)port;
	}
	return 0;
fail:
	remote_addr_free(a);
	return -1;
}

void
remote_addr_free(struct remote_addr *a)
{
	free(a->user);
	free(a->host);
	memset(a, 0, sizeof(*a));
}

/* prog's absolute path: itself if it has a '/', else found in PATH. */
static char *
remote_find_program(const char *prog)
{
	const char *path, *p, *end;
	char *cand, cwd[PATH_MAX];

	if (strchr(prog, '/') != NULL) {
		if (prog[0] == '/' || getcwd(cwd, sizeof(cwd)) == NULL)
			return xstrdup(prog);
		xasprintf(&cand, "%s/%s", cwd, prog);
		return cand;
	}
	if ((path = getenv("PATH")) == NULL || *path == '\0')
		path = "/usr/bin:/bin";
	for (p = path; *p != '\0'; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ":");
		if (end == p || *p != '/')
			continue;
		xasprintf(&cand, "%.*s/%s", (int)(end - p), p, prog);
		if (access(cand, X_OK) == 0)
			return cand;
		free(cand);
	}
	return NULL;
}

/* Writes all of s to a pipe nobody reads yet: it must fit. */
static int
remote_write_all(int fd, const char *s, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, s, len)) == -1) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * What the master runs: the box's facts, one "key=value" line each,
 * then an end line, then nothing until its stdin (our pipe) closes.
 */
static char *
remote_describe_script(const struct remote *rm, const char *nonce)
{
	struct remote_buf b = { NULL, 0, 0 };

	remote_buf_add(&b, "echo \"sysname=$(uname -s)\"; "
	    "echo \"nodename=$(uname -n)\"; "
	    "echo \"release=$(uname -r)\"; "
	    "echo \"version=$(uname -v)\"; "
	    "echo \"machine=$(uname -m)\"; "
	    "echo \"processor=$(uname -p 2>/dev/null)\"; "
	    "echo \"emul=$(sysctl -n emul.linux.kern.osrelease "
	    "2>/dev/null)\"; "
	    "echo \"boot=$(sysctl -n kernel.random.boot_id 2>/dev/null || "
	    "sysctl -n kern.boottime 2>/dev/null || "
	    "cat /proc/sys/kernel/random/boot_id 2>/dev/null)\"; "
	    "echo \"ltp=$(head -n 1 ");
	remote_buf_quote(&b, rm->ltproot);
	remote_buf_add(&b, "/Version 2>/dev/null)\"; echo end=");
	remote_buf_add(&b, nonce);
	remote_buf_add(&b, "; exec cat >/dev/null\n");
	return b.s;
}

static void
remote_box_set(struct remote_box *box, const char *line)
{
	static const struct {
		const char	*key;
		size_t		 off;
	} keys[] = {
		{ "sysname=", offsetof(struct remote_box, sysname) },
		{ "nodename=", offsetof(struct remote_box, nodename) },
		{ "release=", offsetof(struct remote_box, release) },
		{ "version=", offsetof(struct remote_box, version) },
		{ "machine=", offsetof(struct remote_box, machine) },
		{ "processor=", offsetof(struct remote_box, processor) },
		{ "emul=", offsetof(struct remote_box, emul_release) },
		{ "boot=", offsetof(struct remote_box, boot_id) },
		{ "ltp=", offsetof(struct remote_box, ltp_version) },
	};
	size_t i, klen;
	char **slot;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		klen = strlen(keys[i].key);
		if (strncmp(line, keys[i].key, klen) != 0)
			continue;
		slot = (char **)(void *)((char *)box + keys[i].off);
		free(*slot);
		*slot = xstrdup(line + klen);
		return;
	}
}

static void
remote_box_fill(struct remote_box *box)
{
	char **v[] = { &box->sysname, &box->nodename, &box->release,
	    &box->version, &box->machine, &box->processor,
	    &box->emul_release, &box->ltp_version, &box->boot_id };
	size_t i;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (*v[i] == NULL)
			*v[i] = xstrdup("");
}

static void
remote_box_free(struct remote_box *box)
{
	free(box->sysname);
	free(box->nodename);
	free(box->release);
	free(box->version);
	free(box->machine);
	free(box->processor);
	free(box->emul_release);
	free(box->ltp_version);
	free(box->boot_id);
	memset(box, 0, sizeof(*box));
}

/* Ends the master: EOF on its stdin, then signals if it lingers. */
static void
remote_master_stop(struct remote *rm)
{
	long long deadline;
	pid_t w;
	int st;

	if (rm->master_in >= 0)
		close(rm->master_in);
	rm->master_in = -1;
	if (rm->master > 0) {
		/* A box known dead would keep ssh waiting for nothing. */
		deadline = remote_now_ms() + (rm->gone ? 0 : REMOTE_CLOSE_MS);
		while ((w = waitpid(rm->master, &st, WNOHANG)) == 0 &&
		    remote_now_ms() < deadline)
			(void)poll(NULL, 0, 5);
		if (w == 0) {
			(void)kill(rm->master, SIGTERM);
			(void)waitpid(rm->master, &st, 0);
		}
		rm->master = 0;
	}
	if (rm->master_out >= 0)
		close(rm->master_out);
	rm->master_out = -1;
}

/*
 * Starts the master and reads the box's facts from it; 0, or -1 with
 * what ssh said in dl.
 */
static int
remote_master_start(struct remote *rm, struct diaglist *dl)
{
	struct remote_buf out = { NULL, 0, 0 };
	char *script, nonce[17], endline[32], buf[4096], *nl, *p;
	int inp[2] = { -1, -1 }, outp[2] = { -1, -1 }, done = 0;
	long long deadline;
	struct pollfd pfd;
	ssize_t r;

	remote_nonce(nonce);
	snprintf(endline, sizeof(endline), "end=%s\n", nonce);
	if (pipe(inp) == -1 || pipe(outp) == -1 ||
	    remote_set_cloexec(inp[1]) == -1 ||
	    remote_set_cloexec(outp[0]) == -1) {
		diag_error(dl, NULL, 0, "%s: pipe: %s", rm->spec,
		    strerror(errno));
		goto fail;
	}
	script = remote_describe_script(rm, nonce);
	if (strlen(script) > REMOTE_SCRIPT_MAX ||
	    remote_write_all(inp[1], script, strlen(script)) == -1) {
		diag_error(dl, NULL, 0, "%s: cannot write to ssh: %s",
		    rm->spec, strerror(errno));
		free(script);
		goto fail;
	}
	free(script);
	rm->master = remote_spawn(rm, "yes", REMOTE_SH, inp[0], outp[1]);
	if (rm->master == -1) {
		rm->master = 0;
		diag_error(dl, NULL, 0, "%s: cannot run %s: %s", rm->spec,
		    rm->ssh, strerror(errno));
		goto fail;
	}
	close(inp[0]);
	close(outp[1]);
	inp[0] = outp[1] = -1;
	rm->master_in = inp[1];
	rm->master_out = outp[0];
	deadline = remote_now_ms() + (long long)rm->connect_s * 1000 + 5000;
	while (!done) {
		long long left = deadline - remote_now_ms();

		if (left <= 0)
			break;
		pfd.fd = rm->master_out;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)left) <= 0)
			continue;
		if ((r = read(rm->master_out, buf, sizeof(buf))) <= 0) {
			if (r == -1 && errno == EINTR)
				continue;
			break;
		}
		remote_buf_addn(&out, buf, (size_t)r);
		done = strstr(out.s, endline) != NULL;
	}
	if (!done) {
		/* ssh's own words say why: refused, no route, no key. */
		p = out.s != NULL ? out.s : xstrdup("");
		/* Its line end may be "\r\n": no control byte is quoted. */
		p[strcspn(p, "\r\n")] = '\0';
		diag_error(dl, NULL, 0, "%s: cannot connect%s%s", rm->spec,
		    *p ? ": " : " (no answer in time)", p);
		if (p != out.s)
			free(p);
		free(out.s);
		remote_master_stop(rm);
		return -1;
	}
	for (p = out.s; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		*nl = '\0';
		remote_box_set(&rm->box, p);
	}
	remote_box_fill(&rm->box);
	free(out.s);
	return 0;
fail:
	remote_close_pipe(inp);
	remote_close_pipe(outp);
	return -1;
}

/* A private directory for the socket, short enough for sun_path. */
static char *
remote_private_dir(void)
{
	const char *base = getenv("TMPDIR");
	char *dir;

	if (base == NULL || base[0] != '/' ||
	    strlen(base) + 32 > REMOTE_SOCK_MAX)
		base = "/tmp";
	xasprintf(&dir, "%s/ltpscope-ssh.XXXXXX", base);
	if (mkdtemp(dir) == NULL) {
		free(dir);
		return NULL;
	}
	return dir;
}

struct remote *
remote_open(const char *spec, const struct remote_opts *o,
    struct diaglist *dl)
{
	static const struct remote_opts defaults;
	struct remote *rm;

	if (o == NULL)
		o = &defaults;
	rm = xcalloc(1, sizeof(*rm));
	rm->master_in = rm->master_out = -1;
	rm->agents = remote_agents_new();
	rm->spec = xstrdup(spec != NULL ? spec : "");
	if (remote_parse(spec, &rm->addr, dl) != 0)
		goto fail;
	if ((rm->ssh = remote_find_program(o->ssh != NULL ? o->ssh : "ssh"))
	    == NULL) {
		diag_error(dl, NULL, 0, "%s: no ssh client in PATH (install "
		    "OpenSSH's client)", rm->spec);
		goto fail;
	}
	rm->config = o->config != NULL ? xstrdup(o->config) : NULL;
	rm->ltproot = xstrdup(o->ltproot != NULL ? o->ltproot :
	    PATHS_LTPROOT);
	rm->tmpbase = o->tmpbase != NULL ? xstrdup(o->tmpbase) : NULL;
	rm->connect_s = o->connect_timeout_s > 0 ? o->connect_timeout_s :
	    REMOTE_CONNECT_S;
	rm->alive_s = o->alive_interval_s > 0 ? o->alive_interval_s :
	    REMOTE_ALIVE_S;
	rm->alive_n = o->alive_count > 0 ? o->alive_count :
	    REMOTE_ALIVE_COUNT;
	if ((rm->dir = remote_private_dir()) == NULL) {
		diag_error(dl, NULL, 0, "%s: cannot make a directory for the "
		    "ssh socket: %s", rm->spec, strerror(errno));
		goto fail;
	}
	xasprintf(&rm->sock, "%s/ctl", rm->dir);
	if (remote_master_start(rm, dl) != 0)
		goto fail;
	if (o->kconfig != NULL && o->kconfig[0] != '\0') {
		rm->kconfig = xstrdup(o->kconfig);
		if (remote_send_kconfig(rm, dl) != 0)
			goto fail;
	}
	return rm;
fail:
	remote_close(rm);
	return NULL;
}

void
remote_close(struct remote *rm)
{
	if (rm == NULL)
		return;
	/* First: each removes its directory there as it ends. */
	remote_agents_free(rm->agents, remote_alive(rm));
	rm->agents = NULL;
	/* The box may have gone: then there is nothing to remove. */
	if (rm->boxdir != NULL && remote_alive(rm)) {
		struct diaglist dl;
		struct remote_buf b = { NULL, 0, 0 };
		char *out = NULL;
		size_t len;

		diag_init(&dl);
		remote_buf_add(&b, "rm -rf ");
		remote_buf_quote(&b, rm->boxdir);
		(void)remote_capture(rm, b.s, rm->connect_s, &out, &len, &dl);
		free(out);
		free(b.s);
		diag_free(&dl);
	}
	remote_master_stop(rm);
	if (rm->dir != NULL)
		(void)rmtree(rm->dir);
	remote_addr_free(&rm->addr);
	remote_box_free(&rm->box);
	free(rm->spec);
	free(rm->ssh);
	free(rm->config);
	free(rm->ltproot);
	free(rm->tmpbase);
	free(rm->kconfig);
	free(rm->boxdir);
	free(rm->box_kconfig);
	free(rm->dir);
	free(rm->sock);
	free(rm);
}

void
remote_give_up(struct remote *rm)
{
	if (rm != NULL)
		rm->gone = 1;
}

const char *
remote_spec(const struct remote *rm)
{
	return rm->spec;
}

const struct remote_box *
remote_box(const struct remote *rm)
{
	return &rm->box;
}

const char *
remote_box_arch(const struct remote_box *rb)
{
	if (strncmp(rb->machine, "evb", 3) == 0 && rb->processor[0] != '\0')
		return rb->processor;
	return rb->machine;
}

const char *
remote_ltproot(const struct remote *rm)
{
	return rm->ltproot;
}

const char *
remote_ssh_config(const struct remote *rm)
{
	return rm->config;
}

int
remote_alive(const struct remote *rm)
{
	siginfo_t si;

	if (rm->master <= 0 || rm->gone)
		return 0;
	/* Looked at, not reaped: remote_close() does that. */
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)rm->master, &si, WEXITED | WNOHANG |
	    WNOWAIT) == -1)
		return 0;
	return si.si_pid != rm->master;
}

/*
 * Runs command through the master (the login shell parses it: see
 * remote_plain_ok()), its stdin carrying script (a line, may be NULL)
 * then in (inlen bytes, may be NULL), then EOF; keeps its output, at
 * most max bytes (*cut set when there was more).  The command's exit
 * status (255: ssh's own failure), or -1 with *outp NULL and dl saying
 * why when the box did not answer in timeout_s.
 */
static int
remote_talk(const struct remote *rm, const char *command,
    const char *script, const char *in, size_t inlen, int timeout_s,
    size_t max, char **outp, size_t *lenp, int *cut, struct diaglist *dl)
{
	struct remote_buf out = { NULL, 0, 0 }, send = { NULL, 0, 0 };
	struct pollfd pfd[2];
	struct remote_sigpipe hold = { .held = 0 };
	char buf[4096];
	int inp[2] = { -1, -1 }, outp2[2] = { -1, -1 }, st, eof = 0;
	long long deadline;
	size_t sent = 0;
	ssize_t r;
	nfds_t np;
	pid_t pid, w;

	*outp = NULL;
	*lenp = 0;
	*cut = 0;
	if (script != NULL) {
		remote_buf_add(&send, script);
		remote_buf_add(&send, "\n");
	}
	if (pipe(inp) == -1 || pipe(outp2) == -1 ||
	    remote_set_cloexec(inp[1]) == -1 ||
	    remote_set_cloexec(outp2[0]) == -1 ||
	    remote_set_nonblock(inp[1]) == -1) {
		diag_error(dl, NULL, 0, "%s: cannot ask the box: %s",
		    rm->spec, strerror(errno));
		goto fail;
	}
	/* What fits the pipe goes while we hold its other end: no SIGPIPE. */
	while (sent < send.len + inlen) {
		r = sent < send.len ? write(inp[1], send.s + sent, send.len -
		    sent) : write(inp[1], in + (sent - send.len), send.len +
		    inlen - sent);
		if (r <= 0)
			break;
		sent += (size_t)r;
	}
	/*
	 * The rest, if any, goes to an ssh that may die (the box gone):
	 * a write then fails with EPIPE, its SIGPIPE held and taken
	 * back, instead of ending ltpscope.
	 */
	if (sent < send.len + inlen)
		remote_sigpipe_hold(&hold);
	pid = remote_spawn(rm, "no", command, inp[0], outp2[1]);
	close(inp[0]);
	close(outp2[1]);
	inp[0] = outp2[1] = -1;
	if (pid == -1) {
		diag_error(dl, NULL, 0, "%s: cannot run %s: %s", rm->spec,
		    rm->ssh, strerror(errno));
		goto fail;
	}
	deadline = remote_now_ms() + (long long)timeout_s * 1000;
	while (!eof && remote_now_ms() < deadline) {
		/* What is left to send: the script, then in. */
		if (inp[1] >= 0 && sent >= send.len + inlen) {
			close(inp[1]);
			inp[1] = -1;
		}
		pfd[0].fd = outp2[0];
		pfd[0].events = POLLIN;
		np = 1;
		if (inp[1] >= 0) {
			pfd[1].fd = inp[1];
			pfd[1].events = POLLOUT;
			pfd[1].revents = 0;
			np = 2;
		}
		if (poll(pfd, np, (int)(deadline - remote_now_ms())) <= 0)
			continue;
		if (np == 2 && pfd[1].revents != 0) {
			if (sent < send.len)
				r = write(inp[1], send.s + sent,
				    send.len - sent);
			else
				r = write(inp[1], in + (sent - send.len),
				    send.len + inlen - sent);
			if (r > 0)
				sent += (size_t)r;
			else if (r == -1 && errno != EINTR &&
			    errno != EAGAIN) {
				/* It stopped reading: its output says why. */
				close(inp[1]);
				inp[1] = -1;
			}
		}
		if (pfd[0].revents == 0)
			continue;
		if ((r = read(outp2[0], buf, sizeof(buf))) == -1 &&
		    errno == EINTR)
			continue;
		if (r <= 0)
			eof = 1;
		else if (out.len + (size_t)r <= max)
			remote_buf_addn(&out, buf, (size_t)r);
		else
			*cut = 1;
	}
	free(send.s);
	send.s = NULL;
	if (inp[1] >= 0)
		close(inp[1]);
	inp[1] = -1;
	remote_sigpipe_release(&hold);
	close(outp2[0]);
	outp2[0] = -1;
	if ((w = waitpid(pid, &st, WNOHANG)) == 0) {
		(void)kill(pid, SIGKILL);
		w = waitpid(pid, &st, 0);
	}
	if (!eof) {
		diag_error(dl, NULL, 0, "%s: no answer in %d s", rm->spec,
		    timeout_s);
		free(out.s);
		return -1;
	}
	*outp = out.s != NULL ? out.s : xstrdup("");
	*lenp = out.len;
	return w == pid && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
fail:
	free(send.s);
	remote_sigpipe_release(&hold);
	remote_close_pipe(inp);
	remote_close_pipe(outp2);
	return -1;
}

int
remote_capture(const struct remote *rm, const char *script, int timeout_s,
    char **outp, size_t *lenp, struct diaglist *dl)
{
	int cut;

	if (strlen(script) + 1 > REMOTE_SCRIPT_MAX) {
		diag_error(dl, NULL, 0, "%s: cannot ask the box: the script "
		    "is too long", rm->spec);
		*outp = NULL;
		*lenp = 0;
		return -1;
	}
	/* EOF after the script: sh ends when it has run it. */
	return remote_talk(rm, REMOTE_SH, script, NULL, 0, timeout_s,
	    REMOTE_CAPTURE_MAX, outp, lenp, &cut, dl);
}

int
remote_fetch(const struct remote *rm, const char *path, int timeout_s,
    char **datap, size_t *lenp, struct diaglist *dl)
{
	struct remote_buf b = { NULL, 0, 0 };
	char *out;
	size_t len;
	int rc, cut;

	*datap = NULL;
	*lenp = 0;
	if (path[0] != '/') {
		diag_error(dl, NULL, 0, "%s: %s: a path on the box must be "
		    "absolute", rm->spec, path);
		return -1;
	}
	/* 3: nothing there; 4: there, but no file sh can read. */
	remote_buf_add(&b, "p=");
	remote_buf_quote(&b, path);
	remote_buf_add(&b, "; [ -e \"$p\" ] || exit 3; "
	    "if [ -f \"$p\" ] && [ -r \"$p\" ]; then exec cat <\"$p\"; fi; "
	    "echo 'not a readable file'; exit 4");
	rc = remote_talk(rm, REMOTE_SH, b.s, NULL, 0, timeout_s,
	    REMOTE_FETCH_MAX, &out, &len, &cut, dl);
	free(b.s);
	if (rc == -1 && out == NULL)
		return -1;
	if (rc == 0 && !cut) {
		*datap = out;
		*lenp = len;
		return 0;
	}
	if (rc == 3) {
		free(out);
		return 1;
	}
	if (rc == 0)
		diag_error(dl, NULL, 0, "%s: %s: more than %u MiB", rm->spec,
		    path, REMOTE_FETCH_MAX >> 20);
	else
		diag_error(dl, NULL, 0, "%s: %s: cannot read it there%s%s",
		    rm->spec, path, len > 0 ? ": " : "",
		    remote_first_words(out, len));
	free(out);
	return -1;
}

/*
 * Whether s may go into a command the login shell parses, in single
 * quotes: csh (root's on NetBSD) expands "!" even there and takes no
 * newline in them.
 */
static int
remote_plain_ok(const char *s)
{
	return strpbrk(s, "!'\n\r") == NULL;
}

/*
 * Sends the run's kernel config to a directory of this connection's on
 * the box (below the TMPDIR base the tests get theirs in), so that
 * the agents can point every test's KCONFIG_PATH at it.  0, or -1 with dl
 * naming the file or the box.
 */
static int
remote_send_kconfig(struct remote *rm, struct diaglist *dl)
{
	struct remote_buf b = { NULL, 0, 0 };
	char nonce[17], *data = NULL, *out = NULL;
	size_t len, olen;
	int rc, cut;

	if (slurp_file_diag(rm->kconfig, REMOTE_KCONFIG_MAX, &data, &len,
	    dl) != 0)
		return -1;
	if (len > REMOTE_KCONFIG_MAX) {
		diag_error(dl, rm->kconfig, 0, "more than %u MiB: not a "
		    "kernel config", REMOTE_KCONFIG_MAX >> 20);
		free(data);
		return -1;
	}
	remote_nonce(nonce);
	remote_buf_add(&b, "b=");
	if (rm->tmpbase != NULL)
		remote_buf_quote(&b, rm->tmpbase);
	else
		remote_buf_add(&b, "${TMPDIR:-/tmp}");
	remote_buf_add(&b, "; case $b in /*) ;; *) b=/tmp;; esac; "
	    "d=$b/ltpscope-box.");
	remote_buf_add(&b, nonce);
	remote_buf_add(&b, "; umask 022; mkdir \"$d\" && echo \"$d\"");
	rc = remote_talk(rm, REMOTE_SH, b.s, NULL, 0, rm->connect_s,
	    REMOTE_CAPTURE_MAX, &out, &olen, &cut, dl);
	free(b.s);
	b.s = NULL;
	b.len = b.cap = 0;
	if (rc != 0 || olen < 2 || out[0] != '/' ||
	    out[olen - 1] != '\n') {
		if (out != NULL)
			diag_error(dl, NULL, 0, "%s: cannot make a directory "
			    "for the kernel config there%s%s", rm->spec,
			    olen > 0 ? ": " : "",
			    remote_first_words(out, olen));
		free(out);
		free(data);
		return -1;
	}
	out[olen - 1] = '\0';
	rm->boxdir = out;
	xasprintf(&rm->box_kconfig, "%s/kconfig", rm->boxdir);
	if (!remote_plain_ok(rm->box_kconfig)) {
		diag_error(dl, NULL, 0, "%s: %s: no \"!\", quote or newline "
		    "in the box's TMPDIR, please", rm->spec, rm->box_kconfig);
		free(data);
		return -1;
	}
	/* The data go straight to cat: no shell reads them. */
	remote_buf_add(&b, "cat >'");
	remote_buf_add(&b, rm->box_kconfig);
	remote_buf_add(&b, "'");
	out = NULL;
	rc = remote_talk(rm, b.s, NULL, data, len, rm->connect_s +
	    (int)(len >> 16), REMOTE_CAPTURE_MAX, &out, &olen, &cut, dl);
	free(b.s);
	free(data);
	if (rc != 0) {
		if (out != NULL)
			diag_error(dl, NULL, 0, "%s: cannot copy %s to %s "
			    "there%s%s", rm->spec, rm->kconfig,
			    rm->box_kconfig, olen > 0 ? ": " : "",
			    remote_first_words(out, olen));
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

const char *
remote_kconfig(const struct remote *rm)
{
	return rm->box_kconfig;
}

char **
remote_command_argv(const struct remote *rm, const char *command)
{
	char **v;
	size_t n;

	remote_ssh_argv(rm, "no", &v, &n);
	v[n++] = xstrdup(command);
	v[n] = NULL;
	return v;
}
