#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# "make check-vm": ltpscope against a real box (mk/vm.sh: Linux under
# QEMU, busybox, dropbear, a fake LTP whose kill11 and crash02 really
# panic the kernel and whose leak01 leaves a sleep 600 behind), run as
# a user would: run --host ... --reboot-cmd ... --console ...
# --skip-culprit --box-wait, unattended, in the four set-ups (the
# kernel rebooting itself, panic=1, or staying dead, panic=0; with and
# without --reboot-cmd), then a panic under -j 2, ^C while waiting and
# --resume, --box-wait's limit, the explorer and what the kernel said
# during each test (--reset-on-taint).  Each test started on
# the box says so in its kernel log, which the serial console keeps:
# what really ran, counted outside ltpscope.  TAP on stdout.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/vm_lib.sh"
vm_work ltpvm
vmdir=$w/vm
skip=$XDG_CONFIG_HOME/ltpscope/skiplist
tmux="tmux -S $w/tmux.sock"
bgpids=

cleanup() {
	for p in $bgpids; do
		kill -9 "$p" 2>/dev/null
	done
	$tmux kill-server 2>/dev/null
	sh mk/vm.sh stop "$vmdir" 2>/dev/null
	vm_rmwork
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

hasnt() {	# hasnt FILE STRING DESCRIPTION...
	f=$1
	str=$2
	shift 2
	! grep -F -q -e "$str" "$f"
	ok $? "$@" || { echo "# '$str' in:"; grep -n -F -e "$str" "$f" |
	    diag /dev/stdin 10; }
}

# waitfor FILE STRING SECONDS: 0 once FILE has STRING
waitfor() {
	i=0
	while [ $i -lt $(($3 * 5)) ]; do
		grep -F -q -e "$2" "$1" 2>/dev/null && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# waitpid PID SECONDS: 0 when it ended in time, else killed and 1
waitpid() {
	i=0
	while kill -0 "$1" 2>/dev/null; do
		if [ $i -ge $(($2 * 5)) ]; then
			# TERM first: ltpscope ends its ssh master.
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

console() {
	tr -d '\r' < "$vmdir/console.log"
}

# What the console said since byte $1 (a run's start).
console_since() {
	tail -c "+$(($1 + 1))" "$vmdir/console.log" | tr -d '\r'
}

con_size() {
	wc -c < "$vmdir/console.log" | tr -d ' '
}

# VM_ONLY="p1cmd ui ...": only those parts (while working on one).
want() {
	[ -z "${VM_ONLY:-}" ] && return 0
	case " $VM_ONLY " in *" $1 "*) return 0 ;; esac
	return 1
}

boot() {	# boot PANIC
	sh mk/vm.sh start "$vmdir" "$1" > "$w/start.log" 2>&1
	ok $? "the box boots with panic=$1 and answers ssh:" \
	    "$(tail -n 1 "$w/start.log")" || {
		diag "$w/start.log"; diag "$vmdir/console.log"
		echo "1..$n"; exit 1; }
}

# Each part starts on a box that answers, whatever the last left.
box_up() {
	sh mk/vm.sh wait "$vmdir" 3 >/dev/null 2>&1 && return 0
	sh mk/vm.sh reset "$vmdir"
	sh mk/vm.sh wait "$vmdir" 180 >/dev/null 2>&1
}

# The reset button, as a user gives it, and a line in $w/resets each
# time ltpscope presses it.
mon=$vmdir/mon.sock
reset_cmd="echo >>$w/resets; echo system_reset | socat - UNIX-CONNECT:$mon"

resets() {
	cat "$w/resets" 2>/dev/null | wc -l | tr -d ' '
}

# run_bg NAME ARGS...: ltpscope run on the box, in the background, no
# stdin; its output in $w/NAME.out, its console from $w/NAME.off on.
# $runpath, when set, is its PATH.
run_bg() {
	name=$1
	shift
	rm -f "$skip"
	con_size > "$w/$name.off"
	PATH=${runpath:-$PATH} "$bin" run -d "$w/$name.db" -L /opt/ltp \
	    --host ltpvm --ssh-config "$vmdir/ssh_config" "$@" </dev/null \
	    >"$w/$name.out" 2>&1 &
	pid=$!
	bgpids="$bgpids $pid"
}

# Finding 7: ssh as ltpscope runs it, but its keepalives an hour apart
# (ltpscope's -o comes before the ssh config's, and wins): without the
# console watch the crash could not be noticed before the test's
# deadline (30 s, the metadata's), and it would be a timeout.
slowssh=$w/slowssh
mkdir -p "$slowssh"
realssh=$(command -v ssh)
cat > "$slowssh/ssh" <<EOF
#!/bin/sh
for a; do
	shift
	case \$a in
	-oServerAliveInterval=*) a=-oServerAliveInterval=3600 ;;
	esac
	set -- "\$@" "\$a"
done
exec $realssh "\$@"
EOF
chmod 755 "$slowssh/ssh"


# verdicts NAME: "tag status" of the run's last results, one a line
verdicts() {
	"$bin" show last -d "$w/$1.db" 2>/dev/null |
	    awk '/^ *SEQ / { h = 1; next }
	    h && /^ +[0-9]+ / && NF >= 10 { print $2, $4 }'
}

ten="pass01 pass
fail01 fail
kill11 crash
pass02 pass
conf01 conf
crash02 crash
leak01 pass
pass03 pass
pass04 pass
pass05 pass"

# The checks every set-up of the ten tests must pass.
check_ten() {	# check_ten NAME DESCRIPTION
	name=$1
	what=$2
	verdicts "$name" > "$w/$name.verdicts"
	echo "$ten" | cmp -s - "$w/$name.verdicts"
	ok $? "$what: all ten verdicts" || {
		echo "# wanted:"; echo "$ten" | sed 's/^/#   /'
		echo "# got:"; diag "$w/$name.verdicts"; diag "$w/$name.out"; }
	console_since "$(cat "$w/$name.off")" > "$w/$name.con"
	bad=
	for t in $(echo "$ten" | awk '{ print $1 }'); do
		c=$(grep -c "ltpfake: start $t\$" "$w/$name.con")
		[ "$c" = 1 ] || bad="$bad $t:$c"
	done
	[ -z "$bad" ]
	ok $? "$what: each test started once on the box (the console:" \
	    "${bad:-each once})" || diag "$w/$name.con" 60
	grep -q '^kill11[[:space:]]' "$skip" 2>/dev/null &&
	    grep -q '^crash02[[:space:]]' "$skip" 2>/dev/null
	ok $? "$what: both crashes on the skip list" ||
	    diag "$skip" 2>/dev/null
	sh mk/vm.sh ssh "$vmdir" 'ps -o pid,args; ls /tmp' \
	    > "$w/$name.ps" 2>&1
	! grep -q -e 'sleep 600' -e ltpscope -e 'cat /dev/kmsg' \
	    "$w/$name.ps"
	ok $? "$what: nothing left on the box (no sleep 600, no" \
	    "ltpscope directory, no cat of /dev/kmsg)" || diag "$w/$name.ps"
	# Finding 1: the closing summary counts the whole run.
	line=$(grep 'tests done' "$w/$name.out" | tail -n 1)
	case $line in
	*" 10 of 10 tests done"*"6 pass"*"1 fail"*"1 conf"*"2 crash"*)
		ok 0 "$what: the summary counts the whole run: $line" ;;
	*)	ok 1 "$what: the summary counts the whole run" \
		    "(10 of 10 tests done: 6 pass, 1 fail, 1 conf, 2 crash)"
		echo "# got: $line" ;;
	esac
	grep -q "$(printf '\033')" "$w/$name.out"
	[ $? = 1 ]
	ok $? "$what: no escape sequence reaches the terminal" || {
		grep -n -a "$(printf '\033')" "$w/$name.out" | head -n 3 |
		    cat -v | sed 's/^/# /'; }
}

