#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# taintctl record on a Debian machine in QEMU (TCG): Debian's own kernel
# package installed by dpkg in a bookworm root with systemd, booted with
# the initramfs initramfs-tools made for it (scripts/e2e/debian-root.sh),
# the taintctl .debs of build/deb (scripts/pkg/deb-test.sh) installed, so
# taintctl-record.service runs from early boot as the package ships it;
# guest/record/debian-check.sh checks from a unit at the end.  As root.
#
# Usage: record-debian.sh [PATTERN]  (default '6.1.0-*-amd64'); TAP on
# stdout, the console in build/debian-root/record-VERSION/console.txt
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"

pat=${1:-'6.1.0-*-amd64'}
read -r ver kdir < <("$ROOT/scripts/e2e/debian-kernel.sh" --headers "$pat")
debs=()
for p in libtaint1 taintctl; do
	f=$(ls "$BUILD"/deb/"$p"_*_amd64.deb 2>/dev/null | tail -n 1) || true
	[ -n "$f" ] || die "record-debian: no $p .deb in $BUILD/deb (scripts/pkg/deb-test.sh --nocheck)"
	debs+=("$f")
done
M=$BUILD/debian-root/module-$ver
rm -rf "$M"; mkdir -p "$M"
cp "$ROOT"/guest/record/module/{Makefile,ut_record.c} "$M/"
make -s -C "$kdir/usr/src/linux-headers-$ver" M="$M" CONFIG_DEBUG_INFO_BTF_MODULES= modules \
	>"$M.log" 2>&1 || die "record-debian: ut_record.ko did not build (see $M.log)"
D=$("$ROOT/scripts/e2e/debian-root.sh" "$pat" "record-$ver" "${debs[@]}" -- \
	"$M/ut_record.ko:/usr/local/lib/ut_record.ko" \
	"$ROOT/guest/record/debian-check.sh:/usr/local/lib/usertaint/debian-check.sh" \
	"$ROOT/guest/record/debian-check.service:/etc/systemd/system/debian-check.service")
rc=0
timeout -k 5 "${UT_BOOT_TIMEOUT:-900}" qemu-system-x86_64 -accel tcg -cpu max,la57=off \
	-smp 2 -m 2048 -no-reboot -display none -monitor none -nodefaults \
	-kernel "$D/vmlinuz" -initrd "$D/initrd.img" \
	-drive "file=$D/root.img,format=raw,if=virtio" \
	-append "root=/dev/vda rw console=ttyS0 panic=-1" \
	-serial file:"$D/console" </dev/null >"$D/qemu.log" 2>&1 || rc=$?
tr -d '\r' <"$D/console" >"$D/console.txt"
L=$D/console.txt
n=0 fail=0
t() { n=$((n + 1)); if "${@:2}"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi; }
t "$ver: the Debian guest powered off (QEMU exit $rc)" test $rc = 0
t "$ver: booted with its own initramfs to the check" grep -q "^DCHECK: kernel $ver" "$L"
t "$ver: taintctl-record.service active from boot" grep -q '^DCHECK: record unit active since [1-9]' "$L"
t "$ver: the recorder was ready before udevd started" sh -c "
	a=\$(sed -n 's/^DCHECK: record unit active since \([0-9]*\)$/\1/p' '$L')
	u=\$(sed -n 's/^DCHECK: udevd started at \([0-9]*\)$/\1/p' '$L')
	[ -n \"\$a\" ] && [ -n \"\$u\" ] && [ \"\$a\" -le \"\$u\" ]"
t "$ver: the log begins with the began note and this kernel" \
	sh -c "[ \$(sed -n '/^DCHECK-LOG-BEGIN/{n;p}' '$L' | grep -c '^# taintctl-record began ts=.* kernel=$ver mask=') -ge 1 ]"
# (the line may follow the getty's prompt on the same console)
lp=$(sed -n 's/.*DCHECK: login pid \([0-9]*\) auid \([0-9]*\)$/\1/p' "$L")
la=$(sed -n 's/.*DCHECK: login pid \([0-9]*\) auid \([0-9]*\)$/\2/p' "$L")
t "$ver: echo 64 in a login shell: origin=user, its pid, uid 0, its login uid ($la)" \
	grep -q "^ts=[0-9.]* utc=[-0-9TZ:]* origin=user flags=U new=U pid=$lp uid=0 auid=${la:-x} comm=\"[a-z]*\"\$" "$L"
t "$ver: the module's O and E, module=ut_record" sh -c "
	grep -q '^ts=.* origin=kernel flags=O new=O .* comm=\"insmod\" module=ut_record\$' '$L' &&
	grep -q '^ts=.* origin=kernel flags=E new=E .* comm=\"insmod\" module=ut_record\$' '$L'"
t "$ver: the recorder read the kernel's symbols (no warning)" \
	sh -c "! grep -q 'cannot read kernel symbols' '$L'"
t "$ver: the WARN's W with its caller" \
	grep -q '^ts=.* origin=kernel flags=W new=W .* module=ut_record caller=ut_record_warn_here+0x[0-9a-f]*/0x[0-9a-f]*$' "$L"
t "$ver: killed, systemd restarted it, the gap is marked" sh -c "
	grep -q '^DCHECK: record unit after kill active pid [0-9]* -> [0-9]*' '$L' &&
	grep -q '^# taintctl-record restarted ts=' '$L'"
t "$ver: after the restart, echo 1 recorded" grep -q '^ts=.* origin=user flags=P new=P ' "$L"
echo "1..$n"
exit $fail
