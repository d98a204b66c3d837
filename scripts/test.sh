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
# Which suites run, and how many results each must at least report, is the
# table scripts/suites: a suite listed there that did not run, or reported
# fewer results, is a failure, and so is a suite that ran but is not listed.
#
# Usage: test.sh [VARIANT]     VARIANT: default (make test), debug (make test-debug,
#                              the guest suites only, on the sanitizer kernel),
#                              kcsan (make test-kcsan: KUnit and the stress and
#                              NMI boots on a KCSAN kernel), i386 and arm64
#                              (scripts/arch-test.sh, with UT_ARCH set: the
#                              kernel, initramfs and QEMU of that architecture)
# Environment:
#   UT_ONLY="PATTERN ..."  run only the suites of scripts/suites whose name or
#                          run column matches one of the shell patterns
#                          (space- or comma-separated), e.g.
#                          UT_ONLY=reliability-fuzz, UT_ONLY='scenario-*',
#                          UT_ONLY=host; only those are checked against the
#                          table (a boot's other suites still count)
#   UT_SEED=N              the fuzzer's seed (default 20261203)
#   UT_KERNEL=BZIMAGE      boot this kernel as it is, instead of building one
#   UT_INITRD=CPIO.GZ      boot this initramfs as it is, instead of building one
#   UT_LOGS=DIR            logs there instead of build/logs/VARIANT
#   TAINT_CORPUS_DIR=DIR   the oops corpus (default taintctl/tests/corpus/oops,
#                          in the repository; a relative DIR is taken from the
#                          repository root)
#   CI=true                a missing corpus is a failure, also one that
#                          TAINT_CORPUS_DIR names (without CI only the default
#                          one's absence fails: other corpus tests are skipped)
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/lib.sh"

variant=${1:-default}
LOGS=${UT_LOGS:-$BUILD/logs/$variant}
# Sanitizers slow the guest down: give every boot more time.
SCALE=1
[ "$variant" = debug ] || [ "$variant" = kcsan ] && SCALE=4
# x2apic: a QEMU that emulates x2APIC, the guest CPU has it, and an IOMMU
# that remaps interrupts in extended mode, without which Linux keeps xAPIC.
if [ "$variant" = x2apic ]; then
	UT_QEMU=$("$ROOT/scripts/qemu-backports.sh") || exit 1
	export UT_QEMU UT_CPU=,+x2apic
	export UT_QEMU_ARGS="-M q35 -device intel-iommu,intremap=on,eim=on"