# A crash's stored words, as show gives them.
stored() {	# stored NAME TAG
	"$bin" show last -d "$w/$1.db" --output "$2" 2>&1 | tr -d '\r'
}

# Finding 2: what is stored with a crash is its panic, whole, and not
# the next boot.
check_words() {	# check_words NAME TAG DESCRIPTION
	stored "$1" "$2" > "$w/$1.$2.words"
	f=$w/$1.$2.words
	grep -q 'Kernel panic - not syncing: sysrq triggered crash' "$f" &&
	    grep -q 'sysrq: Trigger a crash' "$f" &&
	    grep -q "Comm: $2 " "$f" && grep -q 'Call Trace' "$f"
	ok $? "$3: $2's stored words have the panic, sysrq's line," \
	    "Comm: $2 and the call trace" || diag "$f"
	! grep -q -e 'ltpvm: up' -e 'e1000:' -e 'Linux version' "$f"
	ok $? "$3: ... and nothing of the next boot" || diag "$f"
	grep -q "crash $2: Kernel panic - not syncing: sysrq triggered" \
	    "$w/$1.out"
	ok $? "$3: the summary gives $2's panic line" ||
	    grep 'crash ' "$w/$1.out" | diag /dev/stdin
}

# Finding 7: with --console, the crash is noticed from the console,
# ssh's keepalives an hour apart (slowssh): both crashes told from
# there, with their panic line, and stored as crashes (check_ten), not
# as timeouts.
check_console() {	# check_console NAME DESCRIPTION
	for t in kill11 crash02; do
		has "$w/$1.out" "told of a panic while running $t: Kernel panic" \
		    "$2: $t's crash is noticed from the console (ssh's" \
		    "keepalives an hour apart)"
	done
}

