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
# whole run: the program's results, then a second block of the same suite
# with the module's two (the host adds them up). ut_taint sends its NMIs
# through the local APIC and is built for x86_64 only: on the i386 and
# arm64 guests of scripts/test/arch-test.sh the stress test runs alone and the
# module's two results are skips.
stress_with_irqs() {
	if [ "$(uname -m)" != x86_64 ]; then
		block reliability-stress rel_run stress
		block reliability-stress irq_skips
		return
	fi
	if ! load_ut_taint; then
		block reliability-stress not_loaded
		return
	fi
	# Long enough for a slow guest (a sanitizer kernel on a busy host):
	# stopped once the stress test is done.
	before=$(cat $irq/calls)
	echo 1800000 > $irq/run
	block reliability-stress rel_run stress
	after=$(cat $irq/calls)
	left=$(cat $irq/run)
	echo 0 > $irq/run
	block reliability-stress irq_checks
}
irq_skips() {
	for ctx in hard-IRQ NMI; do
		skip "kernel set flags from $ctx context during the run" "no ut_taint module on $(uname -m)"
	done
	tap_done
}
not_loaded() {
	not_ok "insmod ut_taint"
	tap_done
}
irq_checks() {	# the calls counted before and after the run, ms left
	b=${before#irq=}; b=${b%% *}; a=${after#irq=}; a=${a%% *}
	bn=${before##*nmi=}; an=${after##*nmi=}
	if [ $((a - b)) -gt 0 ] && [ "$left" -gt 0 ]; then
		ok "kernel set flags from hard-IRQ context during the run ($((a - b)) add_taint calls)"
	else
		not_ok "kernel set flags from hard-IRQ context during the run ($before -> $after, $left ms left)"
	fi
	if [ $((an - bn)) -gt 0 ]; then
		ok "kernel set flags from NMI context during the run ($((an - bn)) add_taint calls)"
	else
		not_ok "kernel set flags from NMI context during the run ($before -> $after)"
	fi
	tap_done
}

# nmi: N rounds, each on a fresh log of the module's own, of recording from
# process context on one CPU, an hrtimer (hard IRQ) on another and NMIs on
# both at once; every record must be whole, every call kept or counted,
# and records must really have begun while another was in flight, in each
# context (ut.count= rounds, default 2000). On a busy host the vCPUs may
# take turns rather than run at once: the N rounds run again, up to 5
# times in all, until each context has been seen in flight with another.
nmi_record() {
	if ! load_ut_taint; then
		not_ok "insmod ut_taint"
		tap_done
	fi
	ok "ut_taint loaded"
	rounds=$(arg count)
	rounds=${rounds:-2000}
	val() { echo " $r" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
	pair() { echo " $r" | sed -n "s/.* $1=\([0-9]*\)\/\([0-9]*\).*/\\$2/p"; }
	runs=0 short=0 bad=0 lost=0 kept=0 dropped=0
	calls_task=0 calls_irq=0 calls_nmi=0 over_task=0 over_irq=0 over_nmi=0
	while [ $runs -lt 5 ]; do
		echo "$rounds" > $irq/record
		r=$(cat $irq/record)
		diag "$r"
		runs=$((runs + 1))
		[ "$(val rounds)" = "$rounds" ] || short=$((short + 1))
		bad=$((bad + $(val bad))) lost=$((lost + $(val lost)))
		kept=$((kept + $(val kept))) dropped=$((dropped + $(val dropped)))
		for ctx in task irq nmi; do
			eval "calls_$ctx=\$((calls_$ctx + $(pair $ctx 1)))"
			eval "over_$ctx=\$((over_$ctx + $(pair $ctx 2)))"
		done
		[ $over_task -gt 0 ] && [ $over_irq -gt 0 ] && [ $over_nmi -gt 0 ] && break
	done
	for ctx in task irq nmi; do
		eval "calls=\$calls_$ctx overlaps=\$over_$ctx"
		if [ "$calls" -gt 0 ] && [ "$overlaps" -gt 0 ]; then
			ok "$ctx context recorded $calls times, $overlaps while another record was in flight ($runs runs)"
		else
			not_ok "$ctx context recorded $calls times, $overlaps while another was in flight ($runs runs)"
		fi
	done
	if [ $bad = 0 ] && [ $lost = 0 ] && [ $kept -gt 0 ]; then
		ok "every kept record whole, every call kept or counted ($kept kept, $dropped dropped)"
	else
		not_ok "records not whole or lost: bad=$bad lost=$lost kept=$kept"
	fi
	if [ $short = 0 ]; then
		ok "all $rounds rounds ran, in each of $runs runs"
	else
		not_ok "$short of $runs runs ended before their $rounds rounds"
	fi
	tap_done
}

# notify: poll() on tainted and taint_log woken by a reason write and by
# flags the kernel sets from process, hard-IRQ and NMI context through
# ut_taint, and taintctl watch's latency (guest/reliability/taint_notify.c).
notify() {
	if ! load_ut_taint; then
		not_ok "insmod ut_taint"
		tap_done
	fi
	exec /usr/bin/taint_notify -t /usr/bin/taintctl
}

# blame: what a test runner does with taintctl cursor and check --since.
# Two "tests" run one after the other; only the second WARNs (through
# ut_taint), and only the second is blamed, by name of flag, module and
# caller.
blame() {
	if ! load_ut_taint; then
		not_ok "insmod ut_taint"
		tap_done
	fi
	ok "ut_taint loaded (taints O before the first test)"
	c1=$(taintctl cursor) || c1=
	ls /proc/sys/kernel > /dev/null		# test 1: taints nothing
	out1=$(taintctl check --since "$c1" --deny W,O 2>&1); e1=$?
	echo "$out1" | sed 's/^/# test 1: /'
	t "test 1 is not blamed: check --since its cursor exits $e1 (O was set before it)" test "$e1" = 0
	c2=$(taintctl cursor) || c2=
	echo 1 > $irq/warn			# test 2: WARNs
	out2=$(taintctl check --since "$c2" --deny W,O 2>&1); e2=$?
	echo "$out2" | sed 's/^/# test 2: /'
	t "test 2 is blamed: check --since its cursor exits $e2" test "$e2" = 1
	t "test 2's verdict names W, module=ut_taint and caller=ut_warn_here" \
		eval 'has "$out2" W && has "$out2" module=ut_taint && has "$out2" caller=ut_warn_here'
	t "test 2's verdict does not name the event that set O, before its cursor" \
		eval '! has "$out2" new=O'
	j=$(taintctl check --since "$c2" --deny W,O --json 2>/dev/null)
	diag "json: $j"
	t "check --since --json: set_since holds W and not O" \
		eval 'has "$j" "\"set_since\":\\[[^]]*\"W\"" && ! has "$j" "\"set_since\":\\[[^]]*\"O\""'
	tap_done
}

# block SUITE COMMAND...: COMMAND's TAP as one block of SUITE on ttyS1, in a
# subshell with the TAP library (tap_done exits it, not /init).
# rel_run TEST [ARGS]: one of the reliability programs (guest/reliability/,
# in /usr/bin), TAP on stdout; its exit status is the test's (0 = all ok).
#   stress [WRITERS [REQUESTS]]   taint_stress (fresh boot, 4 vCPUs)
#   fuzz [SEED [COUNT]]           taint_fuzz (fresh boot; the same seed and
#                                 count replay the same operations)
#   forgery                       taint_forgery (fresh boot, first)
#   perm                          taint_perm (after forgery is fine)
#   forgery+perm                  both, as one TAP stream each
rel_run() {
	t=$1
	[ $# -gt 0 ] && shift
	case "$t" in
	stress)
		/usr/bin/taint_stress ${1:+-w "$1"} ${2:+-n "$2"} ;;
	fuzz)
		/usr/bin/taint_fuzz "${1:-$(( $(date +%s) % 1000000 ))}" ${2:+"$2"} ;;
	forgery)
		/usr/bin/taint_forgery ;;
	perm)
		/usr/bin/taint_perm -H /usr/bin/taint_suid_helper ;;
	forgery+perm)
		rc=0
		/usr/bin/taint_forgery || rc=1
		/usr/bin/taint_perm -H /usr/bin/taint_suid_helper || rc=1
		return $rc ;;
	*)
		echo "1..0 # SKIP unknown reliability test '$t'"
		return 2 ;;
	esac
}

block() {
	name=$1
	shift
	echo "##UT-BEGIN $name" >&3
	(. /guest/tap.sh; "$@") >&3 2>&1
	echo "##UT-END $name rc=$?" >&3
}

for t in $(arg rel | tr ',' ' '); do
	case $t in
	fuzz) block reliability-fuzz rel_run fuzz "$(arg seed)" "$(arg count)" ;;
	stress) stress_with_irqs ;;
	nmi) block reliability-nmi nmi_record ;;
	notify) block reliability-notify notify ;;
	blame) block reliability-blame blame ;;
	*) block "reliability-$t" rel_run "$t" ;;
	esac
done
exec 3>&-
