# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# panic_on_taint=0x40: the write that sets U panics, and the panic report
# already names that writer and reason.
# suite: scenario-panic-on-taint 2 0 scenario default,debug - panic=1,trace=1

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	# Booted with panic_on_taint=0x40: this write itself panics.
	taint_with_reason
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-panic-on-taint.console r=$LOGS/scenario-panic-on-taint.results
	local sec=$LOGS/scenario-panic-on-taint.report
	scenario_run panic-on-taint "panic_on_taint=0x40" || return
	section "$c" 'Kernel panic - not syncing: panic_on_taint' "$PANIC_END" > "$sec"
	check "sanity: the write panicked" "no panic_on_taint panic in $c" \
		grep -q 'Kernel panic - not syncing: panic_on_taint set' "$sec"
	# Recorded first, then panicked: the panic report already has the reason.
	check "the panic names writer and reason" "$(grep '^Taint' "$sec")" \
		taint_u_line "$sec" "$r"
}
