# SPDX-License-Identifier: BSD-2-Clause
# ltpscope -- explore NetBSD's compat_linux with the Linux Test Project.
#
# Works with GNU make and BSD make alike: only "!=", "?=", suffix rules
# and ${VAR:.c=.o} substitutions, no GNU-only functions.

PROG=		ltpscope
VERSION=	0.1

PREFIX?=	/usr/local
BINDIR?=	${PREFIX}/bin
MANDIR?=	${PREFIX}/share/man
DATADIR?=	${PREFIX}/share/ltpscope
DESTDIR?=

CC?=		cc
PKG_CONFIG?=	pkg-config
WERROR?=	-Werror
CSTD?=		-std=c11 -D_XOPEN_SOURCE=700
OS!=		uname -s
OS_CFLAGS!=	case "${OS}" in NetBSD) echo -D_NETBSD_SOURCE;; \
		    Darwin) echo -D_DARWIN_C_SOURCE;; *) echo;; esac

# Each library from pkg-config, or a plain -l when it has no .pc file
# (NetBSD's base curses and libedit do not ship one).  ncurses' .pc adds
# its own _XOPEN_SOURCE, which would clash with ours.
CURSES_CFLAGS!=	${PKG_CONFIG} --cflags ncursesw 2>/dev/null | \
		    sed -e 's/-D_XOPEN_SOURCE=[0-9]*//' -e 's/-D_DEFAULT_SOURCE//'
CURSES_LIBS!=	${PKG_CONFIG} --libs ncursesw 2>/dev/null || \
		    { [ "${OS}" = NetBSD ] && echo -lcurses -lterminfo; } || \
		    echo -lncursesw
SQLITE_CFLAGS!=	${PKG_CONFIG} --cflags sqlite3 2>/dev/null || echo
SQLITE_LIBS!=	${PKG_CONFIG} --libs sqlite3 2>/dev/null || echo -lsqlite3
EDIT_CFLAGS!=	${PKG_CONFIG} --cflags libedit 2>/dev/null || echo
EDIT_LIBS!=	${PKG_CONFIG} --libs libedit 2>/dev/null || echo -ledit
PCRE_CFLAGS!=	${PKG_CONFIG} --cflags libpcre2-8 2>/dev/null || echo
PCRE_LIBS!=	${PKG_CONFIG} --libs libpcre2-8 2>/dev/null || echo -lpcre2-8
# Which curses functions this curses has (mk/probe.sh): NetBSD's own
# curses is no ncurses but has use_default_colors() too.
CURSES_HAVE!=	sh mk/probe.sh "${CC}" "${CSTD} ${OS_CFLAGS} ${CURSES_CFLAGS}" \
		    "${CURSES_LIBS}"
UTIL_LIBS!=	case "${OS}" in Darwin) echo;; *) echo -lutil;; esac

WARNFLAGS?=	-Wall -Wextra ${WERROR} -Wno-unused-parameter \
		-Wmissing-prototypes -Wstrict-prototypes -Wshadow
# BSD make predefines CFLAGS (to ${DBG}, empty): optimisation goes in
# COPTS, as in NetBSD's own makefiles, and CFLAGS adds to it.
COPTS?=		-O2 -g
CFLAGS?=
# A packager's link flags (pkgsrc's run-time library path) for ltpscope.
LDFLAGS?=
ALL_CFLAGS=	${CSTD} ${OS_CFLAGS} ${WARNFLAGS} ${COPTS} ${CFLAGS} -Iinclude \
		-DLTPSCOPE_VERSION='"${VERSION}"' \
		-DLTPSCOPE_DATADIR='"${DATADIR}"' \
		${CURSES_CFLAGS} ${CURSES_HAVE} ${SQLITE_CFLAGS} ${EDIT_CFLAGS} \
		${PCRE_CFLAGS}
LIBS=		${CURSES_LIBS} ${SQLITE_LIBS} ${EDIT_LIBS} ${PCRE_LIBS} \
		${UTIL_LIBS}
ASAN_FLAGS=	-fsanitize=address,undefined -fno-omit-frame-pointer \
		-fno-sanitize-recover=undefined
# "make fuzz" builds the core again with clang and libFuzzer.
FUZZ_CC?=	clang
FUZZ_SECONDS?=	60
# A fixed seed makes a run repeatable (CI); empty: a new one each time.
FUZZ_SEED?=
FUZZ_SAN=	-fsanitize=address,undefined -fno-omit-frame-pointer \
		-fno-sanitize-recover=undefined
