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
# the taint log is root's (mode 0400): a cursor that cannot read it says
# what it needs it for (a directory stands in for root's file: root reads
# a 0400 file)
mkdir -p "$UNREAD/proc/sys/kernel/random"; echo "$BOOT" >"$UNREAD/proc/sys/kernel/random/boot_id"
run --root "$UNREAD" cursor
unread_ok() {
	[ "$rc" -eq 3 ] && [ ! -s "$T/out" ] && err_one_line &&
	grep -qF "cannot read '$UNREAD/proc/sys/kernel/taint_log': Is a directory (a cursor needs the taint log)" "$T/err"
}
t "cursor of a log it cannot read: exit 3, one line, says a cursor needs the taint log" unread_ok
# as a user, on a patched kernel's tree (tainted and boot_id 0444, the log
# 0400): the cursor fails, saying why, then check --since "$(taintctl
# cursor)" gets an empty cursor, and says what that means
as_user() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
   id nobody >/dev/null 2>&1; then
	U=$(mkproc user)
	cp -r "$CUR/proc" "$U/"
	chmod 0444 "$U/proc/sys/kernel/tainted" "$U/proc/sys/kernel/random/boot_id"
	chmod 0400 "$U/proc/sys/kernel/taint_log"
	chmod 0755 "$T"
	c=$(as_user "$TAINTCTL" --root "$U" cursor 2>"$T/err" </dev/null); rc=$?
	: >"$T/out"
	user_ok() {
		[ "$rc" -eq 3 ] && [ -z "$c" ] && err_one_line &&
		grep -qF "cannot read '$U/proc/sys/kernel/taint_log': Permission denied (a cursor needs the taint log, which only root can read: mode 0400)" "$T/err"
	}
	t "cursor as a user (the log is 0400): exit 3, prints nothing, says only root can read the log" user_ok
	as_user "$TAINTCTL" --root "$U" check --since "$c" </dev/null >"$T/out" 2>"$T/err"; rc=$?
	t "check --since \"\$(taintctl cursor)\" after it: exit 4, the cursor is empty, taintctl cursor probably failed" \
		err_is "taintctl: the cursor is empty: the 'taintctl cursor' that should have printed it probably failed (it needs the taint log: run it as root)"
	t "check --since \"\$(taintctl cursor)\" after it: exit 4" rc_is 4
	chmod 0700 "$T"
else
	for d in "cursor as a user (the log is 0400): exit 3, says why" \
		 "check --since \"\$(taintctl cursor)\" after it: says the cursor is empty" \
		 "check --since \"\$(taintctl cursor)\" after it: exit 4"; do
		skip "$d" "not root, or no setpriv or no user nobody"
	done
fi
run --root "$CUR" check --since ""
empty_ok() { [ "$rc" -eq 4 ] && err_one_line && grep -q 'the cursor is empty' "$T/err" && ! grep -q 'invalid cursor' "$T/err"; }
t "check --since '': exit 4, one line: the cursor is empty (not 'invalid cursor')" empty_ok
run cursor --help
t "cursor --help: it reads the taint log, which only root can read" sh -c "tr -s ' \n' '  ' <'$T/out' | grep -qF 'It reads the taint log (/proc/sys/kernel/taint_log), which only root can read (mode 0400)'"
run --help
t "--help: cursor reads the taint log, root only" sh -c "tr -s ' \n' '  ' <'$T/out' | grep -qF 'position now (it reads the taint log: root only, the log is mode 0400)'"
run --root "$CUR" cursor now
t "cursor with an operand: exit 2" rc_is 2
run_full --root "$CUR" cursor
t "cursor >/dev/full: exit 3" write_error
run --root "$CUR" -j cursor
t "cursor --json: mask_hex agrees with mask" masks_hex "$T/out" 1

tap_done
