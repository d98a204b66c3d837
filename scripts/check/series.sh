#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Series hygiene, as TAP: every patch in patches/ is checkpatch --strict
# clean; with --build, every commit of the series also builds (kernel and
# kselftests), one after the other, in the editable tree.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"

build=0
[ "${1:-}" = --build ] && build=1
"$ROOT/scripts/build/tree.sh" prepare >&2 || exit 1
# spdxcheck.py wants Debian's python3 (with python3-ply).
export PATH=/usr/bin:$PATH

mapfile -t pfiles < <(grep -v -e '^#' -e '^[[:space:]]*$' "$ROOT/patches/series")
commits=()
[ $build = 1 ] && mapfile -t commits < <(git -C "$KSRC" rev-list --reverse pristine..HEAD)
# shellcheck source=../../taintctl/tests/tap.sh
. "$ROOT/taintctl/tests/tap.sh"
for p in "${pfiles[@]}"; do
	out=$(cd "$KSRC" && perl scripts/checkpatch.pl --strict --terse -q "$ROOT/patches/$p" 2>/dev/null)
	if grep -q '^total: 0 errors, 0 warnings, 0 checks' <<< "$out"; then
		ok "checkpatch --strict $p"
	else
		not_ok "checkpatch --strict $p"
		printf '%s\n' "$out" | sed 's/^/# /'
	fi
done

if [ $build = 1 ]; then
	[ -z "$(git -C "$KSRC" status --porcelain --untracked-files=no)" ] ||
		die "the tree has uncommitted changes: commit or stash them first"
	branch=$(git -C "$KSRC" rev-parse --abbrev-ref HEAD)
	for c in "${commits[@]}"; do
		subj=$(git -C "$KSRC" log -1 --format=%s "$c")
		git -C "$KSRC" checkout -q "$c"
		st=$BUILD/selftests-series
		mkdir -p "$st"
		if UT_LAX_CONFIG=1 UT_NO_PREPARE=1 "$ROOT/scripts/build/kernel.sh" >/dev/null 2>"$BUILD/series-build.err" &&
		   { [ ! -d "$KSRC/tools/testing/selftests/taint" ] ||
		     make -s -C "$KSRC/tools/testing/selftests/taint" OUTPUT="$st" >/dev/null 2>>"$BUILD/series-build.err"; } &&
		   ! grep -qE 'warning:|error:' "$BUILD/series-build.err"; then
			ok "builds: $subj"
		else
			not_ok "builds: $subj"
			sed 's/^/# /' "$BUILD/series-build.err" | tail -20
		fi
	done
	git -C "$KSRC" checkout -q "$branch"
fi
tap_done
