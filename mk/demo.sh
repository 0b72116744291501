#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Builds the demo LTP install under build/demo-ltp: one program that
# plays every demo test (data/demo/testcases/demotest.c), linked under
# each tag of data/demo/runtest, plus the runtest file itself.
# usage: demo.sh CC CFLAGS SOURCES...
cc=$1
cflags=$2
root=build/demo-ltp
set -e
mkdir -p "$root/testcases/bin" "$root/runtest"
prog="$root/testcases/bin/demotest"
if [ ! -x "$prog" ] || [ data/demo/testcases/demotest.c -nt "$prog" ]; then
	# shellcheck disable=SC2086
	$cc $cflags -o "$prog" data/demo/testcases/demotest.c
fi
cp data/demo/runtest "$root/runtest/syscalls"
grep -v '^#' data/demo/runtest | while read -r tag cmd rest; do
	[ -n "$tag" ] || continue
	ln -sf demotest "$root/testcases/bin/$cmd"
done
echo "20260529-demo" > "$root/Version"
