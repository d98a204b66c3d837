#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run every test: checkpatch on the series and taintctl's host tests, then
# in QEMU guests KUnit, the in-guest taintctl and sysctl checks and the
# kselftests, the scenario boots (WARN, oops, panic, panic_on_taint) checked
# on the console, and the reliability boots (forgery and permissions,
# stress, fuzzer). Ends with one line "N passed, N failed, N skipped"; exits
# non-zero on any failure, on a guest that hangs and on any kernel report
# that no test asked for.
#
# Usage: test.sh [VARIANT]     VARIANT: default (make test), debug (make test-debug,
#                              the guest suites only, on the sanitizer kernel)
set -uo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:-default}
LOGS=$BUILD/logs/$variant
# Sanitizers slow the guest down: give every boot more time.
SCALE=1
[ "$variant" = debug ] && SCALE=4
mkdir -p "$LOGS"
rm -f "$LOGS"/*
PASS=0 FAIL=0 SKIP=0
FAILED=()
T0=$(date +%s)

record() {	# record pass|fail|skip NAME [DETAIL]
	case $1 in
	pass) PASS=$((PASS + 1)); printf 'PASS %s\n' "$2" ;;
	skip) SKIP=$((SKIP + 1)); printf 'SKIP %s%s\n' "$2" "${3:+: $3}" ;;
	*)    FAIL=$((FAIL + 1)); FAILED+=("$2"); printf 'FAIL %s%s\n' "$2" "${3:+: $3}" ;;
	esac
}
check() {	# check NAME DETAIL-IF-FAILED COMMAND...
	local name=$1 detail=$2
	shift 2
	if "$@"; then record pass "$name"; else record fail "$name" "$detail"; fi
}

# tap_count LABEL FILE: count the TAP results in FILE ("ok", "not ok",
# "# SKIP"; leading spaces stripped only with INDENT=N). A plan that does
# not match the number of results counts as one more failure.
tap_count() {
	local label=$1 file=$2 indent=${INDENT:-0} line name st
	local planned=0 seen=0 pad
	pad=$(printf '%*s' "$indent" '')
	while IFS= read -r line; do
		line=${line%$'\r'}
		[ "$indent" -gt 0 ] && { [[ $line == "$pad"[!\ ]* ]] || continue; line=${line#"$pad"}; }
		if [[ $line =~ ^1\.\.([0-9]+) ]]; then
			planned=$((planned + BASH_REMATCH[1]))
		elif [[ $line =~ ^(not\ )?ok(\ [0-9]+)?(\ -)?\ (.*)$ ]]; then
			seen=$((seen + 1))
			name="$label: ${BASH_REMATCH[4]}"
			if [ -n "${BASH_REMATCH[1]}" ]; then st=fail
			elif [[ $line =~ \#\ [Ss][Kk][Ii][Pp] ]]; then st=skip
			else st=pass; fi
			case $name in
			*" # "*) record $st "${name%% # *}" "${name#* # }" ;;
			*) record $st "$name" ;;
			esac
		fi
	done < "$file"
	if [ "$seen" -eq 0 ]; then
		record fail "$label" "no test results (see $file)"
	elif [ "$planned" -gt 0 ] && [ "$planned" -ne "$seen" ]; then
		record fail "$label: plan" "planned $planned, ran $seen (see $file)"
	fi
}

# Kernel reports in a console log, as "kind count" lines.
REPORT_RE='^(WARNING:|BUG:|Oops:|Kernel panic|general protection fault|KASAN:|UBSAN:|KFENCE:|INFO: task .* blocked|rcu: INFO|watchdog: BUG:|Call Trace:)'
# plain LOG: the console, printk timestamps and serial CRs stripped.
plain() { sed -E 's/^\[ *[0-9]+\.[0-9]+\] //; s/\r$//' "$1"; }

reports() {	# reports LOG -> "kind=count" for each kind of report line found
	plain "$1" | grep -oE "$REPORT_RE" |
		sed -E 's/^INFO: task .*/INFO: task blocked/' | sort | uniq -c |
		awk '{c=$1; $1=""; sub(/^ /,""); print $0 "=" c}'
}
# expect_reports NAME LOG ALLOWED...: fail unless the console shows exactly
# the report kinds listed (kind=count), e.g. "WARNING:=1" "Call Trace:=1".
expect_reports() {
	local name=$1 log=$2
	shift 2
	local want got
	want=$(printf '%s\n' "$@" | sed '/^$/d' | sort)
	got=$(reports "$log" | sort)
	if [ "$want" = "$got" ]; then
		record pass "$name: no unexpected kernel reports"
	else
		record fail "$name: kernel reports" "expected [${want//$'\n'/, }], console has [${got//$'\n'/, }] (see $log)"
	fi
}