FUZZ_CFLAGS=	${CSTD} ${OS_CFLAGS} ${WARNFLAGS} -O1 -g -Iinclude \
		-DLTPSCOPE_VERSION='"${VERSION}"' \
		-DLTPSCOPE_DATADIR='"${DATADIR}"' ${SQLITE_CFLAGS} ${PCRE_CFLAGS}

# The core never calls curses: it is everything but main, the
# subcommands and the UI, and it is what the unit tests link against.
CORE_SRCS!=	ls src/*.c | grep -v -e src/main.c -e src/cmd_ -e src/ui \
		    -e src/view_
APP_SRCS!=	ls src/main.c src/cmd_*.c src/ui*.c src/view_*.c 2>/dev/null || true
CORE_OBJS=	${CORE_SRCS:.c=.o}
APP_OBJS=	${APP_SRCS:.c=.o}
CORE_AOBJS=	${CORE_SRCS:.c=.ao}
CORE_FOBJS=	${CORE_SRCS:.c=.fo}
APP_AOBJS=	${APP_SRCS:.c=.ao}
TEST_PROGS!=	ls tests/test_*.c | sed -e 's/[.]c//'
TEST_ASAN!=	ls tests/test_*.c | sed -e 's/[.]c/.asan/'
FAKE_BINS!=	ls tests/ltpfake/*.c 2>/dev/null | \
		    sed -e 's,ltpfake/,ltpfake/bin/,' -e 's/[.]c//' || echo
DEMO_SRCS!=	ls data/demo/testcases/*.c 2>/dev/null || echo
FUZZ_SRCS!=	ls fuzz/fuzz_*.c 2>/dev/null || echo
FUZZ_PROGS!=	ls fuzz/fuzz_*.c 2>/dev/null | \
		    sed -e 's,^fuzz/,build/fuzz/,' -e 's/[.]c//' || echo
BENCH_PROGS!=	ls bench/bench_*.c 2>/dev/null | sed -e 's/[.]c//' || echo

# The default goal: both makes take the first target they read, and
# build/depend.mk below is all targets, so "all" comes before it.
all: ${PROG}

# What each object and program includes, transitively (mk/depend.sh):
# written again on every run, before it is read, so it is never stale.
# A path with a slash: BSD make finds a file made during the parse only
# so, and both makes read "include" alike.
DEPEND!=	sh mk/depend.sh build/depend.mk
include build/depend.mk

.SUFFIXES: .c .o .ao .fo

# One short line per file; "make V=1" shows the whole command.
V?=		0
Q0=		@
Q=		${Q${V}}

.c.o:
	@[ "${V}" = 1 ] || echo "CC $<"
	${Q}${CC} ${ALL_CFLAGS} -c $< -o $@

.c.ao:
	@[ "${V}" = 1 ] || echo "CC $< (asan)"
	${Q}${CC} ${ALL_CFLAGS} ${ASAN_FLAGS} -c $< -o $@

.c.fo:
	@[ "${V}" = 1 ] || echo "CC $< (fuzz)"
	${Q}${FUZZ_CC} ${FUZZ_CFLAGS} ${FUZZ_SAN} -fsanitize=fuzzer-no-link \
	    -c $< -o $@

${PROG}: libltpscope.a ${APP_OBJS}
	${CC} ${COPTS} ${CFLAGS} ${LDFLAGS} -o $@ ${APP_OBJS} libltpscope.a \
	    ${LIBS}

libltpscope.a: ${CORE_OBJS}
	rm -f $@
	ar rcs $@ ${CORE_OBJS}

${PROG}.asan: libltpscope-asan.a ${APP_AOBJS}
	${CC} ${COPTS} ${CFLAGS} ${ASAN_FLAGS} -o $@ ${APP_AOBJS} \
	    libltpscope-asan.a ${LIBS}

libltpscope-asan.a: ${CORE_AOBJS}
	rm -f $@
	ar rcs $@ ${CORE_AOBJS}

# deps: check the libraries and tools, install what is missing when we
# can (root and apt-get), otherwise say exactly what to install.
deps:
	@sh mk/deps.sh "${CC}"

# Run a fresh make after deps so that pkg-config sees what deps added.
check: deps
	@${MAKE} check-build
	@${MAKE} check-run

check-build: ${PROG} ${PROG}.asan test-progs tests/test_runner.fork fakes \
    demo-build

test-progs: ${TEST_PROGS} ${TEST_ASAN} tests/runtests

# Each test program on its own: its source and headers come from
# build/depend.mk, so only those a change touches are built again.
${TEST_PROGS}: libltpscope.a tests/tap.o tests/tmux.o tests/sshd.o \
    tests/fixture_store.o
	@[ "${V}" = 1 ] || echo "CC $@"
	${Q}${CC} ${ALL_CFLAGS} -Itests -o $@ $@.c tests/tap.o \
	    tests/tmux.o tests/sshd.o tests/fixture_store.o libltpscope.a \
	    ${LIBS}

${TEST_ASAN}: libltpscope-asan.a tests/tap.ao tests/tmux.o tests/sshd.o \
    tests/fixture_store.ao
	@[ "${V}" = 1 ] || echo "CC $@"
	${Q}${CC} ${ALL_CFLAGS} ${ASAN_FLAGS} -Itests -o $@ ${@:.asan=.c} \
	    tests/tap.ao tests/tmux.o tests/sshd.o tests/fixture_store.ao \
	    libltpscope-asan.a ${LIBS}

# The runner's tests again, with the fork(2) path the BSDs take.
src/spawn.fork.o:
	@[ "${V}" = 1 ] || echo "CC src/spawn.c (fork)"
	${Q}${CC} ${ALL_CFLAGS} -DSPAWN_FORK -c src/spawn.c -o $@

tests/test_runner.fork: src/spawn.fork.o libltpscope.a tests/tap.o \
    tests/tmux.o tests/sshd.o tests/fixture_store.o
	@[ "${V}" = 1 ] || echo "CC $@"
	${Q}${CC} ${ALL_CFLAGS} -Itests -o $@ tests/test_runner.c \
	    src/spawn.fork.o tests/tap.o tests/tmux.o tests/sshd.o \
	    tests/fixture_store.o libltpscope.a ${LIBS}

tests/runtests: tests/runtests.c
	${CC} ${ALL_CFLAGS} -o $@ tests/runtests.c

# LTP-like programs the runner tests drive.
fakes: ${FAKE_BINS}

${FAKE_BINS}:
	@mkdir -p tests/ltpfake/bin
	@[ "${V}" = 1 ] || echo "CC $@"
	${Q}${CC} ${ALL_CFLAGS} -o $@ tests/ltpfake/$(@F).c

# The demo: a tiny LTP install of our own under build/demo-ltp, which
# mk/demo.sh stamps with its Version file last.
demo-build: ${PROG} build/demo-ltp/Version

build/demo-ltp/Version: data/demo/runtest mk/demo.sh
	@sh mk/demo.sh "${CC}" "${ALL_CFLAGS}" ${DEMO_SRCS}

# Two test programs at a time by default: most of check's time is
# tests waiting for events (a screen, a box, a child), not CPU.  The
# code's shape (mk/shape.sh: no source over 900 lines, no two files of
# src/ that call each other, from nm of the objects check-build made)
# is checked first, as a test.
CHECK_JOBS?=	2
check-run:
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1 \
	tests/runtests -j ${CHECK_JOBS} LTPSCOPE_BIN=./${PROG} \
	    'sh mk/shape.sh -t' ${TEST_PROGS} tests/test_runner.fork \
	    LTPSCOPE_BIN=./${PROG}.asan LTPSCOPE_ASAN=1 ${TEST_ASAN}

# check with every core busy: mk/load.sh starts a CPU hog per core (or
# CHECK_LOAD_HOGS of them) for the run of the tests and stops them
# however it ends.  Tests wait for events with deadlines, so they pass
# on a busy machine too; this is where one that does not shows.
CHECK_LOAD_HOGS?=	0
check-load: deps
	@${MAKE} check-build
	@sh mk/load.sh ${CHECK_LOAD_HOGS} ${MAKE} check-run

# Not part of check (.ci/run runs it after): ltpscope against a real
# box, Linux under QEMU (mk/vm.sh builds it in build/vm from Debian's
# packages), through real kernel panics.
check-vm: deps
	@sh mk/deps.sh "${CC}" vm
	@${MAKE} ${PROG} tests/runtests
	@tests/runtests LTPSCOPE_BIN=./${PROG} tests/vm_check.sh \
	    tests/vm_box_check.sh tests/vm_arch_check.sh

# Every source compiled as on NetBSD/amd64, against the header sysroot
# in ../shared (clang): NetBSD's libc, sys/, curses and libedit, not
# Linux's.  Only a syntax and type check: nothing is linked.
NETBSD_SYSROOT?=	../shared/netbsd-sysroot
NETBSD_CC=	${NETBSD_SYSROOT}/cc-netbsd
NETBSD_CFLAGS=	${CSTD} -D_NETBSD_SOURCE ${WARNFLAGS} -Iinclude -Isrc -Itests \
		-DLTPSCOPE_VERSION='"${VERSION}"' -DLTPSCOPE_DATADIR='"${DATADIR}"'
NETBSD_SRCS!=	ls src/*.c tests/*.c tests/ltpfake/*.c bench/*.c fuzz/*.c \
		    data/demo/testcases/*.c 2>/dev/null
# Files that need a header the sysroot does not have (sys/statvfs.h,
# sys/mount.h, sys/shm.h, sys/un.h, netinet/in.h): checked all the
# same, but a missing header there is said, not counted; any other error
# in them counts.
NETBSD_GAPS=	src/compat_mount.c src/compat_ipc.c src/compat_socket.c \
		tests/ltpfake/sysvipc.c tests/test_ipcleft.c

check-netbsd:
	@sh mk/deps.sh "${CC}" clang
	@[ -x ${NETBSD_CC} ] || { echo "check-netbsd: ${NETBSD_CC} not found" >&2; \
	    exit 1; }
	@have=`sh mk/probe.sh ${NETBSD_CC} "${NETBSD_CFLAGS}" "" syntax`; \
	echo "check-netbsd: NetBSD's curses has:$$have"; \
	n=0; bad=0; gap=0; \
	for f in ${NETBSD_SRCS}; do \
	    n=`expr $$n + 1`; \
	    out=`${NETBSD_CC} -fsyntax-only ${NETBSD_CFLAGS} $$have $$f 2>&1` \
		&& continue; \
	    case " ${NETBSD_GAPS} " in *" $$f "*) \
		h=`echo "$$out" | sed -n \
		    "s/.*fatal error: '\\(.*\\)' file not found.*/\\1/p"`; \
		if [ -n "$$h" ] && [ ! -f ${NETBSD_SYSROOT}/usr/include/$$h ]; \
		then \
		    echo "check-netbsd: $$f: not checked: the sysroot has" \
			"no $$h"; \
		    gap=`expr $$gap + 1`; continue; \
		fi;; \
	    esac; \
	    echo "$$out"; bad=`expr $$bad + 1`; \
	done; \
	echo "check-netbsd: $$n files, $$bad with errors or warnings," \
	    "$$gap not checked"; \
	[ $$bad = 0 ]

