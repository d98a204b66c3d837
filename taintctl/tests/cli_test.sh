#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cli_test.sh - CLI-level tests of taintctl, TAP on stdout.
#
# Runs $TAINTCTL (default ../build/taintctl) against fake trees given with
# --root DIR (DIR/proc/sys/kernel/..., DIR/sys/module/...: what a sosreport
# holds), checking exit codes, messages and JSON (parsed with jq; checked
# as UTF-8 by python3).  Never touches /proc or /sys.  The checks on the
# oops corpus are tests/corpus_cli_test.sh.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TAINTCTL=${TAINTCTL:-$HERE/../build/taintctl}
. "$HERE/tap.sh"
tap_need jq:jq python3:python3
tap_init cli
# after a not ok: the last run's stdout and stderr
tap_diag() {
	sed -n '1,5s/^/# stdout: /p' "$T/out"
	sed -n '1,5s/^/# stderr: /p' "$T/err"
}

# run ARGS...: taintctl with stdout/stderr/exit code captured, no stdin
run() { "$TAINTCTL" "$@" </dev/null >"$T/out" 2>"$T/err"; rc=$?; }
# run_in INPUT ARGS...: the same with INPUT (printf format) on stdin
run_in() { i=$1; shift; printf "$i" | "$TAINTCTL" "$@" >"$T/out" 2>"$T/err"; rc=$?; }
# run_full ARGS...: stdout is /dev/full (every write fails with ENOSPC)
run_full() { "$TAINTCTL" "$@" </dev/null >/dev/full 2>"$T/err"; rc=$?; : >"$T/out"; }
write_error() { [ "$rc" -eq 3 ] && [ "$(cat "$T/err")" = "taintctl: write error: No space left on device" ]; }
rc_is() { [ "$rc" -eq "$1" ]; }
jq_out() { [ -s "$T/out" ] && jq -e "$@" "$T/out"; }
# utf8_json [FILE]: FILE (default $T/out), JSON or JSON Lines, is valid
# UTF-8 byte for byte (Python's strict decoder: no stray, overlong or
# surrogate sequence, nothing past U+10FFFF) and parses.  jq cannot tell:
# jq 1.6 replaces invalid bytes by U+FFFD itself.
utf8_json() {
	python3 -c 'import json, sys
text = open(sys.argv[1], "rb").read().decode("utf-8", "strict")
lines = [l for l in text.split("\n") if l.strip()]
assert lines, "empty"
try:
    json.loads(text)
except ValueError:
    for l in lines:
        json.loads(l)' "${1:-$T/out}"
}
err_is() { [ "$(cat "$T/err")" = "$1" ]; }
err_one_line() { [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^taintctl: ' "$T/err"; }
out_has() { grep -q -- "$1" "$T/out"; }

# The binary under test must be the test build, whose live /proc is a
# directory that does not exist (TAINT_LIVE_ROOT): then a test that loses its
# --root fails instead of tainting the machine that runs the tests. Checked
# with a read-only command, before any test that writes.
run status
if ! grep -q "/nonexistent/taintctl-test-build/proc" "$T/err"; then
	echo "Bail out! $TAINTCTL reads the live /proc without --root: use the test build (make check)"
	exit 1
fi

# fake proc roots
. "$HERE/fake_tree.sh"
STOCK=$(mkproc stock)
echo 576 >"$STOCK/proc/sys/kernel/tainted"
PATCHED=$(mkproc patched)
echo 576 >"$PATCHED/proc/sys/kernel/tainted"
: >"$PATCHED/proc/sys/kernel/taint_reason"
cat >"$PATCHED/proc/sys/kernel/taint_log" <<'LOG'
ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm="swapper/0" caller=lkdtm_WARNING+0x1d/0x30 [lkdtm]
ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 comm="sh\x01\"q\\" reason="RTSJ \"physical\" memory access"
ts=4.000000 utc=2026-12-03T08:00:01Z origin=user flags=U new=- pid=78 uid=1000 comm="caf\xc3\xa9\xff"
dropped=5
LOG
# a v2 log (docs/abi.md 1.3): auid=, module= (unquoted, escaped)
V2=$(mkproc v2)
echo 4673 >"$V2/proc/sys/kernel/tainted"
cat >"$V2/proc/sys/kernel/taint_log" <<'LOG'
ts=0.912000 utc=- origin=kernel flags=O new=O pid=88 uid=0 auid=- comm="insmod" module=my\x20mod\\\"x\x01
ts=1.000100 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=1000 comm="cat" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30
ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm="sudo" reason="a \"quoted\" reason"
ts=4.000000 utc=2026-12-03T08:00:01Z origin=user flags=PU new=P pid=78 uid=0 auid=- comm="sh"
dropped=2
LOG
CLEAN=$(mkproc clean)
echo 0 >"$CLEAN/proc/sys/kernel/tainted"

# --- generic ---------------------------------------------------------------
run --help
t "--help exits 0 and documents exit codes" sh -c "[ $rc -eq 0 ] && grep -q 'Exit status' '$T/out' && grep -q '3  permission or system error' '$T/out'"
run --version
t "--version" sh -c "[ $rc -eq 0 ] && grep -q '^taintctl from usertaint ' '$T/out'"
run frobnicate
t "unknown command: exit 2, one-line message" sh -c "[ $rc -eq 2 ] && grep -q \"^taintctl: unknown command 'frobnicate'\" '$T/err'"
run --bogus
t "unknown option: exit 2" rc_is 2
run --deny W status
t "--deny outside check: exit 2" rc_is 2
# each command parses its own options (issue 31), and the command line
# is read as before: an option before the command's name, long options
# abbreviated as getopt_long() allows against every command's options,
# options after operands, "--"
run --allow W --root "$CLEAN" check
t "a command's option before its name: --allow W check" sh -c "[ $rc -eq 0 ] && grep -qx 'ok: no disallowed taint (mask 0)' '$T/out'"
run --root "$CLEAN" check --al W --json
t "a long option's unique prefix: check --al W" jq_out '.ok == true'
run --root "$T/nonexistent" watch --o	# (were it --once: exit 3, no wait)
t "a prefix of two commands' options is ambiguous for each: watch --o (--once, --output)" sh -c "[ $rc -eq 2 ] && [ \"\$(head -1 '$T/err')\" = \"taintctl: unrecognized option '--o'\" ]"
run status --vmcore x
t "an option of another command names it: status --vmcore" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = 'taintctl: --vmcore is an option of the log command' ]"
run decode 4609 -j
t "an option after the operands: decode 4609 -j" jq_out '.mask == 4609'
run decode -- -j
t "after --, -j is an operand: decode -- -j" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = \"taintctl: invalid taint value: '-j' (negative: the kernel refuses it too)\" ]"
LONGROOT=/$(printf '%04100d' 0)
run --root "$LONGROOT" status
t "--root DIR longer than PATH_MAX: exit 2" sh -c "[ $rc -eq 2 ] && grep -q '^taintctl: root directory name too long' '$T/err'"
run --root "$LONGROOT" log --vmcore x
t "log --vmcore with --root DIR too long: --vmcore and --root exclude each other, said first" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = 'taintctl: --vmcore and --root exclude each other' ]"

# --- status ------------------------------------------------------------------
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

