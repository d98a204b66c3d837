# SPDX-License-Identifier: GPL-2.0
# Sourced by /init for ut.mode=test: every in-guest test program, each as a
# TAP block on ttyS1 between ##UT-BEGIN/##UT-END markers for the host.
exec 3>/dev/ttyS1

suite() {
	name=$1
	shift
	echo "##UT-BEGIN $name" >&3
	"$@" >&3 2>&1
	echo "##UT-END $name rc=$?" >&3
}

# taintctl first: the kselftests use up the taint log's user slots.
[ -x /usr/bin/taintctl ] && suite taintctl-guest sh /guest/taintctl-check.sh
suite sysctl-cli sh /guest/sysctl-check.sh
for t in /usr/bin/*_test; do
	[ -x "$t" ] && suite "kselftest-${t##*/}" "$t"
done
exec 3>&-
