#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, with apt-get and only when missing, what the harness needs.
# Usage: scripts/build/deps.sh [--list] [taintctl-build|host|deb|kernel|objects|arch|plugins|fresh|witness|e2e|bench|all]
#        (default: all; --list: print the packages, install nothing)
# taintctl-build: what building taintctl and libtaint needs (make taintctl),
# nothing more; host: that and what its tests need (make -C taintctl check,
# the suites taintctl-clang and taintctl-fuzz: clang and its libFuzzer)
# objects: Debian's kernel config, sparse and LLVM for scripts/check/objects.sh
# arch: cross compilers and QEMUs for i386 and arm64 (scripts/test/arch-test.sh)
# plugins: the GCC plugin headers of the host's gcc (CONFIG_GCC_PLUGINS, the
# check-matrix entry randstruct)
# fresh: what scripts/check/fresh-check.sh needs to make and fill a clean root
# deb: what scripts/pkg/deb-test.sh (make deb) needs to build taintctl's Debian
# packages and check them: the build dependencies of debian/control
# (taintctl-build, debhelper, the <!nocheck> test tools) and lintian
# witness: all, and crash and drgn for make kdump-witness
# bench: what make -C taintctl bench-vmcore needs to set libtaint's dump
# reader beside libkdumpfile (Debian's libkdumpfile-dev)
# e2e: all, and debootstrap and e2fsprogs for make e2e
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

# libtaint's decompressors: zlib, liblzma, libzstd, libbz2, liblz4, and
# liblzo2 and libsnappy (lzo- and snappy-compressed kdump pages); libsystemd-dev: watch's native
# journal output (sd_journal_sendv(); taintctl's JOURNAL=auto finds it)
taintctl_build_pkgs="build-essential pkg-config libjson-c-dev zlib1g-dev
	liblzma-dev libzstd-dev libbz2-dev liblz4-dev liblzo2-dev libsnappy-dev
	libsystemd-dev"
# status --vmcore: libbpf reads the dumped kernel's BTF; taintctl record:
# its BPF program (clang's BPF target), the skeleton (bpftool gen
# skeleton: nothing is loaded) and libbpf to load it
taintctl_build_pkgs="$taintctl_build_pkgs libbpf-dev bpftool clang"
host_pkgs="$taintctl_build_pkgs libcmocka-dev jq groff-base ripgrep
	xz-utils zstd bzip2 lz4 time prometheus prometheus-node-exporter curl
	python3 clang"
kernel_pkgs="linux-source-6.12 build-essential flex bison bc libelf-dev
	libssl-dev cpio xz-utils gzip ccache qemu-system-x86 busybox-static python3-ply python3-git
	git perl python3"
objects_pkgs="linux-config-6.12 sparse clang lld llvm"
# debian/control's Build-Depends (keep them equal: deb-test.sh checks it
# with dpkg-checkbuilddeps), and the tools that build and check .debs
deb_pkgs="$taintctl_build_pkgs debhelper dpkg-dev lintian
	libcmocka-dev jq python3 gzip xz-utils zstd bzip2 lz4 systemd"
fresh_pkgs="debootstrap debian-archive-keyring zstd git util-linux"
arch_pkgs="gcc-aarch64-linux-gnu libc6-dev-arm64-cross gcc-i686-linux-gnu
	libc6-dev-i386-cross qemu-system-arm qemu-system-x86 file"
# gcc-N-plugin-dev for the host's gcc N (bookworm: gcc-12-plugin-dev)
v=$(gcc -dumpversion 2>/dev/null | cut -d. -f1) || v=
plugin_pkgs="gcc-${v:-12}-plugin-dev"
# clang's sanitizer and libFuzzer runtimes (suites taintctl-clang and
# taintctl-fuzz) are not in the clang package: libclang-rt-N-dev for
# the clang-N that the clang package depends on (bookworm: 14). A fresh
# root without it links nothing under -fsanitize (make fresh-check found it)
cv=$(apt-cache depends clang 2>/dev/null | sed -n 's/^ *Depends: clang-\([0-9][0-9]*\)$/\1/p') || cv=
cv=${cv%%$'\n'*}
host_pkgs="$host_pkgs libclang-rt-${cv:-14}-dev"
# make -C taintctl check: the bash completion's directory and helpers
host_pkgs="$host_pkgs bash-completion"
# scenario-kdump: Debian's makedumpfile, run in the guest's crash kernel
# (copied into the kdump initramfs) and on the host (--dump-dmesg).
# kexec-tools is not installed here (its package takes over the host's
# reboots): scripts/build/kdump-tools.sh unpacks it into build/ for the guest.
host_pkgs="$host_pkgs makedumpfile"
# make -C taintctl units-check: systemd-analyze verify on the units
host_pkgs="$host_pkgs systemd"
# make kdump-witness (scripts/witness/kdump-witness.sh): the dump tools no one
# here wrote, Debian's crash and drgn, on scenario-kdump's dumps
witness_pkgs="crash python3-drgn makedumpfile"
# make e2e (scripts/e2e/e2e.sh): the Debian guest's root (debootstrap), its
# ext4 image without a loop mount (mke2fs -d) and the files read back
# from it (debugfs)
e2e_pkgs="debootstrap debian-archive-keyring e2fsprogs zstd xz-utils"
# make -C taintctl bench-vmcore: libkdumpfile read the same dumps, for the
# comparison with libtaint's own format reader (docs/taintctl.md); strace
# counts the bytes read
bench_pkgs="$taintctl_build_pkgs libkdumpfile-dev strace"

# --list SET: print the set's packages, one a line, install nothing
list=
[ "${1:-}" = --list ] && { list=1; shift; }
case "${1:-all}" in
taintctl-build) want=$taintctl_build_pkgs ;;
host)   want=$host_pkgs ;;
deb)    want=$deb_pkgs ;;
kernel) want=$kernel_pkgs ;;
arch)   want="$kernel_pkgs $arch_pkgs" ;;
objects) want="$kernel_pkgs $objects_pkgs" ;;
plugins) want="$kernel_pkgs $plugin_pkgs" ;;
fresh)  want=$fresh_pkgs ;;
all)    want="$host_pkgs $deb_pkgs $kernel_pkgs" ;;
witness) want="$host_pkgs $deb_pkgs $kernel_pkgs $witness_pkgs" ;;
e2e)    want="$host_pkgs $deb_pkgs $kernel_pkgs $e2e_pkgs" ;;
bench)  want=$bench_pkgs ;;
*)      die "deps.sh: unknown set '$1' (taintctl-build, host, deb, kernel, objects, arch, plugins, fresh, witness, e2e, bench or all)" ;;
esac

[ -z "$list" ] || { printf '%s\n' $want; exit 0; }

missing=()
for p in $want; do
	case " ${missing[*]} " in *" $p "*) continue ;; esac
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $st == *'install ok installed'* ]] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

say "installing missing packages with apt-get: ${missing[*]}"
[ "$(id -u)" -eq 0 ] || die "need root to apt-get install: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt_update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
	die "apt-get install failed for: ${missing[*]}"
say "installed: ${missing[*]}"