# part NAME: the time each part took, as a comment (not a test)
tpart=$(date +%s)
part() {
	echo "# $1 took $(( $(date +%s) - tpart )) s"
	tpart=$(date +%s)
}

scr() {
	$tmux capture-pane -p > "$w/ui.screen" 2>/dev/null
}

uiwait() {	# uiwait STRING SECONDS: the explorer's screen shows STRING
	i=0
	while [ $i -lt $(($2 * 5)) ]; do
		scr
		grep -F -q -e "$1" "$w/ui.screen" && return 0
		sleep 0.2
		i=$((i + 1))
	done
	return 1
}

# --- the box -----------------------------------------------------------
echo "# building the box (build/vm, kept across runs)"
if ! sh mk/vm.sh build > "$w/build.log" 2>&1; then
	ok 1 "the box is built (mk/vm.sh build)"
	diag "$w/build.log"
	echo "1..$n"
	exit 1
fi
t0=$(date +%s)
if want p1cmd || want p1 || want j2 || want kmsg || want ui; then
	boot 1
fi

# --- panic=1, --reboot-cmd ----------------------------------------------
if want p1cmd; then
	box_up
	r0=$(resets)
	runpath=$slowssh:$PATH
	run_bg p1cmd -f syscalls --reboot-cmd "$reset_cmd" --console \
	    "$vmdir/console.log" --skip-culprit --box-wait 300
	runpath=
	waitpid $pid 400
	ok $? "panic=1 with --reboot-cmd: the run ends by itself, no key" \
	    "press" ||
	    diag "$w/p1cmd.out"
	check_ten p1cmd "panic=1 with --reboot-cmd"
	check_console p1cmd "panic=1 with --reboot-cmd"
	# Finding 5: the box reboots itself (its console said "Rebooting in");
	# --reboot-cmd is not run on top of that.
	c=$(($(resets) - r0))
	[ "$c" = 0 ]
	ok $? "panic=1 with --reboot-cmd: a box rebooting by itself is not" \
	    "reset again (--reboot-cmd run $c times)" ||
	    grep -n -e 'ltpvm: up' -e 'Kernel panic' -e 'Rebooting' \
	    "$w/p1cmd.con" | diag /dev/stdin
	part p1cmd
fi

# --- panic=1, no --reboot-cmd -------------------------------------------
if want p1; then
	box_up
	runpath=$slowssh:$PATH
	run_bg p1 -f syscalls --console "$vmdir/console.log" --skip-culprit \
	    --box-wait 300
	runpath=
	waitpid $pid 400
	ok $? "panic=1 without --reboot-cmd: the run ends by itself" ||
	    diag "$w/p1.out"
	check_ten p1 "panic=1 without --reboot-cmd"
	check_console p1 "panic=1 without --reboot-cmd"
	part p1
fi

