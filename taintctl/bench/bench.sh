#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# bench.sh - speed figures for taintctl (a benchmark, not a test).
#
#   1. `taintctl scan` (text and --json) against `grep -c ainted`,
#      `rg -c ainted` (Debian's ripgrep) and a plain memchr() count of every
#      newline over a mapped file (build/memchr-pass, the memory-speed
#      reference) on two generated $SIZE_MIB MiB logs:
#        sparse  dmesg-style lines, one in 1,000 carries a Tainted: field
#        dense   the oops corpus repeated (a field every ~60 lines; synthetic
#                lines with a field every 10 if the corpus is absent)
#      Warm page cache, best of $RUNS.  Every command's output goes through
#      a pipe (with stdout on /dev/null GNU grep stops at its first match).
#      "ainted" is the string both markers share.
#   2. The sparse log compressed (gzip, zstd): `taintctl scan LOG.gz`
#      against `zcat LOG.gz | grep -c ainted` (and zstdcat).
#   3. `taintctl status` wall time per run (mean of $STATUS_RUNS runs
#      against the real /proc: status only reads).
#
# Each time is wall clock (best of $RUNS) and, in brackets, CPU time
# (user + system of every process of the command, best of $RUNS): on a
# busy machine the CPU figure is the steadier one.  Ratios are
# other/taintctl (2.00 = taintctl takes half the time).  Targets, each
# PASS or FAIL, on plain logs, text and --json: at least as fast as rg
# (>= 1x), at least 2.5x grep, and within 1.25x of the memchr pass
# (memchr/taintctl >= 0.8).  PASS (cpu only) means the wall ratio
# missed and the CPU ratio met it (a busy machine).  The load average is
# printed before and after.
#
# Environment: TAINTCTL (default build/taintctl), MEMCHR_PASS (default
# build/memchr-pass), SIZE_MIB (256), RUNS (5), STATUS_RUNS (500),
# TAINT_CORPUS_DIR, BENCH_DIR (/tmp).

set -eu
HERE=$(cd "$(dirname "$0")/.." && pwd)
TAINTCTL=${TAINTCTL:-$HERE/build/taintctl}
MEMCHR_PASS=${MEMCHR_PASS:-$HERE/build/memchr-pass}
SIZE_MIB=${SIZE_MIB:-256}
RUNS=${RUNS:-5}
STATUS_RUNS=${STATUS_RUNS:-500}
CORPUS=${TAINT_CORPUS_DIR:-$HERE/tests/corpus/oops}
D=$(mktemp -d "${BENCH_DIR:-/tmp}/taintctl-bench.XXXXXX")
trap 'rm -rf "$D"' EXIT INT TERM

[ -x "$TAINTCTL" ] || { echo "bench.sh: build taintctl first (make)" >&2; exit 2; }
[ -x "$MEMCHR_PASS" ] || { echo "bench.sh: build $MEMCHR_PASS first (make bench)" >&2; exit 2; }
for tool in grep rg gzip zcat zstd zstdcat /usr/bin/time; do
	command -v "$tool" >/dev/null ||
		{ echo "bench.sh: $tool missing (scripts/build/deps.sh host)" >&2; exit 2; }
done

now_ns() { date +%s%N; }

# measure CMD...: sets W (best wall ms) and C (best CPU ms) over $RUNS runs
measure() {
	W=
	C=
	i=0
	while [ $i -lt "$RUNS" ]; do
		t0=$(now_ns)
		/usr/bin/time -f '%U %S' -o "$D/time" "$@"
		t1=$(now_ns)
		w=$(( (t1 - t0) / 1000000 ))
		c=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$D/time")
		if [ -z "$W" ] || [ "$w" -lt "$W" ]; then W=$w; fi
		if [ -z "$C" ] || [ "$c" -lt "$C" ]; then C=$c; fi
		i=$((i + 1))
	done
}

# grow FILE (from its seed content) to exactly $SIZE_MIB MiB
grow() {
	target=$((SIZE_MIB * 1024 * 1024))
	while [ "$(wc -c <"$1")" -lt "$target" ]; do
		cat "$1" "$1" >"$1.tmp" && mv "$1.tmp" "$1"
	done
	truncate -s "$target" "$1"
}

# --- generate the logs ----------------------------------------------------------
awk 'BEGIN { srand(1); for (i = 0; i < 200000; i++) {
	printf "[%5d.%06d] usb %d-%d: new high-speed USB device number %d using xhci_hcd\n", i / 10, int(rand() * 1e6), i % 4, i % 7, int(rand() * 128)
	if (i % 1000 == 999)
		printf "[%5d.%06d] CPU: %d PID: %d Comm: kworker/%d Tainted: G        W  O      6.12.0 #1\n", i / 10, int(rand() * 1e6), i % 8, int(rand() * 1e5), i % 8 } }' >"$D/sparse.log"
grow "$D/sparse.log"
if [ -d "$CORPUS" ]; then
	ls "$CORPUS" | grep -v -e '^SOURCES.md$' -e '^expected.tsv$' |
		(cd "$CORPUS" && xargs cat) >"$D/dense.log"
	dense_kind="oops corpus repeated"
else
	awk 'BEGIN { for (i = 0; i < 20000; i++) {
		printf "[%5d.%06d] usb 1-1: new high-speed USB device number %d using xhci_hcd\n", i, i, i
		if (i % 10 == 0)
			printf "[%5d.%06d] CPU: 0 PID: %d Comm: kworker Tainted: G        W  O      6.12.0 #1\n", i, i, i } }' >"$D/dense.log"
	dense_kind="synthetic, a field every 10 lines"
