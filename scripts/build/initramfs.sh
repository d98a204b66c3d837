#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest initramfs for a kernel VARIANT (default: default):
# busybox-static, guest/ scripts, the kselftests of the tree, a static
# taintctl, all built with the host's gcc, and the harness's test module
# (guest/module) built against that variant's kernel, in
# /lib/modules/VARIANT (and the series' KUnit test, when that kernel builds
# it as a module, in /lib/modules/VARIANT/kunit). Usage: initramfs.sh [VARIANT]
# Prints the path of the initramfs on stdout. Fails when anything it should
# contain cannot be built, and when a file that a suite of scripts/test/suites
# needs (its "needs" column) is not in it.
#
# UT_OMIT="FILE ...": leave these files (paths in the initramfs) out, to
# test that the check above catches a missing binary (tests of the harness).
# UT_NO_PREPARE: use the tree as it is checked out (as scripts/build/kernel.sh;
# scripts/mutate/mutate.sh, whose tree is a worktree that tree.sh must not touch).
# UT_ARCH=i386|arm64 (scripts/test/arch-test.sh): that architecture's static
# busybox (scripts/build/arch-busybox.sh), the kselftests and the reliability
# tests cross-built static (i686-linux-gnu-, aarch64-linux-gnu-); no test
# module (x86_64 only) and no taintctl (not cross-built: json-c).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"

[ -n "${UT_NO_PREPARE:-}" ] || "$ROOT/scripts/build/tree.sh" prepare >&2
variant=${1:-default}
arch=${UT_ARCH:-x86_64}
case $arch in
x86_64) cross='' ;;
i386)   cross=i686-linux-gnu- elf='Intel 80386' ;;
arm64)  cross=aarch64-linux-gnu- elf='ARM aarch64' ;;
*)      die "initramfs.sh: unknown UT_ARCH '$arch' (x86_64, i386, arm64)" ;;
esac
sfx=''
[ "$arch" = x86_64 ] || sfx=-$arch
out=$BUILD/initramfs
[ "$variant" = default ] || out=$BUILD/initramfs-$variant
root=$out/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,proc,sys,dev,tmp,guest,etc}

if [ "$arch" = x86_64 ]; then
	cp /bin/busybox "$root/bin/busybox"
else
	bb=$("$ROOT/scripts/build/arch-busybox.sh" "$arch") || die "no busybox for $arch"
	cp "$bb" "$root/bin/busybox"
fi
# The applets of this machine's busybox-static: the same Debian version.
for applet in $(/bin/busybox --list); do
	[ -e "$root/bin/$applet" ] || ln -s busybox "$root/bin/$applet"
