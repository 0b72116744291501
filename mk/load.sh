#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs a command with every core busy, as on the shared build machines
# the tests must pass on: one CPU hog per core (or N), started here and
# stopped however the command ends, by a trap on exit, ^C, TERM or HUP.
# A hog also stops by itself within moments when this script is gone
# (even killed with SIGKILL, which no trap sees).  Says how long the
# command took.
#	load.sh N COMMAND [ARG...]	N: hogs; 0 or empty: one per core
n=$1
shift
if [ -z "$n" ] || [ "$n" = 0 ]; then
	n=$(getconf _NPROCESSORS_ONLN 2>/dev/null ||
	    sysctl -n hw.ncpuonline 2>/dev/null || echo 2)
fi
hogs=
stop() {
	[ -n "$hogs" ] && kill $hogs 2>/dev/null
	hogs=
}
trap stop EXIT
trap 'stop; exit 130' INT
trap 'stop; exit 143' TERM
trap 'stop; exit 129' HUP
i=0
while [ "$i" -lt "$n" ]; do
	# Pure computation between looks at whether this shell lives.
	sh -c 'while kill -0 "$1" 2>/dev/null; do
		j=0; while [ "$j" -lt 20000 ]; do j=$((j + 1)); done
	done' hog $$ &
	hogs="$hogs $!"
	i=$((i + 1))
done
echo "load: $n CPU hogs running (pids$hogs)"
start=$(date +%s)
"$@"
st=$?
end=$(date +%s)
stop
echo "load: $* took $((end - start)) s with $n CPU hogs; exit status $st"
exit $st
