#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# taintctl record on Debian's own kernels, the quick way: Debian's vmlinuz
# (scripts/e2e/debian-kernel.sh) booted in QEMU (TCG) with a busybox
# initramfs holding a static taintctl with the BPF side
# (taintctl/build/taintctl-record-static) and guest/record/smoke-init.sh as
# /init.  Not the Debian boot (no Debian root, no initramfs-tools): it
# shows that the kernel takes the BPF program and what the recorder writes.
#
# Usage: record-smoke.sh [PATTERN...]  (default: '6.1.0-*-amd64'
#   '6.12.*+deb12-amd64'); TAP on stdout, console logs in build/record-smoke/
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"

O=$BUILD/record-smoke
mkdir -p "$O"
[ $# -gt 0 ] || set -- '6.1.0-*-amd64' '6.12.*+deb12-amd64'
make -s -C "$ROOT/taintctl" build/taintctl-record-static >&2
tc=$ROOT/taintctl/build/taintctl-record-static

# the initramfs: busybox, taintctl, /init
R=$O/initramfs
rm -rf "$R"
mkdir -p "$R"/{bin,sbin,usr/bin,proc,sys,dev,run,tmp}
cp /bin/busybox "$R/bin/busybox"
for a in $(/bin/busybox --list); do
	[ -e "$R/bin/$a" ] || ln -s busybox "$R/bin/$a"
done
cp "$tc" "$R/bin/taintctl"
cp "$ROOT/guest/record/smoke-init.sh" "$R/init"
chmod +x "$R/init"
(cd "$R" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$O/initramfs.gz"

n=0
fail=0
t() {	# t NAME CMD...
	n=$((n + 1))
	if "${@:2}"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fail=1; fi
}
for pat in "$@"; do
	read -r ver dir < <("$ROOT/scripts/e2e/debian-kernel.sh" "$pat")
	log=$O/$ver.console
	rc=0
	timeout -k 5 "${UT_SMOKE_TIMEOUT:-600}" qemu-system-x86_64 -accel tcg \
		-cpu max,la57=off -smp 2 -m 1024 -no-reboot -display none \
		-monitor none -nodefaults -serial file:"$log" \
		-kernel "$dir/boot/vmlinuz-$ver" -initrd "$O/initramfs.gz" \
		-append "console=ttyS0 panic=-1 loglevel=4" </dev/null \
		>"$O/$ver.qemu" 2>&1 || rc=$?
	tr -d '\r' <"$log" >"$log.txt"
	L=$log.txt
	t "$ver: the guest powered off (QEMU exit $rc)" test $rc = 0
	t "$ver: BTF, the recorder started" grep -q '^SMOKE: started: recording to' "$L"
	t "$ver: the log begins with the began note and this kernel" \
		sh -c "sed -n '/^SMOKE-LOG-BEGIN/{n;p}' '$L' | grep -q '^# taintctl-record began ts=.* kernel=$ver mask='"
	pid=$(sed -n 's/^SMOKE: writer pid \([0-9]*\)$/\1/p' "$L")
	t "$ver: echo 64 recorded as origin=user flags=U with the shell's pid, comm, uid" \
		grep -q "^ts=[0-9.]* utc=[-0-9TZ:]* origin=user flags=U new=U pid=$pid uid=0 auid=[-0-9]* comm=\"sh\"\$" "$L"
	t "$ver: the restart's gap is marked" grep -q '^# taintctl-record restarted ts=' "$L"
	pid2=$(sed -n 's/^SMOKE: writer2 pid \([0-9]*\)$/\1/p' "$L")
	t "$ver: after the restart, echo 4096 recorded (O, pid $pid2)" \
		grep -q "origin=user flags=O new=O pid=$pid2 uid=0 " "$L"
	t "$ver: the recorder stopped by SIGTERM exits 0" grep -q '^SMOKE: recorder exit 0' "$L"
	t "$ver: status reads the recorder's log" \
		sh -c "sed -n '/^SMOKE-STATUS-BEGIN/,/^SMOKE-STATUS-END/p' '$L' | grep -q '^Recorded by taintctl record since'"
done
echo "1..$n"
exit $fail
