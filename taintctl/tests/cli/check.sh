#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check.sh - taintctl check: the verdict (exit 0 or 1) on the mask of a
# --root tree, of --value, of --from a file or a log (the last boot, or
# --every-boot), or of what was set --since a cursor; --allow, --deny,
# flag letters and names, none; TAP on stdout.

. "$(dirname "$0")/lib.sh"

run --root "$CLEAN" check
t "check on clean kernel: exit 0" rc_is 0
run --root "$STOCK" check
t "check with taint and no option: exit 1" rc_is 1
run --root "$STOCK" check --allow UW
t "check --allow UW on U+W: exit 0" rc_is 0
run --root "$STOCK" check --allow U
t "check --allow U on U+W: exit 1, names W" sh -c "[ $rc -eq 1 ] && grep -q 'WARN' '$T/out'"
run --root "$STOCK" check --deny D
t "check --deny D on U+W: exit 0" rc_is 0
run --root "$STOCK" -j check --deny DW
t "check --json --deny DW: exit 1, W disallowed" sh -c "[ $rc -eq 1 ] && jq -e '.ok == false and ([.disallowed[].letter] == [\"W\"])' '$T/out'"
run --root "$STOCK" check --allow UQ
t "check --allow with unknown letter: exit 2, names it, lists the letters" sh -c "[ $rc -eq 2 ] && grep -q \"'Q' is not a flag letter (letters: PFSRMBUDAWCIOELKXTNJ;\" '$T/err' && [ \$(wc -l <'$T/err') -eq 1 ]"
run --root "$STOCK" check --allow U --deny W
t "check --allow and --deny together: exit 2" rc_is 2
run --root "$UNK" -j check --allow W
t "check --allow W with unknown bit 40: exit 1" sh -c "[ $rc -eq 1 ] && jq -e '.disallowed_unknown_bits == [40]' '$T/out'"
run --root "$UNK" -j check --deny U
t "check --deny U with unknown bit 40: exit 0" rc_is 0
run --root "$T/nonexistent" check
t "check without proc files: exit 3" rc_is 3
# a FLAGS without a flag is a usage error; none is the
# empty set on purpose (deny nothing, allow nothing)
for o in --deny --allow; do
	for e in '' ' ' ', ,'; do
		run check --value 0x1201 $o "$e"
		t "check $o '$e': exit 2, one line naming the option, nothing on stdout" sh -c "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && [ \"\$(cat '$T/err')\" = \"taintctl: '$o $e' names no flag: give flag letters or names, or '$o none' for the empty set\" ]"
	done
done
run --root "$CLEAN" check --since 'x' --deny ''
t "check --since --deny '': exit 2 before the cursor is read" sh -c "[ $rc -eq 2 ] && grep -q 'names no flag' '$T/err'"
run check --value 0x1201 --deny none
t "check --deny none: nothing denied, exit 0" sh -c "[ $rc -eq 0 ] && grep -qx 'ok: no disallowed taint (mask 4609, PWO)' '$T/out'"
run check --value 0x1201 --deny NONE
t "check --deny NONE: none in any case, not the letters N, O and E" rc_is 0
run check --value 0x1201 --deny ' None,'
t "check --deny ' None,': none alone among blanks and commas" rc_is 0
run -j check --value 0x1201 --allow none
t "check --allow none: every flag disallowed, exit 1" sh -c "[ $rc -eq 1 ] && jq -e '[.disallowed[].letter] == [\"P\",\"W\",\"O\"]' '$T/out' >/dev/null"
run check --value 0 --allow none
t "check --allow none of mask 0: exit 0" rc_is 0
run check --value 0x1201 --deny none,W
t "check --deny none,W: exit 2, none stands alone" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q \"'none' in '--deny none,W' stands alone\" '$T/err'"