# --- decode ------------------------------------------------------------------
run decode 4609 --json
t "decode 4609: P W O" jq_out '[.flags[].letter] == ["P","W","O"] and .mask == 4609'
run -j decode 0x80000
t "decode 0x80000: J = FWCTL" jq_out '.flags[0].letter == "J" and .flags[0].bit == 19 and .flags[0].name == "FWCTL" and .flags[0].description == "userspace used a mutating debug operation in fwctl"'
run -j decode 0x10000000200
t "decode with bit 40: unknown bit, not an error" sh -c "[ $rc -eq 0 ] && [ -s '$T/out' ] && jq -e '.unknown_bits == [40] and ([.flags[].letter] == [\"W\"])' '$T/out'"
run -j decode 18446744073709551615
t "decode 2^64-1: 20 flags and 44 unknown bits" jq_out '(.flags | length) == 20 and (.unknown_bits | length) == 44 and .mask == 18446744073709551615'
run -j decode 'CPU: 0 PID: 4424 Comm: insmod Tainted: P        W  O      4.20.0-0.rc6.fc30 #1'
t "decode a whole CPU: line" jq_out '.mask == 4609'
run -j decode -- Tainted: G        W  OE    --------  ---
t "decode RHEL dashes field given as several operands after --" jq_out '.mask == 12800'
run -j decode '[U]=USER, [W]=WARN'
t "decode verbose list" jq_out '.mask == 576 and .tainted'
run -j decode 'Not tainted'
t "decode Not tainted" jq_out '.mask == 0 and .tainted == false'
run -j decode PWO
t "decode bare letters" jq_out '.mask == 4609'
run decode garbage
t "decode garbage: exit 2, message names input" sh -c "[ $rc -eq 2 ] && grep -q \"'garbage'\" '$T/err' && [ \$(wc -l <'$T/err') -eq 1 ]"
run decode -- -5
t "decode negative: exit 2" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = \"taintctl: invalid taint value: '-5' (negative: the kernel refuses it too)\" ]"
run decode 18446744073709551616
t "decode overflow: exit 2, out of range" sh -c "[ $rc -eq 2 ] && grep -q 'out of range' '$T/err'"
run decode 12abc
t "decode 12abc: exit 2" rc_is 2
# unknown letters (a newer kernel's V) are shown as unknown, never an error
run -j decode 'Tainted: [W]=WARN, [V]=UNSAFE_BPF'
t "decode verbose unknown letter V: exit 0, W known, V unknown with its name" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '.mask == 512 and ([.flags[].letter] == [\"W\"]) and .unknown_letters == [{\"letter\": \"V\", \"name\": \"UNSAFE_BPF\"}] and .unknown_bits == []' '$T/out'"
run decode 'Tainted: [W]=WARN, [V]=UNSAFE_BPF'
t "decode verbose unknown letter: text names V and UNSAFE_BPF" sh -c "[ $rc -eq 0 ] && grep -q '^Tainted: W + unknown letters V (V=UNSAFE_BPF)' '$T/out' && grep -q '^  V  bit ?   UNSAFE_BPF ' '$T/out'"
run decode 'Tainted: G W V'
t "decode fixed unknown letter V: exit 0, shown as unknown" sh -c "[ $rc -eq 0 ] && grep -q '^Tainted: W + unknown letters V ' '$T/out' && grep -q '^  V  bit ?   (unknown) ' '$T/out'"
run -j decode 'Tainted: G    Q'
t "decode --json fixed unknown letter: unknown_letters, name null" jq_out '.unknown_letters == [{"letter": "Q", "name": null}] and .mask == 0 and .tainted'
run -j decode 4609
t "decode a number: unknown_letters is an empty array" jq_out '.unknown_letters == [] and .mask == 4609'
# prose is not a field
for p in "Tainted: I didn't know" 'The report said Tainted: P but the log was cut' 'Tainted: yes'; do
	run decode "$p"
	t "decode prose '$p': exit 2, not decoded" sh -c "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && grep -q 'not a kernel' '$T/err'"
done
run decode
t "decode without operand: exit 2" rc_is 2
run decode "  "
t "decode blank operand: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'empty' '$T/err'"
run decode "$(printf 'a\001b')"
t "decode with control byte: message stays one line" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ]"

# issue 28 item 7: flag names as check takes them; a line mixing numbers
# and words is read word by word, only the wrong word refused
run -j decode PROPRIETARY_MODULE,WARN
t "decode PROPRIETARY_MODULE,WARN: P and W, exit 0" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '.mask == 513 and ([.flags[].letter] == [\"P\",\"W\"])' '$T/out' >/dev/null"
run -j decode proprietary_module taint_warn
t "decode names in any case, TAINT_ prefix, blank-separated operands: one value" jq_out '.mask == 513 and .input == "proprietary_module taint_warn"'
run -j decode DIE
t "decode DIE: the flag D (a name is read as the name, as check does)" jq_out '.mask == 128'
run -j decode P,W
t "decode P,W: letters in check's comma list" jq_out '.mask == 513'
run decode WARN,xyz
t "decode WARN,xyz: exit 2, the wrong item and its offset named, nothing decoded" sh -c "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot decode 'xyz' in 'WARN,xyz' (at offset 5): not a number, a flag name or flag letters\" ]"
run -j decode 0x40 xyz
t "decode 0x40 xyz: exit 2, only xyz refused, at offset 5" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot decode 'xyz' in '0x40 xyz' (at offset 5): not a number, a flag name or flag letters\" ]"
t "decode 0x40 xyz: 0x40 still decoded (U)" jq_out '.mask == 64 and .input == "0x40"'
run -j decode 0x40 WARN PWO
t "decode 0x40 WARN PWO: one value per word" jq_out -s '[.[].mask] == [64, 512, 4609] and [.[].input] == ["0x40", "WARN", "PWO"]'
run decode 0x40 PWQ
t "decode 0x40 PWQ: an unknown letter in a word is shown, not refused" sh -c "[ $rc -eq 0 ] && grep -q '^Tainted: PW + unknown letters Q ' '$T/out'"
printf '4609\nWARN,DIE\n0x1 bogus\n' | "$TAINTCTL" -j decode >"$T/out" 2>"$T/err"; rc=$?
t "decode from stdin: names per line; the wrong word named with its line and offset" sh -c "[ $rc -eq 2 ] && jq -s -e '[.[].mask] == [4609, 640, 1] and [.[].line] == [1, 2, 3]' '$T/out' >/dev/null && [ \"\$(cat '$T/err')\" = \"taintctl: (standard input):3: cannot decode 'bogus' in '0x1 bogus' (at offset 4): not a number, a flag name or flag letters\" ]"

# --- scan --------------------------------------------------------------------
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
# is still told by the magic (test_decompress.c does it deterministically)
printf 'boot\nCPU: 0 PID: 1 Comm: a Tainted: G        W 6.1 #1\nCPU: 1 PID: 2 Comm: b Tainted: P      D W  O      6.1.0 #1\n' >"$T/two.log"
"$TAINTCTL" scan - <"$T/two.log" >"$T/two.txt" 2>&1
for z in gzip xz zstd; do
	$z -c <"$T/two.log" >"$T/two.$z"
	(head -c 1 "$T/two.$z"; sleep 0.3; tail -c +2 "$T/two.$z") | "$TAINTCTL" scan - >"$T/out" 2>"$T/err"; rc=$?
	t "scan - of $z data arriving 1 byte first: the hits of the plain log" sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$T/two.txt') -eq 2 ] && cmp -s '$T/out' '$T/two.txt'"
done
# item 2: a verbose list ending in ',' does not swallow the next report
printf 'CPU: 0 Comm: a Tainted: [W]=WARN,\nCPU: 1 Comm: b Tainted: [D]=DIE, [O]=OOT_MODULE 6.12 #1\n' >"$T/cont.log"
run scan "$T/cont.log"
t "scan: a trailing ',' stops at the next line's own field (2 hits)" sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$T/out')\" = \"\$(printf '%s\n' '$T/cont.log:1: Tainted: [W]=WARN  =>  W' '$T/cont.log:2: Tainted: [D]=DIE, [O]=OOT_MODULE  =>  DO')\" ]"
# item 4: prose, NBSP pastes, journalctl -o json
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
# item 1: a FIFO kept open by its writer: the hit must come before it closes
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

# --- scan: events of reports (issue 28 item 4), real console logs -------------
CON=$HERE/console
# expected: the fixture's own "] Taint X: " lines (tests/console/SOURCES.md)
grep -n '\] Taint [A-Z]: ' "$CON/oops-then-panic.log" | cut -d: -f1 >"$T/ev.lines"
run scan "$CON/oops-then-panic.log"
t "scan console log: one event line per Taint X: line, at its line" sh -c "[ $rc -eq 0 ] && grep ': Taint [A-Z]: ts=' '$T/out' | sed 's/^[^:]*:\([0-9]*\):.*/\1/' | cmp -s - '$T/ev.lines'"
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
t "scan - of a pipe: the events of the plain file" sh -c "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/wp.txt'"
# syslog/journalctl prefixes, CRLF, an event on a last line without newline
sed -e 's/^\[ *\([0-9.]*\)\] /Dec  6 22:38:04 host kernel: /' -e 's/$/\r/' "$CON/warn-then-panic.log" >"$T/journal.log"
printf 'x\n%s' "$(sed -n '14s/^.*\] //p' "$CON/warn-then-panic.log")" >>"$T/journal.log"
run scan "$T/journal.log"
t "scan journalctl-style CRLF log: the same events, and one on a last line without newline" sh -c "[ $rc -eq 0 ] && [ \$(grep -c ': Taint ' '$T/out') -eq 7 ] && grep -q '^$T/journal.log:33: Taint U: ts=7.307156 .*  (no report field)\$' '$T/out'"
# a regular file on stdin from an offset (after a line read by the shell):
# mapped from there, lines counted from there
{ IFS= read -r first; "$TAINTCTL" scan - >"$T/out" 2>"$T/err"; } <"$CON/warn-then-panic.log"; rc=$?
t "scan - of a file at an offset: lines counted from the offset" sh -c "[ $rc -eq 0 ] && grep -q '^-:7: Tainted: G ' '$T/out' && grep -q '^-:13: Taint U: .*(report at line 7)\$' '$T/out'"

