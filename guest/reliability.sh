# SPDX-License-Identifier: GPL-2.0
# Sourced by /init for ut.mode=reliability: the reliability tests named in
# ut.rel= (comma-separated: forgery+perm, stress, fuzz), TAP on ttyS1.
# ut.seed= is the fuzzer's seed.
exec 3>/dev/ttyS1
for t in $(arg rel | tr ',' ' '); do
	echo "##UT-BEGIN reliability-$t" >&3
	case $t in
	fuzz) sh /guest/reliability/run.sh fuzz "$(arg seed)" >&3 2>&1 ;;
	*) sh /guest/reliability/run.sh "$t" >&3 2>&1 ;;
	esac
	echo "##UT-END reliability-$t rc=$?" >&3
done
exec 3>&-
