#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness's pipelines under pipefail, as TAP (suite harness-lint of
# scripts/test/suites): no early-exit reader behind a producer.
#
# Under `set -o pipefail` a pipeline fails when any of its commands does. A
# reader that exits before its input ends (grep -q/-m/-l, head, read, sed
# with a q command, awk with an exit before END) makes a producer that is
# still writing die of SIGPIPE: the pipeline returns 141 although the
# reader found what it looked for (a flaky failure), and under `!` a found
# match turns into a pass. Read everything instead: capture the output
# first and test it (`out=$(cmd)`, then `grep -q RE <<< "$out"` or
# `[[ $out == *text* ]]`), or count with `grep -c` in a command
# substitution, or let awk run to END.
#
# Checked: every shell file of scripts/, guest/, taintctl/tests/,
# taintctl/bench/, .ci/ and the Makefiles that turns pipefail on, and the
# files those source (`. FILE`, `source FILE`, found beside them). One test
# per such file, failing with FILE:LINE for each such pipeline; a line that
# says `pipefail-ok` (with the reason) is let through. First, the lint's own
# self-checks on planted examples, so that a lint that finds nothing fails.
#
# Usage: scripts/test/selftest/lint-pipefail.sh [FILE...]   (FILE...: lint these files
# as they are, whether or not they use pipefail; prints FILE:LINE: TEXT for
# each finding and exits 1 if there is one)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)

# early_exit_lines FILE: "LINE<TAB>TEXT" for each early-exit reader behind
# a pipe in FILE. Lines are split at single pipes (not ||); a line that
# ends in a pipe continues on the next; an awk program is read up to its
# closing quote. Full-line comments and "pipefail-ok" lines are skipped.
early_exit_lines() {
	awk '
	function squotes(s,   t) { t = s; return gsub(/\047/, "", t) }
	# an awk program: an exit that runs before END
	function awk_exits(s,   i) {
		i = match(s, /(^|[^A-Za-z_])exit([^A-Za-z_]|$)/)
		if (!i) return 0
		return substr(s, 1, i) !~ /END/
	}
	# reader(SEG, REST): SEG is the text after one pipe, REST that and
	# the rest of the line. Prints what kind of early-exit reader the
	# command is, or "" (a full reader, or not known to stop early).
	function reader(s, rest,   prog) {
		sub(/^[ \t]*/, "", s); sub(/^[ \t]*/, "", rest)
		if (s ~ /^[ef]?grep([ \t]+-[^ \t]*)*[ \t]+(-[A-Za-z]*[qmlL][A-Za-z0-9]*|--quiet|--silent|--max-count[= ]?[0-9]*|--files-with(out)?-match(es)?)([ \t=]|$)/)
			return "grep that stops at a match"
		if (s ~ /^head([ \t;)]|$)/) return "head"
		if (s ~ /^read([ \t;)]|$)/) return "read"
		if (rest ~ /^sed[ \t]/) {
			prog = rest
			if (match(rest, /\047[^\047]*\047/)) prog = substr(rest, RSTART, RLENGTH)
			if (prog ~ /([ \t;{\047"0-9\/$])[qQ][0-9]*([ \t;}\047"]|$)/)
				return "sed with a q command"
		}
		if (rest ~ /^g?awk[ \t]/) {
			if (squotes(rest) % 2) { inawk = 1; awkbuf = rest; return "" }
			if (awk_exits(rest)) return "awk with an exit before END"
		}
		return ""
	}
	function flag(line, what, text) {
		gsub(/^[ \t]+/, "", text)
		printf "%d\t%s: %s\n", line, what, text
	}
	{
		line = $0
		if (inawk) {		# a multi-line awk program behind a pipe
			awkbuf = awkbuf "\n" line
			if (squotes(line) % 2) {
				inawk = 0
				if (awk_exits(awkbuf) && !awkok)
					flag(awkline, "awk with an exit before END", awktext)
			}
			next
		}
		if (line ~ /^[ \t]*#/) { cont = 0; next }
		ok = (line ~ /pipefail-ok/)
		s = line
		gsub(/\|\|/, "\001\001", s)
		gsub(/\|&/, "|", s)
		n = split(s, seg, "|")
		for (i = (cont ? 1 : 2); i <= n; i++) {
			rest = seg[i]
			for (j = i + 1; j <= n; j++) rest = rest "|" seg[j]
			what = reader(seg[i], rest)
			if (inawk) { awkok = ok; awktext = line; awkline = FNR; break }
			if (what != "" && !ok) flag(FNR, what, line)
		}
		cont = (s ~ /\|[ \t]*\\?[ \t]*$/)
	}' "$1"
}

