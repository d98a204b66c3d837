#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt-get and only when missing, what the harness needs.
# Usage: scripts/deps.sh [host|kernel|all]   (default: all)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

host_pkgs="build-essential pkg-config libjson-c-dev libcmocka-dev jq groff-base"
kernel_pkgs="linux-source-6.12 build-essential flex bison bc libelf-dev
	libssl-dev cpio xz-utils gzip ccache qemu-system-x86 busybox-static python3-ply python3-git
	git perl python3"

case "${1:-all}" in
host)   want=$host_pkgs ;;
kernel) want=$kernel_pkgs ;;
all)    want="$host_pkgs $kernel_pkgs" ;;
*)      die "deps.sh: unknown set '$1' (host, kernel or all)" ;;
esac

missing=()
for p in $want; do
	case " ${missing[*]} " in *" $p "*) continue ;; esac
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

say "installing missing packages with apt-get: ${missing[*]}"
[ "$(id -u)" -eq 0 ] || die "need root to apt-get install: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || die "apt-get update failed"
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
	die "apt-get install failed for: ${missing[*]}"
say "installed: ${missing[*]}"
