#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A real Linux box for "make check-vm": Debian's kernel and busybox,
# dropbear as sshd, booted under QEMU (KVM when /dev/kvm is there,
# else TCG), with a fake LTP in /opt/ltp whose tests pass, fail, conf,
# leave a process behind and really panic the kernel.
#
#   vm.sh build                  kernel and initramfs in build/vm (kept)
#   vm.sh start RUN PANIC        boots it (panic=PANIC), waits for ssh
#   vm.sh stop RUN               kills that QEMU (its pid) and waits
#   vm.sh reset RUN              system_reset on the QEMU monitor
#   vm.sh ssh RUN COMMAND        runs COMMAND on the box
#
# RUN is a directory of the caller's: QEMU's pid, the serial console's
# log (console.log), the monitor's socket (mon.sock) and an ssh config
# (ssh_config, host "ltpvm") go there.  Nothing leaves QEMU: user
# networking with restrict=on, ssh forwarded from 127.0.0.1 only.
# Debian's packages are fetched with apt-get download and unpacked into
# build/vm, never installed on this machine.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
vm=$top/build/vm
# A new box when this script (and so the guest it makes) changes.
stamp=$vm/stamp

die() {
	echo "vm: $*" >&2
	exit 1
}

fetch() {	# fetch PACKAGE...: the .debs into $vm/debs, once
	mkdir -p "$vm/debs"
	for p in "$@"; do
		ls "$vm/debs/${p}_"*.deb >/dev/null 2>&1 && continue
		(cd "$vm/debs" && apt-get download -q "$p" >/dev/null 2>&1) ||
		    { apt-get update -qq >/dev/null 2>&1 || true;
		    (cd "$vm/debs" && apt-get download -q "$p" >/dev/null); } ||
		    die "apt-get download $p failed"
	done
}

# The fake LTP's tests: LTP new-library lines, its Summary, its exit
# bits.  Each says it started in the kernel log (at level 6, info: no
# warning of the kernel's), which the serial console shows: how many
# times each test really ran.
fake_test() {	# fake_test NAME BODY
	f=$root/opt/ltp/testcases/bin/$1
	cat > "$f" <<EOF
#!/bin/sh
echo "<6>ltpfake: start $1" > /dev/kmsg
p=0; x=0; c=0
res() { echo "$1.c:\$1: \$2: \$3" >&2
	case \$2 in TPASS) p=\$((p + 1));; TFAIL) x=\$((x + 1));;
	TCONF) c=\$((c + 1));; esac; }
summary() { printf '\nSummary:\npassed   %d\nfailed   %d\n' \$p \$x >&2
	printf 'broken   0\nskipped  %d\nwarnings 0\n' \$c >&2
	r=0; [ \$x = 0 ] || r=1; [ \$c = 0 ] || [ \$p != 0 ] || r=32
	exit \$r; }
res 2048 TINFO "LTP version: 20260529"
$2
echo "<6>ltpfake: end $1" > /dev/kmsg
summary
EOF
	chmod 755 "$f"
}

