#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# man_test.sh - taintctl.1 as man(1) shows it, TAP on stdout.
#
# Renders the page with groff (what man -l runs) and checks that the JSON
# examples keep their quotes, that groff has nothing to warn about, that
# the sections a util-linux page has are there, that it points to no file
# it is not installed with, that its JSON section names decode --json's
# keys, that every list of compressed formats in it and in taintctl's
# --help texts is libtaint's table's ($COMPRESSIONS prints it), and that
# every option those --help texts name ($TAINTCTL, default
# ../build/taintctl) is documented.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PAGE=$HERE/../taintctl.1
TAINTCTL=${TAINTCTL:-$HERE/../build/taintctl}
. "$HERE/tap.sh"
tap_need groff:groff-base
tap_init man
export LC_ALL=C.UTF-8 MANWIDTH=80

# plain text, as man -l shows it (no bold, no underline)
groff -man -Tutf8 -P-c -P-b -P-u -rLL=78n "$PAGE" >"$T/page" 2>"$T/render.err"
groff -man -ww -z "$PAGE" 2>"$T/warn"
page_has() { grep -qF -- "$1" "$T/page"; }

t "groff renders the page without an error" sh -c "[ -s '$T/page' ] && [ ! -s '$T/render.err' ]"
t "groff -ww has no warning" sh -c "[ ! -s '$T/warn' ]"
t "status/decode JSON example keeps its quotes" page_has '{"mask": 576, "mask_hex": "0x240", "tainted": true,'
t "flags JSON example keeps its quotes" page_has '"flags": [{"letter": "U", "bit": 6, "name": "USER",'
t "status modules JSON example" page_has '"modules": [{"name": "zfs", "taint": "PO"}],'
t "status taint_log JSON example" page_has '"taint_log": "unreadable", "taint_log_error": "Permission denied",'
t "log JSON example keeps its quotes" page_has '{"events": [{"ts": "12.345678", "utc": "...", "origin": "user",'
t "scan JSON example keeps its quotes" page_has '"letters": "PWO", "tainted": true, "format": "fixed",'
t "unknown_letters JSON example keeps its quotes" page_has '"unknown_letters": [{"letter": "V", "name": "UNSAFE_BPF"}]'
t "check JSON example keeps its quotes" page_has '{"mask": 576, "mask_hex": "0x240", "ok": false,'
# a JSON line whose quotes were eaten has an odd count or 'key : value'
awk '/^JSON$/ { j = 1; next } /^[A-Z][A-Z ]+$/ { j = 0 }
	j && /^ +[{"]/ { q = gsub(/"/, "\""); if (q % 2 || / [a-z_]+ : /) print }' \
	"$T/page" >"$T/badjson"
t "every JSON line of the JSON section has balanced quotes" sh -c "grep -q '^JSON\$' '$T/page' && [ ! -s '$T/badjson' ]"
for sec in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS JSON JOURNAL 'EXIT STATUS' FILES EXAMPLES 'REPORTING BUGS' 'SEE ALSO' AVAILABILITY; do
	t "section $sec" grep -qx "$sec" "$T/page"
done
# the EXIT STATUS section as one line of single blanks (justification and
# line breaks out of the way)
sed -n '/^EXIT STATUS$/,/^FILES$/p' "$T/page" | tr -s ' \n' '  ' >"$T/exit"
t "exit codes 0-3 documented, write errors included" sh -c "grep -q ' 0 ok 1 check found a disallowed flag; watch --deny saw a denied flag set 2 usage error' '$T/exit' && grep -q ' 3 permission or system error' '$T/exit' && grep -q 'write error' '$T/exit'"
t "EPIPE documented: not an error, for every command, the command's own exit status" sh -c "grep -q 'A reader that went away (EPIPE: taintctl scan big.log | head -1) is not an error, for every command' '$T/exit'"
t "exit codes 4 and 5 documented (5: log --vmcore, a dump that cannot be read)" sh -c "grep -q ' 4 check --since' '$T/exit' && grep -q ' 5 log --vmcore: the dump cannot be read' '$T/exit'"
t "exit code 6 documented (decode: no Tainted: field found)" grep -q ' 6 decode: no Tainted: field found' "$T/exit"
sed -n '/^TEXT ENCODINGS$/,/^CRASH DUMPS$/p' "$T/page" | tr -s ' \n' '  ' >"$T/enc"
t "a section on text encodings: CR LF, UTF-16 read, UTF-32 refused" sh -c "grep -q '^TEXT ENCODINGS .* CR LF' '$T/enc' && grep -q 'UTF-16, little- or big-endian' '$T/enc' && grep -q 'UTF-32 is refused, exit status 3' '$T/enc'"
t "a section on crash dumps: kdump, QEMU, what differs from the live log" sh -c "grep -qx 'CRASH DUMPS' '$T/page' && grep -q 'dump-guest-memory' '$T/page' && grep -q 'makedumpfile -E' '$T/page'"