# --- -j 2: a panic while another test runs ------------------------------
if want j2; then
	box_up
	run_bg j2 -f twice -j 2 --reboot-cmd "$reset_cmd" --console \
	    "$vmdir/console.log" --skip-culprit --box-wait 300
	waitpid $pid 300
	ok $? "-j 2: the run ends by itself" || diag "$w/j2.out"
	verdicts j2 | sort > "$w/j2.verdicts"
	printf 'kill11 crash\npass01 pass\nslow01 interrupted\nslow01 pass\n' |
	    cmp -s - "$w/j2.verdicts"
	ok $? "-j 2: kill11 a crash (the console's Comm: kill11), slow01" \
	    "(running beside it) interrupted, then run again and passes," \
	    "pass01 passes" ||
	    { diag "$w/j2.verdicts"; diag "$w/j2.out"; }
	grep -E -q '^INTERRUPTED +slow01 ' "$w/j2.out"
	ok $? "-j 2: slow01, running beside kill11, is interrupted, not" \
	    "blamed" || diag "$w/j2.out" 12
	console_since "$(cat "$w/j2.off")" > "$w/j2.con"
	c1=$(grep -c 'ltpfake: start slow01$' "$w/j2.con")
	c2=$(grep -c 'ltpfake: start kill11$' "$w/j2.con")
	c3=$(grep -c 'ltpfake: start pass01$' "$w/j2.con")
	[ "$c1-$c2-$c3" = 2-1-1 ]
	ok $? "-j 2: slow01 started again after the reset, kill11 and pass01" \
	    "once (console: $c1, $c2, $c3)" || diag "$w/j2.con"
	c=$(grep -c 'ltpfake: end slow01$' "$w/j2.con")
	[ "$c" = 1 ]
	ok $? "-j 2: slow01 ran to its end once (console: $c)" ||
	    diag "$w/j2.con"
	part j2
fi

# --- what the kernel said during each test, --reset-on-taint -----------
# warn01 makes the kernel log a warning, taint01 taints it (TAINT_WARN);
# the box is reset after taint01, before pass02, by --reboot-cmd.
if want kmsg; then
	box_up
	r0=$(resets)
	run_bg kmsg -f kmsg --reset-on-taint --reboot-cmd "$reset_cmd" \
	    --console "$vmdir/console.log" --box-wait 300
	waitpid $pid 300
	ok $? "kmsg: the run ends by itself" || diag "$w/kmsg.out"
	verdicts kmsg > "$w/kmsg.verdicts"
	printf 'pass01 pass\nwarn01 pass\ntaint01 pass\npass02 pass\n' |
	    cmp -s - "$w/kmsg.verdicts"
	ok $? "kmsg: the four tests pass" ||
	    { diag "$w/kmsg.verdicts"; diag "$w/kmsg.out"; }
	stored kmsg warn01 > "$w/kmsg.warn01"
	awk '/^--- kernel messages/ { m = 1; next }
	    m && /ltpfake: WARNING something/ { f = 1 }
	    END { exit !f }' "$w/kmsg.warn01"
	ok $? "kmsg: show --output warn01 has the kernel's warning after" \
	    "the kernel-messages marker" || diag "$w/kmsg.warn01"
	"$bin" show last -d "$w/kmsg.db" > "$w/kmsg.show" 2>&1
	grep -E -q '^ +[0-9]+ +warn01 .* kernel warned$' "$w/kmsg.show" &&
	    grep -E -q '^ +[0-9]+ +taint01 .* kernel tainted$' \
	    "$w/kmsg.show" &&
	    grep -q '(2 after which the kernel warned or was tainted)' \
	    "$w/kmsg.show"
	ok $? "kmsg: show counts warn01's warning and taint01's taint" ||
	    diag "$w/kmsg.show"
	console_since "$(cat "$w/kmsg.off")" > "$w/kmsg.con"
	awk '/ltpfake: start taint01$/ { t = NR }
	    /ltpvm: up$/ && t && !u { u = NR }
	    /ltpfake: start pass02$/ { p = NR }
	    /ltpvm: up$/ { b++ }
	    END { exit !(t && u && p > u && b == 1) }' "$w/kmsg.con"
	ok $? "kmsg: --reset-on-taint: the box booted once, after taint01," \
	    "before pass02 (the console)" || diag "$w/kmsg.con"
	c=$(($(resets) - r0))
	[ "$c" = 1 ]
	ok $? "kmsg: --reset-on-taint pressed the reset button once ($c)" ||
	    diag "$w/kmsg.out"
	part kmsg