done
install -m 0755 "$ROOT/guest/init" "$root/init"
# The guest's shell is busybox's: every file it sources must parse there
# (a scenario's file holds the host's bash check too).
for f in "$ROOT"/guest/*.sh "$ROOT"/guest/scenarios/*.sh "$ROOT/taintctl/tests/tap.sh"; do
	/bin/busybox sh -n "$f" || die "${f#"$ROOT"/} does not parse in busybox sh"
done
cp "$ROOT"/guest/*.sh "$root/guest/"
mkdir -p "$root/guest/scenarios"
cp "$ROOT"/guest/scenarios/*.sh "$root/guest/scenarios/"
# The one TAP library of the shell tests (taintctl/tests/tap.sh).
cp "$ROOT/taintctl/tests/tap.sh" "$root/guest/tap.sh"
printf 'root:x:0:0:root:/:/bin/sh\nuser:x:1000:1000:user:/tmp:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\nuser:x:1000:\n' > "$root/etc/group"

# kselftests, built the kernel's way (lib.mk), linked statically.
st=$BUILD/selftests$sfx
mkdir -p "$st"
kselftests=(taint)
for t in "${kselftests[@]}"; do
	[ -d "$KSRC/tools/testing/selftests/$t" ] ||
		die "no kselftests $KSRC/tools/testing/selftests/$t (the series adds them)"
	mkdir -p "$st/$t"
	make -s -C "$KSRC/tools/testing/selftests/$t" OUTPUT="$st/$t" \
		${cross:+CROSS_COMPILE=$cross CC=${cross}gcc} LDFLAGS=-static >&2 ||
		die "kselftest $t failed to build"
	cp "$st/$t"/*_test "$root/usr/bin/" || die "kselftest $t built no *_test program"
done

# The test module, for this variant's kernel (built first); x86_64 only.
if [ "$arch" = x86_64 ]; then
	mods=$("$ROOT/scripts/build/module.sh" "$variant") || die "the test module failed to build"
	mkdir -p "$root/lib/modules/$variant"
	cp "$mods"/ut_taint.ko "$mods"/ut_other.ko "$mods"/ndiswrapper.ko "$root/lib/modules/$variant/"
	mkdir -p "$root/lib/modules/$variant/rebuilt"
	cp "$mods"/rebuilt/ut_taint.ko "$root/lib/modules/$variant/rebuilt/"
fi

# The series' KUnit test when the kernel builds it as a module
# (CONFIG_TAINT_LOG_KUNIT_TEST=m, the check-matrix entry kunit-module):
# the KUnit boot (guest/init, ut.mode=kunit) loads every module of
# /lib/modules/VARIANT/kunit.
kobjdir=$(kobj "$variant")
if grep -qx CONFIG_TAINT_LOG_KUNIT_TEST=m "$kobjdir/.config" 2>/dev/null; then
	ko=$kobjdir/kernel/taint_log_kunit.ko
	[ -f "$ko" ] || die "CONFIG_TAINT_LOG_KUNIT_TEST=m but no $ko: build the $variant kernel first"
	mkdir -p "$root/lib/modules/$variant/kunit"
	cp "$ko" "$root/lib/modules/$variant/kunit/"
fi

# The reliability tests (fuzzer, stress, permissions, forgery).
make -s -C "$ROOT/guest/reliability" OUT="$BUILD/reliability$sfx" \
	KSFT_DIR="$KSRC/tools/testing/selftests" \
	${cross:+CC=${cross}gcc AR=${cross}ar} >&2 ||
	die "guest/reliability failed to build"
cp "$BUILD/reliability$sfx"/taint_* "$root/usr/bin/"

# The tree's own taint decoder (the series teaches it the taint log).
install -m 0755 "$KSRC/tools/debugging/kernel-chktaint" "$root/usr/bin/kernel-chktaint"

# taintctl, static; x86_64 only.
if [ "$arch" = x86_64 ]; then
	[ -f "$ROOT/taintctl/Makefile" ] || die "no taintctl/Makefile: the guest's taintctl suite needs taintctl"
	make -s -C "$ROOT/taintctl" static >&2 || die "taintctl static build failed"
	cp "$ROOT/taintctl/build/taintctl-static" "$root/usr/bin/taintctl"
fi

# A kernel that can take a crash dump (CONFIG_CRASH_DUMP, the kdump
# variant: scenario-kdump): Debian's kexec (scripts/build/kdump-tools.sh) and
# makedumpfile (this machine's, scripts/build/deps.sh), with the shared libraries
# they link (ldd) and the dynamic loader; kdump-tools' configuration (its
# makedumpfile arguments) and the kernel image itself, which the guest
# loads as its own crash kernel (kexec -p /boot/vmlinuz).
if [ "$arch" = x86_64 ] && grep -qx CONFIG_CRASH_DUMP=y "$kobjdir/.config" 2>/dev/null; then
	kt=$("$ROOT/scripts/build/kdump-tools.sh") || die "no kexec-tools for the kdump initramfs"
	command -v makedumpfile > /dev/null || die "no makedumpfile on this machine (scripts/build/deps.sh installs it)"
	ktlib=$kt/usr/lib/x86_64-linux-gnu:$kt/lib/x86_64-linux-gnu
	mkdir -p "$root/lib64" "$root/lib/x86_64-linux-gnu" "$root/boot"
	for bin in "$kt/sbin/kexec" "$(command -v makedumpfile)"; do
		install -m 0755 "$bin" "$root/usr/bin/"
		libs=$(LD_LIBRARY_PATH=$ktlib ldd "$bin") || die "ldd $bin failed"
		! grep -q 'not found' <<< "$libs" || die "$bin: a library is missing: $libs"
		# shellcheck disable=SC2013	# paths, one a word
		for lib in $(awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/lib64\// { print $1 }' <<< "$libs"); do
			case $lib in
			/lib64/*) cp -L "$lib" "$root/lib64/" ;;
			*) cp -L "$lib" "$root/lib/x86_64-linux-gnu/" ;;
			esac
		done
	done
	mkdir -p "$root/usr/share/kdump-tools"
	cp "$kt/usr/share/kdump-tools/kdump-tools.conf" "$kt/usr/sbin/kdump-config" "$root/usr/share/kdump-tools/"
	# UT_KDUMP_IMAGE: another crash kernel (make stock-scenarios: a
	# stock kernel's kdump variant)
	img=${UT_KDUMP_IMAGE:-$kobjdir/arch/x86/boot/bzImage}
	cp "$img" "$root/boot/vmlinuz" || die "no $img: build the $variant kernel first"
fi

# Cross-built: every program is a static binary for the guest's architecture.
[ "$arch" = x86_64 ] || for f in "$root/bin/busybox" "$root"/usr/bin/*; do
	[ -L "$f" ] && continue
	info=$(file -b "$f")
	[[ $info == ELF* ]] || continue
	grep -qE "$elf.*(statically linked|static-pie linked)" <<< "$info" ||
		die "$f is not a static $arch program: $info"
done

# UT_OMIT (tests of the harness): pretend these files did not make it.
for f in ${UT_OMIT:-}; do
	say "UT_OMIT: leaving $f out of the initramfs"
	rm -f "$root/${f#/}"
done

# Every file a suite of this variant needs (scripts/test/suites, column
# "needs") is there.
rows=$(suites_rows) || die "cannot read the suite table $SUITE_TABLE"
missing=()
while read -r suite _ _ _ variants needs _; do
	[ "$needs" = - ] && continue
	[ "$variants" = all ] || [[ ,$variants, == *,"$variant",* ]] || continue
	for f in ${needs//,/ }; do
		[ -e "$root/${f#/}" ] || missing+=("/${f#/} (suite $suite needs it)")
	done
done <<< "$rows"
[ ${#missing[@]} -eq 0 ] ||
	die "initramfs: missing $(printf '%s, ' "${missing[@]}" | sed 's/, $//') ($SUITE_TABLE)"

( cd "$root" && find . -print0 | LC_ALL=C sort -z |
  cpio --null -o -H newc --reproducible -R 0:0 --quiet ) | gzip -1 -n > "$out/initramfs.cpio.gz.tmp"
mv "$out/initramfs.cpio.gz.tmp" "$out/initramfs.cpio.gz"
echo "$out/initramfs.cpio.gz"
