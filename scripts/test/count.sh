# SPDX-License-Identifier: GPL-2.0
# The counting of scripts/test/test.sh: the suite table for a variant and
# UT_ONLY, the results of every suite (record, check, tap_count,
# guest_suites), the check of every suite against the table (check_suites)
# and the summary line. Sourced, after lib.sh, with LOGS set (a directory
# for the TAP files and suites.txt); nothing here boots or builds, so
# scripts/test/selftest/counting.sh drives it with made-up tables (UT_SUITES)
# and made-up TAP.
#
#   count_table VARIANT   read the table: SUITE_ORDER, MIN, RUN, ...; runs
#                         and wants tell what is selected
#   record, check, tap_count, guest_suites    count results
#   check_suites          every selected suite against its row
#   count_summary         "failed:" list and "N passed, N failed, N
#                         skipped"; returns non-zero if any failed
#   expect_reports NAME LOG REPORTS...   the kernel reports on a console
#                         against the reports columns of the suites that
#                         ran on that boot
# shellcheck shell=bash disable=SC2034	# the tables are for the scripts that source this

PASS=0 FAIL=0 SKIP=0
FAILED=()

# count_table VARIANT: the suite table, for this variant and UT_ONLY:
# SUITE_ORDER in table order, MIN/RUN/REPORTS/WHERE (its row's FILE:LINE)
# per suite; KNOWN: every suite of the table (any variant); MAXSKIP: every
# suite's bound of skips for this variant (a number, or "whole": may skip
# as a whole). COUNT_VARIANT: the variant.
declare -A MIN=() RUN=() KNOWN=() COUNT=() SEEN=() WHOLESKIP=() TAPFILE=()
declare -A MAXSKIP=() SKIPS=() REPORTS=() WHERE=()
SUITE_ORDER=()
declare -A only_used=()
only=
selected() {	# selected NAME RUN: UT_ONLY is empty or matches NAME or RUN
	local p
	[ -z "$only" ] && return 0
	for p in $only; do
		# shellcheck disable=SC2053	# $p is a pattern
		if [[ $1 == $p ]] || [[ $2 == $p ]]; then only_used[$p]=1; return 0; fi
	done
	return 1
}
count_table() {
	local variant=$1 rows name min maxskip run variants reports where p
	COUNT_VARIANT=$variant
	rows=$(suites_rows) || exit 2
	only=${UT_ONLY:-}
	only=${only//,/ }
	set -f	# UT_ONLY's patterns are matched by selected(), not by the shell
	while read -r name min maxskip run variants _ reports where; do
		KNOWN[$name]=1 MAXSKIP[$name]=$(maxskip_for "$maxskip" "$variant")
		REPORTS[$name]=$reports WHERE[$name]=$where
		[ "$variants" = all ] || [[ ,$variants, == *,"$variant",* ]] || continue
		selected "$name" "$run" || continue
		SUITE_ORDER+=("$name") MIN[$name]=$min RUN[$name]=$run
	done <<< "$rows"
	for p in $only; do
		[ -n "${only_used[$p]:-}" ] ||
			die "UT_ONLY: '$p' matches no suite of variant $variant in $SUITE_TABLE (nor a run column: host, kunit, test, scenario, reliability)"
	done
	set +f
	[ -z "$only" ] || say "UT_ONLY=$UT_ONLY: ${SUITE_ORDER[*]}"
}
# runs RUN: some selected suite runs that way
runs() { local s; for s in "${SUITE_ORDER[@]}"; do [ "${RUN[$s]}" = "$1" ] && return 0; done; return 1; }
wants() { [ -n "${MIN[$1]:-}" ]; }	# wants SUITE: the suite is selected

# Every result recorded while SUITE is set counts for that suite (a skip
# also in SKIPS); the harness's own checks (kernel reports, hung boots,
# plans) run with SUITE=.
SUITE=
record() {	# record pass|fail|skip NAME [DETAIL]
	[ -z "$SUITE" ] || COUNT[$SUITE]=$(( ${COUNT[$SUITE]:-0} + 1 ))
	[ -z "$SUITE" ] || [ "$1" != skip ] || SKIPS[$SUITE]=$(( ${SKIPS[$SUITE]:-0} + 1 ))
	case $1 in
	pass) PASS=$((PASS + 1)); printf 'PASS %s\n' "$2" ;;
	skip) SKIP=$((SKIP + 1)); printf 'SKIP %s%s\n' "$2" "${3:+: $3}" ;;
	*)    FAIL=$((FAIL + 1)); FAILED+=("$2"); printf 'FAIL %s%s\n' "$2" "${3:+: $3}" ;;
	esac
}
check() {	# check NAME DETAIL-IF-FAILED COMMAND...
	local name=$1 detail=$2
	shift 2
	if "$@"; then record pass "$name"; else record fail "$name" "$detail"; fi
}

