#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make mutate-lib: do the host tests fail when libtaint or taintctl is
# wrong? Applies each deliberate fault of scripts/mutate/mutants-lib ("mutant")
# alone to a copy of taintctl/ (build/mutate-lib/taintctl), builds it and
# runs `make check` there: the unit tests (ASan+UBSan), CLI, man page,
# metrics, packaging, completion and crash dump tests, the oops corpus's
# too (the suites taintctl-host and taintctl-corpus of make test), up to
# the first program that fails (FAIL_FAST=1). A mutant is "killed" when a
# test failed, or skipped where make check allows no skip (or make check
# did not end within UT_MUTATE_LIB_TIMEOUT seconds, default 600),
# "survived" when all passed, an error when it does not apply or does not
# build. Ends with "N killed, N survived"; exits non-zero if any survived
# (or on an error).
#
# First the unmutated copy must build and pass: if it does not, no mutant
# can be judged, and it stops there (exit 2).
#
# Usage: mutate-lib.sh [NAME...]   only these mutants (default: all, in order)
# Environment:
#   UT_MUTANTS_LIB=FILE       another list of mutants (default scripts/mutate/mutants-lib)
#   TAINT_CORPUS_DIR=DIR      the oops corpus, as for make test (CI=true: required)
#   UT_MUTATE_LIB_TIMEOUT=S   the most one make check may take (600 s)
#
# Never touches taintctl/ itself: the copy is made afresh at each run from
# the working tree's taintctl/ (what is edited there is what is mutated).
# Logs: build/logs/mutate-lib/<mutant>/ (mutant.diff, build.log,
# check.log), results in build/logs/mutate-lib/results.tsv. A run over
# every mutant of the default list rewrites the mutate-lib table of
# docs/mutate.md.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/results.sh
. "$(dirname "$0")/results.sh"

MUTANTS=${UT_MUTANTS_LIB:-$ROOT/scripts/mutate/mutants-lib}
WORK=$BUILD/mutate-lib
COPY=$WORK/taintctl		# built and tested
PRISTINE=$WORK/pristine		# the sources as they were, to revert from
MLOGS=$BUILD/logs/mutate-lib
DOC=$ROOT/docs/mutate.md
TMO=${UT_MUTATE_LIB_TIMEOUT:-600}

mutants() { python3 "$ROOT/scripts/mutate/mutants.py" "$MUTANTS" "$@"; }

# revert: the copy's sources back to the pristine ones; a file put back
# gets a new mtime, so make rebuilds what the mutant changed.
revert() {
	local f
	[ -d "$PRISTINE" ] && [ -d "$COPY" ] || return 0
	diff -rq --exclude=build "$PRISTINE" "$COPY" 2>/dev/null |
		sed -n "s|^Files $PRISTINE/\(.*\) and $COPY/.* differ\$|\1|p" |
		while IFS= read -r f; do cp "$PRISTINE/$f" "$COPY/$f"; done
}

