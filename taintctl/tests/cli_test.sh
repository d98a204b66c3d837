#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# cli_test.sh - CLI-level tests of taintctl, TAP on stdout.
#
# Runs $TAINTCTL (default ../build/taintctl) against fake proc roots
# (TAINTCTL_PROC) and the oops corpus ($TAINT_CORPUS_DIR), checking exit
# codes, messages and JSON (parsed with jq).  Never touches /proc.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TAINTCTL=${TAINTCTL:-$HERE/../build/taintctl}
CORPUS=${TAINT_CORPUS_DIR:-$HERE/../../../shared/corpus/oops}
T=$(mktemp -d /tmp/taintctl-cli.XXXXXX)
trap 'rm -rf "$T"' EXIT INT TERM
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

n=0
failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"
	sed 's/^/# stdout: /' "$T/out" | head -5
	sed 's/^/# stderr: /' "$T/err" | head -5
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
# t DESC COMMAND...: pass if COMMAND succeeds
t() { d=$1; shift; if "$@" >/dev/null 2>&1; then ok "$d"; else not_ok "$d"; fi; }

# run ARGS...: taintctl with stdout/stderr/exit code captured
run() { "$TAINTCTL" "$@" >"$T/out" 2>"$T/err"; rc=$?; }
rc_is() { [ "$rc" -eq "$1" ]; }
jq_out() { [ -s "$T/out" ] && jq -e "$@" "$T/out"; }
err_is() { [ "$(cat "$T/err")" = "$1" ]; }
err_one_line() { [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q '^taintctl: ' "$T/err"; }
out_has() { grep -q -- "$1" "$T/out"; }

# fake proc roots
mkproc() { mkdir -p "$T/$1/sys/kernel"; echo "$T/$1"; }
STOCK=$(mkproc stock)
echo 576 >"$STOCK/sys/kernel/tainted"
PATCHED=$(mkproc patched)
echo 576 >"$PATCHED/sys/kernel/tainted"
: >"$PATCHED/sys/kernel/taint_reason"
cat >"$PATCHED/sys/kernel/taint_log" <<'LOG'
ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm="swapper/0" caller=lkdtm_WARNING+0x1d/0x30 [lkdtm]
ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 comm="sh\x01\"q\\" reason="RTSJ \"physical\" memory access"
ts=4.000000 utc=2026-12-03T08:00:01Z origin=user flags=U new=- pid=78 uid=1000 comm="caf\xc3\xa9\xff"
dropped=5
LOG
# a v2 log (build/wip/v2-abi.md): auid=, module= (unquoted, escaped)
V2=$(mkproc v2)
echo 4673 >"$V2/sys/kernel/tainted"
cat >"$V2/sys/kernel/taint_log" <<'LOG'
ts=0.912000 utc=- origin=kernel flags=O new=O pid=88 uid=0 auid=- comm="insmod" module=my\x20mod\\\"x\x01
ts=1.000100 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=1000 comm="cat" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30
ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm="sudo" reason="a \"quoted\" reason"
ts=4.000000 utc=2026-12-03T08:00:01Z origin=user flags=PU new=P pid=78 uid=0 auid=- comm="sh"
dropped=2
LOG
CLEAN=$(mkproc clean)
echo 0 >"$CLEAN/sys/kernel/tainted"

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

# --- status ------------------------------------------------------------------
TAINTCTL_PROC=$STOCK run --json
t "status (default) on stock kernel: exit 0" rc_is 0
t "status --json: mask, tainted, U and W flags" jq_out '.mask == 576 and .tainted == true and ([.flags[].letter] == ["U","W"]) and .flags[0].bit == 6 and .flags[0].name == "USER" and .flags[1].name == "WARN" and .unknown_bits == []'
t "status --json on stock kernel: events is an empty array" jq_out '.events == []'
TAINTCTL_PROC=$STOCK run status
t "status text names the flags" sh -c "grep -q 'USER' '$T/out' && grep -q 'kernel issued warning' '$T/out'"
TAINTCTL_PROC=$PATCHED run status --json
t "status --json on patched kernel: 3 events" jq_out '.events | length == 3'
t "status --json: caller on the kernel event, no reason" jq_out '.events[0] | .origin == "kernel" and .caller == "lkdtm_WARNING+0x1d/0x30 [lkdtm]" and (has("reason") | not)'
TAINTCTL_PROC=$CLEAN run status --json
t "status on a clean kernel: tainted false, no flags" jq_out '.mask == 0 and .tainted == false and .flags == []'
TAINTCTL_PROC=$T/nonexistent run status
t "status without a tainted file: exit 3, util-linux message" sh -c "[ $rc -eq 3 ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot read '$T/nonexistent/sys/kernel/tainted': No such file or directory\" ]"
BAD=$(mkproc bad); echo garbage >"$BAD/sys/kernel/tainted"
TAINTCTL_PROC=$BAD run status
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
t "decode negative: exit 2" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = \"taintctl: invalid taint value: '-5'\" ]"
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

# --- scan --------------------------------------------------------------------
if [ -d "$CORPUS" ] && [ -f "$CORPUS/expected.tsv" ]; then
	files=$(ls "$CORPUS" | grep -v -e '^SOURCES.md$' -e '^expected.tsv$')
	(cd "$CORPUS" && "$TAINTCTL" --json scan $files) >"$T/out" 2>"$T/err"; rc=$?
	t "scan --json of the whole corpus: exit 0" rc_is 0
	t "scan --json: every line is an object of the fixed shape (v1 keys kept, v2 keys added)" jq_out -s 'all(.[]; (keys == ["file","format","letters","line","mask","tainted","text","unknown_bits","unknown_letters"]) and (.line|type) == "number")'
	jq -r '[.file, .line, .text, .letters, .tainted] | @tsv' "$T/out" | sort >"$T/got"
	awk -F'\t' 'NR > 1 && $6 != "prose" { print $1 "\t" $2 "\t" $3 "\t" $4 "\t" ($6 != "not-tainted" ? "true" : "false") }' \
		"$CORPUS/expected.tsv" | sort >"$T/want"
	t "scan --json hits == expected.tsv (file, line, text, letters, tainted)" cmp -s "$T/got" "$T/want"
	# v2 fields against expected.tsv: format, and mask (null where '?')
	jq -r '[.file, .line, .format, (.mask // "?")] | @tsv' "$T/out" | sort >"$T/got"
	awk -F'\t' 'NR > 1 && $6 != "prose" { print $1 "\t" $2 "\t" $6 "\t" $5 }' \
		"$CORPUS/expected.tsv" | sort >"$T/want"
	t "scan --json format and mask == expected.tsv (mask null where it says ?)" cmp -s "$T/got" "$T/want"
	t "scan --json: unknown letters of the synthetic A..Z field" jq_out -s '[.[] | select(.file == "abrt-koops-tainted-insane.template") | .unknown_letters[].letter] == ["H","Q","V","Y","Z"]'
	# compressed copies of a corpus file: same hits, from files and stdin
	# (a 111 KB corpus log, then 1.4 MB of varied dmesg lines with a field
	# every 1,000 lines: several zstd blocks and xz/gzip buffers)
	{ cat "$CORPUS/squad-oops.log"; awk 'BEGIN { srand(7); for (i = 0; i < 20000; i++) {
		printf "[%5d.%06d] usb %d-%d: new device number %d using xhci_hcd\n", i, int(rand() * 1e6), i % 7, i % 5, int(rand() * 1e6)
		if (i % 1000 == 999) printf "[%5d.%06d] CPU: %d PID: %d Comm: kworker Tainted: G        W  O      6.12.0 #1\n", i, int(rand() * 1e6), i % 8, int(rand() * 1e5) } }'; } >"$T/big.log"
	"$TAINTCTL" scan "$T/big.log" | sed "s|^$T/big.log:||" >"$T/plain.txt"
	for z in "gzip -c" "xz -c" "zstd -q -c"; do
		ext=$(echo "$z" | cut -d' ' -f1)
		$z <"$T/big.log" >"$T/log.$ext"
		run scan "$T/log.$ext"
		t "scan $ext file: exit 0, same hits as the plain file" sh -c "[ $rc -eq 0 ] && [ -s '$T/plain.txt' ] && sed 's|^$T/log.$ext:||' '$T/out' | cmp -s - '$T/plain.txt'"
		"$TAINTCTL" scan <"$T/log.$ext" >"$T/out" 2>"$T/err"; rc=$?
		t "scan $ext on stdin (no name to go by): same hits" sh -c "[ $rc -eq 0 ] && sed 's|^-:||' '$T/out' | cmp -s - '$T/plain.txt'"
		# cut off the end: an error after the hits found so far
		size=$(wc -c <"$T/log.$ext")
		head -c $((size - 200)) "$T/log.$ext" >"$T/cut.$ext"
		run scan "$T/cut.$ext"
		sed "s|^$T/cut.$ext:||" "$T/out" >"$T/cut.txt"
		t "scan truncated $ext: exit 3, clear message, the hits before it printed" sh -c "[ $rc -eq 3 ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot read '$T/cut.$ext': truncated $ext data: unexpected end of input\" ] && [ \$(wc -l <'$T/cut.txt') -ge 3 ] && head -n \$(wc -l <'$T/cut.txt') '$T/plain.txt' | cmp -s - '$T/cut.txt'"
	done
	(cd "$CORPUS" && "$TAINTCTL" scan - <lore-iwl-proxmox-PO-wrapped.txt) >"$T/out" 2>"$T/err"
	t "scan - reads stdin, text output with file:line" sh -c "grep -q '^-:4: Tainted: P  =>  P$' '$T/out' && grep -q '^-:6: .*=>  PO$' '$T/out'"
