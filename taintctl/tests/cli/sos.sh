#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# sos.sh - taintctl --root on a sosreport, TAP on stdout.
#
# sos 4.4 copies proc/sys/kernel/tainted but not taint_log; the log is in
# sos_commands/kernel/sysctl_-a, which procps' sysctl writes as one
# "kernel.taint_log = <line>" per line of the file, among the other keys
# (those with several lines, like dev.cdrom.info, get one "KEY = " line
# per line too).  Two fake trees hold the same log text: one in
# proc/sys/kernel/taint_log, one sos-style in sysctl_-a only.  Every
# command must print the same on both: stdout and exit code byte for byte,
# stderr but for the file named, whose line numbers must be sysctl_-a's.
# Never touches /proc or /sys.

. "$(dirname "$0")/lib.sh"
tap_diag() {
	for f in a.out a.err b.out b.err; do
		[ -f "$T/$f" ] && sed -n "1,4s/^/# $f: /p" "$T/$f"
	done
}

LOG=proc/sys/kernel/taint_log
SYSCTL=sos_commands/kernel/sysctl_-a

# tree NAME MASK: a --root tree with proc/ and sys/module (no log yet)
tree() {
	mkdir -p "$T/$1/proc/sys/kernel/random" "$T/$1/sys/module/lkdtm"
	echo "$2" >"$T/$1/proc/sys/kernel/tainted"
	echo 6f1d2c4e-0b7a-4c3e-9a57-2d8e1f0c3b94 >"$T/$1/proc/sys/kernel/random/boot_id"
	echo O >"$T/$1/sys/module/lkdtm/taint"
	echo "$T/$1"
}

