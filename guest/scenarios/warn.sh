# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A WARN after user space tainted the kernel with a reason and set O too:
# the report has one Taint line, U, naming writer and reason, and utc=
# is the guest's date.
# suite: scenario-warn 6 0 scenario default,debug - warn=1,trace=1

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	taint_with_reason
	# Another flag set too (O): a WARN report still explains only U.
	echo 4096 > /proc/sys/kernel/tainted
	echo "before warn: mask=$(cat /proc/sys/kernel/tainted)" >&3
	echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)" >&3
	grep ' origin=user ' /proc/sys/kernel/taint_log | sed 's/^/taint_log: /' >&3
	echo WARNING > $crash
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-warn.console r=$LOGS/scenario-warn.results sec=$LOGS/scenario-warn.report
	scenario_run warn || return
	section "$c" 'cut here' 'end trace' > "$sec"
	check "sanity: a WARNING report" "no WARNING in $c" grep -q '^WARNING:' "$sec"
	# The seed's promise: U shows in the Tainted: line of the WARN report.
	check "sanity: U in the report's Tainted: line" "$(grep -o 'Tainted:.*' "$sec")" \
		grep -qE 'Tainted: [A-Z ]*U' "$sec"
	local lines
	lines=$(grep -c '^Taint [A-Z]:' "$sec")
	check "sanity: O was set too before the WARN" "$(grep '^before warn' "$r")" \
		eval "[ \$(( \$(sed -n 's/^before warn: mask=//p' '$r') & 4096 )) -ne 0 ]"
	check "one Taint line, U, though O is set too" "$(grep '^Taint' "$sec")" \
		test "$lines" = 1 -a "$(grep -c '^Taint U:' "$sec")" = 1
	check "Taint U: line names writer and reason" "$(grep '^Taint' "$sec")" \
		taint_u_line "$sec" "$r"
	check "utc= is the guest's date once its clock is set" \
		"$(grep -E '^(date|taint_log):' "$r")" utc_is_date "$r"
}

# utc_is_date RESULTS: the writer's line has a utc= of the guest's date
# (the date line) within a minute, and that date is this year's or later
# (the clock was set: QEMU's RTC gives the host's time).
utc_is_date() {
	local res=$1 now utc t0 t1
	now=$(sed -n 's/^date: //p' "$res")
	utc=$(sed -n 's/^taint_log: .* utc=\([^ ]*\) origin=user .*/\1/p' "$res")
	utc=${utc%%$'\n'*}	# the first user line's
	[ -n "$now" ] && [ -n "$utc" ] && [ "$utc" != - ] || return 1
	t0=$(date -u -d "$now" +%s) && t1=$(date -u -d "$utc" +%s) || return 1
	[ $((t0 - t1)) -ge 0 ] && [ $((t0 - t1)) -le 60 ] &&
		[ "${now%%-*}" -ge 2025 ]
}
