# SPDX-License-Identifier: GPL-2.0
# What the host checks of every scenario share, sourced by test.sh before
# each guest/scenarios/NAME.sh, whose scenario_check boots the scenario
# (scenario_run) and checks its console and results with these. Its
# checks speak TAP (scenario_tap), which test.sh counts as the suite's. A check
# that a stock kernel passes too (make stock-scenarios,
# docs/stock-scenarios.txt) says "sanity:" in its name; every scenario also
# has checks that only the patched kernel passes. The kernel reports a
# scenario asks for are the reports column of its "# suite:" row, checked
# by test.sh after scenario_check.

# section LOG START-RE END-RE: the lines of the first report from START to
# END (or to the end of the log).
# (awk reads on to the end: an exit would kill plain with SIGPIPE.)
section() { plain "$1" | awk -v s="$2" -v e="$3" 'f==0 && $0 ~ s {f=1} f==1 {print} f==1 && $0 ~ e {f=2}'; }

# With panic=-1 the guest resets right after the panic notifiers, before
# vpanic() prints its "end Kernel panic" line: a panic report ends there.
PANIC_END='end Kernel panic|Kernel Offset:|Rebooting in'


# The reason the guest wrote, as the kernel escapes it in reports.
escaped_reason() { sed -n 's/^reason=//p' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g'; }
writer_pid() { sed -n 's/^writer pid=//p' "$1"; }

# taint_u_line SECTION-FILE RESULTS: the report names the writer and reason.
taint_u_line() {
	local sec=$1 res=$2 pid reason
	pid=$(writer_pid "$res")
	reason=$(escaped_reason "$res")
	[ -n "$pid" ] && [ -n "$reason" ] || return 1
	[ "$(grep -F "Taint U: " "$sec" | grep -F " pid=$pid " | grep -F ' comm="sh" ' |
		grep -cF "reason=\"$reason\"")" -gt 0 ]
}

# Console lines that start with forged text, and Taint lines of a report
# that show a raw kernel address: each check wants none, and prints them.
lines_starting() { plain "$1" | grep -n "^$2"; }	# lines_starting LOG TEXT
raw_address_lines() { grep -E '^Taint [A-Z]:' "$1" | grep -E 'ffff[0-9a-f]{12}|0x[0-9a-f]{16}'; }
none() { ! "$@" > /dev/null; }	# none COMMAND...: COMMAND prints nothing it finds
# scenario_run NAME [APPEND]: boot the scenario (test.sh's boot; then
# test.sh checks the console's kernel reports).
scenario_run() {
	boot "scenario-$1" scenario 120 "ut.scenario=$1 ${2:-}"
}

# scenario_tap (with SUITE set, fd 4 open on the suite's TAP file): runs
# scenario_check in a subshell whose check and record write TAP through
# tap.sh to fd 4 (a detail as "# " lines), the plan last; what the checked
# commands print goes to stderr. Leaves $LOGS/$SUITE.booted when the guest
# ran to its end (test.sh then checks its kernel reports).
scenario_tap() (
	# shellcheck source=../../taintctl/tests/tap.sh
	. "$ROOT/taintctl/tests/tap.sh"
	exec 1>&2
	check() {
		local name=$1 detail=$2
		shift 2
		if "$@"; then
			ok "$name" >&4
		else
			not_ok "$name" >&4
			[ -z "$detail" ] || printf '%s\n' "$detail" | sed 's/^/# /' >&4
		fi
	}
	record() {	# boot's: a guest that hung or whose QEMU failed
		case $1 in
		pass) ok "$2" >&4 ;;
		skip) skip "$2" "${3:-}" >&4 ;;
		*) not_ok "$2" >&4; [ -z "${3:-}" ] || diag "$3" >&4 ;;
		esac
	}
	BOOTED=0
	scenario_check
	echo "1..$tap_n" >&4
	[ "$BOOTED" != 1 ] || : > "$LOGS/$SUITE.booted"
)
