#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# encoding.sh - what every command reads, written by other tools: CR LF
# line ends, blank lines and sysctl's "kernel.tainted = N" in a saved
# mask, a UTF-8 byte order mark, UTF-16 (LE and BE, with or without a byte
# order mark: PowerShell's >, Notepad's "Unicode"), compressed UTF-16, and
# UTF-32 (refused, named).  Each must be read as the same text in UTF-8
# would be (check, scan, decode, log, --root, a sosreport's sysctl_-a), or
# refused with exit 3: never a silent pass.  TAP on stdout.

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

# --- logs in UTF-16 and with a UTF-8 byte order mark -------------------------
cat >"$T/oops.txt" <<'EOF'
[    0.000000] Linux version 6.1.0 (gcc) #1 SMP PREEMPT_DYNAMIC
[    5.000000] lkdtm: Performing direct entry WARNING
[    5.000100] CPU: 0 PID: 312 Comm: cat Tainted: G        W          6.1.0 #1
[    5.000200] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)
EOF
for e in le be lenb benb; do
	enc $e <"$T/oops.txt" >"$T/oops.$e"
	run -j scan "$T/oops.$e"
	t "scan of a UTF-16 ($e) log: the field, at its line" sh -c "[ $rc -eq 0 ] && jq -e -s 'length == 1 and .[0].line == 3 and .[0].mask == 512 and .[0].text == \"Tainted: G        W\"' '$T/out' >/dev/null"
	run check --from "$T/oops.$e" --deny W
	t "check --from a UTF-16 ($e) log --deny W: exit 1" sh -c "[ $rc -eq 1 ] && grep -q '^  W ' '$T/out'"
done
cat "$T/oops.le" | "$TAINTCTL" -j scan - >"$T/out" 2>"$T/err"; rc=$?
t "scan - of a UTF-16 log from a pipe: the field, at its line" sh -c "[ $rc -eq 0 ] && jq -e -s 'length == 1 and .[0].line == 3' '$T/out' >/dev/null"
cat "$T/oops.benb" | "$TAINTCTL" check --from - --deny W >"$T/out" 2>"$T/err"; rc=$?
t "check --from - of a UTF-16BE log from a pipe: exit 1" rc_is 1
gzip -c "$T/oops.le" >"$T/oops.le.gz"
run check --from "$T/oops.le.gz" --deny W
t "check --from a gzip-compressed UTF-16 log: exit 1" rc_is 1
"$TAINTCTL" -j decode <"$T/oops.le" >"$T/out" 2>"$T/err"; rc=$?
t "decode < a UTF-16 log: the field decoded, at its line" sh -c "[ $rc -eq 0 ] && jq -e -s 'length == 1 and .[0].mask == 512 and .[0].line == 3' '$T/out' >/dev/null"
"$TAINTCTL" -j decode <"$T/num.be" >"$T/out" 2>"$T/err"; rc=$?
t "decode < a UTF-16 number: 4609" sh -c "[ $rc -eq 0 ] && jq -e '.mask == 4609' '$T/out' >/dev/null"
"$TAINTCTL" -j decode <"$T/oops.le.gz" >"$T/out" 2>"$T/err"; rc=$?
t "decode < a gzip-compressed UTF-16 log: the field" sh -c "[ $rc -eq 0 ] && jq -e '.mask == 512' '$T/out' >/dev/null"
enc 32le <"$T/oops.txt" >"$T/oops.32"
"$TAINTCTL" decode <"$T/oops.32" >"$T/out" 2>"$T/err"; rc=$?
t "decode < a UTF-32 log: exit 3, the encoding named" sh -c "[ $rc -eq 3 ] && grep -q 'UTF-32LE text, not supported' '$T/err' && [ ! -s '$T/out' ]"
# the byte order mark is not text: an event and a boot line at line 1
printf 'Taint W: ts=1.000100 utc=- origin=kernel flags=W new=W pid=1 uid=0 comm="a" caller=f+0x1/0x2\nLinux version 6.1\n' | enc u8bom >"$T/bom.log"
run -j scan "$T/bom.log"
t "scan of a log with a UTF-8 byte order mark: the event of line 1" sh -c "[ $rc -eq 0 ] && jq -e -s 'length == 1 and .[0].line == 1 and .[0].letter == \"W\"' '$T/out' >/dev/null"
# UTF-32: refused, named
run scan "$T/oops.32"
t "scan of a UTF-32 log: exit 3, the encoding named" sh -c "[ $rc -eq 3 ] && grep -q 'UTF-32' '$T/err' && [ ! -s '$T/out' ]"
run check --from "$T/oops.32" --deny W
t "check --from a UTF-32 log: exit 3, not a pass" sh -c "[ $rc -eq 3 ] && grep -q 'UTF-32' '$T/err'"

# --- taint logs in UTF-16 -----------------------------------------------------
enc le <"$PATCHED/proc/sys/kernel/taint_log" >"$T/u16.log"
run -j log "$T/u16.log"
t "log FILE in UTF-16: 3 events, dropped 5, exit 0" sh -c "[ $rc -eq 0 ] && jq -e '(.events | length) == 3 and .dropped == 5' '$T/out' >/dev/null"
"$TAINTCTL" -j log - <"$T/u16.log" >"$T/out" 2>"$T/err"; rc=$?
t "log - of a UTF-16 log: 3 events" sh -c "[ $rc -eq 0 ] && jq -e '(.events | length) == 3' '$T/out' >/dev/null"

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
# --root and a sosreport whose files went through a Windows tool: UTF-16
U16=$(mkproc u16root)
printf '4609\r\n' | enc le >"$U16/proc/sys/kernel/tainted"
enc be <"$T/crlf.log" >"$U16/proc/sys/kernel/taint_log"
mkdir -p "$U16/sys/module/zfs"; printf 'PO\r\n' | enc le >"$U16/sys/module/zfs/taint"
run --root "$U16" -j status
t "status --root with UTF-16 files: mask 4609, 3 events, module zfs PO" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '.mask == 4609 and (.events | length) == 3 and .modules == [{\"name\": \"zfs\", \"taint\": \"PO\"}]' '$T/out' >/dev/null"
SOS16=$(mkproc sos16)
echo 4673 >"$SOS16/proc/sys/kernel/tainted"
mkdir -p "$SOS16/sos_commands/kernel"
enc le <"$SOSCR/sos_commands/kernel/sysctl_-a" >"$SOS16/sos_commands/kernel/sysctl_-a"
run --root "$SOS16" -j log
t "log --root of a sosreport with a UTF-16 sysctl_-a: 4 events, dropped 2" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && jq -e '(.events | length) == 4 and .dropped == 2' '$T/out' >/dev/null"
printf 'kernel.taint_log = bad line\r\n' | enc lenb >>"$SOS16/sos_commands/kernel/sysctl_-a"
run --root "$SOS16" log
t "log --root, UTF-16 sysctl_-a: a malformed line named with its line in that file" sh -c "[ $rc -eq 3 ] && grep -q 'sysctl_-a:8: malformed line skipped' '$T/err'"

tap_done
