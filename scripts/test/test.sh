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
# Which suites run, how many results each must at least report and how
# many of them may be skips is the table scripts/test/suites: a suite listed
# there that did not run, reported fewer results or more skips (or skipped
# as a whole where its row does not allow it) is a failure, and so is a
# suite that ran but is not listed. The counting is scripts/count.sh.
#
# Usage: test.sh [VARIANT]     VARIANT: default (make test), debug (make test-debug,
#                              the guest suites only, on the sanitizer kernel),
#                              kcsan (make test-kcsan: KUnit and the stress and
#                              NMI boots on a KCSAN kernel), i386 and arm64
#                              (scripts/test/arch-test.sh, with UT_ARCH set: the
#                              kernel, initramfs and QEMU of that architecture)
# Environment:
#   UT_ONLY="PATTERN ..."  run only the suites of scripts/test/suites whose name or
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
. "$(dirname "$0")/../lib.sh"

variant=${1:-default}
LOGS=${UT_LOGS:-$BUILD/logs/$variant}
# Sanitizers slow the guest down: give every boot more time.
SCALE=1
[ "$variant" = debug ] || [ "$variant" = kcsan ] && SCALE=4
# x2apic: a QEMU that emulates x2APIC, the guest CPU has it, and an IOMMU
# that remaps interrupts in extended mode, without which Linux keeps xAPIC.
if [ "$variant" = x2apic ]; then
	UT_QEMU=$("$ROOT/scripts/build/qemu-backports.sh") || exit 1
	export UT_QEMU UT_CPU=,+x2apic
	export UT_QEMU_ARGS="-M q35 -device intel-iommu,intremap=on,eim=on"
