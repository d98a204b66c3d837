#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What the series adds to vmlinux: scripts/bloat-o-meter, stock vs patched,
# same configuration.
#   bloat.sh [on|off|defconfig]
#   on        tinyconfig + configs/usertaint.config + configs/bloat.config
#             (CONFIG_TAINT_LOG=y, no KUnit): aim 8192 bytes
#   off       the same with configs/bloat-off.config (CONFIG_TAINT_LOG=n):
#             aim 256 bytes
#   defconfig x86_64_defconfig + configs/bloat-defconfig.config (TAINT_LOG=y)
# The aims are figures to report (docs/abi.md 1.5), not a reason to fail: the
# script prints the figure, the aim and whether it is met, and exits 0
# unless a build fails. Output: build/bloat-<mode>.txt.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"

mode=${1:-on}
case $mode in
on) frag=bloat aim=8192 ;;
off) frag=bloat-off aim=256 ;;
defconfig) frag=bloat-defconfig aim=8192; export UT_BASE=x86_64_defconfig ;;
*) die "usage: bloat.sh [on|off|defconfig]" ;;
esac

"$ROOT/scripts/build/tree.sh" prepare >&2
stock=$(stock_tree)

# The stock side of on and off is the same kernel (CONFIG_TAINT_LOG does
# not exist there): one build, configs/bloat.config.
sfrag=$frag
[ "$mode" = defconfig ] || sfrag=bloat
new=$("$ROOT/scripts/build/kernel.sh" "$frag")
old=$(UT_KSRC=$stock UT_LAX_CONFIG=1 UT_VARIANT_DIR=$sfrag-stock "$ROOT/scripts/build/kernel.sh" "$sfrag")
new=$(dirname "$new")/../../../vmlinux
old=$(dirname "$old")/../../../vmlinux

out=$BUILD/bloat-$mode.txt
"$KSRC/scripts/bloat-o-meter" "$old" "$new" | tee "$out"
delta=$(sed -n 's/^add\/remove: .* (\(-\?[0-9]*\))$/\1/p' "$out")
delta=${delta%%$'\n'*}	# the first one
[ -n "$delta" ] || die "could not read the total from bloat-o-meter"
if [ "$delta" -le "$aim" ]; then
	echo "vmlinux ($mode) grows by $delta bytes: within the aim of $aim" | tee -a "$out"
else
	echo "vmlinux ($mode) grows by $delta bytes: over the aim of $aim by $((delta - aim))" | tee -a "$out"
fi
