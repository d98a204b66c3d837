#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# scan.sh - taintctl scan: the Tainted: fields of logs (files, stdin,
# FIFOs, compressed data, binary data) and the taint events of console
# logs; TAP on stdout.

. "$(dirname "$0")/lib.sh"

run scan "$T/missing.log"
t "scan missing file: exit 3, util-linux message" sh -c "[ $rc -eq 3 ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot open '$T/missing.log': No such file or directory\" ]"
printf 'Not tainted\n' >"$T/one.log"
run scan "$T/missing.log" "$T/one.log"
t "scan continues after an unreadable file (exit 3)" sh -c "[ $rc -eq 3 ] && grep -q 'one.log:1:' '$T/out'"
run scan "$T"
t "scan a directory: exit 3" sh -c "[ $rc -eq 3 ] && grep -q 'Is a directory' '$T/err'"
printf 'x\nCPU: 0 PID: 1 Comm: a Not tainted 6.1 #1\n' | "$TAINTCTL" scan >"$T/out" 2>"$T/err"; rc=$?
t "scan without file reads stdin, as filters do" sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$T/out')\" = '-:2: Not tainted  =>  not tainted' ]"
# compressed data on a pipe whose first read() returns 1 byte: the format
# is still told by the magic (dribble: the rest is written once the
# reader has taken that byte)
printf 'boot\nCPU: 0 PID: 1 Comm: a Tainted: G        W 6.1 #1\nCPU: 1 PID: 2 Comm: b Tainted: P      D W  O      6.1.0 #1\n' >"$T/two.log"
"$TAINTCTL" scan - <"$T/two.log" >"$T/two.txt" 2>&1
for z in gzip xz zstd; do
	$z -c <"$T/two.log" >"$T/two.$z"
	{ dribble "$T/two.$z" 1; echo $? >"$T/drc"; } | "$TAINTCTL" scan - >"$T/out" 2>"$T/err"; rc=$?
	t "scan - of $z data arriving 1 byte first: the hits of the plain log" sh -c "[ $rc -eq 0 ] && [ \$(cat '$T/drc') -eq 0 ] && [ \$(wc -l <'$T/two.txt') -eq 2 ] && cmp -s '$T/out' '$T/two.txt'"
