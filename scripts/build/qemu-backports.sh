#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A QEMU whose TCG emulates x2APIC (bookworm's 7.2 does not; 8.1 and later
# do), for make test-x2apic only: qemu-system-x86 and qemu-system-data from
# bookworm-backports (from the mirror of this machine's APT configuration,
# apt_mirror in lib.sh), downloaded with apt-get and unpacked into
# build/qemu-bpo, not installed. Prints the qemu-system-x86_64 path on
# stdout; its firmware is in build/qemu-bpo/root/usr/share/qemu.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

dir=$BUILD/qemu-bpo
bin=$dir/root/usr/bin/qemu-system-x86_64
if [ ! -x "$bin" ]; then
	mkdir -p "$dir/lists/partial" "$dir/debs"
	# The mirror that serves this machine's bookworm main serves its
	# backports too.
	mirror=$(apt_mirror bookworm) || exit 1
	echo "deb $mirror bookworm-backports main" > "$dir/sources.list"
	apt=(-q -o Dir::Etc::sourcelist="$dir/sources.list" -o Dir::Etc::sourceparts=-
	     -o Dir::State::Lists="$dir/lists" -o APT::Sandbox::User=root)
	say "fetching qemu-system-x86 from bookworm-backports into $dir (not installed)"
	apt_update "${apt[@]}"
	( cd "$dir/debs" && apt-get "${apt[@]}" download \
		qemu-system-x86/bookworm-backports qemu-system-data/bookworm-backports >/dev/null ) ||
		die "apt-get download of qemu-system-x86 from bookworm-backports failed"
	for d in "$dir"/debs/*.deb; do dpkg -x "$d" "$dir/root"; done
	[ -x "$bin" ] || die "no $bin in the backports packages"
	libs=$(ldd "$bin")
	if grep -q 'not found' <<< "$libs"; then
		die "$bin needs libraries this machine lacks: $(grep 'not found' <<< "$libs" | tr '\n' ' ')"
	fi
fi
ver=$("$bin" --version) || die "$bin --version failed"
say "x2APIC-capable QEMU: ${ver%%$'\n'*}"
echo "$bin"
