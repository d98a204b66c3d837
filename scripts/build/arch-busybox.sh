#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian's busybox-static for another architecture (i386, arm64), for the
# initramfs of scripts/test/arch-test.sh: downloaded with apt-get from this
# machine's Debian sources into build/busybox-ARCH and unpacked there with
# dpkg -x, not installed. apt-get runs with a private list directory and
# APT::Architecture=ARCH, so this machine's dpkg architectures and apt
# lists stay as they are (no dpkg --add-architecture). Idempotent: a busybox
# already unpacked is reused. Prints the path of the busybox binary.
# Usage: arch-busybox.sh i386|arm64
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"

arch=${1:-}
case $arch in
i386) elf='ELF 32-bit LSB.*Intel 80386' ;;
arm64) elf='ELF 64-bit LSB.*ARM aarch64' ;;
*) die "usage: arch-busybox.sh i386|arm64" ;;
esac
dir=$BUILD/busybox-$arch
bin=$dir/root/bin/busybox
if [ ! -x "$bin" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/lists/partial" "$dir/debs" "$dir/root"
	apt=(-q -o APT::Architecture="$arch" -o APT::Architectures::="$arch"
	     -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
	     -o APT::Sandbox::User=root)
	say "fetching busybox-static:$arch with apt-get into $dir (not installed)"
	apt_update "${apt[@]}"
	( cd "$dir/debs" && apt-get "${apt[@]}" download "busybox-static:$arch" >/dev/null ) ||
		die "apt-get download busybox-static:$arch failed"
	dpkg -x "$dir"/debs/busybox-static_*.deb "$dir/root"
	[ -x "$bin" ] || die "no bin/busybox in $(echo "$dir"/debs/*.deb)"
fi
info=$(file -b "$bin")
grep -qE "$elf.*statically linked" <<< "$info" ||
	die "$bin is not a static $arch binary: $info"
say "busybox for $arch: $(basename "$dir"/debs/*.deb)"
echo "$bin"
