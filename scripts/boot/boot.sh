#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the kernel and initramfs in QEMU (TCG), serial console, no reboot.
#
# boot.sh [options] KERNEL INITRD
#   -m MODE        guest mode (ut.mode=): demo, shell, kunit, test (guest/test.sh),
#                  scenario (ut.scenario=NAME), reliability (ut.rel=NAME[,NAME]
#                  ut.seed=N ut.count=N); guest/init runs guest/MODE.sh
#   -a ARGS        extra kernel command line
#   -t SECONDS     kill the guest after this long (default 180)
#   -c FILE        console log (ttyS0); -r FILE results log (ttyS1)
#   -s N           vCPUs (default 2)
#   -i             interactive: console on this terminal
#   -o             also copy the console to stdout as it runs
#   -d FILE        post-mortem: the guest keeps running after a panic
#                  (panic=0), and once the console shows the end of the
#                  panic report, QEMU dumps the guest's memory (ELF, with
#                  the guest's VMCOREINFO: -device vmcoreinfo) into FILE
#                  over QMP (scripts/boot/qmp-dump.py) and quits;
#                  UT_DUMP_FORMAT=elf,kdump-zlib also writes FILE.kdump-zlib
# Exit status: QEMU's, or 124 when the guest hit the timeout (the console
# tail is printed then).
#
# UT_ARCH=i386|arm64 (scripts/test/arch-test.sh): boot with qemu-system-i386, or
# qemu-system-aarch64 -M virt, whose one UART (ttyAMA0) is the console; the
# results then go to a virtio console, hvc0 in the guest (ut.res=hvc0).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"

mode=test append="" tmo=180 console="" results=/dev/null smp=2 inter=0 stream=0 dump=""
while getopts "m:a:t:c:r:s:iod:" o; do
	case $o in
	m) mode=$OPTARG ;; a) append=$OPTARG ;; t) tmo=$OPTARG ;;
	c) console=$OPTARG ;; r) results=$OPTARG ;; s) smp=$OPTARG ;;
	i) inter=1 ;; o) stream=1 ;; d) dump=$OPTARG ;; *) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || die "usage: boot.sh [options] KERNEL INITRD"
kernel=$1 initrd=$2
[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$initrd" ] || die "no initramfs $initrd"
[ -n "$console" ] || console=$BUILD/console-$mode.log

# -cpu max,la57=off: 4-level paging. With 5-level paging, one debug-kernel
# boot in about fifty showed a KASAN "wild-memory-access in rcu_is_watching"
# from an interrupt during identify_cpu() in start_kernel(), before any of
# the series' code ran (docs/reliability.md).
accel=tcg
[ "${UT_KVM:-0}" = 1 ] && accel=kvm	# opt-in only: KVM is broken on these hosts

# UT_QEMU: another qemu-system-x86_64 (its firmware in ../share/qemu);
# UT_CPU: more -cpu properties (make test-x2apic: ,+x2apic);
# UT_QEMU_ARGS: more QEMU arguments, split at blanks (make test-x2apic:
# a q35 machine with an interrupt-remapping IOMMU).
cpu=max,la57=off tty=ttyS0 res=ttyS1 qdef=qemu-system-x86_64 machine=()
case ${UT_ARCH:-x86_64} in
x86_64) ;;
# qemu-system-i386's max is an AMD family 6 (K7) CPU, which Linux calls
# unfit for SMP (a WARNING, and the S taint): a 32-bit Intel model instead.
i386)   cpu=coreduo qdef=qemu-system-i386 ;;
# pauth-impdef: pointer authentication with QEMU's cheap algorithm, not
# the architected QARMA5 that TCG emulates slowly.
arm64)  cpu=max,pauth-impdef=on qdef=qemu-system-aarch64 machine=(-M virt) tty=ttyAMA0 res=hvc0
	resarg=" ut.res=hvc0" ;;