# --- mark --------------------------------------------------------------------
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

# --- log ---------------------------------------------------------------------
run --root "$PATCHED" log --json
t "log --json: 3 events, dropped 5" jq_out '(.events | length) == 3 and .dropped == 5'
t "log --json: reason and comm unescaped" jq_out '.events[1].reason == "RTSJ \"physical\" memory access" and .events[1].comm == "sh\u0001\"q\\" and .events[1].pid == 77 and .events[1].uid == 0 and .events[1].ts == "3.123456" and .events[1].utc == "2026-12-03T08:00:00Z" and .events[1].new == "U"'
t "log --json: invalid UTF-8 becomes U+FFFD, valid kept" jq_out '.events[2].comm == "café\ufffd" and .events[2].new == "" and .events[2].uid == 1000'
t "log --json: the output is valid UTF-8 byte for byte (strict decoder)" utf8_json
# Each kind of invalid sequence (every byte of it is one U+FFFD) and the
# valid ones at the edges of each length, one event each; expected strings
# from the UTF-8 definition (RFC 3629), not from taintctl.
U8=$(mkproc utf8); echo 64 >"$U8/proc/sys/kernel/tainted"
i=0
for c in 'a\xc0\x80b' '\xc1\xbf' '\xe0\x80\x80' '\xed\xa0\x80' '\xf0\x80\x80\x80' \
	 '\xf4\x90\x80\x80' '\xf5\x80\x80\x80' '\xe2\x82x' 'end\xc3' '\x80\xbf' \
	 '\xc2\x80\xdf\xbf' '\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80' '\xf0\x90\x80\x80\xf4\x8f\xbf\xbf'; do
	i=$((i + 1))
	printf 'ts=%d.000000 utc=- origin=user flags=U new=- pid=%d uid=0 comm="%s"\n' "$i" "$i" "$c"
done >"$U8/proc/sys/kernel/taint_log"
run --root "$U8" log --json
t "log --json: invalid UTF-8 of every kind: valid UTF-8 out (strict decoder)" utf8_json
t "log --json: each invalid byte one U+FFFD, valid sequences at the edges kept" jq_out '[.events[].comm] == ["a\ufffd\ufffdb", "\ufffd\ufffd", "\ufffd\ufffd\ufffd", "\ufffd\ufffd\ufffd", "\ufffd\ufffd\ufffd\ufffd", "\ufffd\ufffd\ufffd\ufffd", "\ufffd\ufffd\ufffd\ufffd", "\ufffd\ufffdx", "end\ufffd", "\ufffd\ufffd", "\u0080\u07ff", "\u0800\ud7ff\ue000", "\ud800\udc00\udbff\udfff"]'
t "log --json of a v1 log: no auid, no module" jq_out 'all(.events[]; (has("auid") or has("module")) | not)'
run --root "$PATCHED" log
t "log text: events and dropped count" sh -c "[ $rc -eq 0 ] && grep -q 'reason=\"RTSJ' '$T/out' && grep -q 'dropped: 5' '$T/out'"
run --root "$V2" log --json
t "log --json v2: 4 events, dropped 2, exit 0, no warning" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '(.events | length) == 4 and .dropped == 2' '$T/out'"
t "log --json v2: auid a number, null for auid=-" jq_out '[.events[] | .auid] == [null, 1000, 1000, null] and all(.events[]; has("auid"))'
t "log --json v2: module unescaped, on a line without caller" jq_out '.events[0] | .module == "my mod\\\"x\u0001" and (has("caller") | not) and (has("reason") | not)'
t "log --json v2: module and caller on the WARN line" jq_out '.events[1] | .module == "lkdtm" and .caller == "lkdtm_WARNING+0x1d/0x30" and .pid == 312'
t "log --json v2: user lines have neither module nor caller, reason unescaped" jq_out '(.events[2:] | all(.[]; (has("module") or has("caller")) | not)) and .events[2].reason == "a \"quoted\" reason" and (.events[3] | has("reason") | not) and .events[3].flags == "PU" and .events[3].new == "P"'
run --root "$V2" status --json
t "status --json v2: events carry auid and module" sh -c "[ $rc -eq 0 ] && jq -e '.mask == 4673 and (.events | length) == 4 and .events[0].auid == null and .events[0].module == \"my mod\\\\\\\"x\\u0001\" and .events[2].auid == 1000' '$T/out'"
run --root "$V2" log
t "log text v2: auid and escaped module shown" sh -c "[ $rc -eq 0 ] && grep -q 'auid=- comm=\"insmod\" module=my\\\\x20mod\\\\\\\\\\\\\"x\\\\x01\$' '$T/out' && grep -q 'auid=1000 comm=\"cat\" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30\$' '$T/out' && grep -q 'dropped: 2' '$T/out'"
run --root "$V2" status
t "status text v2: auid and module shown" sh -c "[ $rc -eq 0 ] && grep -q 'auid=1000 comm=\"sudo\" reason=' '$T/out' && grep -q 'module=lkdtm caller=' '$T/out'"
run --root "$STOCK" log
t "log on stock kernel: says so plainly, exit 0" sh -c "[ $rc -eq 0 ] && grep -q 'No taint log' '$T/out'"
run --root "$STOCK" log --json
t "log --json on stock kernel: empty log + stderr note" sh -c "[ $rc -eq 0 ] && jq -e '.events == [] and .dropped == 0' '$T/out' && [ -s '$T/err' ]"
MAL=$(mkproc mal); echo 0 >"$MAL/proc/sys/kernel/tainted"
printf 'ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm="a"\nthis is not an event\nts=2.000000 utc=- origin=user flags=U new=- pid=1 uid=0 comm="b" future="x"\n' >"$MAL/proc/sys/kernel/taint_log"
run --root "$MAL" log --json
t "log with a malformed line: exit 3, error names line 2" sh -c "[ $rc -eq 3 ] && grep -q 'taint_log:2: malformed line' '$T/err'"
t "log with a malformed line: good events still printed" jq_out '(.events | length) == 2'
t "log with an unknown field: warning names line 3 and field" grep -q "taint_log:3: unknown field 'future'" "$T/err"
# issue 28 item 5: log FILE, log -: a saved taint_log, the same parser and
# output as the live one, byte for byte (stdout, stderr, exit code)
same_as_live() {	# ROOT [--json]: log FILE and log - equal log --root ROOT
	f=$1/proc/sys/kernel/taint_log
	"$TAINTCTL" --root "$1" log ${2:-} >"$T/live.out" 2>"$T/live.err"; lrc=$?
	"$TAINTCTL" log ${2:-} "$f" >"$T/file.out" 2>"$T/file.err"; frc=$?
	cat "$f" | "$TAINTCTL" log ${2:-} - >"$T/pipe.out" 2>"$T/pipe.err"; prc=$?
	[ -s "$T/live.out" ] && [ $lrc -eq $frc ] && [ $lrc -eq $prc ] &&
		cmp -s "$T/live.out" "$T/file.out" && cmp -s "$T/live.out" "$T/pipe.out" &&
		cmp -s "$T/live.err" "$T/file.err" &&
		sed "s|(standard input):|$f:|" "$T/pipe.err" | cmp -s - "$T/live.err"
}
for r in V2 PATCHED; do
	eval "root=\$$r"
	t "log FILE and log - of $r's taint_log: what log --root prints, byte for byte" same_as_live "$root"
	t "log --json FILE and log --json - of $r's taint_log: the same as live, byte for byte" same_as_live "$root" --json
done
t "log FILE with a malformed line: the same errors, events and exit code 3 as live" eval 'same_as_live "$MAL" --json && [ $frc -eq 3 ] && grep -q "taint_log:2: malformed line" "$T/file.err"'
for z in gzip xz zstd; do
	$z -c <"$V2/proc/sys/kernel/taint_log" >"$T/saved.$z"
	"$TAINTCTL" --root "$V2" log --json >"$T/live.out"
	run --json log "$T/saved.$z"
	t "log FILE of $z data: decompressed, the same as live" sh -c "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/live.out'"
