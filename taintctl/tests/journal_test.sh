#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# journal_test.sh - watch's native journal output (--journal, and the
# automatic one when $JOURNAL_STREAM names standard output), through the
# real sd_journal_sendv() of libsystemd: TAP on stdout.
#
# Usage: TAINTCTL=... TAINTCTL_NOJOURNAL=... journal_test.sh
#   TAINTCTL is built with libsystemd (JOURNAL=auto or yes), TAINTCTL_NOJOURNAL
#   without (JOURNAL=no's cli/journal_none.c).
# The end-to-end tests run in a private mount namespace (unshare -m; the
# script runs itself again there): a temporary directory bound over
# /run/systemd/journal (or the deepest of its parents that exists), where
# tests/journal_recv.py plays journald, bound at its socket, parsing the
# native protocol.  Watch runs on fake --root trees (as tests/cli/watch.sh's).
# They skip, saying why, when not root or unshare -m fails; the rest runs
# anyway.  Nothing of the host's journal is touched.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TAINTCTL=${TAINTCTL:-$HERE/../build/asan/taintctl}
TAINTCTL_NOJOURNAL=${TAINTCTL_NOJOURNAL:-$HERE/../build/asan/taintctl-nojournal}
# the end-to-end tests: in a mount namespace of their own
ns_why=
if [ -z "${JOURNAL_TEST_NS:-}" ]; then
	if [ "$(id -u)" -ne 0 ]; then
		ns_why="not root (a private mount namespace is needed)"
	elif ! unshare -m true 2>/dev/null; then
		ns_why="unshare -m fails here"
	else
		JOURNAL_TEST_NS=1 exec unshare -m sh "$0" "$@"
	fi
fi
. "$HERE/tap.sh"
# jq -e of no value fails (tests/bin/jq: jq 1.6 passes an empty file)
PATH=$HERE/bin:$PATH; export PATH
tap_init journal
tap_diag() {
	sed -n '1,5s/^/# stdout: /p' "$T/out" 2>/dev/null
	sed -n '1,5s/^/# stderr: /p' "$T/err" 2>/dev/null
	sed -n '1,8s/^/# journal: /p' "$T/j.out" 2>/dev/null
}

. "$HERE/fake_tree.sh"
# lines FILE N: FILE has N lines or more (at most 30 s); fails if not
lines() {
	i=0
	while [ $i -lt 300 ] && [ "$(cat "$1" 2>/dev/null | wc -l)" -lt "$2" ]; do
		sleep 0.1; i=$((i + 1))
	done
	[ "$(wc -l <"$1")" -ge "$2" ]
}
# a v2 log: watch prints none of these
LOG='ts=1.000100 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=1000 comm="cat" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30
dropped=2'
# a reason and a comm that look like journal fields
EVU='ts=5.000000 utc=2026-12-03T08:01:00Z origin=user flags=UW new=U pid=90 uid=0 auid=1000 comm="a=b" reason="fix\x0aFLAG=X\x0aPRIORITY=0"'
EVZ='ts=7.000000 utc=2026-12-03T08:03:00Z origin=user flags=DLUW new=- pid=92 uid=0 auid=1000 comm="make" reason="the last"'
EVD='ts=6.000000 utc=2026-12-03T08:02:00Z origin=kernel flags=DLUW new=DL pid=91 uid=0 auid=- comm="kworker/0:1" module=lkdtm caller=lkdtm_BUG+0x9/0x10'
# tree NAME: a fake root with LOG, mask W (512)
tree() { r=$(mkproc "$1"); echo 512 >"$r/proc/sys/kernel/tainted"; printf '%s\n' "$LOG" >"$r/proc/sys/kernel/taint_log"; echo "$r"; }
# append TREE LINE: LINE before the log's last (dropped=) line
# (written as is: sed's i would turn the log's \x0a into a newline)
append() {
	l=$1/proc/sys/kernel/taint_log
	{ sed '$d' "$l"; printf '%s\n' "$2"; tail -n 1 "$l"; } >"$l.new" && mv "$l.new" "$l"
}

