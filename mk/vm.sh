#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# A real Linux box for "make check-vm": Debian's kernel and busybox,
# dropbear as sshd, booted under QEMU (KVM when this machine's can run
# the box: kvm_works; else TCG), with a fake LTP in /opt/ltp whose tests pass, fail, conf,
# leave a process behind and really panic the kernel.  Two
# architectures: amd64 (the default) and arm64 (aarch64, always TCG),
# each built in a directory of its own.
#
#   vm.sh build [ARCH]           kernel and initramfs in build/vm (kept),
#                                build/vm-arm64 for arm64
#   vm.sh start RUN PANIC [ARCH] boots it (panic=PANIC), waits for ssh
#   vm.sh qemu ARCH PANIC        the box's own qemu command, for the
#                                qemu line of a config's box block
#   vm.sh stop RUN               kills that QEMU (its pid) and waits
#   vm.sh reset RUN              system_reset on the QEMU monitor
#   vm.sh ssh RUN COMMAND        runs COMMAND on the box
#
# RUN is a directory of the caller's: QEMU's pid, the serial console's
# log (console.log), the monitor's socket (mon.sock) and an ssh config
# (ssh_config, host "ltpvm") go there.  Nothing leaves QEMU: user
# networking with restrict=on, ssh forwarded from 127.0.0.1 only.
# Debian's packages are fetched with apt-get download and unpacked into
# build/vm, never installed on this machine; arm64's as foreign-arch
# packages (PKG:arm64; mk/deps.sh vm adds the architecture to dpkg).
set -e
top=$(cd "$(dirname "$0")/.." && pwd)

# What differs between the architectures, set by arch_amd64 or
# arch_arm64: the build directory, apt's suffix, the libraries'
# triplet, QEMU, the serial console, the NIC's modules in the order
# they load.  The NIC is the machine's default (-nic with no model), as
# in the QEMU that ltpscope starts from a box's qemu line.
arch_amd64() {
	vm=$top/build/vm
	pkgarch=
	triplet=x86_64-linux-gnu
	qemu=qemu-system-x86_64
	qemupkg=qemu-system-x86
	tty=ttyS0
	mods="drivers/net/ethernet/intel/e1000/e1000.ko"
}

# QEMU's virt board: its default NIC is virtio-net on PCI, all modules
# in Debian's arm64 kernel (PCI's generic host is built in).  The
# console is the board's PL011.
arch_arm64() {
	vm=$top/build/vm-arm64
	pkgarch=:arm64
	triplet=aarch64-linux-gnu
	qemu=qemu-system-aarch64
	qemupkg=qemu-system-arm
	tty=ttyAMA0
	mods="drivers/virtio/virtio_pci_legacy_dev.ko
	    drivers/virtio/virtio_pci_modern_dev.ko drivers/virtio/virtio_pci.ko
	    net/core/failover.ko drivers/net/net_failover.ko
	    drivers/net/virtio_net.ko"
}

set_arch() {	# set_arch ARCH
	case $1 in
	amd64|x86_64)	arch=amd64 ;;
	arm64|aarch64)	arch=arm64 ;;
	*)	die "$1: no such box (amd64 or arm64)" ;;
	esac
	arch_$arch
	# A new box when this script (and so the guest it makes) changes.
	stamp=$vm/stamp
}

die() {
	echo "vm: $*" >&2
	exit 1
}

fetch() {	# fetch DIR PACKAGE[:ARCH]...: the .debs into DIR, once
	dir=$1
	shift
	mkdir -p "$dir"
	for p in "$@"; do
		ls "$dir/${p%:*}_"*.deb >/dev/null 2>&1 && continue
		(cd "$dir" && apt-get download -q "$p" >/dev/null 2>&1) ||
		    { apt-get update -qq >/dev/null 2>&1 || true;
		    (cd "$dir" && apt-get download -q "$p" >/dev/null); } ||
		    die "apt-get download $p failed"
	done
}

