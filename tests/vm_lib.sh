# SPDX-License-Identifier: BSD-2-Clause
# What the "make check-vm" scripts share, sourced by each after it set
# $top: the binary, a work directory of its own that stands for the
# user's home (nothing of the host's config, data or kernel tree is
# read), and the TAP helpers.  vm_work PREFIX makes $w.

cd "$top"
bin=${LTPSCOPE_BIN:-./ltpscope}
case $bin in /*) ;; *) bin=$top/${bin#./} ;; esac

vm_work() {	# vm_work PREFIX: $w, the environment pointed into it
	w=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
	unset LTPROOT LTPSCOPE_CONFIG LTPSCOPE_DB SSH_AUTH_SOCK
	export HOME="$w" XDG_CONFIG_HOME="$w/cfg" XDG_DATA_HOME="$w/data" \
	    XDG_STATE_HOME="$w/state" XDG_CACHE_HOME="$w/cache" \
	    LTPSCOPE_KERNEL_SRC="$w/no-kernel-src"
	mkdir -p "$XDG_CONFIG_HOME/ltpscope" "$XDG_DATA_HOME" \
	    "$XDG_STATE_HOME"
}

vm_rmwork() {	# $w removed, unless VM_KEEP asks to keep it
	if [ -n "${VM_KEEP:-}" ]; then
		echo "# kept: $w"
	else
		rm -rf "$w"
	fi
}

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

diag() {	# diag FILE [LINES]: the file as TAP comments, no control bytes
	tr -d '\033\r' < "$1" | sed -e 's/^/# /' | tail -n "${2:-40}"
}

has() {	# has FILE STRING DESCRIPTION...
	f=$1
	str=$2
	shift 2
	grep -F -q -e "$str" "$f"
	ok $? "$@" || { echo "# no '$str' in:"; diag "$f"; }
}
