#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# record.sh - taintctl record's checks before anything is loaded (a
# patched kernel: exit 0; no BTF: exit 11; --root: nothing loaded), and
# the recorder's log read by the other commands as a stock kernel's taint
# log: log, status (text, JSON: "recording"), check --since, cursor and
# metrics.  No BPF: the BPF side is tested in QEMU guests only; TAP on
# stdout.

. "$(dirname "$0")/lib.sh"

# --- the checks: nothing is loaded -----------------------------------------
P=$(mkproc rec-patched); echo 0 >"$P/proc/sys/kernel/tainted"
: >"$P/proc/taint_log"
run --root "$P" record
t "record on a kernel with /proc/taint_log: exit 0, says the kernel's log is the source" sh -c "[ $rc -eq 0 ] && grep -q \"keeps its own taint log ('$P/proc/taint_log')\" '$T/out' && [ ! -s '$T/err' ]"
P3=$(mkproc rec-v3); echo 0 >"$P3/proc/sys/kernel/tainted"
: >"$P3/proc/sys/kernel/taint_log"
run --root "$P3" record
t "record on a kernel with v3's /proc/sys/kernel/taint_log: exit 0" sh -c "[ $rc -eq 0 ] && grep -q 'keeps its own taint log' '$T/out'"
S=$(mkproc rec-stock); echo 4096 >"$S/proc/sys/kernel/tainted"
run --root "$S" record
t "record without BTF: exit 11, one line naming /sys/kernel/btf/vmlinux" sh -c "[ $rc -eq 11 ] && [ \$(wc -l <'$T/err') -eq 1 ] && grep -q \"no BTF ('$S/sys/kernel/btf/vmlinux' does not exist)\" '$T/err' && [ ! -s '$T/out' ]"
mkdir -p "$S/sys/kernel/btf" && : >"$S/sys/kernel/btf/vmlinux"
run --root "$S" record
t "record --root of a tree with BTF: exit 2, nothing loaded, no log written" sh -c "[ $rc -eq 2 ] && grep -q 'records the running kernel, not a tree under --root' '$T/err' && [ ! -e '$S/run' ]"
run record
t "record in the test build (its live /sys does not exist): exit 11 before loading" sh -c "[ $rc -eq 11 ] && grep -q 'no BTF' '$T/err'"
run --root "$S" record --json
t "record --json: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'record does not support --json' '$T/err'"
run --root "$S" record extra
t "record with an operand: exit 2" rc_is 2
run record --help
t "record --help: the log, --output, exit status 11" sh -c "[ $rc -eq 0 ] && grep -q '/run/taintctl/taint_log' '$T/out' && grep -q '^ -o, --output FILE' '$T/out' && grep -q '11 this kernel or this taintctl cannot record' '$T/out'"

