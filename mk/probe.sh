#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Prints the -DHAVE_* flags for the curses functions this curses has,
# so that the code tests for a capability, not for a vendor
# (NCURSES_VERSION): NetBSD's own curses has use_default_colors() too.
#
#	probe.sh CC "CFLAGS" "LIBS"		compile and link each probe
#	probe.sh CC "CFLAGS" "" syntax		only compile (cross checks)
cc=${1:-cc}
cflags=$2
libs=$3
mode=${4:-link}
tmp=${TMPDIR:-/tmp}/ltpscope-probe.$$
trap 'rm -f "$tmp" "$tmp.c"' EXIT

probe() {	# probe MACRO BODY
	printf '#include <curses.h>\nint main(void) { %s; return 0; }\n' \
	    "$2" > "$tmp.c"
	if [ "$mode" = syntax ]; then
		# shellcheck disable=SC2086
		$cc $cflags -fsyntax-only "$tmp.c" >/dev/null 2>&1
	else
		# shellcheck disable=SC2086
		$cc $cflags -o "$tmp" "$tmp.c" $libs >/dev/null 2>&1
	fi && printf ' -D%s' "$1"
}

probe HAVE_USE_DEFAULT_COLORS 'return use_default_colors()'
probe HAVE_CURSES_MOUSE \
    'MEVENT ev; mousemask(BUTTON1_CLICKED, NULL); mouseinterval(0);
    (void)getmouse(&ev); return KEY_MOUSE'
echo
