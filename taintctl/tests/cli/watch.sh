#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# watch.sh - taintctl watch on fake trees (interval mode): new events,
# flags set without one, dropped counts, --json, --deny, --once, the
# latency, write errors and a reader gone; TAP on stdout.

. "$(dirname "$0")/lib.sh"

# wait_for FILE PATTERN: until a line of FILE matches PATTERN (at most
# 10 s); fails if none does
wait_for() {
	i=0
	while [ $i -lt 100 ] && ! grep -q -- "$2" "$1" 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	grep -q -- "$2" "$1"
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
EVZ='ts=7.000000 utc=2026-12-03T08:03:00Z origin=user flags=U new=- pid=92 uid=0 auid=1000 comm="make" reason="the last"'

WATCH=$(mkproc watch)
echo 4673 >"$WATCH/proc/sys/kernel/tainted"
cp "$V2/proc/sys/kernel/taint_log" "$WATCH/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$WATCH" watch --interval 0.2 >"$T/w.out" 2>"$T/w.err" &
wpid=$!; guard $wpid
started $wpid "$T/w.err"
t "watch: the events already logged are not printed" sh -c "[ ! -s '$T/w.out' ]"
# the fall-back to re-reading is said once, at the start
t "watch on files not on procfs: one notice on stderr at the start, with the interval and why" sh -c "[ \"\$(cat '$T/w.err')\" = \"taintctl: warning: '$WATCH/proc/sys/kernel/tainted' is not on procfs (a copied tree), which cannot signal changes: re-reading every 0.200 s\" ]"
# the log gains a line (the slot of dropped=2 stays last)
sed -i "\$i $EV5" "$WATCH/proc/sys/kernel/taint_log"
t "watch (interval mode, fake root): an appended event is printed" wait_for "$T/w.out" 'reason="watch test"'
"$TAINTCTL" --root "$WATCH" log | grep 'reason="watch test"' >"$T/want"
t "watch: the event line is the one 'log' prints" sh -c "grep 'reason=\"watch test\"' '$T/w.out' | cmp -s - '$T/want'"
# a slot claimed earlier, published later: it appears before the last line
sed -i "\$i $EV6" "$WATCH/proc/sys/kernel/taint_log"
set_mask "$WATCH" $((4673 | 128))
wait_for "$T/w.out" 'lkdtm_BUG'
sed -i "/^ts=5.000000/i $EV45" "$WATCH/proc/sys/kernel/taint_log"
set_mask "$WATCH" $((4673 | 128 | 16384))
t "watch: an event published between printed lines is printed once" sh -c "wait_() { :; }; i=0; while [ \$i -lt 50 ] && ! grep -q 'watchdog_timer_fn' '$T/w.out'; do sleep 0.1; i=\$((i+1)); done; [ \$(grep -c 'watchdog_timer_fn' '$T/w.out') -eq 1 ] && [ \$(grep -c 'lkdtm_BUG' '$T/w.out') -eq 1 ]"
# a flag newly set without an event (the fake kernel records none)
set_mask "$WATCH" $((4673 | 128 | 16384 | 2))
t "watch: a newly set flag without an event gets its own line" wait_for "$T/w.out" '^flag set, no taint_log event:  F  bit 1 '
sed -i 's/^dropped=2$/dropped=5/' "$WATCH/proc/sys/kernel/taint_log"
t "watch: a grown dropped count is printed" wait_for "$T/w.out" '^dropped: 3 more user request(s) not kept (log full; 5 in all)$'
# a last event: once it is printed, watch has read the tree again after
# every change above (and printed anything it would print twice)
sed -i "\$i $EVZ" "$WATCH/proc/sys/kernel/taint_log"
wait_for "$T/w.out" 'reason="the last"'
kill -TERM $wpid; wait $wpid; rc=$?; unguard
t "watch: SIGTERM ends it with exit 0" rc_is 0
t "watch: 6 lines in all, the last event last, nothing printed twice, nothing on stderr but the one notice" sh -c "[ \$(wc -l <'$T/w.out') -eq 6 ] && tail -n 1 '$T/w.out' | grep -q 'reason=\"the last\"' && [ \$(sort '$T/w.out' | uniq -d | wc -l) -eq 0 ] && [ \$(wc -l <'$T/w.err') -eq 1 ] && grep -q 'is not on procfs' '$T/w.err'"

# default interval: 1 s, as watch says; how long until an appended event
# is printed is shown, and bounded only against a hang (10 s): on a loaded
# machine any tight bound fails without a fault in watch
WL=$(mkproc watchlat)
echo 64 >"$WL/proc/sys/kernel/tainted"; : >"$WL/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$WL" watch --once >"$T/wl.out" 2>"$T/wl.err" &
wpid=$!; guard $wpid
started $wpid "$T/wl.err"
t0=$(now_ms)
echo "$EV5" >>"$WL/proc/sys/kernel/taint_log"
i=0; while [ $i -lt 500 ] && [ ! -s "$T/wl.out" ]; do sleep 0.02; i=$((i + 1)); done
lat=$(($(now_ms) - t0))
wait $wpid; rc=$?; unguard
echo "# watch latency, interval mode, default --interval 1: ${lat} ms"
t "watch --once (default interval): re-reads every 1.000 s, prints the event (${lat} ms; 10 s is a hang), then exit 0" sh -c "[ $rc -eq 0 ] && grep -q 're-reading every 1.000 s\$' '$T/wl.err' && [ $lat -le 10000 ] && grep -q 'reason=\"watch test\"' '$T/wl.out' && [ \$(wc -l <'$T/wl.out') -eq 1 ]"

# --json: JSON Lines, the log --json event shape plus "type"
WJ=$(mkproc watchjson)
echo 4673 >"$WJ/proc/sys/kernel/tainted"
cp "$V2/proc/sys/kernel/taint_log" "$WJ/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$WJ" -J watch --once -n 0.1 >"$T/wj.out" 2>"$T/wj.err" &
wpid=$!; guard $wpid
started $wpid "$T/wj.err"
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
started $wpid "$T/ws.err"
set_mask "$WS" $(((1 << 40) | 512))
wait $wpid; rc=$?; unguard
t "watch --json on a stock kernel: a flag line per new bit (unknown bit 40 too)" sh -c "[ $rc -eq 0 ] && jq -s -e '[.[].type] == [\"flag\",\"flag\"] and .[0].letter == \"W\" and .[0].bit == 9 and .[0].name == \"WARN\" and .[1].bit == 40 and .[1].letter == null and .[1].name == null and .[0].mask == 1099511628288' '$T/ws.out' >/dev/null"
printf 'ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm="a"\ndropped=1\n' >"$WS/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$WS" --json watch --once --interval 0.1 >"$T/ws.out" 2>"$T/ws.err" &
wpid=$!; guard $wpid
started $wpid "$T/ws.err"
sed -i 's/^dropped=1$/dropped=4/' "$WS/proc/sys/kernel/taint_log"
wait $wpid; rc=$?; unguard
t "watch --json: a dropped line with the total and the new count" sh -c "[ $rc -eq 0 ] && jq -e '. == {\"type\": \"dropped\", \"dropped\": 4, \"count\": 3}' '$T/ws.out' >/dev/null"
"$TAINTCTL" --root "$WS" watch --once --interval 0.1 >/dev/full 2>"$T/err" &
wpid=$!; guard $wpid
started $wpid "$T/err"
sed -i 's/^dropped=4$/dropped=5/' "$WS/proc/sys/kernel/taint_log"
wait $wpid; rc=$?; unguard
t "watch >/dev/full: exit 3, write error (after the notice)" sh -c "[ $rc -eq 3 ] && [ \"\$(tail -1 '$T/err')\" = 'taintctl: write error: No space left on device' ] && [ \$(wc -l <'$T/err') -eq 2 ]"
for bad in 0 0.001 abc 1.5.0 . 3601 -- 1e3 ''; do
	run --root "$WS" watch --interval "$bad"
	t "watch --interval '$bad': exit 2, says why" sh -c "[ $rc -eq 2 ] && grep -q 'invalid interval' '$T/err'"
done
# watch --deny FLAGS stops at the first event that sets
# one, after printing it (exit 1); other events do not stop it
WD=$(mkproc watchdeny)
echo 4673 >"$WD/proc/sys/kernel/tainted"
cp "$V2/proc/sys/kernel/taint_log" "$WD/proc/sys/kernel/taint_log"
"$TAINTCTL" --root "$WD" watch --deny D -n 0.1 >"$T/wd.out" 2>"$T/wd.err" &
wpid=$!; guard $wpid
started $wpid "$T/wd.err"
sed -i "\$i $EV5" "$WD/proc/sys/kernel/taint_log"
wait_for "$T/wd.out" 'reason="watch test"'
# two events at once: the denied one first, so the second is not printed
sed -i "\$i $EV6\n$EV45" "$WD/proc/sys/kernel/taint_log"
wait $wpid; rc=$?; unguard
t "watch --deny D: an event without D (U) is printed and watch goes on (to the D event after it)" sh -c "[ \"\$(head -1 '$T/wd.out' | grep -c 'reason=\"watch test\"')\" = 1 ] && [ \$(grep -c ' new=D ' '$T/wd.out') -eq 1 ]"
t "watch --deny D: exit 1 after printing the D event, nothing after it" sh -c "[ $rc -eq 1 ] && [ \$(wc -l <'$T/wd.out') -eq 2 ] && tail -1 '$T/wd.out' | grep -q ' new=D .*caller=lkdtm_BUG' && ! grep -q watchdog_timer_fn '$T/wd.out'"
WDS=$(mkproc watchdenystock)
echo 0 >"$WDS/proc/sys/kernel/tainted"
"$TAINTCTL" --root "$WDS" --json watch --deny warn -n 0.1 >"$T/wd.out" 2>"$T/wd.err" &
wpid=$!; guard $wpid
started $wpid "$T/wd.err"
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
(E=$T/wp.err; gone --root "$WP" watch -n 0.1; echo $rc >"$T/wp.rc") &
ppid_=$!; guard $ppid_
started $ppid_ "$T/wp.err"
sed -i "\$i $EV5" "$WP/proc/sys/kernel/taint_log"
wait $ppid_; unguard
t "watch | (a reader gone): stops at the next event, exit 0, only the notice on stderr" sh -c "[ \"\$(cat '$T/wp.rc')\" = 0 ] && [ \$(wc -l <'$T/wp.err') -eq 1 ] && grep -q 'is not on procfs' '$T/wp.err'"
run --root "$WS" watch now
t "watch with an operand: exit 2" rc_is 2
t "watch with an operand: says so, naming it" sh -c "[ \"\$(cat '$T/err')\" = \"taintctl: watch takes no operand ('now')\" ]"
run --root "$T/nonexistent" watch
t "watch without a tainted file: exit 3, names it" sh -c "[ $rc -eq 3 ] && grep -q \"cannot open '$T/nonexistent/proc/sys/kernel/tainted'\" '$T/err'"
t "watch --json flag lines: mask_hex agrees with mask" masks_hex "$T/wd.out" 2

tap_done