# build_and_check NAME: build everything make check runs (build.log), then
# make check (check.log). Sets RESULT (pass, fail, build, timeout) and
# FIRST (the first failing test, "program: not ok ...").
build_and_check() {
	local d=$MLOGS/$1 rc=0
	RESULT='' FIRST=''
	if ! make -s -C "$COPY" check-build > "$d/build.log" 2>&1; then
		RESULT=build
		return
	fi
	# FAIL_FAST: the first program that fails ends make check (no -k):
	# it is the one named, as with -k, sooner
	timeout --kill-after=30 "$TMO" make -s -C "$COPY" check FAIL_FAST=1 > "$d/check.log" 2>&1 || rc=$?
	if [ "$rc" = 0 ]; then
		RESULT=pass
		return
	fi
	RESULT=fail
	# timeout: TERM, then KILL 30 s later (a TAP script's trap may go on)
	[ "$rc" = 124 ] || [ "$rc" = 137 ] && RESULT=timeout
	# (a "not ok N # SKIP" is cmocka's skip, not a failure; a skip make
	# check does not allow is tests/tap_run.sh's message)
	FIRST=$(awk '/^# (build|tests)\/[^ ]*$/ { p = $2; sub(/.*\//, "", p) }
		/^not ok / && !/ # [Ss][Kk][Ii][Pp]( |$)/ { print p ": " $0; exit }
		/^Bail out!/ { print p ": " $0; exit }' "$d/check.log")
	if [ -z "$FIRST" ]; then
		FIRST=$(grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|^tap_run\.sh: .* skipped|Error [0-9]+$' "$d/check.log" || true)
	fi
	[ ${#FIRST} -le 160 ] || FIRST=${FIRST:0:157}...
}

mkdir -p "$BUILD"
exec 9> "$BUILD/.mutate-lib.lock"
flock -n 9 || die "another make mutate-lib is running (lock $BUILD/.mutate-lib.lock)"

"$ROOT/scripts/build/deps.sh" host || exit 2
# The corpus as make test finds it, absolute: the copy is elsewhere.
d=${TAINT_CORPUS_DIR:-taintctl/tests/corpus/oops}
case $d in /*) ;; *) d=$ROOT/$d ;; esac
export TAINT_CORPUS_DIR=$d
if ! [ -f "$TAINT_CORPUS_DIR/expected.tsv" ]; then
	[ "${CI:-}" = true ] && die "no oops corpus at $TAINT_CORPUS_DIR (CI=true needs it)"
	say "mutate-lib: no oops corpus at $TAINT_CORPUS_DIR: its tests skip, fewer mutants may be killed"
fi

mapfile -t ALL_NAMES < <(mutants list | cut -f1)
[ ${#ALL_NAMES[@]} -gt 0 ] || exit 2
if [ $# -gt 0 ]; then NAMES=("$@"); else NAMES=("${ALL_NAMES[@]}"); fi
declare -A BREAKS=()
while IFS=$'\t' read -r n _ b; do BREAKS[$n]=$b; done < <(mutants list)
for n in "${NAMES[@]}"; do
	[ -n "${BREAKS[$n]:-}" ] || die "no mutant '$n' in $MUTANTS (there are: ${ALL_NAMES[*]})"
done

# The copy and the pristine sources, from the working tree.
rm -rf "$WORK"
mkdir -p "$WORK" "$MLOGS"
for t in "$COPY" "$PRISTINE"; do
	mkdir -p "$t"
	tar -C "$ROOT/taintctl" --exclude=./build -cf - . | tar -C "$t" -xf - ||
		die "cannot copy taintctl/ to $t"
done
# The copy sits where taintctl/ sits in the repository: pkg_test.sh reads
# ../scripts/build/deps.sh and ../Makefile (without them it skips, and a
# skip fails make check)
ln -s "$ROOT/scripts" "$WORK/scripts"
ln -s "$ROOT/Makefile" "$WORK/Makefile"
trap 'revert' EXIT
trap 'exit 130' INT TERM
mutants check "$COPY" "${NAMES[@]}" ||
	die "the code changed under these mutants: update them in ${MUTANTS#"$ROOT"/}"

T0=$(date +%s)
say "mutate-lib: ${#NAMES[@]} mutants of ${MUTANTS#"$ROOT"/} on a copy of taintctl/ ($COPY)"
rm -rf "$MLOGS/unmutated"; mkdir -p "$MLOGS/unmutated"
build_and_check unmutated
BASE_SECS=$(( $(date +%s) - T0 ))
if [ "$RESULT" != pass ]; then
	say "mutate-lib: the unmutated copy does not pass make check ($RESULT${FIRST:+: $FIRST}), so no mutant can be judged; logs in $MLOGS/unmutated"
	exit 2
fi
say "mutate-lib: the unmutated copy passes make check ($(fmt_time "$BASE_SECS"), $(grep -cE '^(not )?ok ' "$MLOGS/unmutated/check.log") results)"

i=0
results_begin "$MLOGS/results.tsv"
for n in "${NAMES[@]}"; do
	i=$((i + 1))
	rm -rf "${MLOGS:?}/$n"; mkdir -p "$MLOGS/$n"
	t=$(date +%s)
	revert
	if ! mutants apply "$COPY" "$n" 2> "$MLOGS/$n/apply.log"; then
		result=error by="does not apply: $(tail -n 1 "$MLOGS/$n/apply.log")"
	elif diff -ru --exclude=build "$PRISTINE" "$COPY" > "$MLOGS/$n/mutant.diff"; then
		result=error by="applied, but changed nothing"
	else
		build_and_check "$n"
		case $RESULT in
		pass)    result=survived by="no test failed" ;;
		fail)    result=killed by=${FIRST:-make check failed (see $MLOGS/$n/check.log)} ;;
		timeout) result=killed by="make check did not end in $TMO s${FIRST:+; $FIRST}" ;;
		*)       result=error by="does not build (see $MLOGS/$n/build.log)" ;;
		esac
	fi
	revert
	secs=$(( $(date +%s) - t ))
	results_add "$n" "$result" "$secs" "$by" "${BREAKS[$n]}"
	printf '[%2d/%d] %-28s %-8s %6s  %s\n' "$i" "${#NAMES[@]}" "$n" "$result" "$(fmt_time "$secs")" "$by"
done
T1=$(date +%s)

# A full run of the default list is the record in docs/mutate.md.
if [ $# -eq 0 ] && [ -z "${UT_MUTANTS_LIB:-}" ] && [ "$ERRORS" -eq 0 ] && [ -f "$DOC" ] &&
	grep -q '^<!-- mutate-lib:begin -->$' "$DOC" && grep -q '^<!-- mutate-lib:end -->$' "$DOC"; then
	{
		echo "Latest run (\`make mutate-lib\`): $(nproc) CPUs, $(fmt_time $((T1 - T0))) in all" \
			"(the unmutated copy: $(fmt_time "$BASE_SECS")): **$KILLED killed, $SURVIVED survived**."
		echo
		echo "| mutant | what it breaks | killed by (program: first failing test) | time |"
		echo "|---|---|---|---|"
		grep -v '^#' "$RESULTS" | while IFS=$'\t' read -r n r s b w; do
			[ "$r" = killed ] || b="**$r**${b:+: $b}"
			b=${b//|/\\|} w=${w//|/\\|}
			# shellcheck disable=SC2016	# the backquotes are Markdown
			printf '| `%s` | %s | %s | %s |\n' "$n" "$w" "$b" "$(fmt_time "$s")"
		done
	} > "$MLOGS/results.md"
	results_splice "$DOC" mutate-lib "$MLOGS/results.md"
	say "mutate-lib: results written to ${DOC#"$ROOT"/}"
fi

say "mutate-lib: $(fmt_time $((T1 - T0))) in all; results in $RESULTS, logs in $MLOGS/<mutant>/"
results_end