# --- without the journal: usage, a taintctl without libsystemd -------------
R=$(tree plain)
"$TAINTCTL" --root "$R" --json watch --journal </dev/null >"$T/out" 2>"$T/err"; rc=$?
t "watch --journal --json: exit 2, they do not combine" sh -c "[ $rc -eq 2 ] && [ ! -s '$T/out' ] && grep -q 'taintctl: watch: --journal and --json do not combine' '$T/err'"
"$TAINTCTL_NOJOURNAL" --root "$R" watch --journal </dev/null >"$T/out" 2>"$T/err"; rc=$?
t "watch --journal in a taintctl built without libsystemd: exit 2, says so" sh -c "[ $rc -eq 2 ] && [ \"\$(cat '$T/err')\" = 'taintctl: watch --journal: this taintctl was built without libsystemd (JOURNAL=no)' ]"
# without libsystemd, a stdout that is the journal still gets the lines
: >"$T/out"
JOURNAL_STREAM=$(stat -c %d:%i "$T/out") "$TAINTCTL_NOJOURNAL" --root "$R" watch --once -n 0.1 >"$T/out" 2>"$T/err" &
wpid=$!; guard $wpid; started $wpid "$T/err"
append "$R" "$EVU"
wait $wpid; rc=$?; unguard
t "without libsystemd, \$JOURNAL_STREAM naming stdout: the line on stdout, exit 0" sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$T/out') -eq 1 ] && grep -q 'comm=\"a=b\" reason=\"fix\\\\x0aFLAG=X' '$T/out'"

# the Makefile's JOURNAL=: what taintctl links (make -n, in a scratch B=)
SRC=$HERE/..
mk() { ${MAKE:-make} -s -n -B -C "$SRC" B="$T/b" "$@" 2>&1; }
out=$(PKG_CONFIG=false mk JOURNAL=yes "$T/b/taintctl"); rc=$?
t "make JOURNAL=yes without libsystemd: fails, naming libsystemd-dev" sh -c "[ $rc -ne 0 ] && printf '%s' '$out' | grep -q 'JOURNAL=yes: false does not find libsystemd (Debian: apt-get install libsystemd-dev)'"
out=$(PKG_CONFIG=false mk "$T/b/taintctl")
t "make (JOURNAL=auto) without libsystemd: taintctl links journal_none.o, no -lsystemd" sh -c "printf '%s' '$out' | grep -q 'journal_none.o' && ! printf '%s' '$out' | grep -q -- '-lsystemd'"
out=$(mk "$T/b/taintctl")
t "make (JOURNAL=auto) with libsystemd: taintctl links journal_sd.o and -lsystemd" sh -c "printf '%s' '$out' | grep -q 'journal_sd.o' && printf '%s' '$out' | grep -q -- '-lsystemd'"
out=$(mk JOURNAL=no "$T/b/taintctl")
t "make JOURNAL=no: no -lsystemd though libsystemd is there" sh -c "printf '%s' '$out' | grep -q 'journal_none.o' && ! printf '%s' '$out' | grep -q -- '-lsystemd'"
out=$(mk JOURNAL=yes "$T/b/taintctl-static")
t "make static (the guest's): journal_none.o, no -lsystemd, even with JOURNAL=yes" sh -c "printf '%s' '$out' | grep -q 'journal_none.o' && ! printf '%s' '$out' | grep -q -- '-lsystemd'"