# tap_count LABEL FILE: count the TAP results in FILE ("ok", "not ok",
# "# SKIP"; leading spaces stripped only with INDENT=N) for suite LABEL. A
# plan that does not match the number of results counts as one more
# failure. The skip rule is make check's (taintctl/tests/tap_run.sh,
# taintctl/tests/README): a result with a SKIP directive is a skip, "ok"
# or "not ok" (cmocka 1.1.5's skip() prints "not ok N # SKIP NAME", its
# reason on a "# skip: WHY" line before it). A program that skipped as a
# whole ("1..0 # SKIP why") counts one skip here, and, where the suite's
# maxskip is "whole", as the suite's minimum of skips in check_suites
# (elsewhere it fails there); it is named by the "# <program>" line before
# it, if any.
tap_count() {
	local label=$1 file=$2 indent=${INDENT:-0} line name st prog="" why
	local planned=0 seen=0 pad SUITE=$1 notok desc skipwhy=""
	local re_skip='^(.*) # [Ss][Kk][Ii][Pp]( (.*))?$'
	TAPFILE[$label]=$file
	pad=$(printf '%*s' "$indent" '')
	while IFS= read -r line; do
		line=${line%$'\r'}
		[ "$indent" -gt 0 ] && { [[ $line == "$pad"[!\ ]* ]] || continue; line=${line#"$pad"}; }
		if [[ $line =~ ^#\ ([^\ ]+)$ ]]; then
			prog=${BASH_REMATCH[1]##*/}
		elif [[ $line =~ ^1\.\.0([^0-9]|$) ]]; then
			SEEN[$label]=1 WHOLESKIP[$label]=1
			why="no reason given"
			[[ $line =~ \#\ *[Ss][Kk][Ii][Pp]\ *(.*)$ ]] && why=${BASH_REMATCH[1]}
			record skip "$label${prog:+: $prog}" "skipped as a whole: $why"
		elif [[ $line =~ ^1\.\.([0-9]+) ]]; then
			planned=$((planned + BASH_REMATCH[1]))
			SEEN[$label]=1
		elif [[ $line =~ ^#\ skip:\ (.*)$ ]]; then
			skipwhy=${BASH_REMATCH[1]}
		elif [[ $line =~ ^(not\ )?ok(\ [0-9]+)?(\ -)?\ (.*)$ ]]; then
			seen=$((seen + 1))
			SEEN[$label]=1
			notok=${BASH_REMATCH[1]} desc=${BASH_REMATCH[4]}
			if [[ " $desc" =~ $re_skip ]]; then
				name=${BASH_REMATCH[1]# } why=${BASH_REMATCH[3]}
				# cmocka's: the name after SKIP, the reason before
				[ -n "$name" ] || { name=$why; why=$skipwhy; }
				record skip "$label: $name" "${why:-no reason given}"
			else
				name="$label: $desc"
				st=pass
				[ -z "$notok" ] || st=fail
				case $name in
				*" # "*) record $st "${name%% # *}" "${name#* # }" ;;
				*) record $st "$name" ;;
				esac
			fi
			skipwhy=
		fi
	done < "$file"
	if [ "$planned" -gt 0 ] && [ "$planned" -ne "$seen" ]; then
		SUITE='' record fail "$label: plan" "planned $planned, ran $seen (see $file)"
	fi
}

# skips_over SUITE: SUITE skipped as a whole where its maxskip is not
# "whole", or skipped more than its maxskip: a failure naming it (then
# returns 0).
skips_over() {
	local s=$1 k=${SKIPS[$1]:-0} b=${MAXSKIP[$1]} why=${TAPFILE[$1]:+ (see ${TAPFILE[$1]})}
	if [ -n "${WHOLESKIP[$s]:-}" ] && [ "$b" != whole ]; then
		record fail "suite $s" "skipped as a whole; its maxskip in ${SUITE_TABLE#"$ROOT"/} is $b, not whole$why"
	elif [ "$b" != whole ] && [ "$k" -gt "$b" ]; then
		record fail "suite $s" "$k skipped; ${SUITE_TABLE#"$ROOT"/} allows at most $b$why"
	else
		return 1
	fi
}

# check_suites: every selected suite ran and reported at least its minimum
# of results, and no more skips than its maxskip (for this variant)
# allows; a suite skipped as a whole only where its maxskip is "whole";
# every suite that ran is in the table, and keeps to its maxskip even if
# it was not selected (UT_ONLY, another variant's suite on the same boot).
check_suites() {
	local s n m why ok=0
	printf '# suite results min skipped maxskip (from %s)\n' "${SUITE_TABLE#"$ROOT"/}" > "$LOGS/suites.txt"
	for s in "${SUITE_ORDER[@]}"; do
		n=${COUNT[$s]:-0} m=${MIN[$s]}
		printf '%s %d %d %d %s\n' "$s" "$n" "$m" "${SKIPS[$s]:-0}" "${MAXSKIP[$s]}" >> "$LOGS/suites.txt"
		why=${TAPFILE[$s]:+ (see ${TAPFILE[$s]})}
		if skips_over "$s"; then
			:
		elif [ "$n" -ge "$m" ]; then
			ok=$((ok + 1))
		elif [ -n "${WHOLESKIP[$s]:-}" ]; then
			# Skipped as a whole: the tests it would have run are skips.
			SKIP=$((SKIP + m - n))
			printf 'SKIP %s: %d more tests counted as skipped (skipped as a whole; %s lists at least %d)\n' \
				"$s" $((m - n)) "${SUITE_TABLE#"$ROOT"/}" "$m"
			ok=$((ok + 1))
		elif [ "$n" -eq 0 ] && [ -z "${SEEN[$s]:-}" ]; then
			record fail "suite $s" "did not run; ${SUITE_TABLE#"$ROOT"/} expects at least $m results${BUILD_FAILED:+ ($BUILD_FAILED failed)}$why"
		else
			record fail "suite $s" "$n results; ${SUITE_TABLE#"$ROOT"/} expects at least $m$why"
		fi
	done
	for s in "${!SEEN[@]}"; do
		if [ -z "${KNOWN[$s]:-}" ]; then
			record fail "suite $s" "ran but is not in $SUITE_TABLE: add a row for it"
		elif [ -z "${MIN[$s]:-}" ]; then
			skips_over "$s"
		fi
	done
	say "$ok of ${#SUITE_ORDER[@]} suites of ${SUITE_TABLE#"$ROOT"/} ran with at least their minimum of results and at most their skips (counts: $LOGS/suites.txt)"
}

# The TAP blocks a test boot wrote on ttyS1, one suite each. A suite may
# come in several blocks (guest/test.sh runs the kselftest's first run in
# two parts): their results add up, each block's TAP in its own file
# (NAME.tap, NAME.2.tap, ...) with its own plan.
declare -A BLOCKS=()
guest_suites() {	# guest_suites RESULTS
	local res=$1 name="" rc line tap=""
	while IFS= read -r line; do
		line=${line%$'\r'}
		case $line in
		"##UT-BEGIN "*)
			name=${line#\#\#UT-BEGIN }
			BLOCKS[$name]=$(( ${BLOCKS[$name]:-0} + 1 ))
			tap=$LOGS/$name.tap
			[ "${BLOCKS[$name]}" = 1 ] || tap=$LOGS/$name.${BLOCKS[$name]}.tap
			SEEN[$name]=1; : > "$tap" ;;
		"##UT-END "*)
			rc=${line##*rc=}
			tap_count "$name" "$tap"
			[ "$rc" = 0 ] || [ "$rc" = 4 ] || SUITE='' record fail "$name: exit status" "exited $rc"
			name="" ;;
		*) [ -z "$name" ] || printf '%s\n' "$line" >> "$tap" ;;
		esac
	done < "$res"
	[ -z "$name" ] || SUITE='' record fail "$name" "never finished (guest died or hung; see $res)"
}

# count_summary: the failures, then the summary line; non-zero if any failed.
count_summary() {
	[ ${#FAILED[@]} -eq 0 ] || { printf 'failed:\n'; printf '  %s\n' "${FAILED[@]}"; }
	echo "$PASS passed, $FAIL failed, $SKIP skipped"
	[ "$FAIL" -eq 0 ]
}

# ---- kernel reports on a console -------------------------------------

# report_kind LINE-START -> its KIND: the one of REPORT_KIND_LINES
# (scripts/lib.sh) whose start matches all of LINE-START ("BUG: KCSAN:" is
# kcsan, not bug).
report_kind() {
	local k re
	while read -r k re; do
		[[ $1 =~ ^($re)$ ]] && { echo "$k"; return; }
	done <<< "$REPORT_KIND_LINES"
	echo unknown
}
# plain LOG: the console, printk timestamps and serial CRs stripped.
plain() { sed -E 's/^\[ *[0-9]+\.[0-9]+\] //; s/\r$//' "$1"; }
# report_func KIND LINE: the function a warn or kcsan report names
# (without a compiler suffix such as .constprop.0), or nothing.
report_func() {
	local f=''
	case $1 in
	warn) [[ $2 =~ \ at\ [^\ ]+\ ([^\ +]+)\+ ]] && f=${BASH_REMATCH[1]} ;;
	kcsan) [[ $2 =~ data-race\ in\ ([^\ +]+)\+ ]] && f=${BASH_REMATCH[1]} ;;
	esac
	while [[ $f =~ ^(.+)\.[a-z]+\.[0-9]+$ ]]; do f=${BASH_REMATCH[1]}; done
	printf '%s' "$f"
}

# expect_reports NAME LOG REPORTS...: one result, NAME: the report kinds
# on the console LOG are exactly those the REPORTS columns (of the suites
# that ran on that boot; "-" is none) ask for, for COUNT_VARIANT: the
# counts of different columns add up, "any" allows any count, and where
# a column names functions (warn=3@f|g) every such report is in one.
expect_reports() {
	local name=$1 log=$2 spec it v k c f line kind why='' want_s got_s
	shift 2
	local -A want=() funcs=() got=() one=() onef=()
	for spec in "$@"; do
		[ "$spec" = - ] && continue
		one=() onef=()
		# general items first, then this variant's, which replace them
		for v in '' "$COUNT_VARIANT"; do
			IFS=, read -ra items <<< "$spec"
			for it in "${items[@]}"; do
				if [[ $it == *:* ]]; then
					[ -n "$v" ] && [ "${it%%:*}" = "$v" ] || continue
					it=${it#*:}
				else
					[ -z "$v" ] || continue
				fi
				k=${it%%=*} c=${it#*=} f='*'
				[[ $c == *@* ]] && { f=${c#*@}; c=${c%%@*}; }
				one[$k]=$c onef[$k]=$f
			done
		done
		for k in "${!one[@]}"; do
			if [ "${one[$k]}" = any ] || [ "${want[$k]:-0}" = any ]; then want[$k]=any
			else want[$k]=$(( ${want[$k]:-0} + one[$k] )); fi
			if [ "${onef[$k]}" = '*' ] || [ "${funcs[$k]:-}" = '*' ]; then funcs[$k]='*'
			else funcs[$k]=${funcs[$k]:+${funcs[$k]}|}${onef[$k]}; fi
		done
	done
	while IFS= read -r line; do
		[[ $line =~ $REPORT_RE ]] || continue
		kind=$(report_kind "${BASH_REMATCH[1]}")
		got[$kind]=$(( ${got[$kind]:-0} + 1 ))
		f=${funcs[$kind]:-'*'}
		[ "$f" = '*' ] && continue
		[[ "|$f|" == *"|$(report_func "$kind" "$line")|"* ]] ||
			why+="; a $kind report not in ${f//|/, }: ${line:0:160}"
	done < <(plain "$log")
	local -A seen=()
	for k in "${!want[@]}" "${!got[@]}"; do
		[ -z "${seen[$k]:-}" ] || continue
		seen[$k]=1
		[ "${want[$k]:-0}" = any ] && continue
		[ "${want[$k]:-0}" = "${got[$k]:-0}" ] || why+="; $k: ${got[$k]:-0}, not ${want[$k]:-0}"
	done
	if [ -z "$why" ]; then
		SUITE='' record pass "$name: no unexpected kernel reports"
	else
		want_s=$(for k in "${!want[@]}"; do printf '%s=%s ' "$k" "${want[$k]}"; done)
		got_s=$(for k in "${!got[@]}"; do printf '%s=%s ' "$k" "${got[$k]}"; done)
		SUITE='' record fail "$name: kernel reports" \
			"expected [${want_s% }], console has [${got_s% }]${why} (see $log)"
	fi
}
