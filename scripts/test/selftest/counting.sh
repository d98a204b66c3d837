#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness's own test, as git's t0000-basic.sh tests git's: the counting
# of scripts/test/test.sh (scripts/test/count.sh, sourced as test.sh sources it) fed
# a made-up suite table (UT_SUITES) and made-up TAP, nothing booted or
# built. Each case must give the verdict it should: the exit status of
# count_summary, its summary line "N passed, N failed, N skipped" (worked
# out by hand below, not taken from a run) and, for a failure, a FAIL line
# naming the suite. TAP on stdout; the suite harness-selftest of
# scripts/test/suites. UT_COUNT_SH: another count.sh (to see this test fail on
# a broken one).
# SC2031: the subshell of verdict() sets no variable of this script.
# SC2016: the single-quoted $ are for eval and for the messages.
# shellcheck disable=SC2031,SC2016
set -uo pipefail
REPORT_KINDS_WANT='warn bug kcsan oops ierr panic gpf kasan ubsan kfence hung rcu lockup trace nmi'
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
COUNT_SH=${UT_COUNT_SH:-$ROOT/scripts/test/count.sh}
unset UT_ONLY	# make test's own (UT_ONLY=host) is not the cases'
# shellcheck source=../../../taintctl/tests/tap.sh
. "$ROOT/taintctl/tests/tap.sh"
T=$(mktemp -d /tmp/ut-harness-selftest.XXXXXX)
trap 'rm -rf "$T"' EXIT

# The made-up table: alpha 3 results, no skip; beta 2 results, 1 skip;
# gamma (a corpus-like suite) may skip as a whole; delta only on the i386
# variant may skip as a whole; kt is KUnit-like (indented KTAP).
cat > "$T/suites" <<'EOF'
# suite  min  maxskip         run    variants      needs  reports
alpha      3  0               host   default       -      -
beta       2  1               test   default       -      -
gamma      4  whole           host   default       -      -
delta      2  0,i386=whole    test   default,i386  -      -
kt         2  0               kunit  i386          -      warn=1
EOF

# tap FILE LINE...: a made-up TAP file, one argument a line
tap() { local f=$T/$1; shift; printf '%s\n' "$@" > "$f"; }
# The TAP of a suite that passes: alpha, beta, gamma, delta.
good() {
	tap alpha.tap 1..3 'ok 1 a1' 'ok 2 a2' 'ok 3 a3'
	tap beta.tap 1..2 'ok 1 b1' 'ok 2 b2'
	tap gamma.tap 1..4 'ok 1 g1' 'ok 2 g2' 'ok 3 g3' 'ok 4 g4'
	tap delta.tap 1..2 'ok 1 d1' 'ok 2 d2'
}
# count_all: tap_count every made-up TAP file there is, as host_tests and
# guest_suites do (alpha, beta, gamma, delta, in table order; omega last)
count_all() {
	local s
	for s in alpha beta gamma delta omega; do
		[ -f "$T/$s.tap" ] && tap_count "$s" "$T/$s.tap"
	done
	return 0
}

