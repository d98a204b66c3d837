# SPDX-License-Identifier: GPL-2.0-or-later
#
# tap.sh - the one TAP library of the project's shell tests (POSIX sh, so
# bash and the guest's busybox sh both source it): taintctl's tests here,
# the harness's (scripts/), and the guest's (the initramfs carries this
# file as /guest/tap.sh). It lives in taintctl's tree because taintctl is
# built, tested and packaged on its own.
#
#   . "$HERE/tap.sh"        counters tap_n and tap_failed start at 0 (names
#                     no test uses for its own: a local n cannot shift them)
#   ok DESC, not_ok DESC, skip DESC WHY: one TAP line each; not_ok then
#                     runs tap_diag, which prints nothing unless the script
#                     defines its own (after sourcing this file)
#   t DESC CMD...     ok if CMD succeeds, else not_ok; CMD's output goes to
#                     $TAP_LOG (default /dev/null)
#   has TEXT ERE      TEXT has a line that matches ERE (a CMD for t)
#   diag TEXT...      a "# " comment line
#   tap_done          the plan "1..N" last (counted, never typed), then
#                     exit 1 if a test failed, 0 if none did
#   tap_skip_all WHY  the whole program skipped: "1..0 # SKIP WHY", exit 0
#   tap_need CMD:PKG...  each CMD on PATH (a CMD with a / in it: a
#                     readable file), else "Bail out!" naming it and its
#                     Debian package (scripts/build/deps.sh host installs it),
#                     exit 1: a missing tool is a failure, not a skip
#   tap_init NAME     for tests that need one: $T, a temporary directory
#                     /tmp/taintctl-NAME.XXXXXX removed on exit
#                     (tap_cleanup); ASAN_OPTIONS exported (detect_leaks=1
#                     unless set)
# A result is one line; its description must not contain a newline.

tap_n=0
tap_failed=0

tap_init() {
	T=$(mktemp -d "/tmp/taintctl-$1.XXXXXX")
	trap 'tap_cleanup' EXIT INT TERM
	export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
}
tap_cleanup() { rm -rf "$T"; }
tap_diag() { :; }

ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1"; }
not_ok() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $1"; tap_diag; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $1 # SKIP $2"; }
t() { d=$1; shift; if "$@" >"${TAP_LOG:-/dev/null}" 2>&1; then ok "$d"; else not_ok "$d"; fi; }
has() { printf '%s\n' "$1" | grep -E -- "$2" >/dev/null; }
diag() { echo "# $*"; }

tap_done() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ] || exit 1
	exit 0
}
tap_need() {
	for need in "$@"; do
		case ${need%%:*} in
		*/*) [ -r "${need%%:*}" ] && continue ;;
		*) command -v "${need%%:*}" >/dev/null 2>&1 && continue ;;
		esac
		echo "Bail out! ${need%%:*} is not installed: run scripts/build/deps.sh host, or apt-get install ${need#*:}"
		exit 1
	done
}
tap_skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}