# --- the recorder's log as a stock kernel's taint log ------------------------
R=$(mkproc rec-log); echo 4608 >"$R/proc/sys/kernel/tainted"
mkdir -p "$R/proc/sys/kernel/random"
echo 3f1e2d4c-0000-4000-8000-000000000001 >"$R/proc/sys/kernel/random/boot_id"
mkdir -p "$R/run/taintctl"
cat >"$R/run/taintctl/taint_log" <<'LOG'
# taintctl-record began ts=0.912345 utc=2026-12-07T22:00:00Z kernel=6.1.0-28-amd64 mask=4096
ts=5.000100 utc=2026-12-07T22:00:05Z origin=kernel flags=W new=W pid=312 uid=0 auid=- comm="cat" module=taint_test caller=taint_test_warn+0x1d/0x40
# taintctl-record lost=3 ts=9.100000
LOG
run --root "$R" log
t "log of a stock kernel: the recorder's event, when recording began, before recording: O, lost 3" sh -c "[ $rc -eq 0 ] && grep -q 'comm=\"cat\" module=taint_test caller=taint_test_warn+0x1d/0x40\$' '$T/out' && grep -qx 'Recorded by taintctl record since ts=0.912345 utc=2026-12-07T22:00:00Z on 6.1.0-28-amd64' '$T/out' && grep -qx 'Before recording: O' '$T/out' && grep -q '^Lost: 3 event' '$T/out' && [ ! -s '$T/err' ]"
run --root "$R" log --json
t "log --json: recording with before_recording O, lost 3, restarts 0; one event" jq_out '(.events | length) == 1 and .recording.kernel == "6.1.0-28-amd64" and ([.recording.before_recording[].letter] == ["O"]) and .recording.lost == 3 and .recording.restarts == 0 and .recording.began_utc == "2026-12-07T22:00:00Z"'
run --root "$R" status --json
t "status --json: taint_log ok, the recorder's event, recording; O is no event" jq_out '.taint_log == "ok" and (.events | length) == 1 and .events[0].new == "W" and ([.recording.before_recording[].letter] == ["O"]) and .recording.without_event == []'
c=$("$TAINTCTL" --root "$R" cursor)
run --root "$R" check --since "$c"
t "check --since on the recorder's log, right after the cursor: exit 0" sh -c "[ $rc -eq 0 ] && grep -q '^ok: nothing set since the cursor' '$T/out'"
echo 'ts=30.000000 utc=2026-12-07T22:00:30Z origin=user flags=U new=U pid=4242 uid=0 auid=1000 comm="sh"' >>"$R/run/taintctl/taint_log"
echo $((4608 | 64)) >"$R/proc/sys/kernel/tainted"
run --root "$R" check --since "$c"
t "check --since: U set after the cursor, named with the recorder's event (pid, auid)" sh -c "[ $rc -eq 1 ] && grep -q '^  U  bit 6 ' '$T/out' && grep -q 'pid=4242 uid=0 auid=1000 comm=\"sh\"' '$T/out'"
run --root "$R" metrics
t "metrics of a stock kernel with a recorder: first-set times from its log" sh -c "[ $rc -eq 0 ] && grep -qx 'kernel_taint_flag_first_set_timestamp_seconds{flag=\"W\",origin=\"kernel\"} 1796680805' '$T/out' && grep -qx 'kernel_taint_flag_first_set_timestamp_seconds{flag=\"U\",origin=\"user\"} 1796680830' '$T/out'"
# a restart: the gap is counted; a flag set with no event is said
echo '# taintctl-record restarted ts=40.000000 utc=2026-12-07T22:00:40Z kernel=6.1.0-28-amd64 mask=4672' >>"$R/run/taintctl/taint_log"
echo $((4672 | 1)) >"$R/proc/sys/kernel/tainted"
run --root "$R" status
t "status after a restart: Restarts 1, P set without a recorded event" sh -c "[ $rc -eq 0 ] && grep -q '^Restarts: 1 ' '$T/out' && grep -q '^Set without a recorded event: P ' '$T/out' && grep -qx 'Before recording: O' '$T/out'"
run --root "$R" status --json
t "status --json after a restart: restarts 1, without_event P" jq_out '.recording.restarts == 1 and ([.recording.without_event[].letter] == ["P"])'
# a flag in the began note's mask that has an event (set between the
# recorder's attaching and its reading of the mask): not "before"
B=$(mkproc rec-both); echo 4608 >"$B/proc/sys/kernel/tainted"
mkdir -p "$B/run/taintctl"
printf '%s\n' '# taintctl-record began ts=1.000000 utc=- kernel=k mask=4608' \
	'ts=0.900000 utc=- origin=kernel flags=W new=W pid=1 uid=0 auid=- comm="a"' >"$B/run/taintctl/taint_log"
run --root "$B" status --json
t "status --json: a flag of the began mask with an event is not before recording" jq_out '[.recording.before_recording[].letter] == ["O"] and .recording.without_event == []'
# a kernel's own log next to a recorder's: the kernel's is the source
printf 'ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm="k"\n' >"$R/proc/sys/kernel/taint_log"
run --root "$R" log --json
t "a kernel log and a recorder's log: the kernel's, no recording" jq_out '(.events | length) == 1 and .events[0].comm == "k" and .recording == null'

# --- mark on a stock kernel: the reason to the recorder's socket ------------
M=$(mkproc rec-mark); echo 0 >"$M/proc/sys/kernel/tainted"
mkdir -p "$M/run/taintctl"
cat >"$T/srv.py" <<'PY'
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind(sys.argv[1])
s.listen(1)
s.settimeout(30)
c, _ = s.accept()
sys.stdout.write(c.recv(200).decode())
sys.stdout.flush()
c.send(b"ok")
PY
python3 "$T/srv.py" "$M/run/taintctl/reason.sock" >"$T/got" 2>&1 &
srv=$!
i=0; while [ ! -S "$M/run/taintctl/reason.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
run --root "$M" mark firmware update
wait $srv
t "mark on a stock kernel with a recorder: the reason to its socket, U set, no warning" sh -c "[ $rc -eq 0 ] && [ \"\$(cat '$T/got')\" = 'firmware update' ] && [ \"\$(cat '$M/proc/sys/kernel/tainted')\" = 64 ] && grep -q \"the reason is in taintctl record's log\" '$T/out' && [ ! -s '$T/err' ]"
rm -f "$M/run/taintctl/reason.sock"
run --root "$M" mark firmware update
t "mark on a stock kernel without a recorder: U set, the warning that no reason was stored" sh -c "[ $rc -eq 0 ] && grep -q 'no reason was stored' '$T/err' && [ ! -s '$T/out' ]"

tap_done
