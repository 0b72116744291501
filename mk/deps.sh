#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Checks what ltpscope needs to build and test, and installs what is
# missing when it can (root with apt-get); otherwise prints the exact
# command to run and fails.  Called by "make check" and "make demo";
# "deps.sh CC clang" also wants clang, for "make check-netbsd";
# "deps.sh CC fuzz" clang and its libFuzzer, for "make fuzz".
# "deps.sh CC valgrind" valgrind, for "make memcheck".
# "deps.sh CC vm" QEMU (x86 and arm), socat, cpio and readelf, and
# dpkg's arm64 architecture (apt-get download of the arm64 box's
# packages: nothing of it is installed), for "make check-vm".
cc=${1:-cc}
want=$2
missing_deb=
missing_pkgin=
tmp=${TMPDIR:-/tmp}/ltpscope-deps.$$
trap 'rm -f "$tmp" "$tmp.c"' EXIT

# clang links a libFuzzer program: its runtime is a package of its own.
have_libfuzzer() {
	printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
	    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
	    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
	    '{ (void)d; (void)n; return 0; }' > "$tmp.c"
	clang -fsanitize=fuzzer,address,undefined -o "$tmp" "$tmp.c" \
	    >/dev/null 2>&1
}

have_header() {
	printf '#include <%s>\nint main(void){return 0;}\n' "$1" > "$tmp.c"
	$cc $2 -c -o "$tmp" "$tmp.c" >/dev/null 2>&1
}

# sshd is in sbin, which a user's PATH may lack.
have_sshd() {
	for d in /usr/sbin /usr/local/sbin /usr/pkg/sbin /sbin; do
		[ -x "$d/sshd" ] && return 0
	done
	command -v sshd >/dev/null 2>&1
}

need() {	# need DEB PKGIN
	missing_deb="$missing_deb $1"
	missing_pkgin="$missing_pkgin $2"
}

check() {
	command -v "${cc%% *}" >/dev/null 2>&1 || need gcc gcc
	command -v make >/dev/null 2>&1 || need make gmake
	command -v pkg-config >/dev/null 2>&1 || need pkg-config pkgconf
	have_header curses.h "-D_XOPEN_SOURCE=700" || need libncurses-dev ncursesw
	have_header sqlite3.h || need libsqlite3-dev sqlite3
	have_header histedit.h || need libedit-dev editline
	have_header pcre2.h "-DPCRE2_CODE_UNIT_WIDTH=8" || need libpcre2-dev pcre2
	command -v sqlite3 >/dev/null 2>&1 || need sqlite3 sqlite3
	command -v tmux >/dev/null 2>&1 || need tmux tmux
	command -v mandoc >/dev/null 2>&1 || need mandoc mandoc
	# tests/test_build builds a clone with BSD make too (pkgsrc has it
	# as bmake; NetBSD's own make is one).
	command -v bmake >/dev/null 2>&1 || [ "$(uname -s)" = NetBSD ] || \
	    need bmake bmake
	# Remote runs use the system's OpenSSH client; their tests start
	# a private sshd (NetBSD has both in base).
	command -v ssh >/dev/null 2>&1 || need openssh-client openssh
	command -v ssh-keygen >/dev/null 2>&1 || need openssh-client openssh
	have_sshd || need openssh-server openssh
	# test_profile traces real programs; strace is Linux's alone.
	if [ "$(uname -s)" = Linux ]; then
		command -v strace >/dev/null 2>&1 || need strace strace
	fi
	case "$want" in
	clang|fuzz)
		command -v clang >/dev/null 2>&1 || need clang clang
		;;
	esac
	if [ "$want" = fuzz ] && ! have_libfuzzer; then
		need libclang-rt-dev compiler-rt
	fi
	# "make check-vm": a Linux box under QEMU (mk/vm.sh), its
	# initramfs made with cpio, its monitor talked to with socat.
	if [ "$want" = vm ]; then
		command -v qemu-system-x86_64 >/dev/null 2>&1 ||
		    need qemu-system-x86 qemu
		command -v qemu-system-aarch64 >/dev/null 2>&1 ||
		    need qemu-system-arm qemu
		command -v readelf >/dev/null 2>&1 || need binutils binutils
		command -v socat >/dev/null 2>&1 || need socat socat
		command -v cpio >/dev/null 2>&1 || need cpio gcpio
		command -v dpkg-deb >/dev/null 2>&1 || need dpkg dpkg
	fi
	# "make memcheck" only.
	if [ "$want" = valgrind ]; then
		command -v valgrind >/dev/null 2>&1 || need valgrind valgrind
	fi
}

# The arm64 box's packages are fetched as foreign-arch ones (PKG:arm64):
# apt must know the architecture, which installs nothing.  Once.
foreign_arch() {	# foreign_arch ARCH
	command -v dpkg >/dev/null 2>&1 || return 0
	[ "$(dpkg --print-architecture)" = "$1" ] && return 0
	dpkg --print-foreign-architectures | grep -q -x "$1" && return 0
	if [ "$(id -u)" != 0 ]; then
		echo "deps: run: dpkg --add-architecture $1 &&" \
		    "apt-get update" >&2
		return 1
	fi
	echo "deps: dpkg --add-architecture $1"
	dpkg --add-architecture "$1" || return 1
	apt-get update -qq >/dev/null 2>&1 || true
}

if [ "$want" = vm ]; then
	foreign_arch arm64 || exit 1
fi

check
[ -z "$missing_deb" ] && exit 0

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
	echo "deps: installing:$missing_deb"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null 2>&1 || true
	# shellcheck disable=SC2086
	if ! apt-get install -y -qq $missing_deb >/dev/null; then
		echo "deps: apt-get install$missing_deb failed" >&2
		exit 1
	fi
	missing_deb=
	missing_pkgin=
	check
	[ -z "$missing_deb" ] && exit 0
	echo "deps: still missing after install:$missing_deb" >&2
	exit 1
fi

echo "deps: missing:$missing_deb" >&2
if command -v pkgin >/dev/null 2>&1 || [ "$(uname -s)" = NetBSD ]; then
	echo "deps: run: pkgin install$missing_pkgin" >&2
else
	echo "deps: run: apt-get install$missing_deb" >&2
fi
exit 1
