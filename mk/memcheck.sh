#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs test programs under valgrind's memcheck: every one must pass its
# own tests with 0 errors and 0 leaks (definite, indirect or possible;
# memory still reachable at exit is no leak).  The program's TAP output
# and valgrind's report go to build/memcheck/NAME.log.  The ltpscope the
# tests start runs natively: valgrind follows no exec.
#	memcheck.sh PROG...
supp=mk/memcheck.supp
# A child forked under valgrind carries valgrind's resident size into
# the ltpscope it execs: tests that measure one skip it.
export LTPSCOPE_MEMCHECK=1
out=build/memcheck
mkdir -p "$out"
failed=
start=$(date +%s)
for t in "$@"; do
	name=$(basename "$t")
	log=$out/$name.log
	t0=$(date +%s)
	valgrind --tool=memcheck --error-exitcode=99 --leak-check=full \
	    --show-leak-kinds=definite,indirect,possible \
	    --errors-for-leak-kinds=definite,indirect,possible \
	    --child-silent-after-fork=yes --track-origins=yes \
	    --suppressions=$supp --log-file="$log.vg" \
	    "$t" > "$log" 2>&1
	rc=$?
	errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) errors.*/\1/p' \
	    "$log.vg" | tail -1)
	cat "$log.vg" >> "$log"
	rm -f "$log.vg"
	nok=$(grep -c '^not ok' "$log")
	echo "memcheck: $name: exit $rc, ${errs:-?} errors, $nok tests" \
	    "failed, $(($(date +%s) - t0)) s"
	if [ "$rc" != 0 ] || [ "${errs:-1}" != 0 ]; then
		failed="$failed $name"
	fi
done
echo "memcheck: $# programs in $(($(date +%s) - start)) s;" \
    "failed:${failed:- none}"
[ -z "$failed" ]
