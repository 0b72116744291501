#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs every benchmark program (from the repository root); each prints
# what it measured, its baseline measured in the same run, and the
# ratio -- never a pass or fail on time.  The load average is printed
# first because other work on the machine moves every figure.
echo "bench: `uname -sm`; load average `uptime | sed 's/.*load average[s]*: //'`"
for b in "$@"; do
	echo "== $b"
	"$b" || { echo "bench: $b failed" >&2; exit 1; }
done