# sysctl_a ROOT [LOGFILE]: ROOT/sos_commands/kernel/sysctl_-a as procps'
# `sysctl -a` (run as root, stderr into the same file, as sos runs it)
# writes it, with LOGFILE's lines as kernel.taint_log (none without it)
sysctl_a() {
	mkdir -p "$1/sos_commands/kernel"
	{
		printf 'abi.vsyscall32 = 1\n'
		printf 'dev.cdrom.autoclose = 1\n'
		printf 'dev.cdrom.info = CD-ROM information, Id: cdrom.c 3.20 2003/12/17\n'
		printf 'dev.cdrom.info = \n'
		printf 'dev.cdrom.info = drive name:\t\tsr0\n'
		printf 'dev.cdrom.info = drive speed:\t\t4\n'
		printf 'dev.cdrom.info = \n'
		printf 'kernel.sysrq = 16\n'
		printf 'kernel.taint_log_x = ts=9.000000 utc=- origin=user flags=U new=U pid=9 uid=0 comm="decoy"\n'
		[ $# -gt 1 ] && sed 's/^/kernel.taint_log = /' "$2"
		printf 'kernel.taint_reason = a "quoted" reason\n'
		printf 'kernel.tainted = %s\n' "$(cat "$1/proc/sys/kernel/tainted")"
		printf 'kernel.threads-max = 15422\n'
		printf 'sysctl: reading key "net.ipv6.conf.all.stable_secret"\n'
		printf 'sunrpc.transports = tcp 1048576\n'
		printf 'sunrpc.transports = udp 32768\n'
		printf 'vm.zone_reclaim_mode = 0\n'
	} >"$1/$SYSCTL"
}

# the log of both trees: v2 fields, an unknown field (a warning), dropped=
cat >"$T/events.log" <<'EOF'
ts=0.912000 utc=- origin=kernel flags=O new=O pid=88 uid=0 auid=- comm="insmod" module=lkdtm
ts=1.000100 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=1000 comm="cat" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30
ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm="sudo" reason="a \"quoted\" reason" future="x"
ts=4.000000 utc=2026-12-03T08:00:01Z origin=user flags=PU new=P pid=78 uid=0 auid=- comm="sh"
dropped=2
EOF
A=$(tree proc 4673)
cp "$T/events.log" "$A/$LOG"
B=$(tree sos 4673)
sysctl_a "$B" "$T/events.log"

# first ROOT: the line number in ROOT's sysctl_-a of the log's line 1
first() { sed -n '/^kernel\.taint_log = /{=;q;}' "$1/$SYSCTL"; }

# norm ROOT FILE: FILE with ROOT's taint_log:N as "LOG:N", its sysctl_-a:M
# as "LOG:N" (N = M - first + 1, the log's own line), then "ROOT/" for ROOT/
norm() {
	awk -v l="$1/$LOG:" -v f="$1/$SYSCTL:" -v r="$1/" \
		-v off="$(first "$1")" '
	function line(s, i, o,   rest, n) {
		rest = substr($0, i + length(s))
		n = rest + 0
		sub(/^[0-9]+/, "", rest)
		$0 = substr($0, 1, i - 1) "LOG:" (n - o) rest
	}
	{
		if ((i = index($0, l)))
			line(l, i, 0)
		else if ((i = index($0, f)))
			line(f, i, off - 1)
		while ((i = index($0, r)))
			$0 = substr($0, 1, i - 1) "ROOT/" substr($0, i + length(r))
		print
	}' "$2"
}

# same ROOT_A ROOT_B ARGS...: taintctl ARGS on both trees: the same exit
# code, stdout and stderr, each tree's own directory named "ROOT/" and the
# file of its log "LOG:N" with N the log's line (sysctl_-a's less the
# lines before the log there); ROOT_A's stdout not empty
same() {
	ra=$1 rb=$2
	shift 2
	"$TAINTCTL" --root "$ra" "$@" </dev/null >"$T/a.out" 2>"$T/a.err"; arc=$?
	"$TAINTCTL" --root "$rb" "$@" </dev/null >"$T/b.out" 2>"$T/b.err"; brc=$?
	for f in out err; do
		norm "$ra" "$T/a.$f" >"$T/a.$f.norm"
		norm "$rb" "$T/b.$f" >"$T/b.$f.norm"
	done
	[ -s "$T/a.out" ] && [ "$arc" -eq "$brc" ] &&
		cmp -s "$T/a.out.norm" "$T/b.out.norm" &&
		cmp -s "$T/a.err.norm" "$T/b.err.norm"
}

# a cursor taken when only the first event was logged (O, bit 12)
C=$(tree early 4096)
sed -n 1p "$T/events.log" >"$C/$LOG"
SINCE=$("$TAINTCTL" --root "$C" cursor)

# --- a patched kernel's sosreport: the log from sysctl_-a ------------------
"$TAINTCTL" --root "$A" log >"$T/a.out" 2>/dev/null
t "the proc tree's log has its 4 events (what the sos tree must match)" \
	sh -c "[ \$(grep -c '^\\[ *[0-9.]*\\] ' '$T/a.out') -eq 4 ] && grep -q 'lkdtm_WARNING' '$T/a.out' && grep -q 'dropped: 2' '$T/a.out'"
for args in "status" "status --json" "log" "log --json" "check" \
	"check --deny P" "check --deny W --json" "check --allow OWPU" \
	"metrics" "cursor" "check --since $SINCE" "check --since $SINCE --json"; do
	# shellcheck disable=SC2086
	t "$args: the sos tree prints what the proc tree does (stdout, stderr, exit code)" same "$A" "$B" $args
done
t "the unknown field's warning names sysctl_-a and its line there" \
	grep -qx "taintctl: warning: $B/$SYSCTL:$(($(first "$B") + 2)): unknown field 'future' (event kept)" "$T/b.err"
"$TAINTCTL" --root "$B" log --json >"$T/b.out" 2>/dev/null
t "the decoy kernel.taint_log_x line is no event" \
	sh -c "jq -e '(.events | length) == 4 and all(.events[]; .comm != \"decoy\") and .dropped == 2' '$T/b.out' >/dev/null"

# --- a malformed line: the usual error, at sysctl_-a's line ----------------
sed '2s/.*/this is not an event/' "$T/events.log" >"$T/mal.log"
MA=$(tree malproc 4673)
cp "$T/mal.log" "$MA/$LOG"
MB=$(tree malsos 4673)
sysctl_a "$MB" "$T/mal.log"
for args in "log" "log --json" "status" "check --deny P"; do
	# shellcheck disable=SC2086
	t "$args with a malformed line: the same as the proc tree's" same "$MA" "$MB" $args
done
"$TAINTCTL" --root "$MB" log >/dev/null 2>"$T/b.err"; rc=$?
t "log: the malformed line is named sysctl_-a:LINE, exit 3" \
	sh -c "[ $rc -eq 3 ] && grep -q \"^taintctl: $MB/$SYSCTL:$(grep -n '^kernel.taint_log = this is not' "$MB/$SYSCTL" | cut -d: -f1): malformed line skipped: \" '$T/b.err'"

# --- an empty value and a long line split by procps: malformed, not joined -
EA=$(tree emptyproc 64)
printf '%s\n' "ts=3.123456 utc=- origin=user flags=U new=U pid=77 uid=0 auid=0 comm=\"sh\"" "" >"$T/empty.log"
cp "$T/empty.log" "$EA/$LOG"
EB=$(tree emptysos 64)
sysctl_a "$EB" "$T/empty.log"
t "an empty kernel.taint_log value: an empty line, malformed as in the proc tree" \
	eval 'grep -qx "kernel.taint_log = " "$EB/$SYSCTL" && same "$EA" "$EB" log && grep -q ":$(($(first "$EB") + 1)): malformed line skipped" "$T/b.err"'

# --- a stock kernel's sosreport: no kernel.taint_log line ------------------
SA=$(tree stockproc 4673)
SB=$(tree stocksos 4673)
sysctl_a "$SB"
for args in "status" "status --json" "log" "log --json" "check --deny P" "metrics"; do
	# shellcheck disable=SC2086
	t "$args: a stock kernel's sosreport is a stock tree (no taint log)" same "$SA" "$SB" $args
done
"$TAINTCTL" --root "$SB" log >"$T/b.out" 2>&1
t "log of a stock sosreport names the proc file that does not exist" \
	grep -qx "No taint log: this kernel does not record taint events ('$SB/$LOG' does not exist)." "$T/b.out"

# --- the proc file wins over sysctl_-a; nothing without an explicit root ---
WA=$(tree both 4673)
cp "$T/events.log" "$WA/$LOG"
sysctl_a "$WA" "$T/mal.log"
t "with both, proc/sys/kernel/taint_log is read (not sysctl_-a's malformed copy)" same "$A" "$WA" log --json
mkdir -p "$T/rel"
cp -r "$B/proc" "$B/sys" "$B/sos_commands" "$T/rel/"
(cd "$T/rel" && "$TAINTCTL" --root . log --json >"$T/b.out" 2>"$T/b.err"); rc=$?
t "--root . (a relative sosreport top directory): the log from ./sos_commands" \
	sh -c "[ $rc -eq 0 ] && jq -e '(.events | length) == 4' '$T/b.out' >/dev/null"
mkdir -p "$T/dir/proc/sys/kernel" "$T/dir/$SYSCTL"
echo 0 >"$T/dir/proc/sys/kernel/tainted"
"$TAINTCTL" --root "$T/dir" log >/dev/null 2>"$T/b.err"; rc=$?
t "a sysctl_-a that cannot be read (a directory) is an error naming it, exit 3" \
	sh -c "[ $rc -eq 3 ] && grep -qx \"taintctl: cannot read '$T/dir/$SYSCTL': Is a directory\" '$T/b.err'"

# --- a line longer than procps' 1023 bytes: two pieces, never joined ------
LB=$(tree longsos 64)
sysctl_a "$LB" "$T/empty.log"
long=$(printf '%01000d' 0)
printf 'kernel.taint_log = ts=5.000000 utc=- origin=user flags=U new=- pid=1 uid=0 auid=0 comm="sh" reason="%s\nkernel.taint_log = %s"\n' "$long" "$long" >>"$LB/$SYSCTL"
"$TAINTCTL" --root "$LB" log --json >"$T/b.out" 2>"$T/b.err"; rc=$?
t "a line in two pieces: two malformed lines (exit 3), no event made of them" \
	sh -c "[ $rc -eq 3 ] && [ \$(grep -c 'malformed line skipped' '$T/b.err') -eq 3 ] && jq -e '(.events | length) == 1' '$T/b.out' >/dev/null"

tap_done
