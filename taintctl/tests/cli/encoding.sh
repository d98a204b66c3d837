#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# encoding.sh - what every command reads, written by other tools: CR LF
# line ends, blank lines and sysctl's "kernel.tainted = N" in a saved
# mask, a UTF-8 byte order mark, UTF-16 (LE and BE, with or without a byte
# order mark: PowerShell's >, Notepad's "Unicode").  Each must be read as
# the same text in UTF-8 would be, or refused with exit 3: never a silent
# pass.  TAP on stdout.

. "$(dirname "$0")/lib.sh"

# enc ENC < UTF-8 > ENC: le, be (UTF-16 with a byte order mark), lenb,
# benb (without one), u8bom (UTF-8 with one), 32le (UTF-32 with one)
enc() {
	python3 -c 'import sys
d = sys.stdin.buffer.read().decode("utf-8")
bom, codec = {"le": (b"\xff\xfe", "utf-16-le"), "be": (b"\xfe\xff", "utf-16-be"),
	"lenb": (b"", "utf-16-le"), "benb": (b"", "utf-16-be"),
	"u8bom": (b"\xef\xbb\xbf", "utf-8"),
	"32le": (b"\xff\xfe\x00\x00", "utf-32-le")}[sys.argv[1]]
sys.stdout.buffer.write(bom + d.encode(codec))' "$1"
}

# --- check --from a saved mask: CR, blank lines, sysctl's form ---------------
i=0
for m in '4609\r\n' '4609\n\n' '\n4609\n' '4609' ' 4609 \r\n\r\n' \
	 'kernel.tainted = 4609\n' 'kernel.tainted=4609\n' \
	 'kernel.tainted = 4609\r\n\r\n' '0x1201\r\n'; do
	i=$((i + 1))
	printf "$m" >"$T/mask$i"
	d=$(printf '%s' "$m" | sed 's/\\r/<CR>/g; s/\\n/<LF>/g')
	run check --from "$T/mask$i" --deny W
	t "check --from a saved mask '$d': the mask 4609, W denied: exit 1" sh -c "[ $rc -eq 1 ] && grep -q '^FAIL: disallowed taint set (mask 4609)' '$T/out'"
done
run -j check --from "$T/mask1" --deny D
t "check --json --from a CR LF mask: mask 4609, one value judged, exit 0" sh -c "[ $rc -eq 0 ] && jq -e '.mask == 4609 and .ok and .from.fields == 1' '$T/out' >/dev/null"
run_in '4609\r\n' check --from - --deny W
t "check --from - (a pipe) of '4609<CR><LF>': exit 1" rc_is 1
run_in 'kernel.tainted = 4609\n\n' check --from - --deny W
t "check --from - (a pipe) of sysctl's 'kernel.tainted = 4609': exit 1" rc_is 1
for e in u8bom le be lenb benb; do
	printf 'kernel.tainted = 4609\r\n' | enc $e >"$T/mask.$e"
	printf '4609\r\n' | enc $e >"$T/num.$e"
	run check --from "$T/num.$e" --deny W
	t "check --from a saved mask in $e: exit 1" sh -c "[ $rc -eq 1 ] && grep -q '(mask 4609)' '$T/out'"
	run check --from "$T/mask.$e" --deny W
	t "check --from 'kernel.tainted = 4609' in $e: exit 1" sh -c "[ $rc -eq 1 ] && grep -q '(mask 4609)' '$T/out'"
done
cat "$T/num.le" | "$TAINTCTL" check --from - --deny W >"$T/out" 2>"$T/err"; rc=$?
t "check --from - (a pipe) of a UTF-16 saved mask: exit 1" rc_is 1

# --- taint logs with CR LF line ends ----------------------------------------
sed 's/$/\r/' "$PATCHED/proc/sys/kernel/taint_log" >"$T/crlf.log"
run -j log "$T/crlf.log"
t "log FILE with CR LF line ends: 3 events, dropped 5, exit 0" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '(.events | length) == 3 and .dropped == 5 and .events[0].caller == \"lkdtm_WARNING+0x1d/0x30 [lkdtm]\"' '$T/out' >/dev/null"

# --- --root: tainted, taint_log and a module's taint with CR LF -------------
CR=$(mkproc crlf)
printf '4609\r\n' >"$CR/proc/sys/kernel/tainted"
cp "$T/crlf.log" "$CR/proc/sys/kernel/taint_log"
mkdir -p "$CR/sys/module/zfs"; printf 'PO\r\n' >"$CR/sys/module/zfs/taint"
run --root "$CR" -j status
t "status --root with CR LF files: mask 4609, 3 events, module zfs PO" sh -c "[ $rc -eq 0 ] && jq -e '.mask == 4609 and (.events | length) == 3 and .modules == [{\"name\": \"zfs\", \"taint\": \"PO\"}]' '$T/out' >/dev/null"
run --root "$CR" check --deny W
t "check --root with tainted '4609<CR><LF>' --deny W: exit 1" rc_is 1
run --root "$CR" -j log
t "log --root with a CR LF taint_log: 3 events" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '(.events | length) == 3 and .dropped == 5' '$T/out' >/dev/null"
SYS=$(mkproc sysctl)
printf 'kernel.tainted = 4609\r\n' >"$SYS/proc/sys/kernel/tainted"
run --root "$SYS" check --deny W
t "check --root with tainted 'kernel.tainted = 4609<CR><LF>': exit 1" rc_is 1
# a sosreport whose sysctl_-a has CR LF line ends
SOSCR=$(mkproc soscr)
echo 4673 >"$SOSCR/proc/sys/kernel/tainted"
mkdir -p "$SOSCR/sos_commands/kernel"
{
	printf 'kernel.sysrq = 16\r\n'
	sed 's/^/kernel.taint_log = /; s/$/\r/' "$V2/proc/sys/kernel/taint_log"
	printf 'kernel.tainted = 4673\r\n'
} >"$SOSCR/sos_commands/kernel/sysctl_-a"
run --root "$SOSCR" -j log
t "log --root of a sosreport with a CR LF sysctl_-a: 4 events, dropped 2" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '(.events | length) == 4 and .dropped == 2 and .events[1].caller == \"lkdtm_WARNING+0x1d/0x30\"' '$T/out' >/dev/null"

tap_done