done
# a verbose list ending in ',' does not swallow the next report
printf 'CPU: 0 Comm: a Tainted: [W]=WARN,\nCPU: 1 Comm: b Tainted: [D]=DIE, [O]=OOT_MODULE 6.12 #1\n' >"$T/cont.log"
run scan "$T/cont.log"
t "scan: a trailing ',' stops at the next line's own field (2 hits)" sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$T/out')\" = \"\$(printf '%s\n' '$T/cont.log:1: Tainted: [W]=WARN  =>  W' '$T/cont.log:2: Tainted: [D]=DIE, [O]=OOT_MODULE  =>  DO')\" ]"
# prose, NBSP pastes, journalctl -o json
printf '%s\n' "Tainted: I didn't know" 'The report said Tainted: P but the log was cut' 'Tainted: yes' >"$T/prose.log"
run scan "$T/prose.log"
t "scan: prose is not a hit" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/out' ]"
printf 'CPU: 0 PID: 1 Comm: insmod Tainted:\302\240P\302\240\302\240\302\240\302\240\302\240\302\240\302\240\302\240W\302\240\302\240O\302\240\302\2404.20.0 #1\n' >"$T/nbsp.log"
run -j scan "$T/nbsp.log"
t "scan: U+00A0 blanks in a pasted field decode by position (P W O)" jq_out '.letters == "PWO" and .mask == 4609 and .format == "fixed"'
printf 'CPU: 0 PID: 1 Comm: insmod Tainted:\240P\240\240\240\240\240\240\240\240W\240\240O\240\2404.20.0 #1\nTainted:\240G\240\240\240\240B 6.1\n' >"$T/latin1.log"
run -j scan "$T/latin1.log"
t "scan --json of fields with Latin-1 0xA0 blanks: valid UTF-8 out (strict decoder)" utf8_json
t "scan --json: each 0xA0 of a text is one U+FFFD; P W O and B decoded" jq_out -s '[.[].letters] == ["PWO", "B"] and .[0].text == "Tainted:\ufffdP\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd\ufffd\ufffdW\ufffd\ufffdO" and .[1].text == "Tainted:\ufffdG\ufffd\ufffd\ufffd\ufffdB"'
printf '%s\n' '{"MESSAGE":"CPU: 0 PID: 1 Comm: sh Tainted: G        W 6.1 #1","PRIORITY":"4"}' '{"MESSAGE":"Tainted: G        W","PRIORITY":"4"}' '{"MESSAGE":"Tainted: [W]=WARN, [O]=OOT_MODULE","PRIORITY":"4"}' >"$T/journal.json"
run -j scan "$T/journal.json"
t "scan journalctl -o json: a field ending MESSAGE keeps its last letter" jq_out -s '[.[].letters] == ["W","W","WO"] and [.[].line] == [1,2,3]'
printf 'Tainted: [W]=WARN, [V]=UNSAFE_BPF\n' >"$T/v.log"
run scan "$T/v.log"
t "scan text: unknown verbose letter with its name" sh -c "[ $rc -eq 0 ] && grep -q '=>  W + unknown letters V (V=UNSAFE_BPF)\$' '$T/out'"
run -j scan "$T/v.log"
t "scan --json: unknown letter and name, mask null (not known), format verbose" jq_out '.unknown_letters == [{"letter":"V","name":"UNSAFE_BPF"}] and .mask == null and .format == "verbose" and .letters == "W"'
# letters "", then "W", then "" again: json-c 0.16 leaks a string set
# empty after it grew (ASan's leak check fails the run)
printf 'Tainted: G\nTainted: G W\nTainted: G\n' >"$T/empty-letters.log"
run -j scan "$T/empty-letters.log"
t "scan --json: letters empty, W, empty again: exit 0, nothing leaked" \
	sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && [ \"\$(jq -sc '[.[].letters]' '$T/out')\" = '[\"\",\"W\",\"\"]' ]"
printf 'CPU: 0 PID: 1 Comm: a Tainted: G        W          Z          Y 6.1\n' >"$T/vendor.log"
run -j scan "$T/vendor.log"
t "scan --json: vendor positions are unknown bits, mask known" jq_out '.unknown_bits == [20, 31] and .mask == (512 + 1048576 + 2147483648) and .unknown_letters == []'
# a FIFO kept open by its writer: the hit must come before it closes
mkfifo "$T/fifo"
"$TAINTCTL" scan "$T/fifo" >"$T/out" 2>"$T/err" &
scan_pid=$!
exec 3>"$T/fifo"
printf 'boot\nCPU: 0 PID: 1 Comm: a Tainted: G        W 6.1 #1\n' >&3
i=0
while [ $i -lt 50 ] && [ ! -s "$T/out" ]; do sleep 0.1; i=$((i + 1)); done
t "scan of a FIFO: the hit is written while the writer keeps it open" grep -q "^$T/fifo:2: Tainted: G        W  =>  W\$" "$T/out"
exec 3>&-
wait $scan_pid; rc=$?
t "scan of a FIFO: exit 0 once the writer closes" rc_is 0
# binary data, NULs and a 3 MiB line
{ printf 'bin\000\000ary Tainted: G    B \000\n'; head -c 3145728 /dev/zero | tr '\0' 'x'; printf ' Tainted: [D]=DIE\n\377\376 Not tainted\n'; } >"$T/bin.log"
run -j scan "$T/bin.log"
t "scan binary + 3 MiB line: 3 hits at lines 1, 2, 3" jq_out -s '[.[].line] == [1,2,3] and [.[].letters] == ["B","D",""]'
# "Modules linked in" letters are not kernel taint
printf 'Modules linked in: zfs(PO) spl(O)\n' >"$T/mod.log"
run scan "$T/mod.log"
t "scan: module letters are not taint" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/out' ]"
# A mapped file truncated during the scan (logrotate's copytruncate): the
# test build's hook truncates it at its first hit; SIGBUS must not kill
# taintctl: exit 3, a message, the hits before, and the next file whole.
# 38 MB: large enough for the thread that fills the page tables ahead
# (source.c) to run meanwhile.
# (The jump out of the library leaks that file's buffers: no leak check.)
awk 'BEGIN { for (i = 1; i <= 250000; i++) if (i % 1000 == 1)
	print "CPU: 0 PID: 1 Comm: a Tainted: G        W          6.1.0 #1";
	else printf "%0150d\n", i }' >"$T/rot.log"
