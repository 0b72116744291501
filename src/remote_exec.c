/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A test run in an agent on a box (see remote.h), the protocol's side:
 * the test's line for the agent, controls sent on it, and what comes
 * back read apart, the test's output from the marks (RS, the test's
 * nonce, a letter) that say its leader ended ("D"), its status and
 * stragglers ("X"), what the kernel said ("k", "l", "t") or an error
 * ("E").  The agents themselves, their script and processes, are in
 * remote_agent.c, below this file.
 */
#include <sys/types.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ltpscope/remote.h"
#include "ltpscope/xmalloc.h"
#include "remote_impl.h"

/* Per remote_exec_service() call, so that a flood cannot starve a UI. */
#define AGENT_READ_CAP		(4 * 1024 * 1024)

struct remote_exec {
	const struct remote *rm;
	struct remote_agent *ag;	/* while it has one */
	char	 *cmd;		/* the test's line for the agent */
	int	  sent;
	char	  queued[8];	/* controls asked for before it went */
	size_t	  nqueued;
	char	  mark[20];	/* RS + nonce + " " */
	size_t	  mlen;
	char	  hold[20];	/* a possible start of a mark */
	size_t	  nhold;
	int	  state;	/* 0 output, 1 a mark's line, 2 done */
	char	  line[512];	/* a mark's line after the mark */
	size_t	  nline;
	int	  leader_done;
	int	  quits;	/* the agent ends after this test */
	int	  lost;
	struct remote_status st;
	struct remote_buf kmsg;		/* the kernel's ("k", "l") */
};

static int
remote_env_name_ok(const char *e)
{
	size_t i, len = strcspn(e, "=");

	if (len == 0 || e[len] != '=' || (e[0] >= '0' && e[0] <= '9'))
		return 0;
	for (i = 0; i < len; i++)
		if (!((e[i] >= 'a' && e[i] <= 'z') ||
		    (e[i] >= 'A' && e[i] <= 'Z') ||
		    (e[i] >= '0' && e[i] <= '9') || e[i] == '_'))
			return 0;
	return 1;
}

/* s quoted for sh on one line: a newline is the agent's "$nl". */
static void
agent_quote(struct remote_buf *b, const char *s)
{
	const char *nl;
	char *part;

	while ((nl = strchr(s, '\n')) != NULL) {
		part = xstrndup(s, (size_t)(nl - s));
		remote_buf_quote(b, part);
		free(part);
		remote_buf_add(b, "\"$nl\"");
		s = nl + 1;
	}
	remote_buf_quote(b, s);
}

/*
 * The test's line: its nonce, grace and J, which sets its environment
 * and becomes the test, in the process the agent starts for it.
 */
static char *
agent_test_line(const char *nonce, char *const argv[], char *const env[],
    int grace_s)
{
	struct remote_buf b = { NULL, 0, 0 };
	char num[32];
	size_t i, len;
	char *name;

	remote_buf_add(&b, "N=");
	remote_buf_add(&b, nonce);
	snprintf(num, sizeof(num), "; G=%d; J() { ", grace_s);
	remote_buf_add(&b, num);
	for (i = 0; env != NULL && env[i] != NULL; i++) {
		if (!remote_env_name_ok(env[i]))
			continue;
		len = strcspn(env[i], "=");
		name = xstrndup(env[i], len);
		remote_buf_add(&b, name);
		remote_buf_add(&b, "=");
		agent_quote(&b, env[i] + len + 1);
		remote_buf_add(&b, "; export ");
		remote_buf_add(&b, name);
		remote_buf_add(&b, "; ");
		free(name);
	}
	remote_buf_add(&b, "exec $s");
	for (i = 0; argv[i] != NULL; i++) {
		remote_buf_add(&b, " ");
		agent_quote(&b, argv[i]);
	}
	remote_buf_add(&b, "; }\n");
	return b.s;
}

struct remote_exec *
remote_exec_new(const struct remote *rm, char *const argv[],
    char *const env[], int grace_s, struct diaglist *dl)
{
	struct remote_exec *x;
	char nonce[17], *cmd;

	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0') {
		diag_error(dl, NULL, 0, "%s: empty command", rm->spec);
		return NULL;
	}
	remote_nonce(nonce);
	cmd = agent_test_line(nonce, argv, env, grace_s > 0 ? grace_s : 1);
	if (strlen(cmd) > REMOTE_SCRIPT_MAX) {
		diag_error(dl, NULL, 0, "%s: the command is too long to send "
		    "(%zu bytes; at most %d)", rm->spec, strlen(cmd),
		    REMOTE_SCRIPT_MAX);
		free(cmd);
		return NULL;
	}
	x = xcalloc(1, sizeof(*x));
	x->rm = rm;
	x->cmd = cmd;
	x->mark[0] = REMOTE_MARK;
	memcpy(x->mark + 1, nonce, 16);
	x->mark[17] = ' ';
	x->mlen = 18;
	return x;
}

const char *
remote_exec_nonce(const struct remote_exec *x, char nonce[17])
{
	memcpy(nonce, x->mark + 1, 16);
	nonce[16] = '\0';
	return nonce;
}