# boot NAME MODE TIMEOUT [APPEND [VCPUS]]: one guest; console in
# $LOGS/NAME.console, results in $LOGS/NAME.results. Fails (and returns 1)
# on a hang.
boot() {
	local name=$1 mode=$2 tmo=$(($3 * SCALE)) append=${4:-} smp=${5:-2} rc=0
	"$ROOT/scripts/boot.sh" -m "$mode" -t "$tmo" -a "$append" -s "$smp" \
		-c "$LOGS/$name.console" -r "$LOGS/$name.results" "$KERNEL" "$INITRD" \
		2> >(tee -a "$LOGS/boots.txt" >&2) || rc=$?
	sed -i 's/\r$//' "$LOGS/$name.results" "$LOGS/$name.console"	# serial line ends
	if [ $rc -ne 0 ]; then
		record fail "boot $name" "$([ $rc = 124 ] && echo "guest hung, killed after ${tmo}s" || echo "qemu exited $rc")"
		return 1
	fi
	return 0
}

# The TAP blocks a test boot wrote on ttyS1.
guest_suites() {	# guest_suites RESULTS
	local res=$1 name rc
	local n=0
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"##UT-BEGIN "*) name=${line#\#\#UT-BEGIN }; : > "$LOGS/$name.tap"; n=$((n + 1)) ;;
		"##UT-END "*)
			rc=${line##*rc=}
			tap_count "$name" "$LOGS/$name.tap"
			[ "$rc" = 0 ] || [ "$rc" = 4 ] || record fail "$name: exit status" "exited $rc"
			name="" ;;
		*) [ -n "${name:-}" ] && printf '%s\n' "$line" >> "$LOGS/$name.tap" ;;
		esac
	done < "$res"
	[ -z "${name:-}" ] || record fail "$name" "never finished (guest died or hung; see $res)"
	[ $n -gt 0 ] || record fail "guest test suites" "no suite ran (see $res)"
}

host_tests() {
	local hrc=0

	say "== host tests"
	make -s -C "$ROOT/taintctl" check > "$LOGS/host-taintctl.tap" 2>&1 || hrc=$?
	tap_count taintctl-host "$LOGS/host-taintctl.tap"
	[ $hrc = 0 ] || record fail "taintctl-host: make check" "exited $hrc (see $LOGS/host-taintctl.tap)"

	"$ROOT/scripts/check-series.sh" > "$LOGS/checkpatch.tap" 2>&1
	tap_count series "$LOGS/checkpatch.tap"
}

"$ROOT/scripts/deps.sh" all || exit 1
# The host tests do not depend on the kernel: only the default run has them.
[ "$variant" = default ] && host_tests

say "== kernel and initramfs ($variant)"
KERNEL=$("$ROOT/scripts/build-kernel.sh" "$variant") || { record fail "kernel build ($variant)"; KERNEL=; }
INITRD=$("$ROOT/scripts/build-initramfs.sh") || { record fail "initramfs build"; INITRD=; }

if [ -n "$KERNEL" ] && [ -n "$INITRD" ]; then
	say "== KUnit boot"
	if boot kunit kunit 180 "kunit.enable=1"; then
		log=$LOGS/kunit.console
		plain "$log" > "$LOGS/kunit.ktap"
		INDENT=4 tap_count kunit "$LOGS/kunit.ktap"
		expect_reports kunit "$log"
	fi

	say "== kselftest boot"
	if boot test test 300; then
		guest_suites "$LOGS/test.results"
		expect_reports test "$LOGS/test.console"
	fi

	say "== scenario boots"
	. "$ROOT/scripts/scenarios.sh"
	for s in warn oops oops-forged panic panic-on-taint; do
		scenario_"${s//-/_}"
	done

	# Each on a fresh boot with 4 vCPUs: they need the taint log empty.
	seed=${UT_SEED:-20261203}
	say "== reliability boots (fuzzer seed $seed; UT_SEED=N to change it)"
	for r in forgery+perm stress fuzz; do
		if boot "reliability-$r" reliability 600 "ut.rel=$r ut.seed=$seed" 4; then
			guest_suites "$LOGS/reliability-$r.results"
			expect_reports "reliability $r" "$LOGS/reliability-$r.console"
		fi
	done
fi

T1=$(date +%s)
say "logs in $LOGS; $((T1 - T0)) s in all"
[ ${#FAILED[@]} -eq 0 ] || { printf 'failed:\n'; printf '  %s\n' "${FAILED[@]}"; }
echo "$PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" -eq 0 ]
