#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# vmcore_bench.sh - how long `taintctl status --vmcore` takes (a benchmark,
# not a test) on the dumps build/vmcore-bench/vmcore_bench writes: a stock
# kernel of a real kernel's size (the running kernel's BTF, read from
# /sys/kernel/btf/vmlinux, 150,000 symbols) in a 1 GiB machine, as a 1 GiB
# ELF core and as makedumpfile -c -d 31's kdump-compressed format (zlib).
# For each: wall and CPU time of the whole command, best and median of
# $RUNS, with the file in the page cache (warm) and dropped from it before
# each run (cold: dd iflag=nocache on that file only), and the bytes the
# command read from the dump (pread64 through strace), against the file's
# size.  With $LIBKDUMPFILE (build/vmcore-bench/kdumpfile_read, Debian's
# libkdumpfile-dev): the same dumps' image and modules read through
# libkdumpfile, the same way timed.
set -eu
DIR=${1:?usage: vmcore_bench.sh DIR TAINTCTL}
TAINTCTL=${2:?usage: vmcore_bench.sh DIR TAINTCTL}
RUNS=${RUNS:-7}

# t CMD...: "wall cpu" of one run, seconds
t() {
	/usr/bin/time -f '%e %U %S' -o "$DIR/time" "$@" >/dev/null 2>"$DIR/err" ||
		{ echo "failed: $*" >&2; cat "$DIR/err" >&2; exit 1; }
	awk '{ printf "%.3f %.3f\n", $1, $2 + $3 }' "$DIR/time"
}
# stats FILE: best and median of each column
stats() {
	sort -n -k1,1 "$1" | awk '{ w[NR] = $1 } END { printf "wall best %.3f s, median %.3f s", w[1], w[int((NR + 1) / 2)] }'
	sort -n -k2,2 "$1" | awk '{ c[NR] = $2 } END { printf "; cpu best %.3f s, median %.3f s\n", c[1], c[int((NR + 1) / 2)] }'
}
drop() { dd if="$1" iflag=nocache count=0 status=none; }
bytes_read() {
	strace -f -qq -e trace=pread64 -o "$DIR/strace" "$@" >/dev/null 2>&1
	awk -F'= ' '/pread64/ { s += $NF; n++ } END { printf "%d preads, %.1f MiB", n, s / 1048576 }' "$DIR/strace"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for f in elf kdump; do
	dump=$DIR/$f
	size=$(stat -c %s "$dump")
	blocks=$(du -k "$dump" | cut -f1)
	"$TAINTCTL" status --vmcore "$dump" >"$DIR/$f.out"
	for mode in warm cold; do
		: >"$DIR/runs"
		for i in $(seq "$RUNS"); do
			[ $mode = cold ] && drop "$dump"
			t "$TAINTCTL" status --vmcore "$dump" >>"$DIR/runs"
		done
		echo "status --vmcore $f ($((size / 1048576)) MiB, $((blocks / 1024)) MiB on disk), $mode: $(stats "$DIR/runs")"
	done
	if command -v strace >/dev/null; then
		echo "  read: $(bytes_read "$TAINTCTL" status --vmcore "$dump") of $((size / 1048576)) MiB"
	fi
	if [ -n "${LIBKDUMPFILE:-}" ] &&
	   ! "$LIBKDUMPFILE" "$dump" $(cat "$DIR/args") >/dev/null 2>"$DIR/err"; then
		echo "libkdumpfile, the same pages, $f: cannot read them: $(head -1 "$DIR/err")"
	elif [ -n "${LIBKDUMPFILE:-}" ]; then
		for mode in warm cold; do
			: >"$DIR/runs"
			for i in $(seq "$RUNS"); do
				[ $mode = cold ] && drop "$dump"
				t "$LIBKDUMPFILE" "$dump" $(cat "$DIR/args") >>"$DIR/runs"
			done
			echo "libkdumpfile, the same pages, $f, $mode: $(stats "$DIR/runs")"
		done
		"$LIBKDUMPFILE" "$dump" $(cat "$DIR/args") | sed 's/^/  libkdumpfile: /'
	fi
done
sed 's/^/  /' "$DIR/elf.out"
cmp -s "$DIR/elf.out" "$DIR/kdump.out" && echo "  (the same from both dumps)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
