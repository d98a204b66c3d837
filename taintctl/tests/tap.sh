# SPDX-License-Identifier: GPL-2.0-or-later
#
# tap.sh - the TAP helpers of the shell tests, sourced (POSIX sh; bash too).
#
#   . "$HERE/tap.sh"
#   tap_init NAME     $T: a temporary directory /tmp/taintctl-NAME.XXXXXX,
#                     removed on exit (tap_cleanup); ASAN_OPTIONS exported
#                     (detect_leaks=1 unless set); counters n and failed at 0
#   ok DESC, not_ok DESC, skip DESC WHY: one TAP line each; not_ok then
#                     runs tap_diag, which prints nothing unless the script
#                     defines its own (after sourcing this file)
#   t DESC CMD...     ok if CMD succeeds; its output goes to $TAP_LOG
#                     (default /dev/null)
#   tap_done          the plan line 1..N last, exit 1 if a test failed

tap_init() {
	T=$(mktemp -d "/tmp/taintctl-$1.XXXXXX")
	trap 'tap_cleanup' EXIT INT TERM
	export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
	n=0
	failed=0
}
tap_cleanup() { rm -rf "$T"; }
tap_diag() { :; }

ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n - $1"; tap_diag; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
t() { d=$1; shift; if "$@" >"${TAP_LOG:-/dev/null}" 2>&1; then ok "$d"; else not_ok "$d"; fi; }

tap_done() {
	echo "1..$n"
	[ "$failed" -eq 0 ] || exit 1
	exit 0
}
