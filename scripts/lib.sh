# SPDX-License-Identifier: GPL-2.0
# Common settings for the usertaint harness. Sourced, not run.
# shellcheck shell=bash disable=SC2034	# the variables are for the scripts that source this

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

# apt_update [APT-GET OPTION...]: apt-get update, up to three tries 20 s
# apart: a Debian mirror in the middle of a sync serves an index of the
# wrong size ("File has unexpected size ... Mirror sync in progress?"),
# which fails the whole update although the index we need may be fine.
# If every try fails, say so and go on with the lists that did arrive: the
# apt-get install or download that follows fails by itself (and names the
# package) if what it needs is not in them. UT_APT_RETRY_DELAY: the pause.
apt_update() {
	local try
	for try in 1 2 3; do
		apt-get "$@" update >/dev/null && return 0
		[ "$try" -lt 3 ] || break
		say "apt-get update failed (try $try of 3), again in ${UT_APT_RETRY_DELAY:-20} s"
		sleep "${UT_APT_RETRY_DELAY:-20}"
	done
	say "warning: apt-get update failed 3 times; going on with the package lists it got"
}

# pkg_version PACKAGE: installed Debian version, or "not installed".
pkg_version() {
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "not installed"
}

# kobj VARIANT: kernel build directory for a config variant.
kobj() { echo "$BUILD/kbuild-${1:-default}"; }

# The suite table (scripts/suites, UT_SUITES for tests of the harness):
# suites_rows prints its rows as "suite min maxskip run variants needs",
# and fails, naming the line, on a row that is not of that form.
SUITE_TABLE=${UT_SUITES:-$ROOT/scripts/suites}
suites_rows() {
	[ -f "$SUITE_TABLE" ] || die "no suite table $SUITE_TABLE"
	awk -v f="$SUITE_TABLE" '
		/^[ \t]*(#|$)/ { next }
		NF != 6 || $2 !~ /^[1-9][0-9]*$/ ||
		$3 !~ /^([0-9]+|whole)(,[a-z0-9]+=([0-9]+|whole))*$/ ||
		$4 !~ /^(host|kunit|test|scenario|reliability)$/ ||
		($4 == "scenario" && $1 !~ /^scenario-./) ||
		($4 == "reliability" && $1 !~ /^reliability-./) ||
		seen[$1]++ {
			printf "usertaint: error: %s:%d: not \"suite min maxskip run variants needs\" (min >= 1; maxskip N or whole, then VARIANT=N or VARIANT=whole, comma-separated; a suite only once): %s\n", f, NR, $0 > "/dev/stderr"
			bad = 1; next
		}
		{ print $1, $2, $3, $4, $5, $6 }
		END { exit bad }' "$SUITE_TABLE"
}

# maxskip_for MAXSKIP VARIANT: the bound of a maxskip column ("2",
# "0,i386=whole,arm64=whole") for VARIANT: a number or "whole".
maxskip_for() {
	local b=${1%%,*} e parts
	IFS=, read -ra parts <<< "$1"
	for e in "${parts[@]:1}"; do
		[ "${e%%=*}" = "$2" ] && b=${e#*=}
	done
	echo "$b"
}

# stock_tree: a checkout of the pristine tree (no series) in
# build/linux-stock, a worktree of the editable tree; prints its path.
stock_tree() {
	local stock=$BUILD/linux-stock
	if [ ! -d "$stock" ]; then
		say "checking out the pristine tree in $stock"
		git -C "$KSRC" worktree add -f --detach "$stock" pristine >/dev/null
	fi
	git -C "$stock" checkout -q --detach pristine
	echo "$stock"
}
