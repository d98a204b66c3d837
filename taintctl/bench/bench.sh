#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench.sh - speed figures for taintctl (a benchmark, not a test).
#
#   1. `taintctl scan` on a generated 512 MiB log vs `grep -c 'Tainted:'`
#      on the same file (warm page cache, best of $RUNS, ratio printed).
#      The log is the oops corpus repeated (dense in hits: a worst case for
#      the scanner's output path), or synthetic dmesg lines if the corpus is
#      absent.  grep's output goes through a pipe: with stdout on /dev/null
#      GNU grep stops at its first match.
#   2. `taintctl status` wall time per run (mean of $STATUS_RUNS runs
#      against the real /proc: status only reads).
#
# Environment: TAINTCTL (default build/taintctl), SIZE_MIB (512), RUNS (3),
# STATUS_RUNS (500), TAINT_CORPUS_DIR, BENCH_DIR (/tmp).

set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
TAINTCTL=${TAINTCTL:-$HERE/build/taintctl}
SIZE_MIB=${SIZE_MIB:-512}
RUNS=${RUNS:-3}
STATUS_RUNS=${STATUS_RUNS:-500}
CORPUS=${TAINT_CORPUS_DIR:-$HERE/../../shared/corpus/oops}
LOG=$(mktemp "${BENCH_DIR:-/tmp}/taintctl-bench.XXXXXX")
trap 'rm -f "$LOG" "$LOG.seed"' EXIT INT TERM

[ -x "$TAINTCTL" ] || { echo "bench.sh: build taintctl first (make)" >&2; exit 2; }

now_ns() { date +%s%N; }

# best wall time in ms of running "$@" $RUNS times
best_ms() {
	best=
	i=0
	while [ $i -lt "$RUNS" ]; do
		t0=$(now_ns)
		"$@"
		t1=$(now_ns)
		ms=$(( (t1 - t0) / 1000000 ))
		if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
		i=$((i + 1))
	done
	echo "$best"
}

# --- generate the log ---------------------------------------------------------
if [ -d "$CORPUS" ]; then
	ls "$CORPUS" | grep -v -e '^SOURCES.md$' -e '^expected.tsv$' |
		(cd "$CORPUS" && xargs cat) >"$LOG.seed"
	kind="oops corpus repeated"
else
	awk 'BEGIN { for (i = 0; i < 20000; i++) {
		printf "[%5d.%06d] usb 1-1: new high-speed USB device number %d using xhci_hcd\n", i, i, i
		if (i % 1000 == 0)
			printf "[%5d.%06d] CPU: 0 PID: %d Comm: kworker Tainted: G        W  O      6.12.0 #1\n", i, i, i } }' >"$LOG.seed"
	kind="synthetic dmesg"
fi
seed_size=$(wc -c <"$LOG.seed")
target=$((SIZE_MIB * 1024 * 1024))
# double the seed until big enough, then cut to size
cp "$LOG.seed" "$LOG"
while [ "$(wc -c <"$LOG")" -lt "$target" ]; do
	cat "$LOG" "$LOG" >"$LOG.seed" && mv "$LOG.seed" "$LOG"
done
truncate -s "$target" "$LOG"
cat "$LOG" >/dev/null	# warm the page cache

hits=$("$TAINTCTL" scan "$LOG" | wc -l)
lines=$(grep -c 'Tainted:' "$LOG" || true)
echo "log: $SIZE_MIB MiB ($kind, $hits taint fields, $lines lines with 'Tainted:')"

g=$(best_ms sh -c "grep -c 'Tainted:' '$LOG' | cat >/dev/null")
s=$(best_ms sh -c "'$TAINTCTL' scan '$LOG' >/dev/null")
j=$(best_ms sh -c "'$TAINTCTL' --json scan '$LOG' >/dev/null")
echo "grep -c 'Tainted:'      : $g ms"
echo "taintctl scan           : $s ms"
echo "taintctl --json scan    : $j ms"
awk -v g="$g" -v s="$s" -v j="$j" 'BEGIN {
	printf "ratio grep/scan        : %.2f (>= 1.00 means scan is at least as fast as grep)\n", g / (s ? s : 1)
	printf "ratio grep/scan --json : %.2f\n", g / (j ? j : 1)
	printf "scan throughput        : %.0f MiB/s\n", '"$SIZE_MIB"' * 1000 / (s ? s : 1) }'

# --- status latency -------------------------------------------------------------
t0=$(now_ns)
i=0
while [ $i -lt "$STATUS_RUNS" ]; do
	"$TAINTCTL" status >/dev/null
	i=$((i + 1))
done
t1=$(now_ns)
awk -v ns=$((t1 - t0)) -v n="$STATUS_RUNS" 'BEGIN {
	printf "taintctl status        : %.3f ms per run (mean of %d, incl. fork+exec)\n", ns / n / 1e6, n }'
t0=$(now_ns)
i=0
while [ $i -lt "$STATUS_RUNS" ]; do
	/bin/true
	i=$((i + 1))
done
t1=$(now_ns)
awk -v ns=$((t1 - t0)) -v n="$STATUS_RUNS" 'BEGIN {
	printf "/bin/true (reference)  : %.3f ms per run\n", ns / n / 1e6 }'
