# SPDX-License-Identifier: GPL-2.0-or-later
#
# lib.sh - what the command-line tests (tests/cli/*.sh, a file per command)
# share: each sources it first, then runs its tests and ends with tap_done.
#
# Runs $TAINTCTL (default ../build/asan/taintctl, what make cli-check runs)
# against fake trees given with --root DIR (DIR/proc/sys/kernel/...,
# DIR/sys/module/...: what a sosreport holds), checking exit codes,
# messages and JSON (parsed with jq; checked as UTF-8 by python3).  Never
# touches /proc or /sys: the binary must be the test build, whose live
# /proc does not exist (TAINT_LIVE_ROOT), checked here before any test.
#
#   $T/out, $T/err    the last run's stdout and stderr ($T: tap.sh's
#                     temporary directory, one per file); a not ok shows
#                     the first lines of both
#   run, run_in, run_full   taintctl with no stdin, with INPUT on stdin,
#                     into /dev/full; $rc is its exit status
#   rc_is, jq_out, utf8_json, err_is, err_one_line, out_has, write_error
#                     what the last run did (CMDs for tap.sh's t)
#   head_1, gone, epipe_ok   taintctl into a reader that goes away
#   dribble FILE N    FILE into a pipe, the reader's first read() N bytes
#   masks_hex FILE N  every "mask" of JSON output has its "mask_hex"
#   STOCK, PATCHED, V2, CLEAN, UNK, MAL, UNREAD, CUR, BIGLOG
#                     fake --root trees (fake_tree.sh's mkproc), made
#                     below; LONGROOT a name longer than PATH_MAX; EV5, EV6,
#                     EV45 taint_log lines to append; BOOT CUR's boot id
# The checks on the oops corpus are tests/corpus_cli_test.sh.

set -u
TESTDIR=$(cd "$(dirname "$0")/.." && pwd)
TAINTCTL=${TAINTCTL:-$TESTDIR/../build/asan/taintctl}
. "$TESTDIR/tap.sh"
tap_need jq:jq python3:python3
# jq -e of no value fails (tests/bin/jq: jq 1.6 passes an empty file)
PATH=$TESTDIR/bin:$PATH; export PATH
tap_init "cli-$(basename "$0" .sh)"
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
. "$TESTDIR/fake_tree.sh"
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
# an unknown bit, 40, and W
UNK=$(mkproc unk); echo $((1 << 40 | 512)) >"$UNK/proc/sys/kernel/tainted"
# a malformed line (2) and an unknown field (line 3)
MAL=$(mkproc mal); echo 0 >"$MAL/proc/sys/kernel/tainted"
printf 'ts=1.000000 utc=- origin=user flags=U new=U pid=1 uid=0 comm="a"\nthis is not an event\nts=2.000000 utc=- origin=user flags=U new=- pid=1 uid=0 comm="b" future="x"\n' >"$MAL/proc/sys/kernel/taint_log"
UNREAD=$(mkproc unread); echo 512 >"$UNREAD/proc/sys/kernel/tainted"
mkdir "$UNREAD/proc/sys/kernel/taint_log"	# root reads a 0400 file: EISDIR stands in
# V2's log and a boot id: cursors
BOOT=5d0c5b1e-3f2a-4c1b-9e8d-7a6b5c4d3e2f
CUR=$(mkproc cursor)
mkdir -p "$CUR/proc/sys/kernel/random"; echo "$BOOT" >"$CUR/proc/sys/kernel/random/boot_id"
echo 4673 >"$CUR/proc/sys/kernel/tainted"
cp "$V2/proc/sys/kernel/taint_log" "$CUR/proc/sys/kernel/taint_log"
# 20,000 events
BIGLOG=$(mkproc biglog); echo 64 >"$BIGLOG/proc/sys/kernel/tainted"
seq 0 19999 | awk '{ printf "ts=%d.000000 utc=- origin=user flags=U new=- pid=%d uid=0 comm=\"sh\" reason=\"r\"\n", $1, $1 }' >"$BIGLOG/proc/sys/kernel/taint_log"
LONGROOT=/$(printf '%04100d' 0)
# taint_log lines to append
EV5='ts=5.000000 utc=2026-12-03T08:01:00Z origin=user flags=U new=- pid=90 uid=0 auid=1000 comm="make" reason="watch test"'
EV6='ts=6.000000 utc=2026-12-03T08:02:00Z origin=kernel flags=D new=D pid=91 uid=0 auid=- comm="kworker/0:1" module=lkdtm caller=lkdtm_BUG+0x9/0x10'
EV45='ts=4.500000 utc=2026-12-03T08:00:30Z origin=kernel flags=L new=L pid=0 uid=0 auid=- comm="swapper/1" caller=watchdog_timer_fn+0x1f0/0x260'

# A reader that went away (EPIPE) is not an error for any command:
# nothing said, the command's own exit status (0, or check's verdict),
# whether the parent left SIGPIPE at its default or ignored it;
# taintctl's own status under bash's pipefail
# head_1 [trap] ARGS...: taintctl ARGS | head -1; $rc: taintctl's status
# pipefail-ok: the reader that stops early is what these tests are about,
# and no timing decides them: taintctl must exit 0 whether head has gone
# before its write (EPIPE) or not (outputs over the pipe's 64 KiB, so it
# has gone in every run), and only taintctl's status is judged
head_1() {
	tr=; [ "$1" = trap ] && { tr="trap '' PIPE;"; shift; }
	bash -o pipefail -c "$tr"' "$@" 2>"$E" | head -1 >"$O"' bash "$TAINTCTL" "$@"; rc=$?
}
# gone [trap] ARGS...: taintctl ARGS, its standard output a pipe whose
# reading end was closed before taintctl started, so that its first write
# fails with EPIPE (no timing: a sleep before the write would only make it
# likely); with trap, SIGPIPE ignored by the parent, else at its default.
# $rc: taintctl's exit status (a crash is not 0, and speaks on stderr)
gone() {
	sig=DFL; [ "$1" = trap ] && { sig=IGN; shift; }
	python3 -c 'import os, signal, sys
r, w = os.pipe()
os.close(r)
os.dup2(w, 1)
os.close(w)
signal.signal(signal.SIGPIPE, getattr(signal, "SIG_" + sys.argv[1]))
os.execv(sys.argv[2], sys.argv[2:])' "$sig" "$TAINTCTL" "$@" </dev/null 2>"$E"; rc=$?
}
export E="$T/err" O="$T/out"
epipe_ok() { [ $rc -eq "${1:-0}" ] && [ ! -s "$T/err" ]; }
# dribble FILE N: FILE on standard output (a pipe), its first N bytes
# first: then wait (at most 10 s) until the reader has taken them all,
# so that its read() returns those N bytes alone, then the rest.  Fails
# (exit 1, says why on stderr) if the reader does not take them.
dribble() {
	python3 -c 'import fcntl, os, struct, sys, termios, time
data = open(sys.argv[1], "rb").read()
n = int(sys.argv[2])
def put(b):
    while b:
        b = b[os.write(1, b):]
put(data[:n])
for i in range(1000):
    left = struct.unpack("i", fcntl.ioctl(1, termios.FIONREAD, b"\0" * 4))[0]
    if not left:
        break
    time.sleep(0.01)
else:
    sys.exit("dribble: the reader did not take the first %d bytes within 10 s" % n)
put(data[n:])' "$1" "$2"
}

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