else
	skip "scan of the corpus" "corpus directory not found: $CORPUS"
	skip "scan --json shape" "no corpus"
	skip "scan hits == expected.tsv" "no corpus"
	skip "scan -" "no corpus"
fi
run scan "$T/missing.log"
t "scan missing file: exit 3, util-linux message" sh -c "[ $rc -eq 3 ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot open '$T/missing.log': No such file or directory\" ]"
printf 'Not tainted\n' >"$T/one.log"
run scan "$T/missing.log" "$T/one.log"
t "scan continues after an unreadable file (exit 3)" sh -c "[ $rc -eq 3 ] && grep -q 'one.log:1:' '$T/out'"
run scan "$T"
t "scan a directory: exit 3" sh -c "[ $rc -eq 3 ] && grep -q 'Is a directory' '$T/err'"
printf 'x\nCPU: 0 PID: 1 Comm: a Not tainted 6.1 #1\n' | "$TAINTCTL" scan >"$T/out" 2>"$T/err"; rc=$?
t "scan without file reads stdin, as filters do" sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$T/out')\" = '-:2: Not tainted  =>  not tainted' ]"
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
printf '%s\n' '{"MESSAGE":"CPU: 0 PID: 1 Comm: sh Tainted: G        W 6.1 #1","PRIORITY":"4"}' '{"MESSAGE":"Tainted: G        W","PRIORITY":"4"}' '{"MESSAGE":"Tainted: [W]=WARN, [O]=OOT_MODULE","PRIORITY":"4"}' >"$T/journal.json"
run -j scan "$T/journal.json"
t "scan journalctl -o json: a field ending MESSAGE keeps its last letter" jq_out -s '[.[].letters] == ["W","W","WO"] and [.[].line] == [1,2,3]'
printf 'Tainted: [W]=WARN, [V]=UNSAFE_BPF\n' >"$T/v.log"
run scan "$T/v.log"
t "scan text: unknown verbose letter with its name" sh -c "[ $rc -eq 0 ] && grep -q '=>  W + unknown letters V (V=UNSAFE_BPF)\$' '$T/out'"
run -j scan "$T/v.log"
t "scan --json: unknown letter and name, mask null (not known), format verbose" jq_out '.unknown_letters == [{"letter":"V","name":"UNSAFE_BPF"}] and .mask == null and .format == "verbose" and .letters == "W"'
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