# uses_pipefail FILE: FILE turns pipefail on (set -o pipefail, set -euo
# pipefail, a Makefile's .SHELLFLAGS).
uses_pipefail() {
	grep -qE '(^|[;&|[:space:]])set[[:space:]]+(-[a-zA-Z]+[[:space:]]+)*-[a-zA-Z]*o[[:space:]]+pipefail|SHELLFLAGS.*pipefail' "$1"
}

# sourced FILE: the files FILE sources (". FILE", "source FILE") that are
# named from its own folder or the root, e.g. . "$(dirname "$0")/../lib.sh"
# or . "$ROOT/scripts/x.sh", or beside it,
# and those a comment "# sources: GLOB" names.
sourced() {
	local dir f g
	dir=$(dirname "$1")
	while IFS= read -r f; do
		f=${f%%[[:space:]]#*}
		f=${f//\"/}
		f=${f//\$(dirname \$0)/$dir}
		f=${f//\$ROOT/$ROOT}
		f=${f%%[\'[:space:];]*}
		if [ -n "$f" ] && [ -f "$f" ]; then
			printf '%s\n' "$f"
		elif [ -n "$f" ] && [ -f "$dir/${f##*/}" ]; then
			printf '%s\n' "$dir/${f##*/}"
		fi
	done < <(sed -nE 's/^[[:space:]]*(\.|source)[[:space:]]+(.*)$/\2/p' "$1")
	# What a file sources through a variable, which it names in a
	# comment "# sources: GLOB" (GLOB from the repository's root).
	while IFS= read -r g; do
		for f in "$ROOT"/$g; do
			[ -f "$f" ] && printf '%s\n' "$f"
		done
	done < <(sed -nE 's/^[[:space:]]*# sources: ([^[:space:]]+)$/\1/p' "$1")
	return 0
}

# The harness's shell files: *.sh, Makefiles, .ci/*, and files whose first
# line names sh or bash.
shell_files() {
	local f first
	while IFS= read -r f; do
		case $f in
		*.sh|*/Makefile|Makefile|*.mk|.ci/*) printf '%s\n' "$f"; continue ;;
		esac
		first=
		IFS= read -r first < "$ROOT/$f" 2>/dev/null
		[[ $first =~ ^\#!.*(/|[[:space:]])(ba)?sh([[:space:]]|$) ]] && printf '%s\n' "$f"
	done < <(cd "$ROOT" && find scripts guest taintctl/tests taintctl/bench .ci Makefile taintctl/Makefile \
		\( -name build -o -name .git \) -prune -o -type f -print 2>/dev/null | sort)
}

# FILE... given: lint those, plain output.
if [ $# -gt 0 ]; then
	rc=0
	for f in "$@"; do
		while IFS=$'\t' read -r l text; do
			printf '%s:%s: %s\n' "$f" "$l" "$text"; rc=1
		done < <(early_exit_lines "$f")
	done
	exit $rc
fi

# shellcheck source=../../../taintctl/tests/tap.sh
. "$ROOT/taintctl/tests/tap.sh"
tap() {	# tap OK NAME [DIAG...]
	local res=$1 name=$2
	shift 2
	if [ "$res" = 1 ]; then ok "$name"; return; fi
	not_ok "$name"
	[ $# -eq 0 ] || printf '# %s\n' "$@"
}

# Self-checks: planted pipelines, each must be found (or not) at its line.
# In the texts "@" stands for "|", so that this file has no such pipeline.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# selfcheck NAME WANT-LINES TEXT: the lint of TEXT reports exactly the
# lines WANT-LINES (space-separated, "" for none).
selfcheck() {
	local name=$1 want=$2 got
	printf '%s\n' "${3//@/|}" > "$T/case"
	got=$(early_exit_lines "$T/case" | cut -f1 | tr '\n' ' ')
	got=${got% }
	if [ "$got" = "$want" ]; then tap 1 "lint self-check: $name"
	else tap 0 "lint self-check: $name" "want lines [$want], found [$got]"; fi
}
selfcheck "grep -q, -qE, -F -q, --quiet, -m1 and -l behind a pipe are found" "1 2 3 4 5 6" \
"readelf -n x @ grep -q VMCOREINFO
a @ grep -qE 'x@y'
a @ grep -F -q 'y'
a @ grep --quiet y
a @ grep -m1 y
a @ grep -l y"
selfcheck "head, read, sed q and awk exit behind a pipe are found" "1 2 3 4 5 6" \
"a @ head -1
a @ read -r x
a @ sed -n '1p;q'
a @ sed '/x/q'
a @ awk '/x/ {print; exit}'
a @ awk '/x@y/ {exit}'"
selfcheck "a pipe at the end of a line, a multi-line awk program" "3 4" \
"echo x
a @ b @
	grep -qF y
b @ awk '
	/x/ { exit }'
c @ awk '
	{ n++ }
	END { exit !n }'"
selfcheck "full readers, @@, files, here-strings, END exits, comments, pipefail-ok are not" "" \
"a @@ grep -q b
grep -q b file
a @ grep -c b
grep -q b <<< \"\$x\"
a @ awk '{ n++ } END { exit !n }'
a @ sed 's/q/x/; s/a@b/c/'
a @ while read -r l; do :; done
a @ tail -n 1
# a @ grep -q b
a @ grep -q b	# pipefail-ok: test"
# A file found only through the file that sources it.
# shellcheck disable=SC2016	# the text of a script
printf '%s\n' '#!/bin/bash' 'set -euo pipefail' '. "$(dirname "$0")/lib-case.sh"' > "$T/main-case.sh"
printf '%s\n' 'f() { a @ grep -q b; }' | tr @ '|' > "$T/lib-case.sh"
got=$(sourced "$T/main-case.sh")
tap "$([ "$got" = "$T/lib-case.sh" ] && uses_pipefail "$T/main-case.sh" && ! uses_pipefail "$T/lib-case.sh" && echo 1 || echo 0)" \
	"lint self-check: a sourced file is linted with the file that turns pipefail on" "sourced: [$got]"

# The harness's files under pipefail (and what they source).
mapfile -t all < <(shell_files)
declare -A pf=()
for f in "${all[@]}"; do uses_pipefail "$ROOT/$f" && pf[$f]=1; done
changed=1
while [ $changed = 1 ]; do
	changed=0
	for f in "${!pf[@]}"; do
		while IFS= read -r s; do
			s=${s#"$ROOT"/}
			[ -n "${pf[$s]:-}" ] || { pf[$s]=1; changed=1; }
		done < <(sourced "$ROOT/$f")
	done
done
mapfile -t files < <(printf '%s\n' "${!pf[@]}" | sort)
tap "$([ ${#files[@]} -gt 0 ] && echo 1 || echo 0)" \
	"lint: found ${#files[@]} harness files under pipefail (of ${#all[@]} shell files)"
for f in "${files[@]}"; do
	[ -n "$f" ] || continue
	mapfile -t hits < <(early_exit_lines "$ROOT/$f" | sed "s|^\([0-9]*\)	|$f:\1: |")
	if [ ${#hits[@]} -eq 0 ]; then
		tap 1 "$f: no early-exit reader behind a pipe under pipefail"
	else
		# The first finding also after " # ", so that the FAIL line names it.
		tap 0 "$f: no early-exit reader behind a pipe under pipefail # ${hits[0]}${hits[1]:+ (and $((${#hits[@]} - 1)) more)}" "${hits[@]}"
	fi
done
tap_done