# --- end to end, through sd_journal_sendv() ----------------------------------
E2E="watch --journal: stdout empty, only the notice on stderr, exit 0 (SIGTERM)
watch --journal: 5 entries (event, event, flag, dropped, the last event), nothing twice, well-formed native protocol
watch --journal: each MESSAGE is the text line watch prints (log's line for events)
watch --journal: MESSAGE_ID per kind, PRIORITY notice, SYSLOG_IDENTIFIER=taintctl-watch
watch --journal: a user request: FLAG=U only, ORIGIN=user, TAINT_* raw (reason with newlines, comm with =)
watch --journal: a value with a newline is sent length-prefixed (binary form), injects no field
watch --journal: a kernel event: FLAG=D and FLAG=L, ORIGIN=kernel, TAINT_MODULE, TAINT_CALLER, no TAINT_AUID (auid=-)
watch --journal: a flag set without an event: FLAG=F, TAINT_BIT, TAINT_NAME, TAINT_MASK
watch --journal: a grown dropped count: TAINT_DROPPED, TAINT_COUNT, ORIGIN=user
watch --journal --deny D: the denied event at PRIORITY warning (4), exit 1
\$JOURNAL_STREAM naming stdout: journal entry by default, stdout empty
\$JOURNAL_STREAM naming another file: the line on stdout, no journal entry
\$JOURNAL_STREAM naming stdout, with --json: JSON on stdout, no journal entry
watch --journal --once, a journal socket nobody listens at: the item lost, said once, exit 3
watch --journal without journald (no socket): stdout empty, exit 3 at the end (SIGTERM)
watch --journal without journald: one warning, naming the socket, for the items lost
watch --journal without journald: the count of items lost at the end
watch --journal without journald: goes on, and logs the items after journald is back"
if [ -z "${JOURNAL_TEST_NS:-}" ]; then
	# (not in a pipe: the skips count in this shell, for tap_done's plan)
	printf '%s\n' "$E2E" >"$T/e2e"
	while IFS= read -r d; do skip "$d" "$ns_why"; done <"$T/e2e"
	tap_done
fi
base=/run/systemd/journal
while [ ! -d "$base" ]; do base=$(dirname "$base"); done
mkdir "$T/run"
mount --bind "$T/run" "$base" || { echo "Bail out! mount --bind $T/run $base failed"; exit 1; }
mkdir -p /run/systemd/journal
SOCK=/run/systemd/journal/socket
# recv FILE: journal_recv.py at SOCK, appending to FILE; unrecv stops it
# (at most 30 s until it listens, else a not ok)
recv() {
	: >"$1"
	python3 "$HERE/journal_recv.py" "$SOCK" "$1" & rpid=$!
	i=0
	until [ -S "$SOCK" ]; do
		if [ $i -ge 300 ] || ! kill -0 $rpid 2>/dev/null; then
			not_ok "journal_recv.py listens at $SOCK within 30 s"
			return 1
		fi
		sleep 0.1; i=$((i + 1))
	done
}
unrecv() { kill "$rpid"; wait "$rpid" 2>/dev/null; rm -f "$SOCK"; }
# jsync [FILE]: every entry sent so far is in FILE ($T/j.out): a datagram
# of ours, sent after them, has come out (the socket keeps their order),
# as an entry with SYNC (at most 30 s, else a not ok), which jq_j leaves
# out
jsync() {
	python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"SYNC=1\n", sys.argv[1])' "$SOCK" || {
		not_ok "a datagram to journal_recv.py"; return 1; }
	i=0
	until grep -q '"SYNC"' "${1:-$T/j.out}"; do
		if [ $i -ge 300 ]; then
			not_ok "journal_recv.py took a last datagram within 30 s"
			return 1
		fi
		sleep 0.1; i=$((i + 1))
	done
}
# jq_j FILTER [FILE]: on the entries received in FILE ($T/j.out; not
# jsync's), as an array
jq_j() { jq -s -e "[.[] | select(has(\"SYNC\") | not)] | $1" "${2:-$T/j.out}" >/dev/null; }
# idle PID: until watch PID waits for its next wake-up (blocked in poll(),
# says /proc/PID/wchan), at most 30 s, else a not ok: what it had to do for
# the changes it saw is done
idle() {
	i=0
	until case $(cat "/proc/$1/wchan" 2>/dev/null) in *poll*|*nanosleep*) true ;; *) false ;; esac; do
		if [ $i -ge 300 ] || ! kill -0 "$1" 2>/dev/null; then
			not_ok "watch waits for its next wake-up (/proc/$1/wchan) within 30 s"
			return 1
		fi
		sleep 0.1; i=$((i + 1))
	done
}

