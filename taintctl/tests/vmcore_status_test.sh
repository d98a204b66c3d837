#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# vmcore_status_test.sh - `taintctl status --vmcore FILE` against `taintctl
# status --root DIR`, TAP on stdout.
#
# $MKSTATUS (tests/mkstatus.c) writes synthetic x86_64 ELF cores of a
# stock kernel (tests/status_fixture.h): its tainted_mask and modules,
# found through kallsyms and BTF.  What the kernel's /proc/sys/kernel/tainted
# and /sys/module/*/taint showed is written below by hand into a fake
# root; the text and the JSON of status --vmcore must equal those of
# status --root byte for byte.  Then each kind of bad dump, its exit code
# (5, 7, 8, 9, 10) and one error line naming what is missing, and the
# usage errors of --vmcore (exit 2).

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TAINTCTL=${TAINTCTL:-$HERE/../build/asan/taintctl}
MKSTATUS=${MKSTATUS:-$HERE/../build/asan/mkstatus}
MKVMCORE=${MKVMCORE:-$HERE/../build/asan/mkvmcore}
. "$HERE/tap.sh"
tap_init vmcore-status
. "$HERE/vmcore_check.sh"

for v in main place clean nomodules nokallsyms nobtf badbtf badtype nomask \
	 nostruct liename loop; do
	"$MKSTATUS" "$v" "$T/$v.core" || { echo "Bail out! mkstatus $v failed"; exit 1; }
done
"$MKVMCORE" main "$T/patched.core" || { echo "Bail out! mkvmcore main failed"; exit 1; }

# root NAME MASK [MODULE LETTERS]...: what the live kernel showed
root() {
	r=$T/$1; mask=$2; shift 2
	mkdir -p "$r/proc/sys/kernel" "$r/sys/module"
	echo "$mask" >"$r/proc/sys/kernel/tainted"
	while [ $# -ge 2 ]; do
		mkdir -p "$r/sys/module/$1"
		printf '%s\n' "$2" >"$r/sys/module/$1/taint"
		shift 2
	done
	echo "$r"
}
# e1000 is loaded, without taint: an empty taint file
live=$(root live 12865 nvidia POE ut_taint OE zz_big_page '?' e1000 '')
clean=$(root clean 512 e1000 '' xfs '')
nomod=$(root nomod 12865)

for v in main place; do
	run --root "$live" status; cp "$T/out" "$T/want"
	run status --vmcore "$T/$v.core"
	same "status --vmcore ($v): the text of status on the live kernel"
	run --root "$live" status --json; cp "$T/out" "$T/want"
	run status --json --vmcore "$T/$v.core"
	same "status --json --vmcore ($v): the JSON of status on the live kernel"
done
run --root "$clean" status; cp "$T/out" "$T/want"
run status --vmcore "$T/clean.core"
same "status --vmcore: modules without taint are not listed"
run --root "$nomod" status --json; cp "$T/out" "$T/want"
run --json status --vmcore "$T/nomodules.core"
same "status --vmcore: a kernel without modules (no BTF needed)"
run status --vmcore "$T/main.core"
if grep -q '^  zz_big_page  ?' "$T/out" && grep -q '^  nvidia       POE ' "$T/out"; then
	ok "status --vmcore: each module's letters in bit order, ? for an unknown bit"
else
	not_ok "status --vmcore: each module's letters in bit order, ? for an unknown bit"
fi

run status --vmcore "$T/nokallsyms.core"
bad "no kallsyms in VMCOREINFO: exit 7" 7 "cannot read the taint of '.*nokallsyms.core': VMCOREINFO has no SYMBOL(kallsyms_names)"
run status --vmcore "$T/nobtf.core"
bad "no BTF: exit 8" 8 ".*has no __start_BTF: a kernel built without CONFIG_DEBUG_INFO_BTF"
run status --vmcore "$T/badbtf.core"
bad "BTF that does not parse: exit 9" 9 ".*the kernel's BTF (0x[0-9a-f]*, [0-9]* bytes) does not parse"
run status --vmcore "$T/badtype.core"
bad "BTF libbpf finds malformed: exit 9, libbpf's words in the one line, nothing of libbpf's own on stderr" 9 ".*the kernel's BTF (0x[0-9a-f]*, [0-9]* bytes) does not parse: Invalid argument (libbpf: BTF type \\[8\\] is malformed)"
run status --vmcore "$T/nostruct.core"
bad "BTF without struct module: exit 9" 9 ".*the kernel's BTF has no struct module"
run status --vmcore "$T/nomask.core"
bad "symbol not found: exit 10" 10 ".*the kernel's symbol table has no tainted_mask"
run status --vmcore "$T/patched.core"
bad "a dump with kallsyms but no data symbols: exit 10" 10 ".*has no tainted_mask"
run status --vmcore "$T/liename.core"
bad "fields not where BTF says: exit 5" 5 ".*is not one: byte 0xee in its name"
run status --vmcore "$T/loop.core"
bad "a module list that loops: exit 5" 5 ".*does not come back to its head"
printf 'not a dump' >"$T/text"
run status --vmcore "$T/text"
bad "not a dump: exit 5" 5 "cannot read the taint of"
run status --vmcore "$T/missing"
bad "a file that cannot be opened: exit 3" 3 "cannot open '.*missing'"
run status --vmcore -
bad "--vmcore -: exit 2" 2 "--vmcore needs the dump's file name"
run --root "$live" status --vmcore "$T/main.core"
bad "--vmcore with --root: exit 2" 2 "--vmcore and --root exclude each other"
run status --vmcore "$T/main.core" extra
bad "an operand: exit 2" 2 "status takes no operand"
run status --help
if [ "$rc" -eq 0 ] && grep -q -- '--vmcore FILE' "$T/out" && grep -q '10 a symbol needed' "$T/out"; then
	ok "status --help: --vmcore and its exit codes"
else
	not_ok "status --help: --vmcore and its exit codes"
fi
tap_done
