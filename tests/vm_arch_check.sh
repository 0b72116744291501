#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# "make check-vm", part two: the multi-arch matrix on real kernels.  Two
# boxes of mk/vm.sh, an amd64 and an arm64 (aarch64 under TCG), one
# "run --host A --host B" of the fake LTP's "arches" list on both, a
# panic on each (kill11), unattended: --reboot-cmd through each box's
# QEMU monitor, --skip-culprit, --box-wait.  Its mmap20 fails on
# aarch64 only: "compare --arch" and the shopping list must say so.
# Each test started on a box says so in its kernel log, which the
# serial console keeps: what really ran, counted outside ltpscope.
# TAP on stdout.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bin=${LTPSCOPE_BIN:-./ltpscope}
case $bin in /*) ;; *) bin=$top/${bin#./} ;; esac
w=$(mktemp -d "${TMPDIR:-/tmp}/ltparch.XXXXXX")
unset LTPROOT LTPSCOPE_CONFIG LTPSCOPE_DB SSH_AUTH_SOCK
export HOME="$w" XDG_CONFIG_HOME="$w/cfg" XDG_DATA_HOME="$w/data" \
    XDG_STATE_HOME="$w/state" XDG_CACHE_HOME="$w/cache" \
    LTPSCOPE_KERNEL_SRC="$w/no-kernel-src"
mkdir -p "$XDG_CONFIG_HOME/ltpscope" "$XDG_DATA_HOME" "$XDG_STATE_HOME"
arches="amd64 arm64"
bgpids=

cleanup() {
	for p in $bgpids; do
		kill -9 "$p" 2>/dev/null
	done
	for a in $arches; do
		sh mk/vm.sh stop "$w/$a" 2>/dev/null
	done
	if [ -n "${VM_KEEP:-}" ]; then
		echo "# kept: $w"
	else
		rm -rf "$w"
	fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

n=0
ok() {	# ok STATUS DESCRIPTION...
	n=$((n + 1))
	s=$1
	shift
	if [ "$s" = 0 ]; then
		echo "ok $n - $*"
	else
		echo "not ok $n - $*"
	fi
	return "$s"
}

diag() {	# diag FILE: the file as TAP comments, without control bytes
	tr -d '\033\r' < "$1" | sed -e 's/^/# /' | tail -n "${2:-40}"
}

has() {	# has FILE STRING DESCRIPTION...
	f=$1
	str=$2
	shift 2
	grep -F -q -e "$str" "$f"
	ok $? "$@" || { echo "# no '$str' in:"; diag "$f"; }
}

bail() {
	echo "1..$n"
	exit 1
}

# waitpid PID SECONDS: 0 when it ended in time, else killed and 1
waitpid() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		if [ $i -ge $(($2 * 5)) ]; then
			# TERM first: ltpscope ends its ssh masters.
			kill "$1" 2>/dev/null
			sleep 3
			kill -9 "$1" 2>/dev/null
			wait "$1" 2>/dev/null
			return 1
		fi
		sleep 0.2
		i=$((i + 1))
	done
	wait "$1" 2>/dev/null
	return 0
}

# Our processes whose command line names $w: QEMU (its RUN), ssh (the
# config) and ssh's masters.
ours() {	# ours NAME
	pgrep -a "$1" 2>/dev/null | grep -F -e "$w/" | sed 's/^/# /'
}

t0=$(date +%s)
# --- the boxes ---------------------------------------------------------
for a in $arches; do
	sh mk/vm.sh build $a > "$w/build.$a.log" 2>&1
	ok $? "the $a box is built (mk/vm.sh build $a)" || {
		diag "$w/build.$a.log"; bail; }
done
tb=$(date +%s)
# Side by side: the slow arm64 boot hides the amd64 one.
for a in $arches; do
	VM_NOWAIT=1 sh mk/vm.sh start "$w/$a" 0 $a > "$w/start.$a.log" 2>&1 ||
	    { ok 1 "QEMU starts the $a box"; diag "$w/start.$a.log"; bail; }
done
for a in $arches; do
	sh mk/vm.sh wait "$w/$a" 300 >> "$w/start.$a.log" 2>&1
	ok $? "the $a box boots with panic=0 and answers ssh:" \
	    "$(tail -n 1 "$w/start.$a.log")" || {
		diag "$w/start.$a.log"; diag "$w/$a/console.log"; bail; }
done
echo "# both boxes up $(( $(date +%s) - tb )) s after QEMU started"
for a in $arches; do
	sh mk/vm.sh ssh "$w/$a" uname -m > "$w/uname.$a" 2>&1
done
printf 'x86_64\n' | cmp -s - "$w/uname.amd64" &&
    printf 'aarch64\n' | cmp -s - "$w/uname.arm64"
ok $? "the boxes are an x86_64 and an aarch64 (uname -m:" \
    "$(cat "$w/uname.amd64") and $(cat "$w/uname.arm64"))" || bail

# One ssh config, a host a box: ltpvm-amd64, ltpvm-arm64.
for a in $arches; do
	sed "s/^Host ltpvm\$/Host ltpvm-$a/" "$w/$a/ssh_config"
done > "$w/ssh_config"

# The reset button, one for both boxes as --reboot-cmd is one for the
# run: it resets each box whose console shows more panics than it has
# had resets (a line in $w/resets.ARCH for each), and says which.
# Both boxes' runs may call it at once: a lock.
cat > "$w/reset.sh" <<EOF
while ! mkdir "$w/reset.lock" 2>/dev/null; do sleep 0.2; done
for a in $arches; do
	p=\$(grep -a -c 'end Kernel panic' "$w/\$a/console.log")
	r=\$(cat "$w/resets.\$a" 2>/dev/null | wc -l)
	if [ "\$p" -gt "\$r" ]; then
		echo "resetting the \$a box"
		echo >> "$w/resets.\$a"
		echo system_reset | socat - "UNIX-CONNECT:$w/\$a/mon.sock"
	fi
done
rmdir "$w/reset.lock"
EOF

resets() {	# resets ARCH
	cat "$w/resets.$1" 2>/dev/null | wc -l | tr -d ' '
}

# --- one run on both boxes ----------------------------------------------
tr0=$(date +%s)
"$bin" run -d "$w/arch.db" -L /opt/ltp --host ltpvm-amd64 \
    --host ltpvm-arm64 --ssh-config "$w/ssh_config" -f arches \
    --reboot-cmd "sh $w/reset.sh" --skip-culprit --box-wait 300 \
    </dev/null >"$w/run.out" 2>&1 &
pid=$!
bgpids="$bgpids $pid"
waitpid $pid 600
ok $? "run --host ltpvm-amd64 --host ltpvm-arm64: the run ends by" \
    "itself, through a panic on each box" || diag "$w/run.out"
echo "# the run took $(( $(date +%s) - tr0 )) s"
for a in $arches; do
	tr -d '\r' < "$w/$a/console.log" > "$w/con.$a"
	c=$(grep -c 'end Kernel panic - not syncing: sysrq triggered' \
	    "$w/con.$a")
	r=$(resets $a)
	[ "$c-$r" = 1-1 ]
	ok $? "$a: one panic on its console ($c), one reset through its" \
	    "monitor ($r)" || { diag "$w/con.$a" 20; diag "$w/run.out"; }
	bad=
	for t in pass01 mmap20 kill11 pass02; do
		c=$(grep -c "ltpfake: start $t\$" "$w/con.$a")
		[ "$c" = 1 ] || bad="$bad $t:$c"
	done
	[ -z "$bad" ]
	ok $? "$a: each test started once on the box (the console:" \
	    "${bad:-each once})" || diag "$w/con.$a" 60
	# The boxes answer again: pass02 ran after the reset.
	grep -q 'ltpvm: up' "$w/con.$a"
done
has "$w/run.out" "[ltpvm-amd64]" "the run's lines name the amd64 box"
has "$w/run.out" "[ltpvm-arm64]" "the run's lines name the arm64 box"
grep -q '^kill11[[:space:]]' "$XDG_CONFIG_HOME/ltpscope/skiplist" \
    2>/dev/null
ok $? "--skip-culprit: kill11 is on the skip list" ||
    diag "$XDG_CONFIG_HOME/ltpscope/skiplist"
ours ssh > "$w/ssh.left"
[ ! -s "$w/ssh.left" ]
ok $? "no ssh (master) of the run is left once it ended" ||
    diag "$w/ssh.left"

# "tag status" of a run's results
verdicts() {	# verdicts RUN
	"$bin" show "$1" -d "$w/arch.db" 2>/dev/null |
	    awk '/^ *SEQ / { h = 1; next }
	    h && /^ +[0-9]+ / && NF >= 10 { print $2, $4 }'
}

"$bin" runs -d "$w/arch.db" > "$w/runs.out" 2>&1
diag "$w/runs.out" 10
for a in x86_64:amd64 aarch64:arm64; do
	m=${a%:*}
	a=${a#*:}
	id=$(awk -v h="ltpvm-$a" '$0 ~ h { print $1; exit }' "$w/runs.out")
	verdicts "$id" > "$w/verdicts.$a"
	if [ $a = arm64 ]; then
		v=fail
	else
		v=pass
	fi
	printf 'pass01 pass\nmmap20 %s\nkill11 crash\npass02 pass\n' $v |
	    cmp -s - "$w/verdicts.$a"
	ok $? "$a ($m): run ${id:-?}: pass01 passes, mmap20 $v," \
	    "kill11 a crash, pass02 passes" || {
		diag "$w/verdicts.$a"; diag "$w/runs.out"; }
done

# --- the matrix ---------------------------------------------------------
"$bin" compare --arch -d "$w/arch.db" > "$w/matrix.out" 2>&1
ok $? "compare --arch on the two boxes' runs" || diag "$w/matrix.out"
diag "$w/matrix.out" 30
"$bin" compare --arch -d "$w/arch.db" --format json > "$w/matrix.json" 2>&1
if command -v python3 >/dev/null 2>&1; then
	python3 - "$w/matrix.json" > "$w/matrix.scope" 2>&1 <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(a["arch"] for a in d["arches"])))
for t in d["tests"]:
	print(t["test"], t["scope"], ",".join(t["failing_on"]))
EOF
	# Linux names amd64 x86_64: so do the runs of a Linux box.
	printf 'aarch64 x86_64\nkill11 every-arch aarch64,x86_64\n' \
	    > "$w/matrix.want"
	printf 'mmap20 arch-specific aarch64\n' >> "$w/matrix.want"
	sort "$w/matrix.scope" | cmp -s - "$w/matrix.want"
	ok $? "compare --arch: columns aarch64 and x86_64; mmap20" \
	    "arch-specific, failing on aarch64; kill11 on both" || {
		diag "$w/matrix.scope"; diag "$w/matrix.json"; }
else
	ok 0 "compare --arch --format json # SKIP no python3"
fi
# mmap20's row in the text, under the arch-specific heading: its
# status in the aarch64 column and in the x86_64 one.
awk '$1 == "TEST" { for (i = 1; i <= NF; i++) c[$i] = i; next }
    /^arch-specific/ { s = 1; next }
    /^[^ ]/ { s = 0 }
    s && $1 == "mmap20" { print $c["aarch64"], $c["x86_64"] }' \
    "$w/matrix.out" > "$w/matrix.row"
printf 'fail pass\n' | cmp -s - "$w/matrix.row"
ok $? "compare --arch: the text lists mmap20 as arch-specific, aarch64" \
    "fail, x86_64 pass" || { diag "$w/matrix.row"; diag "$w/matrix.out"; }

# --- the shopping list --------------------------------------------------
"$bin" export -d "$w/arch.db" --format md --arch aarch64 \
    > "$w/shop.arm64.md" 2>&1
ok $? "export --format md --arch aarch64" || diag "$w/shop.arm64.md"
has "$w/shop.arm64.md" "mmap20" "the aarch64 shopping list has mmap20"
has "$w/shop.arm64.md" "arch-specific: aarch64 fail, x86_64 pass" \
    "... as arch-specific: aarch64 fail, x86_64 pass"
"$bin" export -d "$w/arch.db" --format md --arch x86_64 \
    > "$w/shop.amd64.md" 2>&1
# The list's own run first, then the other arches.
has "$w/shop.amd64.md" "every-arch: x86_64 crash, aarch64 crash" \
    "the x86_64 shopping list has kill11, failing on every arch"
! grep -q mmap20 "$w/shop.amd64.md"
ok $? "the x86_64 shopping list has no mmap20" || diag "$w/shop.amd64.md"
# NetBSD's name of the arch finds the Linux box's run.
"$bin" export -d "$w/arch.db" --format md --arch amd64 \
    > "$w/shop.byname.md" 2>&1
cmp -s "$w/shop.amd64.md" "$w/shop.byname.md"
ok $? "export --arch amd64 is the x86_64 run's list" ||
    diag "$w/shop.byname.md"

# --- nothing left -------------------------------------------------------
for a in $arches; do
	sh mk/vm.sh stop "$w/$a"
done
ours qemu > "$w/qemu.left"
ours ssh >> "$w/qemu.left"
[ ! -s "$w/qemu.left" ]
ok $? "nothing left running: no QEMU, no ssh" || diag "$w/qemu.left"

echo "# vm_arch_check took $(( $(date +%s) - t0 )) s"
echo "1..$n"
