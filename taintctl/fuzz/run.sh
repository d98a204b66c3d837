#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# run.sh - run the libFuzzer targets (make fuzz, make fuzz-check).
#
#   run.sh fuzz  BIN SEEDS SECONDS   each target for SECONDS on a copy of
#                                    fuzz/corpus/<t> and SEEDS/<t>, then
#                                    -merge=1 of it all into fuzz/corpus/<t>;
#                                    prints each target's final stats
#   run.sh check BIN RUNS            TAP: each target -runs=RUNS (-seed=1,
#                                    deterministic) from fuzz/corpus/<t>,
#                                    and fuzz/regressions/<t> replayed; a
#                                    crash is "not ok" with its reproducer
#
# BIN holds fuzz_<target>; crashes are written to BIN/crash/<target>/.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TARGETS="scanner decode log vmcore"
mode=$1 bin=$2
# the biggest input: dumps are 38 KiB, logs are fed in pieces of 8 KiB
max_len() { [ "$1" = vmcore ] && echo 65536 || echo 16384; }
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

# the reproducer libFuzzer named, or the last input it was given
reproducer() {
	sed -n 's/^.*Test unit written to \(.*\)$/\1/p' "$1" | tail -1
}

# the final stats line's figures: cov, ft, corp, exec/s, runs
stats() {
	awk '/^#[0-9]+/ { last = $0 } /^Done [0-9]+ runs/ { done = $0 }
	     END { n = split(last, a, " "); s = "runs " substr(a[1], 2)
		   for (i = 2; i < n; i++) if (a[i] ~ /^(cov|ft|corp|exec\/s):$/) s = s " " a[i] " " a[i+1]
		   print s }' "$1"
}

case $mode in
fuzz)
	seeds=$3 secs=$4
	for t in $TARGETS; do
		work=$bin/work/$t new=$bin/merged/$t crash=$bin/crash/$t
		rm -rf "$work" "$new"
		mkdir -p "$work" "$new" "$crash" "$HERE/corpus/$t"
		"$bin/fuzz_$t" -max_total_time="$secs" -max_len="$(max_len $t)" \
			-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix="$crash/" "$work" "$HERE/corpus/$t" \
			"$seeds/$t" >"$bin/$t.log" 2>&1
		rc=$?
		echo "fuzz_$t: $secs s: $(stats "$bin/$t.log")$( [ $rc = 0 ] ||
			echo ", CRASH (exit $rc): $(reproducer "$bin/$t.log")")"
		# the smallest set of inputs that keeps the coverage
		"$bin/fuzz_$t" -merge=1 -max_len="$(max_len $t)" "$new" \
			"$HERE/corpus/$t" "$work" "$seeds/$t" >"$bin/$t.merge.log" 2>&1 ||
			{ echo "fuzz_$t: merge failed (see $bin/$t.merge.log)"; continue; }
		rm -rf "$HERE/corpus/$t"
		mv "$new" "$HERE/corpus/$t"
		echo "fuzz_$t: corpus $(ls "$HERE/corpus/$t" | wc -l) files, $(du -sk "$HERE/corpus/$t" | cut -f1) KiB"
	done
	;;
check)
	runs=$3
	n=0
	echo "1..$(( $(echo $TARGETS | wc -w) * 2 ))"
	for t in $TARGETS; do
		crash=$bin/crash/$t
		mkdir -p "$crash"
		n=$((n + 1))
		if [ ! -x "$bin/fuzz_$t" ]; then
			echo "not ok $n - fuzz_$t: not built"
		elif "$bin/fuzz_$t" -runs="$runs" -seed=1 -max_len="$(max_len $t)" \
			-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix="$crash/" "$HERE/corpus/$t" >"$bin/$t.check.log" 2>&1; then
			echo "ok $n - fuzz_$t: $runs runs from fuzz/corpus/$t, no crash ($(stats "$bin/$t.check.log"))"
		else
			echo "not ok $n - fuzz_$t: crash, reproducer $(reproducer "$bin/$t.check.log") (log $bin/$t.check.log)"
			grep -E 'ERROR|SUMMARY|check failed' "$bin/$t.check.log" | head -5 | sed 's/^/# /'
		fi
		n=$((n + 1))
		reg=$HERE/regressions/$t
		if [ ! -d "$reg" ] || [ -z "$(ls "$reg")" ]; then
			echo "ok $n - fuzz_$t: regressions replayed # SKIP none in fuzz/regressions/$t"
		elif "$bin/fuzz_$t" -runs=0 "$reg" >"$bin/$t.reg.log" 2>&1; then
			echo "ok $n - fuzz_$t: $(ls "$reg" | wc -l) regression inputs replayed (fuzz/regressions/$t)"
		else
			echo "not ok $n - fuzz_$t: a regression input fails again: $(sed -n 's/^Running: //p' "$bin/$t.reg.log" | tail -1)"
		fi
	done
	;;
*)
	echo "usage: run.sh fuzz BIN SEEDS SECONDS | run.sh check BIN RUNS" >&2
	exit 2
	;;
esac
