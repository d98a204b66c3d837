#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the harness's test module (guest/module: ut_taint.ko, ut_other.ko)
# against a built kernel variant, out of the source tree, in
# build/module-<VARIANT>. Never loaded on this machine: the initramfs
# carries it into the guest.
# Usage: module.sh [VARIANT]   Prints the module directory on stdout.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

variant=${1:-default}
obj=$(kobj "$variant")
[ -f "$obj/Module.symvers" ] || [ -f "$obj/vmlinux" ] ||
	die "no $variant kernel built in $obj: build it first (scripts/build/kernel.sh $variant)"
out=$BUILD/module-$variant
mkdir -p "$out"
# Copy only what changed, so that make rebuilds only what it must.
mkdir -p "$out/rebuilt"
cp -u "$ROOT"/guest/module/{Makefile,*.c} "$out"/
cp -u "$ROOT"/guest/module/rebuilt/{Makefile,*.c} "$out"/rebuilt/
for m in "$out" "$out/rebuilt"; do
	make -s -C "$KSRC" O="$obj" M="$m" CC="ccache gcc" -j"$JOBS" modules >&2 ||
		die "guest/module failed to build against the $variant kernel ($m)"
done
for m in ut_taint ut_other ndiswrapper rebuilt/ut_taint; do
	[ -f "$out/$m.ko" ] || die "guest/module: $m.ko was not built"
done
echo "$out"