# --- mark --------------------------------------------------------------------
TAINTCTL_PROC=$PATCHED run mark "RTSJ physical memory access"
t "mark on patched kernel: exit 0, no warning" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ]"
t "mark wrote exactly the reason" sh -c "[ \"\$(cat '$PATCHED/sys/kernel/taint_reason')\" = 'RTSJ physical memory access' ]"
STOCKM=$(mkproc stockmark); echo 0 >"$STOCKM/sys/kernel/tainted"
TAINTCTL_PROC=$STOCKM run mark "why"
t "mark on stock kernel: falls back to 64 and warns" sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$STOCKM/sys/kernel/tainted')\" = 64 ] && grep -q 'warning: .*no reason was stored' '$T/err'"
echo 0 >"$STOCKM/sys/kernel/tainted"
TAINTCTL_PROC=$STOCKM run mark ""
t "mark empty reason: exit 2, nothing written" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$STOCKM/sys/kernel/tainted')\" = 0 ]"
TAINTCTL_PROC=$STOCKM run mark "$(printf 'two\nlines')"
t "mark control byte: exit 2, one-line message" sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$T/err') -eq 1 ] && [ \"\$(cat '$STOCKM/sys/kernel/tainted')\" = 0 ]"
TAINTCTL_PROC=$STOCKM run mark "$(head -c 129 /dev/zero | tr '\0' r)"
t "mark 129-byte reason: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'longer than 128' '$T/err'"
TAINTCTL_PROC=$STOCKM run mark "$(head -c 128 /dev/zero | tr '\0' r)"
t "mark 128-byte reason: accepted" rc_is 0
TAINTCTL_PROC=$T/nonexistent run mark "why"
t "mark with no proc files: exit 3" sh -c "[ $rc -eq 3 ] && grep -q \"^taintctl: cannot write '$T/nonexistent/sys/kernel/tainted'\" '$T/err'"

