# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# An oops (a NULL write in LKDTM) that kills only the process that
# provoked it: its report names the writer and reason of U.
# suite: scenario-oops 3 0 scenario default,debug - bug=1,oops=1,trace=1,debug:bug=2,debug:trace=2

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	taint_with_reason
	# In a child: the oops kills the process that provoked it.
	sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-oops.console r=$LOGS/scenario-oops.results sec=$LOGS/scenario-oops.report
	scenario_run oops || return
	section "$c" 'Oops:' 'end trace' > "$sec"
	check "sanity: an Oops report" "no Oops in $c" grep -q 'Oops:' "$sec"
	check "Taint U: line names writer and reason" "$(grep '^Taint' "$sec")" \
		taint_u_line "$sec" "$r"
	check "sanity: guest survived the oops" "see $r" grep -q '^survived oops' "$r"
	if [ "$variant" = debug ]; then
		# KASAN catches LKDTM's NULL write first: that report was asked
		# for too, and it must be the only KASAN report.
		check "KASAN reports only the provoked NULL write" \
			"$(grep -o 'BUG: KASAN: .*' "$c")" \
			test "$(grep -c 'BUG: KASAN: ' "$c")" = 1 -a \
			"$(grep -c 'BUG: KASAN: null-ptr-deref in lkdtm_EXCEPTION' "$c")" = 1
	fi
}
