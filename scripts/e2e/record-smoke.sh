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
#   UT_SMOKE_MODES="fentry kprobe" (default): each kernel booted once per
#   mode, kprobe forcing the recorder's fallback (TAINTCTL_RECORD_KPROBES=1)
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
	read -r ver dir < <("$ROOT/scripts/e2e/debian-kernel.sh" --headers "$pat")
	# the test module, against this kernel's linux-headers package, in a
	# cpio of its own after the common one (the kernel unpacks both)
	M=$O/module-$ver
	rm -rf "$M" "$O/extra-$ver"
	mkdir -p "$M" "$O/extra-$ver/lib"
	cp "$ROOT"/guest/record/module/{Makefile,ut_record.c} "$M/"
	# (no BTF for the module: that needs pahole, and nothing here reads it)
	make -s -C "$dir/usr/src/linux-headers-$ver" M="$M" \
		CONFIG_DEBUG_INFO_BTF_MODULES= modules >"$O/module-$ver.log" 2>&1 ||
		die "record-smoke: ut_record.ko did not build against $ver (see $O/module-$ver.log)"
	cp "$M/ut_record.ko" "$O/extra-$ver/lib/"
	(cd "$O/extra-$ver" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$O/extra-$ver.gz"
	cat "$O/initramfs.gz" "$O/extra-$ver.gz" > "$O/initrd-$ver.gz"
	for mode in ${UT_SMOKE_MODES:-fentry kprobe}; do
		log=$O/$ver-$mode.console
		kp=
		[ "$mode" = kprobe ] && kp=" smoke.kprobes=1"
		rc=0
		timeout -k 5 "${UT_SMOKE_TIMEOUT:-600}" qemu-system-x86_64 -accel tcg \
			-cpu max,la57=off -smp 2 -m 1024 -no-reboot -display none \
			-monitor none -nodefaults -serial file:"$log" \
			-kernel "$dir/boot/vmlinuz-$ver" -initrd "$O/initrd-$ver.gz" \
			-append "console=ttyS0 panic=-1 loglevel=4$kp" </dev/null \
			>"$O/$ver-$mode.qemu" 2>&1 || rc=$?
		tr -d '\r' <"$log" >"$log.txt"
		L=$log.txt
		t "$ver $mode: the guest powered off (QEMU exit $rc)" test $rc = 0
		t "$ver $mode: BTF, the recorder started in $mode mode" grep -q "^SMOKE: started: recording to .* ($mode)\$" "$L"
		t "$ver $mode: the log begins with the began note and this kernel" \
			sh -c "[ \$(sed -n '/^SMOKE-LOG-BEGIN/{n;p}' '$L' | grep -c '^# taintctl-record began ts=.* kernel=$ver mask=') -ge 1 ]"
		pid=$(sed -n 's/^SMOKE: writer pid \([0-9]*\)$/\1/p' "$L")
		t "$ver $mode: echo 64 recorded as origin=user flags=U with the shell's pid, comm, uid, login uid" \
			grep -q "^ts=[0-9.]* utc=[-0-9TZ:]* origin=user flags=U new=U pid=$pid uid=0 auid=1000 comm=\"sh\"\$" "$L"
		t "$ver $mode: the test module loaded" grep -q '^SMOKE: insmod ok' "$L"
		t "$ver $mode: its load recorded O with module=ut_record, no caller" \
			grep -q '^ts=[0-9.]* utc=[-0-9TZ:]* origin=kernel flags=O new=O pid=[0-9]* uid=0 auid=- comm="insmod" module=ut_record$' "$L"
		t "$ver $mode: its load recorded E (unsigned) with module=ut_record" \
			grep -q '^ts=[0-9.]* utc=[-0-9TZ:]* origin=kernel flags=E new=E pid=[0-9]* uid=0 auid=- comm="insmod" module=ut_record$' "$L"
		t "$ver $mode: its WARN recorded W with the module's function as caller" \
			grep -q '^ts=[0-9.]* utc=[-0-9TZ:]* origin=kernel flags=W new=W pid=[0-9]* uid=0 auid=- comm="sh" module=ut_record caller=ut_record_warn_here+0x[0-9a-f]*/0x[0-9a-f]*$' "$L"
		t "$ver $mode: taintctl mark's reason reached the log on its own write" \
			grep -q '^ts=[0-9.]* utc=[-0-9TZ:]* origin=user flags=U new=- pid=[0-9]* uid=0 auid=- comm="taintctl" reason="smoke test reason"$' "$L"
		t "$ver $mode: a full ring buffer is counted as lost events" \
			grep -q '^# taintctl-record lost=[1-9][0-9]* ts=' "$L"
		t "$ver $mode: status shows the lost events" \
			sh -c "[ \$(sed -n '/^SMOKE-STATUS-BEGIN/,/^SMOKE-STATUS-END/p' '$L' | grep -c '^Lost: [1-9][0-9]* event') -ge 1 ]"
		t "$ver $mode: the restart's gap is marked" grep -q '^# taintctl-record restarted ts=' "$L"
		pid2=$(sed -n 's/^SMOKE: writer2 pid \([0-9]*\)$/\1/p' "$L")
		t "$ver $mode: after the restart, echo 1 recorded (P, pid $pid2)" \
			grep -q "origin=user flags=P new=P pid=$pid2 uid=0 " "$L"
		t "$ver $mode: the recorder stopped by SIGTERM exits 0" grep -q '^SMOKE: recorder exit 0' "$L"
		t "$ver $mode: status reads the recorder's log" \
			sh -c "[ \$(sed -n '/^SMOKE-STATUS-BEGIN/,/^SMOKE-STATUS-END/p' '$L' | grep -c '^Recorded by taintctl record since') -ge 1 ]"
	done
done
echo "1..$n"
exit $fail
