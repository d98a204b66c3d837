#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# corpus_cli_test.sh - taintctl scan on the oops corpus ($TAINT_CORPUS_DIR:
# real third-party logs and their expected.tsv), TAP on stdout: the hits
# against expected.tsv, and compressed copies of a corpus log.  Without
# the corpus it skips as a whole ("1..0 # SKIP"), as test_corpus does:
# scripts/test/test.sh counts both in the suite taintctl-corpus.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
TAINTCTL=${TAINTCTL:-$HERE/../build/taintctl}
CORPUS=${TAINT_CORPUS_DIR:-$HERE/corpus/oops}
if ! [ -d "$CORPUS" ] || ! [ -f "$CORPUS/expected.tsv" ]; then
	echo "1..0 # SKIP corpus directory not found: $CORPUS (set TAINT_CORPUS_DIR)"
	exit 0
fi
. "$HERE/tap.sh"
tap_need jq:jq
# jq -e of no value fails (tests/bin/jq: jq 1.6 passes an empty file)
PATH=$HERE/bin:$PATH; export PATH
tap_init corpus-cli
# after a not ok: the last run's stdout and stderr
tap_diag() {
	sed 's/^/# stdout: /' "$T/out" | head -5
	sed 's/^/# stderr: /' "$T/err" | head -5
}
# run ARGS...: taintctl with stdout/stderr/exit code captured, no stdin
run() { "$TAINTCTL" "$@" </dev/null >"$T/out" 2>"$T/err"; rc=$?; }
rc_is() { [ "$rc" -eq "$1" ]; }
jq_out() { [ -s "$T/out" ] && jq -e "$@" "$T/out"; }

files=$(ls "$CORPUS" | grep -v -e '^SOURCES.md$' -e '^expected.tsv$')
(cd "$CORPUS" && "$TAINTCTL" --json scan $files) >"$T/out" 2>"$T/err"; rc=$?
t "scan --json of the whole corpus: exit 0" rc_is 0
t "scan --json: every line is an object of the fixed shape (v1 keys kept, v2 keys and mask_hex added)" jq_out -s 'all(.[]; (keys == ["file","format","letters","line","mask","mask_hex","tainted","text","unknown_bits","unknown_letters"]) and (.line|type) == "number")'
jq -r '[.file, .line, .text, .letters, .tainted] | @tsv' "$T/out" | sort >"$T/got"
awk -F'\t' 'NR > 1 && $6 != "prose" { print $1 "\t" $2 "\t" $3 "\t" $4 "\t" ($6 != "not-tainted" ? "true" : "false") }' \
	"$CORPUS/expected.tsv" | sort >"$T/want"
t "scan --json hits == expected.tsv (file, line, text, letters, tainted)" cmp -s "$T/got" "$T/want"
# v2 fields against expected.tsv: format, and mask (null where '?')
jq -r '[.file, .line, .format, (.mask // "?")] | @tsv' "$T/out" | sort >"$T/got"
awk -F'\t' 'NR > 1 && $6 != "prose" { print $1 "\t" $2 "\t" $6 "\t" $5 }' \
	"$CORPUS/expected.tsv" | sort >"$T/want"
t "scan --json format and mask == expected.tsv (mask null where it says ?)" cmp -s "$T/got" "$T/want"
t "scan --json: unknown letters of the synthetic A..Z field" jq_out -s '[.[] | select(.file == "abrt-koops-tainted-insane.template") | .unknown_letters[].letter] == ["H","Q","V","Y","Z"]'
# compressed copies of a corpus file: same hits, from files and stdin
# (a 111 KB corpus log, then 1.4 MB of varied dmesg lines with a field
# every 1,000 lines: several zstd blocks and xz/gzip buffers)
{ cat "$CORPUS/squad-oops.log"; awk 'BEGIN { srand(7); for (i = 0; i < 20000; i++) {
	printf "[%5d.%06d] usb %d-%d: new device number %d using xhci_hcd\n", i, int(rand() * 1e6), i % 7, i % 5, int(rand() * 1e6)
	if (i % 1000 == 999) printf "[%5d.%06d] CPU: %d PID: %d Comm: kworker Tainted: G        W  O      6.12.0 #1\n", i, int(rand() * 1e6), i % 8, int(rand() * 1e5) } }'; } >"$T/big.log"
"$TAINTCTL" scan "$T/big.log" | sed "s|^$T/big.log:||" >"$T/plain.txt"
for z in "gzip -c" "xz -c" "zstd -q -c"; do
	ext=$(echo "$z" | cut -d' ' -f1)
	$z <"$T/big.log" >"$T/log.$ext"
	run scan "$T/log.$ext"
	t "scan $ext file: exit 0, same hits as the plain file" sh -c "[ $rc -eq 0 ] && [ -s '$T/plain.txt' ] && sed 's|^$T/log.$ext:||' '$T/out' | cmp -s - '$T/plain.txt'"
	"$TAINTCTL" scan <"$T/log.$ext" >"$T/out" 2>"$T/err"; rc=$?
	t "scan $ext on stdin (no name to go by): same hits" sh -c "[ $rc -eq 0 ] && sed 's|^-:||' '$T/out' | cmp -s - '$T/plain.txt'"
	# cut off the end: an error after the hits found so far
	size=$(wc -c <"$T/log.$ext")
	head -c $((size - 200)) "$T/log.$ext" >"$T/cut.$ext"
	run scan "$T/cut.$ext"
	sed "s|^$T/cut.$ext:||" "$T/out" >"$T/cut.txt"
	t "scan truncated $ext: exit 3, clear message, the hits before it printed" sh -c "[ $rc -eq 3 ] && [ \"\$(cat '$T/err')\" = \"taintctl: cannot read '$T/cut.$ext': truncated $ext data: unexpected end of input\" ] && [ \$(wc -l <'$T/cut.txt') -ge 3 ] && head -n \$(wc -l <'$T/cut.txt') '$T/plain.txt' | cmp -s - '$T/cut.txt'"
done
(cd "$CORPUS" && "$TAINTCTL" scan - <lore-iwl-proxmox-PO-wrapped.txt) >"$T/out" 2>"$T/err"
t "scan - reads stdin, text output with file:line" sh -c "grep -q '^-:4: Tainted: P  =>  P$' '$T/out' && grep -q '^-:6: .*=>  PO$' '$T/out'"

tap_done