fi
mkdir -p "$LOGS"
rm -f "$LOGS"/*
PASS=0 FAIL=0 SKIP=0
FAILED=()
T0=$(date +%s)

# The suite table, for this variant and UT_ONLY: SUITE_ORDER in table order,
# MIN/RUN per suite; KNOWN: every suite of the table (any variant).
declare -A MIN=() RUN=() KNOWN=() COUNT=() SEEN=() WHOLESKIP=() TAPFILE=()
SUITE_ORDER=()
rows=$(suites_rows) || exit 2
only=${UT_ONLY:-}
only=${only//,/ }
declare -A only_used=()
selected() {	# selected NAME RUN: UT_ONLY is empty or matches NAME or RUN
	local p
	[ -z "$only" ] && return 0
	for p in $only; do
		# shellcheck disable=SC2053	# $p is a pattern
		if [[ $1 == $p ]] || [[ $2 == $p ]]; then only_used[$p]=1; return 0; fi
	done
	return 1
}
set -f	# UT_ONLY's patterns are matched by selected(), not by the shell
while read -r name min run variants _; do
	KNOWN[$name]=1
	[ "$variants" = all ] || [[ ,$variants, == *,"$variant",* ]] || continue
	selected "$name" "$run" || continue
	SUITE_ORDER+=("$name") MIN[$name]=$min RUN[$name]=$run
done <<< "$rows"
for p in $only; do
	[ -n "${only_used[$p]:-}" ] ||
		die "UT_ONLY: '$p' matches no suite of variant $variant in $SUITE_TABLE (nor a run column: host, kunit, test, scenario, reliability)"
done
set +f
[ -z "$only" ] || say "UT_ONLY=$UT_ONLY: ${SUITE_ORDER[*]}"
# runs RUN: some selected suite runs that way
runs() { local s; for s in "${SUITE_ORDER[@]}"; do [ "${RUN[$s]}" = "$1" ] && return 0; done; return 1; }
wants() { [ -n "${MIN[$1]:-}" ]; }	# wants SUITE: the suite is selected

# Every result recorded while SUITE is set counts for that suite; the
# harness's own checks (kernel reports, hung boots, plans) run with SUITE=.
SUITE=
record() {	# record pass|fail|skip NAME [DETAIL]
	[ -z "$SUITE" ] || COUNT[$SUITE]=$(( ${COUNT[$SUITE]:-0} + 1 ))
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
# "# SKIP"; leading spaces stripped only with INDENT=N) for suite LABEL. A
# plan that does not match the number of results counts as one more
# failure. A program that skipped as a whole ("1..0 # SKIP why") counts one
# skip here, and as the suite's minimum of skips in check_suites; it is
# named by the "# <program>" line before it, if any.
tap_count() {
	local label=$1 file=$2 indent=${INDENT:-0} line name st prog="" why
	local planned=0 seen=0 pad SUITE=$1
	TAPFILE[$label]=$file
	pad=$(printf '%*s' "$indent" '')
	while IFS= read -r line; do
		line=${line%$'\r'}
		[ "$indent" -gt 0 ] && { [[ $line == "$pad"[!\ ]* ]] || continue; line=${line#"$pad"}; }
		if [[ $line =~ ^#\ ([^\ ]+)$ ]]; then
			prog=${BASH_REMATCH[1]##*/}
		elif [[ $line =~ ^1\.\.0([^0-9]|$) ]]; then
			SEEN[$label]=1 WHOLESKIP[$label]=1
			why="no reason given"
			[[ $line =~ \#\ *[Ss][Kk][Ii][Pp]\ *(.*)$ ]] && why=${BASH_REMATCH[1]}
			record skip "$label${prog:+: $prog}" "skipped as a whole: $why"
		elif [[ $line =~ ^1\.\.([0-9]+) ]]; then
			planned=$((planned + BASH_REMATCH[1]))
			SEEN[$label]=1
		elif [[ $line =~ ^(not\ )?ok(\ [0-9]+)?(\ -)?\ (.*)$ ]]; then
			seen=$((seen + 1))
			SEEN[$label]=1
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
	if [ "$planned" -gt 0 ] && [ "$planned" -ne "$seen" ]; then
		SUITE='' record fail "$label: plan" "planned $planned, ran $seen (see $file)"
	fi
}

# check_suites: every selected suite ran and reported at least its minimum
# of results; every suite that ran is in the table.
check_suites() {
	local s n m why ok=0
	printf '# suite results min (from %s)\n' "${SUITE_TABLE#"$ROOT"/}" > "$LOGS/suites.txt"
	for s in "${SUITE_ORDER[@]}"; do
		n=${COUNT[$s]:-0} m=${MIN[$s]}
		printf '%s %d %d\n' "$s" "$n" "$m" >> "$LOGS/suites.txt"
		why=${TAPFILE[$s]:+ (see ${TAPFILE[$s]})}
		if [ "$n" -ge "$m" ]; then
			ok=$((ok + 1))
		elif [ -n "${WHOLESKIP[$s]:-}" ]; then
			# Skipped as a whole: the tests it would have run are skips.
			SKIP=$((SKIP + m - n))
			printf 'SKIP %s: %d more tests counted as skipped (skipped as a whole; %s lists at least %d)\n' \
				"$s" $((m - n)) "${SUITE_TABLE#"$ROOT"/}" "$m"
			ok=$((ok + 1))
		elif [ "$n" -eq 0 ] && [ -z "${SEEN[$s]:-}" ]; then
			record fail "suite $s" "did not run; ${SUITE_TABLE#"$ROOT"/} expects at least $m results${BUILD_FAILED:+ ($BUILD_FAILED failed)}$why"
		else
			record fail "suite $s" "$n results; ${SUITE_TABLE#"$ROOT"/} expects at least $m$why"
		fi
	done
	for s in "${!SEEN[@]}"; do
		[ -n "${KNOWN[$s]:-}" ] ||
			record fail "suite $s" "ran but is not in $SUITE_TABLE: add a row for it"
	done
	say "$ok of ${#SUITE_ORDER[@]} suites of ${SUITE_TABLE#"$ROOT"/} ran with at least their minimum of results (counts: $LOGS/suites.txt)"
}

# Kernel reports in a console log, as "kind count" lines. arm64 says
# "Internal error: Oops..." and "Call trace:" (counted as "Call Trace:").
REPORT_RE='^(WARNING:|BUG:|Oops:|Internal error:|Kernel panic|general protection fault|KASAN:|UBSAN:|KFENCE:|INFO: task .* blocked|rcu: INFO|watchdog: BUG:|Call [Tt]race:|Uhhuh. NMI received for unknown reason)'
# plain LOG: the console, printk timestamps and serial CRs stripped.
plain() { sed -E 's/^\[ *[0-9]+\.[0-9]+\] //; s/\r$//' "$1"; }

reports() {	# reports LOG -> "kind=count" for each kind of report line found
	plain "$1" | grep -oE "$REPORT_RE" |
		sed -E 's/^INFO: task .*/INFO: task blocked/; s/^Call trace:/Call Trace:/' | sort | uniq -c |
		awk '{c=$1; $1=""; sub(/^ /,""); print $0 "=" c}'
}
# expect_reports NAME LOG ALLOWED...: fail unless the console shows exactly
# the report kinds listed (kind=count), e.g. "WARNING:=1" "Call Trace:=1".
expect_reports() {
	local name=$1 log=$2 SUITE=''
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

# boot NAME MODE TIMEOUT [APPEND [VCPUS [DUMP]]]: one guest (DUMP: dumped
# into that file after its panic, boot.sh -d); console in
# $LOGS/NAME.console, results in $LOGS/NAME.results. Fails (and returns 1)
# on a hang.
boot() {
	local name=$1 mode=$2 tmo=$(($3 * SCALE)) append=${4:-} smp=${5:-2} dump=${6:-} rc=0
	"$ROOT/scripts/boot.sh" -m "$mode" -t "$tmo" -a "ut.variant=$variant $append" -s "$smp" \
		${dump:+-d "$dump"} \
		-c "$LOGS/$name.console" -r "$LOGS/$name.results" "$KERNEL" "$INITRD" \
		2> >(tee -a "$LOGS/boots.txt" >&2) || rc=$?
	sed -i 's/\r$//' "$LOGS/$name.results" "$LOGS/$name.console"	# serial line ends
	if [ $rc -ne 0 ]; then
		SUITE='' record fail "boot $name" "$([ $rc = 124 ] && echo "guest hung, killed after ${tmo}s" || echo "qemu exited $rc")"
		return 1
	fi
	return 0
}

# The TAP blocks a test boot wrote on ttyS1, one suite each.
guest_suites() {	# guest_suites RESULTS
	local res=$1 name="" rc line
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"##UT-BEGIN "*) name=${line#\#\#UT-BEGIN }; SEEN[$name]=1; : > "$LOGS/$name.tap" ;;
		"##UT-END "*)
			rc=${line##*rc=}
			tap_count "$name" "$LOGS/$name.tap"
			[ "$rc" = 0 ] || [ "$rc" = 4 ] || SUITE='' record fail "$name: exit status" "exited $rc"
			name="" ;;
		*) [ -z "$name" ] || printf '%s\n' "$line" >> "$LOGS/$name.tap" ;;
		esac
	done < "$res"
	[ -z "$name" ] || SUITE='' record fail "$name" "never finished (guest died or hung; see $res)"
}

# The oops corpus, found the way taintctl/Makefile finds it.
corpus_dir() {
	local d=${TAINT_CORPUS_DIR:-taintctl/tests/corpus/oops}
	case $d in /*) ;; *) d=$ROOT/$d ;; esac
	echo "$d"
}

host_tests() {
	local hrc=0 corpus

	say "== host tests"
	# The harness's own pipelines: no early-exit reader under pipefail.
	if wants harness-lint; then
		"$ROOT/scripts/lint-pipefail.sh" > "$LOGS/harness-lint.tap" 2>&1
		tap_count harness-lint "$LOGS/harness-lint.tap"
	fi
	# The Debian mirror the harness uses is the machine's (lib.sh apt_mirror).
	if wants harness-apt-mirror; then
		"$ROOT/scripts/apt-mirror-test.sh" > "$LOGS/harness-apt-mirror.tap" 2>&1
		tap_count harness-apt-mirror "$LOGS/harness-apt-mirror.tap"
	fi
	if wants taintctl-host || wants taintctl-corpus; then
		make -k -s -C "$ROOT/taintctl" check > "$LOGS/host-taintctl.log" 2>&1 || hrc=$?
		# One TAP stream a program, each after a "# <program>" line:
		# test_corpus's is the suite taintctl-corpus.
		awk -v c="$LOGS/taintctl-corpus.tap" -v o="$LOGS/taintctl-host.tap" '
			BEGIN { f = o; printf "" > c; printf "" > o }
			/^# (build|tests)\/[^ ]*$/ { f = ($0 ~ /\/test_corpus$/) ? c : o }
			{ print > f }' "$LOGS/host-taintctl.log"
		tap_count taintctl-host "$LOGS/taintctl-host.tap"
		tap_count taintctl-corpus "$LOGS/taintctl-corpus.tap"
		[ $hrc = 0 ] || record fail "taintctl-host: make check" "exited $hrc (see $LOGS/host-taintctl.log)"
		corpus=$(corpus_dir)
		if ! [ -f "$corpus/expected.tsv" ]; then
			if [ "${CI:-}" = true ]; then
				record fail "taintctl-corpus: corpus" "not found at $corpus: CI (CI=true) must run the corpus tests (TAINT_CORPUS_DIR, default taintctl/tests/corpus/oops in the repository)"
			elif [ -z "${TAINT_CORPUS_DIR:-}" ]; then
				record fail "taintctl-corpus: corpus" "the repository's corpus is missing: $corpus"
			else
				say "no oops corpus at $corpus (TAINT_CORPUS_DIR): its tests are skipped (with CI=true that fails)"
			fi
		fi
	fi
	# The reliability tests' own oracles, on fixed inputs.
	if wants reliability-selftest; then
		hrc=0
		make -s -C "$ROOT/guest/reliability" OUT="$BUILD/reliability" selftest \
			> "$LOGS/reliability-selftest.tap" 2>&1 || hrc=$?
		tap_count reliability-selftest "$LOGS/reliability-selftest.tap"
		[ $hrc = 0 ] || record fail "reliability-selftest: make selftest" "exited $hrc (see $LOGS/reliability-selftest.tap)"
	fi
	if wants series; then
		"$ROOT/scripts/check-series.sh" > "$LOGS/checkpatch.tap" 2>&1
		tap_count series "$LOGS/checkpatch.tap"
	fi
}

"$ROOT/scripts/deps.sh" all || exit 1
# The host tests do not depend on the kernel (scripts/suites: run "host").
runs host && host_tests

BUILD_FAILED=
if runs kunit || runs test || runs scenario || runs reliability; then
	say "== kernel and initramfs ($variant)"
	if [ -n "${UT_KERNEL:-}" ]; then
		[ -f "$UT_KERNEL" ] || die "UT_KERNEL=$UT_KERNEL: no such file"
		KERNEL=$UT_KERNEL
		say "kernel: $KERNEL (UT_KERNEL, not built)"
	else
		KERNEL=$("$ROOT/scripts/build-kernel.sh" "$variant") ||
			{ record fail "kernel build ($variant)"; KERNEL=; BUILD_FAILED="kernel build"; }
	fi
	if [ -n "${UT_INITRD:-}" ]; then
		[ -f "$UT_INITRD" ] || die "UT_INITRD=$UT_INITRD: no such file"
		INITRD=$UT_INITRD
		say "initramfs: $INITRD (UT_INITRD, not built)"
	else
		# stdout (the path) to a file, stderr shown and kept for the summary
		"$ROOT/scripts/build-initramfs.sh" "$variant" 2>&1 > "$LOGS/initramfs.path" |
			tee "$LOGS/initramfs.log" >&2
		if [ "${PIPESTATUS[0]}" = 0 ]; then
			INITRD=$(cat "$LOGS/initramfs.path")
		else
			record fail "initramfs build" "$(sed -n 's/^usertaint: error: //p' "$LOGS/initramfs.log" | tail -n 1)"
			INITRD='' BUILD_FAILED=${BUILD_FAILED:+$BUILD_FAILED and }"initramfs build"
		fi
	fi
fi

if [ -n "${KERNEL:-}" ] && [ -n "${INITRD:-}" ]; then
	if runs kunit; then
		say "== KUnit boot"
		if boot kunit kunit 180 "kunit.enable=1"; then
			log=$LOGS/kunit.console
			plain "$log" > "$LOGS/kunit.ktap"
			INDENT=4 tap_count kunit "$LOGS/kunit.ktap"
			# taint_bounds_test asks for three warnings: the bounds
			# checks of the recorder, add_taint() and add_taint_user().
			SUITE=kunit check "kunit: the three warnings are the bounds checks, once each" \
				"$(plain "$log" | grep '^WARNING:')" \
				test "$(plain "$log" | grep -cE '^WARNING: .* at .*kernel/(taint_log\.c:[0-9]+ taint_log_record|panic\.c:[0-9]+ __add_taint|panic\.c:[0-9]+ add_taint_user)(\.[a-z]+\.[0-9]+)?\+')" = 3
			expect_reports kunit "$log" "WARNING:=3" "Call Trace:=3"
		fi
	fi

	if runs test; then
		say "== kselftest boot"
		if boot test test 300; then
			guest_suites "$LOGS/test.results"
			expect_reports test "$LOGS/test.console"
		fi
	fi

	if runs scenario; then
		say "== scenario boots"
		# shellcheck source=SCRIPTDIR/scenarios.sh
		. "$ROOT/scripts/scenarios.sh"
		for s in "${SUITE_ORDER[@]}"; do
			[ "${RUN[$s]}" = scenario ] || continue
			fn=${s#scenario-}
			fn=scenario_${fn//-/_}
			if declare -F "$fn" > /dev/null; then
				SEEN[$s]=1 SUITE=$s
				"$fn"
				SUITE=
			else
				record fail "$s" "no function $fn in scripts/scenarios.sh"
			fi
		done
	fi

	# Each on a fresh boot with 4 vCPUs: they need the taint log empty.
	if runs reliability; then
		seed=${UT_SEED:-20261203}
		say "== reliability boots (fuzzer seed $seed; UT_SEED=N to change it)"
		for s in "${SUITE_ORDER[@]}"; do
			[ "${RUN[$s]}" = reliability ] || continue
			if boot "$s" reliability 600 "ut.rel=${s#reliability-} ut.seed=$seed" 4; then
				guest_suites "$LOGS/$s.results"
				# blame's second "test" WARNs on purpose.
				if [ "$s" = reliability-blame ]; then
					expect_reports "reliability ${s#reliability-}" "$LOGS/$s.console" \
						"WARNING:=1" "Call Trace:=1"
				else
					expect_reports "reliability ${s#reliability-}" "$LOGS/$s.console"
				fi
				# The NMIs of this boot were sent in x2APIC mode.
				[ "$variant" = x2apic ] && SUITE=$s check "$s: the guest ran its local APICs in x2APIC mode" \
					"$(plain "$LOGS/$s.console" | grep -i 'apic' | sed -n 1,5p)" \
					grep -qE 'x2apic enabled|APIC routing to: .*x2apic' "$LOGS/$s.console"
			fi
		done
	fi
fi

check_suites
T1=$(date +%s)
say "logs in $LOGS; $((T1 - T0)) s in all"
[ ${#FAILED[@]} -eq 0 ] || { printf 'failed:\n'; printf '  %s\n' "${FAILED[@]}"; }
echo "$PASS passed, $FAIL failed, $SKIP skipped"
[ "$FAIL" -eq 0 ]
