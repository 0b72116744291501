#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
#
# The code's shape, checked: no source in src/ over MAX lines (900), and
# no two files of src/ that call each other (each defining a symbol the
# other uses), read from nm(1) of their objects.  A pair that calls both
# ways is one module spread over two files: neither can be read, tested
# or changed alone.  Says each offender; exits 1 if there is one.
#
# usage: mk/shape.sh [NM] (run from the top of the tree, after a build)
NM=${1:-nm}
MAX=${SHAPE_MAX_LINES:-900}
bad=0
for f in src/*.c; do
	n=$(wc -l < "$f")
	if [ "$n" -gt "$MAX" ]; then
		echo "shape: $f: $n lines, over $MAX"
		bad=1
	fi
done
tmp=${TMPDIR:-/tmp}/shape.$$
trap 'rm -f "$tmp"' EXIT
: > "$tmp"
for o in src/*.o; do
	[ -f "$o" ] || continue
	case $o in *.fork.o) continue ;; esac
	"$NM" "$o" 2>/dev/null | awk -v f="${o%.o}" '
	    NF == 2 && $1 == "U" { print f, "U", $2 }
	    NF == 3 && $2 ~ /^[TDBR]$/ { print f, "D", $3 }' >> "$tmp"
done
if [ ! -s "$tmp" ]; then
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
if [ -s "$tmp.out" ]; then
	cat "$tmp.out"
	bad=1
fi
rm -f "$tmp.out"
exit $bad
