# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# Sourced by /init for ut.mode=reliability: the reliability tests named in
# ut.rel= (comma-separated: forgery+perm, stress, fuzz, nmi, notify, blame),
# TAP on ttyS1.
# ut.seed= is the fuzzer's seed, ut.count= its number of operations
# (default 100000): the same seed and count replay the same operations.
exec 3>"$UT_RES"
irq=/sys/kernel/debug/ut_taint

# The harness's test module (guest/module), built for this kernel: it sets
# flags from hard-IRQ and NMI context, and records into a log of its own
# from process, hard-IRQ and NMI context at once.
load_ut_taint() {
	[ -d $irq ] || insmod "/lib/modules/$(arg variant)/ut_taint.ko"
}

# stress, while the kernel sets flags from hard-IRQ and NMI context for the
# whole run. ut_taint sends its NMIs through the local APIC and is built for
# x86_64 only: on the i386 and arm64 guests of scripts/arch-test.sh the
# stress test runs alone and the two results of the module are skips.
stress_with_irqs() {
	if [ "$(uname -m)" != x86_64 ]; then
		sh /guest/reliability/run.sh stress > /tmp/stress.tap 2>&1
		rc=$?
		awk '/^1\.\.[0-9]+$/ { sub(/^1\.\./, ""); print "1.." $0 + 2; next } { print }' /tmp/stress.tap
		p=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' /tmp/stress.tap)
		for ctx in hard-IRQ NMI; do
			p=$((p + 1))
			echo "ok $p - kernel set flags from $ctx context during the run # SKIP no ut_taint module on $(uname -m)"
		done
		return $rc
	fi
	load_ut_taint || { echo "1..1"; echo "not ok 1 - insmod ut_taint"; return 1; }
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

# nmi: N rounds, each on a fresh log of the module's own, of recording from
# process context on one CPU, an hrtimer (hard IRQ) on another and NMIs on
# both at once; every record must be whole, every call kept or counted,
# and records must really have begun while another was in flight, in each
# context (ut.count= rounds, default 2000).
nmi_record() {
	echo "1..6"
	if ! load_ut_taint; then
		echo "not ok 1 - insmod ut_taint"
		return 1
	fi
	echo "ok 1 - ut_taint loaded"
	rounds=$(arg count)
	echo "${rounds:-2000}" > $irq/record
	r=$(cat $irq/record)
	echo "# $r"
	rc=0
	val() { echo " $r" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
	pair() { echo " $r" | sed -n "s/.* $1=\([0-9]*\)\/\([0-9]*\).*/\\$2/p"; }
	n=2
	for ctx in task irq nmi; do
		calls=$(pair $ctx 1) overlaps=$(pair $ctx 2)
		if [ "${calls:-0}" -gt 0 ] && [ "${overlaps:-0}" -gt 0 ]; then
			echo "ok $n - $ctx context recorded $calls times, $overlaps while another record was in flight"
		else
			echo "not ok $n - $ctx context recorded ${calls:-?} times, ${overlaps:-?} while another was in flight"
			rc=1
		fi
		n=$((n + 1))
	done
	if [ "$(val bad)" = 0 ] && [ "$(val lost)" = 0 ] && [ "$(val kept)" -gt 0 ]; then
		echo "ok 5 - every kept record whole, every call kept or counted ($(val kept) kept, $(val dropped) dropped)"
	else
		echo "not ok 5 - records not whole or lost: bad=$(val bad) lost=$(val lost) kept=$(val kept)"
		rc=1
	fi
	if [ "$(val rounds)" = "${rounds:-2000}" ]; then
		echo "ok 6 - all $(val rounds) rounds ran"
	else
		echo "not ok 6 - $(val rounds) of ${rounds:-2000} rounds ran"
		rc=1
	fi
	return $rc
}

# notify: poll() on tainted and taint_log woken by a reason write and by
# flags the kernel sets from process, hard-IRQ and NMI context through
# ut_taint, and taintctl watch's latency (guest/reliability/taint_notify.c).
notify() {
	if ! load_ut_taint; then
		echo "1..1"
		echo "not ok 1 - insmod ut_taint"
		return 1
	fi
	/usr/bin/taint_notify -t /usr/bin/taintctl
}

# blame: what a test runner does with taintctl cursor and check --since.
# Two "tests" run one after the other; only the second WARNs (through
# ut_taint), and only the second is blamed, by name of flag, module and
# caller.
blame() {
	echo "1..6"
	if ! load_ut_taint; then
		echo "not ok 1 - insmod ut_taint"
		return 1
	fi
	echo "ok 1 - ut_taint loaded (taints O before the first test)"
	rc=0
	t() {	# t N OK DESCRIPTION
		if [ "$2" = 0 ]; then echo "ok $1 - $3"; else echo "not ok $1 - $3"; rc=1; fi
	}
	c1=$(taintctl cursor) || c1=
	ls /proc/sys/kernel > /dev/null		# test 1: taints nothing
	out1=$(taintctl check --since "$c1" --deny W,O 2>&1); e1=$?
	echo "$out1" | sed 's/^/# test 1: /'
	t 2 $((e1 != 0)) "test 1 is not blamed: check --since its cursor exits $e1 (O was set before it)"
	c2=$(taintctl cursor) || c2=
	echo 1 > $irq/warn			# test 2: WARNs
	out2=$(taintctl check --since "$c2" --deny W,O 2>&1); e2=$?
	echo "$out2" | sed 's/^/# test 2: /'
	t 3 $((e2 != 1)) "test 2 is blamed: check --since its cursor exits $e2"
	echo "$out2" | grep -q 'W' && echo "$out2" | grep -q 'module=ut_taint' &&
		echo "$out2" | grep -q 'caller=ut_warn_here'
	t 4 $? "test 2's verdict names W, module=ut_taint and caller=ut_warn_here"
	! echo "$out2" | grep -q 'new=O'
	t 5 $? "test 2's verdict does not name the event that set O, before its cursor"
	j=$(taintctl check --since "$c2" --deny W,O --json 2>/dev/null)
	echo "# json: $j"
	echo "$j" | grep -q '"set_since":\[[^]]*"W"' && ! echo "$j" | grep -q '"set_since":\[[^]]*"O"'
	t 6 $? "check --since --json: set_since holds W and not O"
	return $rc
}

for t in $(arg rel | tr ',' ' '); do
	echo "##UT-BEGIN reliability-$t" >&3
	case $t in
	fuzz) sh /guest/reliability/run.sh fuzz "$(arg seed)" "$(arg count)" >&3 2>&1 ;;
	stress) stress_with_irqs >&3 2>&1 ;;
	nmi) nmi_record >&3 2>&1 ;;
	notify) notify >&3 2>&1 ;;
	blame) blame >&3 2>&1 ;;
	*) sh /guest/reliability/run.sh "$t" >&3 2>&1 ;;
	esac
	echo "##UT-END reliability-$t rc=$?" >&3
done
exec 3>&-