# --- check --value/--from, names, -J -----------------------------------------
run --root "$CLEAN" check --value 4609 --allow PO
t "check --value 4609 --allow PO: exit 1 (W), /proc not read" sh -c "[ $rc -eq 1 ] && grep -q 'WARN' '$T/out'"
run check --value 0x1001 --allow PROPRIETARY_MODULE,oot_module
t "check --allow with flag names (any case)" rc_is 0
run -J check --value 'Tainted: P        W  O' --deny 'WARN D'
t "check --value takes a field; --deny names and letters mixed" sh -c "[ $rc -eq 1 ] && jq -e '.mask == 4609 and ([.disallowed[].letter] == [\"W\"])' '$T/out'"
run check --value -1
t "check --value -1: exit 2, negative" sh -c "[ $rc -eq 2 ] && grep -q 'negative' '$T/err'"
run -j check --value 'Tainted: [W]=WARN, [V]=UNSAFE_BPF' --allow W
t "check --allow W of a field with unknown letter V: exit 1, V disallowed" sh -c "[ $rc -eq 1 ] && jq -e '.ok == false and .disallowed == [] and .disallowed_unknown_letters == [{\"letter\": \"V\", \"name\": \"UNSAFE_BPF\"}]' '$T/out'"
run check --value 'Tainted: [W]=WARN, [V]=UNSAFE_BPF' --allow W
t "check text: the unknown letter is listed as disallowed" sh -c "[ $rc -eq 1 ] && grep -q '^  V  bit ?   UNSAFE_BPF ' '$T/out'"
run -j check --value 'Tainted: [W]=WARN, [V]=UNSAFE_BPF' --deny D
t "check --deny D of a field with unknown letter V: exit 0 (as unknown bits)" sh -c "[ $rc -eq 0 ] && jq -e '.ok and .disallowed_unknown_letters == []' '$T/out'"
run check --value '4609 512'
t "check --value with two values: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'takes one value' '$T/err'"
run check --allow PROPRIETARY
t "check --allow with a bad name: exit 2, lists the letters" sh -c "[ $rc -eq 2 ] && grep -q \"'PROPRIETARY' in '--allow PROPRIETARY' is neither a flag name nor flag letters\" '$T/err' && grep -q 'PFSRMBUDAWCIOELKXTNJ' '$T/err'"
run --root "$CLEAN" check --from "$STOCK/proc/sys/kernel/tainted" --allow UW
t "check --from a copy of tainted: the file is judged, not the kernel" rc_is 0
run --root "$CLEAN" check --from "$STOCK/proc/sys/kernel/tainted" --allow U
t "check --from a copy of tainted: exit 1, names W" sh -c "[ $rc -eq 1 ] && grep -q WARN '$T/out'"
printf 'boot\nCPU: 0 PID: 1 Comm: a Tainted: G        W          6.1.0 #1\nCPU: 1 PID: 2 Comm: b Tainted: G      D W          6.1.0 #1\n' >"$T/oops.log"
run -j check --from "$T/oops.log" --deny D
t "check --from a log: all its fields together" sh -c "[ $rc -eq 1 ] && jq -e '.mask == 640 and ([.disallowed[].letter] == [\"D\"])' '$T/out'"
run_in '512\n' --root "$STOCK" check --from - --allow W
t "check --from - reads standard input" rc_is 0
# --- check --from reads logs with the scanner --------------------------------
# a healthy machine's dmesg: no field, words that are not values
printf '[    0.000000] Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)\n[    0.000000] Command line: BOOT_IMAGE=/vmlinuz DONE\n[    1.234567] ACPI: PM: DONE\n' >"$T/none.log"
run check --from "$T/none.log" --deny DW
t "check --from a log without a Tainted: field: exit 0, says so" sh -c "[ $rc -eq 0 ] && grep -q \"^ok: no Tainted: field in '$T/none.log' (the last boot of 1, from line 1, kernel 6.1.0-18-amd64)\$\" '$T/out' && [ ! -s '$T/err' ]"
run_in 'DONE\n' check --from - --deny D
t "check --from -: the word DONE is not a value: exit 0" sh -c "[ $rc -eq 0 ] && grep -q '^ok: no Tainted: field' '$T/out' && [ ! -s '$T/err' ]"
gzip -c "$T/oops.log" >"$T/oops.log.gz"
run check --from "$T/oops.log.gz" --deny D
t "check --from a .gz log: decompressed, exit 1 (D)" sh -c "[ $rc -eq 1 ] && grep -q '^  D ' '$T/out' && grep -q \"judged: 2 Tainted: fields in '$T/oops.log.gz', the last at line 3\" '$T/out'"
# from a pipe, longer than what is sniffed for a number: the sniffed bytes
# are the scanner's prefix (a lost prefix loses the first field: W)
printf 'CPU: 0 PID: 1 Comm: a Tainted: G        W          6.1.0 #1\n%080d\nnothing\n' 0 >"$T/first.log"
cat "$T/first.log" | "$TAINTCTL" -j check --from - --allow U >"$T/out" 2>"$T/err"; rc=$?
t "check --from - (a pipe): the first bytes, sniffed, are scanned too" sh -c "[ $rc -eq 1 ] && jq -e '.mask == 512 and .from.fields == 1 and .from.last_line == 1' '$T/out'"
cat "$T/oops.log.gz" | "$TAINTCTL" check --from - --deny D >"$T/out" 2>"$T/err"; rc=$?
t "check --from - (a pipe of gzip data): decompressed" sh -c "[ $rc -eq 1 ] && grep -q '^  D ' '$T/out'"
# several boots: the last is judged unless --every-boot
{ printf '[    0.000000] Linux version 6.1.0 (x@y)\nCPU: 1 PID: 2 Comm: b Tainted: G      D W          6.1.0 #1\n'
  printf -- '-- Boot 0123456789abcdef0123456789abcdef --\n'
  printf 'Dec 06 10:00:00 host kernel: Linux version 6.1.0 (x@y)\nDec 06 10:00:01 host kernel: CPU: 0 PID: 1 Comm: a Tainted: G        W          6.1.0 #1\n'
  printf '[    0.000000] Linux version 6.1.0 (x@y)\nCPU: 0 PID: 1 Comm: a Tainted: G        W          6.1.0 #1\n'; } >"$T/boots.log"
