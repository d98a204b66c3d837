# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The test module: module= for its load (O) and its WARN (W), a caller
# while it is loaded, and after it is unloaded and ut_other took its
# memory, neither ut_other's code nor a raw address, in the log and in the
# oops report. The same for X, set by its init code, once another module
# took the memory of that code, freed after init, while it stays loaded.
# suite: scenario-module 17 0 scenario default,debug - warn=1,oops=1,bug=1,trace=2,debug:bug=2,debug:trace=3

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	# The harness's test module (guest/module), built for this kernel:
	# loaded (O), WARNs (W, caller in the module), unloaded; then another
	# module is loaded in the memory it left. The log must go on naming
	# ut_taint, and never ut_other's code or a raw address.
	mods=/lib/modules/$(arg variant)
	taint_with_reason
	# Its init code sets X (bit 16).
	insmod "$mods/ut_taint.ko" init_flag=16 && echo "loaded ut_taint" >&3
	echo "ut_taint text=$(cat /sys/module/ut_taint/sections/.text)" >&3
	echo "ut_taint init text=$(cat /sys/module/ut_taint/sections/.init.text)" >&3
	echo 1 > /sys/kernel/debug/ut_taint/warn
	sed 's/^/loaded: /' /proc/sys/kernel/taint_log >&3
	kernel-chktaint | grep '^Modules with taint' | sed 's/^/chktaint: /' >&3
	# The memory of its init code is freed after an RCU grace period; a
	# module loaded then, beside it, takes it: X must not name its code.
	sleep 1
	insmod "$mods/ut_other.ko" && echo "loaded ut_other beside ut_taint" >&3
	echo "beside text=$(cat /sys/module/ut_other/sections/.text)" >&3
	sed 's/^/beside: /' /proc/sys/kernel/taint_log >&3
	rmmod ut_other
	rmmod ut_taint && echo "unloaded ut_taint" >&3
	sed 's/^/unloaded: /' /proc/sys/kernel/taint_log >&3
	insmod "$mods/ut_other.ko" && echo "loaded ut_other" >&3
	echo "ut_other text=$(cat /sys/module/ut_other/sections/.text)" >&3
	sed 's/^/other: /' /proc/sys/kernel/taint_log >&3
	# ut_taint rebuilt with other code, loaded where the first one was:
	# the W that the first one's code set must not name the new code.
	rmmod ut_other && insmod "$mods/rebuilt/ut_taint.ko" && echo "loaded rebuilt ut_taint" >&3
	echo "rebuilt text=$(cat /sys/module/ut_taint/sections/.text)" >&3
	sed 's/^/rebuilt: /' /proc/sys/kernel/taint_log >&3
	rmmod ut_taint
	# A module named ndiswrapper: loading it sets P, which names it.
	insmod "$mods/ndiswrapper.ko" && echo "loaded ndiswrapper" >&3
	grep ' flags=P ' /proc/sys/kernel/taint_log | sed 's/^/ndiswrapper: /' >&3
	sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-module.console r=$LOGS/scenario-module.results
	local sec=$LOGS/scenario-module.report t0 t1 t2 t3 stage
	scenario_run module || return
	section "$c" 'Oops:' 'end trace' > "$sec"
	check "ut_taint loaded, unloaded, ut_other loaded" "$(grep -E '^(un)?loaded ut_' "$r")" \
		test "$(grep -cE '^(loaded ut_taint|unloaded ut_taint|loaded ut_other|loaded ut_other beside ut_taint)$' "$r")" = 4
	check "X from its init code, freed since: module=ut_taint, no caller" \
		"$(grep '^loaded: .*flags=X ' "$r")" \
		grep -qE '^loaded: .* origin=kernel flags=X new=X .* module=ut_taint$' "$r"
	t0=$(sed -n 's/^ut_taint init text=//p' "$r"); t2=$(sed -n 's/^beside text=//p' "$r")
	check "sanity: ut_other, loaded beside it, took the memory of its init code (text $t2)" \
		"ut_taint's init text $t0, ut_other's text $t2" test -n "$t0" -a "$t0" = "$t2"
	check "beside: X still module=ut_taint, no caller, not ut_other's code" \
		"$(grep '^beside: .*flags=X ' "$r")" \
		grep -qE '^beside: .* origin=kernel flags=X new=X .* module=ut_taint$' "$r"
	check "O from loading it: module=ut_taint, no caller" "$(grep '^loaded: .*flags=O ' "$r")" \
		grep -qE '^loaded: .* origin=kernel flags=O new=O .* module=ut_taint$' "$r"
	check "W from its WARN: module=ut_taint and its caller" "$(grep '^loaded: .*flags=W ' "$r")" \
		grep -qE '^loaded: .* origin=kernel flags=W new=W .* module=ut_taint caller=ut_warn_here\+0x[0-9a-f]+/0x[0-9a-f]+$' "$r"
	check "kernel-chktaint names ut_taint as the module with O" "$(grep '^chktaint:' "$r")" \
		grep -qE '^chktaint: Modules with taint:( [^ ]+)* ut_taint\(O\)( |$)' "$r"
	for stage in unloaded other; do
		check "$stage: W still module=ut_taint, no caller" "$(grep "^$stage: .*flags=W " "$r")" \
			grep -qE "^$stage: .* origin=kernel flags=W new=W .* module=ut_taint\$" "$r"
		check "$stage: sanity: no ut_other code, no raw address in the log" \
			"$(grep -E "^$stage: .*(ut_other|caller=0x|ffff[0-9a-f]{12})" "$r")" \
			none grep -E "^$stage: .*(ut_other|caller=0x|ffff[0-9a-f]{12})" "$r"
	done
	check "P from loading ndiswrapper: module=ndiswrapper, no caller" \
		"$(grep '^ndiswrapper:' "$r")" \
		grep -qE '^ndiswrapper: .* origin=kernel flags=P new=P .* module=ndiswrapper$' "$r"
	t3=$(sed -n 's/^rebuilt text=//p' "$r")
	check "sanity: the rebuilt ut_taint was loaded where the first was (text $t3)" \
		"$(grep -E '^(loaded rebuilt|rebuilt text)' "$r")" \
		test -n "$t3" -a "$t3" = "$(sed -n 's/^ut_taint text=//p' "$r")"
	check "rebuilt ut_taint reloaded: W still module=ut_taint, no caller" \
		"$(grep '^rebuilt: .*flags=W ' "$r")" \
		grep -qE '^rebuilt: .* origin=kernel flags=W new=W .* module=ut_taint$' "$r"
	t1=$(sed -n 's/^ut_taint text=//p' "$r"); t2=$(sed -n 's/^ut_other text=//p' "$r")
	check "ut_other took ut_taint's memory (text $t2 = $t1)" "ut_taint $t1, ut_other $t2" \
		test -n "$t1" -a "$t1" = "$t2"
	check "oops report: Taint W: and Taint O: name ut_taint, no caller" "$(grep '^Taint [WO]:' "$sec")" \
		test "$(grep -cE '^Taint [WO]: .* module=ut_taint$' "$sec")" = 2
	check "sanity: no raw kernel address in Taint lines" "$(raw_address_lines "$sec")" \
		none raw_address_lines "$sec"
}