build_root() {
	root=$vm/root
	rm -rf "$root" "$vm/x"
	mkdir -p "$vm/x" "$root"
	for d in "$vm"/debs/*.deb; do
		dpkg-deb -x "$d" "$vm/x"
	done
	kver=$(ls "$vm/x/lib/modules")
	cp "$vm/x/boot/vmlinuz-$kver" "$vm/vmlinuz"
	cd "$root"
	mkdir -p bin sbin usr/bin usr/sbin lib lib64 etc/dropbear root/.ssh \
	    proc sys dev tmp opt/ltp/runtest opt/ltp/testcases/bin
	cp "$vm/x/bin/busybox" bin/busybox
	# The NIC's driver, the one module the box needs.
	m=$vm/x/lib/modules/$kver/kernel/drivers/net/ethernet/intel
	cp "$m/e1000/e1000.ko" lib/
	cp "$vm/x/usr/sbin/dropbear" usr/sbin/
	# dropbear's libraries, from the unpacked packages only.
	lp=$vm/x/lib/x86_64-linux-gnu:$vm/x/usr/lib/x86_64-linux-gnu
	LD_LIBRARY_PATH=$lp ldd usr/sbin/dropbear |
	    awk '/=> \//{ print $3 }' | while read -r l; do
		b=$(basename "$l")
		for d in "$vm/x/lib/x86_64-linux-gnu" \
		    "$vm/x/usr/lib/x86_64-linux-gnu"; do
			[ -e "$d/$b" ] && cp -L "$d/$b" lib/ && break
		done
		[ -e "lib/$b" ] || die "$b: not in the unpacked packages"
	done
	cp -L "$vm/x/lib64/ld-linux-x86-64.so.2" lib64/
	echo /lib > etc/ld.so.conf
	# glibc finds them without a cache: /lib is on its default path.
	printf 'root:x:0:0:root:/root:/bin/sh\n' > etc/passwd
	printf 'root:x:0:\n' > etc/group
	printf '/bin/sh\n' > etc/shells
	LD_LIBRARY_PATH=$lp "$vm/x/usr/bin/dropbearkey" -t ed25519 \
	    -f etc/dropbear/host_key >/dev/null 2>&1 || die "dropbearkey failed"
	rm -f "$vm/id"
	ssh-keygen -q -t ed25519 -N '' -C ltpvm -f "$vm/id"
	cp "$vm/id.pub" root/.ssh/authorized_keys
	chmod 700 root root/.ssh
	chmod 600 root/.ssh/authorized_keys
	cat > init <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
dmesg -n 8
insmod /lib/e1000.ko
hostname ltpvm
ip link set lo up
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2
# QEMU's slirp learns the guest's MAC from its first packet: until then
# a connection forwarded to it waits out TCP's backoff.
(sleep 1; ping -c 5 10.0.2.2) >/dev/null 2>&1 &
exec /bin/busybox init
EOF
	chmod 755 init
	# busybox init reaps what the tests leave and keeps sshd up.
	cat > etc/inittab <<'EOF'
::sysinit:/bin/sh -c 'echo "<6>ltpvm: up" > /dev/kmsg'
::respawn:/usr/sbin/dropbear -F -s -j -k -r /etc/dropbear/host_key -p 22
EOF
	echo 20260529 > opt/ltp/Version
	fake_test pass01 'res 12 TPASS "getpid() returns $$"'
	fake_test fail01 'res 20 TFAIL "open() succeeded unexpectedly"'
	fake_test kill11 'res 30 TINFO "killing the kernel"
sleep 1
echo c > /proc/sysrq-trigger
sleep 5'
	fake_test pass02 'res 14 TPASS "read() read 4 bytes"'
	fake_test conf01 'res 40 TCONF "this kernel has no frobnicate()"'
	fake_test crash02 'res 31 TINFO "killing the kernel again"
sleep 1
echo c > /proc/sysrq-trigger
sleep 5'
	fake_test leak01 'sleep 600 </dev/null >/dev/null 2>&1 &
res 50 TPASS "child $! runs on"'
	fake_test pass03 'res 16 TPASS "write() wrote 4 bytes"'
	fake_test pass04 'res 18 TPASS "close() returned 0"'
	fake_test pass05 'res 22 TPASS "dup() returned 3"'
	# The kernel warns; it becomes tainted (TAINT_WARN: a write ORs).
	fake_test warn01 'echo "<4>ltpfake: WARNING something" > /dev/kmsg
res 70 TPASS "the kernel warned"'
	fake_test taint01 'echo 512 > /proc/sys/kernel/tainted
res 72 TPASS "the kernel is tainted"'
	fake_test slow01 'i=0
while [ $i -lt 10 ]; do res 60 TINFO "tick $i"; sleep 1; i=$((i + 1)); done
res 61 TPASS "survived 10 s"'
	for t in pass01 fail01 kill11 pass02 conf01 crash02 leak01 pass03 \
	    pass04 pass05; do
		echo "$t $t"
	done > opt/ltp/runtest/syscalls
	printf 'slow01 slow01\nkill11 kill11\npass01 pass01\n' \
	    > opt/ltp/runtest/twice
	printf '%s\n' 'pass01 pass01' 'warn01 warn01' 'taint01 taint01' \
	    'pass02 pass02' > opt/ltp/runtest/kmsg
	# Metadata as LTP's (metadata/ltp.json): nothing that keeps a
	# test from running beside another under -j.
	mkdir -p opt/ltp/metadata
	{
		printf '{\n "testsuite": { "name": "Linux Test Project",'
		printf ' "version": "20260529" },\n'
		printf ' "defaults": { "timeout": 30 },\n "tests": {\n'
		sep=
		for t in pass01 fail01 kill11 pass02 conf01 crash02 leak01 \
		    pass03 pass04 pass05 slow01 warn01 taint01; do
			printf '%s  "%s": { "doc": [ "a fake: %s" ] }' \
			    "$sep" "$t" "$t"
			sep=',
'
		done
		printf '\n }\n}\n'
	} > opt/ltp/metadata/ltp.json
	find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet |
	    gzip -1 > "$vm/initrd.gz.new"
	mv "$vm/initrd.gz.new" "$vm/initrd.gz"
	cd "$top"
	rm -rf "$vm/x"
}

build() {
	command -v qemu-system-x86_64 >/dev/null 2>&1 ||
	    die "qemu-system-x86_64 not found (sh mk/deps.sh cc vm)"
	if [ -f "$stamp" ] && [ -f "$vm/initrd.gz" ] &&
	    [ ! "$top/mk/vm.sh" -nt "$stamp" ]; then
		return 0
	fi
	k=$(apt-cache depends linux-image-amd64 2>/dev/null |
	    awk '/Depends: linux-image-/{ print $2; exit }')
	if [ -z "$k" ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		k=$(apt-cache depends linux-image-amd64 2>/dev/null |
		    awk '/Depends: linux-image-/{ print $2; exit }')
	fi
	[ -n "$k" ] || die "no linux-image-amd64 in apt's lists"
	# A newer kernel package: the old one goes.
	ls "$vm/debs/${k}_"*.deb >/dev/null 2>&1 ||
	    rm -f "$vm"/debs/linux-image-*
	fetch "$k" busybox-static dropbear-bin libtomcrypt1 libtommath1 \
	    libc6 libcrypt1 zlib1g libgmp10
	build_root
	touch "$stamp"
	echo "vm: built $vm/vmlinuz ($k) and $vm/initrd.gz"
}

start() {	# start RUN PANIC
	run=$1
	[ -f "$vm/initrd.gz" ] || die "no box built: mk/vm.sh build"
	mkdir -p "$run"
	# TCG has RDRAND for the kernel's random pool: without it sshd
	# waits some 15 s for entropy.
	accel=tcg
	cpu=qemu64,+rdrand
	if [ -w /dev/kvm ]; then
		accel=kvm
		cpu=host
	fi
	try=0
	while :; do
		# The seconds' leading 0 ("09") is no octal: 1 before.
		sec=1$(date +%S)
		port=$(( 20000 + ($$ * 7 + try * 131 + sec - 100) % 40000 ))
		fwd=hostfwd=tcp:127.0.0.1:$port-:22
		rm -f "$run/mon.sock" "$run/qemu.pid"
		: > "$run/console.log"
		if qemu-system-x86_64 -nodefaults -no-user-config \
		    -machine pc,accel=$accel -cpu $cpu -m 256 -smp 1 \
		    -display none -vga none \
		    -kernel "$vm/vmlinuz" -initrd "$vm/initrd.gz" \
		    -append "console=ttyS0 panic=$2 quiet mitigations=off" \
		    -serial "file:$run/console.log" \
		    -monitor "unix:$run/mon.sock,server,nowait" \
		    -netdev "user,id=n,restrict=on,$fwd" \
		    -device e1000,netdev=n \
		    -pidfile "$run/qemu.pid" -daemonize 2>"$run/qemu.err"; then
			break
		fi
		try=$((try + 1))
		[ $try -lt 5 ] ||
		    die "qemu did not start: $(cat "$run/qemu.err")"
	done
	cat > "$run/ssh_config" <<EOF
Host ltpvm
  HostName 127.0.0.1
  Port $port
  User root
  IdentityFile $vm/id
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile $run/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking no
  CheckHostIP no
  UpdateHostKeys no
  BatchMode yes
  LogLevel ERROR
  ConnectTimeout 10
EOF
	echo "$port" > "$run/port"
	[ -n "$VM_NOWAIT" ] || wait_up "$run" 180
}

wait_up() {	# wait_up RUN SECONDS: ssh answers
	t0=$(date +%s)
	while :; do
		# A try made before the guest listens hangs: cut it short.
		if ssh -F "$1/ssh_config" -o ConnectTimeout=2 ltpvm true \
		    </dev/null >/dev/null 2>&1; then
			echo "vm: up after $(( $(date +%s) - t0 )) s" \
			    "($accel, port $(cat "$1/port"))"
			return 0
		fi
		alive "$1" || die "qemu died: $(cat "$1/qemu.err")"
		[ $(( $(date +%s) - t0 )) -lt "$2" ] ||
		    die "no ssh after $2 s; console:" \
		    "$(tail -n 5 "$1/console.log")"
		sleep 1
	done
}

alive() {
	[ -f "$1/qemu.pid" ] && kill -0 "$(cat "$1/qemu.pid")" 2>/dev/null
}

stop() {
	alive "$1" || { rm -f "$1/qemu.pid"; return 0; }
	pid=$(cat "$1/qemu.pid")
	echo quit | socat - "UNIX-CONNECT:$1/mon.sock" >/dev/null 2>&1 || true
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 30 ]; do
		sleep 0.1; i=$((i + 1))
	done
	kill -9 "$pid" 2>/dev/null || true
	rm -f "$1/qemu.pid"
}

case $1 in
build)	build ;;
start)	[ $# = 3 ] || die "usage: vm.sh start RUN PANIC"; start "$2" "$3" ;;
stop)	stop "$2" ;;
reset)	echo system_reset | socat - "UNIX-CONNECT:$2/mon.sock" >/dev/null ;;
wait)	wait_up "$2" "${3:-180}" ;;
ssh)	r=$2; shift 2; exec ssh -F "$r/ssh_config" ltpvm "$@" ;;
*)	die "usage: vm.sh build | start RUN PANIC | stop RUN | reset RUN |" \
	    "wait RUN [SECONDS] | ssh RUN COMMAND" ;;
esac
