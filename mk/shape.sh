#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The code's shape, checked: no source in src/ over MAX lines (900), and
# no two files of src/ that call each other (each defining a symbol the
# other uses), read from nm(1) of their objects.  A pair that calls both
# ways is one module spread over two files: neither can be read, tested
# or changed alone.  Says each offender; exits 1 if there is one.
#
# With -t, says it as TAP (a check each, the offenders as comments) for
# tests/runtests, which "make check" runs it with: its closing line
# counts a bad shape as a failed test.
#
# usage: mk/shape.sh [-t] [NM] (run from the top of the tree, after a
# build)
tap=0
if [ "${1:-}" = -t ]; then
	tap=1
	shift
fi
NM=${1:-nm}
MAX=${SHAPE_MAX_LINES:-900}
tmp=${TMPDIR:-/tmp}/shape.$$
trap 'rm -f "$tmp" "$tmp.long" "$tmp.out"' EXIT
: > "$tmp.long"
for f in src/*.c; do
	n=$(wc -l < "$f")
	if [ "$n" -gt "$MAX" ]; then
		echo "shape: $f: $n lines, over $MAX" >> "$tmp.long"
	fi
done
objs=
for o in src/*.o; do
	[ -f "$o" ] || continue
	case $o in *.fork.o) continue ;; esac
	# An object whose source is gone (renamed, split) says nothing.
	[ -f "${o%.o}.c" ] || continue
	objs="$objs $o"
done
# One nm for them all: each object's symbols follow a "src/x.o:" line.
: > "$tmp"
[ -z "$objs" ] || "$NM" $objs 2>/dev/null | awk '
    /^src\/.*\.o:$/ { f = substr($0, 1, length($0) - 3); next }
    NF == 2 && $1 == "U" { print f, "U", $2 }
    NF == 3 && $2 ~ /^[TDBR]$/ { print f, "D", $3 }' > "$tmp"
if [ ! -s "$tmp" ]; then
	if [ $tap = 1 ]; then
		echo "1..2"
		sed 's/^/# /' "$tmp.long"
		if [ -s "$tmp.long" ]; then
			echo "not ok 1 - no source in src/ over $MAX lines"
		else
			echo "ok 1 - no source in src/ over $MAX lines"
		fi
		echo "not ok 2 - no two files of src/ call each other" \
		    "(no objects in src/: build first)"
		exit 1
	fi
	cat "$tmp.long"
	echo "shape: no objects in src/: build first" >&2
	exit 2
fi
# File A uses what file B defines, as "A B" pairs; a pair seen both ways
# is reported once, in name order.
awk '
	$2 == "D" { def[$3] = $1; next }
	{ use[NR] = $1; sym[NR] = $3 }
	END {
		for (i in use) {
			b = def[sym[i]]
			if (b == "" || b == use[i])
				continue
			dep[use[i] " " b] = 1
		}
		for (k in dep) {
			split(k, p, " ")
			if ((p[2] " " p[1]) in dep && p[1] < p[2])
				print "shape: " p[1] ".c and " p[2] ".c call each other"
		}
	}' "$tmp" | sort > "$tmp.out"
bad=0
[ -s "$tmp.long" ] || [ -s "$tmp.out" ] && bad=1
if [ $tap = 0 ]; then
	cat "$tmp.long" "$tmp.out"
	exit $bad
fi
echo "1..2"
if [ -s "$tmp.long" ]; then
	sed 's/^/# /' "$tmp.long"
	echo "not ok 1 - no source in src/ over $MAX lines"
else
	echo "ok 1 - no source in src/ over $MAX lines"
fi
if [ -s "$tmp.out" ]; then
	sed 's/^/# /' "$tmp.out"
	echo "not ok 2 - no two files of src/ call each other"
else
	echo "ok 2 - no two files of src/ call each other"
fi
exit $bad
