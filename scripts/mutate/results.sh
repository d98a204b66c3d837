# SPDX-License-Identifier: GPL-2.0
# The tally of a mutation run, for scripts/mutate/mutate.sh (the kernel series)
# and scripts/mutate/mutate-lib.sh (libtaint and taintctl). Sourced, not run.
# shellcheck shell=bash disable=SC2034	# the counts are for the scripts that source this

fmt_time() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

# results_begin FILE: counts to zero, FILE the results table (TSV).
results_begin() {
	KILLED=0 SURVIVED=0 ERRORS=0
	RESULTS=$1
	printf '# mutant\tresult\tseconds\tkilled by\tbreaks\n' > "$RESULTS"
}

# results_add NAME RESULT SECONDS BY BREAKS: count one mutant's result
# (killed, survived, or anything else: an error) and add its row.
results_add() {
	case $2 in
	killed) KILLED=$((KILLED + 1)) ;;
	survived) SURVIVED=$((SURVIVED + 1)) ;;
	*) ERRORS=$((ERRORS + 1)) ;;
	esac
	printf '%s\t%s\t%d\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >> "$RESULTS"
}

# results_splice DOC MARK FILE: replace what stands between DOC's lines
# "<!-- MARK:begin -->" and "<!-- MARK:end -->" with FILE.
results_splice() {
	awk -v f="$3" -v b="<!-- $2:begin -->" -v e="<!-- $2:end -->" '
		$0 == e { while ((getline l < f) > 0) print l; skip = 0 }
		!skip { print }
		$0 == b { skip = 1 }' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
}

# results_end: the closing lines; true if every mutant was killed.
results_end() {
	[ "$ERRORS" -eq 0 ] || echo "$ERRORS mutants could not be judged (error)"
	echo "$KILLED killed, $SURVIVED survived"
	[ "$SURVIVED" -eq 0 ] && [ "$ERRORS" -eq 0 ]
}