fi

# --- the explorer through a panic ---------------------------------------
if want ui; then
	box_up
	if command -v tmux >/dev/null 2>&1; then
		rm -f "$skip"
		printf 'host ltpvm\nssh-config %s\nbox-wait 300\n' \
		    "$vmdir/ssh_config" > "$XDG_CONFIG_HOME/ltpscope/config"
		printf 'reboot-cmd %s\n' "$reset_cmd" \
		    >> "$XDG_CONFIG_HOME/ltpscope/config"
		con_size > "$w/ui.off"
		$tmux new-session -d -x 120 -y 30 "$bin ui -m \
		    data/demo/linux-amd64-syscalls.master -L /opt/ltp \
		    -f syscalls -d $w/ui.db; sleep 600"
		uiwait 'syscalls,' 60
		ok $? "the explorer starts, the box and a reboot-cmd in its" \
		    "config" ||
		    diag "$w/ui.screen"
		$tmux send-keys ':'
		$tmux send-keys -l 'run pass01 kill11 pass02'
		$tmux send-keys Enter
		uiwait 'stopped answering while running kill11' 60
		ok $? "the explorer: the box stopped answering while running" \
		    "kill11" ||
		    diag "$w/ui.screen"
		uiwait 'run 1 finished' 240
		ok $? "the explorer: the reboot-cmd brings the box back and" \
		    "the run goes on there by itself" || diag "$w/ui.screen"
		# Finding 1, in the explorer: the whole run is counted.
		has "$w/ui.screen" \
		    'finished: 2 pass, 0 fail, 0 broken, 0 conf' \
		    "the explorer: its closing line counts the whole run" \
		    "(2 pass)"
		has "$w/ui.screen" ' 1 crash' "the explorer: ... and the crash"
		$tmux send-keys q q q
		sleep 1
		$tmux kill-server 2>/dev/null
		rm -f "$XDG_CONFIG_HOME/ltpscope/config"
		verdicts ui > "$w/ui.verdicts"
		printf 'pass01 pass\nkill11 crash\npass02 pass\n' |
		    cmp -s - "$w/ui.verdicts"
		ok $? "the explorer: pass01, kill11 a crash, pass02" ||
		    diag "$w/ui.verdicts"
		# No console in the explorer's config: the reset box's dmesg
		# has no panic, only what kill11 said is there to keep.
		stored ui kill11 > "$w/ui.words"
		has "$w/ui.words" 'killing the kernel' "the explorer: what" \
		    "kill11 said until the box stopped answering is stored"
		console_since "$(cat "$w/ui.off")" > "$w/ui.con"
		c=$(grep -c 'ltpfake: start kill11$' "$w/ui.con")
		[ "$c" = 1 ]
		ok $? "the explorer: kill11 started once ($c)" ||
		    diag "$w/ui.con"
	else
		ok 0 "the explorer # SKIP tmux not installed"
	fi
	part ui
fi

# --- panic=0: the box stays dead ----------------------------------------
if want p0cmd || want p0 || want intr || want wait; then
	sh mk/vm.sh stop "$vmdir"
	boot 0
	part "booting with panic=0"
fi

if want p0cmd; then
	box_up
	run_bg p0cmd -f syscalls --reboot-cmd "$reset_cmd" --console \
	    "$vmdir/console.log" --skip-culprit --box-wait 300
	waitpid $pid 400
	ok $? "panic=0 with --reboot-cmd: the run ends by itself, no key" \
	    "press" ||
	    diag "$w/p0cmd.out"
	check_ten p0cmd "panic=0 with --reboot-cmd"
	check_words p0cmd kill11 "panic=0 with --reboot-cmd"
	check_words p0cmd crash02 "panic=0 with --reboot-cmd"
	part p0cmd
fi

