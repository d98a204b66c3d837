#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# metrics_test.sh - `taintctl metrics` checked by Prometheus' own tools,
# TAP on stdout.
#
# 1. `promtool check metrics` (Debian package prometheus) on the output of
#    fake --root trees: patched log, stock kernel, unknown bits up to 63,
#    clean, every flag, undated events.
# 2. Debian's prometheus-node-exporter, run here on 127.0.0.1 only, on a
#    free port, with only the textfile collector, reading the file that
#    `taintctl metrics --output` wrote; scraped with curl: every series
#    must arrive with the labels and values taintctl wrote.
# Never touches /proc or /sys.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TAINTCTL=${TAINTCTL:-$HERE/../build/taintctl}
NODE_EXPORTER=${NODE_EXPORTER:-prometheus-node-exporter}
. "$HERE/tap.sh"
tap_need promtool:prometheus "$NODE_EXPORTER":prometheus-node-exporter curl:curl
tap_init metrics
ne_pid=
cleanup() {
	[ -n "$ne_pid" ] && kill "$ne_pid" 2>/dev/null && wait "$ne_pid" 2>/dev/null
	tap_cleanup
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# mkroot NAME MASK [LOG]: a fake tree; LOG (printf format) as taint_log
mkroot() {
	mkdir -p "$T/$1/proc/sys/kernel"
	echo "$2" >"$T/$1/proc/sys/kernel/tainted"
	[ $# -gt 2 ] && printf "$3" >"$T/$1/proc/sys/kernel/taint_log"
	echo "$T/$1"
}
LOG='ts=0.912000 utc=- origin=kernel flags=O new=O pid=88 uid=0 auid=- comm="insmod" module=my\\x20mod
ts=1.000100 utc=- origin=kernel flags=W new=W pid=312 uid=0 auid=1000 comm="cat" module=lkdtm caller=lkdtm_WARNING+0x1d/0x30
ts=3.123456 utc=2026-12-03T08:00:00Z origin=user flags=U new=U pid=77 uid=0 auid=1000 comm="sudo" reason="a \\"quoted\\" reason"
ts=4.000000 utc=2026-12-03T08:00:01Z origin=user flags=PU new=P pid=78 uid=0 auid=- comm="sh"
ts=9.500000 utc=2026-12-03T08:05:00Z origin=kernel flags=D new=D pid=5 uid=0 auid=- comm="kworker/0:1" caller=do_oops+0x1/0x2
dropped=2
'
PATCHED=$(mkroot patched $((4673 | 128 | (1 << 40))) "$LOG")
STOCK=$(mkroot stock 4609)
UNK=$(mkroot unknown 18446744073709551615)
CLEAN=$(mkroot clean 0 '')
ALL=$(mkroot all 1048575 'ts=1.000000 utc=- origin=user flags=PFSRMBUDAWCIOELKXTNJ new=PFSRMBUDAWCIOELKXTNJ pid=1 uid=0 comm="x"\n')

# --- promtool ------------------------------------------------------------
for root in "$PATCHED" "$STOCK" "$UNK" "$CLEAN" "$ALL"; do
	name=${root##*/}
	"$TAINTCTL" --root "$root" metrics >"$T/$name.prom" 2>"$T/$name.err"
	rc=$?
	promtool check metrics <"$T/$name.prom" >"$T/$name.lint" 2>&1
	prc=$?
	t "promtool check metrics: $name tree (taintctl exit $rc, promtool exit $prc)" \
		sh -c "[ $rc -eq 0 ] && [ $prc -eq 0 ] && [ ! -s '$T/$name.lint' ] && [ -s '$T/$name.prom' ]"
	sed 's/^/# promtool: /' "$T/$name.lint" | head -5
done
t "every unknown bit of 2^64-1 is a series (20 + 44)" sh -c "[ \$(grep -c '^kernel_taint_flag{' '$T/unknown.prom') -eq 64 ] && grep -qx 'kernel_taint_flag{flag=\"bit63\",name=\"\"} 1' '$T/unknown.prom'"

# --- node_exporter's textfile collector -----------------------------------
DIR=$T/textfile
mkdir "$DIR"
"$TAINTCTL" --root "$PATCHED" metrics --output "$DIR/taint.prom"
t "metrics --output for the collector: exit 0" test -s "$DIR/taint.prom"

# a free port: node_exporter refuses one in use, then another is tried
port=
for try in 1 2 3 4 5 6 7 8; do
	p=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 40000))
	"$NODE_EXPORTER" --web.listen-address="127.0.0.1:$p" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$DIR" >"$T/ne.log" 2>&1 &
	ne_pid=$!
	i=0
	while [ $i -lt 50 ] && kill -0 "$ne_pid" 2>/dev/null &&
	      ! curl -sf -o /dev/null "http://127.0.0.1:$p/metrics"; do
		sleep 0.1; i=$((i + 1))
	done
	if curl -sf -o /dev/null "http://127.0.0.1:$p/metrics"; then
		port=$p
		break
	fi
	kill "$ne_pid" 2>/dev/null; wait "$ne_pid" 2>/dev/null; ne_pid=
done
if [ -z "$port" ]; then
	not_ok "node_exporter did not start"
	sed 's/^/# node_exporter: /' "$T/ne.log" | tail -5
	tap_done
fi
echo "# node_exporter $("$NODE_EXPORTER" --version 2>&1 | head -1 | cut -d' ' -f3) on 127.0.0.1:$port"
curl -sf "http://127.0.0.1:$port/metrics" >"$T/scrape"
t "node_exporter serves a scrape (curl, 127.0.0.1)" test -s "$T/scrape"
t "node_exporter read the file without error" grep -qx 'node_textfile_scrape_error 0' "$T/scrape"
t "node_exporter listens on 127.0.0.1 only" sh -c "! curl -sf -o /dev/null --max-time 2 'http://[::1]:$port/metrics'"

# name{labels} value, the value as a number, sorted: what taintctl wrote
# and what came out of the scrape must be the same series
norm() {
	grep '^kernel_' "$1" |
		awk '{ v = $NF; $NF = ""; sub(/ $/, ""); printf "%s %.17g\n", $0, v }' |
		sort
}
norm "$DIR/taint.prom" >"$T/want"
norm "$T/scrape" >"$T/got"
t "every series arrives intact (labels and values)" cmp -s "$T/want" "$T/got"
if ! cmp -s "$T/want" "$T/got"; then
	diff "$T/want" "$T/got" | head -10 | sed 's/^/# /'
fi
t "the series are all there (1 + 20 + 1 unknown bit + 3 first-set: U P D, not the undated O W + 1)" sh -c "[ \$(wc -l <'$T/got') -eq 26 ]"
t "first-set timestamps and origins as written" sh -c "grep -qx 'kernel_taint_flag_first_set_timestamp_seconds{flag=\"U\",origin=\"user\"} 1796284800' '$T/got' && grep -qx 'kernel_taint_flag_first_set_timestamp_seconds{flag=\"D\",origin=\"kernel\"} 1796285100' '$T/got' && ! grep -q 'flag=\"W\",origin' '$T/got'"
t "an unknown bit arrives as flag=\"bit40\", name=\"\"" grep -qx 'kernel_taint_flag{flag="bit40",name=""} 1' "$T/got"
t "the counter keeps its type and help" sh -c "grep -qx '# TYPE kernel_taint_log_dropped_total counter' '$T/scrape' && grep -q '^# HELP kernel_taint_log_dropped_total User taint requests' '$T/scrape'"
# a new state, written atomically while the collector runs: the next
# scrape has it
"$TAINTCTL" --root "$STOCK" metrics --output "$DIR/taint.prom"
curl -sf "http://127.0.0.1:$port/metrics" >"$T/scrape2"
norm "$DIR/taint.prom" >"$T/want2"
norm "$T/scrape2" >"$T/got2"
t "after a rewrite the next scrape has the new state (stock: no first-set, no dropped)" sh -c "cmp -s '$T/want2' '$T/got2' && grep -qx 'kernel_tainted 4609' '$T/got2' && ! grep -q 'first_set\|dropped' '$T/got2' && grep -qx 'node_textfile_scrape_error 0' '$T/scrape2'"

tap_done