# libs FILE: copies the shared libraries FILE needs, and theirs, from
# the unpacked packages into lib/.  readelf, not ldd: ldd cannot read
# another architecture's programs.
libs() {
	for b in $(readelf -d "$1" |
	    sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
		[ -e "lib/$b" ] && continue
		for d in "$vm/x/lib/$triplet" "$vm/x/usr/lib/$triplet"; do
			[ -e "$d/$b" ] && cp -L "$d/$b" lib/ && break
		done
		[ -e "lib/$b" ] || die "$b: not in the unpacked packages"
		libs "lib/$b"
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

# hostkey FILE: dropbear's host key, made by this machine's dropbearkey:
# the box's own when it is this machine's architecture, else unpacked
# from this architecture's packages into $vm/hx, never installed.
hostkey() {
	h=$(dpkg --print-architecture)
	t=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null ||
	    gcc -print-multiarch)
	x=$vm/x
	if [ "$h" != "$arch" ]; then
		fetch "$vm/hostdebs" dropbear-bin:$h libtomcrypt1:$h \
		    libtommath1:$h libgmp10:$h zlib1g:$h libcrypt1:$h
		x=$vm/hx
		rm -rf "$x"
		mkdir -p "$x"
		for d in "$vm"/hostdebs/*.deb; do
			dpkg-deb -x "$d" "$x"
		done
	fi
	LD_LIBRARY_PATH=$x/lib/$t:$x/usr/lib/$t \
	    "$x/usr/bin/dropbearkey" -t ed25519 -f "$1" >/dev/null 2>&1 ||
	    die "dropbearkey failed"
	rm -rf "$vm/hx"
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
	# The NIC's drivers, the only modules the box needs.
	for m in $mods; do
		cp "$vm/x/lib/modules/$kver/kernel/$m" lib/
	done
	cp "$vm/x/usr/sbin/dropbear" usr/sbin/
	# dropbear's libraries and its loader, from the unpacked packages
	# only; glibc finds them without a cache: /lib is on its default
	# path.
	libs usr/sbin/dropbear
	ld=$(readelf -l usr/sbin/dropbear |
	    sed -n 's/.*interpreter: \(.*\)\]/\1/p')
	[ -e ".$ld" ] || cp -L "$vm/x$ld" ".$ld"
	echo /lib > etc/ld.so.conf
	printf 'root:x:0:0:root:/root:/bin/sh\n' > etc/passwd
	printf 'root:x:0:\n' > etc/group
	printf '/bin/sh\n' > etc/shells
	hostkey etc/dropbear/host_key
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
for m in $(cat /lib/modules.order); do insmod /lib/$m; done
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
	for m in $mods; do
		basename "$m"
	done > lib/modules.order
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
	# Fails on one architecture only: a bug in that arch's part of the
	# kernel, what "compare --arch" is for.
	fake_test mmap20 'if [ "$(uname -m)" = aarch64 ]; then
	res 70 TFAIL "mmap() ignored the 64 KiB-aligned hint"
else
	res 70 TPASS "mmap() used the 64 KiB-aligned hint"
fi'
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
	# A box of each architecture, a panic on each.
	printf 'pass01 pass01\nmmap20 mmap20\nkill11 kill11\npass02 pass02\n' \
	    > opt/ltp/runtest/arches
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
		    pass03 pass04 pass05 slow01 mmap20 warn01 taint01; do
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
	command -v $qemu >/dev/null 2>&1 ||
	    die "$qemu not found (sh mk/deps.sh cc vm)"
	if [ -f "$stamp" ] && [ -f "$vm/initrd.gz" ] &&
	    [ ! "$top/mk/vm.sh" -nt "$stamp" ]; then
		return 0
	fi
	meta=linux-image-$arch$pkgarch
	k=$(apt-cache depends $meta 2>/dev/null |
	    awk '/Depends: linux-image-/{ print $2; exit }')
	if [ -z "$k" ]; then
		apt-get update -qq >/dev/null 2>&1 || true
		k=$(apt-cache depends $meta 2>/dev/null |
		    awk '/Depends: linux-image-/{ print $2; exit }')
	fi
	[ -n "$k" ] || die "no $meta in apt's lists" \
	    "${pkgarch:+(dpkg --add-architecture ${pkgarch#:}: mk/deps.sh vm)}"
	k=${k%:*}
	# A newer kernel package: the old one goes.
	ls "$vm/debs/${k}_"*.deb >/dev/null 2>&1 ||
	    rm -f "$vm"/debs/linux-image-*
	fetch "$vm/debs" $(for p in "$k" busybox-static dropbear-bin \
	    libtomcrypt1 libtommath1 libc6 libcrypt1 zlib1g libgmp10; do
		echo "$p$pkgarch"
	done)
	build_root
	touch "$stamp"
	echo "vm: built $vm/vmlinuz ($k) and $vm/initrd.gz"
}

# 0 if KVM can run this box's vCPU: a /dev/kvm we may open is not
# enough.  A nested one may refuse the CPU's registers (QEMU then
# aborts in kvm_buf_set_msrs as the machine resets), so QEMU is asked
# to make one, paused, and quit.  Another takes the vCPU and never runs
# a guest instruction (QEMU at full CPU, the console empty: seen on a
# CI machine whose /dev/kvm is there), so the box's kernel is booted
# too, with no init, and KVM is used only if it prints its banner.  The
# answer is kept in $vm/kvm for the host's boot: a failed probe costs
# its 15 s once, not at every start.
kvm_works() {
	[ -w /dev/kvm ] || return 1
	(echo quit | timeout 30 "$qemu" -machine pc,accel=kvm -cpu host \
	    -display none -nodefaults -S -monitor stdio) >/dev/null 2>&1 ||
	    return 1
	[ -f "$vm/vmlinuz" ] || return 0
	boot=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo)
	if [ -n "$boot" ] && [ -f "$vm/kvm" ]; then
		case $(cat "$vm/kvm") in
		"$boot yes")	return 0 ;;
		"$boot no")	return 1 ;;
		esac
	fi
	probe=$(mktemp -d "${TMPDIR:-/tmp}/ltpvm-kvm.XXXXXX") || return 1
	: > "$probe/console"
	verdict=no
	if "$qemu" -nodefaults -no-user-config -machine pc,accel=kvm \
	    -cpu host -m 64 -display none -no-reboot \
	    -kernel "$vm/vmlinuz" \
	    -append "console=$tty panic=-1 rdinit=/nonexistent" \
	    -serial "file:$probe/console" -pidfile "$probe/pid" \
	    -daemonize >/dev/null 2>&1; then
		i=0
		while [ $i -lt 75 ]; do
			if grep -q "Linux version" "$probe/console"; then
				verdict=yes
				break
			fi
			sleep 0.2
			i=$((i + 1))
		done
		kill -9 "$(cat "$probe/pid" 2>/dev/null)" 2>/dev/null
	fi
	rm -rf "$probe"
	[ -z "$boot" ] || echo "$boot $verdict" > "$vm/kvm"
	[ "$verdict" = yes ]
}

# How QEMU runs the box: $accel, $machine, $cpu and the rest of its
# options in $extra.
machine_amd64() {
	# TCG has RDRAND for the kernel's random pool: without it sshd
	# waits some 15 s for entropy.
	accel=tcg
	cpu=qemu64,+rdrand
	if kvm_works; then
		accel=kvm
		cpu=host
	fi
	machine=pc,accel=$accel
	extra="-vga none"
}

# Another architecture's box: TCG, whatever this machine has.  A
# cortex-a57, not "max": TCG emulates max's pointer authentication
# slowly, and the kernel's jitter entropy fills its pool without RNDR.
machine_arm64() {
	accel=tcg
	cpu=cortex-a57
	machine=virt,accel=$accel
	extra=
}

# qemu_line PANIC: the box's own qemu command, quoted for sh and for a
# config's qemu line: the machine, the kernel and its initramfs.  What
# ltpscope adds to a box's qemu line (console, monitor, network) start
# adds here.
qemu_line() {
	machine_$arch
	printf "%s -nodefaults -no-user-config -machine %s -cpu %s -m 256 " \
	    "$qemu" "$machine" "$cpu"
	printf "%s" "-smp 1 -display none ${extra:+$extra }"
	printf "%s" "-kernel '$vm/vmlinuz' -initrd '$vm/initrd.gz' "
	printf "%s\n" "-append 'console=$tty panic=$1 quiet mitigations=off'"
}

start() {	# start RUN PANIC
	run=$1
	[ -f "$vm/initrd.gz" ] || die "no box built: mk/vm.sh build $arch"
	mkdir -p "$run"
	echo "$arch" > "$run/arch"
	machine_$arch
	line=$(qemu_line "$2")
	try=0
	while :; do
		# The seconds' leading 0 ("09") is no octal: 1 before.
		sec=1$(date +%S)
		port=$(( 20000 + ($$ * 7 + try * 131 + sec - 100) % 40000 ))
		fwd=hostfwd=tcp:127.0.0.1:$port-:22
		rm -f "$run/mon.sock" "$run/qemu.pid"
		: > "$run/console.log"
		if eval "$line" '-serial "file:$run/console.log"' \
		    '-monitor "unix:$run/mon.sock,server,nowait"' \
		    '-nic "user,id=n,restrict=on,$fwd"' \
		    '-pidfile "$run/qemu.pid" -daemonize 2>"$run/qemu.err"'; then
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

# The box of a RUN: the one start booted there.
run_arch() {
	set_arch "$(cat "$1/arch" 2>/dev/null || echo amd64)"
}

case $1 in
build)	set_arch "${2:-amd64}"; build ;;
qemu)	[ $# = 3 ] || die "usage: vm.sh qemu ARCH PANIC"
	set_arch "$2"; qemu_line "$3" ;;
start)	[ $# = 3 ] || [ $# = 4 ] ||
	    die "usage: vm.sh start RUN PANIC [ARCH]"
	set_arch "${4:-amd64}"; start "$2" "$3" ;;
stop)	stop "$2" ;;
reset)	echo system_reset | socat - "UNIX-CONNECT:$2/mon.sock" >/dev/null ;;
wait)	run_arch "$2"; machine_$arch; wait_up "$2" "${3:-180}" ;;
accel)	set_arch "${2:-amd64}"; machine_$arch; echo "$accel $cpu" ;;
ssh)	r=$2; shift 2; exec ssh -F "$r/ssh_config" ltpvm "$@" ;;
*)	die "usage: vm.sh build [ARCH] | start RUN PANIC [ARCH] | stop RUN |" \
	    "reset RUN | wait RUN [SECONDS] | ssh RUN COMMAND |" \
	    "qemu ARCH PANIC | accel [ARCH]" ;;
esac
