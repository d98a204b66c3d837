# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by /init for ut.mode=test: every in-guest test program, each as a
# TAP block on ttyS1 (UT_RES) between ##UT-BEGIN/##UT-END markers for the host.
exec 3>"$UT_RES"

suite() {
	name=$1
	shift
	echo "##UT-BEGIN $name" >&3
	"$@" >&3 2>&1
	echo "##UT-END $name rc=$?" >&3
}

# A suite whose program is missing is one failed test, not silently gone
# (the host also checks every suite of scripts/test/suites reported).
missing() { (. /guest/tap.sh; not_ok "$1 is not in the initramfs"; tap_done); }
need() {	# need FILE COMMAND...: COMMAND, or a failure naming FILE
	if [ -x "$1" ]; then shift; "$@"; else missing "$1"; fi
}

# Before any test: the flags the kernel came up with (T with RANDSTRUCT, the
# check-matrix entry randstruct) each have their event.
[ "$(cat /proc/sys/kernel/tainted)" = 0 ] || suite boot-taint sh /guest/boot-taint-check.sh
# The first run of the kselftest (taint_test) comes in two parts. Its
# fixture "tainted" first, before anything sets U: tainted.user_flag_is_bit_6
# must see U clear (on a boot where U is set it can only SKIP). Then
# taintctl and sysctl, which need the taint log's free user slots, then the
# rest of the first run, which uses them up. One suite in two blocks: the
# host adds them up (scripts/test/count.sh guest_suites).
suite kselftest-taint_test need /usr/bin/taint_test /usr/bin/taint_test -f tainted
# taintctl is not cross-built (it would need json-c for that architecture):
# in scripts/test/arch-test.sh's i386 and arm64 guests its suite is skipped.
if [ "$(uname -m)" = x86_64 ]; then
	suite taintctl-guest need /usr/bin/taintctl sh /guest/taintctl-check.sh
else
	suite taintctl-guest echo "1..0 # SKIP taintctl is not built for $(uname -m)"
fi
suite sysctl-cli need /bin/sysctl sh /guest/sysctl-check.sh
suite kselftest-taint_test need /usr/bin/taint_test /usr/bin/taint_test -F tainted
# The kselftest again on the same boot: a second run must pass as well
# (or SKIP what only a fresh boot can show).
suite kselftest-taint_test-again need /usr/bin/taint_test /usr/bin/taint_test
exec 3>&-