cp "$T/rot.log" "$T/rot2.log"
TAINTCTL_TEST_TRUNCATE_AT_HIT=1 ASAN_OPTIONS=detect_leaks=0 "$TAINTCTL" scan "$T/rot.log" "$T/rot2.log" </dev/null >"$T/out" 2>"$T/err"; rc=$?
t "scan: a file truncated while mapped is exit 3 with a message, not SIGBUS" sh -c "[ $rc -eq 3 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -qxF \"taintctl: '$T/rot.log' shrank while it was read (truncated by another process, as logrotate's copytruncate does): the fields after that point are not reported\" '$T/err'"
t "scan: the hits before the truncation and the next file's all printed" sh -c "[ \$(grep -c '^$T/rot.log:1: ' '$T/out') -eq 1 ] && [ \$(grep -c '^$T/rot2.log:' '$T/out') -eq 250 ] && [ \$(wc -l <'$T/out') -eq 251 ]"
rm -f "$T/rot.log" "$T/rot2.log"

# --- scan: events of reports, real console logs ------------------------------
CON=$TESTDIR/console
# expected: the fixture's own "] Taint X: " lines (tests/console/SOURCES.md)
grep -n '\] Taint [A-Z]: ' "$CON/oops-then-panic.log" | cut -d: -f1 >"$T/ev.lines"
run scan "$CON/oops-then-panic.log"
t "scan console log: one event line per Taint X: line (6), at its line" sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$T/ev.lines') -eq 6 ] && grep ': Taint [A-Z]: ts=' '$T/out' | sed 's/^[^:]*:\([0-9]*\):.*/\1/' | cmp -s - '$T/ev.lines'"
t "scan console log: the oops's events tie to its field (17), the panic's to none" sh -c "[ \$(grep -c 'Taint [BUD]: .*  (report at line 17)\$' '$T/out') -eq 3 ] && [ \$(grep -c 'Taint [BUD]: .*  (no report field)\$' '$T/out') -eq 3 ]"
t "scan console log: the event as a taint_log line, reason escaped" grep -qF "oops-then-panic.log:24: Taint U: ts=7.681353 utc=2026-12-06T22:38:52Z origin=user flags=U new=U pid=51 uid=0 auid=- comm=\"sh\" reason=\"scenario oops-then-panic: RTSJ \\\"raw\\\" memory \\\\ access\"  (report at line 17)" "$T/out"
t "scan console log: the fields as before" sh -c "grep -c '  =>  ' '$T/out' | grep -qx 4"
run -j scan "$CON/oops-then-panic.log"
t "scan --json console log: event objects with file, line, report_line, letter, event" jq_out -s '[.[] | select(.event)] | length == 6 and (map(.letter) | join("")) == "BUDBUD" and map(.report_line) == [17,17,17,null,null,null] and map(.line) == [23,24,25,31,32,33] and all(.[]; (keys | sort) == ["event","file","letter","line","report_line"])'
t "scan --json console log: field objects keep their shape" jq_out -s '[.[] | select(.event | not)] | length == 4 and all(.[]; has("text") and has("letters") and has("tainted") and (has("event") | not))'
# the event object is log --json's for the same taint_log line
EVR=$(mkproc evroot)
echo 0 >"$EVR/proc/sys/kernel/tainted"
sed -n '24s/^.*\] Taint U: //p' "$CON/oops-then-panic.log" >"$EVR/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$EVR" --json log </dev/null | jq -c '.events[0]' >"$T/log.ev"
jq -c 'select(.line == 24) | .event' "$T/out" >"$T/scan.ev"
t "scan --json: an event is log --json's event object" sh -c "[ -s '$T/log.ev' ] && cmp -s '$T/log.ev' '$T/scan.ev'"
run scan "$CON/oops-forged.log"
t "scan: a forged comm stays escaped on its event line, no forged event" sh -c "grep -qF 'comm=\"s\\x0aTaint W: fake\"' '$T/out' && ! grep -q ': Taint W: ' '$T/out'"
run -j scan "$CON/oops-forged.log"
t "scan --json: the forged comm unescaped in the event" jq_out -s '[.[] | select(.letter == "U")][0].event.comm == "s\nTaint W: fake"'
# a pipe (line mode) and gzip give the same lines as the mapped file
run scan "$CON/warn-then-panic.log"
sed "s|^$CON/warn-then-panic.log:|-:|" "$T/out" >"$T/wp.txt"
gzip -c "$CON/warn-then-panic.log" | "$TAINTCTL" scan >"$T/out" 2>"$T/err"; rc=$?
t "scan - of gzip data: the events of the plain file" sh -c "[ $rc -eq 0 ] && [ \$(grep -c ': Taint ' '$T/out') -eq 6 ] && cmp -s '$T/out' '$T/wp.txt'"
cat "$CON/warn-then-panic.log" | "$TAINTCTL" scan >"$T/out" 2>"$T/err"; rc=$?
t "scan - of a pipe: the events of the plain file" sh -c "[ $rc -eq 0 ] && [ \$(grep -c ': Taint ' '$T/out') -eq 6 ] && cmp -s '$T/out' '$T/wp.txt'"
# syslog/journalctl prefixes, CRLF, an event on a last line without newline
sed -e 's/^\[ *\([0-9.]*\)\] /Dec  6 22:38:04 host kernel: /' -e 's/$/\r/' "$CON/warn-then-panic.log" >"$T/journal.log"
printf 'x\n%s' "$(sed -n '14s/^.*\] //p' "$CON/warn-then-panic.log")" >>"$T/journal.log"
run scan "$T/journal.log"
t "scan journalctl-style CRLF log: the same events, and one on a last line without newline" sh -c "[ $rc -eq 0 ] && [ \$(grep -c ': Taint ' '$T/out') -eq 7 ] && grep -q '^$T/journal.log:33: Taint U: ts=7.307156 .*  (no report field)\$' '$T/out'"
# a regular file on stdin from an offset (after a line read by the shell):
# mapped from there, lines counted from there
{ IFS= read -r first; "$TAINTCTL" scan - >"$T/out" 2>"$T/err"; } <"$CON/warn-then-panic.log"; rc=$?
t "scan - of a file at an offset: lines counted from the offset" sh -c "[ $rc -eq 0 ] && grep -q '^-:7: Tainted: G ' '$T/out' && grep -q '^-:13: Taint U: .*(report at line 7)\$' '$T/out'"
run_full scan "$T/two.log"
t "scan >/dev/full: exit 3, one write error message" write_error
seq 0 39999 | awk '{ printf "[ %d.000000] CPU: 0 PID: %d Comm: a Tainted: G        W  O 6.12 #1\n", $1, $1 }' >"$T/many.log"
head_1 scan "$T/many.log"
t "scan | head -1 (40,000 hits): exit 0, nothing on stderr, one line out" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && [ \$(wc -l <'$T/out') -eq 1 ]"
head_1 trap scan "$T/many.log"
t "scan | head -1 with SIGPIPE ignored by the parent: exit 0, nothing on stderr" epipe_ok
head_1 trap --json scan - <"$T/many.log"
t "scan --json - | head -1 with SIGPIPE ignored: exit 0, nothing on stderr" epipe_ok
run -j scan "$T/vendor.log" "$T/v.log" "$T/two.log"
t "scan --json: mask_hex on each hit, null where mask is (unknown letter)" eval 'masks_hex "$T/out" 4 && [ "$(jq -sc "[.[].mask_hex]" "$T/out")" = "[\"0x80100200\",null,\"0x200\",\"0x1281\"]" ]'

tap_done
