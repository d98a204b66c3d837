# SPDX-License-Identifier: GPL-2.0
# Sourced by /init for ut.mode=scenario: provoke one report (ut.scenario=
# warn, oops, oops-forged, panic, panic-on-taint) after user space tainted the kernel
# with a reason. The host reads the console and checks the report.
exec 3>/dev/ttyS1
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
panic)
	taint_with_reason
	echo PANIC > $crash
	;;
panic-on-taint)
	# Booted with panic_on_taint=0x40: this write itself panics.
	taint_with_reason
	;;
*)
	echo "unknown scenario '$scenario'" >&3
	;;
esac
[ -r /proc/sys/kernel/taint_log ] && sed 's/^/taint_log: /' /proc/sys/kernel/taint_log >&3
exec 3>&-
