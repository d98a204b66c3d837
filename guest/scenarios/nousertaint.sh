# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# panic_on_taint=0x40,nousertaint: writes that would set U are refused by
# both files, set and record nothing, and do not panic.
# suite: scenario-nousertaint 4 0 scenario default,debug - -

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	# Booted with panic_on_taint=0x40,nousertaint: user space may not set
	# U, by either file; nothing is set or recorded, nothing panics.
	echo "mask before=$(cat /proc/sys/kernel/tainted)" >&3
	echo "log lines before=$(wc -l < /proc/sys/kernel/taint_log)" >&3
	sh -c 'echo 64 > /proc/sys/kernel/tainted' 2>/dev/null; echo "tainted write rc=$?" >&3
	sh -c 'echo nope > /proc/sys/kernel/taint_reason' 2>/dev/null; echo "taint_reason write rc=$?" >&3
	echo "mask after=$(cat /proc/sys/kernel/tainted)" >&3
	echo "log lines after=$(wc -l < /proc/sys/kernel/taint_log)" >&3
	echo "reason after=$(cat /proc/sys/kernel/taint_reason)" >&3
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-nousertaint.console r=$LOGS/scenario-nousertaint.results
	scenario_run nousertaint "panic_on_taint=0x40,nousertaint" || return
	check "sanity: the tainted write is refused" "$(grep '^tainted write' "$r")" \
		grep -qx 'tainted write rc=1' "$r"
	check "sanity: the taint_reason write is refused" "$(grep '^taint_reason write' "$r")" \
		grep -qx 'taint_reason write rc=1' "$r"
	check "sanity: the mask did not change" "$(grep '^mask' "$r")" \
		test "$(sed -n 's/^mask before=//p' "$r")" = "$(sed -n 's/^mask after=//p' "$r")"
	check "nothing recorded, no reason" "$(grep -E '^(log lines|reason)' "$r")" \
		test -n "$(sed -n 's/^log lines before=//p' "$r")" -a \
		"$(sed -n 's/^log lines before=//p' "$r")" = "$(sed -n 's/^log lines after=//p' "$r")" -a \
		"$(grep -c '^reason after=$' "$r")" = 1
}
