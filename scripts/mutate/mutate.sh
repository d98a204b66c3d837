#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make mutate: do the tests fail when the series is wrong? Applies each
# deliberate fault of scripts/mutate/mutants ("mutant") alone to a worktree of the
# kernel tree's usertaint branch, rebuilds the kernel incrementally, builds
# an initramfs for it and runs the guest suites of scripts/test/suites on it, one
# boot at a time, until one fails. A mutant runs on the kernel variant its
# "variant" line names (default: the make test kernel; debug: make
# test-debug's, lockdep, KASAN...; kcsan: make test-kcsan's), with that
# variant's suites (scripts/test/test.sh VARIANT). A mutant is "killed" when
# some test failed, "survived" when all passed. Ends with
# "N killed, N survived"; exits non-zero if any survived (or on an error).
#
# First the unmutated series must pass the same suites, on every variant
# the mutants to run name: if it does not, no mutant can be judged, and it
# stops there (exit 2).
#
# Usage: mutate.sh [NAME...]    only these mutants (default: all, in order)
# Environment:
#   UT_MUTATE_ALL=1     run every suite on every mutant and name all that
#                       fail, instead of stopping at the first failing boot
#   UT_MUTATE_REF=REF   the commit of build/linux to mutate (default usertaint)
#   UT_MUTATE_SKIP_BASELINE=1  do not run the unmutated series first
#   UT_MUTANTS=FILE     another list of mutants (default scripts/mutate/mutants)
#
# Never touches build/linux's checkout or build/kbuild-*: everything
# is under build/mutate (the scripts run with UT_BUILD=build/mutate and
# UT_NO_PREPARE=1): the worktree build/mutate/linux, checked out at REF at
# each run, the kernels in build/mutate/kbuild-VARIANT (tinyconfig +
# configs/usertaint.config, + configs/VARIANT.config but for default), the
# initramfs, test module, kselftests and reliability programs next to it. The same relative
# paths as build/linux and build/kbuild-default give ccache hits from the
# main build. Logs: build/logs/mutate/<mutant>/<boot>/, the results in
# build/logs/mutate/results.tsv. A run over every mutant of the default
# list rewrites the results table of docs/mutate.md.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR
. "$(dirname "$0")/../lib.sh"
# shellcheck source=SCRIPTDIR/results.sh
. "$(dirname "$0")/results.sh"

MB=$BUILD/mutate	# UT_BUILD of the scripts this one runs
WT=$MB/linux		# the worktree
MLOGS=$BUILD/logs/mutate
MUTANTS=${UT_MUTANTS:-$ROOT/scripts/mutate/mutants}
REF=${UT_MUTATE_REF:-usertaint}
DOC=$ROOT/docs/mutate.md

# mutants CMD ARGS: parse scripts/mutate/mutants (format in its header) and
#   list                 print "name<TAB>variant<TAB>breaks" for every mutant
#   check TREE NAME...   report every named mutant that does not apply to TREE
#   apply TREE NAME      apply one mutant to TREE's files
# (scripts/mutate/mutants.py, shared with scripts/mutate/mutate-lib.sh)
mutants() { python3 "$ROOT/scripts/mutate/mutants.py" "$MUTANTS" "$@"; }

# is_worktree: $WT is a worktree of $KSRC's repository, its top level (git -C
# on anything else would find the repository around it: /work/main's own).
is_worktree() {
	[ -e "$WT/.git" ] &&
		[ "$(git -C "$WT" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$WT" && pwd -P)" ] &&
		[ "$(cd "$(git -C "$WT" rev-parse --git-common-dir)" && pwd -P)" = "$(cd "$KSRC/.git" && pwd -P)" ]
}
# The worktree, back to what REF has (also after an interrupted run).
revert() { is_worktree && git -C "$WT" checkout -q -f -- .; }

# boot_groups VARIANT: the guest boots of scripts/test/suites for VARIANT, in
# table order, as UT_ONLY patterns: "kunit", "test" (the test boot's
# suites), and each scenario and reliability suite by name.
boot_groups() {
	suites_rows | awk -v v="$1" '
		$4 == "host" { next }
		$5 != "all" && ("," $5 ",") !~ ("," v ",") { next }
		{ g = ($4 == "kunit" || $4 == "test") ? $4 : $1 }
		!seen[g]++ { print g }'
}

# build NAME VARIANT: kernel and initramfs of VARIANT for the worktree as
# it is; sets KERNEL and INITRD; logs in $MLOGS/NAME/build.log. Fails if
# either does not build.
build() {
	local log=$MLOGS/$1/build.log
	KERNEL=$(UT_BUILD=$MB UT_NO_PREPARE=1 "$ROOT/scripts/build/kernel.sh" "$2" 2>>"$log") &&
		INITRD=$(UT_BUILD=$MB UT_NO_PREPARE=1 "$ROOT/scripts/build/initramfs.sh" "$2" 2>>"$log")
}

