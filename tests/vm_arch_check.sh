#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# "make check-vm", part three: the multi-arch matrix on real kernels,
# from nothing but a config file.  Two box blocks, an amd64 and an
# arm64 (aarch64 under TCG), each a qemu line (mk/vm.sh qemu ARCH 0:
# the kernel stays down after a panic) and "host root"; one
# "run --box amd64 --box arm64 -f arches --skip-culprit" with no
# --host, --reboot-cmd or --console.  ltpscope starts both QEMUs, runs
# the fake LTP's "arches" on both, one test at a time on each: kill11
# panics each kernel, which ltpscope resets on its monitor; mmap20
# fails on aarch64 only.  The run ends by itself, each box's kill11 is
# its own kernel's crash (a skip-culprit entry of one arch keeps no
# test from the other), "compare --arch" and the shopping list say
# mmap20 is aarch64's, and nothing of the test is left running.  Each
# test started on a box says so in its kernel log, which the serial
# console ltpscope gave QEMU keeps: what really ran, counted outside
# ltpscope.  TAP on stdout.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/vm_lib.sh"
vm_work ltparch
arches="amd64 arm64"
db=$w/db/arch.db
rpid=

cleanup() {
	[ -z "$rpid" ] || kill -9 "$rpid" 2>/dev/null
	# Whatever QEMU ltpscope left of this test (its pid files), only it.
	for f in "$w"/db/boxes/*.qemu/qemu.pid; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
	done
	vm_rmwork
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

bail() {
	echo "1..$n"
	exit 1
}

vmdir() {	# vmdir ARCH: where mk/vm.sh builds the box
	if [ "$1" = amd64 ]; then
		echo "$top/build/vm"
	else
		echo "$top/build/vm-$1"
	fi
}

t0=$(date +%s)
# --- the boxes: a kernel and an initramfs each ---------------------------
for a in $arches; do
	sh mk/vm.sh build $a > "$w/build.$a.log" 2>&1
	ok $? "the $a box is built (mk/vm.sh build $a)" || {
		diag "$w/build.$a.log"; bail; }
done

# The config: per box the user's own qemu command, the user ssh logs in
# as, and ssh's key for the box (a file of ssh's options: ssh reads the
# user's ~/.ssh from the password file, whatever HOME says).
for a in $arches; do
	cat > "$w/ssh_config.$a" <<EOF
Host *
  User root
  IdentityFile $(vmdir $a)/id
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile /dev/null
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking no
  CheckHostIP no
  UpdateHostKeys no
  BatchMode yes
  LogLevel ERROR
EOF
	printf 'box %s\n  qemu %s\n  host root\n  ssh-config %s\n\n' "$a" \
	    "$(sh mk/vm.sh qemu $a 0)" "$w/ssh_config.$a"
done > "$XDG_CONFIG_HOME/ltpscope/config"
diag "$XDG_CONFIG_HOME/ltpscope/config"

# --- one run on both boxes ----------------------------------------------
tr0=$(date +%s)
"$bin" run -d "$db" --box amd64 --box arm64 -f arches --skip-culprit \
    </dev/null >"$w/run.out" 2>&1 &
rpid=$!
# Unattended: it ends by itself, in time even on a busy machine.
i=0
while kill -0 "$rpid" 2>/dev/null && [ $i -lt 6000 ]; do
	sleep 0.2
	i=$((i + 1))
done
kill -0 "$rpid" 2>/dev/null
[ $? = 1 ]
ok $? "run --box amd64 --box arm64 ends by itself, through a panic on" \
    "each box" || diag "$w/run.out" 60
# TERM first: ltpscope stops its QEMUs and ssh masters.
kill "$rpid" 2>/dev/null && sleep 5
wait "$rpid" 2>/dev/null
rpid=
echo "# the run took $(( $(date +%s) - tr0 )) s"
diag "$w/run.out" 60

for a in $arches; do
	grep -q "box $a: qemu started, ssh on root@127.0.0.1:" "$w/run.out"
	ok $? "ltpscope started the $a box's QEMU itself" || diag "$w/run.out"
done
c=$(grep -c 'reset .*: system_reset on its monitor' "$w/run.out")
[ "$c" = 2 ]
ok $? "two panics, each box reset on its own monitor ($c)" ||
    diag "$w/run.out"
has "$w/run.out" "[amd64] " "the run's lines name the amd64 box"
has "$w/run.out" "[arm64] " "the run's lines name the arm64 box"

# What each box's serial console (ltpscope's file) says ran there.
for a in $arches; do
	con=$w/db/boxes/$a.qemu/console
	tr -d '\r' < "$con" > "$w/con.$a" 2>/dev/null
	c=$(grep -c 'end Kernel panic - not syncing: sysrq triggered' \
	    "$w/con.$a")
	bad=
	for t in pass01 mmap20 kill11 pass02; do
		k=$(grep -c "ltpfake: start $t\$" "$w/con.$a")
		[ "$k" = 1 ] || bad="$bad $t:$k"
	done
	[ "$c" = 1 ] && [ -z "$bad" ]
	ok $? "$a: its console: one panic ($c), each test started once" \
	    "(${bad:-each once})" || diag "$w/con.$a" 60
done
grep -q "^kill11[[:space:]]os=Linux[[:space:]]arch=x86_64[[:space:]]" \
    "$XDG_CONFIG_HOME/ltpscope/skiplist" 2>/dev/null &&
    grep -q "^kill11[[:space:]]os=Linux[[:space:]]arch=aarch64[[:space:]]" \
    "$XDG_CONFIG_HOME/ltpscope/skiplist"
ok $? "--skip-culprit: kill11 on the skip list for each arch it crashed" ||
    diag "$XDG_CONFIG_HOME/ltpscope/skiplist"

# "tag status" of a run's results
verdicts() {	# verdicts RUN
	"$bin" show "$1" -d "$db" 2>/dev/null |
	    awk '/^ *SEQ / { h = 1; next }
	    h && /^ +[0-9]+ / && NF >= 10 { print $2, $4 }'
}

"$bin" runs -d "$db" > "$w/runs.out" 2>&1
diag "$w/runs.out" 10
for a in x86_64:amd64 aarch64:arm64; do
	m=${a%:*}
	a=${a#*:}
	id=$(awk -v m="$m" '$(NF - 2) == m { print $1; exit }' "$w/runs.out")
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
	# Its own kernel's panic goes with each crash: Debian's
	# 6.1.0-N-amd64 or -arm64, from the box's own console.
	"$bin" show "${id:-0}" -d "$db" --output kill11 > "$w/kill11.$a" 2>&1
	grep -q "Comm: kill11 .*-$a " "$w/kill11.$a" &&
	    grep -q "console $w/db/boxes/$a.qemu/console" "$w/kill11.$a"
	ok $? "$a: kill11's crash is its own kernel's panic, read from its" \
	    "own console" || diag "$w/kill11.$a"
done

# --- the matrix ---------------------------------------------------------
"$bin" compare --arch -d "$db" > "$w/matrix.out" 2>&1
ok $? "compare --arch on the two boxes' runs" || diag "$w/matrix.out"
diag "$w/matrix.out" 30
"$bin" compare --arch -d "$db" --format json > "$w/matrix.json" 2>&1
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
"$bin" export -d "$db" --format md --arch aarch64 > "$w/shop.arm64.md" 2>&1
ok $? "export --format md --arch aarch64" || diag "$w/shop.arm64.md"
has "$w/shop.arm64.md" "arch-specific: aarch64 fail, x86_64 pass" \
    "the aarch64 shopping list has mmap20, arch-specific: aarch64 fail," \
    "x86_64 pass"
"$bin" export -d "$db" --format md --arch amd64 > "$w/shop.amd64.md" 2>&1
has "$w/shop.amd64.md" "every-arch: x86_64 crash, aarch64 crash" \
    "the amd64 (x86_64) shopping list has kill11, a crash on every arch"

# --- nothing left -------------------------------------------------------
# Whatever names this test's directory: QEMU (its console and monitor
# are there), ssh and its masters (the ssh configs are).
sleep 1
pgrep -a -f -- "$w/" > "$w/left" 2>/dev/null
[ ! -s "$w/left" ]
ok $? "nothing of the test left running: no QEMU, no ssh master" ||
    diag "$w/left"

echo "# vm_arch_check took $(( $(date +%s) - t0 )) s"
echo "1..$n"
