#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Puts the licence's SPDX line atop every source file that lacks one: a
# C comment before the file-head comment, a shell comment after the #!
# line.  Files that have it (in their first three lines) are left alone,
# so it can run again after a merge brings new files.
# usage: sh mk/spdx.sh [FILE...]	(default: the tree's sources)
tag='SPDX-License-Identifier: BSD-2-Clause'
set -e
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- Makefile src/*.c src/*.h include/ltpscope/*.h \
    tests/*.c tests/*.h tests/ltpfake/*.c tests/ltpfake/*.h bench/*.c \
    bench/*.h bench/*.sh fuzz/*.c fuzz/*.h mk/*.sh mk/*.supp \
    data/demo/testcases/*.c
for f; do
	[ -f "$f" ] || continue
	if sed 3q "$f" | grep -q 'SPDX-License-Identifier:'; then
		continue
	fi
	case $f in
	*.c|*.h)	line="/* $tag */" ;;
	*)		line="# $tag" ;;
	esac
	tmp=$f.spdx.$$
	case $(sed 1q "$f") in
	'#!'*)	{ sed 1q "$f"; echo "$line"; sed 1d "$f"; } > "$tmp" ;;
	*)	{ echo "$line"; cat "$f"; } > "$tmp" ;;
	esac
	# Over the old file, not moved onto it: its mode stays.
	cat "$tmp" > "$f"
	rm -f "$tmp"
done
