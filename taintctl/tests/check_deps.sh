#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# check_deps.sh - what make check needs, checked before anything is built:
# prints the Debian packages to install (scripts/deps.sh host installs them
# all) and fails if something is missing.

missing=
need() { missing="$missing $1"; }
for c in cc:build-essential nm:binutils readelf:binutils \
	 pkg-config:pkg-config jq:jq groff:groff-base gzip:gzip xz:xz-utils \
	 zstd:zstd bzip2:bzip2 lz4:lz4 bash:bash mkfifo:coreutils promtool:prometheus \
	 "${NODE_EXPORTER:-prometheus-node-exporter}":prometheus-node-exporter \
	 curl:curl python3:python3; do
	command -v "${c%%:*}" >/dev/null 2>&1 || need "${c#*:} (${c%%:*})"
done
if command -v pkg-config >/dev/null 2>&1; then
	for m in cmocka:libcmocka-dev json-c:libjson-c-dev zlib:zlib1g-dev \
		 liblzma:liblzma-dev libzstd:libzstd-dev liblz4:liblz4-dev \
		 lzo2:liblzo2-dev \
		 bash-completion:bash-completion; do
		pkg-config --exists "${m%%:*}" || need "${m#*:} (${m%%:*}.pc)"
	done
fi
# libbz2 has no .pc file before Debian trixie: its header
echo '#include <bzlib.h>' | ${CC:-cc} -E - >/dev/null 2>&1 ||
	need "libbz2-dev (bzlib.h)"
[ -z "$missing" ] && exit 0
echo "taintctl: make check needs:$missing" >&2
echo "taintctl: run scripts/deps.sh host (as root), or apt-get install the packages named" >&2
exit 1