lint-man:
	mandoc -Tlint -Wwarning man/*.[1-9]

# Opens the TUI on the built-in demo data.
demo: deps
	@${MAKE} ${PROG} demo-build
	./${PROG} --demo

bench: deps
	@${MAKE} ${PROG} fakes demo-build bench-progs
	@sh bench/run.sh ${BENCH_PROGS}

# Not part of check: every parser under libFuzzer (clang), each target
# in fuzz/ for FUZZ_SECONDS, its corpus under build/fuzz/corpus seeded
# from tests/fixtures, data, themes and ../shared.  Crashes, leaks and
# hangs stop it; their inputs belong in tests/fixtures/fuzz/TARGET/,
# which tests/test_fuzz_regress replays in "make check".
fuzz:
	@sh mk/deps.sh "${CC}" fuzz
	@${MAKE} fuzz-build
	@FUZZ_SEED="${FUZZ_SEED}" sh mk/fuzz.sh "${FUZZ_SECONDS}" ${FUZZ_SRCS}

fuzz-build: ${FUZZ_PROGS}

${FUZZ_PROGS}: libltpscope-fuzz.a
	@mkdir -p build/fuzz
	@[ "${V}" = 1 ] || echo "CC $@"
	${Q}${FUZZ_CC} ${FUZZ_CFLAGS} ${FUZZ_SAN} -fsanitize=fuzzer \
	    -o $@ fuzz/$(@F).c libltpscope-fuzz.a ${LIBS}

libltpscope-fuzz.a: ${CORE_FOBJS}
	rm -f $@
	ar rcs $@ ${CORE_FOBJS}

# Not part of check: thousands of runs hunting output lost at a test's end.
stress: deps
	@${MAKE} fakes tests/stress_runner
	tests/stress_runner

# Not part of check: the kill -9 tortures with many more kills.
TORTURE_KILLS?=	200
torture: deps
	@${MAKE} ${PROG} fakes test-progs
	@TORTURE_KILLS=${TORTURE_KILLS} tests/runtests LTPSCOPE_BIN=./${PROG} \
	    tests/test_torture tests/test_tui_torture tests/test_store_crash

# The headless test programs (no tmux) under valgrind: 0 errors, 0 leaks.
# Not test_store_crash: it kills a writer within 1-80 ms, which under
# valgrind has not opened the file yet (test_store covers its code).
# Not test_build: two whole builds of a clone, and no code of ours.
MEMCHECK_PROGS!=	ls tests/test_*.c | sed -e 's/[.]c//' | grep -v \
		    -e test_tui -e test_names -e test_verdict \
		    -e test_store_crash -e test_build
memcheck: deps
	@sh mk/deps.sh "${CC}" valgrind
	@${MAKE} ${PROG} fakes memcheck-progs
	@LTPSCOPE_BIN=./${PROG} sh mk/memcheck.sh ${MEMCHECK_PROGS}

# test_tap drives tests/runtests.
memcheck-progs: ${MEMCHECK_PROGS} tests/runtests

tests/stress_runner: tests/stress_runner.c libltpscope.a
	${CC} ${ALL_CFLAGS} -o $@ tests/stress_runner.c libltpscope.a ${LIBS}

# bench_remote starts the tests' private sshd (tests/sshd.c).
bench-progs: ${BENCH_PROGS}

${BENCH_PROGS}: libltpscope.a tests/tap.o tests/sshd.o tests/fixture_store.o
	@[ "${V}" = 1 ] || echo "CC $@"
	${Q}${CC} ${ALL_CFLAGS} -Itests -o $@ $@.c tests/sshd.o tests/tap.o \
	    tests/fixture_store.o libltpscope.a ${LIBS}

install: ${PROG} demo-build
	mkdir -p ${DESTDIR}${BINDIR} ${DESTDIR}${MANDIR}/man1 \
	    ${DESTDIR}${MANDIR}/man7 \
	    ${DESTDIR}${DATADIR}/themes ${DESTDIR}${DATADIR}/demo \
	    ${DESTDIR}${DATADIR}/syscalls
	cp ${PROG} ${DESTDIR}${BINDIR}/${PROG}
	chmod 755 ${DESTDIR}${BINDIR}/${PROG}
	cp man/ltpscope.1 ${DESTDIR}${MANDIR}/man1/ltpscope.1
	cp man/ltpscope-design.7 ${DESTDIR}${MANDIR}/man7/ltpscope-design.7
	for f in data/*; do [ -f "$$f" ] && cp "$$f" ${DESTDIR}${DATADIR}/; \
	    done; true
	cp data/demo/linux-amd64-syscalls.master ${DESTDIR}${DATADIR}/demo/
	cp data/syscalls/* ${DESTDIR}${DATADIR}/syscalls/
	rm -rf ${DESTDIR}${DATADIR}/demo-ltp
	cp -PR build/demo-ltp ${DESTDIR}${DATADIR}/demo-ltp
	for f in themes/*.theme; do [ -f "$$f" ] && \
	    cp "$$f" ${DESTDIR}${DATADIR}/themes/; done; true

# What install copied, named from the same source files, so that files
# of the user's own in DATADIR (or DATADIR=/usr/share) are left alone;
# only demo-ltp, a tree of ours, goes whole.  Shared directories stay.
uninstall:
	rm -f ${DESTDIR}${BINDIR}/${PROG} ${DESTDIR}${MANDIR}/man1/ltpscope.1 \
	    ${DESTDIR}${MANDIR}/man7/ltpscope-design.7
	for f in data/*; do [ -f "$$f" ] && \
	    rm -f ${DESTDIR}${DATADIR}/$${f#data/}; done; true
	rm -f ${DESTDIR}${DATADIR}/demo/linux-amd64-syscalls.master
	for f in data/syscalls/*; do \
	    rm -f ${DESTDIR}${DATADIR}/syscalls/$${f##*/}; done
	rm -rf ${DESTDIR}${DATADIR}/demo-ltp
	for f in themes/*.theme; do \
	    rm -f ${DESTDIR}${DATADIR}/themes/$${f##*/}; done
	for d in demo syscalls themes; do \
	    rmdir ${DESTDIR}${DATADIR}/$$d 2>/dev/null; done; \
	    rmdir ${DESTDIR}${DATADIR} 2>/dev/null; true

clean:
	rm -f ${PROG} ${PROG}.asan libltpscope.a libltpscope-asan.a \
	    libltpscope-fuzz.a src/*.o src/*.ao src/*.fo tests/*.o \
	    tests/*.ao tests/runtests
	rm -f ${TEST_PROGS} ${TEST_ASAN} ${BENCH_PROGS} tests/stress_runner \
	    tests/test_runner.fork
	rm -rf tests/ltpfake/bin build

.PHONY: all deps check check-load check-netbsd check-vm check-build \
	check-run test-progs fakes demo \
	demo-build bench bench-progs stress torture memcheck memcheck-progs \
	fuzz fuzz-build install uninstall clean lint-man
