#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Writes the header dependencies of everything the Makefile builds from C,
# read from each source's #include "..." lines, transitively, so that
# touching a header rebuilds what includes it and nothing else.  A
# makefile fragment of dependency lines only (the commands stay in the
# Makefile), rewritten on every make run from the files as they are, so
# a header added, renamed or removed never leaves a stale rule behind.
# usage: depend.sh OUT
#
# Where each source's output goes is this tree's layout, said once here:
#   src/X.c                  src/X.o src/X.ao src/X.fo
#   tests/test_X.c           tests/test_X tests/test_X.asan
#   tests/runtests.c etc.    tests/runtests (a program of its own)
#   tests/X.c (helpers)      tests/X.o tests/X.ao
#   tests/ltpfake/X.c        tests/ltpfake/bin/X
#   bench/bench_X.c          bench/bench_X
#   fuzz/fuzz_X.c            build/fuzz/fuzz_X
#   data/demo/testcases/*.c  build/demo-ltp/Version (the demo's stamp)
# A quoted include is looked for beside the includer, then in include/
# and tests/, the -I directories the Makefile passes.
out=${1:?usage: depend.sh OUT}
set -e
# A temporary file of its own: two makes at once must not share one.
tmp=$out.$$
trap 'rm -f "$tmp"' EXIT
mkdir -p "$(dirname "$out")"
ls src/*.c tests/*.c tests/ltpfake/*.c bench/*.c fuzz/*.c \
    data/demo/testcases/*.c 2>/dev/null | awk '
function readable(f,	line, r) {
	if (f in isfile)
		return isfile[f];
	r = (getline line < f) >= 0;
	close(f);
	return isfile[f] = r;
}
# a/b/../c -> a/c, ./a -> a: one spelling per file, or make sees two.
function clean(p,	n, i, part, k, stack, r) {
	n = split(p, part, "/");
	k = 0;
	for (i = 1; i <= n; i++) {
		if (part[i] == "." || part[i] == "")
			continue;
		if (part[i] == ".." && k > 0 && stack[k] != "..")
			k--;
		else
			stack[++k] = part[i];
	}
	r = stack[1];
	for (i = 2; i <= k; i++)
		r = r "/" stack[i];
	return r;
}
function resolve(from, name,	d, c) {
	d = from;
	if (!sub(/\/[^\/]*$/, "", d))
		d = ".";
	c = clean(d "/" name);
	if (readable(c))
		return c;
	if (readable(c = clean("include/" name)))
		return c;
	if (readable(c = clean("tests/" name)))
		return c;
	return "";
}
# The files f itself includes, once read.
function direct(f,	line, name, h) {
	if (f in incs)
		return incs[f];
	incs[f] = "";
	while ((getline line < f) > 0) {
		if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/)
			continue;
		name = line;
		sub(/^[^"]*"/, "", name);
		sub(/".*/, "", name);
		if ((h = resolve(f, name)) != "")
			incs[f] = incs[f] " " h;
	}
	close(f);
	return incs[f];
}
# Everything f includes, directly or not, each once.
function closure(f,	todo, n, i, got, part, k, c, r) {
	todo[n = 1] = f;
	got[f] = 1;
	r = "";
	for (i = 1; i <= n; i++) {
		k = split(direct(todo[i]), part, " ");
		for (c = 1; c <= k; c++) {
			if (part[c] in got)
				continue;
			got[part[c]] = 1;
			todo[++n] = part[c];
			r = r " " part[c];
		}
	}
	return r;
}
function stem(f,	s) {
	s = f;
	sub(/^.*\//, "", s);
	sub(/\.c$/, "", s);
	return s;
}
{
	f = $0;
	s = stem(f);
	if (f ~ /^src\//)
		t = "src/" s ".o src/" s ".ao src/" s ".fo";
	else if (f ~ /^tests\/test_/)
		t = "tests/" s " tests/" s ".asan";
	else if (f ~ /^tests\/(runtests|stress_runner)\.c$/)
		t = "tests/" s;
	else if (f ~ /^tests\/ltpfake\//)
		t = "tests/ltpfake/bin/" s;
	else if (f ~ /^tests\//)
		t = "tests/" s ".o tests/" s ".ao";
	else if (f ~ /^bench\//)
		t = "bench/" s;
	else if (f ~ /^fuzz\//)
		t = "build/fuzz/" s;
	else if (f ~ /^data\/demo\//)
		t = "build/demo-ltp/Version";
	else
		next;
	print t ": " f closure(f);
	# The runner tests built again over the fork(2) spawn (Makefile).
	if (f == "src/spawn.c")
		print "src/spawn.fork.o: " f closure(f);
	if (f == "tests/test_runner.c")
		print "tests/test_runner.fork: " f closure(f);
}' > "$tmp"
# Unchanged: leave the old file and its time alone.
if cmp -s "$tmp" "$out"; then
	rm -f "$tmp"
else
	mv "$tmp" "$out"
fi
