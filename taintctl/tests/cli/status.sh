#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# status.sh - taintctl status (the default command): the mask and its
# flags, the taint log's events, the modules that carry taint, the log's
# state; TAP on stdout.

. "$(dirname "$0")/lib.sh"

run --root "$STOCK" --json
t "status (default) on stock kernel: exit 0" rc_is 0
t "status --json: mask, tainted, U and W flags" jq_out '.mask == 576 and .tainted == true and ([.flags[].letter] == ["U","W"]) and .flags[0].bit == 6 and .flags[0].name == "USER" and .flags[1].name == "WARN" and .unknown_bits == []'
t "status --json on stock kernel: events is an empty array" jq_out '.events == []'
run --root "$STOCK" status
t "status text names the flags" sh -c "grep -q 'USER' '$T/out' && grep -q 'kernel issued warning' '$T/out'"
run --root "$PATCHED" status --json
t "status --json on patched kernel: 3 events" jq_out '.events | length == 3'
t "status --json: caller on the kernel event, no reason" jq_out '.events[0] | .origin == "kernel" and .caller == "lkdtm_WARNING+0x1d/0x30 [lkdtm]" and (has("reason") | not)'
run --root "$CLEAN" status --json
t "status on a clean kernel: tainted false, no flags" jq_out '.mask == 0 and .tainted == false and .flags == []'
run --root "$T/nonexistent" status
t "status without a tainted file: exit 3, util-linux message" sh -c "[ $rc -eq 3 ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot read '$T/nonexistent/proc/sys/kernel/tainted': No such file or directory\" ]"
BAD=$(mkproc bad); echo garbage >"$BAD/proc/sys/kernel/tainted"
run --root "$BAD" status
t "status with garbage in tainted: exit 3, one line" sh -c "[ $rc -eq 3 ] && [ \$(wc -l <'$T/err') -eq 1 ]"

run --root "$V2" status --json
t "status --json v2: events carry auid and module" sh -c "[ $rc -eq 0 ] && jq -e '.mask == 4673 and (.events | length) == 4 and .events[0].auid == null and .events[0].module == \"my mod\\\\\\\"x\\u0001\" and .events[2].auid == 1000' '$T/out'"
run --root "$V2" status
t "status text v2: auid and module shown" sh -c "[ $rc -eq 0 ] && grep -q 'auid=1000 comm=\"sudo\" reason=' '$T/out' && grep -q 'module=lkdtm caller=' '$T/out'"

# --- modules, taint log state ------------------------------------------------
# A sosreport-like tree: proc/sys/kernel and sys/module/*/taint.
SOS=$(mkproc sos)
echo 4097 >"$SOS/proc/sys/kernel/tainted"
for m in zfs:PO spl:O loop: newer:OV; do
	mkdir -p "$SOS/sys/module/${m%%:*}"
	echo "${m#*:}" >"$SOS/sys/module/${m%%:*}/taint"
done
mkdir -p "$SOS/sys/module/ext4"		# built in: no taint file
run --root "$SOS" status --json
t "status --json lists the modules that carry taint, sorted, letters as read" jq_out '.modules == [{"name":"newer","taint":"OV"},{"name":"spl","taint":"O"},{"name":"zfs","taint":"PO"}]'
t "status --json keeps the decode shape" jq_out '.mask == 4097 and ([.flags[].letter] == ["P","O"]) and .unknown_bits == [] and .events == []'
run --root "$SOS" status
t "status text: a line per tainted module with its flag names" sh -c "[ $rc -eq 0 ] && grep -q '^Modules with taint:\$' '$T/out' && grep -q '^  zfs    PO    PROPRIETARY_MODULE, OOT_MODULE\$' '$T/out' && grep -q '^  spl    O     OOT_MODULE\$' '$T/out' && ! grep -q 'loop\|ext4' '$T/out'"
run --root "$STOCK/" status --json
t "status --json: no tainted module is an empty list (and --root DIR/ works)" jq_out '.modules == [] and .mask == 576'
NOSYS=$(mkproc nosys); rmdir "$NOSYS/sys/module"; echo 0 >"$NOSYS/proc/sys/kernel/tainted"
run --root "$NOSYS" status --json
t "status --json without sys/module: modules null, warning, exit 0" sh -c "[ $rc -eq 0 ] && jq -e '.modules == null' '$T/out' && grep -q \"warning: cannot read '$NOSYS/sys/module': No such file or directory\" '$T/err'"
run --root "$STOCK" status --json
t "status --json on a stock kernel: taint_log absent" jq_out '.taint_log == "absent" and (has("taint_log_error") | not)'
run --root "$PATCHED" status --json
t "status --json with a readable log: taint_log ok" jq_out '.taint_log == "ok" and (.events | length) == 3'
run --root "$UNREAD" status --json
t "status --json with an unreadable log says so (not an empty log)" sh -c "[ $rc -eq 0 ] && jq -e '.taint_log == \"unreadable\" and .taint_log_error == \"Is a directory\" and .events == []' '$T/out' && grep -q 'warning: cannot read' '$T/err'"
EMPTYLOG=$(mkproc emptylog); echo 512 >"$EMPTYLOG/proc/sys/kernel/tainted"; : >"$EMPTYLOG/proc/sys/kernel/taint_log"
run --root "$EMPTYLOG" status --json
t "status --json with an empty log: taint_log ok, no events" jq_out '.taint_log == "ok" and .events == []'

run_full --root "$PATCHED" status
t "status >/dev/full: exit 3" write_error
head_1 trap --root "$BIGLOG" status
t "status | head -1 (20,000 events): exit 0, nothing on stderr" epipe_ok
run --root "$UNK" -j status
t "status --json: mask_hex agrees with mask (bit 40)" eval 'masks_hex "$T/out" 1 && jq_out ".mask_hex == \"0x10000000200\""'

tap_done
