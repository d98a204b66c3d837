#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian's own kernel packages, for QEMU guests: the image (vmlinuz,
# System.map, config, modules) and, with --headers, the linux-headers
# packages to build an out-of-tree module against it, fetched with
# `apt-get download` through the machine's APT configuration (its sources
# are never changed) and unpacked with dpkg -x under build/debian-kernels/
# VERSION/root (nothing is installed on this machine).  A reusable piece:
# the recorder's guests (record-smoke.sh) and kdump captures of Debian
# kernels take their kernel from here.
#
# Usage: debian-kernel.sh [--headers] PATTERN
#   PATTERN: an apt pattern of linux-image package names, newest wins:
#   '6.1.0-*-amd64' (bookworm's 6.1), '6.12.*+deb12-amd64' (its 6.12)
# Prints "VERSION DIR" on stdout: DIR/boot/vmlinuz-VERSION,
# DIR/lib/modules/VERSION, with --headers DIR/usr/src/linux-headers-VERSION
# (its links made relative to DIR, so `make -C` there works).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"

headers=
[ "${1:-}" = --headers ] && { headers=1; shift; }
pat=${1:?usage: debian-kernel.sh [--headers] PATTERN}
# the signed image packages ship the same vmlinuz as -unsigned; take the
# plain name (what a Debian machine installs)
# (the pattern as a regular expression: . and + literal, * one field
# without a '-', so '6.1.0-*-amd64' is not the -rt-amd64 flavour)
re=$(sed -e 's/[.+]/\\&/g' -e 's/\*/[^-]*/g' <<< "$pat")
pkg=$(apt-cache search --names-only "^linux-image-$re\$" 2>/dev/null |
	awk '{ print $1 }' | grep -v -- '-unsigned$\|-dbg$' | sort -V | tail -n 1) || true
[ -n "$pkg" ] || die "debian-kernel: no package linux-image-$pat in the machine's APT sources (apt-get update?)"
ver=${pkg#linux-image-}
D=$BUILD/debian-kernels/$ver
mkdir -p "$D/debs"
want=("$pkg")
if [ -n "$headers" ]; then
	# linux-headers-VER depends on its -common and on linux-kbuild-X.Y
	hdr=linux-headers-$ver
	deps=$(apt-cache depends "$hdr" 2>/dev/null | sed -n 's/^ *Depends: \(linux-[a-z0-9.+-]*\)$/\1/p')
	want+=("$hdr" $deps)
fi
for p in "${want[@]}"; do
	if ! ls "$D/debs/${p}_"*.deb >/dev/null 2>&1; then
		say "debian-kernel: apt-get download $p"
		(cd "$D/debs" && apt-get download "$p" >&2) || die "debian-kernel: apt-get download $p failed"
	fi
done
if [ ! -f "$D/root/boot/vmlinuz-$ver" ] || [ -n "$headers" ]; then
	mkdir -p "$D/root"
	for f in "$D"/debs/*.deb; do
		dpkg -x "$f" "$D/root"
	done
fi
[ -f "$D/root/boot/vmlinuz-$ver" ] || die "debian-kernel: no boot/vmlinuz-$ver in $pkg"
if [ -n "$headers" ]; then
	# the packages' absolute links (/usr/src/..., /usr/lib/linux-kbuild-X.Y)
	# made to point inside DIR
	find "$D/root/usr/src" "$D/root/lib/modules" -type l 2>/dev/null | while read -r l; do
		t=$(readlink "$l")
		case $t in
		/*) ln -sfn "$D/root$t" "$l" ;;
		esac
	done
	# and the flavour's Makefile, which includes the -common one by its
	# absolute path
	sed -i "s|^include /usr/src/|include $D/root/usr/src/|" \
		"$D/root/usr/src/linux-headers-$ver/Makefile"
	[ -f "$D/root/usr/src/linux-headers-$ver/Makefile" ] ||
		die "debian-kernel: no usr/src/linux-headers-$ver in the headers packages"
fi
echo "$ver $D/root"