*)      die "boot.sh: unknown UT_ARCH '$UT_ARCH' (x86_64, i386, arm64)" ;;
esac
# UT_MEM: the guest's memory in MiB (default 512; scenario-kdump reserves
# a crash kernel's share of it). UT_DISK: a raw image the guest sees as a
# virtio disk, /dev/vda (scenario-kdump's crash kernel writes its dumps
# there).
disk=()
[ -z "${UT_DISK:-}" ] || disk=(-drive "file=$UT_DISK,format=raw,if=virtio")
qbin=${UT_QEMU:-$qdef}
qfw=()
[ -z "${UT_QEMU:-}" ] || qfw=(-L "$(dirname "$UT_QEMU")/../share/qemu")
# shellcheck disable=SC2054,SC2206	# QEMU option commas; UT_QEMU_ARGS is split on purpose
qemu=("$qbin" "${qfw[@]}" "${machine[@]}" -accel "$accel" -cpu "$cpu${UT_CPU:-}" -smp "$smp" -m "${UT_MEM:-512}"
      -no-reboot -display none -monitor none -nodefaults
      -kernel "$kernel" -initrd "$initrd"
      ${UT_QEMU_ARGS:-}
      "${disk[@]}"
      -append "console=$tty panic=-1 loglevel=7 ut.mode=$mode${resarg:-} $append")
# The dump: QEMU's vmcoreinfo device, a QMP socket, and panic=0 (the last
# panic= on the command line counts) so the guest waits to be dumped.
qmp=""
if [ -n "$dump" ]; then
	[ "${UT_ARCH:-x86_64}" = x86_64 ] || die "boot.sh -d: dumps are for x86_64 guests only"
	qmp=$(mktemp -u "${TMPDIR:-/tmp}/usertaint-qmp.XXXXXX")
	qemu[${#qemu[@]} - 1]+=" panic=0"
	qemu+=(-device vmcoreinfo -qmp "unix:$qmp,server=on,wait=off")
	rm -f "$dump"
fi
# The results channel: the second serial port, or a virtio console.
resdev=(-serial file:"$results")
# shellcheck disable=SC2054
[ "$res" = ttyS1 ] || resdev=(-device virtio-serial-device
	-chardev file,id=res,path="$results" -device virtconsole,chardev=res)

: > "$results"
if [ $inter = 1 ]; then
	exec "${qemu[@]}" -chardev stdio,id=con,signal=off,logfile="$console" \
		-serial chardev:con "${resdev[@]}"
fi

start=$(date +%s.%N)
rc=0
if [ $stream = 1 ]; then
	# shellcheck disable=SC2054
	con=(-chardev stdio,id=con,signal=off,logfile="$console" -serial chardev:con)
else
	con=(-serial file:"$console")
fi
watcher=""
if [ -n "$dump" ]; then
	: > "$console"
	(
		for _ in $(seq $((tmo * 10))); do
			grep -q 'end Kernel panic' "$console" 2>/dev/null && break
			sleep 0.1
		done
		grep -q 'end Kernel panic' "$console" &&
			python3 "$ROOT/scripts/boot/qmp-dump.py" "$qmp" "$dump" "${UT_DUMP_FORMAT:-elf}"
	) &
	watcher=$!
fi
timeout -k 5 "$tmo" "${qemu[@]}" "${con[@]}" "${resdev[@]}" </dev/null || rc=$?
if [ -n "$watcher" ]; then
	wait "$watcher" || say "the guest was not dumped (see $console)"
	rm -f "$qmp"
fi
secs=$(echo "$(date +%s.%N) - $start" | bc)
printf 'usertaint: boot %s %s: %.1f s\n' "$mode" "$append" "$secs" >&2
if [ $rc = 124 ] || [ $rc = 137 ]; then
	say "guest ($mode $append) hung: killed after ${tmo}s; console tail ($console):"
	tail -n 30 "$console" >&2
	exit 124
fi
exit $rc
