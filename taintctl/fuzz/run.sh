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
#   run.sh corpus BIN TARGET         the directory of TARGET's corpus
#
# BIN holds fuzz_<target>; crashes are written to BIN/crash/<target>/.
# A run of one input longer than 5 s is a crash (-timeout=5): a dump
# that makes the reader loop long is a bug.
# The vmcore corpus (dumps of 38 to 105 KiB, several MiB in all, 1/30 of that
# compressed) is kept as fuzz/corpus/vmcore.tar.xz, unpacked under BIN; so
# are status's (stock-kernel dumps) and kallsyms's (tables of 8 KiB, most
# bytes the same), status.tar.xz and kallsyms.tar.xz.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# FUZZ_ONLY="scanner log": only those (make fuzz FUZZ_ONLY=...)
TARGETS=${FUZZ_ONLY:-scanner decode log vmcore status kallsyms}
mode=$1 bin=$2
# the biggest input: ELF dumps are 38 KiB, kdump-compressed and flattened
# ones up to 105 KiB (fuzz/seed.sh); logs are fed in pieces of 8 KiB
max_len() { case $1 in vmcore|status) echo 131072 ;; *) echo 16384 ;; esac; }
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS UBSAN_OPTIONS

# fuzz-check's runs: a dump is read 100 times slower than a line parsed
runs_for() { case $1 in vmcore|status|kallsyms) echo $((runs / 8)) ;; *) echo "$runs" ;; esac; }

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

PACKED="vmcore status kallsyms"
is_packed() { case " $PACKED " in *" $1 "*) return 0 ;; esac; return 1; }

# the corpus of target $1 as a directory (unpacked under $bin)
corpus_dir() {
	if is_packed "$1"; then
		rm -rf "$bin/corpus/$1" && mkdir -p "$bin/corpus/$1" &&
		{ [ ! -f "$HERE/corpus/$1.tar.xz" ] ||
		  tar -xJf "$HERE/corpus/$1.tar.xz" -C "$bin/corpus/$1"; } &&
		echo "$bin/corpus/$1"
	else
		mkdir -p "$HERE/corpus/$1" && echo "$HERE/corpus/$1"
	fi
}

case $mode in
corpus)
	corpus_dir "$3"
	;;
fuzz)
	seeds=$3 secs=$4
	for t in $TARGETS; do
		work=$bin/work/$t new=$bin/merged/$t crash=$bin/crash/$t
		rm -rf "$work" "$new"
		mkdir -p "$work" "$new" "$crash"
		corpus=$(corpus_dir $t) || exit 1
		"$bin/fuzz_$t" -max_total_time="$secs" -max_len="$(max_len $t)" \
			-timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix="$crash/" "$work" "$corpus" \
			"$seeds/$t" >"$bin/$t.log" 2>&1
		rc=$?
		echo "fuzz_$t: $secs s: $(stats "$bin/$t.log")$( [ $rc = 0 ] ||
			echo ", CRASH (exit $rc): $(reproducer "$bin/$t.log")")"
		# the smallest set of inputs that keeps the coverage
		"$bin/fuzz_$t" -merge=1 -max_len="$(max_len $t)" "$new" \
			"$corpus" "$work" "$seeds/$t" >"$bin/$t.merge.log" 2>&1 ||
			{ echo "fuzz_$t: merge failed (see $bin/$t.merge.log)"; continue; }
		files=$(ls "$new" | wc -l) bytes=$(cat "$new"/* | wc -c)
		if is_packed $t; then
			(cd "$new" && ls | LC_ALL=C sort | tar --owner=0 --group=0 \
				--mtime=@0 -cf - -T - | xz -9 >"$HERE/corpus/$t.tar.xz")
			rm -rf "$HERE/corpus/$t"
		else
			rm -rf "$HERE/corpus/$t"
			mv "$new" "$HERE/corpus/$t"
		fi
		echo "fuzz_$t: corpus $files files, $bytes bytes"
	done
	;;
check)
	runs=$3
	n=0
	# a result for each target's run, one for each regressions directory
	echo "1..$(( $(echo $TARGETS | wc -w) + $(ls -d "$HERE"/regressions/*/ 2>/dev/null | wc -l) ))"
	for t in $TARGETS; do
		crash=$bin/crash/$t
		mkdir -p "$crash"
		n=$((n + 1))
		corpus=$(corpus_dir $t) || exit 1
		# new inputs go to the first directory: not the repository's
		rm -rf "$bin/check/$t" && mkdir -p "$bin/check/$t"
		if [ ! -x "$bin/fuzz_$t" ]; then
			echo "not ok $n - fuzz_$t: not built"
		elif "$bin/fuzz_$t" -runs="$(runs_for $t)" -seed=1 -max_len="$(max_len $t)" \
			-timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix="$crash/" "$bin/check/$t" "$corpus" \
			>"$bin/$t.check.log" 2>&1; then
			echo "ok $n - fuzz_$t: $(runs_for $t) runs from fuzz/corpus/$t, no crash ($(stats "$bin/$t.check.log"))"
		else
			echo "not ok $n - fuzz_$t: crash, reproducer $(reproducer "$bin/$t.check.log") (log $bin/$t.check.log)"
			grep -E 'ERROR|SUMMARY|check failed' "$bin/$t.check.log" | head -5 | sed 's/^/# /'
		fi
		reg=$HERE/regressions/$t
		[ -d "$reg" ] || continue
		n=$((n + 1))
		if "$bin/fuzz_$t" -runs=0 -timeout=5 "$reg" >"$bin/$t.reg.log" 2>&1; then
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