run check --from "$T/boots.log" --deny D
t "check --from a log of 3 boots: the last is judged (D of boot 1 passes)" sh -c "[ $rc -eq 0 ] && grep -q 'judged: 1 Tainted: field in .*, the last at line 7 (the last boot of 3 of host host, from line 6, kernel 6.1.0)' '$T/out'"
run -j check --from "$T/boots.log" --deny D --every-boot
t "check --from --every-boot: every boot's fields (D of boot 1 fails)" sh -c "[ $rc -eq 1 ] && jq -e '.mask == 640 and .from.judged == \"every_boot\" and .from.boots == 3 and .from.fields == 3' '$T/out'"
head -n 5 "$T/boots.log" >"$T/boots2.log"
run -j check --from "$T/boots2.log" --deny W
t "check --from: journalctl's '-- Boot ID --' line and the Linux version line after it are one boot" sh -c "[ $rc -eq 1 ] && jq -e '.from.boots == 2 and .from.boot_line == 3 and .from.fields == 1' '$T/out'"
run check --every-boot --value 1
t "check --every-boot without --from: exit 2" rc_is 2
# a log over 64 MiB (read_input()'s limit before), its field at the end
awk 'BEGIN { s = sprintf("%0199d", 0); for (i = 0; i < 340000; i++) print s;
	print "CPU: 0 PID: 1 Comm: a Tainted: G      D            6.1.0 #1" }' >"$T/big.log"
run check --from "$T/big.log" --deny D
t "check --from a 65 MiB log: streamed, its last field found" sh -c "[ $rc -eq 1 ] && grep -q 'the last at line 340001' '$T/out'"
rm -f "$T/big.log"
run check --from "$T/missing.log"
t "check --from a missing file: exit 3" sh -c "[ $rc -eq 3 ] && grep -q \"cannot open '$T/missing.log'\" '$T/err'"
run check --value 1 --from "$T/oops.log"
t "check --value with --from: exit 2" rc_is 2
run_full --root "$STOCK" check --allow UW
t "check >/dev/full: exit 3 (not 0)" write_error
run_full --root "$STOCK" check
t "check >/dev/full with taint: exit 3 (not 1)" write_error
gone --root "$CLEAN" check
t "check into a gone reader: its verdict (0), nothing on stderr" epipe_ok
gone --root "$STOCK" check
t "check with taint into a gone reader: its verdict (1), not 3" epipe_ok 1
run -j check --value 18446744073709551615 --deny D
t "check --json: mask_hex agrees with mask" masks_hex "$T/out" 1