# no socket at all (no journald): libsystemd would drop each entry and
# return 0; watch says so once, goes on (the items after journald is back
# are logged) and exits 3 at the end.  Two events in one change: two items
# lost at one wake-up, one warning
R=$(tree nojournald)
"$TAINTCTL" --root "$R" watch --journal -n 0.1 >"$T/out" 2>"$T/err" &
wpid=$!; guard $wpid; started $wpid "$T/err"
append "$R" "$EVU
$EVD"
# its warning, then the end of that wake-up: both items lost
lines "$T/err" 2
idle $wpid
recv "$T/j0.out"
set_mask "$R" $((512 | 2))
lines "$T/j0.out" 1
# that wake-up done, what it sent received: nothing else came
idle $wpid
jsync "$T/j0.out"
kill -TERM $wpid; wait $wpid; rc_nojd=$?; unguard
unrecv
cp "$T/err" "$T/nojd.err"; cp "$T/out" "$T/nojd.out"

# a socket nobody listens at (journald gone): sd_journal_sendv() fails;
# the item is lost, as without a socket
python3 -c 'import socket, sys
socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).bind(sys.argv[1])' "$SOCK"
R=$(tree nosock)
"$TAINTCTL" --root "$R" watch --journal --once -n 0.1 >"$T/out" 2>"$T/err" &
wpid=$!; guard $wpid; started $wpid "$T/err"
append "$R" "$EVU"
wait $wpid; rc_nosock=$?; unguard
cp "$T/err" "$T/nosock.err"; cp "$T/out" "$T/nosock.out"
rm -f "$SOCK"

recv "$T/j.out"
R=$(tree e2e)
"$TAINTCTL" --root "$R" watch --journal -n 0.1 >"$T/out" 2>"$T/err" &
wpid=$!; guard $wpid; started $wpid "$T/err"
append "$R" "$EVU"
lines "$T/j.out" 1
append "$R" "$EVD"
set_mask "$R" $((512 | 64 | 128 | 16384))
lines "$T/j.out" 2
set_mask "$R" $((512 | 64 | 128 | 16384 | 2))
lines "$T/j.out" 3
sed -i 's/^dropped=2$/dropped=5/' "$R/proc/sys/kernel/taint_log"
lines "$T/j.out" 4
# a last event: once its entry came, watch has read the tree again after
# every change above (and sent anything it would send twice)
append "$R" "$EVZ"
lines "$T/j.out" 5
kill -TERM $wpid; wait $wpid; rc=$?; unguard
unrecv
t "watch --journal: stdout empty, only the notice on stderr, exit 0 (SIGTERM)" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/out' ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q 'is not on procfs' '$T/err'"
t "watch --journal: 5 entries (event, event, flag, dropped, the last event), nothing twice, well-formed native protocol" jq_j 'length == 5 and all(.[]; has("_error") | not)'
"$TAINTCTL" --root "$R" log >"$T/log"
ev1=$(grep 'comm="a=b"' "$T/log"); ev2=$(grep 'lkdtm_BUG' "$T/log"); ev3=$(grep 'reason="the last"' "$T/log")
FL=$("$TAINTCTL" decode 2 | grep '^  F  bit 1 ')
jq -n --arg a "$ev1" --arg b "$ev2" --arg c "flag set, no taint_log event:$FL" \
	--arg d 'dropped: 3 more user request(s) not kept (log full; 5 in all)' \
	--arg e "$ev3" '[$a, $b, $c, $d, $e]' >"$T/want"
