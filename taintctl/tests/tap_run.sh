#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tap_run.sh - one program of make check, and what it skipped.
#
#   tap_run.sh NAME CMD...    "# NAME", then CMD's TAP (stdout; its stderr
#                             stays stderr); exits with CMD's status, or 1
#                             if CMD skipped where make check allows no skip
#   tap_run.sh --summary DIR  make check's last line: the skips of every
#                             program (DIR, below), or that there were none
#
# The skip rule, make check's and make test's (scripts/test/count.sh; the
# rule is in tests/README): a skip is a result that could not be had here
# and says why.  It is one of
#   ok N - DESC # SKIP WHY       tap.sh's skip (a "not ok" too)
#   not ok N # SKIP NAME         cmocka 1.1.5's skip(): the reason is the
#                                "# skip: WHY" line before it
#                                (test_util.h's skip_because())
#   1..0 # SKIP WHY              the whole program skipped
# A skip is neither a pass nor a failure, and make check fails when a
# program skips unless SKIP_OK names it: shell patterns, each matched
# against PROGRAM (its file name: test_scanner, units_test.sh) or
# PROGRAM:TEST (the cmocka test, or tap.sh's DESC).  The Makefile's default
# names the oops corpus's programs, whose corpus may be elsewhere
# (TAINT_CORPUS_DIR), as make test's table lets taintctl-corpus skip; make
# test allows no other skip on the host.
#
# With SKIPS_DIR set, each program's skips are written to
# SKIPS_DIR/PROGRAM (removed when it skipped nothing), for --summary.

set -u
if [ "${1:-}" = --summary ]; then
	n=$(cat "$2"/* 2>/dev/null | wc -l)
	if [ "$n" -eq 0 ]; then
		echo "# make check: nothing skipped"
	else
		echo "# make check: $n skipped (allowed by SKIP_OK='${SKIP_OK:-}'):"
		cat "$2"/* | sed 's/^/#   /'
	fi
	exit 0
fi
name=$1
shift
prog=${name##*/}
tmp=$(mktemp "${TMPDIR:-/tmp}/tap_run.XXXXXX") || exit 1
trap 'rm -f "$tmp" "$tmp.rc"' EXIT
echo "# $name"
{ "$@"; echo $? >"$tmp.rc"; } | tee "$tmp"
rc=$(cat "$tmp.rc")

# the skips: "PROGRAM:NAME<TAB>WHY", a line each
awk -v prog="$prog" '
	function out(n, why) { printf "%s:%s\t%s\n", prog, n, why }
	/^# skip: / { why = substr($0, 9); next }
	/^1\.\.0([^0-9]|$)/ {
		w = $0; sub(/^1\.\.0 *(# *[Ss][Kk][Ii][Pp] *)?/, "", w)
		out("(all)", w == "" ? "no reason given" : w); next
	}
	/^(not )?ok( |$)/ && / # [Ss][Kk][Ii][Pp]( |$)/ {
		line = $0
		d = line; sub(/ # [Ss][Kk][Ii][Pp]( .*)?$/, "", d)
		sub(/^(not )?ok( [0-9]+)?( -)? ?/, "", d)
		w = line; sub(/^.* # [Ss][Kk][Ii][Pp] ?/, "", w)
		if (d == "") {		# cmocka: the name after SKIP, why before
			d = w; w = why
		}
		out(d, w == "" ? "no reason given" : w)
	}
	/^(not )?ok( |$)/ { why = "" }' "$tmp" >"$tmp.skips"
trap 'rm -f "$tmp" "$tmp.rc" "$tmp.skips"' EXIT

bad=0
set -f		# SKIP_OK's words are patterns for case, not for files
while IFS='	' read -r what why; do
	ok=
	for p in ${SKIP_OK:-}; do
		# shellcheck disable=SC2254	# SKIP_OK holds patterns
		case $p in
		*:*) case $what in $p) ok=1 ;; esac ;;
		*) case ${what%%:*} in $p) ok=1 ;; esac ;;
		esac
	done
	if [ -z "$ok" ]; then
		bad=$((bad + 1))
		echo "tap_run.sh: $what skipped ($why), which make check does not allow: fix what it needs, or name it in SKIP_OK" >&2
	fi
done <"$tmp.skips"
if [ -n "${SKIPS_DIR:-}" ]; then
	mkdir -p "$SKIPS_DIR"
	if [ -s "$tmp.skips" ]; then
		sed 's/	/: /' "$tmp.skips" >"$SKIPS_DIR/$prog"
	else
		rm -f "$SKIPS_DIR/$prog"
	fi
fi
[ "$rc" -eq 0 ] || exit "$rc"
[ "$bad" -eq 0 ] || exit 1
exit 0