done
cat "$T/saved.gzip" | "$TAINTCTL" --json log - >"$T/out" 2>"$T/err"; rc=$?
t "log - of gzip data on a pipe: the same as live" sh -c "[ $rc -eq 0 ] && cmp -s '$T/out' '$T/live.out'"
head -c 40 "$T/saved.xz" >"$T/trunc.xz"
run log "$T/trunc.xz"
t "log FILE of truncated xz data: exit 3, one line naming it" sh -c "[ $rc -eq 3 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q \"^taintctl: cannot read '$T/trunc.xz': .*xz\" '$T/err'"
printf 'Dec  7 00:00:01 host kernel: hello\nworld\n' >"$T/notlog.txt"
run log "$T/notlog.txt"
t "log FILE that is not a taint log: exit 3, one line (not one per line), nothing on stdout" sh -c "[ $rc -eq 3 ] && [ ! -s '$T/out' ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q \"^taintctl: '$T/notlog.txt' is not a taint log: no line of it is a taint_log event (line 1: \" '$T/err'"
: >"$T/empty.log"
run log "$T/empty.log"
t "log FILE empty: an empty log, exit 0" sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$T/out')\" = 'No taint events recorded.' ]"
run log "$T/missing.log"
t "log FILE missing: exit 3, cannot open" sh -c "[ $rc -eq 3 ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot open '$T/missing.log': No such file or directory\" ]"
run log "$T/empty.log" "$T/notlog.txt"
t "log with two FILEs: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'log reads one saved log' '$T/err'"
run --root "$V2" log "$T/empty.log"
t "log FILE with --root: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'excludes --root' '$T/err'"
run log --vmcore "$T/empty.log" "$T/empty.log"
t "log FILE with --vmcore: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'excludes --vmcore' '$T/err'"

# --- check -------------------------------------------------------------------
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
UNK=$(mkproc unk); echo $((1 << 40 | 512)) >"$UNK/proc/sys/kernel/tainted"
run --root "$UNK" -j check --allow W
t "check --allow W with unknown bit 40: exit 1" sh -c "[ $rc -eq 1 ] && jq -e '.disallowed_unknown_bits == [40]' '$T/out'"
run --root "$UNK" -j check --deny U
t "check --deny U with unknown bit 40: exit 0" rc_is 0
run --root "$T/nonexistent" check
t "check without proc files: exit 3" rc_is 3
# issue 28 item 3: a FLAGS without a flag is a usage error; none is the
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

# --- status: modules, taint log state (issue taintctl v2, items 7 and 10) ----
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
UNREAD=$(mkproc unread); echo 512 >"$UNREAD/proc/sys/kernel/tainted"
mkdir "$UNREAD/proc/sys/kernel/taint_log"	# root reads a 0400 file: EISDIR stands in
run --root "$UNREAD" status --json
t "status --json with an unreadable log says so (not an empty log)" sh -c "[ $rc -eq 0 ] && jq -e '.taint_log == \"unreadable\" and .taint_log_error == \"Is a directory\" and .events == []' '$T/out' && grep -q 'warning: cannot read' '$T/err'"
EMPTYLOG=$(mkproc emptylog); echo 512 >"$EMPTYLOG/proc/sys/kernel/tainted"; : >"$EMPTYLOG/proc/sys/kernel/taint_log"
run --root "$EMPTYLOG" status --json
t "status --json with an empty log: taint_log ok, no events" jq_out '.taint_log == "ok" and .events == []'

# --- --root (item 8) ---------------------------------------------------------
run --root "$STOCK" log
t "log --root reads DIR/proc/sys/kernel/taint_log" sh -c "[ $rc -eq 0 ] && grep -q \"'$STOCK/proc/sys/kernel/taint_log' does not exist\" '$T/out'"
TAINTCTL_PROC=$CLEAN/proc run --root "$STOCK" status --json
t "--root wins, TAINTCTL_PROC is not read any more" jq_out '.mask == 576'
TAINTCTL_PROC=$STOCK/proc run status --root
t "--root without DIR: exit 2" sh -c "[ $rc -eq 2 ] && grep -q \"option '--root' requires an argument\" '$T/err'"

# --- decode: stdin, several values, kernel numbers, -1 (item 9) ---------------
run_in '4609\n' decode --json
t "decode reads standard input without an operand" jq_out '.mask == 4609 and .input == "4609" and .line == 1'
run_in '576' decode - --json
t "decode - reads standard input" jq_out '.mask == 576'
run -J decode 4609 512
t "decode 4609 512: one JSON object per value (JSON Lines)" jq_out -s '[.[].mask] == [4609, 512] and [.[].input] == ["4609", "512"] and all(.[]; has("line") | not)'
run decode 4609 512
t "decode 4609 512: text, one block per value after an Input: line" sh -c "[ $rc -eq 0 ] && [ \$(grep -c '^Input: ' '$T/out') -eq 2 ] && grep -q '^Tainted: PWO (mask 4609' '$T/out' && grep -q '^Tainted: W (mask 512' '$T/out'"
run decode 4609
t "decode of one value: no Input: line (output as before)" sh -c "[ $rc -eq 0 ] && ! grep -q '^Input' '$T/out' && [ \"\$(sed -n 1p '$T/out')\" = 'Tainted: PWO (mask 4609, 0x1201)' ]"
run -j decode 01201 0x1201 1201 00
t "decode reads numbers as the kernel does: 01201 is octal" jq_out -s '[.[].mask] == [641, 4609, 1201, 0]'
run decode 08
t "decode 08: exit 2, says a leading 0 is octal" sh -c "[ $rc -eq 2 ] && grep -q \"invalid taint value: '08' (a leading 0 means octal\" '$T/err'"
run decode 000000000000000001201
t "decode of 21 characters: exit 2, the kernel refuses it" sh -c "[ $rc -eq 2 ] && grep -q 'more than 20 characters' '$T/err'"
run decode -1
t "decode -1: a value (refused as the kernel does), not an option" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = \"taintctl: invalid taint value: '-1' (negative: the kernel refuses it too)\" ]"
run -j decode 4609 08 512
t "decode with one bad value: the others decoded, exit 2" sh -c "[ $rc -eq 2 ] && jq -e -s '[.[].mask] == [4609, 512]' '$T/out' && [ \$(wc -l <'$T/err') -eq 1 ]"
run_in 'log start\nCPU: 0 PID: 1 Comm: a Tainted: G        W          6.1.0 #1\nmore\nCPU: 1 PID: 2 Comm: b Tainted: P      D W  O      6.1.0 #1\n' -j decode
t "decode of a pasted excerpt: every field, with its line" jq_out -s '[.[].mask] == [512, 4737] and [.[].line] == [2, 4] and .[1].input == "Tainted: P      D W  O"'
run_in '4609\n\n512 0x40\n' -j decode
t "decode of stdin without a field: numbers line by line" jq_out -s '[.[].mask] == [4609, 512, 64] and [.[].line] == [1, 3, 3]'
run_in 'PWO\n[U]=USER, [W]=WARN\n' -j decode
t "decode of stdin without a field: letters and verbose lists" jq_out -s '[.[].mask] == [4609, 576]'
# unknown letters are shown, not refused (t12-scan), in every value's block
run_in 'Tainted: G W\ngarbage Tainted: G    Q\n' decode
t "decode of stdin: an unknown letter is shown under its line, exit 0" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && grep -q '^Tainted: W (mask 512' '$T/out' && grep -q '^Input (line 2): Tainted: G    Q\$' '$T/out' && grep -q '^Tainted: - + unknown letters Q ' '$T/out' && grep -q '^  Q  bit ?   (unknown) ' '$T/out'"
run_in 'CPU: 0 Comm: a Tainted: [W]=WARN, [V]=UNSAFE_BPF\n4609\n' -j decode
t "decode --json of stdin: unknown_letters in each object, with input and line" jq_out -s 'length == 1 and .[0].unknown_letters == [{"letter": "V", "name": "UNSAFE_BPF"}] and .[0].mask == 512 and .[0].line == 1 and .[0].input == "Tainted: [W]=WARN, [V]=UNSAFE_BPF"'
run -j decode 'Tainted: [W]=WARN, [V]=UNSAFE_BPF' 'Tainted: P        W  O'
t "decode --json of two fields: unknown_letters per value" jq_out -s '[.[].mask] == [512, 4609] and [.[].unknown_letters | length] == [1, 0]'
run_in 'PWQ\n' decode
t "decode of letters without a marker: unknown letter Q shown, exit 0" sh -c "[ $rc -eq 0 ] && grep -q '^Tainted: PW + unknown letters Q ' '$T/out'"
run_in 'Tainted: yes\n' decode
t "decode of prose on stdin: exit 2, line named, not a kernel field" sh -c "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && grep -q \"^taintctl: (standard input):1: cannot decode 'Tainted: yes': 'Tainted:' is followed by prose, not a kernel\" '$T/err'"
run_in 'garbage\n' decode
t "decode of garbage on stdin: exit 2, line named" sh -c "[ $rc -eq 2 ] && grep -q \"^taintctl: (standard input):1: cannot decode 'garbage'\" '$T/err'"
run_in '' decode
t "decode of empty stdin: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'standard input is empty' '$T/err'"