/* The line, and what was asked for before it could go. */
static void
remote_exec_send(struct remote_exec *x)
{
	char ctl[24], nonce[17];
	size_t i;

	if (remote_agent_write(x->ag->in, x->cmd, strlen(x->cmd)) == -1)
		return;		/* the agent's EOF will tell */
	x->sent = 1;
	remote_exec_nonce(x, nonce);
	for (i = 0; i < x->nqueued; i++) {
		snprintf(ctl, sizeof(ctl), "%c %s\n", x->queued[i], nonce);
		(void)remote_agent_write(x->ag->in, ctl, strlen(ctl));
	}
	x->nqueued = 0;
}

int
remote_exec_start(struct remote_exec *x, struct diaglist *dl)
{
	if (x->ag != NULL)
		return 0;
	if ((x->ag = remote_agent_claim(x->rm, dl)) == NULL)
		return -1;
	if (x->ag->ready)
		remote_exec_send(x);
	return 0;
}

int
remote_exec_fd(const struct remote_exec *x)
{
	return x->ag != NULL ? x->ag->out : -1;
}

int
remote_exec_leader_done(const struct remote_exec *x)
{
	return x->leader_done;
}

void
remote_exec_tell(struct remote_exec *x, int what)
{
	char ctl[24], nonce[17];

	if (x->ag == NULL || x->state == 2)
		return;
	if (!x->sent) {
		if (x->nqueued < sizeof(x->queued))
			x->queued[x->nqueued++] = (char)what;
		return;
	}
	snprintf(ctl, sizeof(ctl), "%c %s\n", what,
	    remote_exec_nonce(x, nonce));
	(void)remote_agent_write(x->ag->in, ctl, strlen(ctl));
}

/* "D", "X status stragglers flags" or "E message". */
static void
remote_exec_parse(struct remote_exec *x)
{
	struct remote_status *s = &x->st;
	char flags[16] = "";
	const char *f;

	x->line[x->nline] = '\0';
	x->nline = 0;
	if (strcmp(x->line, "D") == 0) {
		x->leader_done = 1;
		x->state = 0;
		return;
	}
	if ((x->line[0] == 'k' || x->line[0] == 'l') && x->line[1] == ' ') {
		s->kmsg_records = x->line[0] == 'k';
		/* Beyond it kmsg.h's cap would drop them anyway. */
		if (x->kmsg.len < REMOTE_KMSG_MAX) {
			remote_buf_add(&x->kmsg, x->line + 2);
			remote_buf_add(&x->kmsg, "\n");
		}
		x->state = 0;
		return;
	}
	if (x->line[0] == 't' && x->line[1] == ' ') {
		if (sscanf(x->line + 2, "%lld %lld", &s->taint_before,
		    &s->taint_after) == 2)
			s->have_taint = 1;
		x->state = 0;
		return;
	}
	x->state = 2;
	if (x->line[0] == 'E' && x->line[1] == ' ') {
		snprintf(s->error, sizeof(s->error), "%s", x->line + 2);
		s->have = 1;
		s->status = 127;
		return;
	}
	if (sscanf(x->line, "X %d %d %15s", &s->status, &s->stragglers,
	    flags) != 3) {
		snprintf(s->error, sizeof(s->error), "unreadable status line "
		    "from the box");
		return;
	}
	for (f = flags; *f != '\0'; f++)
		switch (*f) {
		case 'T':
			s->timed_out = 1;
			break;
		case 'K':
			s->killed = 1;
			break;
		case 'S':
			s->stopped = 1;
			break;
		case 'L':
			s->tmpdir_left = 1;
			break;
		case 'O':
			s->output_cut = 1;
			break;
		case 'Q':
			x->quits = 1;
			break;
		}
	s->have = 1;
}

/* Bytes after a mark: its line, up to the newline; what it used. */
static size_t
remote_exec_line_bytes(struct remote_exec *x, const char *p, size_t len)
{
	const char *nl;
	size_t n, used;

	nl = memchr(p, '\n', len);
	used = nl != NULL ? (size_t)(nl - p) + 1 : len;
	n = nl != NULL ? (size_t)(nl - p) : len;
	if (n > sizeof(x->line) - 1 - x->nline)
		n = sizeof(x->line) - 1 - x->nline;
	memcpy(x->line + x->nline, p, n);
	x->nline += n;
	if (nl != NULL)
		remote_exec_parse(x);
	return used;
}

