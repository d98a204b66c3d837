#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check_deps.sh - what make check needs, checked before anything is built:
# prints the Debian packages to install (scripts/build/deps.sh host installs them
# all) and fails if something is missing.
# Usage: check_deps.sh [check|deb]: check (default) for all of make check;
# deb for the unit-check and cli-check that a Debian package build runs
# (debian/rules: their <!nocheck> Build-Depends, no prometheus, curl,
# groff or bash-completion)

missing=
need() { missing="$missing $1"; }
set=${1:-check}
case $set in
check)	tools="groff:groff-base promtool:prometheus
	 ${NODE_EXPORTER:-prometheus-node-exporter}:prometheus-node-exporter
	 curl:curl"
	mods="bash-completion:bash-completion libsystemd:libsystemd-dev" ;;
deb)	tools= mods= ;;
*)	echo "check_deps.sh: unknown set '$set' (check or deb)" >&2; exit 2 ;;
esac
for c in cc:build-essential nm:binutils readelf:binutils \
	 pkg-config:pkg-config jq:jq gzip:gzip xz:xz-utils \
	 zstd:zstd bzip2:bzip2 lz4:lz4 bash:bash mkfifo:coreutils \
	 python3:python3 $tools; do
	command -v "${c%%:*}" >/dev/null 2>&1 || need "${c#*:} (${c%%:*})"
done
if command -v pkg-config >/dev/null 2>&1; then
	for m in cmocka:libcmocka-dev json-c:libjson-c-dev zlib:zlib1g-dev \
		 liblzma:liblzma-dev libzstd:libzstd-dev liblz4:liblz4-dev \
		 lzo2:liblzo2-dev snappy:libsnappy-dev libbpf:libbpf-dev $mods; do
		pkg-config --exists "${m%%:*}" || need "${m#*:} (${m%%:*}.pc)"
	done
fi
# libbz2 has no .pc file before Debian trixie: its header
echo '#include <bzlib.h>' | ${CC:-cc} -E - >/dev/null 2>&1 ||
	need "libbz2-dev (bzlib.h)"
[ -z "$missing" ] && exit 0
echo "taintctl: make check needs:$missing" >&2
echo "taintctl: run scripts/build/deps.sh host (as root), or apt-get install the packages named" >&2
exit 1
