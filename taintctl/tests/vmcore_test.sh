#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# vmcore_test.sh - `taintctl log --vmcore FILE` against `taintctl log
# --root DIR`, TAP on stdout.
#
# $MKVMCORE (tests/mkvmcore.c) writes synthetic x86_64 ELF cores of
# tests/vmcore_fixture.h's events; the text the kernel's taint_log would
# print for those events is written below by hand (the model), into a
# fake proc root.  The text and the JSON of log --vmcore must equal those
# of log --root byte for byte.  Then each kind of bad dump: one error
# line, exit 5 (3 for a file that cannot be opened or read), and the
# usage errors of --vmcore (exit 2).

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TAINTCTL=${TAINTCTL:-$HERE/../build/asan/taintctl}
MKVMCORE=${MKVMCORE:-$HERE/../build/asan/mkvmcore}
. "$HERE/tap.sh"
tap_need gzip:gzip xz:xz-utils zstd:zstd bzip2:bzip2 lz4:lz4
# jq -e of no value fails (tests/bin/jq: jq 1.6 passes an empty file)
PATH=$HERE/bin:$PATH; export PATH
tap_init vmcore
. "$HERE/vmcore_check.sh"
mkroot() { mkdir -p "$T/$1/proc/sys/kernel"; echo "$T/$1"; }

for v in main linux nokallsyms empty stock noinfo arm64 elf32 bigendian \
	 notcore inconsistent nophysbase outside corrupt detail firstlayout \
	 kdump random; do
	"$MKVMCORE" "$v" "$T/$v.core" || { echo "Bail out! mkvmcore $v failed"; exit 1; }
done

# The model: what the kernel's taint_event_format() prints for
# vmcore_fixture.h's fx_events, dropped 5.  Slot 5 is not published;
# slot 2's caller is a module's code; slot 8's is past the last symbol;
# slot 4 crosses from one PT_LOAD segment into the next in the main dump;
# no event's caller or reason is in the entry of its slot's number.
MODEL=$(mkroot model)
cat >"$MODEL/proc/sys/kernel/taint_log" <<'LOG'
ts=0.912000 utc=- origin=kernel flags=O new=O pid=88 uid=0 auid=- comm="insmod" module=my\x20mod\"x\\\x01
ts=1.000100 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=1000 comm="cat" caller=warn_site+0x1d/0x30
ts=2.500000 utc=- origin=kernel flags=D new=D pid=401 uid=0 auid=- comm="bash" module=lkdtm
ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm="sudo" reason="a \"quoted\" \\ reason"
ts=4.000000 utc=2000-02-29T00:00:00Z origin=user flags=PU new=P pid=78 uid=1000 auid=- comm="caf\xc3\xa9\xff\x01\"q\\ end"
ts=5.000001 utc=- origin=kernel flags=L new=L pid=0 uid=0 auid=- comm="swapper/0" caller=first_alias+0/0x100
ts=6.000000 utc=9999-12-31T23:59:59Z origin=kernel flags=E new=E pid=2147483647 uid=4294967294 auid=0 comm="kworker/0:1" caller=long_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef+0x10/0x200
ts=18446744073.709551 utc=1970-01-01T00:00:01Z origin=kernel flags=N new=N pid=1 uid=0 auid=- comm="init"
dropped=5
LOG
# the same dump without kallsyms: no caller= anywhere
NOSYMS=$(mkroot nosyms)
sed 's/ caller=[^ ]*$//' "$MODEL/proc/sys/kernel/taint_log" >"$NOSYMS/proc/sys/kernel/taint_log"
EMPTY=$(mkroot empty)
: >"$EMPTY/proc/sys/kernel/taint_log"

# --- good dumps: the same output as the live log ---------------------------
run --root "$MODEL" log
t "the model log parses (exit 0, 8 events, no warning)" sh -c "[ $rc -eq 0 ] && [ ! -s '$T/err' ] && [ \$(grep -c '^\[' '$T/out') -eq 8 ]"
for v in main linux; do
	for j in "" --json; do
		"$TAINTCTL" --root "$MODEL" log $j >"$T/want" 2>/dev/null
		run log --vmcore "$T/$v.core" $j
		same "$v dump: log --vmcore${j:+ $j} == log --root on the model, byte for byte"
	done
