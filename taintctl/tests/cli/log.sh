#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# log.sh - taintctl log: the taint log of a --root tree, of a saved file
# or standard input (compressed too), text and JSON (UTF-8 byte for byte),
# v1 and v2 logs, malformed lines; TAP on stdout.

. "$(dirname "$0")/lib.sh"

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
run --root "$V2" log
t "log text v2: auid and escaped module shown" sh -c "[ $rc -eq 0 ] && grep -q 'auid=- comm=\"insmod\" module=my\\\\x20mod\\\\\\\\\\\\\"x\\\\x01\$' '$T/out' && grep -q 'auid=1000 comm=\"cat\" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30\$' '$T/out' && grep -q 'dropped: 2' '$T/out'"
run --root "$STOCK" log
t "log on stock kernel: says so plainly, exit 0" sh -c "[ $rc -eq 0 ] && grep -q 'No taint log' '$T/out'"
run --root "$STOCK" log --json
t "log --json on stock kernel: empty log + stderr note" sh -c "[ $rc -eq 0 ] && jq -e '.events == [] and .dropped == 0' '$T/out' && [ -s '$T/err' ]"
run --root "$MAL" log --json
t "log with a malformed line: exit 3, error names line 2" sh -c "[ $rc -eq 3 ] && grep -q 'taint_log:2: malformed line' '$T/err'"
t "log with a malformed line: good events still printed" jq_out '(.events | length) == 2'
t "log with an unknown field: warning names line 3 and field" grep -q "taint_log:3: unknown field 'future'" "$T/err"
# log FILE, log -: a saved taint_log, the same parser and
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
# (live: V2's 4 events, so that two empty outputs are not "the same")
"$TAINTCTL" --root "$V2" log --json </dev/null >"$T/live.out" 2>/dev/null; lrc=$?
live_ok() { [ $lrc -eq 0 ] && jq -e '(.events | length) == 4' "$T/live.out" >/dev/null; }
for z in gzip xz zstd; do
	$z -c <"$V2/proc/sys/kernel/taint_log" >"$T/saved.$z"
	run --json log "$T/saved.$z"
	t "log FILE of $z data: decompressed, the same as live (4 events)" eval 'rc_is 0 && live_ok && cmp -s "$T/out" "$T/live.out"'
done
cat "$T/saved.gzip" | "$TAINTCTL" --json log - >"$T/out" 2>"$T/err"; rc=$?
t "log - of gzip data on a pipe: the same as live (4 events)" eval 'rc_is 0 && live_ok && cmp -s "$T/out" "$T/live.out"'
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
run --root "$STOCK" log
t "log --root reads DIR/proc/sys/kernel/taint_log" sh -c "[ $rc -eq 0 ] && grep -q \"'$STOCK/proc/sys/kernel/taint_log' does not exist\" '$T/out'"
run --root "$LONGROOT" log --vmcore x
t "log --vmcore with --root DIR too long: --vmcore and --root exclude each other, said first" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = 'taintctl: --vmcore and --root exclude each other' ]"
run_full --root "$PATCHED" log --json
t "log --json >/dev/full: exit 3" write_error
head_1 trap log "$BIGLOG/proc/sys/kernel/taint_log"
t "log FILE | head -1 (20,000 events): exit 0, nothing on stderr" epipe_ok

tap_done
