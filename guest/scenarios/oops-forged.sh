# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A writer with comm "s\nTaint W: fake": the report escapes it, nothing in
# the console starts with the forged text, and no report line shows a raw
# kernel address.
# suite: scenario-oops-forged 4 0 scenario default,debug usr/bin/taint_mark_as bug=1,oops=1,trace=1,debug:bug=2,debug:trace=2

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	# A writer whose comm and reason try to forge report lines.
	echo "reason=$reason" >&3
	taint_mark_as 's\nTaint W: fake' "$reason" >&3
	sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-oops-forged.console r=$LOGS/scenario-oops-forged.results
	local sec=$LOGS/scenario-oops-forged.report pid reason
	scenario_run oops-forged || return
	section "$c" 'Oops:' 'end trace' > "$sec"
	pid=$(writer_pid "$r")
	reason=$(escaped_reason "$r")
	check "an Oops report with a Taint U: line" "$(grep '^Taint' "$sec")" \
		grep -q '^Taint U: ts=' "$sec"
	check "comm and reason escaped on one line" "$(grep '^Taint U' "$sec")" \
		forged_writer_line "$pid" "$reason" "$sec"
	check "sanity: no forged line anywhere on the console" \
		"$(lines_starting "$c" 'Taint W: fake')" \
		none lines_starting "$c" 'Taint W: fake'
	check "sanity: no raw kernel address in Taint lines" \
		"$(raw_address_lines "$sec")" \
		none raw_address_lines "$sec"
}

# forged_writer_line PID REASON FILE: the writer's line, comm and reason escaped.
forged_writer_line() {
	[ "$(grep -F " pid=$1 uid=0 auid=" "$3" | grep -cF " comm=\"s\\x0aTaint W: fake\" reason=\"$2\"")" -gt 0 ]
}
