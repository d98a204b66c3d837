#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the series adds to vmlinux: scripts/bloat-o-meter, stock vs patched,
# same configuration (configs/usertaint.config + configs/bloat.config).
# Fails if the total grows by more than the budget (default 8192 bytes).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

budget=${BLOAT_BUDGET:-8192}
"$ROOT/scripts/tree.sh" prepare >&2
stock=$BUILD/linux-stock
if [ ! -d "$stock" ]; then
	say "checking out the pristine tree in $stock"
	git -C "$KSRC" worktree add -f --detach "$stock" pristine >/dev/null
fi
git -C "$stock" checkout -q --detach pristine

new=$("$ROOT/scripts/build-kernel.sh" bloat)
old=$(UT_KSRC=$stock UT_LAX_CONFIG=1 "$ROOT/scripts/build-kernel.sh" bloat-stock)
new=$(dirname "$new")/../../../vmlinux
old=$(dirname "$old")/../../../vmlinux

out=$BUILD/bloat.txt
"$KSRC/scripts/bloat-o-meter" "$old" "$new" | tee "$out"
delta=$(sed -n 's/^add\/remove: .* (\(-\?[0-9]*\))$/\1/p' "$out" | head -1)
[ -n "$delta" ] || die "could not read the total from bloat-o-meter"
echo "vmlinux grows by $delta bytes (budget $budget)"
[ "$delta" -le "$budget" ] || die "over budget: $delta > $budget bytes"
