#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the patched kernel: tinyconfig + configs/usertaint.config (+ an
# optional variant fragment, and UT_EXTRA_CONFIG's), out of tree, incrementally, through ccache.
# Usage: kernel.sh [VARIANT]   VARIANT = default | debug | stock ...
# (configs/VARIANT.config; a VARIANT with a slash, as matrix/no-printk,
# builds in build/kbuild-matrix/no-printk). Prints the path of the kernel
# image on stdout (bzImage; Image on arm64).
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# UT_BASE: another base config than tinyconfig + usertaint.config (the
# defconfig size figure). UT_VARIANT_DIR: another build directory than
# the variant's (the stock side of scripts/check/bloat.sh). UT_ARCH: x86_64 (the
# default), i386 or arm64 (cross-built with Debian's gcc-aarch64-linux-gnu);
# tinyconfig and the other bases are then that architecture's.
variant=${1:-default}
case ${UT_ARCH:-x86_64} in
x86_64) karch=() cc='' image=arch/x86/boot/bzImage ;;
i386)   karch=(ARCH=i386) cc='' image=arch/x86/boot/bzImage ;;
arm64)  karch=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-) cc=aarch64-linux-gnu-
	image=arch/arm64/boot/Image ;;
*)      die "kernel.sh: unknown UT_ARCH '$UT_ARCH' (x86_64, i386, arm64)" ;;
esac
base=${UT_BASE:-tinyconfig}
obj=$(kobj "${UT_VARIANT_DIR:-$variant}")
frags=()
[ -n "${UT_BASE:-}" ] || frags+=("$ROOT/configs/usertaint.config")
[ "$variant" = default ] || [ "$variant" = stock ] || frags+=("$ROOT/configs/$variant.config")
# UT_EXTRA_CONFIG: fragments on top of the variant's (the witnesses'
# kdump-debug.config, scripts/witness/kdump-witness.sh), space-separated paths.
for f in ${UT_EXTRA_CONFIG:-}; do frags+=("$f"); done
for f in "${frags[@]}"; do [ -f "$f" ] || die "no config fragment $f"; done

# UT_KSRC: build another tree (scripts/check/bloat.sh builds the pristine one).
# UT_NO_PREPARE: build the tree as it is checked out (scripts/check/series.sh).
if [ -n "${UT_KSRC:-}" ]; then
	src=$UT_KSRC
else
	[ -n "${UT_NO_PREPARE:-}" ] || "$ROOT/scripts/build/tree.sh" prepare >&2
	src=$KSRC
fi
# UT_FROM_BUILD=VARIANT: a variant whose build directory does not exist yet
# starts as a copy of VARIANT's built one (same architecture and base),
# so that kbuild rebuilds only the objects its config changes touch
# (fixdep records which CONFIG_ symbols each object depends on): the
# build-only entries of scripts/check/matrix.sh from the test kernel's.
if [ -n "${UT_FROM_BUILD:-}" ] && [ ! -e "$obj/.config" ]; then
	seed=$(kobj "$UT_FROM_BUILD")
	if [ -f "$seed/$image" ] && [ -f "$seed/.config" ]; then
		say "seeding $variant's build directory from $UT_FROM_BUILD's"
		mkdir -p "$obj"
		cp -a "$seed/." "$obj/"
		rm -f "$obj/.usertaint-cfg"
	fi
fi
mkdir -p "$obj"
kmake() { make -s -C "$src" O="$obj" "${karch[@]}" CC="ccache ${cc}gcc" HOSTCC="ccache gcc" -j"$JOBS" "$@"; }

# Regenerate .config only when a fragment or the tree's Kconfig changed.
cfgsum=$( (echo "$base${karch[*]:+ ${karch[*]}}"; cat "${frags[@]}") | sha256sum | cut -d' ' -f1)
cfgsum=$cfgsum-$(git -C "$src" rev-parse HEAD)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.usertaint-cfg" 2>/dev/null)" != "$cfgsum" ]; then
	say "configuring $variant kernel: $base + ${frags[*]##*/}"
	kmake "$base" >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	# Every line of the fragments must have survived olddefconfig.
	bad=0
	while IFS= read -r line; do
		case "$line" in CONFIG_*=n) sym=${line%%=*}
			grep -q "^$sym=" "$obj/.config" && { say "config: $line did not stick"; bad=1; } ;;
		CONFIG_*) grep -qx "$line" "$obj/.config" || { say "config: $line did not stick (missing dependency?)"; bad=1; } ;;
		esac
	done < <(cat "${frags[@]}" | awk -F= '/^CONFIG_/ {v[$1] = $0} END {for (k in v) print v[k]}')
	# UT_LAX_CONFIG=1 (scripts/check/series.sh): earlier commits of the
	# series lack symbols that later ones add.
	[ $bad -eq 0 ] || [ "${UT_LAX_CONFIG:-0}" = 1 ] ||
		die "kernel config for '$variant' is not what the fragments ask for"
	echo "$cfgsum" > "$obj/.usertaint-cfg"
fi

say "building $variant kernel in $obj"
start=$(date +%s)
targets=("${image##*/}")
grep -qx CONFIG_MODULES=y "$obj/.config" && targets+=(modules)
kmake "${targets[@]}" >&2 2> >(grep -v '^$' >&2) || die "kernel build failed ($variant)"
say "kernel $variant built in $(( $(date +%s) - start )) s"
echo "$obj/$image"
