# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# taint_log.report=0: reports carry no Taint lines; the log still has all.
# suite: scenario-report-off 6 0 scenario default,debug - bug=1,oops=1,warn=1,trace=2,debug:bug=2,debug:trace=3

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	# Booted with taint_log.report=0.
	taint_with_reason
	echo "report param=$(cat /sys/module/taint_log/parameters/report 2>&1)" >&3
	sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
	# Turned on again at run time: the next report has the lines.
	echo 1 > /sys/module/taint_log/parameters/report
	echo "report param now=$(cat /sys/module/taint_log/parameters/report 2>&1)" >&3
	echo WARNING > $crash
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-report-off.console r=$LOGS/scenario-report-off.results
	local sec=$LOGS/scenario-report-off.report
	scenario_run report-off "taint_log.report=0" || return
	section "$c" 'Oops:' 'end trace' > "$sec"
	check "sanity: an Oops report with U in Tainted:" \
		"$(grep -o 'Tainted:.*' "$sec")" grep -qE 'Tainted: [A-Z ]*U' "$sec"
	check "the parameter reads N" "$(grep '^report param' "$r")" \
		grep -qx 'report param=N' "$r"
	check "sanity: no Taint lines in the oops report" "$(grep '^Taint [A-Z]:' "$sec")" \
		none grep '^Taint [A-Z]:' "$sec"
	check "the log still names the writer" "$(grep '^taint_log:' "$r")" \
		grep -q "^taint_log: .* origin=user flags=U .* pid=$(writer_pid "$r") " "$r"
	# Written at run time, the parameter takes effect: the WARN after it
	# has its Taint U: line.
	check "the parameter written 1 at run time reads Y" \
		"$(grep '^report param now' "$r")" grep -qx 'report param now=Y' "$r"
	section "$c" 'cut here' 'end trace' > "$sec.warn"
	check "after it, the WARN report has its Taint U: line" \
		"$(grep '^Taint' "$sec.warn")" taint_u_line "$sec.warn" "$r"
}
