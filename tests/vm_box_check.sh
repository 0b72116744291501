#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# "make check-vm", the named QEMU box: a config file with a box block
# whose qemu line boots mk/vm.sh's kernel and initramfs (panic=0: the
# kernel stays down) is all "ltpscope run --box amd64" is given.  No
# --host, --reboot-cmd or --console: ltpscope starts QEMU, finds its
# ssh on a forwarded port, runs the fake LTP through two real panics,
# resets the box by its monitor each time, finishes unattended, and
# leaves nothing running (no QEMU, no ssh master).  TAP on stdout.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/vm_lib.sh"
vm=$top/build/vm
vm_work ltpbox
rpid=

cleanup() {
	[ -z "$rpid" ] || kill -9 "$rpid" 2>/dev/null
	# Whatever QEMU this test's box left (its pid file), and only it.
	for f in "$w"/db/boxes/*.qemu/qemu.pid; do
		[ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
	done
	vm_rmwork
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

if [ ! -f "$vm/initrd.gz" ]; then
	sh mk/vm.sh build > "$w/build.log" 2>&1 || {
		echo "1..0 # SKIP no box could be built: $(tail -n 1 \
		    "$w/build.log")"; exit 0; }
fi

# vm.sh's own choice: KVM only where it can run the box's vCPU.
set -- $(sh mk/vm.sh accel amd64)
accel=$1
cpu=$2
cat > "$w/ssh_config" <<EOF2
Host *
  User root
  IdentityFile $vm/id
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile /dev/null
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking no
  CheckHostIP no
  UpdateHostKeys no
  BatchMode yes
  LogLevel ERROR
EOF2
# The user's own qemu command, nothing of ltpscope's in it.
cat > "$XDG_CONFIG_HOME/ltpscope/config" <<EOF2
box amd64
  qemu qemu-system-x86_64 -nodefaults -no-user-config -machine pc,accel=$accel -cpu $cpu -m 256 -smp 1 -display none -vga none -kernel $vm/vmlinuz -initrd $vm/initrd.gz -append 'console=ttyS0 panic=0 quiet mitigations=off'
  ssh-config $w/ssh_config
  ltproot /opt/ltp
  skip-culprit
  box-wait 300
EOF2

"$bin" run -d "$w/db/results.db" --box amd64 -f syscalls </dev/null \
    > "$w/run.out" 2>&1 &
rpid=$!
# Unattended: it ends by itself, in time even on a busy machine.
i=0
while kill -0 "$rpid" 2>/dev/null && [ $i -lt 9000 ]; do
	sleep 0.2
	i=$((i + 1))
done
kill -0 "$rpid" 2>/dev/null
[ $? = 1 ]
ok $? "run --box amd64 finishes by itself" || diag "$w/run.out" 60
[ -z "$rpid" ] || { kill "$rpid" 2>/dev/null; wait "$rpid"; }
rpid=

grep -q 'box amd64: qemu started, ssh on 127.0.0.1:' "$w/run.out"
ok $? "ltpscope started QEMU, ssh forwarded from 127.0.0.1" ||
    diag "$w/run.out"
c=$(grep -c 'reset .*: system_reset on its monitor' "$w/run.out")
[ "$c" = 2 ]
ok $? "each of the two panics reset by the monitor ($c)" ||
    diag "$w/run.out"
line=$(grep 'tests done' "$w/run.out" | tail -n 1)
case $line in
*" 10 of 10 tests done"*"6 pass"*"1 fail"*"1 conf"*"2 crash"*)
	ok 0 "the whole run: $line" ;;
*)	ok 1 "the whole run (10 of 10 tests done: 6 pass, 1 fail, 1 conf," \
	    "2 crash)"
	echo "# got: $line"; diag "$w/run.out" ;;
esac
"$bin" show last -d "$w/db/results.db" --output kill11 > "$w/kill11" 2>&1
grep -q 'Kernel panic - not syncing' "$w/kill11"
ok $? "the panic, read from the console ltpscope gave QEMU, is kept" \
    "with the crash" || diag "$w/kill11"
grep -q "$(printf '\033')" "$w/run.out"
[ $? = 1 ]
ok $? "no escape sequence reaches the terminal"

# Nothing left running: no QEMU of this box, no ssh master to it.
sleep 1
left=$(ps -eo pid,args | grep -e "$w" | grep -v -e grep -e ' ps ')
[ -z "$left" ]
ok $? "nothing left running (no qemu, no ssh master)" ||
    echo "$left" | sed 's/^/# /'
echo "1..$n"
