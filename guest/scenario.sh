# SPDX-License-Identifier: GPL-2.0
# Sourced by /init for ut.mode=scenario: provoke one report (ut.scenario=
# warn, oops, oops-forged, oops-panic, report-off, module, panic,
# oops-then-panic, panic-on-taint, nousertaint, dump) after user space
# tainted the kernel with a reason. The host reads the console and the results (ttyS1) and
# checks them.
exec 3>"$UT_RES"
scenario=$(arg scenario)
reason="scenario $scenario: RTSJ \"raw\" memory \\ access"
crash=/sys/kernel/debug/provoke-crash/DIRECT

# The writer is its own process (comm "sh"): the host checks its pid.
taint_with_reason() {
	echo "reason=$reason" >&3
	sh -c '
		echo "writer pid=$$" >&3
		if [ -e /proc/sys/kernel/taint_reason ]; then
			printf "%s\n" "$1" > /proc/sys/kernel/taint_reason
		else
			echo 64 > /proc/sys/kernel/tainted
		fi' sh "$reason"
	echo "mask=$(cat /proc/sys/kernel/tainted)" >&3
}

case "$scenario" in
warn)
	taint_with_reason
	# Another flag set too (O): a WARN report still explains only U.
	echo 4096 > /proc/sys/kernel/tainted
	echo "before warn: mask=$(cat /proc/sys/kernel/tainted)" >&3
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)" >&3
	grep ' origin=user ' /proc/sys/kernel/taint_log | sed 's/^/taint_log: /' >&3
	echo WARNING > $crash
	;;
oops)
	taint_with_reason
	# In a child: the oops kills the process that provoked it.
	sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
	;;
oops-forged)
	# A writer whose comm and reason try to forge report lines.
	echo "reason=$reason" >&3
	taint_mark_as 's\nTaint W: fake' "$reason" >&3
	sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
	;;
oops-panic|report-off)
	# Booted with oops=panic, or with taint_log.report=0.
	taint_with_reason
	echo "report param=$(cat /sys/module/taint_log/parameters/report 2>&1)" >&3
	sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
	if [ "$scenario" = report-off ]; then
		# Turned on again at run time: the next report has the lines.
		echo 1 > /sys/module/taint_log/parameters/report
		echo "report param now=$(cat /sys/module/taint_log/parameters/report 2>&1)" >&3
		echo WARNING > $crash
	fi
	;;
module)
	# The harness's test module (guest/module), built for this kernel:
	# loaded (O), WARNs (W, caller in the module), unloaded; then another
	# module is loaded in the memory it left. The log must go on naming
	# ut_taint, and never ut_other's code or a raw address.
	mods=/lib/modules/$(arg variant)
	taint_with_reason
	insmod "$mods/ut_taint.ko" && echo "loaded ut_taint" >&3
	echo "ut_taint text=$(cat /sys/module/ut_taint/sections/.text)" >&3
	echo 1 > /sys/kernel/debug/ut_taint/warn
	sed 's/^/loaded: /' /proc/sys/kernel/taint_log >&3
	kernel-chktaint | grep '^Modules with taint' | sed 's/^/chktaint: /' >&3
	rmmod ut_taint && echo "unloaded ut_taint" >&3
	sed 's/^/unloaded: /' /proc/sys/kernel/taint_log >&3
	insmod "$mods/ut_other.ko" && echo "loaded ut_other" >&3
	echo "ut_other text=$(cat /sys/module/ut_other/sections/.text)" >&3
	sed 's/^/other: /' /proc/sys/kernel/taint_log >&3
	# ut_taint rebuilt with other code, loaded where the first one was:
	# the W that the first one's code set must not name the new code.
	rmmod ut_other && insmod "$mods/rebuilt/ut_taint.ko" && echo "loaded rebuilt ut_taint" >&3
	echo "rebuilt text=$(cat /sys/module/ut_taint/sections/.text)" >&3
	sed 's/^/rebuilt: /' /proc/sys/kernel/taint_log >&3
	rmmod ut_taint
	# A module named ndiswrapper: loading it sets P, which names it.
	insmod "$mods/ndiswrapper.ko" && echo "loaded ndiswrapper" >&3
	grep ' flags=P ' /proc/sys/kernel/taint_log | sed 's/^/ndiswrapper: /' >&3
	sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
	;;
panic)
	taint_with_reason
	echo PANIC > $crash
	;;
oops-then-panic)
	# An oops that only kills its process, then a panic: the panic report
	# explains the flags again (D included), though D is set. The panic
	# comes from a new process on the same CPU, after an RCU grace period,
	# so that it likely gets the dead one's task_struct: the report must
	# not take it for the oops's task.
	# This shell, and so every process it starts, on CPU 0: a task_struct
	# freed there goes back to CPU 0's free list, where the next fork
	# takes it from.
	taskset -p 1 $$ > /dev/null
	taint_with_reason
	taskset 1 sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
	# The panic resets the guest at once (panic=-1): give ttyS1 the time
	# to send that line first, or the host may never see it; that second
	# is also an RCU grace period for the dead task's task_struct.
	sleep 1
	taskset 1 sh -c "echo PANIC > $crash"
	;;
panic-on-taint)
	# Booted with panic_on_taint=0x40: this write itself panics.
	taint_with_reason
	;;
nousertaint)
	# Booted with panic_on_taint=0x40,nousertaint: user space may not set
	# U, by either file; nothing is set or recorded, nothing panics.
	echo "mask before=$(cat /proc/sys/kernel/tainted)" >&3
	echo "log lines before=$(wc -l < /proc/sys/kernel/taint_log)" >&3
	sh -c 'echo 64 > /proc/sys/kernel/tainted' 2>/dev/null; echo "tainted write rc=$?" >&3
	sh -c 'echo nope > /proc/sys/kernel/taint_reason' 2>/dev/null; echo "taint_reason write rc=$?" >&3
	echo "mask after=$(cat /proc/sys/kernel/tainted)" >&3
	echo "log lines after=$(wc -l < /proc/sys/kernel/taint_log)" >&3
	echo "reason after=$(cat /proc/sys/kernel/taint_reason)" >&3
	;;
dump)
	# Post-mortem: booted with panic=0, and dumped by the host after the
	# panic (boot.sh -d). Two reasons (one with quotes and a backslash),
	# N set by a tainted write, O from loading the test module, W
	# from a WARN in core kernel code (LKDTM is built in: its caller is
	# named from the dump's kallsyms), C from an NMI in the module (no
	# caller in the dump: module code); then the log as taintctl prints
	# it live, text and JSON, for the host to compare with the dump.
	mods=/lib/modules/$(arg variant)
	taint_with_reason
	printf '%s\n' 'dump: second "reason" \ with quotes' > /proc/sys/kernel/taint_reason
	echo 262144 > /proc/sys/kernel/tainted
	insmod "$mods/ut_taint.ko" && echo "loaded ut_taint" >&3
	echo WARNING > $crash
	echo "nmi 10" > /sys/kernel/debug/ut_taint/set && echo "set C from NMI" >&3
	for f in text json; do
		echo "##LIVE-$f-BEGIN" >&3
		if [ $f = json ]; then taintctl log --json >&3; else taintctl log >&3; fi
		echo "##LIVE-$f-END rc=$?" >&3
	done
	echo PANIC > $crash
	;;
*)
	echo "unknown scenario '$scenario'" >&3
	;;
esac
[ -r /proc/sys/kernel/taint_log ] && sed 's/^/taint_log: /' /proc/sys/kernel/taint_log >&3
exec 3>&-
