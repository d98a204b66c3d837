# SPDX-License-Identifier: GPL-2.0
# Common settings for the usertaint harness. Sourced, not run.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${UT_BUILD:-$ROOT/build}
KSRC=$BUILD/linux			# editable git tree (pristine + series)
KPKG=linux-source-6.12
KTARBALL=${UT_TARBALL:-/usr/src/$KPKG.tar.xz}	# UT_TARBALL: for tests of the harness
JOBS=${JOBS:-$(nproc)}

export CCACHE_BASEDIR=$ROOT
export CCACHE_NOHASHDIR=1
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=usertaint
export KBUILD_BUILD_HOST=qemu

say()  { printf '%s\n' "usertaint: $*" >&2; }
die()  { printf '%s\n' "usertaint: error: $*" >&2; exit 1; }

# pkg_version PACKAGE: installed Debian version, or "not installed".
pkg_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "not installed"
}

# kobj VARIANT: kernel build directory for a config variant.
kobj() { echo "$BUILD/kbuild-${1:-default}"; }