# --- check --value/--from, names, -J (item 10) --------------------------------
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
# --- check --from reads logs with the scanner (taintctl v3 item 2) -------------
# a healthy machine's dmesg: no field, words that are not values
printf '[    0.000000] Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org)\n[    0.000000] Command line: BOOT_IMAGE=/vmlinuz DONE\n[    1.234567] ACPI: PM: DONE\n' >"$T/none.log"
run check --from "$T/none.log" --deny DW
t "check --from a log without a Tainted: field: exit 0, says so" sh -c "[ $rc -eq 0 ] && grep -q \"^ok: no Tainted: field in '$T/none.log' (the last boot of 1, from line 1)\$\" '$T/out' && [ ! -s '$T/err' ]"
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
t "check --from a log of 3 boots: the last is judged (D of boot 1 passes)" sh -c "[ $rc -eq 0 ] && grep -q 'judged: 1 Tainted: field in .*, the last at line 7 (the last boot of 3, from line 6)' '$T/out'"
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
run decode --value 5
t "--value outside check: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'options of the check command' '$T/err'"
run -J decode 4609
t "-J is --json" jq_out '.mask == 4609'
run --root "$STOCK" status -J
t "-J after the command" jq_out '.mask == 576'

# --- write errors on standard output (item 10) --------------------------------
run_full decode 4609
t "decode >/dev/full: exit 3, write error" write_error
run_full --json decode 4609
t "decode --json >/dev/full: exit 3" write_error
run_full --root "$PATCHED" status
t "status >/dev/full: exit 3" write_error
run_full --root "$PATCHED" log --json
t "log --json >/dev/full: exit 3" write_error
run_full --root "$STOCK" check --allow UW
t "check >/dev/full: exit 3 (not 0)" write_error
run_full --root "$STOCK" check
t "check >/dev/full with taint: exit 3 (not 1)" write_error
run_full --help
t "--help >/dev/full: exit 3" write_error
run_full --version
t "--version >/dev/full: exit 3" write_error
run_full scan "$T/oops.log"
t "scan >/dev/full: exit 3, one write error message" write_error
# SIGPIPE ignored and the reader gone before the write: EPIPE, not reported
(trap '' PIPE; sleep 0.3; exec "$TAINTCTL" decode 4609) 2>"$T/err" | true
t "decode into a closed pipe (EPIPE): no write error message, as util-linux" sh -c "[ -f '$T/err' ] && ! grep -q 'write error' '$T/err'"
# issue 28 item 7: a reader that went away (EPIPE) is not an error for any
# command: nothing said, the command's own exit status (0 here; check's
# verdict stays), whether the parent left SIGPIPE at its default or
# ignored it; taintctl's own status under bash's pipefail
# head_1 [trap] ARGS...: taintctl ARGS | head -1; $rc: taintctl's status
# pipefail-ok: the reader that stops early is what these tests are about,
# and no timing decides them: taintctl must exit 0 whether head has gone
# before its write (EPIPE) or not (outputs over the pipe's 64 KiB, so it
# has gone in every run), and only taintctl's status is judged
head_1() {
	tr=; [ "$1" = trap ] && { tr="trap '' PIPE;"; shift; }
	bash -o pipefail -c "$tr"' "$@" 2>"$E" | head -1 >"$O"' bash "$TAINTCTL" "$@"; rc=$?
}
# gone ARGS...: the reader has exited before taintctl writes (small outputs)
gone() { bash -o pipefail -c '{ sleep 0.5; exec "$@"; } 2>"$E" | true' bash "$TAINTCTL" "$@"; rc=$?; }
export E="$T/err" O="$T/out"
epipe_ok() { [ $rc -eq "${1:-0}" ] && [ ! -s "$T/err" ]; }
seq 0 39999 | awk '{ printf "[ %d.000000] CPU: 0 PID: %d Comm: a Tainted: G        W  O 6.12 #1\n", $1, $1 }' >"$T/many.log"
head_1 scan "$T/many.log"
t "scan | head -1 (40,000 hits): exit 0, nothing on stderr, one line out" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && [ \$(wc -l <'$T/out') -eq 1 ]"
head_1 trap scan "$T/many.log"
t "scan | head -1 with SIGPIPE ignored by the parent: exit 0, nothing on stderr" epipe_ok
head_1 trap --json scan - <"$T/many.log"
t "scan --json - | head -1 with SIGPIPE ignored: exit 0, nothing on stderr" epipe_ok
seq 1 60000 >"$T/values"
head_1 trap decode - <"$T/values"
t "decode - | head -1 (60,000 values): exit 0, nothing on stderr" epipe_ok
BIGLOG=$(mkproc biglog); echo 64 >"$BIGLOG/proc/sys/kernel/tainted"
seq 0 19999 | awk '{ printf "ts=%d.000000 utc=- origin=user flags=U new=- pid=%d uid=0 comm=\"sh\" reason=\"r\"\n", $1, $1 }' >"$BIGLOG/proc/sys/kernel/taint_log"
head_1 trap log "$BIGLOG/proc/sys/kernel/taint_log"
t "log FILE | head -1 (20,000 events): exit 0, nothing on stderr" epipe_ok
head_1 trap --root "$BIGLOG" status
t "status | head -1 (20,000 events): exit 0, nothing on stderr" epipe_ok
gone --root "$CLEAN" check
t "check into a gone reader: its verdict (0), nothing on stderr" epipe_ok
gone --root "$STOCK" check
t "check with taint into a gone reader: its verdict (1), not 3" epipe_ok 1
gone --root "$V2" metrics
t "metrics into a gone reader: exit 0, nothing on stderr" epipe_ok
gone --root "$V2" metrics -o /dev/stdout
t "metrics -o /dev/stdout into a gone reader: exit 0, nothing on stderr" epipe_ok
gone --help
t "--help into a gone reader: exit 0, nothing on stderr" epipe_ok