t "watch --journal: each MESSAGE is the text line watch prints (log's line for events)" sh -c "[ -n '$ev1' ] && [ -n '$ev2' ] && [ -n '$ev3' ] && [ -n '$FL' ] && jq -s -e --slurpfile w '$T/want' '[.[].MESSAGE[0]] == \$w[0] and all(.[]; (.MESSAGE | length) == 1)' '$T/j.out' >/dev/null"
t "watch --journal: MESSAGE_ID per kind, PRIORITY notice, SYSLOG_IDENTIFIER=taintctl-watch" jq_j '[.[].MESSAGE_ID[0]] == ["ba51a6fee1e340ffa3fc9d1ddbcf2f41", "ba51a6fee1e340ffa3fc9d1ddbcf2f41", "e9b10e89891a405fb683e9878f069f3a", "acc0c52d4f254ac095b36e97438253dc", "ba51a6fee1e340ffa3fc9d1ddbcf2f41"] and all(.[]; .PRIORITY == ["5"] and .SYSLOG_IDENTIFIER == ["taintctl-watch"])'
t "watch --journal: a user request: FLAG=U only, ORIGIN=user, TAINT_* raw (reason with newlines, comm with =)" jq_j '.[0] | .FLAG == ["U"] and .ORIGIN == ["user"] and .TAINT_REASON == ["fix\nFLAG=X\nPRIORITY=0"] and .TAINT_COMM == ["a=b"] and .TAINT_TS == ["5.000000"] and .TAINT_UTC == ["2026-12-03T08:01:00Z"] and .TAINT_FLAGS == ["UW"] and .TAINT_NEW == ["U"] and .TAINT_PID == ["90"] and .TAINT_UID == ["0"] and .TAINT_AUID == ["1000"] and (has("TAINT_MODULE") or has("TAINT_CALLER") | not)'
t "watch --journal: a value with a newline is sent length-prefixed (binary form), injects no field" jq_j '.[0] | (._binary | index("TAINT_REASON")) != null and (._binary | index("MESSAGE")) == null and (has("X") | not) and .PRIORITY == ["5"]'
t "watch --journal: a kernel event: FLAG=D and FLAG=L, ORIGIN=kernel, TAINT_MODULE, TAINT_CALLER, no TAINT_AUID (auid=-)" jq_j '.[1] | .FLAG == ["D", "L"] and .ORIGIN == ["kernel"] and .TAINT_MODULE == ["lkdtm"] and .TAINT_CALLER == ["lkdtm_BUG+0x9/0x10"] and .TAINT_COMM == ["kworker/0:1"] and (has("TAINT_AUID") or has("TAINT_REASON") | not)'
t "watch --journal: a flag set without an event: FLAG=F, TAINT_BIT, TAINT_NAME, TAINT_MASK" jq_j '.[2] | .FLAG == ["F"] and .TAINT_BIT == ["1"] and .TAINT_NAME == ["FORCED_MODULE"] and .TAINT_MASK == ["17090"] and (has("ORIGIN") | not)'
t "watch --journal: a grown dropped count: TAINT_DROPPED, TAINT_COUNT, ORIGIN=user" jq_j '.[3] | .TAINT_DROPPED == ["5"] and .TAINT_COUNT == ["3"] and .ORIGIN == ["user"] and (has("FLAG") | not)'

recv "$T/j.out"
R=$(tree deny)
"$TAINTCTL" --root "$R" watch --journal --deny D -n 0.1 >"$T/out" 2>"$T/err" &
wpid=$!; guard $wpid; started $wpid "$T/err"
append "$R" "$EVD"
wait $wpid; rc=$?; unguard
jsync
unrecv
t "watch --journal --deny D: the denied event at PRIORITY warning (4), exit 1" eval '[ $rc -eq 1 ] && [ ! -s "$T/out" ] && jq_j "length == 1 and .[0].PRIORITY == [\"4\"] and .[0].FLAG == [\"D\", \"L\"]"'