# --- check --since: what was set after a cursor ------------------------------
c=$("$TAINTCTL" --root "$CUR" cursor)
run --root "$CUR" check --since "$c"
t "check --since right after the cursor: exit 0, nothing set" sh -c "[ $rc -eq 0 ] && grep -qx 'ok: nothing set since the cursor (mask 4673)' '$T/out'"
sed -i "\$i $EV6" "$CUR/proc/sys/kernel/taint_log"
echo $((4673 | 128)) >"$CUR/proc/sys/kernel/tainted"
run --root "$CUR" check --since "$c"
t "check --since: D set after the cursor: exit 1, names D and who set it" sh -c "[ $rc -eq 1 ] && grep -q '^FAIL: disallowed taint set since the cursor (mask 4801, was 4673):' '$T/out' && grep -q '^  D  bit 7 ' '$T/out' && grep -q '^  \[ *6.000000\] .*comm=\"kworker/0:1\" module=lkdtm caller=lkdtm_BUG+0x9/0x10\$' '$T/out' && ! grep -q 'sudo' '$T/out'"
run --root "$CUR" check --since "$c" --deny W
t "check --since --deny W: W was set before the cursor: exit 0" sh -c "[ $rc -eq 0 ] && grep -q '^ok: no disallowed taint since the cursor (mask 4801, was 4673; set since: D)' '$T/out'"
run --root "$CUR" check --since "$c" --allow DIE
t "check --since --allow DIE: exit 0" rc_is 0
run --root "$CUR" check --since "$c" --deny D
t "check --since --deny D: exit 1" rc_is 1
run --root "$CUR" -J check --since "$c" --allow U
t "check --since --json: check shape, since, set_since, events, next cursor" sh -c "[ $rc -eq 1 ] && jq -e '.ok == false and .mask == 4801 and ([.disallowed[].letter] == [\"D\"]) and .disallowed_unknown_bits == [] and .since == {\"cursor\": \"$c\", \"mask\": 4673, \"mask_hex\": \"0x1241\", \"events\": 4, \"dropped\": 2} and ([.set_since[].letter] == [\"D\"]) and (.events | length) == 1 and .events[0].caller == \"lkdtm_BUG+0x9/0x10\" and .events[0].comm == \"kworker/0:1\" and .dropped == 0 and .new_without_event == []' '$T/out' >/dev/null"
"$TAINTCTL" --root "$CUR" cursor >"$T/c2"
t "check --since --json: its cursor is the one 'cursor' prints now" sh -c "[ \"\$(jq -r .cursor '$T/out')\" = \"\$(cat '$T/c2')\" ]"
c2=$(cat "$T/c2")
# a user request for U, set long ago, with a reason: judged, named
sed -i "\$i $EV5" "$CUR/proc/sys/kernel/taint_log"
sed -i 's/^dropped=2$/dropped=4/' "$CUR/proc/sys/kernel/taint_log"
run --root "$CUR" check --since "$c2" --deny U
t "check --since --deny U: a new request for U (already set) fails, named with its reason" sh -c "[ $rc -eq 1 ] && grep -q 'comm=\"make\" reason=\"watch test\"' '$T/out' && grep -q '^  2 user request(s) counted but not kept' '$T/out'"
run --root "$CUR" -J check --since "$c2" --deny D
t "check --since --json: dropped in the window" jq_out '.ok and .dropped == 2 and (.events | length) == 1 and ([.set_since[].letter] == ["U"])'
# an event recorded before the cursor for a flag set only after it (the
# kernel records, then sets the bit: a cursor taken in between has the
# event but not the flag): the flag is new since the cursor, and the
# event before it is the one that names who set it
LATE=$(mkproc cursorlate)
mkdir -p "$LATE/proc/sys/kernel/random"; echo "$BOOT" >"$LATE/proc/sys/kernel/random/boot_id"
echo 4673 >"$LATE/proc/sys/kernel/tainted"
cp "$V2/proc/sys/kernel/taint_log" "$LATE/proc/sys/kernel/taint_log"
sed -i "\$i $EV6" "$LATE/proc/sys/kernel/taint_log"
cl=$("$TAINTCTL" --root "$LATE" cursor)
echo $((4673 | 128)) >"$LATE/proc/sys/kernel/tainted"
run --root "$LATE" check --since "$cl" --deny D
t "check --since: D set after the cursor by an event before it: exit 1, that event named" sh -c "[ $rc -eq 1 ] && grep -q '^  D  bit 7 ' '$T/out' && [ \$(grep -c '^  \[' '$T/out') -eq 1 ] && grep -q '^  \[ *6.000000\] .*comm=\"kworker/0:1\" module=lkdtm caller=lkdtm_BUG+0x9/0x10\$' '$T/out' && ! grep -q 'no taint_log event' '$T/out'"
run --root "$LATE" -J check --since "$cl" --deny D
t "check --since --json: that event in events, new_without_event empty" jq_out '.ok == false and ([.set_since[].letter] == ["D"]) and (.events | length) == 1 and .events[0].caller == "lkdtm_BUG+0x9/0x10" and .events[0].new == "D" and .new_without_event == [] and .since.events == 5'
# stock kernel: no log, flags only
CS=$(mkproc cursorstock)
mkdir -p "$CS/proc/sys/kernel/random"; echo "$BOOT" >"$CS/proc/sys/kernel/random/boot_id"
echo 64 >"$CS/proc/sys/kernel/tainted"
cs=$("$TAINTCTL" --root "$CS" cursor)
echo $((64 | 512 | (1 << 40))) >"$CS/proc/sys/kernel/tainted"
run --root "$CS" -J check --since "$cs" --deny W
t "check --since on a stock kernel: new flags judged, none named" sh -c "[ $rc -eq 1 ] && jq -e '([.disallowed[].letter] == [\"W\"]) and ([.new_without_event[].letter] == [\"W\"]) and .set_since_unknown_bits == [40] and .events == []' '$T/out' >/dev/null"
run --root "$CS" check --since "$cs" --deny U
t "check --since text: a flag set without an event is listed as such" sh -c "[ $rc -eq 0 ] && grep -q '^  set, no taint_log event:  W  bit 9 ' '$T/out'"
# cursors that do not apply: exit 4
echo 0f0e0d0c-0b0a-4908-8706-050403020100 >"$CS/proc/sys/kernel/random/boot_id"
run --root "$CS" check --since "$cs"
t "check --since with a cursor of another boot: exit 4, says so" sh -c "[ $rc -eq 4 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'cursor is from another boot (boot id $BOOT, this boot 0f0e0d0c-0b0a-4908-8706-050403020100)' '$T/err' && [ ! -s '$T/out' ]"
for bad in garbage tc1- "${c%?}" "${c}0" "$(echo "$c" | tr a-f A-F)" "tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-04-2-1241-00000000"; do
	run --root "$CUR" check --since "$bad"
	t "check --since '$bad': malformed, exit 4" sh -c "[ $rc -eq 4 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'invalid cursor' '$T/err'"
