# SPDX-License-Identifier: GPL-2.0
# Sourced by /init for ut.mode=scenario: one scenario boot, ut.scenario=NAME,
# whose guest part is scenario_guest of guest/scenarios/NAME.sh (each
# provokes a report, most after user space tainted the kernel with a
# reason). Its results go to ttyS1 (fd 3); the host reads them and the
# console (scenario_check, same file). What every scenario shares is here.
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

# The scenario's guest part: scenario_guest in guest/scenarios/NAME.sh.
if [ -f "/guest/scenarios/$scenario.sh" ]; then
	. "/guest/scenarios/$scenario.sh"
	scenario_guest
else
	echo "unknown scenario '$scenario'" >&3
fi
[ -r /proc/sys/kernel/taint_log ] && sed 's/^/taint_log: /' /proc/sys/kernel/taint_log >&3
exec 3>&-