done
run log --vmcore "$T/main.core" --json
t "main dump --json: 8 events, dropped 5, caller only where named" sh -c "
	jq -e '(.events | length) == 8 and .dropped == 5 and
		([.events[] | .caller // \"\"] == [\"\", \"warn_site+0x1d/0x30\", \"\", \"\", \"\",
		  \"first_alias+0/0x100\", \"long_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef+0x10/0x200\", \"\"]) and
		.events[2].module == \"lkdtm\" and .events[0].module == \"my mod\\\"x\\\\\\u0001\"' '$T/out' >/dev/null"
for j in "" --json; do
	"$TAINTCTL" --root "$NOSYMS" log $j >"$T/want" 2>/dev/null
	run log --vmcore "$T/nokallsyms.core" $j
	same "dump without kallsyms: log --vmcore${j:+ $j} == log --root, no caller="
	"$TAINTCTL" --root "$EMPTY" log $j >"$T/want" 2>/dev/null
	run log --vmcore "$T/empty.core" $j
	same "dump with an empty log: log --vmcore${j:+ $j} == log --root"
done
run --json log --vmcore="$T/main.core"
t "--json before the command, --vmcore=FILE: the same JSON" sh -c "[ $rc -eq 0 ] && jq -e '.dropped == 5' '$T/out' >/dev/null"

# --- dumps that cannot be read: one line, exit 5 -------------------------------
run log --vmcore "$T/stock.core"
bad "kernel without the series: exit 5" 5 "cannot read the taint log of '.*stock.core': the dumped kernel (6.12.118-usertaint) keeps no taint log (VMCOREINFO has no SYMBOL(taint_events)"
run log --vmcore "$T/noinfo.core"
bad "no VMCOREINFO note: exit 5" 5 "cannot read the taint log of .*: no VMCOREINFO note"
run log --vmcore "$T/arm64.core"
bad "an arm64 dump: exit 5, another architecture" 5 ".*: a dump of another architecture (ELF machine 183)"
run log --vmcore "$T/elf32.core"
bad "ELF32: exit 5" 5 ".*: a 32-bit ELF file"
run log --vmcore "$T/bigendian.core"
bad "big-endian ELF: exit 5" 5 ".*: a big-endian ELF file"
run log --vmcore "$T/notcore.core"
bad "an ELF executable, not a core: exit 5" 5 ".*: an ELF file but not a core dump"
run log --vmcore "$T/inconsistent.core"
bad "inconsistent VMCOREINFO: exit 5, names the field" 5 ".*: VMCOREINFO is inconsistent: taint_event.comm (offset 80, 16 bytes) does not fit in LAYOUT(taint_event) (88 bytes)"
run log --vmcore "$T/nophysbase.core"
bad "no NUMBER(phys_base): exit 5" 5 ".*: VMCOREINFO has no NUMBER(phys_base)"
run log --vmcore "$T/outside.core"
bad "the log where the dump has no memory: exit 5" 5 ".*: taint_log.next (address 0xffffffffa0000014) is not in the dump"
run log --vmcore "$T/corrupt.core"
bad "a slot the kernel cannot have written: exit 5" 5 ".*: taint log slot 1 is corrupt: origin 7"
run log --vmcore "$T/detail.core"
bad "a kernel event whose detail is past the callers: exit 5" 5 ".*: taint log slot 2 is corrupt: detail 19 of a kernel event, past taint_log.callers (19 entries)"
run log --vmcore "$T/firstlayout.core"
bad "the series' first layout (caller, reason in each slot): exit 5, says so" 5 "cannot read the taint log of '.*firstlayout.core': the taint log has the layout of an unreleased version of the series (a caller or reason inside each slot, no LAYOUT(taint_caller) in VMCOREINFO)"
run log --vmcore "$T/kdump.core"
bad "an ELF core behind the kdump-compressed signature: exit 5, says which machine it is not" 5 ".*: a kdump-compressed dump of another machine (\"\"): only x86_64 dumps can be read"
size=$(wc -c <"$T/main.core")
for cut in 30 64 500 $((size / 2)) $((size - 1)); do
	head -c "$cut" "$T/main.core" >"$T/cut.core"
	run log --vmcore "$T/cut.core"
	bad "truncated to $cut bytes: exit 5" 5 ".*: the file is truncated"
done
run log --vmcore "$T/random.core"
bad "random bytes: exit 5" 5 ".*: not an ELF core file (no ELF magic number)"
: >"$T/zero"
run log --vmcore "$T/zero"
bad "an empty file: exit 5" 5 ".*: not an ELF core file"
# a compressed dump (a ticket's dump.xz): named by its magic bytes, not by
# its file's name (none of these has a suffix), with the tool that
# decompresses it; never "not an ELF core"
for z in gzip xz zstd bzip2 lz4; do
	"$z" -c "$T/main.core" >"$T/$z.dump" 2>/dev/null
	run log --vmcore "$T/$z.dump"
	bad "a dump compressed with $z: exit 5, says so and how to decompress it" 5 \
		"cannot read the taint log of '.*/$z.dump': compressed with $z, not a dump itself: decompress it first ($z -dc FILE >DUMP)"
done
"$TAINTCTL" log --vmcore "$T/xz.dump" --json </dev/null >"$T/out" 2>"$T/err"; rc=$?
bad "a compressed dump with --json: the same, no JSON on stdout" 5 ".*compressed with xz"
run --json log --vmcore "$T/stock.core"
bad "--json: the same, no JSON on stdout" 5 "cannot read the taint log of .*stock.core"

# --- the file, and the command line -----------------------------------------
run log --vmcore "$T/missing.core"
bad "a missing file: exit 3" 3 "cannot open '$T/missing.core': No such file or directory"
run log --vmcore "$T"
bad "a directory: exit 3" 3 "cannot read '$T': Is a directory"
mkfifo "$T/fifo"
run log --vmcore "$T/fifo"
bad "a FIFO (not a file pread() can read): exit 3" 3 "cannot read '$T/fifo': Illegal seek"
run log --vmcore -
bad "--vmcore -: usage error" 2 "--vmcore needs the dump's file name"
run --vmcore "$T/main.core"
bad "--vmcore with status (the default): the fixture's kallsyms has no tainted_mask, exit 10" 10 "cannot read the taint of '.*main.core': the kernel's symbol table has no tainted_mask"
run check --vmcore "$T/main.core"
bad "--vmcore with check: usage error" 2 "--vmcore is an option of the status and log commands\$"
run --root "$MODEL" log --vmcore "$T/main.core"
bad "--vmcore with --root: usage error" 2 "--vmcore and --root exclude each other"
run log --vmcore
t "--vmcore without FILE: usage error" sh -c "[ $rc -eq 2 ] && head -1 '$T/err' | grep -q \"^taintctl: option '--vmcore' requires an argument\""
run log --help
t "log --help documents --vmcore and exit status 5" sh -c "grep -q -- '--vmcore FILE' '$T/out' && grep -q '5 --vmcore: the dump cannot be read' '$T/out'"
run --help
t "--help documents --vmcore and exit status 5" sh -c "grep -q -- '--vmcore FILE' '$T/out' && grep -q '^ 5  log --vmcore: the dump cannot be read' '$T/out'"

tap_done
