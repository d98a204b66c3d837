#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Speed figures for docs/hacking.md, "Figures to watch" (a benchmark, not a test).
#   bench.sh boot         one test boot: QEMU start to parsed results
#   bench.sh incremental  make test after touching one kernel .c file
#   bench.sh clean        make test in a fresh clone with an empty ccache
#   bench.sh taintctl     taintctl's own benchmark (scan vs grep, status)
#   bench.sh              boot, incremental and taintctl
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

now() { date +%s.%N; }
secs() { echo "$(now) - $1" | bc; }

bench_boot() {
	local k i t0 log=$BUILD/bench
	mkdir -p "$log"
	k=$("$ROOT/scripts/build/kernel.sh")
	i=$("$ROOT/scripts/build/initramfs.sh")
	t0=$(now)
	"$ROOT/scripts/boot/boot.sh" -m test -t 300 -c "$log/console" -r "$log/results" "$k" "$i" 2>/dev/null
	grep -c '^ok ' "$log/results" > "$log/count"
	printf 'boot: one test boot, QEMU start to parsed results: %.1f s (%s TAP results)\n' \
		"$(secs "$t0")" "$(cat "$log/count")"
}

bench_incremental() {
	local t0
	touch "$KSRC/kernel/taint_log.c"
	t0=$(now)
	make -s -C "$ROOT" test > "$BUILD/bench/incremental.log" 2>&1
	printf 'incremental: make test after touching kernel/taint_log.c: %.0f s (%s)\n' \
		"$(secs "$t0")" "$(tail -n 1 "$BUILD/bench/incremental.log")"
}

bench_clean() {
	local dir t0
	dir=$(mktemp -d /tmp/usertaint-clean.XXXXXX)
	git clone -q "$ROOT" "$dir/usertaint"
	t0=$(now)
	CCACHE_DIR=$dir/ccache make -s -C "$dir/usertaint" test > "$dir/test.log" 2>&1 || true
	printf 'clean: make test in a fresh clone, empty ccache: %.0f s (%s)\n' \
		"$(secs "$t0")" "$(tail -n 1 "$dir/test.log")"
	rm -rf "$dir"
}

mkdir -p "$BUILD/bench"
case "${1:-all}" in
boot) bench_boot ;;
incremental) bench_incremental ;;
clean) bench_clean ;;
taintctl) make -s -C "$ROOT/taintctl" >&2; "$ROOT/taintctl/bench/bench.sh" ;;
all) bench_boot; bench_incremental; make -s -C "$ROOT/taintctl" >&2; "$ROOT/taintctl/bench/bench.sh" ;;
*) die "bench.sh: unknown benchmark '$1'" ;;
esac