fi
grow "$D/dense.log"
gzip -6 -c "$D/sparse.log" >"$D/sparse.log.gz"
zstd -q -3 -c "$D/sparse.log" >"$D/sparse.log.zst"

# "NAME: W ms [C ms]" with the ratio of OTHER's W and C to these, if given
row() {
	printf '  %-34s %6d ms  [cpu %5d ms]' "$1" "$W" "$C"
	if [ $# -ge 3 ]; then
		awk -v ow="$2" -v oc="$3" -v w="$W" -v c="$C" 'BEGIN {
			printf "   %5.2fx  [cpu %5.2fx]", ow / (w ? w : 1), oc / (c ? c : 1) }'
	fi
	echo
}

fails=0
targets=0
# target NAME OTHER_W OTHER_C MIN: is the wall or the CPU ratio at least MIN?
target() {
	verdict=$(awk -v ow="$2" -v oc="$3" -v w="$W" -v c="$C" -v min="$4" 'BEGIN {
		rw = ow / (w ? w : 1); rc = oc / (c ? c : 1)
		if (rw >= min) printf "PASS (wall %.2fx)", rw
		else if (rc >= min) printf "PASS (cpu only: wall %.2fx, cpu %.2fx)", rw, rc
		else printf "FAIL (wall %.2fx, cpu %.2fx)", rw, rc }')
	printf '  target %-38s >= %-4s: %s\n' "$1" "$4" "$verdict"
	targets=$((targets + 1))
	case $verdict in FAIL*) fails=$((fails + 1)) ;; esac
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in sparse dense; do
	LOG=$D/$kind.log
	cat "$LOG" >/dev/null	# warm the page cache
	hits=$("$TAINTCTL" scan "$LOG" | wc -l)
	lines=$(grep -c ainted "$LOG" || true)
	if [ $kind = sparse ]; then desc="one line in 1,000 has a field"; else desc=$dense_kind; fi
	echo "$kind log: $SIZE_MIB MiB ($desc; $hits hits, $lines lines with 'ainted')"
	measure sh -c "grep -c ainted '$LOG' | cat >/dev/null"
	gw=$W gc=$C
	row "grep -c ainted | cat"
	measure sh -c "rg -c ainted '$LOG' | cat >/dev/null"
	rw=$W rc=$C
	row "rg -c ainted | cat"
	measure sh -c "'$MEMCHR_PASS' '$LOG' | cat >/dev/null"
	mw=$W mc=$C
	row "memchr pass (mmap) | cat"
	for mode in text json; do
		if [ $mode = json ]; then opt=--json; else opt=; fi
		measure sh -c "'$TAINTCTL' $opt scan '$LOG' | cat >/dev/null"
		row "taintctl $opt scan (vs grep)" "$gw" "$gc"
		row "taintctl $opt scan (vs rg)" "$rw" "$rc"
		row "taintctl $opt scan (vs memchr)" "$mw" "$mc"
		target "$kind $mode scan vs grep" "$gw" "$gc" 2.5
		target "$kind $mode scan vs rg" "$rw" "$rc" 1
		target "$kind $mode scan vs memchr pass" "$mw" "$mc" 0.8
		awk -v s="$SIZE_MIB" -v w="$W" -v m="$mode" 'BEGIN { printf "  (%s scan throughput %.0f MiB/s)\n", m, s * 1000 / (w ? w : 1) }'
	done
done

echo "compressed: the sparse log, gzip -6 ($(wc -c <"$D/sparse.log.gz") bytes), zstd -3 ($(wc -c <"$D/sparse.log.zst") bytes)"
measure sh -c "zcat '$D/sparse.log.gz' | grep -c ainted | cat >/dev/null"
zw=$W zc=$C
row "zcat | grep -c ainted | cat"
measure sh -c "'$TAINTCTL' scan '$D/sparse.log.gz' >/dev/null"
row "taintctl scan LOG.gz (vs zcat|grep)" "$zw" "$zc"
measure sh -c "zstdcat '$D/sparse.log.zst' | grep -c ainted | cat >/dev/null"
zw=$W zc=$C
row "zstdcat | grep -c ainted | cat"
measure sh -c "'$TAINTCTL' scan '$D/sparse.log.zst' >/dev/null"
row "taintctl scan LOG.zst (vs zstdcat|grep)" "$zw" "$zc"

# --- status latency -------------------------------------------------------------
t0=$(now_ns)
i=0
while [ $i -lt "$STATUS_RUNS" ]; do
	"$TAINTCTL" status >/dev/null
	i=$((i + 1))
done
t1=$(now_ns)
awk -v ns=$((t1 - t0)) -v n="$STATUS_RUNS" 'BEGIN {
	printf "taintctl status: %.3f ms per run (mean of %d, incl. fork+exec)\n", ns / n / 1e6, n }'
t0=$(now_ns)
i=0
while [ $i -lt "$STATUS_RUNS" ]; do
	/bin/true
	i=$((i + 1))
done
t1=$(now_ns)
awk -v ns=$((t1 - t0)) -v n="$STATUS_RUNS" 'BEGIN {
	printf "/bin/true (reference): %.3f ms per run\n", ns / n / 1e6 }'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "targets not met: $fails (of $targets)"
