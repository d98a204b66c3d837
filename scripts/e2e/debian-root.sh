#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A Debian bookworm machine on one of Debian's own kernels, for QEMU: a
# minbase root (systemd, udev, kmod, initramfs-tools) from the mirror of
# the machine's APT configuration, cached as build/debian-root/base-KEY.tar.zst
# (KEY: the package list), with the kernel package of
# scripts/e2e/debian-kernel.sh installed by dpkg in it, which makes its
# initramfs with initramfs-tools as on a Debian machine, and the .debs and
# files given; an ext4 image (mke2fs -d, no loop mount).  A reusable
# piece: the recorder's Debian boot (record-debian.sh) and kdump captures
# of Debian kernels.  As root.
#
# Usage: debian-root.sh PATTERN NAME [DEB...] [-- SRC:DEST...]
#   NAME: build/debian-root/NAME/ (root/, root.img, vmlinuz, initrd.img)
#   DEB: .debs installed with dpkg -i; SRC:DEST files copied in (DEST in
#   the root; a .service DEST under /etc/systemd/system is enabled for
#   multi-user.target).  Extra packages from the mirror: UT_DEB_PKGS.
# Prints NAME's directory on stdout.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"

pat=${1:?usage: debian-root.sh PATTERN NAME [DEB...] [-- SRC:DEST...]}
name=${2:?usage: debian-root.sh PATTERN NAME [DEB...] [-- SRC:DEST...]}
shift 2
debs=() files=()
while [ $# -gt 0 ]; do
	[ "$1" = -- ] && { shift; files=("$@"); break; }
	debs+=("$1"); shift
done
[ "$(id -u)" -eq 0 ] || die "debian-root: needs root (debootstrap, chroot)"
"$ROOT/scripts/build/deps.sh" e2e >&2
read -r ver kdir < <("$ROOT/scripts/e2e/debian-kernel.sh" "$pat")
kdebs=("$kdir"/../debs/linux-image-"$ver"_*.deb)
kdeb=${kdebs[0]}
E=$BUILD/debian-root
D=$E/$name
mkdir -p "$E" "$D"

# the base: what the kernel package and the .debs need, and a login
runtime=$(for f in "${debs[@]}"; do dpkg-deb -f "$f" Depends; done | tr ',' '\n' |
	sed -e 's/[(|].*//' -e 's/ //g' | grep -vE '^$|^(taintctl|libtaint1|libtaint-dev)$' | sort -u | tr '\n' ' ')
pkgs="systemd systemd-sysv udev kmod initramfs-tools linux-base zstd procps
	login passwd ${UT_DEB_PKGS:-} $runtime"
pkgs=$(printf '%s\n' $pkgs | sort -u | tr '\n' ',')
pkgs=${pkgs%,}
key=$(printf 'bookworm %s\n' "$pkgs" | sha256sum | cut -c1-12)
base=$E/base-$key.tar.zst
if [ ! -f "$base" ]; then
	mirror=$(apt_mirror bookworm)
	proxy=$(apt_proxy)
	[ -z "$proxy" ] || export http_proxy=${http_proxy:-$proxy}
	rm -rf --one-file-system "$E/base.tmp"
	say "debian-root: debootstrap --variant=minbase bookworm from $mirror with $pkgs"
	debootstrap --variant=minbase --include="$pkgs" bookworm "$E/base.tmp" "$mirror" \
		>"$E/debootstrap.log" 2>&1 || die "debian-root: debootstrap failed (see $E/debootstrap.log)"
	tar -C "$E/base.tmp" --numeric-owner -I 'zstd -T0 -3' -cf "$base.tmp" . && mv "$base.tmp" "$base"
	rm -rf --one-file-system "$E/base.tmp"
fi

R=$D/root
rm -rf --one-file-system "$R"
mkdir -p "$R"
tar -C "$R" --numeric-owner -I zstd -xf "$base"
echo "$name" >"$R/etc/hostname"
printf '/dev/vda\t/\text4\trw,relatime\t0\t1\n' >"$R/etc/fstab"
mkdir -p "$R/root/debs"
cp "$kdeb" "${debs[@]}" "$R/root/debs/"
# dpkg in the root, /proc and /dev in a private mount namespace (nothing
# left mounted): the kernel's postinst runs update-initramfs
unshare -m sh -c "
	mount -t proc proc '$R/proc' && mount --rbind /dev '$R/dev' &&
	chroot '$R' sh -c 'dpkg -i /root/debs/*.deb'" >"$D/dpkg.log" 2>&1 ||
	die "debian-root: dpkg -i in the root failed (see $D/dpkg.log)"
for f in "${files[@]}"; do
	src=${f%%:*} dest=${f#*:}
	mkdir -p "$R$(dirname "$dest")"
	cp "$src" "$R$dest"
	case $dest in
	/etc/systemd/system/*.service)
		mkdir -p "$R/etc/systemd/system/multi-user.target.wants"
		ln -sf "$dest" "$R/etc/systemd/system/multi-user.target.wants/${dest##*/}" ;;
	esac
done
[ -f "$R/boot/initrd.img-$ver" ] || die "debian-root: no /boot/initrd.img-$ver (see $D/dpkg.log)"
cp "$R/boot/vmlinuz-$ver" "$D/vmlinuz"
cp "$R/boot/initrd.img-$ver" "$D/initrd.img"
rm -f "$D/root.img"
truncate -s 3G "$D/root.img"
mke2fs -q -F -t ext4 -d "$R" "$D/root.img" >"$D/mke2fs.log" 2>&1 ||
	die "debian-root: mke2fs -d failed (see $D/mke2fs.log)"
echo "$D"
