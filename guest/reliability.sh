# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by /init for ut.mode=reliability: the reliability tests named in
# ut.rel= (comma-separated: forgery+perm, stress, fuzz), TAP on ttyS1.
# ut.seed= is the fuzzer's seed, ut.count= its number of operations
# (default 100000): the same seed and count replay the same operations.
exec 3>/dev/ttyS1
irq=/sys/kernel/debug/test_taint_irq

# stress, while the kernel sets flags from hard-IRQ and NMI context
# (CONFIG_TEST_TAINT_IRQ) for the whole run.
stress_with_irqs() {
	before=$(cat $irq/calls)
	echo 60000 > $irq/run
	sh /guest/reliability/run.sh stress > /tmp/stress.tap 2>&1
	rc=$?
	after=$(cat $irq/calls)
	left=$(cat $irq/run)
	# Append two results to the stress TAP: its plan grows by two.
	awk '/^1\.\.[0-9]+$/ { sub(/^1\.\./, ""); print "1.." $0 + 2; next } { print }' /tmp/stress.tap
	p=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' /tmp/stress.tap)
	b=${before#irq=}; b=${b%% *}; a=${after#irq=}; a=${a%% *}
	bn=${before##*nmi=}; an=${after##*nmi=}
	if [ $((a - b)) -gt 0 ] && [ "$left" -gt 0 ]; then
		echo "ok $((p + 1)) - kernel set flags from hard-IRQ context during the run ($((a - b)) add_taint calls)"
	else
		echo "not ok $((p + 1)) - kernel set flags from hard-IRQ context during the run ($before -> $after, $left ms left)"
		rc=1
	fi
	if [ $((an - bn)) -gt 0 ]; then
		echo "ok $((p + 2)) - kernel set flags from NMI context during the run ($((an - bn)) add_taint calls)"
	else
		echo "not ok $((p + 2)) - kernel set flags from NMI context during the run ($before -> $after)"
		rc=1
	fi
	return $rc
}

for t in $(arg rel | tr ',' ' '); do
	echo "##UT-BEGIN reliability-$t" >&3
	case $t in
	fuzz) sh /guest/reliability/run.sh fuzz "$(arg seed)" "$(arg count)" >&3 2>&1 ;;
	stress) stress_with_irqs >&3 2>&1 ;;
	*) sh /guest/reliability/run.sh "$t" >&3 2>&1 ;;
	esac
	echo "##UT-END reliability-$t rc=$?" >&3
done
exec 3>&-