fi
mkdir -p "$LOGS"
rm -f "$LOGS"/*
T0=$(date +%s)

# The counting (record, check, tap_count, guest_suites, check_suites) and
# the suite table for this variant and UT_ONLY.
# shellcheck source=SCRIPTDIR/count.sh
. "$ROOT/scripts/test/count.sh"
count_table "$variant"
# kunit-module (scripts/test/suites: a variant whose KUnit test is a module, which
# the guest loads on the KUnit boot) takes kunit's place: the same boot.
if [ -n "${MIN[kunit-module]:-}" ] && [ -n "${MIN[kunit]:-}" ]; then
	for i in "${!SUITE_ORDER[@]}"; do [ "${SUITE_ORDER[$i]}" = kunit ] && unset "SUITE_ORDER[$i]"; done
	SUITE_ORDER=("${SUITE_ORDER[@]}")
	unset "MIN[kunit]" "RUN[kunit]"
fi

# module_loaded LOG: guest/init loaded a KUnit test module, without error.
# (The console is taken whole first: under pipefail an early-exiting reader
# behind a pipe fails the pipe by timing.)
module_loaded() {
	local t
	t=$(plain "$1")
	grep -q '^usertaint: loading .*[.]ko$' <<< "$t" &&
		! grep -q '^usertaint: insmod .* failed' <<< "$t"
}

# boot NAME MODE TIMEOUT [APPEND [VCPUS [DUMP]]]: one guest (DUMP: dumped
# into that file after its panic, boot.sh -d); console in
# $LOGS/NAME.console, results in $LOGS/NAME.results. Fails (and returns 1)
# on a hang; sets BOOTED=1 if the guest ran to its end.
boot() {
	local name=$1 mode=$2 tmo=$(($3 * SCALE)) append=${4:-} smp=${5:-2} dump=${6:-} rc=0
	"$ROOT/scripts/boot/boot.sh" -m "$mode" -t "$tmo" -a "ut.variant=$variant $append" -s "$smp" \
		${dump:+-d "$dump"} \
		-c "$LOGS/$name.console" -r "$LOGS/$name.results" "$KERNEL" "$INITRD" \
		2> >(tee -a "$LOGS/boots.txt" >&2) || rc=$?
	sed -i 's/\r$//' "$LOGS/$name.results" "$LOGS/$name.console"	# serial line ends
	if [ $rc -ne 0 ]; then
		SUITE='' record fail "boot $name" "$([ $rc = 124 ] && echo "guest hung, killed after ${tmo}s" || echo "qemu exited $rc")"
		return 1
	fi
	BOOTED=1
	return 0
}

# The oops corpus, found the way taintctl/Makefile finds it.
corpus_dir() {
	local d=${TAINT_CORPUS_DIR:-taintctl/tests/corpus/oops}
	case $d in /*) ;; *) d=$ROOT/$d ;; esac
	echo "$d"
}

# timed NAME COMMAND...: COMMAND, its time in seconds kept in HOST_TIMES
# for the summary (a slow suite shows up there first).
HOST_TIMES=()
timed() {
	local name=$1 t0=$SECONDS rc=0
	shift
	"$@" || rc=$?
	HOST_TIMES+=("$name $((SECONDS - t0)) s")
	return $rc
}

host_tests() {
	local hrc=0 corpus

	say "== host tests"
	# The harness's own pipelines: no early-exit reader under pipefail.
	if wants harness-lint; then
		timed harness-lint "$ROOT/scripts/test/selftest/lint-pipefail.sh" > "$LOGS/harness-lint.tap" 2>&1
		tap_count harness-lint "$LOGS/harness-lint.tap"
	fi
	# The Debian mirror the harness uses is the machine's (lib.sh apt_mirror).
	if wants harness-apt-mirror; then
		timed harness-apt-mirror "$ROOT/scripts/test/selftest/apt-mirror.sh" > "$LOGS/harness-apt-mirror.tap" 2>&1
		tap_count harness-apt-mirror "$LOGS/harness-apt-mirror.tap"
	fi
	if wants taintctl-host || wants taintctl-corpus; then
		timed taintctl-host+corpus make -k -s -C "$ROOT/taintctl" check > "$LOGS/host-taintctl.log" 2>&1 || hrc=$?
		# One TAP stream a program, each after a "# <program>" line:
		# test_corpus's and corpus_cli_test.sh's are the suite
		# taintctl-corpus.
		awk -v c="$LOGS/taintctl-corpus.tap" -v o="$LOGS/taintctl-host.tap" '
			BEGIN { f = o; printf "" > c; printf "" > o }
			/^# (build|tests)\/[^ ]*$/ { f = ($0 ~ /\/(test_corpus|corpus_cli_test\.sh)$/) ? c : o }
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
	# taintctl built with clang too (-Werror, its own build/clang), and its
	# unit tests run under clang's ASan+UBSan: a result for the build, then
	# the tests'.
	if wants taintctl-clang; then
		local t0=$SECONDS
		{
			echo "# CC=clang make -C taintctl B=build/clang"
			echo "1..1"
			if make -s -C "$ROOT/taintctl" CC=clang B=build/clang all \
				> "$LOGS/taintctl-clang-build.log" 2>&1; then
				echo "ok 1 - CC=clang make -C taintctl: built under -Werror"
			else
				echo "not ok 1 - CC=clang make -C taintctl: failed (see $LOGS/taintctl-clang-build.log)"
			fi
			make -k -s -C "$ROOT/taintctl" CC=clang B=build/clang unit-check 2>&1
		} > "$LOGS/taintctl-clang.tap"
		HOST_TIMES+=("taintctl-clang $((SECONDS - t0)) s")
		tap_count taintctl-clang "$LOGS/taintctl-clang.tap"
	fi
	# The libFuzzer targets, a short deterministic run each from the
	# corpus in the repository, and the regression inputs replayed.
	if wants taintctl-fuzz; then
		timed taintctl-fuzz make -s -C "$ROOT/taintctl" fuzz-check > "$LOGS/taintctl-fuzz.tap" 2>&1
		tap_count taintctl-fuzz "$LOGS/taintctl-fuzz.tap"
	fi
	# taintctl's Debian packages (debian/), built out of the tree into
	# build/deb/ with DEB_BUILD_OPTIONS=nocheck (taintctl-host ran their
	# tests) and checked: lintian, contents, an unpacked run, the units.
	# make deb builds them with the tests.
	if wants taintctl-deb; then
		timed taintctl-deb "$ROOT/scripts/pkg/deb-test.sh" --nocheck > "$LOGS/taintctl-deb.tap" 2>&1
		tap_count taintctl-deb "$LOGS/taintctl-deb.tap"
	fi
	# The reliability tests' own oracles, on fixed inputs. They are written
	# with the kernel tree's kselftest_harness.h: the tree first, if the
	# header is not there yet (a fresh machine).
	if wants reliability-selftest; then
		hrc=0
		[ -f "$KSRC/tools/testing/selftests/kselftest_harness.h" ] ||
			"$ROOT/scripts/build/tree.sh" prepare >&2 || hrc=$?
		timed reliability-selftest make -s -C "$ROOT/guest/reliability" OUT="$BUILD/reliability" \
			KSFT_DIR="$KSRC/tools/testing/selftests" selftest \
			> "$LOGS/reliability-selftest.tap" 2>&1 || hrc=$?
		tap_count reliability-selftest "$LOGS/reliability-selftest.tap"
		[ $hrc = 0 ] || record fail "reliability-selftest: make selftest" "exited $hrc (see $LOGS/reliability-selftest.tap)"
	fi
	if wants series; then
		timed series "$ROOT/scripts/check/series.sh" > "$LOGS/checkpatch.tap" 2>&1
		tap_count series "$LOGS/checkpatch.tap"
	fi
	# The harness's own counting, on made-up tables and TAP.
	if wants harness-selftest; then
		timed harness-selftest "$ROOT/scripts/test/selftest/counting.sh" > "$LOGS/harness-selftest.tap" 2>&1
		tap_count harness-selftest "$LOGS/harness-selftest.tap"
	fi
	# scripts/witness/crash-flat.py (make kdump-witness's reason for crash
	# refusing a flattened -F -E dump) on made-up flattened dumps.
	if wants harness-crash-flat; then
		timed harness-crash-flat "$ROOT/scripts/test/selftest/crash-flat.sh" > "$LOGS/harness-crash-flat.tap" 2>&1
		tap_count harness-crash-flat "$LOGS/harness-crash-flat.tap"
	fi
}

"$ROOT/scripts/build/deps.sh" all || exit 1
# The host tests do not depend on the kernel (scripts/test/suites: run "host").
runs host && host_tests

BUILD_FAILED=
if runs kunit || runs test || runs scenario || runs reliability; then
	say "== kernel and initramfs ($variant)"
	if [ -n "${UT_KERNEL:-}" ]; then
		[ -f "$UT_KERNEL" ] || die "UT_KERNEL=$UT_KERNEL: no such file"
		KERNEL=$UT_KERNEL
		say "kernel: $KERNEL (UT_KERNEL, not built)"
	else
		KERNEL=$("$ROOT/scripts/build/kernel.sh" "$variant") ||
			{ record fail "kernel build ($variant)"; KERNEL=; BUILD_FAILED="kernel build"; }
	fi
	if [ -n "${UT_INITRD:-}" ]; then
		[ -f "$UT_INITRD" ] || die "UT_INITRD=$UT_INITRD: no such file"
		INITRD=$UT_INITRD
		say "initramfs: $INITRD (UT_INITRD, not built)"
	else
		# stdout (the path) to a file, stderr shown and kept for the summary
		"$ROOT/scripts/build/initramfs.sh" "$variant" 2>&1 > "$LOGS/initramfs.path" |
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
		# Its results are the suite kunit, or kunit-module when the
		# KUnit test is a module (/lib/modules/VARIANT/kunit in the
		# initramfs), which guest/init loads on this boot.
		ks=kunit
		wants kunit-module && ks=kunit-module
		if boot kunit kunit 180 "kunit.enable=1"; then
			log=$LOGS/kunit.console
			plain "$log" > "$LOGS/$ks.ktap"
			[ $ks = kunit ] || SUITE='' check "$ks: the guest loaded the KUnit test module" \
				"$(plain "$log" | grep -E '^usertaint: (loading|insmod) ' || echo 'no module loaded')" \
				module_loaded "$log"
			INDENT=4 tap_count $ks "$LOGS/$ks.ktap"
			# The warnings taint_bounds_test asks for: scripts/test/suites.
			expect_reports kunit "$log" "${REPORTS[$ks]}"
		fi
	fi

	if runs test; then
		say "== kselftest boot"
		if boot test test 300; then
			guest_suites "$LOGS/test.results"
			specs=()
			for s in "${SUITE_ORDER[@]}"; do
				[ "${RUN[$s]}" = test ] && specs+=("${REPORTS[$s]}")
			done
			expect_reports test "$LOGS/test.console" "${specs[@]}"
		fi
	fi

	if runs scenario; then
		say "== scenario boots"
		# What the checks share; each scenario's own file then defines
		# scenario_check (and scenario_guest, the guest's part).
		# shellcheck source=SCRIPTDIR/scenarios.sh
		. "$ROOT/scripts/test/scenarios.sh"
		for s in "${SUITE_ORDER[@]}"; do
			[ "${RUN[$s]}" = scenario ] || continue
			f=${WHERE[$s]%:*}	# its row's file (from the root, or absolute)
			[[ $f == /* ]] || f=$ROOT/$f
			unset -f scenario_check
			# sources: guest/scenarios/*.sh
			# shellcheck disable=SC1090	# one file per scenario
			. "$f"
			if declare -F scenario_check > /dev/null; then
				rm -f "$LOGS/$s.booted"
				SUITE=$s scenario_tap 4> "$LOGS/$s.tap"
				tap_count "$s" "$LOGS/$s.tap"
				[ -e "$LOGS/$s.booted" ] &&
					expect_reports "scenario ${s#scenario-}" "$LOGS/$s.console" "${REPORTS[$s]}"
			else
				record fail "$s" "no function scenario_check in ${f#"$ROOT"/}"
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
				expect_reports "reliability ${s#reliability-}" "$LOGS/$s.console" "${REPORTS[$s]}"
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
[ ${#HOST_TIMES[@]} -eq 0 ] || say "host suites' times: $(printf '%s, ' "${HOST_TIMES[@]}" | sed 's/, $//')"
say "logs in $LOGS; $((T1 - T0)) s in all"
count_summary