void
remote_exec_feed(struct remote_exec *x, const char *buf, size_t len,
    remote_output_fn *out, void *arg)
{
	const char *p, *end = buf + len, *start;
	size_t n;

	while (buf < end && x->state != 2) {
		if (x->state == 1) {
			buf += remote_exec_line_bytes(x, buf,
			    (size_t)(end - buf));
			continue;
		}
		/* A mark begun in the last chunk: does this one end it? */
		while (x->nhold > 0 && buf < end) {
			if (*buf != x->mark[x->nhold]) {
				if (out != NULL)
					out(arg, x->hold, x->nhold);
				x->nhold = 0;
				break;
			}
			x->hold[x->nhold++] = *buf++;
			if (x->nhold == x->mlen) {
				x->nhold = 0;
				x->state = 1;
			}
		}
		if (x->state == 1 || buf == end)
			continue;
		start = buf;
		/* A mark's first byte occurs nowhere else in it. */
		for (p = buf; (p = memchr(p, REMOTE_MARK,
		    (size_t)(end - p))) != NULL; p++) {
			n = (size_t)(end - p) < x->mlen ? (size_t)(end - p) :
			    x->mlen;
			if (memcmp(p, x->mark, n) == 0)
				break;
		}
		if (p == NULL)
			p = end;
		if (out != NULL && p > start)
			out(arg, start, (size_t)(p - start));
		if (p == end)
			return;
		n = (size_t)(end - p);
		if (n < x->mlen) {
			memcpy(x->hold, p, n);
			x->nhold = n;
			return;
		}
		x->state = 1;
		buf = p + x->mlen;
	}
}

void
remote_exec_flush(struct remote_exec *x, remote_output_fn *out, void *arg)
{
	if (x->state == 0 && x->nhold > 0 && out != NULL)
		out(arg, x->hold, x->nhold);
	x->nhold = 0;
	if (x->state == 1 && x->nline > 0 && x->st.error[0] == '\0')
		snprintf(x->st.error, sizeof(x->st.error), "the box's status "
		    "line was cut short");
}

/*
 * Before the agent's ready line: ssh's words or the shell's.  Returns
 * how many bytes of buf that took (the rest is the test's stream),
 * with the agent ready, or the test ended with the agent's error.
 */
static size_t
remote_exec_pre(struct remote_exec *x, const char *buf, size_t len)
{
	struct remote_agent *ag = x->ag;
	char mark[24], *p, *nl;
	size_t before = ag->pre.len, used;

	remote_buf_addn(&ag->pre, buf, len);
	snprintf(mark, sizeof(mark), "%c%s ", REMOTE_MARK, ag->nonce);
	if ((p = strstr(ag->pre.s, mark)) == NULL ||
	    (nl = strchr(p, '\n')) == NULL)
		return len;
	used = (size_t)(nl + 1 - ag->pre.s) - before;
	p += strlen(mark);
	*nl = '\0';
	if (strcmp(p, "R") == 0) {
		ag->ready = 1;
		remote_exec_send(x);
	} else {
		snprintf(x->st.error, sizeof(x->st.error), "%s",
		    strncmp(p, "E ", 2) == 0 ? p + 2 : p);
		x->st.have = 1;
		x->st.status = 127;
		x->state = 2;
		x->quits = 1;
	}
	free(ag->pre.s);
	memset(&ag->pre, 0, sizeof(ag->pre));
	return used;
}

/* The agent ended without a word on this test: ssh's, if any. */
static void
remote_exec_agent_gone(struct remote_exec *x)
{
	struct remote_agent *ag = x->ag;

	if (!ag->ready && ag->pre.len > 0 && x->st.error[0] == '\0')
		snprintf(x->st.error, sizeof(x->st.error), "%s",
		    remote_first_words(ag->pre.s, ag->pre.len));
	remote_agent_drop(x->rm->agents, ag);
	x->ag = NULL;
	x->lost = !x->st.have;
}

/* Done with the agent: it takes the next test, or goes. */
static void
remote_exec_release(struct remote_exec *x)
{
	if (x->ag == NULL)
		return;
	if (x->quits)
		remote_agent_drop(x->rm->agents, x->ag);
	else
		x->ag->busy = 0;
	x->ag = NULL;
}

int
remote_exec_service(struct remote_exec *x, remote_output_fn *out,
    void *arg)
{
	char buf[65536];
	size_t total = 0, used;
	ssize_t n;

	while (x->ag != NULL && x->state != 2 && total < AGENT_READ_CAP) {
		n = read(x->ag->out, buf, sizeof(buf));
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			remote_exec_agent_gone(x);
			break;
		}
		total += (size_t)n;
		used = 0;
		if (!x->ag->ready)
			used = remote_exec_pre(x, buf, (size_t)n);
		if (used < (size_t)n && x->state != 2)
			remote_exec_feed(x, buf + used, (size_t)n - used, out,
			    arg);
	}
	if (x->state == 2) {
		remote_exec_release(x);
		return 1;
	}
	return x->ag == NULL ? -1 : 0;
}

const struct remote_status *
remote_exec_status(const struct remote_exec *x)
{
	return &x->st;
}

void
remote_exec_free(struct remote_exec *x)
{
	if (x == NULL)
		return;
	/* A test still running: the agent goes, the box kills it. */
	if (x->ag != NULL && x->state != 2)
		remote_agent_drop(x->rm->agents, x->ag);
	else
		remote_exec_release(x);
	free(x->cmd);
	free(x->kmsg.s);
	free(x);
}

const char *
remote_exec_kmsg(const struct remote_exec *x, size_t *lenp)
{
	*lenp = x->kmsg.len;
	return x->kmsg.s;
}