done
# upper-case hex only where it is: the boot id, the digest (tr a-f A-F
# above also makes "tc1-" "tC1-")
for bad in "$(echo "$c" | sed -E 's/^tc1-([0-9a-f]{32})/tc1-\U\1/')" "$(echo "$c" | sed -E 's/-([0-9a-f]{8})$/-\U\1/')"; do
	run --root "$CUR" check --since "$bad"
	t "check --since '$bad' (upper-case hex): malformed, exit 4" sh -c "[ $rc -eq 4 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'invalid cursor' '$T/err'"
done
run --root "$CUR" check --since "$(echo "$c" | sed 's/-4-2-/-9-2-/')"
t "check --since: more events than the log has: exit 4" sh -c "[ $rc -eq 4 ] && grep -q 'does not fit' '$T/err'"
run --root "$CUR" check --since "$(echo "$c" | sed 's/-4-2-1241-/-4-2-1243-/')"
t "check --since: a bit of the cursor's mask clear now: exit 4" sh -c "[ $rc -eq 4 ] && grep -q 'clear now' '$T/err'"
run --root "$CUR" check --since "$(echo "$c" | sed 's/-4-2-1241-/-4-9-1241-/')"
t "check --since: a larger dropped count than now: exit 4" rc_is 4
sed -i '1s/comm="insmod"/comm="modprobe"/' "$CUR/proc/sys/kernel/taint_log"
run --root "$CUR" check --since "$c"
t "check --since: the log does not begin with the cursor's events: exit 4" sh -c "[ $rc -eq 4 ] && grep -q 'does not begin with' '$T/err'"
run --root "$CUR" check --since "$c2" --value 1
t "check --since with --value: exit 2" rc_is 2
run --root "$STOCK" check --since "$c"
t "check --since without a boot_id: exit 3" rc_is 3
run --root "$CUR" -j check --since "$("$TAINTCTL" --root "$CUR" cursor)"
t "check --since --json: mask_hex in the check object and since" masks_hex "$T/out" 2

