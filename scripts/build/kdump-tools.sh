#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian's kexec-tools (with the Xen libraries its kexec links against) and
# kdump-tools, for the kdump initramfs (scenario-kdump): downloaded with
# apt-get from the machine's APT sources and unpacked into
# build/kdump-tools/root, not installed (kexec-tools' package would take
# over this machine's reboots). kdump-tools is only read: its kdump-config
# (MAKEDUMP_ARGS, with the -F it adds) gives the makedumpfile arguments a Debian
# system uses. Prints the unpacked root on stdout.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"

dir=$BUILD/kdump-tools
root=$dir/root
pkgs=(kexec-tools kdump-tools libxenmisc4.17 libxencall1 libxendevicemodel1 libxenevtchn1
      libxenforeignmemory1 libxengnttab1 libxenhypfs1 libxenstore4 libxentoolcore1
      libxentoollog1 libyajl2)
if [ ! -x "$root/sbin/kexec" ] || [ ! -f "$root/usr/sbin/kdump-config" ]; then
	rm -rf "$dir"
	mkdir -p "$dir/debs" "$root"
	say "fetching ${pkgs[*]} into $dir (not installed)"
	( cd "$dir/debs" && apt-get -q -o APT::Sandbox::User=root download "${pkgs[@]}" >/dev/null ) || {
		apt_update -q
		( cd "$dir/debs" && apt-get -q -o APT::Sandbox::User=root download "${pkgs[@]}" >/dev/null ) ||
			die "apt-get download of ${pkgs[*]} failed"
	}
	for d in "$dir"/debs/*.deb; do dpkg -x "$d" "$root"; done
fi
[ -x "$root/sbin/kexec" ] || die "no sbin/kexec in Debian's kexec-tools ($dir/debs)"
[ -f "$root/usr/sbin/kdump-config" ] || die "no usr/sbin/kdump-config in Debian's kdump-tools ($dir/debs)"
libs=$(LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu ldd "$root/sbin/kexec")
! grep -q 'not found' <<< "$libs" ||
	die "$root/sbin/kexec needs libraries neither this machine nor $dir has: $(grep 'not found' <<< "$libs" | tr '\n' ' ')"
echo "$root"
