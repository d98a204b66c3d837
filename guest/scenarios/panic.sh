# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A panic (LKDTM): its report names the writer and reason of U.
# suite: scenario-panic 2 0 scenario default,debug - panic=1,trace=1

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	taint_with_reason
	echo PANIC > $crash
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-panic.console r=$LOGS/scenario-panic.results sec=$LOGS/scenario-panic.report
	scenario_run panic || return
	section "$c" 'Kernel panic - not syncing' "$PANIC_END" > "$sec"
	check "sanity: a panic report" "no panic in $c" grep -q 'Kernel panic - not syncing: dumptest' "$sec"
	check "Taint U: line names writer and reason" "$(grep '^Taint' "$sec")" \
		taint_u_line "$sec" "$r"
}