# --- check --from judges what the log shows: report headers and events --
# The kernel sets W and D after the report's own Tainted: field: a log whose
# last report is the WARN or the oops shows the flag only in its header.
# Real console logs of the series' kernel (tests/console/SOURCES.md), cut
# right after their report.
CON=$TESTDIR/console
head -n 9 "$CON/warn-then-panic.log" >"$T/warn-cut.log"
run check --from "$T/warn-cut.log" --deny W
t "check --from a log cut after its only WARN: --deny W exit 1, the WARNING line named" \
	sh -c "[ $rc -eq 1 ] && grep -q '^  W ' '$T/out' && grep -q '^      line 6 (report): WARNING: CPU: 0 PID: 1 at ' '$T/out'"
run -j check --from "$T/warn-cut.log" --deny W
t "check --json: set_by names the WARNING's line and kind" \
	sh -c "[ $rc -eq 1 ] && jq -e '.from.reports == 1 and (.from.set_by[] | select(.letter == \"W\") | .line == 6 and .kind == \"report\" and (.text | startswith(\"WARNING: CPU: 0 PID: 1 at \")))' '$T/out'"
head -n 18 "$CON/oops-then-panic.log" >"$T/oops-cut.log"
run check --from "$T/oops-cut.log" --deny D
t "check --from a log cut after its oops (no Taint D: line yet): --deny D exit 1, the Oops line named" \
	sh -c "[ $rc -eq 1 ] && grep -q '^  D ' '$T/out' && grep -q '^      line 16 (report): Oops: ' '$T/out'"
run check --from "$CON/oops-then-panic.log" --deny D
t "check --from the whole oops-then-panic log: --deny D exit 1" rc_is 1
# the series' "Taint X:" lines are events: a log of one event alone
grep '^\[ *[0-9.]*\] Taint U: ' "$CON/warn-then-panic.log" | head -n 1 >"$T/event.log"
run -j check --from "$T/event.log" --deny U
t "check --from a log whose only taint is a 'Taint U:' event: exit 1, kind event" \
	sh -c "[ $rc -eq 1 ] && [ -s '$T/event.log' ] && jq -e '.from.events == 1 and .from.fields == 0 and [.from.set_by[].kind] == [\"event\"]' '$T/out'"
# a lockdep WARNING and a panic are reports that set no flag
printf '[    1.0] WARNING: possible circular locking dependency detected\n[    2.0] Kernel panic - not syncing: VFS: Unable to mount root fs\n' >"$T/noflag.log"
run check --from "$T/noflag.log" --deny W
t "check --from: a lockdep WARNING and a panic set no flag: --deny W exit 0" rc_is 0
# prose that only mentions a header is no report
printf 'the test prints WARNING: CPU: 0 when it fails\n' >"$T/prose.log"
run check --from "$T/prose.log" --deny W
t "check --from: WARNING: inside prose is no report: exit 0" rc_is 0
# the third-party corpus: files whose only oops is their last report
for f in abrt-koops-tainted-bg1 lore-dri-rpi4-vc4-C.txt syzkaller-report-45; do
	run check --from "$TESTDIR/corpus/oops/$f" --deny D
	t "check --from corpus $f (one oops, no D in any field): --deny D exit 1" \
		sh -c "[ $rc -eq 1 ] && grep -q '^      line [0-9]* (report): ' '$T/out'"
