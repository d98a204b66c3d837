#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cursor.sh - taintctl cursor: a position in the taint log (boot id,
# events, dropped, mask, digest) that check --since reads (check.sh);
# TAP on stdout.

. "$(dirname "$0")/lib.sh"

run --root "$CUR" cursor
c=$(cat "$T/out")
t "cursor: one word, boot id, 4 events, dropped 2, mask 0x1241" sh -c "[ $rc -eq 0 ] && echo '$c' | grep -qxE 'tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-4-2-1241-[0-9a-f]{8}'"
run --root "$CUR" -J cursor
t "cursor --json: cursor, boot_id, events, dropped, mask" jq_out ".cursor == \"$c\" and .boot_id == \"$BOOT\" and .events == 4 and .dropped == 2 and .mask == 4673"
run --root "$STOCK" cursor
t "cursor without a boot_id: exit 3, names the file" sh -c "[ $rc -eq 3 ] && grep -q \"cannot read '$STOCK/proc/sys/kernel/random/boot_id'\" '$T/err'"
mkdir -p "$MAL/proc/sys/kernel/random"; echo "$BOOT" >"$MAL/proc/sys/kernel/random/boot_id"
run --root "$MAL" cursor
t "cursor of a malformed log: exit 3 (a position needs the whole log)" sh -c "[ $rc -eq 3 ] && [ ! -s '$T/out' ]"
run --root "$CUR" cursor now
t "cursor with an operand: exit 2" rc_is 2
run_full --root "$CUR" cursor
t "cursor >/dev/full: exit 3" write_error
run --root "$CUR" -j cursor
t "cursor --json: mask_hex agrees with mask" masks_hex "$T/out" 1

tap_done
