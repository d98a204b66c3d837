# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# A panic after an oops that the system survived: D stays set, and the
# panic report must still say where each flag came from (the oops's own
# lines are not enough: they may have scrolled away or missed pstore).
# suite: scenario-oops-then-panic 3 0 scenario default,debug - bug=1,oops=1,trace=1,debug:bug=2,debug:trace=2,panic=1

# In the guest (POSIX sh, sourced by guest/scenario.sh).
scenario_guest() {
	# An oops that only kills its process, then a panic: the panic report
	# explains the flags again (D included), though D is set. The panic
	# comes from a new process on the same CPU, after an RCU grace period,
	# so that it likely gets the dead one's task_struct: the report must
	# not take it for the oops's task.
	# This shell, and so every process it starts, on CPU 0: a task_struct
	# freed there goes back to CPU 0's free list, where the next fork
	# takes it from.
	taskset -p 1 $$ > /dev/null
	taint_with_reason
	taskset 1 sh -c "echo EXCEPTION > $crash"
	echo "survived oops: mask=$(cat /proc/sys/kernel/tainted)" >&3
	# The panic resets the guest at once (panic=-1): give ttyS1 the time
	# to send that line first, or the host may never see it; that second
	# is also an RCU grace period for the dead task's task_struct.
	sleep 1
	taskset 1 sh -c "echo PANIC > $crash"
}

# On the host (bash, sourced by scripts/test/test.sh with scripts/test/scenarios.sh).
scenario_check() {
	local c=$LOGS/scenario-oops-then-panic.console r=$LOGS/scenario-oops-then-panic.results
	local sec=$LOGS/scenario-oops-then-panic.report
	scenario_run oops-then-panic || return
	section "$c" 'Kernel panic - not syncing' "$PANIC_END" > "$sec"
	check "sanity: the guest survived the oops, then panicked" \
		"$(grep '^survived' "$r"); $(grep -c 'Kernel panic - not syncing: dumptest' "$sec") panics" \
		test "$(grep -c '^survived oops' "$r")" = 1 -a \
		"$(grep -c 'Kernel panic - not syncing: dumptest' "$sec")" = 1
	check "the panic's Taint U: line names writer and reason" \
		"$(grep '^Taint' "$sec")" taint_u_line "$sec" "$r"
	check "the panic's Taint D: line names the oops" \
		"$(grep '^Taint' "$sec")" \
		grep -qE '^Taint D: ts=[0-9.]+ .* origin=kernel flags=D new=D .* comm="sh"' "$sec"
}