# --- log ---------------------------------------------------------------------
TAINTCTL_PROC=$PATCHED run log --json
t "log --json: 3 events, dropped 5" jq_out '(.events | length) == 3 and .dropped == 5'
t "log --json: reason and comm unescaped" jq_out '.events[1].reason == "RTSJ \"physical\" memory access" and .events[1].comm == "sh\u0001\"q\\" and .events[1].pid == 77 and .events[1].uid == 0 and .events[1].ts == "3.123456" and .events[1].utc == "2026-12-03T08:00:00Z" and .events[1].new == "U"'
t "log --json: invalid UTF-8 becomes U+FFFD, valid kept" jq_out '.events[2].comm == "café\ufffd" and .events[2].new == "" and .events[2].uid == 1000'
t "log --json of a v1 log: no auid, no module" jq_out 'all(.events[]; (has("auid") or has("module")) | not)'
TAINTCTL_PROC=$PATCHED run log
t "log text: events and dropped count" sh -c "[ $rc -eq 0 ] && grep -q 'reason=\"RTSJ' '$T/out' && grep -q 'dropped: 5' '$T/out'"
TAINTCTL_PROC=$V2 run log --json
t "log --json v2: 4 events, dropped 2, exit 0, no warning" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '(.events | length) == 4 and .dropped == 2' '$T/out'"
t "log --json v2: auid a number, null for auid=-" jq_out '[.events[] | .auid] == [null, 1000, 1000, null] and all(.events[]; has("auid"))'
t "log --json v2: module unescaped, on a line without caller" jq_out '.events[0] | .module == "my mod\\\"x\u0001" and (has("caller") | not) and (has("reason") | not)'
t "log --json v2: module and caller on the WARN line" jq_out '.events[1] | .module == "lkdtm" and .caller == "lkdtm_WARNING+0x1d/0x30" and .pid == 312'
t "log --json v2: user lines have neither module nor caller, reason unescaped" jq_out '(.events[2:] | all(.[]; (has("module") or has("caller")) | not)) and .events[2].reason == "a \"quoted\" reason" and (.events[3] | has("reason") | not) and .events[3].flags == "PU" and .events[3].new == "P"'
TAINTCTL_PROC=$V2 run status --json
t "status --json v2: events carry auid and module" sh -c "[ $rc -eq 0 ] && jq -e '.mask == 4673 and (.events | length) == 4 and .events[0].auid == null and .events[0].module == \"my mod\\\\\\\"x\\u0001\" and .events[2].auid == 1000' '$T/out'"
TAINTCTL_PROC=$V2 run log
t "log text v2: auid and escaped module shown" sh -c "[ $rc -eq 0 ] && grep -q 'auid=- comm=\"insmod\" module=my\\\\x20mod\\\\\\\\\\\\\"x\\\\x01\$' '$T/out' && grep -q 'auid=1000 comm=\"cat\" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30\$' '$T/out' && grep -q 'dropped: 2' '$T/out'"
TAINTCTL_PROC=$V2 run status
t "status text v2: auid and module shown" sh -c "[ $rc -eq 0 ] && grep -q 'auid=1000 comm=\"sudo\" reason=' '$T/out' && grep -q 'module=lkdtm caller=' '$T/out'"
TAINTCTL_PROC=$STOCK run log
t "log on stock kernel: says so plainly, exit 0" sh -c "[ $rc -eq 0 ] && grep -q 'No taint log' '$T/out'"
TAINTCTL_PROC=$STOCK run log --json
t "log --json on stock kernel: empty log + stderr note" sh -c "[ $rc -eq 0 ] && jq -e '.events == [] and .dropped == 0' '$T/out' && [ -s '$T/err' ]"
MAL=$(mkproc mal); echo 0 >"$MAL/sys/kernel/tainted"
printf 'ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm="a"\nthis is not an event\nts=2.000000 utc=- origin=user flags=U new=- pid=1 uid=0 comm="b" future="x"\n' >"$MAL/sys/kernel/taint_log"
TAINTCTL_PROC=$MAL run log --json
t "log with a malformed line: exit 3, error names line 2" sh -c "[ $rc -eq 3 ] && grep -q 'taint_log:2: malformed line' '$T/err'"
t "log with a malformed line: good events still printed" jq_out '(.events | length) == 2'
t "log with an unknown field: warning names line 3 and field" grep -q "taint_log:3: unknown field 'future'" "$T/err"