done

# --- Tainted: G (tainted, flags not shown): unknown is not clean ---------
run check --value 'Tainted: G 6.1.0' --allow none
t "check --value 'Tainted: G' --allow none: exit 1, the mask unknown" \
	sh -c "[ $rc -eq 1 ] && grep -q '^FAIL: tainted, but the flags are not shown (mask unknown' '$T/out'"
run -j check --value 'Tainted: G 6.1.0' --deny W
t "check --json --value 'Tainted: G' --deny W: exit 1, mask null, ok false" \
	sh -c "[ $rc -eq 1 ] && jq -e '.mask == null and .mask_hex == null and .ok == false' '$T/out'"
printf 'CPU: 0 PID: 1 Comm: a Tainted: G        W          6.1.0 #1\nCPU: 0 PID: 1 Comm: a Tainted: G 6.1.0 #1\n' >"$T/g.log"
run check --from "$T/g.log" --deny D
t "check --from: the last field 'Tainted: G': exit 1, its line named" \
	sh -c "[ $rc -eq 1 ] && grep -q 'mask unknown: the last Tainted: field, line 2' '$T/out'"
printf 'CPU: 0 PID: 1 Comm: a Tainted: G 6.1.0 #1\nCPU: 0 PID: 1 Comm: a Tainted: G        W          6.1.0 #1\n' >"$T/g2.log"
run check --from "$T/g2.log" --deny D
t "check --from: 'Tainted: G' then a field with its flags: judged on those, exit 0" rc_is 0