# --- watch, metrics, cursor, check --since (issue 11) ------------------------
# wait_for FILE PATTERN: until a line of FILE matches PATTERN (at most 5 s)
wait_for() {
	i=0
	while [ $i -lt 50 ] && ! grep -q -- "$2" "$1" 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	grep -q -- "$2" "$1"
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
EV5='ts=5.000000 utc=2026-12-03T08:01:00Z origin=user flags=U new=- pid=90 uid=0 auid=1000 comm="make" reason="watch test"'
EV6='ts=6.000000 utc=2026-12-03T08:02:00Z origin=kernel flags=D new=D pid=91 uid=0 auid=- comm="kworker/0:1" module=lkdtm caller=lkdtm_BUG+0x9/0x10'
EV45='ts=4.500000 utc=2026-12-03T08:00:30Z origin=kernel flags=L new=L pid=0 uid=0 auid=- comm="swapper/1" caller=watchdog_timer_fn+0x1f0/0x260'

WATCH=$(mkproc watch)
echo 4673 >"$WATCH/proc/sys/kernel/tainted"
cp "$V2/proc/sys/kernel/taint_log" "$WATCH/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$WATCH" watch --interval 0.2 >"$T/w.out" 2>"$T/w.err" &
wpid=$!; guard $wpid
started $wpid
t "watch: the events already logged are not printed" sh -c "[ ! -s '$T/w.out' ]"
# issue 28 item 7: the fall-back to re-reading is said once, at the start
t "watch on files not on procfs: one notice on stderr at the start, with the interval and why" sh -c "[ \"\$(cat '$T/w.err')\" = \"taintctl: warning: '$WATCH/proc/sys/kernel/tainted' is not on procfs (a copied tree), which cannot signal changes: re-reading every 0.200 s\" ]"
# the log gains a line (the slot of dropped=2 stays last)
sed -i "\$i $EV5" "$WATCH/proc/sys/kernel/taint_log"
t "watch (interval mode, fake root): an appended event is printed" wait_for "$T/w.out" 'reason="watch test"'
"$TAINTCTL" --root "$WATCH" log | grep 'reason="watch test"' >"$T/want"
t "watch: the event line is the one 'log' prints" sh -c "grep 'reason=\"watch test\"' '$T/w.out' | cmp -s - '$T/want'"
# a slot claimed earlier, published later: it appears before the last line
sed -i "\$i $EV6" "$WATCH/proc/sys/kernel/taint_log"
set_mask "$WATCH" $((4673 | 128))
sleep 0.1
sed -i "/^ts=5.000000/i $EV45" "$WATCH/proc/sys/kernel/taint_log"
set_mask "$WATCH" $((4673 | 128 | 16384))
t "watch: an event published between printed lines is printed once" sh -c "wait_() { :; }; i=0; while [ \$i -lt 50 ] && ! grep -q 'watchdog_timer_fn' '$T/w.out'; do sleep 0.1; i=\$((i+1)); done; [ \$(grep -c 'watchdog_timer_fn' '$T/w.out') -eq 1 ] && [ \$(grep -c 'lkdtm_BUG' '$T/w.out') -eq 1 ]"
# a flag newly set without an event (the fake kernel records none)
set_mask "$WATCH" $((4673 | 128 | 16384 | 2))
t "watch: a newly set flag without an event gets its own line" wait_for "$T/w.out" '^flag set, no taint_log event:  F  bit 1 '
sed -i 's/^dropped=2$/dropped=5/' "$WATCH/proc/sys/kernel/taint_log"
t "watch: a grown dropped count is printed" wait_for "$T/w.out" '^dropped: 3 more user request(s) not kept (log full; 5 in all)$'
sleep 0.5
kill -TERM $wpid; wait $wpid; rc=$?; unguard
t "watch: SIGTERM ends it with exit 0" rc_is 0
t "watch: 5 lines in all, nothing printed twice, nothing on stderr but the one notice" sh -c "[ \$(wc -l <'$T/w.out') -eq 5 ] && [ \$(sort '$T/w.out' | uniq -d | wc -l) -eq 0 ] && [ \$(wc -l <'$T/w.err') -eq 1 ] && grep -q 'is not on procfs' '$T/w.err'"

# default interval (1 s): how long until an appended event is printed
WL=$(mkproc watchlat)
echo 64 >"$WL/proc/sys/kernel/tainted"; : >"$WL/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$WL" watch --once >"$T/wl.out" 2>"$T/wl.err" &
wpid=$!; guard $wpid
started $wpid
sleep 0.5
t0=$(now_ms)
echo "$EV5" >>"$WL/proc/sys/kernel/taint_log"
i=0; while [ $i -lt 100 ] && [ ! -s "$T/wl.out" ]; do sleep 0.02; i=$((i + 1)); done
lat=$(($(now_ms) - t0))
wait $wpid; rc=$?; unguard
echo "# watch latency, interval mode, default --interval 1: ${lat} ms"
t "watch --once (default interval 1 s): the event within 1.5 s (${lat} ms), then exit 0" sh -c "[ $rc -eq 0 ] && [ $lat -le 1500 ] && grep -q 'reason=\"watch test\"' '$T/wl.out' && [ \$(wc -l <'$T/wl.out') -eq 1 ]"

# --json: JSON Lines, the log --json event shape plus "type"
WJ=$(mkproc watchjson)
echo 4673 >"$WJ/proc/sys/kernel/tainted"
cp "$V2/proc/sys/kernel/taint_log" "$WJ/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$WJ" -J watch --once -n 0.1 >"$T/wj.out" 2>"$T/wj.err" &
wpid=$!; guard $wpid
started $wpid
sed -i "\$i $EV6" "$WJ/proc/sys/kernel/taint_log"
wait $wpid; rc=$?; unguard
"$TAINTCTL" --root "$WJ" log --json | jq -c '.events[-1] + {type: "event"}' >"$T/want"
t "watch --json --once: exit 0, one JSON line" sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$T/wj.out') -eq 1 ] && jq -e . '$T/wj.out' >/dev/null"
t "watch --json: the re-reading notice on stderr only, stdout pure JSON Lines" sh -c "[ \$(wc -l <'$T/wj.err') -eq 1 ] && grep -q 're-reading every 0.100 s\$' '$T/wj.err' && ! grep -qv '^{' '$T/wj.out'"
t "watch --json: the event object of log --json, plus type event" sh -c "jq -S . '$T/wj.out' >'$T/a' && jq -S . '$T/want' >'$T/b' && cmp -s '$T/a' '$T/b' && jq -e '.module == \"lkdtm\" and .caller == \"lkdtm_BUG+0x9/0x10\" and .auid == null' '$T/wj.out' >/dev/null"
# a stock kernel (no taint_log): flags only
WS=$(mkproc watchstock)
echo 0 >"$WS/proc/sys/kernel/tainted"
"$TAINTCTL" --root "$WS" --json watch --once --interval 0.1 >"$T/ws.out" 2>"$T/ws.err" &
wpid=$!; guard $wpid
started $wpid
set_mask "$WS" $(((1 << 40) | 512))
wait $wpid; rc=$?; unguard
t "watch --json on a stock kernel: a flag line per new bit (unknown bit 40 too)" sh -c "[ $rc -eq 0 ] && jq -s -e '[.[].type] == [\"flag\",\"flag\"] and .[0].letter == \"W\" and .[0].bit == 9 and .[0].name == \"WARN\" and .[1].bit == 40 and .[1].letter == null and .[1].name == null and .[0].mask == 1099511628288' '$T/ws.out' >/dev/null"
printf 'ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm="a"\ndropped=1\n' >"$WS/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$WS" --json watch --once --interval 0.1 >"$T/ws.out" 2>"$T/ws.err" &
wpid=$!; guard $wpid
started $wpid
sed -i 's/^dropped=1$/dropped=4/' "$WS/proc/sys/kernel/taint_log"
wait $wpid; rc=$?; unguard
t "watch --json: a dropped line with the total and the new count" sh -c "[ $rc -eq 0 ] && jq -e '. == {\"type\": \"dropped\", \"dropped\": 4, \"count\": 3}' '$T/ws.out' >/dev/null"
"$TAINTCTL" --root "$WS" watch --once --interval 0.1 >/dev/full 2>"$T/err" &
wpid=$!; guard $wpid
started $wpid
sed -i 's/^dropped=4$/dropped=5/' "$WS/proc/sys/kernel/taint_log"
wait $wpid; rc=$?; unguard
t "watch >/dev/full: exit 3, write error (after the notice)" sh -c "[ $rc -eq 3 ] && [ \"\$(tail -1 '$T/err')\" = 'taintctl: write error: No space left on device' ] && [ \$(wc -l <'$T/err') -eq 2 ]"
for bad in 0 0.001 abc 1.5.0 . 3601 -- 1e3 ''; do
	run --root "$WS" watch --interval "$bad"
	t "watch --interval '$bad': exit 2, says why" sh -c "[ $rc -eq 2 ] && grep -q 'invalid interval' '$T/err'"
done
# issue 28 item 7: watch --deny FLAGS stops at the first event that sets
# one, after printing it (exit 1); other events do not stop it
WD=$(mkproc watchdeny)
echo 4673 >"$WD/proc/sys/kernel/tainted"
cp "$V2/proc/sys/kernel/taint_log" "$WD/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$WD" watch --deny D -n 0.1 >"$T/wd.out" 2>"$T/wd.err" &
wpid=$!; guard $wpid
started $wpid
sed -i "\$i $EV5" "$WD/proc/sys/kernel/taint_log"
wait_for "$T/wd.out" 'reason="watch test"'
sleep 0.3
kill -0 $wpid 2>/dev/null; alive=$?
# two events at once: the denied one first, so the second is not printed
sed -i "\$i $EV6\n$EV45" "$WD/proc/sys/kernel/taint_log"
wait $wpid; rc=$?; unguard
t "watch --deny D: an event without D (U) is printed and watch goes on" sh -c "[ $alive -eq 0 ] && [ \"\$(head -1 '$T/wd.out' | grep -c 'reason=\"watch test\"')\" = 1 ]"
t "watch --deny D: exit 1 after printing the D event, nothing after it" sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$T/wd.out') -eq 2 ] && tail -1 '$T/wd.out' | grep -q ' new=D .*caller=lkdtm_BUG' && ! grep -q watchdog_timer_fn '$T/wd.out'"
WDS=$(mkproc watchdenystock)
echo 0 >"$WDS/proc/sys/kernel/tainted"
"$TAINTCTL" --root "$WDS" --json watch --deny warn -n 0.1 >"$T/wd.out" 2>"$T/wd.err" &
wpid=$!; guard $wpid
started $wpid
set_mask "$WDS" $(((1 << 40) | 512 | 64))
wait $wpid; rc=$?; unguard
t "watch --json --deny warn (a name): a flag set without an event is judged too: exit 1 after its line (U, W; not bit 40)" sh -c "[ $rc -eq 1 ] && jq -s -e '[.[].type] == [\"flag\",\"flag\"] and [.[].letter] == [\"U\",\"W\"]' '$T/wd.out' >/dev/null"
run --root "$T/nonexistent" watch --deny ''
t "watch --deny '': exit 2, as check's" sh -c "[ $rc -eq 2 ] && grep -q \"'--deny ' names no flag\" '$T/err'"
run --root "$T/nonexistent" watch --deny none
t "watch --deny none: accepted (then the missing tainted file: exit 3)" sh -c "[ $rc -eq 3 ] && grep -q 'cannot open' '$T/err'"
run --root "$WS" --deny Q watch
t "watch --deny with a bad letter, before the command's name: exit 2, check's message" sh -c "[ $rc -eq 2 ] && grep -q \"unknown taint letter 'Q' in '--deny Q'\" '$T/err'"
# EPIPE: the reader gone, watch stops at its next item with exit 0
WP=$(mkproc watchpipe)
echo 4673 >"$WP/proc/sys/kernel/tainted"
cp "$V2/proc/sys/kernel/taint_log" "$WP/proc/sys/kernel/taint_log"
bash -o pipefail -c '"$1" --root "$2" watch -n 0.1 2>"$3/wp.err" | true; echo $? >"$3/wp.rc"' bash "$TAINTCTL" "$WP" "$T" &
ppid_=$!; guard $ppid_
sleep 1
sed -i "\$i $EV5" "$WP/proc/sys/kernel/taint_log"
wait $ppid_; unguard
t "watch | (a reader gone): stops at the next event, exit 0, only the notice on stderr" sh -c "[ \"\$(cat '$T/wp.rc')\" = 0 ] && [ \$(wc -l <'$T/wp.err') -eq 1 ] && grep -q 'is not on procfs' '$T/wp.err'"
run --root "$WS" watch now
t "watch with an operand: exit 2" rc_is 2
t "watch with an operand: says so, naming it" sh -c "[ \"\$(cat '$T/err')\" = \"taintctl: watch takes no operand ('now')\" ]"
run --root "$T/nonexistent" watch
t "watch without a tainted file: exit 3, names it" sh -c "[ $rc -eq 3 ] && grep -q \"cannot open '$T/nonexistent/proc/sys/kernel/tainted'\" '$T/err'"
run --root "$WS" status --once
t "--once outside watch: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'options of the watch command' '$T/err'"
run --root "$WS" log --interval 1
t "--interval outside watch: exit 2" rc_is 2

# --- metrics ---
run --root "$V2" metrics
cp "$T/out" "$T/m.prom"
t "metrics: exit 0, mask as kernel_tainted" sh -c "[ $rc -eq 0 ] && grep -qx 'kernel_tainted 4673' '$T/m.prom'"
t "metrics: one kernel_taint_flag per known flag, 0 or 1" sh -c "[ \$(grep -c '^kernel_taint_flag{' '$T/m.prom') -eq 20 ] && grep -qx 'kernel_taint_flag{flag=\"W\",name=\"WARN\"} 1' '$T/m.prom' && grep -qx 'kernel_taint_flag{flag=\"D\",name=\"DIE\"} 0' '$T/m.prom' && grep -qx 'kernel_taint_flag{flag=\"O\",name=\"OOT_MODULE\"} 1' '$T/m.prom'"
t "metrics: first-set time and origin of set flags with a dated event" sh -c "grep -qx 'kernel_taint_flag_first_set_timestamp_seconds{flag=\"U\",origin=\"user\"} 1796284800' '$T/m.prom' && grep -qx 'kernel_taint_flag_first_set_timestamp_seconds{flag=\"P\",origin=\"user\"} 1796284801' '$T/m.prom' && [ \$(grep -c '^kernel_taint_flag_first_set_timestamp_seconds{' '$T/m.prom') -eq 2 ]"
t "metrics: dropped counter" grep -qx 'kernel_taint_log_dropped_total 2' "$T/m.prom"
t "metrics: HELP and TYPE for each family" sh -c "[ \$(grep -c '^# HELP ' '$T/m.prom') -eq 4 ] && grep -qx '# TYPE kernel_taint_log_dropped_total counter' '$T/m.prom' && grep -qx '# TYPE kernel_tainted gauge' '$T/m.prom'"
t "metrics: no reason, comm or pid in any label" sh -c "! grep -E 'reason|comm|pid|sudo|lkdtm|quoted' '$T/m.prom'"
run --root "$UNK" metrics
t "metrics: a set unknown bit is flag=\"bit40\", name=\"\"" sh -c "[ $rc -eq 0 ] && grep -qx 'kernel_taint_flag{flag=\"bit40\",name=\"\"} 1' '$T/out' && [ \$(grep -c '^kernel_taint_flag{' '$T/out') -eq 21 ]"
t "metrics on a stock kernel: no first-set or dropped series" sh -c "! grep -q 'first_set\|dropped' '$T/out' && grep -qx 'kernel_tainted 1099511628288' '$T/out'"
M=$T/textfile; mkdir "$M"
run --root "$V2" metrics --output "$M/taint.prom"
t "metrics --output: the file holds what stdout would, mode 0644, no temporary file left" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/out' ] && cmp -s '$M/taint.prom' '$T/m.prom' && [ \$(stat -c %a '$M/taint.prom') = 644 ] && [ \$(ls -A '$M' | wc -l) -eq 1 ]"
ino=$(stat -c %i "$M/taint.prom")
run --root "$PATCHED" metrics -o "$M/taint.prom"
t "metrics --output replaces the file by rename (a new inode), never in place" sh -c "[ $rc -eq 0 ] && [ \$(stat -c %i '$M/taint.prom') != $ino ] && grep -qx 'kernel_taint_log_dropped_total 5' '$M/taint.prom' && [ \$(ls -A '$M' | wc -l) -eq 1 ]"
(cd "$M" && "$TAINTCTL" --root "$V2" metrics --output rel.prom) >"$T/out" 2>"$T/err"; rc=$?
t "metrics --output with a relative name" sh -c "[ $rc -eq 0 ] && cmp -s '$M/rel.prom' '$T/m.prom'"
run --root "$V2" metrics --output "$T/nodir/taint.prom"
t "metrics --output in a missing directory: exit 3, one line" sh -c "[ $rc -eq 3 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'nodir' '$T/err'"
# issue 28 item 1: --output by the kind of file, each in its own directory
# of $T (never on /dev, but /dev/null written through and checked after)
MK=$T/kinds; mkdir "$MK"
only() { [ "$(ls -A "$1" | tr '\n' ' ')" = "$2 " ]; }	# DIR holds just NAME
mkdir "$MK/reg"; echo old >"$MK/reg/t.prom"; chmod 600 "$MK/reg/t.prom"
ino=$(stat -c %i "$MK/reg/t.prom")
run --root "$V2" metrics -o "$MK/reg/t.prom"
t "metrics -o a regular file of mode 0600: replaced (new inode), mode kept, nothing left over" eval '[ $rc -eq 0 ] && cmp -s "$MK/reg/t.prom" "$T/m.prom" && [ $(stat -c %i "$MK/reg/t.prom") != $ino ] && [ $(stat -c %a "$MK/reg/t.prom") = 600 ] && only "$MK/reg" t.prom'
mkdir "$MK/fifo"; mkfifo "$MK/fifo/t.prom"
cat "$MK/fifo/t.prom" >"$T/fifo.out" &
reader=$!
run --root "$V2" metrics -o "$MK/fifo/t.prom"
# (a FIFO renamed over leaves the reader waiting for a writer: not forever)
i=0
while [ $i -lt 50 ] && kill -0 $reader 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
kill $reader 2>/dev/null
wait $reader
through=no
[ $rc -eq 0 ] && [ "$(stat -c %F "$MK/fifo/t.prom")" = fifo ] && through=yes
t "metrics -o a FIFO with a reader: written through, the FIFO stays, nothing left over" eval '[ $through = yes ] && cmp -s "$T/fifo.out" "$T/m.prom" && only "$MK/fifo" t.prom'
mkdir "$MK/link" "$MK/target"; echo old >"$MK/target/t.prom"; chmod 640 "$MK/target/t.prom"
ln -s ../target/t.prom "$MK/link/l.prom"
ino=$(stat -c %i "$MK/target/t.prom")
run --root "$V2" metrics -o "$MK/link/l.prom"
t "metrics -o a symlink to a regular file: the link stays, its target replaced (new inode, mode kept) in the target's directory" eval '[ $rc -eq 0 ] && [ -L "$MK/link/l.prom" ] && [ "$(readlink "$MK/link/l.prom")" = ../target/t.prom ] && cmp -s "$MK/target/t.prom" "$T/m.prom" && [ $(stat -c %i "$MK/target/t.prom") != $ino ] && [ $(stat -c %a "$MK/target/t.prom") = 640 ] && only "$MK/link" l.prom && only "$MK/target" t.prom'
mkdir "$MK/dangling"; ln -s nowhere.prom "$MK/dangling/l.prom"
run --root "$V2" metrics -o "$MK/dangling/l.prom"
t "metrics -o a dangling symlink: exit 2, one line naming it, the link kept, nothing created" eval '[ $rc -eq 2 ] && err_one_line && grep -q "'"'"'$MK/dangling/l.prom'"'"': a symlink to a file that does not exist" "$T/err" && [ -L "$MK/dangling/l.prom" ] && only "$MK/dangling" l.prom'
mkdir -p "$MK/dir/t.prom"
run --root "$V2" metrics -o "$MK/dir/t.prom"
t "metrics -o a directory: exit 2, one line, the directory kept" eval '[ $rc -eq 2 ] && err_is "taintctl: invalid output file '"'"'$MK/dir/t.prom'"'"': a directory" && [ -d "$MK/dir/t.prom" ] && only "$MK/dir" t.prom'
# (only if a FIFO was written through: a build that replaces what it is
# given must not replace this machine's /dev/null, the tests run as root)
if [ $through = yes ]; then
	run --root "$V2" metrics -o /dev/null
	t "metrics -o /dev/null: exit 0, written through: still a character device" eval '[ $rc -eq 0 ] && [ ! -s "$T/err" ] && [ "$(stat -c %F /dev/null)" = "character special file" ]'
	mkdir "$MK/devlink"; ln -s /dev/null "$MK/devlink/l.prom"
	run --root "$V2" metrics -o "$MK/devlink/l.prom"
	t "metrics -o a symlink to /dev/null: written through, the link kept" eval '[ $rc -eq 0 ] && [ "$(readlink "$MK/devlink/l.prom")" = /dev/null ] && [ "$(stat -c %F /dev/null)" = "character special file" ] && only "$MK/devlink" l.prom'
else
	not_ok "metrics -o /dev/null: not run, the FIFO was not written through"
	not_ok "metrics -o a symlink to /dev/null: not run, the FIFO was not written through"
fi
"$TAINTCTL" --root "$V2" metrics -o /dev/stdout </dev/null 2>"$T/err" | cat >"$T/out"
t "metrics -o /dev/stdout (a pipe): the metrics on standard output" eval 'cmp -s "$T/out" "$T/m.prom" && [ ! -s "$T/err" ]'
(echo "# head"; "$TAINTCTL" --root "$V2" metrics -o /dev/stdout 2>"$T/err"; echo "# tail") >"$MK/stdout.prom"
t "metrics -o /dev/stdout (a regular file): written at the open descriptor's offset, not renamed over" eval '{ echo "# head"; cat "$T/m.prom"; echo "# tail"; } | cmp -s - "$MK/stdout.prom" && [ ! -s "$T/err" ]'
run --root "$V2" metrics --json
t "metrics --json: exit 2 (the output is the Prometheus format)" sh -c "[ $rc -eq 2 ] && [ ! -s '$T/out' ]"
run --root "$V2" status --output x
t "--output outside metrics: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'option of the metrics command' '$T/err'"
run --root "$UNREAD" metrics
t "metrics with an unreadable taint_log: warning, no first-set or dropped series, exit 0" sh -c "[ $rc -eq 0 ] && grep -q 'warning: cannot read' '$T/err' && grep -qx 'kernel_tainted 512' '$T/out' && ! grep -q 'first_set\|dropped' '$T/out'"
run --root "$MAL" metrics
t "metrics with a malformed taint_log line: reported, series still written, exit 3" sh -c "[ $rc -eq 3 ] && grep -q 'taint_log:2: malformed line' '$T/err' && grep -qx 'kernel_taint_log_dropped_total 0' '$T/out'"
run --root "$T/nonexistent" metrics
t "metrics without a tainted file: exit 3" rc_is 3
run_full --root "$V2" metrics
t "metrics >/dev/full: exit 3, write error" write_error

# --- cursor and check --since ---
BOOT=5d0c5b1e-3f2a-4c1b-9e8d-7a6b5c4d3e2f
CUR=$(mkproc cursor)
mkdir -p "$CUR/proc/sys/kernel/random"; echo "$BOOT" >"$CUR/proc/sys/kernel/random/boot_id"
echo 4673 >"$CUR/proc/sys/kernel/tainted"
cp "$V2/proc/sys/kernel/taint_log" "$CUR/proc/sys/kernel/taint_log"
run --root "$CUR" cursor
c=$(cat "$T/out")
t "cursor: one word, boot id, 4 events, dropped 2, mask 0x1241" sh -c "[ $rc -eq 0 ] && echo '$c' | grep -qxE 'tc1-5d0c5b1e3f2a4c1b9e8d7a6b5c4d3e2f-4-2-1241-[0-9a-f]{8}'"
run --root "$CUR" -J cursor
t "cursor --json: cursor, boot_id, events, dropped, mask" jq_out ".cursor == \"$c\" and .boot_id == \"$BOOT\" and .events == 4 and .dropped == 2 and .mask == 4673"
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
run --root "$STOCK" cursor
t "cursor without a boot_id: exit 3, names the file" sh -c "[ $rc -eq 3 ] && grep -q \"cannot read '$STOCK/proc/sys/kernel/random/boot_id'\" '$T/err'"
run --root "$STOCK" check --since "$c"
t "check --since without a boot_id: exit 3" rc_is 3
mkdir -p "$MAL/proc/sys/kernel/random"; echo "$BOOT" >"$MAL/proc/sys/kernel/random/boot_id"
run --root "$MAL" cursor
t "cursor of a malformed log: exit 3 (a position needs the whole log)" sh -c "[ $rc -eq 3 ] && [ ! -s '$T/out' ]"
run --root "$CUR" --since x status
t "--since outside check: exit 2" rc_is 2
run --root "$CUR" cursor now
t "cursor with an operand: exit 2" rc_is 2
run_full --root "$CUR" cursor
t "cursor >/dev/full: exit 3" write_error

# --- mask_hex (issue 28 item 7) ----------------------------------------------
# masks_hex FILE: JSON (Lines) where every object with "mask" has
# "mask_hex", the same number in hex ("0x..", lowercase), null with a null
# mask; Python's json reads integers exactly, unlike jq (doubles)
masks_hex() {
	python3 -c 'import json, sys
n = 0
def walk(v):
    global n
    if isinstance(v, dict):
        if "mask" in v:
            n += 1
            m, h = v["mask"], v.get("mask_hex", "absent")
            assert (m is None and h is None) or (isinstance(h, str) and h.startswith("0x") and h == h.lower() and int(h, 16) == m), (m, h)
        for x in v.values():
            walk(x)
    elif isinstance(v, list):
        for x in v:
            walk(x)
for line in open(sys.argv[1]):
    if line.strip():
        walk(json.loads(line))
assert n >= int(sys.argv[2]), n' "$1" "$2"
}
run -j decode 18446744073709551615
t "decode 2^64-1 --json: mask_hex 0xffffffffffffffff (jq cannot hold the number)" jq_out '.mask_hex == "0xffffffffffffffff"'
run -j decode 0x20000000000201
t "decode 2^53+0x201 --json: mask_hex keeps the low bits" eval 'jq_out ".mask_hex == \"0x20000000000201\"" && masks_hex "$T/out" 1'
run -j check --value 18446744073709551615 --deny D
t "check --json: mask_hex agrees with mask" masks_hex "$T/out" 1
run --root "$UNK" -j status
t "status --json: mask_hex agrees with mask (bit 40)" eval 'masks_hex "$T/out" 1 && jq_out ".mask_hex == \"0x10000000200\""'
run -j scan "$T/vendor.log" "$T/v.log" "$T/two.log"
t "scan --json: mask_hex on each hit, null where mask is (unknown letter)" eval 'masks_hex "$T/out" 4 && [ "$(jq -sc "[.[].mask_hex]" "$T/out")" = "[\"0x80100200\",null,\"0x200\",\"0x1281\"]" ]'
run --root "$CUR" -j cursor
t "cursor --json: mask_hex agrees with mask" masks_hex "$T/out" 1
run --root "$CUR" -j check --since "$("$TAINTCTL" --root "$CUR" cursor)"
t "check --since --json: mask_hex in the check object and since" masks_hex "$T/out" 2
t "watch --json flag lines: mask_hex agrees with mask" masks_hex "$T/wd.out" 2

# --- per-command help (item 10) ----------------------------------------------
for c in status decode scan mark log check watch metrics cursor; do
	run "$c" --help
	t "$c --help: that command's usage, exit 0" sh -c "[ $rc -eq 0 ] && grep -q '^ taintctl .*$c' '$T/out' && [ \$(grep -c '^ taintctl ' '$T/out') -le 2 ] && grep -q 'taintctl(1)' '$T/out'"
done
run decode --help
t "decode --help is about decode (stdin, octal), not scan" sh -c "grep -q 'standard input' '$T/out' && grep -q 'octal' '$T/out' && ! grep -q 'scan FILE' '$T/out'"
run check --help
t "check --help lists the flag names FLAGS may use" sh -c "grep -q '^   P  PROPRIETARY_MODULE ' '$T/out' && grep -q '^   J  FWCTL ' '$T/out' && grep -q -- '--value VALUE' '$T/out'"
run --help status
t "--help before the command: that command's help too" sh -c "[ $rc -eq 0 ] && grep -q '^ taintctl \[options\] \[status\]\$' '$T/out' && ! grep -q 'decode' '$T/out'"

tap_done