# --- check -------------------------------------------------------------------
TAINTCTL_PROC=$CLEAN run check
t "check on clean kernel: exit 0" rc_is 0
TAINTCTL_PROC=$STOCK run check
t "check with taint and no option: exit 1" rc_is 1
TAINTCTL_PROC=$STOCK run check --allow UW
t "check --allow UW on U+W: exit 0" rc_is 0
TAINTCTL_PROC=$STOCK run check --allow U
t "check --allow U on U+W: exit 1, names W" sh -c "[ $rc -eq 1 ] && grep -q 'WARN' '$T/out'"
TAINTCTL_PROC=$STOCK run check --deny D
t "check --deny D on U+W: exit 0" rc_is 0
TAINTCTL_PROC=$STOCK run -j check --deny DW
t "check --json --deny DW: exit 1, W disallowed" sh -c "[ $rc -eq 1 ] && jq -e '.ok == false and ([.disallowed[].letter] == [\"W\"])' '$T/out'"
TAINTCTL_PROC=$STOCK run check --allow UQ
t "check --allow with unknown letter: exit 2" sh -c "[ $rc -eq 2 ] && grep -q \"unknown taint letter 'Q'\" '$T/err'"
TAINTCTL_PROC=$STOCK run check --allow U --deny W
t "check --allow and --deny together: exit 2" rc_is 2
UNK=$(mkproc unk); echo $((1 << 40 | 512)) >"$UNK/sys/kernel/tainted"
TAINTCTL_PROC=$UNK run -j check --allow W
t "check --allow W with unknown bit 40: exit 1" sh -c "[ $rc -eq 1 ] && jq -e '.disallowed_unknown_bits == [40]' '$T/out'"
TAINTCTL_PROC=$UNK run -j check --deny U
t "check --deny U with unknown bit 40: exit 0" rc_is 0
TAINTCTL_PROC=$T/nonexistent run check
t "check without proc files: exit 3" rc_is 3

echo "1..$n"
[ "$failed" -eq 0 ]
