# SPDX-License-Identifier: GPL-2.0
# Sourced by /init for ut.mode=demo (`make run`): a short tour of the feature.
crash=/sys/kernel/debug/provoke-crash/DIRECT
step() { printf '\n=== %s\n' "$*"; }
run() { printf '# %s\n' "$*"; sh -c "$*"; }

dmesg -n 1	# kernel messages only through dmesg from here on
step "stock view: the taint mask"
run 'cat /proc/sys/kernel/tainted'

if [ -e /proc/sys/kernel/taint_reason ]; then
	step "user space taints the kernel, and says why"
	run 'echo "RTSJ test: JVM maps physical memory" > /proc/sys/kernel/taint_reason'
	run 'cat /proc/sys/kernel/taint_reason'
fi
step "the seed's ABI: OR bit 6 (U) into the mask"
run 'echo 64 > /proc/sys/kernel/tainted'
run 'cat /proc/sys/kernel/tainted'
[ -x /usr/bin/taintctl ] && run 'taintctl status'

step "a WARN through LKDTM, and the Tainted: line of its report"
echo WARNING > $crash
run "dmesg | grep -E 'WARNING:|Tainted:|Taint [A-Z]:'"

if [ -r /proc/sys/kernel/taint_log ]; then
	step "an oops through LKDTM (in a child): the report names the reason"
	sh -c "echo EXCEPTION > $crash"
	run "dmesg | grep -E 'Oops|Taint [A-Z]:' | tail -n 8"
	step "the taint log: who set what, when, and why"
	run 'cat /proc/sys/kernel/taint_log'
	step "the kernel's own decoder, tools/debugging/kernel-chktaint"
	run 'kernel-chktaint'
fi