# auto: $JOURNAL_STREAM is "<dev>:<ino>" of the stream (systemd.exec(5))
recv "$T/j.out"
R=$(tree auto)
: >"$T/out"
JOURNAL_STREAM=$(stat -c %d:%i "$T/out") "$TAINTCTL" --root "$R" watch --once -n 0.1 >"$T/out" 2>"$T/err" &
wpid=$!; guard $wpid; started $wpid "$T/err"
append "$R" "$EVU"
wait $wpid; rc=$?; unguard
jsync
t "\$JOURNAL_STREAM naming stdout: journal entry by default, stdout empty" eval '[ $rc -eq 0 ] && [ ! -s "$T/out" ] && jq_j "length == 1 and .[0].FLAG == [\"U\"]"'
: >"$T/other"
JOURNAL_STREAM=$(stat -c %d:%i "$T/other") "$TAINTCTL" --root "$R" watch --once -n 0.1 >"$T/out" 2>"$T/err" &
wpid=$!; guard $wpid; started $wpid "$T/err"
append "$R" "$EVD"
wait $wpid; rc=$?; unguard
jsync
t "\$JOURNAL_STREAM naming another file: the line on stdout, no journal entry" sh -c "[ $rc -eq 0 ] && [ \$(wc -l <'$T/out') -eq 1 ] && grep -q 'lkdtm_BUG' '$T/out' && [ \$(grep -vc '\"SYNC\"' '$T/j.out') -eq 1 ]"
: >"$T/out"
JOURNAL_STREAM=$(stat -c %d:%i "$T/out") "$TAINTCTL" --root "$R" --json watch --once -n 0.1 >"$T/out" 2>"$T/err" &
wpid=$!; guard $wpid; started $wpid "$T/err"
set_mask "$R" $((512 | 2))
wait $wpid; rc=$?; unguard
jsync
unrecv
t "\$JOURNAL_STREAM naming stdout, with --json: JSON on stdout, no journal entry" sh -c "[ $rc -eq 0 ] && jq -e '.type == \"flag\" and .letter == \"F\"' '$T/out' >/dev/null && [ \$(grep -vc '\"SYNC\"' '$T/j.out') -eq 1 ]"

t "watch --journal --once, a journal socket nobody listens at: the item lost, said once, exit 3" sh -c "[ $rc_nosock -eq 3 ] && [ ! -s '$T/nosock.out' ] && [ \$(grep -c 'cannot log to the journal' '$T/nosock.err') -eq 1 ] && grep -q '^taintctl: warning: cannot log to the journal: Connection refused (/run/systemd/journal/socket)' '$T/nosock.err' && [ \"\$(tail -1 '$T/nosock.err')\" = 'taintctl: 1 item(s) not logged to the journal' ]"
# (a failure's diagnostics show $T/out and $T/err: the block's own)
cp "$T/nojd.err" "$T/err"; cp "$T/nojd.out" "$T/out"
t "watch --journal without journald (no socket): stdout empty, exit 3 at the end (SIGTERM)" sh -c "[ $rc_nojd -eq 3 ] && [ ! -s '$T/nojd.out' ]"
t "watch --journal without journald: one warning, naming the socket, for the items lost" sh -c "[ \$(grep -c 'cannot log to the journal' '$T/nojd.err') -eq 1 ] && grep -q '^taintctl: warning: cannot log to the journal: no journal socket (/run/systemd/journal/socket): is systemd-journald running?' '$T/nojd.err'"
t "watch --journal without journald: the count of items lost at the end" sh -c "[ \"\$(tail -1 '$T/nojd.err')\" = 'taintctl: 2 item(s) not logged to the journal' ]"
t "watch --journal without journald: goes on, and logs the items after journald is back" jq_j 'length == 1 and .[0].FLAG == ["F"]' "$T/j0.out"
tap_done
