# SPDX-License-Identifier: GPL-2.0
# vmcore_check.sh - the checks that vmcore_test.sh and
# vmcore_status_test.sh share, sourced after tap_init: tap_diag (a
# failure's diff and stderr), run, same and bad.  TAINTCTL and T set.

tap_diag() {
	[ -s "$T/diff" ] && sed 's/^/# /' "$T/diff" | head -10
	sed 's/^/# stderr: /' "$T/err" | head -3
}

# run ARGS...: taintctl with stdout, stderr and exit code captured
run() { "$TAINTCTL" "$@" </dev/null >"$T/out" 2>"$T/err"; rc=$?; }
# same DESC: ok if $T/out equals $T/want byte for byte, exit 0, no stderr
same() {
	if [ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && cmp -s "$T/out" "$T/want"; then
		ok "$1"
	else
		diff "$T/want" "$T/out" >"$T/diff"
		not_ok "$1"
	fi
	: >"$T/diff"
}
# bad DESC CODE PATTERN: exit CODE, one line on stderr matching PATTERN,
# nothing on stdout
bad() {
	if [ "$rc" -eq "$2" ] && [ ! -s "$T/out" ] &&
	   [ "$(wc -l <"$T/err")" -eq 1 ] && grep -q -- "^taintctl: $3" "$T/err"; then
		ok "$1"
	else
		not_ok "$1 (exit $rc)"
	fi
}