# run_boots NAME ALL VARIANT: each boot group of VARIANT on KERNEL and
# INITRD (scripts/test/test.sh VARIANT), until one fails (ALL=1: all of them).
# Sets FAILED_BY ("group: first failing test; ..."), HARNESS_ERR (a group
# that ended without its summary line).
run_boots() {
	local name=$1 all=$2 variant=$3 g out first nfail t groups
	FAILED_BY='' HARNESS_ERR=''
	read -ra groups <<< "${GROUPS_OF[$variant]}"
	for g in "${groups[@]}"; do
		out=$MLOGS/$name/$g.out t=$(date +%s)
		UT_BUILD=$MB UT_KERNEL=$KERNEL UT_INITRD=$INITRD UT_LOGS=$MLOGS/$name/$g UT_ONLY=$g \
			"$ROOT/scripts/test/test.sh" "$variant" > "$out" 2>&1
		nfail=$(sed -n 's/^[0-9]* passed, \([0-9]*\) failed, [0-9]* skipped$/\1/p' "$out" | tail -n 1)
		printf '%s %s s: %s\n' "$g" $(($(date +%s) - t)) "$(tail -n 1 "$out")" >> "$MLOGS/$name/boots.txt"
		[ "${name#unmutated}" = "$name" ] || say "mutate: $name: $g: $(tail -n 1 "$out") ($(($(date +%s) - t)) s)"
		if [ -z "$nfail" ]; then
			HARNESS_ERR+="${HARNESS_ERR:+; }$g: test.sh ended without a summary (see $out)"
			[ "$all" = 1 ] && continue
			return
		fi
		[ "$nfail" -gt 0 ] || continue
		first=$(sed -n 's/^FAIL //p' "$out")
		first=${first%%$'\n'*}
		first=${first#"$g: "}
		[ ${#first} -le 160 ] || first=${first:0:157}...
		FAILED_BY+="${FAILED_BY:+; }$g: $first${nfail:+ ($nfail failed)}"
		[ "$all" = 1 ] || return
	done
}

exec 9> "$BUILD/.mutate.lock"
flock -n 9 || die "another make mutate is running (lock $BUILD/.mutate.lock)"

"$ROOT/scripts/build/deps.sh" all || exit 2
# The tree is only made if it is missing: a tree that exists is mutated as
# its branch REF is committed, whatever is checked out or being edited.
[ -d "$KSRC/.git" ] || "$ROOT/scripts/build/tree.sh" prepare >&2 || exit 2
commit=$(git -C "$KSRC" rev-parse -q --verify "$REF^{commit}") ||
	die "no commit '$REF' in $KSRC (UT_MUTATE_REF)"

# Every mutant asked for must exist (and the list must parse).
mapfile -t ALL_NAMES < <(mutants list | cut -f1)
[ ${#ALL_NAMES[@]} -gt 0 ] || exit 2
if [ $# -gt 0 ]; then NAMES=("$@"); else NAMES=("${ALL_NAMES[@]}"); fi
declare -A BREAKS=() VARIANT_OF=()
while IFS=$'\t' read -r n v b; do BREAKS[$n]=$b VARIANT_OF[$n]=$v; done < <(mutants list)
# The variants the mutants to run need, default first, each once.
VARIANTS=()
for n in "${NAMES[@]}"; do
	[ -n "${BREAKS[$n]:-}" ] || die "no mutant '$n' in $MUTANTS (make mutate lists them: ${ALL_NAMES[*]})"
	v=${VARIANT_OF[$n]}
	[ "$v" = default ] || [ -f "$ROOT/configs/$v.config" ] ||
		die "mutant $n: no kernel variant '$v' (configs/$v.config)"
	[[ " ${VARIANTS[*]} " == *" $v "* ]] || VARIANTS+=("$v")
done
mapfile -t VARIANTS < <(printf '%s\n' "${VARIANTS[@]}" | awk '$0 == "default" { print; next } { o[++k] = $0 } END { for (i = 1; i <= k; i++) print o[i] }')

# The worktree at REF, nothing changed in it.
if ! is_worktree; then
	[ ! -e "$WT" ] || die "$WT is there but is not a worktree of $KSRC: remove it"
	git -C "$KSRC" worktree prune
	say "mutate: making the worktree $WT"
	mkdir -p "$MB"
	git -C "$KSRC" worktree add -q --detach "$WT" "$commit" > /dev/null 2>&1 ||
		die "cannot make a worktree of $KSRC at $WT"
	is_worktree || die "$WT is not the worktree of $KSRC that was just made"
fi
git -C "$WT" checkout -q -f --detach "$commit" || die "cannot check out $commit in $WT"
revert
trap revert EXIT
trap 'exit 130' INT TERM

# Every mutant must apply before anything is built.
mutants check "$WT" "${NAMES[@]}" ||
	die "the series changed under these mutants: update them in ${MUTANTS#"$ROOT"/}"

declare -A GROUPS_OF=()
for v in "${VARIANTS[@]}"; do
	GROUPS_OF[$v]=$(boot_groups "$v" | tr '\n' ' ')
	[ -n "${GROUPS_OF[$v]// /}" ] || die "no guest suites for variant $v in $SUITE_TABLE"
done
ALLRUN=${UT_MUTATE_ALL:-0}
mkdir -p "$MLOGS"
T0=$(date +%s)
say "mutate: ${#NAMES[@]} mutants on $REF ($(git -C "$KSRC" log -1 --format='%h %s' "$commit"))"
for v in "${VARIANTS[@]}"; do say "mutate: boots of variant $v: ${GROUPS_OF[$v]}"; done


# The unmutated series, on each variant: logs in unmutated (default) and
# unmutated-VARIANT.
if [ "${UT_MUTATE_SKIP_BASELINE:-0}" != 1 ]; then
	t=$(date +%s)
	for v in "${VARIANTS[@]}"; do
		u=unmutated
		[ "$v" = default ] || u=unmutated-$v
		rm -rf "${MLOGS:?}/$u"; mkdir -p "$MLOGS/$u"
		if ! build "$u" "$v"; then
			grep -v '^$' "$MLOGS/$u/build.log" | tail -n 5 >&2
			die "the unmutated series does not build as variant $v (see $MLOGS/$u/build.log)"
		fi
		run_boots "$u" 1 "$v"
		if [ -n "$FAILED_BY$HARNESS_ERR" ]; then
			say "mutate: the unmutated series fails the suites of variant $v, so no mutant can be judged:"
			printf '  %s\n' "${FAILED_BY:-}" "${HARNESS_ERR:-}" | sed '/^  $/d' >&2
			say "mutate: logs in $MLOGS/$u"
			exit 2
		fi
	done
	BASE_SECS=$(( $(date +%s) - t ))
	say "mutate: the unmutated series passes every boot (variants ${VARIANTS[*]}; $(fmt_time "$BASE_SECS"))"
fi

i=0
results_begin "$MLOGS/results.tsv"
for n in "${NAMES[@]}"; do
	i=$((i + 1))
	rm -rf "${MLOGS:?}/$n"; mkdir -p "$MLOGS/$n"
	t=$(date +%s)
	revert
	if ! mutants apply "$WT" "$n" 2> "$MLOGS/$n/apply.log"; then
		result=error by="does not apply: $(tail -n 1 "$MLOGS/$n/apply.log")"
	elif git -C "$WT" diff --quiet; then
		result=error by="applied, but changed nothing"
	else
		git -C "$WT" diff > "$MLOGS/$n/mutant.diff"
		if ! build "$n" "${VARIANT_OF[$n]}"; then
			result=error by="does not build (see $MLOGS/$n/build.log)"
		else
			run_boots "$n" "$ALLRUN" "${VARIANT_OF[$n]}"
			if [ -n "$FAILED_BY" ]; then
				result=killed by=$FAILED_BY
			elif [ -n "$HARNESS_ERR" ]; then
				result=error by=$HARNESS_ERR
			else
				result=survived by="no test failed"
			fi
		fi
	fi
	revert
	secs=$(( $(date +%s) - t ))
	results_add "$n" "$result" "$secs" "$by" "${BREAKS[$n]}"
	printf '[%2d/%d] %-26s %-7s %-8s %6s  %s\n' "$i" "${#NAMES[@]}" "$n" "${VARIANT_OF[$n]}" "$result" "$(fmt_time "$secs")" "$by"
done
revert
T1=$(date +%s)

# A full run of the default list is the record in docs/mutate.md.
if [ $# -eq 0 ] && [ -z "${UT_MUTANTS:-}" ] && [ "$ERRORS" -eq 0 ] && [ -f "$DOC" ] &&
	grep -q '^<!-- mutate:begin -->$' "$DOC" && grep -q '^<!-- mutate:end -->$' "$DOC"; then
	{
		echo "Latest run (\`make mutate\`): $REF," \
			"$(nproc) CPUs, $(fmt_time $((T1 - T0))) in all${BASE_SECS:+ (the unmutated series: $(fmt_time "$BASE_SECS"), every boot passed)}," \
			"$([ "$ALLRUN" = 1 ] && echo "every boot on every mutant" || echo "each mutant until its first failing boot"):" \
			"**$KILLED killed, $SURVIVED survived**."
		echo
		echo "| mutant | what it breaks | killed by (boot: first failing test) | time |"
		echo "|---|---|---|---|"
		grep -v '^#' "$RESULTS" | while IFS=$'\t' read -r n r s b w; do
			[ "$r" = killed ] || b="**$r**${b:+: $b}"
			b=${b//|/\\|} w=${w//|/\\|}
			v=${VARIANT_OF[$n]}
			if [ "$v" = default ]; then v=''; else v=" ($v kernel)"; fi
			# shellcheck disable=SC2016	# the backquotes are Markdown
			printf '| `%s`%s | %s | %s | %s |\n' "$n" "$v" "$w" "$b" "$(fmt_time "$s")"
		done
	} > "$MLOGS/results.md"
	results_splice "$DOC" mutate "$MLOGS/results.md"
	say "mutate: results written to ${DOC#"$ROOT"/}"
fi

say "mutate: $(fmt_time $((T1 - T0))) in all; results in $RESULTS, logs in $MLOGS/<mutant>/"
results_end