# --- hosts and boots: a log of several machines, reboots without banner ---
cat >"$T/hosts.log" <<'EOF2'
Dec  7 10:00:00 hostA kernel: [    0.000000] Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) #1 SMP
Dec  7 10:00:01 hostB kernel: [    0.000000] Linux version 6.12.9-amd64 (debian-kernel@lists.debian.org) #1 SMP
Dec  7 10:05:00 hostA kernel: [  300.100000] Oops: 0002 [#1] PREEMPT SMP NOPTI
Dec  7 10:05:00 hostA kernel: [  300.100001] CPU: 0 PID: 1 Comm: sh Not tainted 6.1.0-18-amd64 #1
Dec  7 10:06:00 hostB kernel: [  360.000000] CPU: 1 PID: 9 Comm: x Tainted: G           O      6.12.9-amd64 #1
EOF2
run check --from "$T/hosts.log" --deny D
t "check --from, two hosts: hostA's oops fails hostA only, exit 1" \
	sh -c "[ $rc -eq 1 ] && grep -qx 'FAIL: disallowed taint on 1 of 2 hosts in .*' '$T/out' && grep -qx 'hostA: FAIL: disallowed taint set (mask 128):' '$T/out' && grep -qx 'hostB: ok: no disallowed taint (mask 4096, O)' '$T/out'"
t "check --from, two hosts: each judged boot named with its kernel release" \
	sh -c "grep -q '(the last boot of 1 of host hostA, from line 1, kernel 6.1.0-18-amd64)' '$T/out' && grep -q '(the last boot of 1 of host hostB, from line 2, kernel 6.12.9-amd64)' '$T/out'"
run check --from "$T/hosts.log" --deny O
t "check --from, two hosts: --deny O fails hostB, not hostA" \
	sh -c "[ $rc -eq 1 ] && grep -qx 'hostA: ok: no disallowed taint (mask 128, D)' '$T/out' && grep -qx 'hostB: FAIL: disallowed taint set (mask 4096):' '$T/out'"
run -j check --from "$T/hosts.log" --deny D
t "check --json --from, two hosts: a verdict per host, ok false over all" \
	jq_out '.ok == false and ([.hosts[] | [.host, .ok, .from.release, .from.boots]] == [["hostA", false, "6.1.0-18-amd64", 1], ["hostB", true, "6.12.9-amd64", 1]])'
grep hostB "$T/hosts.log" >"$T/hostb.log"
run -j check --from "$T/hostb.log" --deny D
t "check --json --from, one host: one verdict, its host and release in from" \
	jq_out '.ok == true and .hosts == null and .from.host == "hostB" and .from.release == "6.12.9-amd64"'
# a panic, then a reboot on a console that printed no banner (quiet)
cat >"$T/panic-reboot.log" <<'EOF2'
[    0.000000] Linux version 6.12.9-amd64 (debian-kernel@lists.debian.org) #1 SMP
[  120.000000] Oops: 0002 [#1] PREEMPT SMP NOPTI
[  120.000001] CPU: 0 PID: 1 Comm: sh Not tainted 6.12.9-amd64 #1
[  120.100000] Kernel panic - not syncing: Fatal exception
[  120.100001] ---[ end Kernel panic - not syncing: Fatal exception ]---
SeaBIOS (version 1.16.2-debian-1.16.2-1)
Booting from ROM...
[    1.234567] ACPI Error: AE_NOT_FOUND
[   40.000000] random: crng init done
EOF2
run check --from "$T/panic-reboot.log" --deny D
t "check --from, a panic then a reboot without banner: the last boot of 2, from its first line" \
	sh -c "[ $rc -eq 0 ] && grep -q '(the last boot of 2, from line 8)' '$T/out'"
t "check --from, a panic then a reboot: the earlier boot's D is said, not hidden" \
	out_has '^  earlier boots showed D (not judged: --every-boot judges every boot)$'
run check --from "$T/panic-reboot.log" --deny D --every-boot
t "check --from --every-boot, a panic then a reboot: exit 1" rc_is 1
# printk timestamps that start again: a reboot, where no banner is logged
printf '[  500.000000] CPU: 0 PID: 1 Comm: a Tainted: G      D     6.1.0 #1\n[   10.000000] CPU: 0 PID: 1 Comm: a Tainted: G        W   6.1.0 #1\n' >"$T/reset.log"
run check --from "$T/reset.log" --deny D
t "check --from: timestamps that go back start a boot: the last boot's W, not D" \
	sh -c "[ $rc -eq 0 ] && grep -q '(the last boot of 1, from line 2, kernel 6.1.0)' '$T/out'"
printf '[  500.000000] CPU: 0 PID: 1 Comm: a Tainted: G      D     6.1.0 #1\n[  499.500000] CPU: 1 PID: 1 Comm: a Tainted: G      D W   6.1.0 #1\n' >"$T/order.log"
run check --from "$T/order.log" --deny D
t "check --from: records of two CPUs a little out of order are one boot" rc_is 1
# a merged journal: a separator at each change of host, the same boot ids
cat >"$T/journal.log" <<'EOF2'
-- Boot 1111 --
Dec 07 10:00:00 hostA kernel: Linux version 6.1.0 (gcc) #1
Dec 07 10:05:00 hostA kernel: Oops: 0002 [#1] SMP
-- Boot 2222 --
Dec 07 10:05:01 hostB kernel: Linux version 6.12.0 (gcc) #1
-- Boot 1111 --
Dec 07 10:06:00 hostA kernel: CPU: 0 PID: 1 Comm: a Not tainted 6.1.0 #1
EOF2
run check --from "$T/journal.log" --deny D
t "check --from, a merged journal: a separator to a host's own boot is no new boot" \
	sh -c "[ $rc -eq 1 ] && grep -qx 'hostA: FAIL: disallowed taint set (mask 128):' '$T/out' && grep -q 'last boot of 1 of host hostA, from line 1, kernel 6.1.0)' '$T/out'"

# a log that starts with its banner (dmesg -t): two boots, not one
printf 'Linux version 6.1.0 (x@y) #1\nCPU: 0 PID: 1 Comm: a Tainted: G      D   6.1.0 #1\nLinux version 6.1.0 (x@y) #1\n' >"$T/t0.log"
run check --from "$T/t0.log" --deny D
t "check --from: a banner on the first byte of the log starts a boot (the last of 2)" \
	sh -c "[ $rc -eq 0 ] && grep -q '(the last boot of 2, from line 3, kernel 6.1.0)' '$T/out'"

tap_done
