#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mark.sh - taintctl mark: a reason, written to taint_reason, or the
# stock kernel's fall-back; TAP on stdout.

. "$(dirname "$0")/lib.sh"

run --root "$PATCHED" mark "RTSJ physical memory access"
t "mark on patched kernel: exit 0, no warning" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ]"
t "mark wrote exactly the reason" sh -c "[ \"\$(cat '$PATCHED/proc/sys/kernel/taint_reason')\" = 'RTSJ physical memory access' ]"
STOCKM=$(mkproc stockmark); echo 0 >"$STOCKM/proc/sys/kernel/tainted"
run --root "$STOCKM" mark "why"
t "mark on stock kernel: falls back to 64 and warns" sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$STOCKM/proc/sys/kernel/tainted')\" = 64 ] && grep -q 'warning: .*no reason was stored' '$T/err'"
echo 0 >"$STOCKM/proc/sys/kernel/tainted"
run --root "$STOCKM" mark ""
t "mark empty reason: exit 2, nothing written" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$STOCKM/proc/sys/kernel/tainted')\" = 0 ]"
run --root "$STOCKM" mark "$(printf 'two\nlines')"
t "mark control byte: exit 2, one-line message" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ] && [ \"\$(cat '$STOCKM/proc/sys/kernel/tainted')\" = 0 ]"
run --root "$STOCKM" mark "$(head -c 129 /dev/zero | tr '\0' r)"
t "mark 129-byte reason: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'longer than 128' '$T/err'"
run --root "$STOCKM" mark "$(head -c 128 /dev/zero | tr '\0' r)"
t "mark 128-byte reason: accepted" rc_is 0
run --root "$T/nonexistent" mark "why"
t "mark with no proc files: exit 3" sh -c "[ $rc -eq 3 ] && grep -q \"^taintctl: cannot write '$T/nonexistent/proc/sys/kernel/tainted'\" '$T/err'"

tap_done