# Reset by hand: the box is reset from outside once its console shows
# the panic's end, as a person at the console would.
if want p0; then
	box_up
	run_bg p0 -f syscalls --console "$vmdir/console.log" --skip-culprit \
	    --box-wait 300
	(
		off=$(cat "$w/p0.off")
		for k in 1 2; do
			while [ "$(console_since "$off" |
			    grep -c 'end Kernel panic')" -lt $k ]; do
				kill -0 $pid 2>/dev/null || exit 0
				sleep 0.5
			done
			sleep 2
			sh mk/vm.sh reset "$vmdir"
		done
	) &
	bgpids="$bgpids $!"
	waitpid $pid 400
	ok $? "panic=0, reset by hand: the run ends by itself" ||
	    diag "$w/p0.out"
	check_ten p0 "panic=0, reset by hand"
	check_words p0 kill11 "panic=0, reset by hand"
	part p0
fi

# --- ^C while waiting for the box, then --resume ------------------------
if want intr; then
	box_up
	run_bg intr -f syscalls --reboot-cmd "$reset_cmd" --console \
	    "$vmdir/console.log" --skip-culprit --box-wait 300 \
	    kill11 crash02 pass01
	ipid=$pid
	waitfor "$w/intr.out" 'waiting for ltpvm' 120
	kill -INT $ipid
	waitpid $ipid 60
	ok $? "^C while waiting for the box stops the run" || diag "$w/intr.out"
	has "$w/intr.out" "run --resume" "... and says how to resume it"
	sh mk/vm.sh wait "$vmdir" 180 >/dev/null 2>&1
	# Finding 3: --resume keeps --console, --reboot-cmd and --box-wait.
	rm -f "$skip"
	r0=$(resets)
	"$bin" run --resume -d "$w/intr.db" </dev/null > "$w/resume.out" 2>&1 &
	pid=$!
	bgpids="$bgpids $pid"
	waitpid $pid 240
	ok $? "--resume: the run ends by itself: crash02's crash brings in" \
	    "the run's --reboot-cmd, within its --box-wait" ||
	    diag "$w/resume.out"
	c=$(($(resets) - r0))
	[ "$c" -ge 1 ]
	ok $? "--resume: the run's --reboot-cmd is run ($c times)" ||
	    diag "$w/resume.out"
	verdicts intr | sort > "$w/intr.verdicts"
	printf 'crash02 crash\nkill11 crash\npass01 pass\n' |
	    cmp -s - "$w/intr.verdicts"
	ok $? "--resume: kill11 and crash02 crashes, pass01 passes" || {
		diag "$w/intr.verdicts"; diag "$w/resume.out"; }
	stored intr kill11 > "$w/intr.words"
	has "$w/intr.words" 'kernel (console' "--resume: kill11's words are" \
	    "the console's, not dmesg of the fresh boot"
	has "$w/intr.words" \
	    'Kernel panic - not syncing: sysrq triggered crash' \
	    "--resume: ... with its panic"
	hasnt "$w/resume.out" "no panic message" \
	    "--resume: no 'no panic message'"
	part intr
fi

# --- --box-wait's limit -------------------------------------------------
# Finding 4: the box gone for good (QEMU ended: every try is refused
# at once), --box-wait 30: it tries until the limit, a last try there,
# and does not give up at the last back-off step before it (15 s).
# Counted from when the run said the box stopped answering, less 2 s:
# the wait may count from the panic, seen on the console just before.
if want wait; then
	box_up
	run_bg wait -f syscalls --console "$vmdir/console.log" --box-wait 30 \
	    kill11
	waitfor "$w/wait.out" 'stopped answering' 120
	t1=$(date +%s)
	sh mk/vm.sh stop "$vmdir"
	waitpid $pid 120
	t2=$(date +%s)
	has "$w/wait.out" "did not come back in 30 s" "--box-wait 30: it" \
	    "gives up"
	[ $((t2 - t1)) -ge 28 ]
	ok $? "--box-wait 30: not before the limit ($((t2 - t1)) s after" \
	    "it said the box stopped answering)" || diag "$w/wait.out"
	part wait
fi

echo "# check-vm took $(( $(date +%s) - t0 )) s after the build"
echo "1..$n"
