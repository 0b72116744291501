#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Runs each fuzz target built by "make fuzz-build" for SECONDS, one at a
# time, with a corpus of its own under build/fuzz/corpus/TARGET seeded
# from the repository (tests/fixtures, data, themes), ../shared when it
# is there, and the inputs that once broke it (tests/fixtures/fuzz).
# Stops at the first crash, leak, hang or limit hit and says which
# input did it.  Usage: fuzz.sh SECONDS fuzz/fuzz_NAME.c ...
secs=${1:-60}
shift
shared=../shared
out=build/fuzz

# The seed files of a target; missing ones are left out.
seeds() {
	case "$1" in
	master)	echo tests/fixtures/catalogue/*.master \
		    data/demo/*.master $shared/netbsd/*syscalls.master* ;;
	linuxtbl) echo tests/fixtures/catalogue/*.tbl \
		    tests/fixtures/catalogue/*.h $shared/linux/*.tbl ;;
	runtest) echo tests/fixtures/ltproot/runtest/* \
		    tests/fixtures/runtest-bad data/demo/runtest/* \
		    $shared/ltp/runtest-syscalls ;;
	testmap) echo data/testmap ;;
	ltpout|textsafe) echo tests/fixtures/ltpout/* \
		    $shared/ltp/outputs/*.txt ;;
	ctplog)	echo tests/fixtures/ctplog/* \
		    $shared/ctp/reference_logs_sample/*/*/*.log ;;
	kirk)	echo tests/fixtures/kirk/*.json ;;
	json)	echo tests/fixtures/kirk/*.json tests/fixtures/ltpmeta/*.json ;;
	ltpmeta) echo tests/fixtures/ltpmeta/*.json $shared/ltp/ltp.json ;;
	theme)	echo themes/*.theme tests/fixtures/theme/* ;;
	rules)	echo data/rules ;;
	categories) echo data/categories ;;
	fundamental) echo data/fundamental ;;
	skiplist) echo data/skiplist tests/fixtures/skiplist-* ;;
	settings) echo tests/fixtures/settings/* ;;
	kconfig) echo data/kconfig tests/fixtures/kconfig-meta \
		    $shared/ctp/linux_config ;;
	cmdline) echo tests/fixtures/cmdline/* ;;
	profile) echo tests/fixtures/profile/*.txt ;;
	esac
}

ntargets=$#
echo "fuzz: $ntargets targets, ${secs}s each"
for src in "$@"; do
	t=`basename "$src" .c`
	name=${t#fuzz_}
	corpus=$out/corpus/$name
	mkdir -p "$corpus" "$out/artifacts"
	for f in `seeds "$name"` tests/fixtures/fuzz/"$name"/*; do
		[ -f "$f" ] && cp "$f" "$corpus/seed-`echo "$f" | tr / _`"
	done
	echo "fuzz: $name"
	# A leak is reported at exit of each input; a hang is an input
	# that takes longer than 10 s; more than 2 GB resident is a bug.
	if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    "$out/$t" -max_total_time="$secs" -timeout=10 \
	    ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
	    -rss_limit_mb=2048 -malloc_limit_mb=2048 -max_len=65536 \
	    -detect_leaks=1 -print_final_stats=1 \
	    -artifact_prefix="$out/artifacts/$name-" "$corpus" \
	    > "$out/$name.log" 2>&1; then
		tail -n 60 "$out/$name.log"
		echo "fuzz: $name FAILED (log $out/$name.log," \
		    "input in $out/artifacts/)" >&2
		exit 1
	fi
	grep -e '^stat::number_of_executed_units' -e '^Done' \
	    "$out/$name.log" | sed -e "s/^/fuzz: $name: /"
done
echo "fuzz: $ntargets targets, no crash, leak or hang"