# JOURNAL: every field watch --journal sends (cli/journal_fields.c) and the
# MESSAGE_IDs of cli/journal.h
sed -n '/^JOURNAL$/,/^FIELD DECODING$/p' "$T/page" >"$T/journal"
for f in MESSAGE MESSAGE_ID PRIORITY SYSLOG_IDENTIFIER ORIGIN FLAG TAINT_TS TAINT_UTC TAINT_FLAGS TAINT_NEW TAINT_PID TAINT_UID TAINT_AUID TAINT_COMM TAINT_MODULE TAINT_CALLER TAINT_REASON TAINT_BIT TAINT_NAME TAINT_MASK TAINT_DROPPED TAINT_COUNT; do
	t "JOURNAL names the field $f" grep -qw -- "$f" "$T/journal"
done
for id in $(sed -n 's/^#define JOURNAL_ID_[A-Z]*[[:space:]]*"\([0-9a-f]*\)"$/\1/p' "$HERE/../cli/journal.h"); do
	t "JOURNAL lists MESSAGE_ID $id (cli/journal.h)" grep -q "$id" "$T/journal"
done
t "JOURNAL has the journalctl examples" sh -c "grep -q 'journalctl -u taintctl-watch FLAG=W' '$T/journal' && grep -q 'journalctl .*-o verbose' '$T/journal'"

# the page is installed alone: it points to no file of the source tree
# (docs/metrics.md was one)
t "the page names no file of the source tree (docs/...: not installed)" sh -c "! grep -n 'docs/' '$T/page'"

# JSON: decode's keys are the page's, and its mask is null where the
# flags are not known (as scan's)
sed -n '/^JSON$/,/^JOURNAL$/p' "$T/page" | tr -s ' \n' '  ' >"$T/json1"
t "JSON: decode's mask and mask_hex are null when the flags are not known" grep -q 'decode .*mask and mask_hex are null when the flags are not known' "$T/json1"
if [ -x "$TAINTCTL" ]; then
	{ "$TAINTCTL" --json decode 4609 'Tainted: G    V'
	  printf 'Tainted: W\n' | "$TAINTCTL" --json decode
	} 2>&1 | grep -o '"[a-z_]*":' | tr -d '":' | sort -u >"$T/keys"
	t "decode --json prints keys" test -s "$T/keys"
	while read -r k; do
		t "JSON names decode's key \"$k\"" grep -qw -- "$k" "$T/json1"
	done <"$T/keys"
fi

# the compressed formats: every list of them in the help texts and in the
# page names all those libtaint reads, as its table gives them
# ($COMPRESSIONS, tests/compressions.c: "gzip, xz, zstd, bzip2 and lz4"),
# none is a list written by hand that the table left behind
COMPRESSIONS=${COMPRESSIONS:-$HERE/../build/asan/compressions}
helps() {
	"$TAINTCTL" --help
	for c in status decode scan mark log check watch metrics cursor; do "$TAINTCTL" "$c" --help; done
}
if [ -x "$COMPRESSIONS" ] && [ -x "$TAINTCTL" ] && "$COMPRESSIONS" >"$T/z"; then
	list=$(awk '$2 == 1 { n[++k] = $1 } END { for (i = 1; i <= k; i++) printf "%s%s", (i == 1 ? "" : i < k ? ", " : " and "), n[i] }' "$T/z")
	first=$(awk '$2 == 1 { print $1; exit }' "$T/z")
	t "libtaint reads compressed formats: $list" test -n "$list"
	t "libtaint's table has bzip2 and lz4 among them" sh -c "awk '\$2 == 1' '$T/z' | grep -q '^bzip2 ' && awk '\$2 == 1' '$T/z' | grep -q '^lz4 '"
	# each text as one line of single blanks (line breaks out of the way)
	tr -s ' \n' '  ' <"$T/page" >"$T/page1"
	helps 2>&1 | tr -s ' \n' '  ' >"$T/help1"
	for f in help1 page1; do
		case $f in help1) what="the --help texts" ;; *) what="the page" ;; esac
		lists=$(grep -o -- "$first, " "$T/$f" | wc -l)
		full=$(grep -oF -- "$list" "$T/$f" | wc -l)
		t "$what: every list of compressed formats ($lists) is the table's whole list ($full)" sh -c "[ $full -ge 1 ] && [ $lists -eq $full ]"
	done
	t "the page: scan, log FILE and check --from list them" sh -c "[ \$(grep -oF -- '$list' '$T/page1' | wc -l) -ge 3 ]"
	while read -r name readable tool; do
		[ "$readable" = 1 ] || continue
		t "$name: in the --help texts and the page" sh -c "grep -qw -- '$name' '$T/help1' && grep -qw -- '$name' '$T/page1'"
	done <"$T/z"
else
	skip "compressed formats in the help and the page" "no $COMPRESSIONS or $TAINTCTL"
fi

# every long option that a --help text names is in the page
if [ -x "$TAINTCTL" ]; then
	helps 2>&1 | grep -o -- '--[a-z][a-z-]*' | sort -u >"$T/opts"
	t "the --help texts name options" test -s "$T/opts"
	while read -r o; do
		t "option $o (from --help) is documented" grep -qF -- "$o" "$T/page"
	done <"$T/opts"
	for o in -J -j -a -d -n -o -h -V; do
		t "short option $o is documented" grep -qE -- "(^| )$o," "$T/page"
	done
else
	skip "options from --help" "no taintctl at $TAINTCTL"
fi

tap_done