# verdict NAME RC SUMMARY [FAIL-RE] -- VARIANT COMMAND...: in a subshell,
# source lib.sh and count.sh with the made-up table, count_table VARIANT,
# run COMMAND..., check_suites, count_summary. ok if the exit status is
# RC, the last line SUMMARY, and (if given) a line matches FAIL-RE.
verdict() {
	local name=$1 want_rc=$2 want=$3 re='' rc got out=$T/out
	shift 3
	if [ "$1" != -- ]; then re=$1; shift; fi
	shift
	(
		export UT_SUITES=$T/suites
		LOGS=$T/logs
		mkdir -p "$LOGS"
		# shellcheck source=SCRIPTDIR/../../lib.sh
		. "$ROOT/scripts/lib.sh"
		# shellcheck source=SCRIPTDIR/../count.sh
		. "$COUNT_SH"
		count_table "$1"
		shift
		"$@"
		check_suites
		count_summary
	) > "$out" 2>&1
	rc=$?
	got=$(tail -n 1 "$out")
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ] &&
		{ [ -z "$re" ] || grep -qE -- "$re" "$out"; }; then
		ok "$name"
	else
		not_ok "$name"
		echo "#   want exit $want_rc, '$want'${re:+, a line matching '$re'}"
		echo "#   got  exit $rc, '$got'"
		sed 's/^/#   | /' "$out"
	fi
	rm -f "$T"/*.tap "$T"/*.results
}

# Every suite as it should be: 3 + 2 + 4 + 2 results.
good
verdict "all suites pass" 0 "11 passed, 0 failed, 0 skipped" -- default count_all

# A suite of the table that never ran.
good; rm "$T/alpha.tap"
verdict "a missing suite fails, named" 1 "8 passed, 1 failed, 0 skipped" \
	'^FAIL suite alpha: did not run' -- default count_all

# A plan that does not match the results: one more failure.
good; tap alpha.tap 1..4 'ok 1 a1' 'ok 2 a2' 'ok 3 a3'
verdict "a plan mismatch fails" 1 "11 passed, 1 failed, 0 skipped" \
	'^FAIL alpha: plan: planned 4, ran 3' -- default count_all

# "not ok" is a failure (and still a result).
good; tap alpha.tap 1..3 'ok 1 a1' 'not ok 2 a2' 'ok 3 a3'
verdict "a not ok is a failure" 1 "10 passed, 1 failed, 0 skipped" \
	'^FAIL alpha: a2$' -- default count_all

# A guest that died in the middle of beta: never finished, and its results
# short of beta's minimum.
crash() {
	printf '%s\n' '##UT-BEGIN delta' 1..2 'ok 1 d1' 'ok 2 d2' '##UT-END delta rc=0' \
		'##UT-BEGIN beta' 1..2 'ok 1 b1' > "$T/boot.results"
	guest_suites "$T/boot.results"
}
tap alpha.tap 1..3 'ok 1 a1' 'ok 2 a2' 'ok 3 a3'
tap gamma.tap 1..4 'ok 1 g1' 'ok 2 g2' 'ok 3 g3' 'ok 4 g4'
verdict "a crash mid-suite fails: never finished, and short" 1 "9 passed, 2 failed, 0 skipped" \
	'^FAIL beta: never finished' -- default eval 'count_all; crash'

# A suite in two blocks on one boot (guest/test.sh splits the kselftest's
# first run): the results add up; each block has its own plan.
blocks() {
	printf '%s\n' '##UT-BEGIN delta' 1..2 'ok 1 d1' 'ok 2 d2' '##UT-END delta rc=0' \
		'##UT-BEGIN beta' 1..1 'ok 1 b1' '##UT-END beta rc=0' \
		'##UT-BEGIN alpha' 1..3 'ok 1 a1' 'ok 2 a2' 'ok 3 a3' '##UT-END alpha rc=0' \
		'##UT-BEGIN beta' "1..$1" 'ok 1 b2' '##UT-END beta rc=0' > "$T/boot.results"
	guest_suites "$T/boot.results"
}
tap gamma.tap 1..4 'ok 1 g1' 'ok 2 g2' 'ok 3 g3' 'ok 4 g4'
verdict "a suite in two blocks: the results add up" 0 "11 passed, 0 failed, 0 skipped" \
	-- default eval 'count_all; blocks 1'
tap gamma.tap 1..4 'ok 1 g1' 'ok 2 g2' 'ok 3 g3' 'ok 4 g4'
verdict "a suite in two blocks: a plan mismatch in the second fails" 1 "11 passed, 1 failed, 0 skipped" \
	'^FAIL beta: plan: planned 2, ran 1' -- default eval 'count_all; blocks 2'

# A guest program's exit status other than 0 or 4 (kselftest's skip).
status() {
	printf '%s\n' '##UT-BEGIN beta' 1..2 'ok 1 b1' 'ok 2 b2' '##UT-END beta rc=1' \
		'##UT-BEGIN delta' 1..2 'ok 1 d1' 'ok 2 d2' '##UT-END delta rc=4' > "$T/boot.results"
	guest_suites "$T/boot.results"
}
tap alpha.tap 1..3 'ok 1 a1' 'ok 2 a2' 'ok 3 a3'
tap gamma.tap 1..4 'ok 1 g1' 'ok 2 g2' 'ok 3 g3' 'ok 4 g4'
verdict "a guest program's exit status 1 fails, 4 does not" 1 "11 passed, 1 failed, 0 skipped" \
	'^FAIL beta: exit status: exited 1' -- default eval 'count_all; status'

# One SKIP where the table allows one.
good; tap beta.tap 1..2 'ok 1 b1' 'ok 2 b2 # SKIP not here'
verdict "a SKIP within the bound is a skip" 0 "10 passed, 0 failed, 1 skipped" -- default count_all

# Skips over the bound: beta allows 1.
good; tap beta.tap 1..3 'ok 1 b1' 'ok 2 b2 # SKIP x' 'ok 3 b3 # skip y'
verdict "skips over the bound fail, named" 1 "10 passed, 1 failed, 2 skipped" \
	'^FAIL suite beta: 2 skipped; .* allows at most 1' -- default count_all

# Skips do not make up a minimum: alpha (no skip allowed) with 3 results,
# 2 of them skips.
good; tap alpha.tap 1..3 'ok 1 a1' 'ok 2 a2 # SKIP x' 'ok 3 a3 # SKIP y'
verdict "skips counted toward a minimum fail where none is allowed" 1 "9 passed, 1 failed, 2 skipped" \
	'^FAIL suite alpha: 2 skipped' -- default count_all

# A whole-program skip where the row allows it: the suite's minimum of
# skips (1 recorded, 3 more counted).
good; tap gamma.tap '# tests/prog' '1..0 # SKIP no corpus'
verdict "a whole-program skip where allowed counts the minimum as skips" 0 "7 passed, 0 failed, 4 skipped" \
	'^SKIP gamma: prog: skipped as a whole: no corpus' -- default count_all

# ... and where it does not: alpha's maxskip is 0.
good; tap alpha.tap '1..0 # SKIP nothing to do'
verdict "a whole-program skip where not allowed fails, named" 1 "8 passed, 1 failed, 1 skipped" \
	'^FAIL suite alpha: skipped as a whole' -- default count_all

# A whole skip inside another suite's output (a stray "1..0 # SKIP" line among
# results) does not turn a shortfall into skips.
good; tap beta.tap 1..1 'ok 1 b1' '1..0 # SKIP stray'
verdict "a stray whole-program skip line does not cover a shortfall" 1 "10 passed, 1 failed, 1 skipped" \
	'^FAIL suite beta: skipped as a whole' -- default count_all

# The bound is the variant's: delta may skip as a whole on i386 only.
tap delta.tap '1..0 # SKIP not built for i686'
tap kt.ktap KTAP 1..1 '    1..2' '    ok 1 k1' '    ok 2 k2' 'ok 1 kt'
verdict "a per-variant bound: whole on i386" 0 "2 passed, 0 failed, 2 skipped" \
	-- i386 eval 'count_all; INDENT=4 tap_count kt "$T/kt.ktap"'
good_but_delta() { good; tap delta.tap '1..0 # SKIP not built for x86_64'; count_all; }
verdict "... and 0 on default" 1 "9 passed, 1 failed, 1 skipped" \
	'^FAIL suite delta: skipped as a whole' -- default good_but_delta

# cmocka 1.1.5's skip() prints "not ok N # SKIP NAME": a skip, not a
# failure; its reason is the "# skip: WHY" line before it (test_util.h's
# skip_because()).
good; tap beta.tap 1..2 'ok 1 b1' '# skip: no AVX2 on this CPU' 'not ok 2 # SKIP b2'
verdict "cmocka's skip line (not ok, SKIP) within the bound is a skip, with its reason" 0 "10 passed, 0 failed, 1 skipped" \
	'^SKIP beta: b2: no AVX2 on this CPU$' -- default count_all
good; tap alpha.tap 1..3 'ok 1 a1' 'not ok 2 # SKIP a2' 'ok 3 a3'
verdict "cmocka's skip line where no skip is allowed fails, named" 1 "10 passed, 1 failed, 1 skipped" \
	'^FAIL suite alpha: 1 skipped; .* allows at most 0' -- default count_all
good; tap beta.tap 1..2 'ok 1 b1' 'not ok 2 b2 # TODO later'
verdict "a not ok with another directive is still a failure" 1 "10 passed, 1 failed, 0 skipped" \
	'^FAIL beta: b2: TODO later$' -- default count_all

# A suite short of its minimum.
good; tap alpha.tap 1..2 'ok 1 a1' 'ok 2 a2'
verdict "a suite short of its minimum fails, named" 1 "10 passed, 1 failed, 0 skipped" \
	'^FAIL suite alpha: 2 results; .* expects at least 3' -- default count_all

# A suite that ran but is not in the table.
good; tap omega.tap 1..1 'ok 1 o1'
verdict "a suite not in the table fails, named" 1 "12 passed, 1 failed, 0 skipped" \
	'^FAIL suite omega: ran but is not in' -- default count_all

# UT_ONLY: only alpha is checked against the table; beta ran too (another
# suite of the same boot) and keeps to its bound of skips.
UT_ONLY=alpha
tap alpha.tap 1..3 'ok 1 a1' 'ok 2 a2' 'ok 3 a3'
verdict "UT_ONLY: only the selected suite must run" 0 "3 passed, 0 failed, 0 skipped" -- default count_all
tap alpha.tap 1..3 'ok 1 a1' 'ok 2 a2' 'ok 3 a3'
tap beta.tap 1..2 'ok 1 b1 # SKIP x' 'ok 2 b2 # SKIP y'
verdict "UT_ONLY: a suite that ran unselected keeps to its bound" 1 "3 passed, 1 failed, 2 skipped" \
	'^FAIL suite beta: 2 skipped' -- default count_all
unset UT_ONLY

# KUnit's KTAP: the cases (indented 4) count, not the suite line; a
# harness check recorded with SUITE= does not count for the suite.
kunit() {
	INDENT=4 tap_count kt "$T/kt.ktap"
	SUITE='' check "kt: a harness check" "" true
}
tap kt.ktap KTAP 1..1 '    KTAP version 1' '    # Subtest: kt' '    1..1' '    ok 1 k1' 'ok 1 kt'
verdict "KTAP: 1 case and a harness check do not make a minimum of 2" 1 "4 passed, 1 failed, 0 skipped" \
	'^FAIL suite kt: 1 results' -- i386 eval 'tap delta.tap 1..2 "ok 1 d1" "ok 2 d2"; count_all; kunit'

# A table row that is not of the form: exit 2, line named.
cp "$T/suites" "$T/suites.good"
FORM='not "suite min maxskip run variants needs reports" (min >= 1; maxskip N or whole, then VARIANT=N or VARIANT=whole, comma-separated; reports - or [VARIANT:]KIND=N|any[@FUNC|...], comma-separated, KIND one of '"$REPORT_KINDS_WANT"', @ only for warn and kcsan; a suite only once)'
echo 'zeta 1 some test default - -' >> "$T/suites"
verdict "a malformed maxskip in the table is an error naming the line" 2 \
	"usertaint: error: $T/suites:7: $FORM: zeta 1 some test default - -" -- default true
cp "$T/suites.good" "$T/suites"
echo 'zeta 1 0 test default - oops=1@f' >> "$T/suites"
verdict "a reports column with a function for a kind that has none is an error" 2 \
	"usertaint: error: $T/suites:7: $FORM: zeta 1 0 test default - oops=1@f" -- default true
cp "$T/suites.good" "$T/suites"

# "include GLOB": the "# suite: " rows of the files, in name order, each
# known by its FILE:LINE; a file without one is an error.
mkdir -p "$T/scen"
printf '%s\n' '# a scenario' '# suite: scenario-b 1 0 scenario default - warn=1' > "$T/scen/b.sh"
printf '%s\n' '# suite: scenario-a 2 0 scenario default - -' > "$T/scen/a.sh"
echo "include $T/scen/*.sh" >> "$T/suites"
rows() {	# rows: "suite:where ..." of the table, or its error; exit status
	(
		export UT_SUITES=$T/suites
		. "$ROOT/scripts/lib.sh"
		suites_rows | awk '{ printf "%s:%s ", $1, $8 }'
		exit "${PIPESTATUS[0]}"
	) 2>&1
}
want="alpha:$T/suites:2 beta:$T/suites:3 gamma:$T/suites:4 delta:$T/suites:5 kt:$T/suites:6 scenario-a:$T/scen/a.sh:1 scenario-b:$T/scen/b.sh:2 "
got=$(rows)
t "include: the rows of the files, in name order, with where they are" test "$got" = "$want"
echo '# no row' > "$T/scen/c.sh"
got=$(rows); rc=$?
t "include: a file without a row is an error" test "$rc" != 0 -a \
	"$got" = "usertaint: error: $T/scen/c.sh (included by $T/suites:7) has no \"# suite: \" row"
cp "$T/suites.good" "$T/suites"

# scenario_tap: a scenario's checks become TAP through tap.sh, counted by
# tap_count into the suite; a failed check's detail becomes "# " lines; a
# boot that ran leaves the .booted mark; the scenario's own locals (n here)
# do not disturb the count.
scen_tap() {	# scen_tap BOOTED-VALUE: FAIL/PASS lines and the summary
	(
		LOGS=$T/logs
		mkdir -p "$LOGS"
		rm -f "$LOGS/scenario-x.booted"
		. "$ROOT/scripts/lib.sh"
		# shellcheck source=SCRIPTDIR/../count.sh
		. "$COUNT_SH"
		# shellcheck source=SCRIPTDIR/../scenarios.sh
		. "$ROOT/scripts/test/scenarios.sh"
		booted=$1
		scenario_check() {
			local n=7
			BOOTED=$booted
			check "sanity: a check that holds" "never shown" true
			check "a check that fails" "the detail" false
			check "another that holds ($n)" "" test "$n" = 7
		}
		SUITE=scenario-x scenario_tap 4> "$LOGS/scenario-x.tap"
		tap_count scenario-x "$LOGS/scenario-x.tap"
		[ -e "$LOGS/scenario-x.booted" ] && echo "booted mark"
		count_summary
	) 2>&1
}
out=$(scen_tap 1)
t "scenario_tap: each check one TAP result, counted in the suite" \
	test "$(tail -n 1 <<< "$out")" = "2 passed, 1 failed, 0 skipped"
t "scenario_tap: the failure named under the suite, its detail in the TAP" \
	eval 'grep -qx "FAIL scenario-x: a check that fails" <<< "$out" &&
		grep -qx "# the detail" "$T/logs/scenario-x.tap" &&
		grep -qx "1..3" "$T/logs/scenario-x.tap"'
t "scenario_tap: a scenario's local n does not change the plan or names" \
	grep -qx "PASS scenario-x: another that holds (7)" <<< "$out"
t "scenario_tap: a boot that ran leaves its mark" grep -qx "booted mark" <<< "$out"
out=$(scen_tap 0)
t "scenario_tap: a boot that did not run leaves none" eval '! grep -q "booted mark" <<< "$out"'

# The skip rule is one: make check (taintctl/tests/tap_run.sh, which runs
# each program there) finds the same skips as tap_count, with the same
# reasons, and fails on a skip that SKIP_OK does not name.
# agree NAME SKIP_OK RC REASON... -- TAP-LINE...: tap_run.sh on a program
# printing TAP-LINE... (tests/prog), with SKIP_OK, exits RC; tap_count
# counts as many skips as tap_run.sh names, and both give each REASON.
TAP_RUN=${UT_TAP_RUN:-$ROOT/taintctl/tests/tap_run.sh}
agree() {
	local name=$1 skip_ok=$2 want_rc=$3 rc why n_count n_run bad=''
	local -a reasons=()
	shift 3
	while [ "$1" != -- ]; do reasons+=("$1"); shift; done
	shift
	printf '%s\n' "$@" > "$T/prog.tap"
	# the program exits 1 after a not ok without SKIP, as cmocka and tap.sh do
	SKIP_OK=$skip_ok SKIPS_DIR=$T/skips sh "$TAP_RUN" tests/prog sh -c \
		'cat "$1"; ! grep -v "# [Ss][Kk][Ii][Pp]" "$1" | grep "^not ok" >/dev/null' sh "$T/prog.tap" \
		> "$T/run.out" 2> "$T/run.err"
	rc=$?
	(
		# shellcheck source=SCRIPTDIR/../../lib.sh
		. "$ROOT/scripts/lib.sh"
		# shellcheck source=SCRIPTDIR/../count.sh
		. "$COUNT_SH"
		tap_count x "$T/run.out"
	) > "$T/count.out" 2>&1
	n_count=$(grep -c '^SKIP x: ' "$T/count.out")
	n_run=$(cat "$T/skips/prog" 2>/dev/null | wc -l)
	[ "$rc" = "$want_rc" ] || bad+=" exit $rc, not $want_rc;"
	[ "$n_count" = "$n_run" ] || bad+=" tap_count $n_count skips, tap_run.sh $n_run;"
	[ "$n_count" = "${#reasons[@]}" ] || bad+=" ${#reasons[@]} reasons given;"
	for why in "${reasons[@]}"; do
		grep -qF -- "$why" "$T/count.out" || bad+=" tap_count lacks '$why';"
		grep -qF -- "$why" "$T/skips/prog" || bad+=" tap_run.sh lacks '$why';"
		[ -n "$skip_ok" ] || grep -qF -- "$why" "$T/run.err" ||
			bad+=" tap_run.sh did not say '$why' on stderr;"
	done
	if [ -z "$bad" ]; then
		ok "make check agrees: $name"
	else
		not_ok "make check agrees: $name"
		echo "#  $bad"
		sed 's/^/#   run | /' "$T/run.out" "$T/run.err"
		sed 's/^/#   count | /' "$T/count.out"
	fi
	rm -rf "$T/skips"
}
agree "no skip: exit 0" '' 0 -- 1..2 'ok 1 a' 'ok 2 b'
agree "a failure: the program's status" '' 1 -- 1..2 'ok 1 a' 'not ok 2 b'
agree "cmocka's skip, not allowed: exit 1, named with its reason" '' 1 'no AVX2 on this CPU' -- \
	1..2 'ok 1 a' '# skip: no AVX2 on this CPU' 'not ok 2 # SKIP test_avx2'
agree "cmocka's skip, allowed by PROGRAM:TEST" 'other prog:test_avx2' 0 'no AVX2 on this CPU' -- \
	1..2 'ok 1 a' '# skip: no AVX2 on this CPU' 'not ok 2 # SKIP test_avx2'
agree "cmocka's skip without a reason: said so" 'prog' 0 'no reason given' -- \
	1..1 'not ok 1 # SKIP test_x'
agree "tap.sh's skips, one not allowed: exit 1" 'prog:one' 1 'not root' 'no unshare' -- \
	1..3 'ok 1 - one # SKIP not root' 'ok 2 - two # skip no unshare' 'ok 3 - three'
agree "a whole-program skip: exit 1 unless allowed" '' 1 'no corpus here' -- '1..0 # SKIP no corpus here'
agree "... allowed by PROGRAM" 'pro?' 0 'no corpus here' -- '1..0 # SKIP no corpus here'

# expect_reports: one result for a console's kernel reports against the
# reports columns. reports NAME RC DETAIL-RE -- VARIANT REPORTS...: the
# console is $T/console; RC the exit of count_summary after it; the FAIL
# line (if any) must match DETAIL-RE.
reports() {
	local name=$1 want_rc=$2 re=$3 rc out=$T/rout
	shift 4
	(
		. "$ROOT/scripts/lib.sh"
		# shellcheck source=SCRIPTDIR/../count.sh
		. "$COUNT_SH"
		COUNT_VARIANT=$1
		shift
		expect_reports boot "$T/console" "$@"
		count_summary
	) > "$out" 2>&1
	rc=$?
	if [ "$rc" = "$want_rc" ] && { [ -z "$re" ] || grep -qE -- "$re" "$out"; }; then
		ok "reports: $name"
	else
		not_ok "reports: $name"
		echo "#   want exit $want_rc${re:+, a line matching '$re'}; got exit $rc"
		sed 's/^/#   | /' "$out"
	fi
}
console() { printf '%s\n' "$@" > "$T/console"; }
W_F='[    1.000000] WARNING: CPU: 0 PID: 1 at kernel/x.c:12 f+0x1/0x20'
W_G='WARNING: CPU: 1 PID: 9 at lib/y.c:3 g.constprop.0+0x5/0x9 [mod]'
CT='Call Trace:'
console "$W_F" "$CT" 'ok' "$W_G" "$CT"
reports "the kinds and counts asked for pass" 0 '^PASS boot: no unexpected' -- default 'warn=2@f|g,trace=2'
reports "one warning too many fails, counted" 1 '^FAIL boot: kernel reports: .*warn: 2, not 1' -- default 'warn=1,trace=2'
reports "a kind not asked for fails" 1 '^FAIL boot: kernel reports: .*trace: 2, not 0' -- default 'warn=2'
reports "a warning in another function fails, named" 1 'a warn report not in f: WARNING: CPU: 1 PID: 9 at lib/y.c:3 g' \
	-- default 'warn=2@f,trace=2'
reports "the columns of the suites of one boot add up" 0 '' -- default 'warn=1@f,trace=1' '-' 'warn=1@g,trace=1'
reports "a variant's count replaces the general one on that variant" 0 '' -- debug 'warn=1,trace=1,debug:warn=2,debug:trace=2'
reports "... and only there" 1 'warn: 2, not 1' -- default 'warn=1,trace=1,debug:warn=2,debug:trace=2'
console 'BUG: KCSAN: data-race in timekeeping_cycles_to_ns+0x7f/0xa0' 'BUG: kernel NULL pointer dereference' 'Oops: 0002' "$CT"
reports "KCSAN is its own kind, not bug; any allows it" 0 '' -- default 'kcsan=any@timekeeping_cycles_to_ns,bug=1,oops=1,trace=1'
reports "a KCSAN report in another function fails" 1 'a kcsan report not in other' -- default 'kcsan=any@other,bug=1,oops=1,trace=1'
console 'nothing to see'
reports "any allows none" 0 '' -- default 'kcsan=any'
console 'Kernel panic - not syncing: x'
reports "a report on a boot that asks for none fails" 1 'panic: 1, not 0' -- default '-'

tap_done
