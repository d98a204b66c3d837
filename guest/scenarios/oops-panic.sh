# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# oops=panic: the oops report prints the Taint lines, and the panic that
# follows does not print them again.
# suite: scenario-oops-panic 3 0 scenario default,debug - bug=1,oops=1,trace=1,debug:bug=2,debug:trace=2,panic=1

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	# Booted with oops=panic: the oops panics.
	taint_with_reason
	echo "report param=$(cat /sys/module/taint_log/parameters/report 2>&1)" >&3
	sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-oops-panic.console r=$LOGS/scenario-oops-panic.results
	local sec=$LOGS/scenario-oops-panic.report nu dup
	scenario_run oops-panic "oops=panic" || return
	section "$c" 'Oops:' "$PANIC_END" > "$sec"
	check "sanity: the oops turned into a panic" "no 'Fatal exception' panic in $c" \
		grep -q 'Kernel panic - not syncing: Fatal exception' "$sec"
	check "Taint U: line names writer and reason" "$(grep '^Taint' "$sec")" \
		taint_u_line "$sec" "$r"
	nu=$(plain "$c" | grep -c '^Taint U: ')
	dup=$(plain "$c" | grep -o '^Taint [A-Z]:' | sort | uniq -d | tr '\n' ' ')
	check "each Taint line printed once ($nu Taint U: lines)" \
		"printed more than once: ${dup:-none}, Taint U: $nu times" \
		test "$nu" = 1 -a -z "$dup"
}
